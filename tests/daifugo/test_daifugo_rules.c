/* tests/daifugo/test_daifugo_rules.c — scenario tests of every play rule of the spec
 * (docs/daifugo.md "Rules"), each a game set up from hands in card notation with a
 * scripted sequence of plays and the expected legal lists, turns, table and results. Players sit
 * in seats 0..4 in id order. Columns: 3 = 1, 8 = 6, 2 = 13. The block-level rules (deal,
 * exchange, seats, class resets) are in test_daifugo_block.c. */
#include <stdio.h>
#include <string.h>

#include "dt.h"
#include "unit.h"

static tk_daifugo_game G;

#define PLAY(p, text)                                                                         \
  do {                                                                                        \
    int rc_ = dt_play(&G, (p), (text));                                                       \
    if (rc_) TK_FAILF("line %d: player %d '%s': %s", __LINE__, (p), (text), dt_err);          \
  } while (0)
#define REFUSED(p, text, code)                                                                \
  do {                                                                                        \
    tk_daifugo_game before_ = G;                                                              \
    int rc_ = dt_play(&G, (p), (text));                                                       \
    if (rc_ != (code)) TK_FAILF("line %d: player %d '%s' gave %d, expected %d", __LINE__, (p),  \
                                (text), rc_, (code));                                         \
    if (memcmp(&before_, &G, sizeof G)) TK_FAILF("line %d: a refused play changed the game", __LINE__); \
  } while (0)
#define LEGAL(text, yes)                                                                      \
  do {                                                                                        \
    if (dt_legal(&G, (text)) != (yes))                                                        \
      TK_FAILF("line %d: '%s' should%s be legal for player %d; legal: %s", __LINE__, (text),   \
               (yes) ? "" : " not", G.turn, dt_legal_str(&G));                                \
  } while (0)
#define NLEGAL(n)                                                                             \
  do {                                                                                        \
    int n_ = dt_nlegal(&G);                                                                   \
    if (n_ != (n)) TK_FAILF("line %d: %d legal actions, expected %d: %s", __LINE__, n_, (n),   \
                            dt_legal_str(&G));                                                \
  } while (0)

static void cards_and_deck(void) {
  TK_EQ(__builtin_popcountll(TK_DAIFUGO_DECK), 53, "deck");
  TK_EQ(__builtin_popcountll(TK_DAIFUGO_REAL), 52, "real cards");
  TK_EQ(dt_cards("S3"), TK_DAIFUGO_CARD(0, 1), "S3 is row 0 column 1");
  TK_EQ(dt_cards("C2"), TK_DAIFUGO_CARD(3, 13), "C2 is row 3 column 13");
  TK_EQ(dt_cards("D8"), TK_DAIFUGO_CARD(2, TK_DAIFUGO_COL_8), "D8");
  TK_EQ(dt_cards("JK"), TK_DAIFUGO_JOKER, "joker");
}

/* Singles: stronger only; the joker follows any single; revolution reverses 3…2. */
static void singles_follow(void) {
  dt_game(&G, "S5 H9", "D7 C4", "S2 JK", "H3 D3", NULL, 0);
  PLAY(0, "S5");
  LEGAL("D7", 1);
  LEGAL("C4", 0);
  NLEGAL(2); /* pass, D7 */
  PLAY(1, "D7");
  LEGAL("S2", 1);
  LEGAL("JK", 1);
  NLEGAL(3);
  REFUSED(2, "H9", TK_EILLEGAL); /* not held */
  REFUSED(3, "H3", TK_ESTATE);   /* not its turn */
  /* In revolution the weaker rank wins. */
  dt_game(&G, "S5 H9", "D7 C4", "S2 JK", "H3 D3", NULL, 0);
  G.rev = 1;
  PLAY(0, "S5");
  LEGAL("C4", 1);
  LEGAL("D7", 0);
  PLAY(1, "C4");
  LEGAL("S2", 0);
  LEGAL("JK", 1); /* the joker beats any single in either order */
  NLEGAL(2);
}

