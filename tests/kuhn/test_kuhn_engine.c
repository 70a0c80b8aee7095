/* tests/kuhn/test_kuhn_engine.c — the Kuhn poker engine (taikai/kuhn.h) against known answers:
 * the payoff of every terminal history for every deal, illegal moves refused with the hand
 * unchanged, the views and legal moves along the way, the information sets, and the deal of a
 * wall (distinct cards, a pure function of (seed, wall), each of the six deals about equally
 * often). */
#include <stdio.h>
#include <string.h>

#include "taikai/kuhn.h"
#include "unit.h"

static const int C = TK_KUHN_CHECK, B = TK_KUHN_BET, F = TK_KUHN_FOLD, L = TK_KUHN_CALL;

/* A terminal history and its payoff to player 0 given who holds the higher card. */
typedef struct terminal {
  const char *name;
  int n, moves[3];
  int showdown;    /* 1: the higher card wins */
  int stake;       /* chips won or lost */
  int fold_winner; /* without a showdown: who takes the pot */
} terminal;

static const terminal terminals[] = {
    {"check check", 2, {TK_KUHN_CHECK, TK_KUHN_CHECK}, 1, 1, -1},
    {"check bet fold", 3, {TK_KUHN_CHECK, TK_KUHN_BET, TK_KUHN_FOLD}, 0, 1, 1},
    {"check bet call", 3, {TK_KUHN_CHECK, TK_KUHN_BET, TK_KUHN_CALL}, 1, 2, -1},
    {"bet fold", 2, {TK_KUHN_BET, TK_KUHN_FOLD}, 0, 1, 0},
    {"bet call", 2, {TK_KUHN_BET, TK_KUHN_CALL}, 1, 2, -1},
};

static void test_payoffs(void) {
  int cases = 0;
  for (int c0 = 0; c0 < 3; c0++)
    for (int c1 = 0; c1 < 3; c1++) {
      if (c0 == c1) continue;
      for (size_t t = 0; t < sizeof terminals / sizeof *terminals; t++) {
        const terminal *T = &terminals[t];
        char ctx[96];
        snprintf(ctx, sizeof ctx, "%s-%s, %s", tk_kuhn_card_str(c0), tk_kuhn_card_str(c1),
                 T->name);
        tk_kuhn_game g;
        uint8_t cards[2] = {(uint8_t)c0, (uint8_t)c1};
        TK_EQ(tk_kuhn_init(&g, cards, NULL), 0, ctx);
        for (int i = 0; i < T->n; i++) {
          TK_EQ(tk_kuhn_to_act(&g), i % 2, ctx);
          tk_kuhn_action a = {(uint8_t)T->moves[i]};
          TK_EQ(tk_kuhn_apply(&g, i % 2, &a, NULL), 0, ctx);
        }
        int winner = T->showdown ? (c0 > c1 ? 0 : 1) : T->fold_winner;
        TK_EQ(tk_kuhn_to_act(&g), -1, ctx);
        TK_EQ(g.over, 1, ctx);
        TK_EQ(g.winner, winner, ctx);
        TK_EQ(g.chips[0], winner == 0 ? T->stake : -T->stake, ctx);
        TK_EQ(g.chips[1], -g.chips[0], ctx);
        tk_kuhn_result r;
        tk_kuhn_result_of(&g, &r);
        TK_EQ(r.showdown, T->showdown, ctx);
        TK_EQ(r.cards[0], T->showdown ? c0 : TK_KUHN_NONE, ctx);
        TK_EQ(r.cards[1], T->showdown ? c1 : TK_KUHN_NONE, ctx);
        TK_EQ(r.chips[0], g.chips[0], ctx);
        TK_EQ(r.winner, winner, ctx);
        TK_EQ(r.nhist, T->n, ctx);
        for (int i = 0; i < T->n; i++) TK_EQ(r.hist[i], T->moves[i], ctx);
        tk_kuhn_legal l;
        tk_kuhn_legal_of(&g, &l);
        TK_EQ(l.n, 0, ctx);
        cases++;
      }
    }
  TK_EQ(cases, 30, "terminal cases");
}

/* Every move that is not legal at `g`, by every seat, and every move by the wrong seat: refused
 * with TK_EILLEGAL and the hand unchanged. */
static void refuse_all_but(tk_kuhn_game *g, int legal_mask, const char *ctx) {
  for (int seat = 0; seat < 2; seat++)
    for (int m = 0; m < 256; m++) {
      if (seat == tk_kuhn_to_act(g) && m < 4 && (legal_mask >> m & 1)) continue;
      tk_kuhn_game before = *g;
      tk_kuhn_action a = {(uint8_t)m};
      tk_error err;
      tk_error_clear(&err);
      int rc = tk_kuhn_apply(g, seat, &a, &err);
      if (rc != TK_EILLEGAL) TK_FAILF("%s: seat %d move %d: rc %d, expected TK_EILLEGAL", ctx,
                                      seat, m, rc);
      if (memcmp(&before, g, sizeof before)) TK_FAILF("%s: seat %d move %d changed the hand", ctx,
                                                       seat, m);
      if (!err.msg[0]) TK_FAILF("%s: seat %d move %d: no message", ctx, seat, m);
    }
}

