/* plugins/riichi_solo_teacher/teacher.c — riichi agent "riichi_solo_teacher": the teacher of the
 * one-player policy (../shared/specs/riichi-agents.md section 5). It plays each
 * hand as one-player mahjong: every move is chosen by the one-player search (taikai/solve.h),
 * the opponents ignored. Its objective (param "objective") is the win probability ("win", the
 * default: TK_SOLVE_WIN) or the expected points of the win ("points": TK_SOLVE_POINTS with the
 * riichi scorer below).
 *   - wins (tsumo, ron) whenever legal; riichi whenever legal, with the best discard among those
 *     that allow it; in riichi, the drawn tile (no kans); never the nine-terminals draw;
 *   - at an own draw: the discard of highest win probability; a closed or added kan when the
 *     hand after it (a replacement draw to come) has a higher one than the best discard;
 *   - at a call opportunity: pass (the hand as it is), against each chi / pon with each discard
 *     kuikae allows, evaluated on the hand after the call, and an open kan; ties go to pass.
 *     A call is considered only when the hand after it keeps a way to a yaku (docs/
 *     riichi-oneplayer.md, "The teacher"), since the win objective does not know yaku.
 * Draws left: a seat draws every fourth live tile, so after its own discard it has
 * floor(tiles_left / 4) draws; passing on a discard of the seat d places before it,
 * floor((tiles_left - d) / 4) + 1 when tiles_left >= d; a kan adds the replacement draw and
 * moves one live tile to the dead wall (1 + floor((tiles_left - 1) / 4)). Exact when no later
 * call or kan changes the order.
 * Cost: the search runs exactly up to `max_states` memoised states and then in the direct mode
 * (solve.h); hands of `direct_from` shanten or more start in the direct mode; past
 * `max_direct_states` (or at `greedy_from` shanten or more) the choice is greedy's: the least
 * shanten (every form), then the most unseen effective tiles, then the lowest kind.
 * The riichi scorer ("points") is tk_solve_riichi_points (solve.h): a tsumo under the Tenhou
 * rules with the player's seat and round winds, the dora indicators in view, the hand's melds
 * (those called, and the one a call or kan candidate would add), riichi when the hand is closed
 * (the policy declares it at every tenpai); red fives, ura-dora, ippatsu, haitei, rinshan and
 * ron are outside the one-player model.
 * Deterministic: no randomness. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/riichi.h"
#include "taikai/solve.h"

typedef struct agent {
  tk_solver *s;
  long max_states, max_direct_states;
  int direct_from, greedy_from;
  int points; /* objective "points" */
} agent;

/* The riichi scorer's context (tk_solve_riichi_points) for the viewer's hand in v, with the melds
 * in view and, when type >= 0, one more: a call of `type` at kind `kind` (a chi's lowest kind),
 * or for TK_CALL_KAKAN the pon of `kind` made a kan. */
static void score_ctx_of(const tk_riichi_view *v, int type, int kind, tk_solve_riichi *x) {
  tk_call calls[5];
  uint8_t dora[5];
  int n = 0, s = v->seat;
  for (int i = 0; i < v->nmelds[s] && i < 4; i++) {
    const tk_riichi_meld *m = &v->melds[s][i];
    calls[n] = (tk_call){m->type, (uint8_t)tk_tile_kind(m->tiles[0]), 0};
    if (type == TK_CALL_KAKAN && m->type == TK_CALL_PON && calls[n].kind == kind)
      calls[n].type = TK_CALL_KAKAN;
    n++;
  }
  if (type >= 0 && type != TK_CALL_KAKAN) calls[n++] = (tk_call){(uint8_t)type, (uint8_t)kind, 0};
  for (int i = 0; i < v->ndora && i < 5; i++) dora[i] = (uint8_t)tk_tile_kind(v->dora[i]);
  tk_solve_riichi_init(x, v->seat_wind, v->round_wind, dora, v->ndora < 5 ? v->ndora : 5, calls, n);
}