/* A single joker: only the ♠3 (and the pass) may follow; the ♠3 clears and its player leads. */
static void joker_and_spade3(void) {
  dt_game(&G, "H5 C6", "H7 D9", "JK SK", "S3 D4", NULL, 0);
  PLAY(0, "H5");
  PLAY(1, "H7");
  TK_EQ(G.lock, 1, "hearts on hearts lock");
  LEGAL("SK", 0);
  LEGAL("JK", 1); /* the single joker ignores the lock */
  PLAY(2, "JK");
  TK_EQ(G.lock, 0, "the single joker removes the lock");
  NLEGAL(2);
  LEGAL("S3", 1);
  LEGAL("D4", 0);
  PLAY(3, "S3");
  TK_EQ(G.top.kind, TK_DAIFUGO_PASS, "the spade 3 clears the table");
  TK_EQ(G.turn, 3, "its player leads");
  /* In revolution the ♠3 still answers the joker, and nothing else does. */
  dt_game(&G, "H5 C6", "H7 D9", "JK SK", "S3 D4", NULL, 2);
  G.rev = 1;
  PLAY(2, "JK");
  NLEGAL(2);
  LEGAL("S3", 1);
  PLAY(3, "S3");
  TK_EQ(G.turn, 3, "spade 3 in revolution: its player leads");
  TK_EQ(G.rev, 1, "revolution survives the clear");
  /* A player without the ♠3 has only the pass. */
  dt_game(&G, "JK S9", "H3 D4", "S3 C4", "H5", NULL, 0);
  PLAY(0, "JK");
  NLEGAL(1);
  PLAY(1, "pass");
  LEGAL("S3", 1);
}

/* A player who has passed is skipped until the clear, so cannot answer a joker with the ♠3. */
static void passed_player_cannot_spade3(void) {
  dt_game(&G, "H5 C6", "S3 D9", "JK SK", "D4 C5", NULL, 0);
  PLAY(0, "H5");
  PLAY(1, "pass");
  PLAY(2, "JK");
  TK_EQ(G.turn, 3, "after the joker: player 3");
  PLAY(3, "pass");
  PLAY(4, "pass");
  PLAY(0, "pass");
  TK_EQ(G.turn, 2, "player 1 passed: the turn returns to the joker's owner");
  PLAY(2, "pass");
  TK_EQ(G.top.kind, TK_DAIFUGO_PASS, "everyone passed: clear");
  TK_EQ(G.turn, 2, "the owner leads");
}

/* Groups of 2..5 with the joker in each cell (hand-checked counts). */
static void groups_counts(void) {
  /* Four sixes and the joker on a new table: singles 4 + joker 1; groups without the joker
   * 6 + 4 + 1; with it 6*2 (pairs) + 4*3 (triples) + 1*4 (fours) + 1 (five) = 29; no sequence. */
  dt_game(&G, "S6 H6 D6 C6 JK", "", "", "", NULL, 0);
  NLEGAL(1 + 5 + 11 + 29);
  LEGAL("S6 H6 D6 C6 JK[X6]", 1);
  LEGAL("S6 H6 D6 JK[C6]", 1);
  LEGAL("S6 JK[H6]", 1);
  LEGAL("H6 JK[S6]", 1); /* the joker standing for a card also held */
  /* Following a pair of 9s: pairs of 10s only, each joker placement a distinct play. */
  dt_game(&G, "S9 H9", "S5 H5 DT CT JK", "", "", NULL, 0);
  PLAY(0, "S9 H9");
  NLEGAL(1 + 7); /* DT CT; JK[S] or JK[H] with DT or CT (4); DT JK[CT], CT JK[DT] */
  LEGAL("DT JK[ST]", 1);
  LEGAL("DT CT", 1);
  LEGAL("S5 H5", 0);
  LEGAL("DT", 0);       /* same count only */
  LEGAL("JK", 0);       /* the single joker follows singles only */
  LEGAL("S5 H5 JK[D5]", 0);
  /* The same in revolution: pairs of 5s (1 + 2 + 4). */
  dt_game(&G, "S9 H9", "S5 H5 DT CT JK", "", "", NULL, 0);
  G.rev = 1;
  PLAY(0, "S9 H9");
  NLEGAL(1 + 7);
  LEGAL("S5 H5", 1);
  LEGAL("H5 JK[C5]", 1);
  LEGAL("DT CT", 0);
  /* Under the lock of ♠♥, only ♠♥ pairs. */
  dt_game(&G, "S7 H7 S9 H9", "S5 H5 DT CT JK", "", "", NULL, 0);
  PLAY(0, "S7 H7");
  G.lock = 1;
  G.turn = 0;
  PLAY(0, "S9 H9");
  NLEGAL(1);
}

