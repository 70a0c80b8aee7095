/* plugins/riichi_mc/playout.c — the simulated players of riichi_mc's Monte Carlo (rmc.h):
 * every seat plays the one-player policy, except that
 *   - a win (tsumo, ron) is always taken, and a seat in riichi discards the drawn tile;
 *   - a seat not in riichi that faces another seat's riichi folds when its concealed tiles are
 *     fold_shanten or more from tenpai: at its own turn it discards the tile the opponent models
 *     give the least deal-in probability (rm_opp_dealin from its own view; ties: the first in
 *     legal order), and it calls nothing (it still rons).
 * The rule is the common defence of rule-based players ("fold unless close to tenpai against a
 * riichi"); the opponent models say which tile is safe. */
#include <string.h>

#include "riichi_oneplayer/policy.h"
#include "rmc.h"
#include "taikai/mahjong.h"

/* Does a seat other than `s` stand in riichi? */
static int facing_riichi(const tk_riichi_game *g, int s) {
  for (int o = 0; o < 4; o++)
    if (o != s && g->p[o].riichi) return 1;
  return 0;
}

/* The least dangerous discard of `l` for `seat` by the opponent models. */
static int safest_discard(const rmc_models *m, const tk_riichi_game *g, int seat,
                          const tk_riichi_legal *l) {
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  rm_opp_threat t[4];
  rm_opp_assess(m->opp, &v, t);
  double danger[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) danger[k] = -1;
  int best = -1;
  double best_d = 2;
  for (int i = 0; i < l->n; i++) {
    if (l->a[i].type != TK_RIICHI_DISCARD) continue;
    int k = tk_tile_kind(l->a[i].tile);
    if (danger[k] < 0) danger[k] = rm_opp_dealin(t, seat, k, NULL);
    if (danger[k] < best_d) {
      best_d = danger[k];
      best = i;
    }
  }
  return best;
}

/* The one-player policy restricted to the candidates of least shanten (rmc_params.playout_filter):
 * rop_decide's choice among the candidates whose hand after the move is no further from tenpai
 * than the best one's (and a pass, which always competes with the calls), wins and riichi as
 * rop_decide plays them. The policy's features, most of a playout's time, are computed for
 * those alone. Returns the index in l, or -1 when the
 * candidates cannot be built (the caller then asks rop_decide). */
static int filtered_policy(const rmc_models *m, const tk_riichi_view *v, const tk_riichi_legal *l) {
  rop_cand cands[ROP_MAX_CANDS];
  int n = rop_candidates(v, l, cands, ROP_MAX_CANDS);
  if (n <= 0) return -1;
  uint8_t riichi_of[0x80];
  int any_riichi = rop_riichi_of(l, riichi_of);
  int8_t sh[ROP_MAX_CANDS];
  int least = 99;
  for (int i = 0; i < n; i++) {
    int tile = l->a[cands[i].action].tile & 0x7f;
    sh[i] = 99;
    if (any_riichi && (l->a[cands[i].action].type != TK_RIICHI_DISCARD || riichi_of[tile] == 0xff))
      continue;
    sh[i] = (int8_t)tk_shanten(cands[i].hand.c);
    if (sh[i] < least) least = sh[i];
  }
  uint32_t f[ROF_MAX_ACTIVE];
  int best = -1;
  double best_s = 0;
  for (int i = 0; i < n; i++) {
    /* a pass (scored on the hand as it is) always competes with the calls */
    if (sh[i] != least && l->a[cands[i].action].type != TK_RIICHI_PASS) continue;
    int nf = rof_features(&cands[i].hand, &cands[i].ctx, f, NULL, NULL);
    if (nf < 0) return -1;
    double s = rop_score(m->policy, f, nf);
    if (best < 0 || s > best_s) best = i, best_s = s;
  }
  if (best < 0) return -1;
  int a = cands[best].action;
  return any_riichi ? riichi_of[l->a[a].tile & 0x7f] : a;
}

int rmc_sim_policy(const rmc_params *p, const rmc_models *m, const tk_riichi_game *g, int seat,
                   const tk_riichi_legal *l, int no_ron, rmc_stats *st) {
  int pass = -1, tsumogiri = -1;
  for (int i = 0; i < l->n; i++) {
    int t = l->a[i].type;
    if (t == TK_RIICHI_TSUMO || (t == TK_RIICHI_RON && !no_ron)) return i;
    if (t == TK_RIICHI_PASS) pass = i;
    if (t == TK_RIICHI_DISCARD && l->a[i].tsumogiri && tsumogiri < 0) tsumogiri = i;
  }
  const tk_riichi_player *me = &g->p[seat];
  int self = g->phase == TK_RIICHI_PHASE_SELF;
  if (self && me->riichi) return tsumogiri >= 0 ? tsumogiri : 0;
  if (!self && pass >= 0 && me->riichi) return pass;
  if (facing_riichi(g, seat)) {
    int sh = self ? tk_shanten(me->hand) : me->shanten;
    if (sh >= p->fold_shanten) {
      st->folds++;
      if (!self) return pass >= 0 ? pass : 0;
      int i = safest_discard(m, g, seat, l);
      if (i >= 0) return i;
    }
  }
  /* the policy; a ron it may not take is removed from its choices first */
  tk_riichi_legal lp = *l;
  if (no_ron) {
    int n = 0;
    for (int i = 0; i < l->n; i++)
      if (l->a[i].type != TK_RIICHI_RON) lp.a[n++] = l->a[i];
    lp.n = (uint8_t)n;
  }
  if (lp.n == 1) return pass >= 0 ? pass : 0;
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  st->policy_calls++;
  int c = p->playout_filter ? filtered_policy(m, &v, &lp) : -1;
  if (c < 0) {
    rop_choice rc;
    if (rop_decide(&v, &lp, m->policy, &rc, NULL) || rc.action < 0) return tk_riichi_fallback(l);
    c = rc.action;
  }
  int i = tk_riichi_legal_find(l, &lp.a[c]);
  return i >= 0 ? i : tk_riichi_fallback(l);
}

/* More simulated moves than any hand takes (about 70 draws, each with a discard and the
 * reactions to it, kans and calls): a bound against a loop, never reached in a game of the
 * engine. */
enum { MAX_STEPS = 4000 };

int rmc_playout(const rmc_params *p, const rmc_models *m, tk_riichi_game *g, int no_ron_first,
                rmc_stats *st) {
  st->playouts++;
  /* the reaction phase under way when the playout starts is the one whose ron is barred */
  int barred = no_ron_first && g->phase == TK_RIICHI_PHASE_REACT;
  for (int step = 0; step < MAX_STEPS; step++) {
    if (g->phase == TK_RIICHI_PHASE_DEAL || g->phase == TK_RIICHI_PHASE_OVER) return 0;
    if (g->phase != TK_RIICHI_PHASE_REACT) barred = 0;
    int s = tk_riichi_to_act(g);
    if (s < 0) return TK_ESTATE;
    tk_riichi_legal l;
    tk_riichi_legal_of(g, s, &l);
    int i = l.n == 1 ? 0 : rmc_sim_policy(p, m, g, s, &l, barred, st);
    st->steps++;
    if (tk_riichi_apply(g, s, &l.a[i], NULL, NULL)) return TK_ESTATE;
  }
  return TK_ESTATE;
}
