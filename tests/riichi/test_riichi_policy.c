/* tests/riichi/test_riichi_policy.c — the one-player policy's decision (plugins/riichi_oneplayer/
 * policy.c): the candidates of every decision of whole games (random legal play, so that calls,
 * kans and riichi occur) checked against the engine itself, and the choice rules:
 * - a discard candidate's hand is the view's hand less that tile; one candidate per distinct
 *   discard tile; each kan's hand is the engine's hand after the kan;
 * - a call candidate (call, discard) exists exactly for the discards the engine allows after
 *   that call (kuikae), and its hand equals the engine's hand after the call and the discard;
 * - pass is scored on the current hand;
 * - wins are always taken, riichi always declared when legal;
 * - with weights -s on "normal shanten = s" (row 2.1) the choice is the first candidate of least
 *   shanten; with zero weights, the first candidate (at a draw: the lowest tile code). */
#include <string.h>

#include "riichi_oneplayer/policy.h"
#include "rt.h"
#include "taikai/rng.h"
#include "unit.h"

static double *W;    /* weights of the shanten test: -s at row 2.1n value s */
static double *ZERO; /* all zero */

static void weights(void) {
  static double w[ROF_FEATURES], z[ROF_FEATURES];
  for (int s = 0; s < 15; s++) w[ROF_OFF_2_1n + s] = -s;
  W = w;
  ZERO = z;
}

/* Applies `a` for `seat` on a copy of g, then passes for every other seat still to answer, until
 * `seat` must act again or the game moves on; returns 1 when `seat` is then at its own decision. */
static int after_call(const tk_riichi_game *g, int seat, const tk_riichi_action *a, tk_riichi_game *out) {
  *out = *g;
  if (tk_riichi_apply(out, seat, a, NULL, NULL)) return 0;
  while (tk_riichi_phase(out) == TK_RIICHI_PHASE_REACT) {
    int s = tk_riichi_to_act(out);
    tk_riichi_legal l;
    tk_riichi_legal_of(out, s, &l);
    int p = -1;
    for (int i = 0; i < l.n; i++)
      if (l.a[i].type == TK_RIICHI_PASS) p = i;
    if (p < 0 || tk_riichi_apply(out, s, &l.a[p], NULL, NULL)) return 0;
  }
  return tk_riichi_phase(out) == TK_RIICHI_PHASE_SELF && tk_riichi_to_act(out) == seat;
}

static int same_hand(const rof_hand *a, const tk_riichi_view *v) {
  rof_hand b;
  rof_hand_of_view(v, &b);
  if (memcmp(a->c, b.c, TK_KINDS) || a->red != b.red || a->nmelds != b.nmelds) return 0;
  for (int i = 0; i < a->nmelds; i++)
    if (a->melds[i].kind != b.melds[i].kind || a->melds[i].red != b.melds[i].red ||
        (a->melds[i].type != b.melds[i].type &&
         !(a->melds[i].type == TK_CALL_KAKAN && b.melds[i].type == TK_CALL_KAKAN)))
      return 0;
  return 1;
}

typedef struct tally {
  int self, react, calls, call_discards, kans, wins, riichi, shanten_checked, problems;
} tally;

#define PROBLEM(t, ...)                                                                       \
  do {                                                                                        \
    if ((t)->problems++ < 5) TK_FAILF(__VA_ARGS__);                                           \
  } while (0)

