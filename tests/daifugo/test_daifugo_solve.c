/* tests/daifugo/test_daifugo_solve.c — daifugo_search's exact searches (plugins/daifugo_search/
 * solve.h). The mate test on hand-checked positions (a mate over three plays, one the unseen
 * joker spoils, an 8-cut and the ♠3 over a joker that make one, a revolution that makes one, a
 * sennichite that breaks one, the budget). The two-player solver on hand-checked endings (won
 * only by a non-greedy move, lost, the budget) and against a plain minimax written here on
 * random endings of up to 5 cards each: the same verdict, the solver's winning move keeping the
 * position won against every reply, a mate always a win; two endings where the transposition
 * table must tell positions apart by the pass count and by the lock. Speed is never tested. */
#include <string.h>

#include "dt.h"
#include "solve.h"
#include "unit.h"

static dsol_two *S;

static const char *mv(const tk_daifugo_move *m) {
  static char buf[4][96];
  static int k;
  k = (k + 1) & 3;
  tk_daifugo_move_str(m, buf[k], sizeof buf[k]);
  return buf[k];
}

/* Moves `cards` from whoever holds them to the played cards (the game stays consistent). */
static void played(tk_daifugo_game *g, const char *cards) {
  uint64_t c = dt_cards(cards);
  for (int p = 0; p < 5; p++) g->hand[p] &= ~c;
  g->played |= c;
}

static uint64_t unseen_of(const tk_daifugo_game *g, int me) {
  return TK_DAIFUGO_DECK & ~g->played & ~g->hand[me];
}

/* dsol_mate for g->turn with its unseen cards; the first move in notation in `first`. */
static int mate(const tk_daifugo_game *g, const char **first) {
  tk_daifugo_move m;
  memset(&m, 0, sizeof m);
  int nodes;
  int v = dsol_mate(g, g->turn, unseen_of(g, g->turn), DSOL_MATE_NODES, &m, &nodes);
  *first = v == 1 ? mv(&m) : "-";
  return v;
}

/* A two-player ending: players 0 and 1 hold `h0` and `h1`, every other card is played and
 * players 2, 3, 4 are out; `leader` leads; `senn` passes end the game. */
static void ending(tk_daifugo_game *g, uint64_t h0, uint64_t h1, int leader, int senn) {
  uint64_t hand[5] = {h0, h1, TK_DAIFUGO_DECK & ~h0 & ~h1, 0, 0};
  uint8_t seats[5] = {0, 1, 2, 3, 4};
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_game_setup(g, hand, seats, leader, senn, 1, NULL), 0);
  g->played = hand[2];
  g->hand[2] = 0;
  g->out |= 1u << 2;
  g->order[g->nout++] = 2;
}

static void ending_s(tk_daifugo_game *g, const char *h0, const char *h1, int leader) {
  ending(g, dt_cards(h0), dt_cards(h1), leader, 20);
}

/* ------------------------------------------------------------ the mate test */

