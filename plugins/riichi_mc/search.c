/* plugins/riichi_mc/search.c — riichi_mc's decision (rmc.h): the opening by the one-player
 * policy, then Monte Carlo over the candidates with the EFR reward. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "riichi_oneplayer/policy.h"
#include "rmc.h"
#include "rsamp.h"
#include "taikai/mahjong.h"

static int int_param(const json_t *v, long lo, long hi, int *out) {
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) return -1;
  *out = (int)json_integer_value(v);
  return 0;
}

static int real_param(const json_t *v, double lo, double hi, double *out) {
  if (!json_is_number(v)) return -1;
  double x = json_number_value(v);
  if (!(x >= lo && x <= hi)) return -1;
  *out = x;
  return 0;
}

rmc_params rmc_default_params(void) {
  rmc_params p = {0};
  p.playouts = 1000;
  p.width = 5;
  p.safe = 2;
  p.fold_shanten = 2;
  p.playout_filter = 1;
  p.opening = 1;
  p.opening_dealin = 0.02;
  p.opening_defr = 0.01;
  p.opening_tiles = 16;
  p.model_dealin = 1;
  p.sampler = tk_riichi_sampler_find("tenpai");
  snprintf(p.sampler_name, sizeof p.sampler_name, "tenpai");
  return p;
}

int rmc_param(rmc_params *r, const char *key, const void *value, char *why, size_t cap) {
  const json_t *v = value;
  int bad = 0;
  if (!strcmp(key, "playouts")) bad = int_param(v, 1, 1000000, &r->playouts);
  else if (!strcmp(key, "width")) bad = int_param(v, 1, TK_RIICHI_MAX_LEGAL, &r->width);
  else if (!strcmp(key, "safe")) bad = int_param(v, 0, TK_RIICHI_MAX_LEGAL, &r->safe);
  else if (!strcmp(key, "fold_shanten")) bad = int_param(v, 0, 9, &r->fold_shanten);
  else if (!strcmp(key, "opening_tiles")) bad = int_param(v, 0, TK_RIICHI_LIVE, &r->opening_tiles);
  else if (!strcmp(key, "opening_dealin")) bad = real_param(v, 0, 1, &r->opening_dealin);
  else if (!strcmp(key, "opening_defr")) bad = real_param(v, 0, 3, &r->opening_defr);
  else if (!strcmp(key, "opening") || !strcmp(key, "model_dealin") ||
           !strcmp(key, "playout_filter")) {
    if (!json_is_boolean(v)) {
      snprintf(why, cap, "must be true or false");
      return -1;
    }
    *(!strcmp(key, "opening")        ? &r->opening
      : !strcmp(key, "model_dealin") ? &r->model_dealin
                                     : &r->playout_filter) = json_is_true(v);
    return 0;
  } else if (!strcmp(key, "sampler")) {
    const char *name = json_is_string(v) ? json_string_value(v) : NULL;
    if (!name || !rs_sampler_known(name)) {
      snprintf(why, cap, "not a sampler (known: %s)", rs_sampler_names());
      return -1;
    }
    snprintf(r->sampler_name, sizeof r->sampler_name, "%s", name);
    r->sampler = tk_riichi_sampler_find(name); /* NULL for this library's: rmc_sampler_open */
    return 0;
  } else if (!strcmp(key, "sampler_options")) {
    char *text = json_is_object(v) ? json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    int fits = text && strlen(text) < sizeof r->sampler_options;
    if (fits) snprintf(r->sampler_options, sizeof r->sampler_options, "%s", text);
    else snprintf(why, cap, text ? "longer than %zu characters" : "must be an object",
                  sizeof r->sampler_options - 1);
    free(text);
    return fits ? 0 : -1;
  } else if (!strcmp(key, "sampler_file")) {
    if (!json_is_string(v) || strlen(json_string_value(v)) >= sizeof r->sampler_file) {
      snprintf(why, cap, "must be a file name (a string)");
      return -1;
    }
    snprintf(r->sampler_file, sizeof r->sampler_file, "%s", json_string_value(v));
    return 0;
  } else {
    return 1;
  }
  if (bad) snprintf(why, cap, "out of range or of the wrong type");
  return bad ? -1 : 0;
}