static const struct {
  const char *name;
  long lo, hi, def;
} PARAMS[] = {
    {"max_states", 1, 10000000, 1000},
    {"max_direct_states", 1, 10000000, 5000},
    {"direct_from", 0, 8, 2},
    {"greedy_from", 0, 9, 3},
};
enum { NPARAMS = 4 };
static const char KNOWN[] = "known: objective, max_states, max_direct_states, direct_from, "
                            "greedy_from";

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  (void)seed;
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p || !json_is_object(p)) {
    tk_error_set(err, TK_EPARSE, -1, "riichi_solo_teacher: params: %s",
                 p ? "expected an object" : jerr.text);
    json_decref(p);
    return NULL;
  }
  long val[NPARAMS];
  for (int i = 0; i < NPARAMS; i++) val[i] = PARAMS[i].def;
  int points = 0;
  const char *key;
  json_t *v;
  json_object_foreach(p, key, v) {
    if (!strcmp(key, "objective")) {
      const char *o = json_string_value(v);
      if (o && (!strcmp(o, "win") || !strcmp(o, "points"))) {
        points = !strcmp(o, "points");
        continue;
      }
      char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
      tk_error_set(err, TK_EINVAL, -1, "riichi_solo_teacher: params: \"objective\" = %s: "
                   "expected \"win\" or \"points\"", s ? s : "?");
      free(s);
      json_decref(p);
      return NULL;
    }
    int i = 0;
    while (i < NPARAMS && strcmp(key, PARAMS[i].name)) i++;
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (i == NPARAMS) {
      tk_error_set(err, TK_EINVAL, -1, "riichi_solo_teacher: params: unknown field \"%s\" = %s "
                   "(%s)", key, s ? s : "?", KNOWN);
    } else if (!json_is_integer(v) || json_integer_value(v) < PARAMS[i].lo ||
               json_integer_value(v) > PARAMS[i].hi) {
      tk_error_set(err, TK_EINVAL, -1, "riichi_solo_teacher: params: \"%s\" = %s: expected an "
                   "integer in %ld..%ld", key, s ? s : "?", PARAMS[i].lo, PARAMS[i].hi);
    } else {
      val[i] = (long)json_integer_value(v);
      free(s);
      continue;
    }
    free(s);
    json_decref(p);
    return NULL;
  }
  json_decref(p);
  agent *a = calloc(1, sizeof *a);
  if (!a || !(a->s = tk_solver_new())) {
    free(a);
    tk_error_set(err, TK_ENOMEM, -1, "riichi_solo_teacher: out of memory");
    return NULL;
  }
  a->max_states = val[0];
  a->max_direct_states = val[1];
  a->direct_from = (int)val[2];
  a->greedy_from = (int)val[3];
  a->points = points;
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  tk_solver_free(a->s);
  free(a);
}
static int begin_game(tk_agent_instance *self, const void *info) {
  (void)self, (void)info;
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) { (void)self, (void)result; }

/* Greedy's value of discarding kind k from c (3k+2 tiles): shanten first, effective tiles next;
 * higher is better. */
static double greedy_value(uint8_t *c, const uint8_t *seen, int k) {
  uint8_t s2[TK_KINDS];
  memcpy(s2, seen, TK_KINDS);
  c[k]--;
  s2[k] = (uint8_t)(s2[k] < 4 ? s2[k] + 1 : 4);
  int n = 0, sh = 0;
  tk_ukeire(c, s2, TK_FORM_ALL, &n, &sh);
  c[k]++;
  return -1000.0 * sh + n;
}