/* Checks every candidate of the decision of `seat` in g. */
static void check_decision(const tk_riichi_game *g, int seat, tally *t) {
  tk_riichi_view v;
  tk_riichi_legal l;
  tk_riichi_view_of(g, seat, &v);
  tk_riichi_legal_of(g, seat, &l);
  rop_cand c[ROP_MAX_CANDS];
  int n = rop_candidates(&v, &l, c, ROP_MAX_CANDS);
  uint32_t f[ROF_MAX_ACTIVE];
  for (int i = 0; i < n; i++) {
    tk_error err;
    tk_error_clear(&err);
    if (rof_features(&c[i].hand, &c[i].ctx, f, NULL, &err) < 0) PROBLEM(t, "candidate %d: %s", i, err.msg);
  }
  if (v.phase == TK_RIICHI_PHASE_SELF) {
    t->self++;
    /* one candidate per distinct discard tile, its hand the view's less the tile */
    uint8_t codes[0x80];
    memset(codes, 0, sizeof codes);
    int distinct = 0;
    for (int i = 0; i < l.n; i++)
      if (l.a[i].type == TK_RIICHI_DISCARD && !codes[l.a[i].tile & 0x7f]++) distinct++;
    int nd = 0;
    for (int i = 0; i < n; i++) {
      const tk_riichi_action *a = &l.a[c[i].action];
      if (a->type == TK_RIICHI_DISCARD) {
        nd++;
        rof_hand h;
        rof_hand_of_view(&v, &h);
        h.c[tk_tile_kind(a->tile)]--;
        h.red = (uint8_t)(h.red - tk_tile_is_red(a->tile));
        if (memcmp(h.c, c[i].hand.c, TK_KINDS) || h.red != c[i].hand.red)
          PROBLEM(t, "discard %s: the candidate's hand is not the view's less it", tk_tile_str(a->tile));
      } else if (a->type == TK_RIICHI_ANKAN || a->type == TK_RIICHI_KAKAN) {
        t->kans++;
        tk_riichi_game g2 = *g;
        if (tk_riichi_apply(&g2, seat, a, NULL, NULL)) { PROBLEM(t, "kan refused"); continue; }
        /* the hand after the kan, before the replacement draw: the engine's after the draw, less
         * the drawn tile (or a robbing ron may be pending: skip those) */
        if (tk_riichi_phase(&g2) != TK_RIICHI_PHASE_SELF) continue;
        tk_riichi_view v2;
        tk_riichi_view_of(&g2, seat, &v2);
        v2.hand[tk_tile_kind(v2.drawn)]--;
        int drawn_red = tk_tile_is_red(v2.drawn);
        rof_hand want;
        rof_hand_of_view(&v2, &want);
        want.red = (uint8_t)(want.red - drawn_red);
        if (memcmp(want.c, c[i].hand.c, TK_KINDS) || want.red != c[i].hand.red ||
            want.nmelds != c[i].hand.nmelds)
          PROBLEM(t, "kan of %s: the candidate's hand differs from the engine's", tk_tile_str(a->tile));
      } else
        PROBLEM(t, "self candidate of action type %d", a->type);
    }
    if (nd != distinct) PROBLEM(t, "%d discard candidates for %d distinct discards", nd, distinct);
  } else {
    t->react++;
    if (n < 1 || l.a[c[0].action].type != TK_RIICHI_PASS) PROBLEM(t, "pass is not the first candidate");
    else if (!same_hand(&c[0].hand, &v)) PROBLEM(t, "pass is not scored on the current hand");
    for (int i = 0; i < l.n; i++) {
      const tk_riichi_action *a = &l.a[i];
      if (a->type != TK_RIICHI_PON && a->type != TK_RIICHI_CHI) continue;
      t->calls++;
      tk_riichi_game g2;
      if (!after_call(g, seat, a, &g2)) continue; /* another seat's claim won */
      tk_riichi_legal l2;
      tk_riichi_legal_of(&g2, seat, &l2);
      /* the engine's discards after the call, as distinct tile codes */
      uint8_t allowed[0x80];
      memset(allowed, 0, sizeof allowed);
      for (int j = 0; j < l2.n; j++)
        if (l2.a[j].type == TK_RIICHI_DISCARD) allowed[l2.a[j].tile & 0x7f] = 1;
      uint8_t offered[0x80];
      memset(offered, 0, sizeof offered);
      for (int j = 0; j < n; j++) {
        if (c[j].action != i) continue;
        offered[c[j].discard & 0x7f] = 1;
        t->call_discards++;
        /* the hand after the call and the discard, from the engine */
        tk_riichi_game g3 = g2;
        tk_riichi_action d;
        memset(&d, 0, sizeof d);
        int found = 0;
        for (int k = 0; k < l2.n && !found; k++)
          if (l2.a[k].type == TK_RIICHI_DISCARD && l2.a[k].tile == c[j].discard) { d = l2.a[k]; found = 1; }
        if (!found) continue; /* reported below as offered but not allowed */
        tk_riichi_apply(&g3, seat, &d, NULL, NULL);
        tk_riichi_view v3;
        tk_riichi_view_of(&g3, seat, &v3);
        if (!same_hand(&c[j].hand, &v3))
          PROBLEM(t, "call of %s then %s: the candidate's hand differs from the engine's",
                  tk_tile_str(a->tile), tk_tile_str(c[j].discard));
      }
      if (memcmp(allowed, offered, sizeof allowed))
        PROBLEM(t, "call of %s (type %d): the candidate discards differ from the engine's (kuikae)",
                tk_tile_str(a->tile), a->type);
    }
  }
  /* the choice rules */
  rop_choice ch;
  tk_error err;
  tk_error_clear(&err);
  if (rop_decide(&v, &l, W, &ch, &err)) { PROBLEM(t, "decide: %s", err.msg); return; }
  int win = -1, riichi = 0;
  for (int i = 0; i < l.n; i++) {
    if (l.a[i].type == TK_RIICHI_TSUMO || l.a[i].type == TK_RIICHI_RON) win = i;
    if (l.a[i].type == TK_RIICHI_RIICHI) riichi = 1;
  }
  if (win >= 0) {
    t->wins++;
    if (ch.action != win) PROBLEM(t, "a win was not taken");
    return;
  }
  if (riichi) {
    t->riichi++;
    if (l.a[ch.action].type != TK_RIICHI_RIICHI) PROBLEM(t, "riichi was legal but not declared");
    return;
  }
  /* least normal-form shanten, first of the ties */
  int best = -1, best_sh = 99;
  for (int i = 0; i < n; i++) {
    int sh = tk_shanten_forms(c[i].hand.c, TK_FORM_STANDARD);
    if (sh < best_sh) { best_sh = sh; best = i; }
  }
  if (best >= 0) {
    t->shanten_checked++;
    if (ch.action != c[best].action || ch.discard != c[best].discard)
      PROBLEM(t, "shanten weights: chose action %d/%s, expected %d/%s", ch.action,
              tk_tile_str(ch.discard), c[best].action, tk_tile_str(c[best].discard));
  }
  rop_choice z;
  rop_decide(&v, &l, ZERO, &z, NULL);
  if (n && (z.action != c[0].action || z.discard != c[0].discard))
    PROBLEM(t, "zero weights: not the first candidate");
}