int rmc_sampler_open(rmc_params *p, const char *who, rs_sampler **s, tk_error *err) {
  *s = NULL;
  tk_error e = {0};
  if (rs_sampler_open(p->sampler_name, p->sampler_options[0] ? p->sampler_options : NULL,
                      p->sampler_file, s, &e))
    return tk_error_set(err, e.code, -1, "%s: params: %s", who, e.msg);
  p->sampler = &(*s)->s;
  return 0;
}

void rmc_rng_of(uint64_t game_seed, const tk_riichi_view *v, tk_rng *rng) {
  uint64_t where = (uint64_t)v->round << 56 | (uint64_t)v->honba << 48 |
                   (uint64_t)v->plays[0] << 40 | (uint64_t)v->plays[1] << 32 |
                   (uint64_t)v->plays[2] << 24 | (uint64_t)v->phase << 16 |
                   (uint64_t)v->tiles_left << 8 | v->nhand;
  tk_rng_seed2(rng, game_seed, tk_mix64(where));
}

/* The EFR of `seat` after the hand of `g` ends as a ron of `winner` off `seat` worth `points`. */
static double efr_after_dealin(const rmc_models *m, const tk_riichi_game *g, int seat, int winner,
                               double points) {
  tk_riichi_game h = *g;
  int32_t pts = (int32_t)(points / 100.0 + 0.5) * 100;
  if (pts < 1000) pts = 1000;
  if (tk_riichi_settle_ron(&h, winner, seat, pts, NULL)) return rm_efr_game(m->efr, g, seat);
  return rm_efr_game(m->efr, &h, seat);
}

/* The situation of the current hand as a hand-boundary state (opening condition 4's EFR(z)). */
static double efr_now(const rmc_models *m, const tk_riichi_view *v) {
  rm_efr_state s;
  memcpy(s.scores, v->scores, sizeof s.scores);
  s.round = v->round;
  s.honba = v->honba;
  s.sticks = v->sticks;
  return rm_efr_value(m->efr, &s, v->seat);
}

/* The policy's score of every candidate move, keyed by the legal action that starts it; a
 * discard's score is the best over its candidates (a chi / pon's too: the best following
 * discard). Unscored actions (wins, riichi, kyuushu) get -INFINITY. Returns the policy's choice
 * (rop_decide). */
static int policy_scores(const rmc_models *m, const tk_riichi_view *v, const tk_riichi_legal *l,
                         double *score, tk_error *err) {
  for (int i = 0; i < l->n; i++) score[i] = -INFINITY;
  rop_cand cands[ROP_MAX_CANDS];
  int n = rop_candidates(v, l, cands, ROP_MAX_CANDS);
  uint32_t f[ROF_MAX_ACTIVE];
  for (int i = 0; i < n; i++) {
    int nf = rof_features(&cands[i].hand, &cands[i].ctx, f, NULL, err);
    if (nf < 0) return nf;
    double s = rop_score(m->policy, f, nf);
    if (s > score[cands[i].action]) score[cands[i].action] = s;
  }
  rop_choice c;
  if (rop_decide(v, l, m->policy, &c, err)) return -1;
  return c.action;
}

/* Is this action a duplicate of an earlier one for the search (the same tile discarded from
 * another copy: the legal list names a tsumogiri and a hand discard of the same tile apart)? */
static int same_move(const tk_riichi_action *a, const tk_riichi_action *b) {
  return a->type == b->type && a->tile == b->tile && a->consumed[0] == b->consumed[0] &&
         a->consumed[1] == b->consumed[1];
}

/* The candidates: wins, every call and pass, kans, the kyuushu draw; the `width` best discards
 * by the policy, the RIICHI_KEEP best of those that allow riichi and the policy's own choice,
 * each discard that allows riichi also as its declaration; and when someone is in riichi the
 * `safe` least dangerous discards. */
