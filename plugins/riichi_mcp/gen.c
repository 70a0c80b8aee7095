/* plugins/riichi_mcp/gen.c — one training example (gen.h). */
#include "gen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../riichi_oneplayer/policy.h"
#include "../riichi_oneplayer/weights_io.h"
#include "taikai/rng.h"

void mcg_params_init(mcg_params *p, uint64_t seed, int opponents, const double *w) {
  memset(p, 0, sizeof *p);
  p->seed = seed;
  p->opponents = opponents;
  p->max_turn = 18;
  p->w = w;
  p->seat_wind = p->round_wind = p->turn = p->force_kind = -1;
}

int mcg_label(int han, int yakuman) {
  if (yakuman > 0 || han >= 4) return 4;
  return han < 0 ? 0 : han;
}

typedef struct sink_ctx {
  int self;
  int won, han, yakuman;
} sink_ctx;

static void on_event(void *ctx, const tk_riichi_event *ev) {
  sink_ctx *s = ctx;
  if (ev->type == TK_RIICHI_EV_HORA && ev->actor == s->self) {
    s->won = 1;
    s->han = ev->score.han;
    s->yakuman = ev->score.yakuman;
  }
}

/* The move key that merges forms differing only by a red five: action type, kind of its tile,
 * kinds of its consumed tiles, kind of the following discard. */
static uint32_t move_key(const tk_riichi_action *a, uint8_t discard) {
  uint32_t k = a->type;
  k = k * 64 + (uint32_t)tk_tile_kind(a->tile);
  int c0 = 63, c1 = 63;
  if (a->type == TK_RIICHI_CHI || a->type == TK_RIICHI_PON) {
    c0 = tk_tile_kind(a->consumed[0]);
    c1 = tk_tile_kind(a->consumed[1]);
  }
  k = (k * 64 + (uint32_t)c0) * 64 + (uint32_t)c1;
  return k * 64 + (discard == TK_TILE_NONE ? 63u : (uint32_t)tk_tile_kind(discard));
}

static int has_win(const tk_riichi_legal *l) {
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_TSUMO || l->a[i].type == TK_RIICHI_RON) return 1;
  return 0;
}

/* mcg_play (decide NULL: the policy, one random move) and mcg_evaluate (decide given: every
 * decision of the self player, no random move; the set-up draws are made alike). */