static void test_games(void) {
  weights();
  tally t;
  memset(&t, 0, sizeof t);
  tk_rng r;
  tk_rng_seed(&r, 2026);
  for (uint64_t game = 0; game < 12 && t.problems < 5; game++) {
    tk_riichi_game g;
    tk_riichi_init(&g, NULL, 11, game, NULL, NULL);
    int steps = 0;
    while (!tk_riichi_is_over(&g) && steps++ < 5000) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, NULL, NULL);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      check_decision(&g, s, &t);
      tk_riichi_legal l;
      tk_riichi_legal_of(&g, s, &l);
      tk_riichi_view V;
      tk_riichi_view_of(&g, s, &V);
      /* the policy with the shanten weights (so hands reach tenpai, riichi and wins) three
       * times in four, else a uniformly random legal move (so calls and kans occur); kyuushu
       * skipped so hands go on */
      int pick;
      rop_choice ch;
      if (tk_rng_below(&r, 4) && !rop_decide(&V, &l, W, &ch, NULL)) pick = ch.action;
      else
        do pick = (int)tk_rng_below(&r, l.n);
        while (l.a[pick].type == TK_RIICHI_KYUUSHU && l.n > 1);
      tk_riichi_apply(&g, s, &l.a[pick], NULL, NULL);
    }
  }
  TK_EQ(t.problems, 0, "problems");
  TK_EQ(t.self > 1000, 1, "own decisions checked");
  TK_EQ(t.react > 300, 1, "call opportunities checked");
  TK_EQ(t.call_discards > 300, 1, "(call, discard) candidates checked against the engine");
  TK_EQ(t.kans > 0, 1, "kans checked");
  TK_EQ(t.wins > 0, 1, "wins checked");
  TK_EQ(t.riichi > 0, 1, "riichi decisions checked");
  printf("\n    own %d, call opportunities %d, calls %d with %d discards, kans %d, wins %d, riichi %d\n",
         t.self, t.react, t.calls, t.call_discards, t.kans, t.wins, t.riichi);
}

/* A scripted position, the dealer's first decision: 123m 456p 789s 11z 22z + drawn 3z. Only
 * discarding 3z leaves tenpai (shanpon 1z/2z), so riichi is legal: the policy declares it with
 * 3z, though with zero weights every discard scores the same and 1m would come first. */
static void test_scripted_riichi(void) {
  weights();
  rt T;
  uint8_t w[TK_RIICHI_TILES];
  const char *h[4] = {"123m456p789s1122z", NULL, NULL, NULL};
  if (rt_wall(w, 0, h, "3z", NULL, NULL, NULL)) { TK_FAILF("bad wall"); return; }
  rt_start(&T, NULL, w);
  tk_riichi_view v;
  tk_riichi_legal l;
  tk_riichi_view_of(&T.g, 0, &v);
  tk_riichi_legal_of(&T.g, 0, &l);
  rop_choice ch;
  TK_EQ(rop_decide(&v, &l, ZERO, &ch, NULL), 0, "decide");
  TK_EQ(l.a[ch.action].type, TK_RIICHI_RIICHI, "riichi declared");
  TK_EQ(l.a[ch.action].tile, TK_WEST, "with 3z");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"scripted: riichi when legal", test_scripted_riichi},
      {"candidates and choices on whole games", test_games},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_policy", tests);
}