enum { RIICHI_KEEP = 2 };
static int candidates(const rmc_params *p, const tk_riichi_legal *l, const double *score,
                      const double *danger, int threatened, int policy_action, int *out) {
  int n = 0;
  int order[TK_RIICHI_MAX_LEGAL], nd = 0;
  for (int i = 0; i < l->n; i++) {
    int dup = 0;
    for (int j = 0; j < i && !dup; j++) dup = same_move(&l->a[i], &l->a[j]);
    if (dup) continue;
    int t = l->a[i].type;
    if (t == TK_RIICHI_DISCARD) order[nd++] = i;
    else if (t != TK_RIICHI_RIICHI) out[n++] = i;
  }
  /* discards by the policy's score (stable: legal order among equals) */
  for (int i = 1; i < nd; i++)
    for (int j = i; j > 0 && score[order[j]] > score[order[j - 1]]; j--) {
      int x = order[j];
      order[j] = order[j - 1];
      order[j - 1] = x;
    }
  uint8_t keep[TK_RIICHI_MAX_LEGAL] = {0};
  for (int i = 0; i < nd && i < p->width; i++) keep[order[i]] = 1;
  /* the best RIICHI_KEEP discards that allow riichi (each then with its declaration), and the
   * policy's own move's discard */
  for (int i = 0, kept = 0; i < nd && kept < RIICHI_KEEP; i++) {
    int riichi = 0;
    for (int j = 0; j < l->n && !riichi; j++)
      riichi = l->a[j].type == TK_RIICHI_RIICHI && l->a[j].tile == l->a[order[i]].tile;
    if (riichi) keep[order[i]] = 1, kept++;
  }
  for (int i = 0; i < nd && policy_action >= 0; i++)
    if (l->a[order[i]].tile == l->a[policy_action].tile &&
        (l->a[policy_action].type == TK_RIICHI_DISCARD ||
         l->a[policy_action].type == TK_RIICHI_RIICHI))
      keep[order[i]] = 1;
  if (threatened && danger) {
    for (int s = 0; s < p->safe; s++) {
      int best = -1;
      for (int i = 0; i < nd; i++)
        if (!keep[order[i]] && (best < 0 || danger[order[i]] < danger[best])) best = order[i];
      if (best >= 0) keep[best] = 1;
    }
  }
  for (int i = 0; i < l->n; i++) {
    if (keep[i]) out[n++] = i;
    /* a riichi declaration with a kept discard's tile */
    if (l->a[i].type == TK_RIICHI_RIICHI)
      for (int j = 0; j < l->n; j++)
        if (keep[j] && l->a[j].tile == l->a[i].tile) {
          int dup = 0;
          for (int k = 0; k < n && !dup; k++) dup = same_move(&l->a[out[k]], &l->a[i]);
          if (!dup) out[n++] = i;
          break;
        }
  }
  return n;
}

/* Opening conditions (../shared/specs/riichi-agents.md §2.8): does any hold? */
static int opening_ends(const rmc_params *p, const rmc_models *m, const tk_riichi_view *v,
                        const tk_riichi_legal *l, int policy_action, const rm_opp_threat *t,
                        const tk_riichi_game *g0) {
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_RIICHI) return 1; /* 1: riichi can be declared */
  for (int o = 0; o < 4; o++)
    if (o != v->seat && v->riichi[o]) return 1; /* 2: an opponent declared riichi */
  if (v->tiles_left <= p->opening_tiles) return 1; /* 5 */
  if (v->phase != TK_RIICHI_PHASE_SELF || policy_action < 0) return 0;
  const tk_riichi_action *a = &l->a[policy_action];
  if (a->type != TK_RIICHI_DISCARD) return 0;
  int k = tk_tile_kind(a->tile);
  double per[4];
  double d = rm_opp_dealin(t, v->seat, k, per);
  if (d > p->opening_dealin) return 1; /* 3 */
  double base = efr_now(m, v), delta = 0;
  for (int o = 0; o < 4; o++)
    if (o != v->seat && per[o] > 0)
      delta += per[o] * (efr_after_dealin(m, g0, v->seat, o, t[o].loss) - base);
  return delta > p->opening_defr; /* 4 */
}