static void mate_over_three_plays(void) {
  tk_daifugo_game g;
  const char *first;
  /* A 2, the joker, a pair: the 2 is unbeatable (the joker is ours), the joker then goes over
   * our own 2 once everyone has passed (or joins it as a pair of 2s), the pair goes out. With
   * the ♠3 unseen, the joker led alone could be answered, so the first move holds the 2. */
  dt_game(&g, "H2 JK C4 D4", NULL, "S5 S6", "H7 H9", "D9 DT", 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT(!strcmp(first, "H2") || !strncmp(first, "H2 JK[", 6));
  /* Every step of the line found is itself a mate after the others' forced passes. */
  tk_daifugo_move m;
  int steps = 0;
  while (!(g.out & 1u) && steps < 10) {
    CU_ASSERT_EQUAL_FATAL(dsol_mate(&g, 0, unseen_of(&g, 0), DSOL_MATE_NODES, &m, NULL), 1);
    CU_ASSERT_EQUAL_FATAL(tk_daifugo_game_apply(&g, 0, &m, NULL), 0);
    while (!(g.out & 1u) && g.turn != 0) CU_ASSERT_EQUAL_FATAL(dt_play(&g, g.turn, "pass"), 0);
    steps++;
  }
  CU_ASSERT(g.out & 1u);
  CU_ASSERT(steps >= 2 && steps <= 5); /* plays and the clearing pass */
  /* Without the pair's partner the C4 must be led and can be beaten: no mate. */
  dt_game(&g, "H2 JK C4 D5", NULL, "S5 S6", "H7 H9", "D9 DT", 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 0);
}

static void mate_spoiled_by_the_joker(void) {
  tk_daifugo_game g;
  const char *first;
  /* H2 then the pair looks like a mate, but whoever holds the joker may answer the 2. */
  dt_game(&g, "H2 C4 D4", NULL, "S5 JK", "H7 H9", "D9 DT", 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 0);
  /* The same with the joker played: a mate, the 2 first. */
  played(&g, "JK");
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT_STRING_EQUAL(first, "H2");
  /* Counts: the two aces unseen would beat our kings, but each opponent holds one card. */
  dt_game(&g, "SK HK C4", "SA", "", "", NULL, 0);
  uint64_t rest = g.hand[4] & ~dt_cards("HA");
  g.hand[4] &= ~rest;
  g.played |= rest;
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT_STRING_EQUAL(first, "SK HK");
  /* One of them holding two cards might hold both aces: no mate. */
  dt_game(&g, "SK HK C4", "SA DA", "", "", NULL, 0);
  rest = g.hand[4] & ~dt_cards("HA");
  g.hand[4] &= ~rest;
  g.played |= rest;
  CU_ASSERT_EQUAL(mate(&g, &first), 0);
}

static void mate_by_cuts(void) {
  tk_daifugo_game g;
  const char *first;
  /* An 8 clears the table: 8, then the pair goes out. With a 9 instead: no mate. */
  dt_game(&g, "S8 C5 D5", NULL, "S5 S6", "H7 H9", "D9 DT", 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT_STRING_EQUAL(first, "S8");
  dt_game(&g, "S9 C5 D5", NULL, "S5 S6", "H7 H9", "D8 DT", 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 0);
  /* Over an opponent's 7: the 8 cuts it, then the pair. */
  dt_game(&g, "H8 C5 D5", "S7 SK", "S5 S6", "H7 H9", NULL, 1);
  CU_ASSERT_EQUAL_FATAL(dt_play(&g, 1, "S7"), 0);
  CU_ASSERT_EQUAL(g.turn, 2);
  CU_ASSERT_EQUAL_FATAL(dt_play(&g, 2, "pass"), 0);
  CU_ASSERT_EQUAL_FATAL(dt_play(&g, 3, "pass"), 0);
  CU_ASSERT_EQUAL_FATAL(dt_play(&g, 4, "pass"), 0);
  CU_ASSERT_EQUAL(g.turn, 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT_STRING_EQUAL(first, "H8");
  /* The ♠3 over a lone joker clears the table too. */
  dt_game(&g, "S3 C5 D5", "JK SK", "S5 S6", "H7 H9", NULL, 1);
  CU_ASSERT_EQUAL_FATAL(dt_play(&g, 1, "JK"), 0);
  for (int p = 2; p <= 4; p++) CU_ASSERT_EQUAL_FATAL(dt_play(&g, p, "pass"), 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT_STRING_EQUAL(first, "S3");
  /* A lone joker led by us is answered by the unseen ♠3: not a mate with two cards left. */
  dt_game(&g, "JK C5 D6", NULL, "S5 S6", "H7 H9", "S3 DT", 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 0);
}

static void mate_by_revolution(void) {
  tk_daifugo_game g;
  const char *first;
  /* Four 3s turn the order as they are played: no group answers them (the joker is played),
   * and the ♠4 is then the strongest single left (every 3 is ours), then the pair goes out. */
  dt_game(&g, "S3 H3 D3 C3 S4 C7 D7", NULL, "S5 S6", "H7 H9", "D9 DT", 0);
  played(&g, "JK");
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT_STRING_EQUAL(first, "S3 H3 D3 C3");
  /* Three 3s make no revolution (and are beaten): no mate. */
  dt_game(&g, "S3 H3 D3 S4 C7 D7", NULL, "S5 S6", "H7 H9", "D9 DT", 0);
  played(&g, "JK");
  CU_ASSERT_EQUAL(mate(&g, &first), 0);
  /* Four 2s led in normal order make the revolution and any four of a kind answers them; the
   * mate plays the 2s in smaller groups, after which the ♠A is the strongest single left. */
  dt_game(&g, "S2 H2 D2 C2 SA C7 D7", NULL, "S5 S6", "H7 H9", "D9 DT", 0);
  played(&g, "JK");
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT(strcmp(first, "S2 H2 D2 C2") != 0);
  /* In revolution, a single 2 is the weakest; the four 2s turn the order back and are then
   * unbeatable, and the ♠A is the strongest single left. */
  g.rev = 1;
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT_STRING_EQUAL(first, "S2 H2 D2 C2");
}

static void mate_sennichite_and_budget(void) {
  tk_daifugo_game g;
  const char *first;
  /* After the 2, the four others pass and we pass to clear: 5 passes, so a sennichite count
   * of 5 breaks the mate and one of 6 does not. */
  uint64_t h[5] = {dt_cards("H2 C4 D4"), dt_cards("S3 JK"), dt_cards("S5 S6"), dt_cards("H7 H9"), 0};
  uint64_t rest = TK_DAIFUGO_DECK;
  for (int p = 0; p < 4; p++) rest &= ~h[p];
  h[4] = rest;
  uint8_t seats[5] = {0, 1, 2, 3, 4};
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_game_setup(&g, h, seats, 0, 4, 1, NULL), 0);
  played(&g, "JK");
  CU_ASSERT_EQUAL(mate(&g, &first), 0); /* the others' four passes end the game */
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_game_setup(&g, h, seats, 0, 5, 1, NULL), 0);
  played(&g, "JK");
  CU_ASSERT_EQUAL(mate(&g, &first), 0); /* our clearing pass ends it */
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_game_setup(&g, h, seats, 0, 6, 1, NULL), 0);
  played(&g, "JK");
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  /* An 8-cut needs no pass: a mate even with a count of 2. */
  h[0] = dt_cards("S8 C4 D4");
  h[4] = TK_DAIFUGO_DECK & ~h[0] & ~h[1] & ~h[2] & ~h[3];
  CU_ASSERT_EQUAL_FATAL(tk_daifugo_game_setup(&g, h, seats, 0, 2, 1, NULL), 0);
  CU_ASSERT_EQUAL(mate(&g, &first), 1);
  CU_ASSERT_STRING_EQUAL(first, "S8");
  /* The budget: one decision cannot show a mate of several plays. */
  int nodes;
  tk_daifugo_move m;
  CU_ASSERT_EQUAL(dsol_mate(&g, 0, unseen_of(&g, 0), 1, &m, &nodes), DSOL_UNKNOWN);
  CU_ASSERT_EQUAL(nodes, 1);
  CU_ASSERT_EQUAL(dsol_mate(&g, 1, unseen_of(&g, 1), 16, &m, NULL), DSOL_EARG); /* not to act */
}

/* ------------------------------------------------------------ the two-player solver */

static int solve(const tk_daifugo_game *g, int me, tk_daifugo_move *best) {
  long nodes;
  return dsol_two_solve(S, g, me, 10000000, best, &nodes);
}

static void two_hand_checked(void) {
  tk_daifugo_game g, a;
  tk_daifugo_move m;
  /* Greedy leads its pair (most cards); the 6s answer it and the ♣3 goes out. Any single wins:
   * the ♠2 first is a mate; the ♥5 is met by a 6 and the 2, or let pass, and we keep control. */
  ending_s(&g, "S2 H5 D5", "S6 C6 C3", 0);
  CU_ASSERT_EQUAL(solve(&g, 0, &m), 1);
  CU_ASSERT(strcmp(mv(&m), "H5 D5") != 0);
  a = g;
  CU_ASSERT_EQUAL_FATAL(dt_play(&a, 0, "H5 D5"), 0);
  CU_ASSERT_EQUAL(solve(&a, 0, &m), 0);
  CU_ASSERT_STRING_EQUAL(mv(&m), "S6 C6"); /* the opponent's refutation */
  /* Holding back the 2: over the opponent's 7, the 2 takes the table but both our cards left
   * are then beaten by the king and the ace; the 9 draws one of them, the 2 answers the other
   * (or takes the lead back) and the 4 goes out. The pass loses too (the opponent leads the ace
   * and keeps the king for our last single). */
  ending_s(&g, "S4 S2 C9", "SK SA C7", 1);
  CU_ASSERT_EQUAL_FATAL(dt_play(&g, 1, "C7"), 0);
  CU_ASSERT_EQUAL(solve(&g, 0, &m), 1);
  CU_ASSERT_STRING_EQUAL(mv(&m), "C9");
  a = g;
  CU_ASSERT_EQUAL_FATAL(dt_play(&a, 0, "S2"), 0);
  CU_ASSERT_EQUAL(solve(&a, 0, &m), 0);
  a = g;
  CU_ASSERT_EQUAL_FATAL(dt_play(&a, 0, "pass"), 0);
  CU_ASSERT_EQUAL(solve(&a, 0, &m), 0);
  /* Lost: whatever we lead, the 2 takes the table and the 3 goes out. */
  ending_s(&g, "S4 H5", "S2 C3", 0);
  CU_ASSERT_EQUAL(solve(&g, 0, &m), 0);
  CU_ASSERT_EQUAL(solve(&g, 1, &m), 1);
  /* The budget: a search that does not fit is unknown, not a guess. */
  ending_s(&g, "S3 S4 H6 D9 CJ HQ", "H3 D5 S7 C9 HK DA", 0);
  long nodes;
  CU_ASSERT_EQUAL(dsol_two_solve(S, &g, 0, 5, &m, &nodes), DSOL_UNKNOWN);
  CU_ASSERT(nodes <= 5);
  CU_ASSERT_EQUAL(dsol_two_solve(S, &g, 2, 5, &m, &nodes), DSOL_EARG); /* out */
}

/* The reference: plain minimax over every legal action, no table, no budget. */
static int ref_value(const tk_daifugo_game *g, int me, int opp) {
  if (g->over)
    return !g->by_sennichite && tk_daifugo_place_of(g, me) < tk_daifugo_place_of(g, opp);
  tk_daifugo_legal l;
  int n = tk_daifugo_game_legal(g, &l), want = g->turn == me;
  for (int i = 0; i < n; i++) {
    tk_daifugo_game a = *g;
    tk_daifugo_game_play(&a, &l.a[i]);
    if (ref_value(&a, me, opp) == want) return want;
  }
  return !want;
}

/* The value of `g` for `me` from the solver, the game's result when over. */
static int value_of(const tk_daifugo_game *g, int me) {
  if (g->over) return !g->by_sennichite && tk_daifugo_place_of(g, me) < tk_daifugo_place_of(g, 1 - me);
  return solve(g, me, NULL);
}

static void two_against_minimax(void) {
  tk_rng r;
  tk_rng_seed(&r, 41);
  int wins = 0, losses = 0, checked = 0, mates = 0, revs = 0, tables = 0;
  static tk_daifugo_legal l;
  for (int t = 0; t < 300; t++) {
    uint8_t deck[TK_DAIFUGO_CARDS];
    int nd = 0;
    for (int b = 0; b < 64; b++)
      if (TK_DAIFUGO_DECK >> b & 1u) deck[nd++] = (uint8_t)b;
    for (int i = nd - 1; i > 0; i--) {
      int j = (int)tk_rng_below(&r, (uint32_t)i + 1);
      uint8_t x = deck[i];
      deck[i] = deck[j];
      deck[j] = x;
    }
    int n0 = 1 + (int)tk_rng_below(&r, 5), n1 = 1 + (int)tk_rng_below(&r, 5);
    uint64_t h0 = 0, h1 = 0;
    for (int i = 0; i < n0; i++) h0 |= UINT64_C(1) << deck[i];
    for (int i = 0; i < n1; i++) h1 |= UINT64_C(1) << deck[n0 + i];
    tk_daifugo_game g;
    /* the reference's size: a count of 20 passes only with few cards; counts of 2 and 3
     * make the sennichite decide some endings (a play nobody answers cannot be cleared) */
    int senn = t % 4 == 0 ? 20 : 2 + (int)tk_rng_below(&r, 4);
    if (senn == 20 && n0 + n1 > 5) n1 = 1, h1 = UINT64_C(1) << deck[n0];
    ending(&g, h0, h1, (int)tk_rng_below(&r, 2), senn);
    if (tk_rng_below(&r, 4) == 0) g.rev = 1, revs++;
    if (tk_rng_below(&r, 2)) { /* a play already on the table */
      int n = tk_daifugo_game_legal(&g, &l);
      const tk_daifugo_move *m = &l.a[1 + (int)tk_rng_below(&r, (uint32_t)n - 1)];
      if (m->cards == g.hand[g.turn]) continue;
      tk_daifugo_game_play(&g, m);
      tables++;
    }
    int me = (int)tk_rng_below(&r, 2);
    char ctx[256], h0s[64], h1s[64];
    tk_daifugo_cards_str(g.hand[0], h0s, sizeof h0s);
    tk_daifugo_cards_str(g.hand[1], h1s, sizeof h1s);
    snprintf(ctx, sizeof ctx, "ending %d: %s / %s, turn %d, me %d, rev %d, top %s, senn %d", t,
             h0s, h1s, g.turn, me, g.rev, mv(&g.top), senn);
    tk_daifugo_move best;
    int v = solve(&g, me, &best), want = ref_value(&g, me, 1 - me);
    TK_EQ(v, want, ctx);
    v ? wins++ : losses++;
    if (g.turn == me) {
      /* a mate, with the opponent's hand as the unseen cards, is a win */
      tk_daifugo_move fm;
      if (dsol_mate(&g, me, g.hand[1 - me], DSOL_MATE_NODES, &fm, NULL) == 1) {
        mates++;
        TK_EQ(v, 1, ctx);
      }
    }
    if (v != 1 || g.turn != me) continue;
    /* the winning move keeps the position won against every reply */
    tk_daifugo_game a = g;
    tk_daifugo_game_play(&a, &best);
    if (a.over || a.turn == me) {
      TK_EQ(value_of(&a, me), 1, ctx);
      checked++;
      continue;
    }
    int n = tk_daifugo_game_legal(&a, &l);
    for (int i = 0; i < n; i++) {
      tk_daifugo_game b = a;
      tk_daifugo_game_play(&b, &l.a[i]);
      TK_EQ(value_of(&b, me), 1, ctx);
      checked++;
    }
  }
  /* the sample holds both verdicts and the cases the property is about */
  CU_ASSERT(wins > 80 && losses > 80);
  CU_ASSERT(checked > 50 && mates > 30 && revs > 50 && tables > 80);
}

/* Endings whose search meets the same hands and table again with another pass count, or
 * another lock: a table keyed without either gets them wrong (found by a search over random
 * endings with the key cut down; the reference decides them). */
static void two_transpositions(void) {
  static const struct {
    const char *h0, *h1;
    int leader, me, senn, want;
  } cases[] = {
      {"S9 HQ D5 DA C4", "H4 C5 C6", 0, 0, 2, 1}, /* the pass count */
      {"S2 H3 C9 CT", "S3 ST SJ H4 CA", 0, 1, 4, 1},  /* the lock */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tk_daifugo_game g;
    ending(&g, dt_cards(cases[i].h0), dt_cards(cases[i].h1), cases[i].leader, cases[i].senn);
    TK_EQ(ref_value(&g, cases[i].me, 1 - cases[i].me), cases[i].want, cases[i].h0);
    TK_EQ(solve(&g, cases[i].me, NULL), cases[i].want, cases[i].h0);
  }
}

int main(void) {
  S = dsol_two_new(16, NULL);
  if (!S) return 1;
  CU_TestInfo tests[] = {
      {"mate over three plays", mate_over_three_plays},
      {"a mate the unseen joker spoils; counts", mate_spoiled_by_the_joker},
      {"mates by an 8-cut and the spade 3", mate_by_cuts},
      {"mates by a revolution", mate_by_revolution},
      {"mate: sennichite, budget, preconditions", mate_sennichite_and_budget},
      {"two players: hand-checked endings", two_hand_checked},
      {"two players: against plain minimax", two_against_minimax},
      {"two players: transpositions by pass count and lock", two_transpositions},
      CU_TEST_INFO_NULL,
  };
  int rc = tk_unit_run("daifugo_solve", tests);
  dsol_two_free(S);
  return rc;
}