static void test_illegal(void) {
  tk_kuhn_game g;
  uint8_t cards[2] = {TK_KUHN_Q, TK_KUHN_J};
  tk_kuhn_init(&g, cards, NULL);
  refuse_all_but(&g, 1 << C | 1 << B, "start");
  tk_kuhn_action a = {(uint8_t)C};
  tk_kuhn_apply(&g, 0, &a, NULL);
  refuse_all_but(&g, 1 << C | 1 << B, "after check");
  a.move = (uint8_t)B;
  tk_kuhn_apply(&g, 1, &a, NULL);
  refuse_all_but(&g, 1 << F | 1 << L, "after check bet");
  tk_kuhn_init(&g, cards, NULL);
  tk_kuhn_apply(&g, 0, &a, NULL);
  refuse_all_but(&g, 1 << F | 1 << L, "after bet");
  a.move = (uint8_t)L;
  tk_kuhn_apply(&g, 1, &a, NULL);
  tk_kuhn_game before = g;
  for (int seat = 0; seat < 2; seat++)
    for (int m = 0; m < 4; m++) {
      a.move = (uint8_t)m;
      TK_EQ(tk_kuhn_apply(&g, seat, &a, NULL), TK_ESTATE, "a move after the end");
    }
  CU_ASSERT(!memcmp(&before, &g, sizeof g));
  /* bad deals */
  uint8_t same[2] = {1, 1}, out[2] = {0, 3};
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_kuhn_init(&g, same, &err), TK_EINVAL, "two queens");
  CU_ASSERT(strstr(err.msg, "1 and 1") != NULL);
  TK_EQ(tk_kuhn_init(&g, out, NULL), TK_EINVAL, "card 3");
}

static void test_views(void) {
  tk_kuhn_game g;
  uint8_t cards[2] = {TK_KUHN_K, TK_KUHN_Q};
  tk_kuhn_init(&g, cards, NULL);
  tk_kuhn_view v;
  tk_kuhn_legal l;
  tk_kuhn_view_of(&g, 0, &v);
  tk_kuhn_legal_of(&g, &l);
  TK_EQ(v.card, TK_KUHN_K, "start card");
  TK_EQ(v.pot, 2, "start pot");
  TK_EQ(v.to_call, 0, "start to_call");
  TK_EQ(l.n, 2, "start n");
  TK_EQ(l.a[0], C, "start a[0]");
  TK_EQ(l.a[1], B, "start a[1]");
  TK_EQ(l.mask, 1 << C | 1 << B, "start mask");
  TK_EQ(tk_kuhn_infoset(&v), 0 * 3 + TK_KUHN_K, "start infoset");
  tk_kuhn_action a = {(uint8_t)C};
  tk_kuhn_apply(&g, 0, &a, NULL);
  tk_kuhn_view_of(&g, 1, &v);
  TK_EQ(v.card, TK_KUHN_Q, "after check card");
  TK_EQ(v.nhist, 1, "after check nhist");
  TK_EQ(v.hist[0], C, "after check hist");
  TK_EQ(v.pot, 2, "after check pot");
  TK_EQ(tk_kuhn_infoset(&v), 1 * 3 + TK_KUHN_Q, "after check infoset");
  a.move = (uint8_t)B;
  tk_kuhn_apply(&g, 1, &a, NULL);
  tk_kuhn_view_of(&g, 0, &v);
  tk_kuhn_legal_of(&g, &l);
  TK_EQ(v.pot, 3, "after check bet pot");
  TK_EQ(v.to_call, 1, "after check bet to_call");
  TK_EQ(l.a[0], F, "facing a bet a[0]");
  TK_EQ(l.a[1], L, "facing a bet a[1]");
  TK_EQ(tk_kuhn_infoset(&v), 3 * 3 + TK_KUHN_K, "after check bet infoset");
  tk_kuhn_init(&g, cards, NULL);
  tk_kuhn_apply(&g, 0, &a, NULL);
  tk_kuhn_view_of(&g, 1, &v);
  TK_EQ(v.pot, 3, "after bet pot");
  TK_EQ(tk_kuhn_infoset(&v), 2 * 3 + TK_KUHN_Q, "after bet infoset");
  /* names */
  for (int m = 0; m < 4; m++) TK_EQ(tk_kuhn_move_parse(tk_kuhn_move_str(m)), m, "move names");
  TK_EQ(tk_kuhn_move_parse("raise"), -1, "unknown move");
}

static void test_deal(void) {
  int count[3][3] = {{0}};
  const int walls = 60000;
  for (int w = 0; w < walls; w++) {
    uint8_t c[2], d[2];
    tk_kuhn_deal(7, (uint64_t)w, c);
    tk_kuhn_deal(7, (uint64_t)w, d);
    if (c[0] == c[1] || c[0] > 2 || c[1] > 2) {
      TK_FAILF("wall %d: cards %d %d", w, c[0], c[1]);
      return;
    }
    if (c[0] != d[0] || c[1] != d[1]) TK_FAILF("wall %d: two deals differ", w);
    count[c[0]][c[1]]++;
  }
  /* each deal 1/6: 10,000 expected, sd 91 */
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      if (a != b && (count[a][b] < 9500 || count[a][b] > 10500))
        TK_FAILF("deal %s-%s: %d of %d walls", tk_kuhn_card_str(a), tk_kuhn_card_str(b),
                 count[a][b], walls);
  uint8_t x[2], y[2];
  int differ = 0;
  for (int w = 0; w < 20; w++) {
    tk_kuhn_deal(1, (uint64_t)w, x);
    tk_kuhn_deal(2, (uint64_t)w, y);
    differ += x[0] != y[0] || x[1] != y[1];
  }
  CU_ASSERT(differ > 5); /* the seed matters */
}

int main(void) {
  CU_TestInfo tests[] = {{"payoff of every terminal history", test_payoffs},
                         {"illegal moves refused, hand unchanged", test_illegal},
                         {"views, legal moves, infosets", test_views},
                         {"the deal of a wall", test_deal},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("kuhn engine", tests);
}