/* The value of each discard kind of `c` (3k+2 tiles) in val[kind] (others untouched), or, for a
 * 3k+1 hand, its own value in val[0]: the win probability within `draws` draws (the expected
 * points, scored with `sc`, for the objective "points"), or greedy's
 * value minus 10^6 when the search is not used (`greedy`, the hand's shanten at greedy_from or
 * more, or the direct mode's cap reached). A decision sets `greedy` for every option when the
 * hand it starts from is to be played greedily, so that like is compared with like; the offset
 * only matters when the search fails on one option of a searched decision. Returns 1 when the
 * search was used. */
static int values(agent *a, const uint8_t *c, const uint8_t *seen, int draws, int greedy,
                  tk_solve_riichi *sc, double *val) {
  int tiles = 0;
  for (int k = 0; k < TK_KINDS; k++) tiles += c[k];
  int sh = tk_shanten_forms(c, TK_FORM_ALL);
  if (draws > TK_SOLVE_MAX_DRAWS) draws = TK_SOLVE_MAX_DRAWS;
  if (draws < 0) draws = 0;
  if (!greedy && sh < a->greedy_from) {
    tk_solve_opts o = {.draws = draws, .objective = TK_SOLVE_WIN, .dora_indicator = TK_TILE_NONE,
                       .max_states = a->max_states,
                       .first_mode = sh >= a->direct_from ? TK_SOLVE_DIRECT : TK_SOLVE_EXACT,
                       .max_direct_states = a->max_direct_states};
    if (a->points) {
      o.objective = TK_SOLVE_POINTS;
      o.score = tk_solve_riichi_points;
      o.score_ctx = sc;
    }
    tk_solve_result r;
    if (!tk_solve(a->s, c, seen, &o, &r, NULL)) {
      for (int i = 0; i < r.n; i++)
        val[r.c[i].discard < 0 ? 0 : r.c[i].discard] = a->points ? r.c[i].points : r.c[i].win;
      return 1;
    }
  }
  uint8_t h[TK_KINDS];
  memcpy(h, c, TK_KINDS);
  if (tiles % 3 == 2) {
    for (int k = 0; k < TK_KINDS; k++)
      if (h[k]) val[k] = greedy_value(h, seen, k) - 1e6;
  } else {
    int n = 0, s = 0;
    tk_ukeire(h, seen, TK_FORM_ALL, &n, &s);
    val[0] = -1000.0 * s + n - 1e6;
  }
  return 0;
}

/* Is value x better than y? The expected points are sums of many terms whose order differs
 * between options (the points objective's memo does not merge mirror-image hands, as the win
 * objective's does), so two options of equal value can differ in the last bits: within 10^-9 of
 * the larger they are a tie, kept by the option met first. The win objective compares exactly,
 * as it always has. */
static int above(const agent *a, double x, double y) {
  if (!a->points) return x > y;
  double m = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
  return x - y > 1e-9 * (m > 1 ? m : 1);
}

static int is_yakuhai(const tk_riichi_view *v, int k) {
  return k >= TK_HAKU || k == TK_EAST + v->seat_wind || k == TK_EAST + v->round_wind;
}

/* Does the hand after a call (concealed counts c, the view's melds plus one of type `type` at
 * kind `lo`) keep a way to a yaku: a yakuhai triplet (called, or 3 concealed), or every tile a
 * simple (tanyao), or every number tile in one suit (honitsu / chinitsu)? */
static int yaku_path(const tk_riichi_view *v, const uint8_t *c, int type, int lo) {
  uint8_t all[TK_KINDS];
  memcpy(all, c, TK_KINDS);
  int s = v->seat, yakuhai = 0;
  for (int m = 0; m <= v->nmelds[s]; m++) {
    int t, k;
    if (m < v->nmelds[s]) t = v->melds[s][m].type, k = tk_tile_kind(v->melds[s][m].tiles[0]);
    else t = type, k = lo;
    int n = t == TK_CALL_CHI ? 1 : 3;
    for (int j = 0; j < 3; j++) all[t == TK_CALL_CHI ? k + j : k] += (uint8_t)(t == TK_CALL_CHI || j < n);
    if (t != TK_CALL_CHI && is_yakuhai(v, k)) yakuhai = 1;
  }
  for (int k = TK_EAST; k < TK_KINDS; k++)
    if (c[k] >= 3 && is_yakuhai(v, k)) yakuhai = 1;
  if (yakuhai) return 1;
  int simple = 1, suits = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (!all[k]) continue;
    if (k >= TK_EAST || k % 9 == 0 || k % 9 == 8) simple = 0;
    if (k < TK_EAST) suits |= 1 << (k / 9);
  }
  return simple || suits == 1 || suits == 2 || suits == 4;
}