/* Sequences: the joker fills a gap, extends either end, stands below 3 and above 2. */
static void sequences_and_joker(void) {
  /* S3 S4 S5 JK on a new table: singles 3 + 1; groups (one card + joker) 3 * 3 = 9;
   * sequences: 3-4-5 plain and with the joker in each of its 3 cells (4), JK[<]-3-4 (1),
   * 4-5-JK[6] (1), JK[<]-3-4-5 (1), 3-4-5-JK[6] (1) = 8. */
  dt_game(&G, "S3 S4 S5 JK", "", "", "", NULL, 0);
  NLEGAL(1 + 4 + 9 + 8);
  LEGAL("JK[S<] S3 S4", 1);
  LEGAL("S3 S4 S5 JK[S6]", 1);
  LEGAL("S3 JK[S4] S5", 1);
  dt_game(&G, "SA S2 JK", "", "", "", NULL, 0);
  LEGAL("SA S2 JK[S>]", 1);
  LEGAL("JK[SK] SA S2", 1);
  dt_game(&G, "S3 S5 JK", "", "", "", NULL, 0);
  LEGAL("S3 JK[S4] S5", 1);
  /* Following: same length, lowest above the previous highest (revolution: highest below the
   * previous lowest). */
  dt_game(&G, "S4 S5 S6", "H7 H8 H9 D5 D6 D7", "", "", NULL, 0);
  PLAY(0, "S4 S5 S6");
  LEGAL("H7 H8 H9", 1);
  LEGAL("D5 D6 D7", 0);
  dt_game(&G, "H7 H8 H9 C3", "D4 D5 D6 S5 S6 S7", "", "", NULL, 0);
  G.rev = 1;
  PLAY(0, "H7 H8 H9"); /* an 8-cut: lead again, then compare in revolution */
  TK_EQ(G.turn, 0, "the sequence spanning 8 cuts");
  dt_game(&G, "H9 HT HJ", "D4 D5 D6 S5 S6 S7 S8 DT DJ DQ", "", "", NULL, 0);
  G.rev = 1;
  PLAY(0, "H9 HT HJ");
  LEGAL("D4 D5 D6", 1);
  LEGAL("S6 S7 S8", 1); /* highest 8 below the lowest 9 */
  LEGAL("DT DJ DQ", 0);
  LEGAL("S7 S8 JK[S9]", 0); /* the joker is not held */
}

/* Revolution: 4+ of a rank (3 + joker counts), 5+ in sequence; a second one flips back; it
 * survives a clear. */
static void revolution(void) {
  dt_game(&G, "S9 H9 D9 C9 S4", "S3 H3 D3 JK SA", "", "", NULL, 0);
  PLAY(0, "S9 H9 D9 C9");
  TK_EQ(G.rev, 1, "four 9s");
  PLAY(1, "S3 H3 D3 JK[C3]");
  TK_EQ(G.rev, 0, "three 3s and the joker flip back");
  dt_game(&G, "S3 S4 S5 S6 S7 H4", "D9 DT DJ DQ JK", "", "", NULL, 0);
  PLAY(0, "S3 S4 S5 S6 S7");
  TK_EQ(G.rev, 1, "five in sequence");
  PLAY(1, "pass");
  PLAY(4, "pass"); /* players 2 and 3 hold no cards */
  PLAY(0, "pass");
  TK_EQ(G.top.kind, TK_DAIFUGO_PASS, "cleared");
  TK_EQ(G.rev, 1, "the revolution survives the clear");
  TK_EQ(G.turn, 0, "owner leads");
  dt_game(&G, "S3", "D9 DT DJ DQ JK", "", "", NULL, 1);
  PLAY(1, "D9 DT DJ DQ JK[DK]");
  TK_EQ(G.rev, 1, "four in sequence and the joker");
  /* A single joker never revolts; a triple never does. */
  dt_game(&G, "JK S5 H5 D5", "", "", "", NULL, 0);
  PLAY(0, "S5 H5 D5");
  TK_EQ(G.rev, 0, "a triple");
}

/* 8-cut: any play containing an 8 (a joker standing for one included) clears at once and its
 * player leads; after a last card the next seat holding cards leads. */