static int play(const mcg_params *p, uint64_t hand, mcx_example *e, mcg_result *res,
                mcg_decide_fn decide, void *dctx, tk_error *err) {
  mcg_result r;
  memset(&r, 0, sizeof r);
  tk_rng rng;
  tk_rng_seed2(&rng, p->seed ^ MCG_SALT, hand);
  r.seat_wind = (int)tk_rng_below(&rng, 4);
  uint32_t rw = tk_rng_below(&rng, 9);
  r.round_wind = rw < 4 ? 0 : rw < 8 ? 1 : 2;
  r.turn = 1 + (int)tk_rng_below(&rng, (uint32_t)p->max_turn);
  r.random_phase = -1;
  if (p->seat_wind >= 0) r.seat_wind = p->seat_wind;
  if (p->round_wind >= 0) r.round_wind = p->round_wind;
  if (p->turn >= 0) r.turn = p->turn;
  int self = r.seat_wind; /* seat 0 deals */

  static _Thread_local tk_riichi_game g;
  int rc = tk_riichi_init(&g, NULL, p->seed, hand, NULL, err);
  if (rc) return rc;
  /* Every hand of the round wind is dealt as its first kyoku of a fresh game: the engine reads
   * the round wind from `round` (round / 4) and the dealer from round % 4. */
  g.round = (uint8_t)(4 * r.round_wind);
  sink_ctx sc = {self, 0, 0, 0};
  tk_riichi_sink sink = {on_event, &sc};
  if ((rc = tk_riichi_deal(&g, p->wall, &sink, err))) return rc;

  int draws = 0, done = 0, pending = 0, melds_before = 0;
  uint8_t planned = TK_TILE_NONE;
  tk_riichi_legal l;
  tk_riichi_view v;
  static _Thread_local rop_cand cands[ROP_MAX_CANDS];
  int result = MCG_NONE;
  r.why = MCG_WHY_ENDED;
  while (g.phase == TK_RIICHI_PHASE_SELF || g.phase == TK_RIICHI_PHASE_REACT) {
    int seat = tk_riichi_to_act(&g);
    if (seat < 0) break;
    tk_riichi_legal_of(&g, seat, &l);
    if (l.n == 0) return TK_ESTATE;
    int pick = -1;
    tk_riichi_action act;
    if (seat != self) {
      if (p->opponents == MCX_OPP_TSUMOGIRI) {
        pick = tk_riichi_fallback(&l);
      } else {
        tk_riichi_view_of(&g, seat, &v);
        rop_choice c;
        if ((rc = rop_decide(&v, &l, p->w, &c, err))) return rc;
        pick = c.action;
      }
      act = l.a[pick];
    } else {
      int is_draw = g.phase == TK_RIICHI_PHASE_SELF && g.drawn != TK_TILE_NONE && !g.rinshan;
      /* The random decision: the first decision after the self player's (t-1)-th draw. */
      int random_now = !decide && !done && draws >= r.turn - 1;
      if (is_draw) draws++;
      if (pending && g.phase == TK_RIICHI_PHASE_SELF && g.after_call && planned != TK_TILE_NONE) {
        pick = -1;
        for (int i = 0; i < l.n; i++)
          if (l.a[i].type == TK_RIICHI_DISCARD && l.a[i].tile == planned) pick = i;
        if (pick < 0) return TK_ESTATE;
        pending = 0;
        planned = TK_TILE_NONE;
        act = l.a[pick];
      } else if (random_now) {
        done = 1;
        r.random_phase = g.phase;
        if (g.p[self].riichi) {
          r.why = MCG_WHY_RIICHI;
          break;
        }
        if (has_win(&l)) {
          r.why = MCG_WHY_WIN;
          break;
        }
        tk_riichi_view_of(&g, self, &v);
        int n = rop_candidates(&v, &l, cands, ROP_MAX_CANDS);
        int uniq[ROP_MAX_CANDS], nu = 0;
        uint32_t keys[ROP_MAX_CANDS];
        for (int i = 0; i < n; i++) {
          const tk_riichi_action *a = &l.a[cands[i].action];
          if (a->type == TK_RIICHI_KYUUSHU || a->type == TK_RIICHI_RIICHI) continue;
          uint32_t k = move_key(a, cands[i].discard);
          int dup = 0;
          for (int j = 0; j < nu && !dup; j++) dup = keys[j] == k;
          if (!dup) {
            keys[nu] = k;
            uniq[nu++] = i;
          }
        }
        if (nu == 0) return TK_ESTATE;
        r.nmoves = nu;
        const rop_cand *c = &cands[uniq[tk_rng_below(&rng, (uint32_t)nu)]];
        if (p->force_kind >= 0) {
          c = NULL;
          for (int i = 0; i < nu && !c; i++) {
            const tk_riichi_action *a = &l.a[cands[uniq[i]].action];
            if (a->type == TK_RIICHI_DISCARD && tk_tile_kind(a->tile) == p->force_kind)
              c = &cands[uniq[i]];
          }
          if (!c) return tk_error_set(err, TK_EINVAL, -1, "force_kind %d: not a move", p->force_kind);
        }
        int nf = rof_features(&c->hand, &c->ctx, e->f, NULL, err);
        if (nf < 0) return nf;
        if (nf > MCX_MAX_FEATURES) return TK_EINVAL;
        e->n = (uint16_t)nf;
        e->hand = hand;
        act = l.a[c->action];
        if (act.type == TK_RIICHI_DISCARD) {
          /* riichi with this discard when legal: the same tile, the same copy when listed */
          int ri = -1;
          for (int i = 0; i < l.n; i++)
            if (l.a[i].type == TK_RIICHI_RIICHI && l.a[i].tile == act.tile &&
                (ri < 0 || l.a[i].tsumogiri == act.tsumogiri))
              ri = i;
          if (ri >= 0) act = l.a[ri];
        }
        if (act.type == TK_RIICHI_CHI || act.type == TK_RIICHI_PON ||
            act.type == TK_RIICHI_MINKAN) {
          pending = 1;
          planned = c->discard;
          melds_before = g.p[self].nmelds;
        }
        result = MCG_EXAMPLE;
        r.why = MCG_WHY_OK;
      } else {
        tk_riichi_view_of(&g, self, &v);
        rop_choice c;
        if ((rc = decide ? decide(dctx, &v, &l, &c, err) : rop_decide(&v, &l, p->w, &c, err)))
          return rc;
        if (c.action < 0 || c.action >= l.n)
          return tk_error_set(err, TK_ESTATE, -1, "hand %llu: the self player chose action %d of %d",
                              (unsigned long long)hand, c.action, l.n);
        act = l.a[c.action];
      }
    }
    if ((rc = tk_riichi_apply(&g, seat, &act, &sink, err))) return rc;
    r.decisions++;
    if (pending && g.phase != TK_RIICHI_PHASE_REACT && g.p[self].nmelds == melds_before) {
      /* The claims were resolved and the self player's call was not among the winners. */
      result = MCG_NONE;
      r.why = MCG_WHY_OVERRIDDEN;
      break;
    }
    if (pending && planned == TK_TILE_NONE && g.p[self].nmelds > melds_before) pending = 0;
  }
  const tk_riichi_player *me = &g.p[self];
  for (int i = 0; i < me->nmelds; i++) r.calls += me->melds[i].type != TK_CALL_ANKAN;
  r.riichi = me->riichi;
  r.shanten = sc.won ? -1 : tk_shanten(me->hand);
  if (decide) {
    r.why = MCG_WHY_OK;
    r.han = sc.han;
    r.yakuman = sc.yakuman;
    if (res) *res = r;
    return sc.won ? mcg_label(sc.han, sc.yakuman) : 0;
  }
  if (result == MCG_EXAMPLE) {
    r.han = sc.han;
    r.yakuman = sc.yakuman;
    e->label = sc.won ? (uint8_t)mcg_label(sc.han, sc.yakuman) : 0;
  }
  if (res) *res = r;
  return result;
}