static int find(const tk_riichi_legal *l, int type) {
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == type) return i;
  return -1;
}

/* The legal action discarding kind k (riichi if `riichi`): a plain five before the red one. */
static int discard_of(const tk_riichi_legal *l, int k, int riichi) {
  int pick = -1;
  for (int i = 0; i < l->n; i++) {
    const tk_riichi_action *x = &l->a[i];
    if (x->type != (riichi ? TK_RIICHI_RIICHI : TK_RIICHI_DISCARD) || tk_tile_kind(x->tile) != k)
      continue;
    if (pick < 0 || (tk_tile_is_red(l->a[pick].tile) && !tk_tile_is_red(x->tile))) pick = i;
  }
  return pick;
}

static int self_turn(agent *a, const tk_riichi_view *v, const tk_riichi_legal *l) {
  int i = find(l, TK_RIICHI_TSUMO);
  if (i >= 0) return i;
  if (v->riichi[v->seat]) return find(l, TK_RIICHI_DISCARD);
  int t = v->tiles_left, draws = t / 4;
  double val[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) val[k] = -1e300;
  int greedy = tk_shanten_forms(v->hand, TK_FORM_ALL) >= a->greedy_from;
  tk_solve_riichi sc;
  score_ctx_of(v, -1, 0, &sc);
  values(a, v->hand, v->seen, draws, greedy, &sc, val);
  int riichi = find(l, TK_RIICHI_RIICHI) >= 0;
  int best = -1;
  for (int k = 0; k < TK_KINDS; k++)
    if (discard_of(l, k, riichi) >= 0 && (best < 0 || above(a, val[k], val[best]))) best = k;
  if (best < 0) return tk_riichi_fallback(l);
  double top = val[best];
  int pick = discard_of(l, best, riichi);
  if (riichi) return pick;
  /* kans: the hand after it, a replacement draw to come */
  int kdraws = 1 + (t > 0 ? (t - 1) / 4 : 0);
  for (int j = 0; j < l->n; j++) {
    const tk_riichi_action *x = &l->a[j];
    if (x->type != TK_RIICHI_ANKAN && x->type != TK_RIICHI_KAKAN) continue;
    uint8_t c[TK_KINDS], seen[TK_KINDS];
    memcpy(c, v->hand, TK_KINDS);
    memcpy(seen, v->seen, TK_KINDS);
    int k = tk_tile_kind(x->tile);
    if (x->type == TK_RIICHI_ANKAN) c[k] = 0;
    else c[k]--;
    seen[k] = (uint8_t)(4 - c[k]);
    double kv[TK_KINDS];
    kv[0] = -1e300;
    tk_solve_riichi kc;
    score_ctx_of(v, x->type == TK_RIICHI_ANKAN ? TK_CALL_ANKAN : TK_CALL_KAKAN, k, &kc);
    values(a, c, seen, kdraws, greedy, &kc, kv);
    if (above(a, kv[0], top)) top = kv[0], pick = j;
  }
  return pick;
}