static void eight_cut(void) {
  const char *cuts[] = {"H8", "S8 H8", "S6 S7 S8", "S7 JK[S8] S9", "H8 JK[S8]", "JK[S6] S7 S8",
                        "S8 H8 D8 C8", "S8 H8 D8 C8 JK[X8]", "S8 S9 ST", "JK[S8] S9 ST",
                        "S8 S9 ST JK[SJ]"};
  for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
    dt_game(&G, "S6 S7 S8 S9 ST H8 D8 C8 JK S4", "H3 H4", "", "", NULL, 0);
    PLAY(0, cuts[i]);
    if (G.top.kind != TK_DAIFUGO_PASS || G.turn != 0)
      TK_FAILF("'%s' should cut: top kind %d, turn %d", cuts[i], G.top.kind, G.turn);
  }
  dt_game(&G, "S5 S6 S7 JK", "H3 H4", "", "", NULL, 0);
  PLAY(0, "S5 S6 S7");
  TK_EQ(G.turn, 1, "5-6-7 does not cut");
  dt_game(&G, "S9 ST SJ JK", "H3 H4", "", "", NULL, 0);
  PLAY(0, "S9 ST SJ");
  TK_EQ(G.turn, 1, "9-10-J does not cut");
  dt_game(&G, "S5 S6 S7 JK", "H3 H4", "", "", NULL, 0);
  PLAY(0, "JK");
  TK_EQ(G.turn, 1, "a single joker is never an 8");
  /* An 8 as the last card: the next seat holding cards leads. */
  dt_game(&G, "H8", "", "S3 S4", "D5", NULL, 0);
  PLAY(0, "H8");
  TK_EQ(G.out & 1, 1, "player 0 is out");
  TK_EQ(G.turn, 2, "player 1 holds nothing: player 2 leads");
  TK_EQ(G.top.kind, TK_DAIFUGO_PASS, "the table is clear");
}

/* Suit lock: exactly the same suit set locks; the joker counts as the suit of its cell, so its
 * placement decides; a single joker ignores and removes the lock. */
static void suit_lock(void) {
  dt_game(&G, "S5 H5 SK", "S9 H9 D9 JK", "HT CT", "", NULL, 0);
  PLAY(0, "S5 H5");
  LEGAL("S9 JK[H9]", 1);
  LEGAL("S9 JK[D9]", 1);
  LEGAL("S9 JK[C9]", 1);
  PLAY(1, "S9 JK[H9]");
  TK_EQ(G.lock, 1, "joker in the heart cell: ♠♥ on ♠♥ locks");
  LEGAL("HT CT", 0);
  NLEGAL(1);
  dt_game(&G, "S5 H5 SK", "S9 H9 D9 JK", "HT CT", "", NULL, 0);
  PLAY(0, "S5 H5");
  PLAY(1, "S9 JK[D9]");
  TK_EQ(G.lock, 0, "joker in the diamond cell: no lock");
  LEGAL("HT CT", 1);
  /* Singles: a lock keeps the suit; the single joker removes it. */
  dt_game(&G, "H5 S6", "H7 S8", "H9 SJ JK", "HT CQ", NULL, 0);
  PLAY(0, "H5");
  PLAY(1, "H7");
  TK_EQ(G.lock, 1, "hearts lock");
  LEGAL("H9", 1);
  LEGAL("SJ", 0);
  PLAY(2, "H9");
  TK_EQ(G.lock, 1, "still locked");
  LEGAL("HT", 1);
  LEGAL("CQ", 0);
  PLAY(3, "pass");
  PLAY(4, "pass");
  PLAY(0, "pass");
  PLAY(1, "pass");
  PLAY(2, "pass");
  TK_EQ(G.lock, 0, "the clear ends the lock");
  /* A different suit set after a lock-free pair does not lock. */
  dt_game(&G, "S5 H5", "D9 C9", "", "", NULL, 0);
  PLAY(0, "S5 H5");
  PLAY(1, "D9 C9");
  TK_EQ(G.lock, 0, "♦♣ on ♠♥");
}

/* Passing: sticky; the table clears only when every holder (the owner too) has passed; the turn
 * returns to the owner; a pass on a new table is legal and counts. */