int rmc_decide(const rmc_params *p, const rmc_models *m, const tk_riichi_view *v,
               const tk_riichi_legal *l, int *opening_over, tk_rng *rng, rmc_result *out,
               rmc_stats *st, tk_error *err) {
  memset(out, 0, sizeof *out);
  st->decisions++;
  if (!l->n) return tk_error_set(err, TK_EINVAL, -1, "riichi_mc: the legal list is empty");
  double score[TK_RIICHI_MAX_LEGAL];
  int pa = policy_scores(m, v, l, score, err);
  if (pa < 0) return TK_EINVAL;
  out->action = pa;
  tk_riichi_game *games = malloc(sizeof *games * 2);
  if (!games) return tk_error_set(err, TK_ENOMEM, -1, "riichi_mc: out of memory");
  tk_riichi_game *g0 = &games[0], *g = &games[1];
  /* one determinisation for the public part (the settling of modelled deal-ins) */
  if (p->sampler->sample(p->sampler->ctx, v, NULL, rng, 1, g0, err)) {
    free(games);
    return TK_EINVAL;
  }
  rm_opp_threat t[4];
  rm_opp_assess(m->opp, v, t);
  int threatened = 0;
  for (int o = 0; o < 4; o++) threatened |= o != v->seat && v->riichi[o];
  if (p->opening && !*opening_over) {
    if (!opening_ends(p, m, v, l, pa, t, g0)) {
      st->policy_moves++;
      out->by_policy = 1;
      free(games);
      if (p->opening_move) return p->opening_move(p->opening_ctx, v, l, pa, &out->action, err);
      return 0;
    }
    *opening_over = 1;
  }
  double danger[TK_RIICHI_MAX_LEGAL];
  for (int i = 0; i < l->n; i++) {
    int ty = l->a[i].type;
    int discard = ty == TK_RIICHI_DISCARD || ty == TK_RIICHI_RIICHI;
    danger[i] = v->phase == TK_RIICHI_PHASE_SELF && discard
                    ? rm_opp_dealin(t, v->seat, tk_tile_kind(l->a[i].tile), NULL)
                    : 0;
  }
  int idx[RMC_MAX_CANDS];
  int n = candidates(p, l, score, danger, threatened, pa, idx);
  if (n <= 1) {
    if (n == 1) out->action = idx[0];
    st->policy_moves++;
    out->by_policy = 1;
    free(games);
    return 0;
  }
  st->mc_moves++;
  out->ncands = n;
  double sum[RMC_MAX_CANDS] = {0};
  int rounds = p->playouts / n > 0 ? p->playouts / n : 1;
  for (int r = 0; r < rounds; r++) {
    tk_riichi_game base;
    if (p->sampler->sample(p->sampler->ctx, v, NULL, rng, 1, &base, err)) {
      free(games);
      return TK_EINVAL;
    }
    for (int c = 0; c < n; c++) {
      const tk_riichi_action *a = &l->a[idx[c]];
      *g = base;
      if (tk_riichi_apply(g, v->seat, a, NULL, err)) {
        free(games);
        return TK_EINVAL;
      }
      int modelled = p->model_dealin && danger[idx[c]] > 0;
      if (rmc_playout(p, m, g, modelled, st)) {
        free(games);
        return tk_error_set(err, TK_ESTATE, -1, "riichi_mc: a playout did not end");
      }
      sum[c] += rm_efr_game(m->efr, g, v->seat);
    }
  }
  int best = 0;
  for (int c = 0; c < n; c++) {
    rmc_cand *rc = &out->cands[c];
    rc->action = idx[c];
    rc->playouts = rounds;
    double sim = sum[c] / rounds;
    int ty = l->a[idx[c]].type;
    int discard = ty == TK_RIICHI_DISCARD || ty == TK_RIICHI_RIICHI;
    if (p->model_dealin && danger[idx[c]] > 0 && discard) {
      double per[4], d = rm_opp_dealin(t, v->seat, tk_tile_kind(l->a[idx[c]].tile), per), tot = 0,
                     e = 0;
      for (int o = 0; o < 4; o++)
        if (o != v->seat && per[o] > 0) {
          tot += per[o];
          e += per[o] * efr_after_dealin(m, g0, v->seat, o, t[o].loss);
        }
      rc->dealin = d;
      rc->value = tot > 0 ? d * (e / tot) + (1 - d) * sim : sim;
    } else {
      rc->value = sim;
    }
    if (rc->value < out->cands[best].value - 1e-12) best = c;
  }
  out->action = idx[best];
  free(games);
  return 0;
}

void rmc_player_begin(rmc_player *pl, uint64_t game_seed) {
  pl->seed = game_seed;
  pl->hand_round = -1;
  pl->hand_honba = 0;
  pl->opening_over = 0;
}

int rmc_player_act(rmc_player *pl, const rmc_params *p, const rmc_models *m,
                   const tk_riichi_view *v, const tk_riichi_legal *l, tk_error *err) {
  if (v->round != pl->hand_round || v->honba != pl->hand_honba) {
    pl->hand_round = v->round;
    pl->hand_honba = v->honba;
    pl->opening_over = 0;
  }
  tk_rng rng;
  rmc_rng_of(pl->seed, v, &rng);
  rmc_result r;
  if (rmc_decide(p, m, v, l, &pl->opening_over, &rng, &r, &pl->st, err)) return -1;
  return r.action >= 0 && r.action < l->n ? r.action : -1;
}