int mcg_play(const mcg_params *p, uint64_t hand, mcx_example *e, mcg_result *res, tk_error *err) {
  return play(p, hand, e, res, NULL, NULL, err);
}

int mcg_evaluate(const mcg_params *p, uint64_t hand, mcg_decide_fn decide, void *ctx,
                 mcg_result *res, tk_error *err) {
  if (!decide) return tk_error_set(err, TK_EINVAL, -1, "mcg_evaluate: no decision function");
  return play(p, hand, NULL, res, decide, ctx, err);
}

int mcg_load_policy(const char *path, char *used, size_t cap, double **w, tk_error *err) {
  if (path) {
    snprintf(used, cap, "%s", path);
  } else {
    ssize_t n = cap > 64 ? readlink("/proc/self/exe", used, cap - 64) : -1;
    if (n <= 0)
      return tk_error_set(err, TK_ENOTFOUND, -1, "cannot find this program's folder for the "
                          "default policy weights: give --weights");
    used[n] = 0;
    char *slash = strrchr(used, '/');
    strcpy(slash ? slash + 1 : used, "plugins/riichi_oneplayer.tkw");
  }
  return rop_weights_load(used, w, NULL, err);
}

int mcg_opponents_of(const char *name) {
  return !strcmp(name, "tsumogiri") ? MCX_OPP_TSUMOGIRI : !strcmp(name, "policy") ? MCX_OPP_POLICY : -1;
}