static void passing_and_clearing(void) {
  dt_game(&G, "S4 S6", "D5 D7 H9", "C3", "C4", NULL, 0);
  PLAY(0, "S4");
  PLAY(1, "D5");
  PLAY(2, "pass");
  PLAY(3, "pass");
  PLAY(4, "pass");
  TK_EQ(G.turn, 0, "player 0 has not passed");
  PLAY(0, "pass");
  TK_EQ(G.top.kind, TK_DAIFUGO_SINGLE, "player 1 has not passed: no clear yet");
  TK_EQ(G.turn, 1, "the turn returns to the owner");
  LEGAL("D7", 1); /* it may play over its own cards */
  PLAY(1, "D7");
  TK_EQ(G.turn, 1, "everyone else has passed: the owner again");
  PLAY(1, "pass");
  TK_EQ(G.top.kind, TK_DAIFUGO_PASS, "the owner's pass clears");
  TK_EQ(G.turn, 1, "and it leads");
  TK_EQ(G.passed, 0, "passes reset at the clear");
  /* A pass on a new table is legal, counts as a pass, and the next player acts. */
  LEGAL("pass", 1);
  PLAY(1, "pass");
  TK_EQ(G.turn, 2, "after a pass on an empty table");
  TK_EQ(G.npass, 2, "it counts (after the owner's pass that cleared)");
  TK_EQ(G.passed, 2, "player 1 sits out");
  /* The owner went out: after everyone passes, the next seat still holding cards leads. */
  dt_game(&G, "S4", "S5", "", "C4", NULL, 0);
  PLAY(0, "S4");
  PLAY(1, "pass");
  PLAY(3, "pass");
  PLAY(4, "pass");
  TK_EQ(G.top.kind, TK_DAIFUGO_PASS, "cleared");
  TK_EQ(G.turn, 1, "the seat after the finished owner");
  /* Play goes by ascending seat, whatever the player ids. */
  uint64_t hand[5] = {dt_cards("S4"), dt_cards("S5"), dt_cards("S6"), dt_cards("S7"), 0};
  hand[4] = TK_DAIFUGO_DECK & ~(hand[0] | hand[1] | hand[2] | hand[3]);
  uint8_t seat_of[5] = {4, 2, 0, 1, 3};
  tk_daifugo_game_setup(&G, hand, seat_of, 2, 20, 1, NULL);
  PLAY(2, "S6");
  TK_EQ(G.turn, 3, "seat 1 holds player 3");
  PLAY(3, "pass");
  TK_EQ(G.turn, 1, "seat 2 holds player 1");
}

/* Sennichite: 20 consecutive passes (clears do not reset the count, a play does) end the game
 * with the remaining places drawn at random. */
static void sennichite(void) {
  dt_game(&G, "S4 S5", "H4 H5", "D4 D5", "C4 C5", NULL, 0);
  PLAY(0, "S4");
  for (int i = 0; i < 19; i++) PLAY(G.turn, "pass");
  TK_EQ(G.over, 0, "19 passes");
  TK_EQ(G.npass, 19, "counter");
  {
    static tk_daifugo_legal l;
    tk_daifugo_game_legal(&G, &l);
    tk_daifugo_game_play(&G, &l.a[l.n - 1]); /* a play: reset */
  }
  TK_EQ(G.npass, 0, "a play resets the counter");
  for (int i = 0; i < 19; i++) PLAY(G.turn, "pass");
  TK_EQ(G.over, 0, "19 again");
  PLAY(G.turn, "pass");
  TK_EQ(G.over, 1, "the 20th pass ends the game");
  TK_EQ(G.by_sennichite, 1, "by sennichite");
  unsigned seen = 0;
  for (int k = 0; k < 5; k++) seen |= 1u << G.order[k];
  TK_EQ(seen, 31, "every place assigned");
  dt_check_game(&G, "sennichite");
  /* The draw is random: over seeds, player 1 is second in some games and not in others. */
  int second = 0;
  for (uint64_t s = 0; s < 64; s++) {
    uint64_t hand[5] = {dt_cards("S4"), dt_cards("H4"), dt_cards("D4"), dt_cards("C4"), 0};
    hand[4] = TK_DAIFUGO_DECK & ~(hand[0] | hand[1] | hand[2] | hand[3]);
    uint8_t seats[5] = {0, 1, 2, 3, 4};
    tk_daifugo_game_setup(&G, hand, seats, 0, 20, s, NULL);
    for (int i = 0; i < 20; i++) dt_play(&G, G.turn, "pass");
    second += G.order[0] == 1;
  }
  if (second == 0 || second == 64) TK_FAILF("player 1 placed first in %d of 64 draws", second);
}