static int react(agent *a, const tk_riichi_view *v, const tk_riichi_legal *l) {
  int i = find(l, TK_RIICHI_RON);
  if (i >= 0) return i;
  int pass = find(l, TK_RIICHI_PASS);
  if (l->n == 1 || v->riichi[v->seat]) return pass;
  int t = v->tiles_left, d = (v->seat - v->actor + 4) % 4;
  int pass_draws = t >= d && d > 0 ? (t - d) / 4 + 1 : 0;
  double pv[TK_KINDS];
  pv[0] = -1e300;
  int greedy = tk_shanten_forms(v->hand, TK_FORM_ALL) >= a->greedy_from;
  tk_solve_riichi sc;
  score_ctx_of(v, -1, 0, &sc);
  values(a, v->hand, v->seen, pass_draws, greedy, &sc, pv);
  double top = pv[0];
  int pick = pass;
  for (int j = 0; j < l->n; j++) {
    const tk_riichi_action *x = &l->a[j];
    int k = tk_tile_kind(x->tile);
    uint8_t c[TK_KINDS], seen[TK_KINDS];
    memcpy(c, v->hand, TK_KINDS);
    memcpy(seen, v->seen, TK_KINDS);
    if (x->type == TK_RIICHI_MINKAN) {
      c[k] = 0;
      seen[k] = 4;
      if (!yaku_path(v, c, TK_CALL_MINKAN, k)) continue;
      double kv[TK_KINDS];
      kv[0] = -1e300;
      tk_solve_riichi kc;
      score_ctx_of(v, TK_CALL_MINKAN, k, &kc);
      values(a, c, seen, 1 + (t > 0 ? (t - 1) / 4 : 0), greedy, &kc, kv);
      if (above(a, kv[0], top)) top = kv[0], pick = j;
    } else if (x->type == TK_RIICHI_CHI || x->type == TK_RIICHI_PON) {
      int lo = k;
      for (int m = 0; m < 2; m++) {
        int ck = tk_tile_kind(x->consumed[m]);
        c[ck]--;
        if (seen[ck] < 4) seen[ck]++;
        if (ck < lo) lo = ck;
      }
      if (!yaku_path(v, c, x->type == TK_RIICHI_PON ? TK_CALL_PON : TK_CALL_CHI, lo)) continue;
      /* the discards kuikae allows: not the called kind, nor a chi's other end */
      uint64_t ban = 1ULL << k;
      if (x->type == TK_RIICHI_CHI) {
        int n = k % 9;
        if (k == lo && n + 3 <= 8) ban |= 1ULL << (k + 3);
        if (k == lo + 2 && n - 3 >= 0) ban |= 1ULL << (k - 3);
      }
      /* the called tile goes to the meld: the 3k+2 hand to discard from is c as it is (the
       * two consumed tiles removed); the search counts the meld through the tile count */
      double cv[TK_KINDS];
      for (int q = 0; q < TK_KINDS; q++) cv[q] = -1e300;
      tk_solve_riichi cc;
      score_ctx_of(v, x->type == TK_RIICHI_PON ? TK_CALL_PON : TK_CALL_CHI, lo, &cc);
      values(a, c, seen, t / 4, greedy, &cc, cv);
      for (int q = 0; q < TK_KINDS; q++)
        if (c[q] && !(ban >> q & 1) && above(a, cv[q], top)) top = cv[q], pick = j;
    }
  }
  return pick;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_riichi_view *v = view;
  const tk_riichi_legal *l = legal;
  if (!l->n) return TK_ESTATE;
  int i = v->phase == TK_RIICHI_PHASE_REACT ? react(a, v, l) : self_turn(a, v, l);
  if (i < 0 || i >= l->n) i = tk_riichi_fallback(l);
  *(tk_riichi_action *)action = l->a[i];
  return 0;
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "riichi_solo_teacher",
    .version = "1.1.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "the one-player policy's teacher: discards, calls and kans by the one-player "
                   "search's win probability or expected points, opponents ignored; wins and "
                   "riichi whenever legal",
    .params_json = "{\"objective\": \"win\", \"max_states\": 1000, \"max_direct_states\": "
                   "5000, \"direct_from\": 2, \"greedy_from\": 3}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(riichi_solo_teacher) { return &descriptor; }