/* Going out with any card; the game ends with the 4th out; points 5…1 and 2…-2. */
static void going_out_and_points(void) {
  dt_game(&G, "S8", "JK", "C2", "S3", NULL, 0);
  PLAY(0, "S8"); /* an 8 as the last card */
  TK_EQ(G.turn, 1, "next seat leads");
  PLAY(1, "JK"); /* the joker as the last card */
  TK_EQ(G.turn, 2, "the joker's owner is out: next holder");
  PLAY(2, "pass");
  PLAY(3, "pass");
  PLAY(4, "pass");
  TK_EQ(G.turn, 2, "cleared: the seat after the finished owner");
  PLAY(2, "C2"); /* a 2 as the last card */
  TK_EQ(G.over, 0, "three out");
  PLAY(3, "pass");
  PLAY(4, "pass");
  TK_EQ(G.turn, 3, "cleared to the seat after player 2");
  PLAY(3, "S3");
  TK_EQ(G.over, 1, "the 4th out ends the game");
  const int want[5] = {0, 1, 2, 3, 4};
  for (int k = 0; k < 5; k++) TK_EQ(G.order[k], want[k], "order");
  TK_EQ(tk_daifugo_place_of(&G, 4), 4, "the last holder is 5th");
  int sum = 0, psum = 0;
  for (int k = 0; k < 5; k++) sum += tk_daifugo_points(k), psum += tk_daifugo_paper_points(k);
  TK_EQ(sum, 15, "server points");
  TK_EQ(psum, 0, "paper points");
  TK_EQ(tk_daifugo_points(0), 5, "daifugo");
  TK_EQ(tk_daifugo_paper_points(4), -2, "daihinmin");
  dt_check_game(&G, "going out");
}

/* Illegal plays are refused with the game unchanged; notation errors name the character. */
static void refusals_and_notation(void) {
  dt_game(&G, "S5 H5 S6", "S9", "", "", NULL, 0);
  REFUSED(0, "S5 S6", TK_EILLEGAL);    /* a two-card sequence is no play */
  REFUSED(0, "S5 H5 JK[D5]", TK_EILLEGAL); /* the joker is not held */
  REFUSED(1, "S9", TK_ESTATE);
  tk_daifugo_move m;
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_daifugo_move_parse("S3 Z4", &m, &err), TK_EPARSE, "bad suit");
  TK_EQ(err.position, 3, "position of Z");
  if (!strstr(err.msg, "'Z'") || !strstr(err.msg, "position 3")) TK_FAILF("message: %s", err.msg);
  tk_error_clear(&err);
  TK_EQ(tk_daifugo_move_parse("S1", &m, &err), TK_EPARSE, "bad rank");
  TK_EQ(err.position, 1, "position of 1");
  tk_error_clear(&err);
  TK_EQ(tk_daifugo_move_parse("S3 H4", &m, &err), TK_EILLEGAL, "no shape");
  const char *round[] = {"pass", "S3", "JK", "S3 H3 JK[D3]", "S3 S4 JK[S<]", "SA S2 JK[S>]",
                         "S8 H8 D8 C8 JK[X8]", "give C3", "give JK", "HT HJ HQ HK"};
  for (size_t i = 0; i < sizeof round / sizeof *round; i++) {
    char buf[128];
    tk_error_clear(&err);
    if (tk_daifugo_move_parse(round[i], &m, &err)) {
      TK_FAILF("'%s': %s", round[i], err.msg);
      continue;
    }
    tk_daifugo_move_str(&m, buf, sizeof buf);
    if (strcmp(buf, round[i])) TK_FAILF("'%s' printed as '%s'", round[i], buf);
  }
  tk_daifugo_move_parse("HT HJ HQ HK", &m, NULL);
  TK_EQ(m.kind, TK_DAIFUGO_SEQ, "kind");
  TK_EQ(m.rank, 8, "lowest column (10)");
  TK_EQ(m.n, 4, "n");
  TK_EQ(m.suits, 2, "hearts");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"cards: 53, the table's layout", cards_and_deck},
      {"singles: stronger only, the joker over any single, revolution", singles_follow},
      {"spade 3 over a single joker: only reply, in revolution, clears", joker_and_spade3},
      {"spade 3: a passed player is skipped", passed_player_cannot_spade3},
      {"groups of 2..5, joker placements, following, lock", groups_counts},
      {"sequences: joker in a gap, at either end, columns 0 and 14", sequences_and_joker},
      {"revolution: four, three and joker, five in sequence; survives clears", revolution},
      {"8-cut: single, group, sequence (an 8 first, inside or last), joker standing for an 8, "
       "last card", eight_cut},
      {"suit lock: same suit set; the joker's cell; the single joker", suit_lock},
      {"passing: sticky, clears when every holder passed, owner out", passing_and_clearing},
      {"sennichite: 20 consecutive passes, random places", sennichite},
      {"going out with any card; places and points", going_out_and_points},
      {"refusals leave the game unchanged; notation", refusals_and_notation},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_rules", tests);
}
