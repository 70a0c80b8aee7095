/* tests/riichi/test_riichi_game.c — scenario tests of how hands and games end: abortive draws
 * (nine terminals, four winds, four riichi, four kans; a ron after the fourth kan wins instead)
 * and their (absent) payments, the exhaustive draw's noten payments and nagashi mangan (by the
 * dealer, beside tenpai seats), dealer repeat and honba, the wall derivation, and the end of the
 * game (bust, East 4, the South extension and its sudden death, agari-yame / tenpai-yame,
 * leftover sticks to the top, ties, hanchan). */
#include <stdio.h>
#include <string.h>

#include "rt.h"
#include "unit.h"

static rt T;
static uint8_t W[TK_RIICHI_TILES];

#define DO(seat, type, tile)                                                                  \
  do {                                                                                        \
    int rc_ = rt_do(&T, (seat), (type), (tile), NULL, NULL);                                  \
    if (rc_) TK_FAILF("line %d: seat %d action %d: %s", __LINE__, (seat), (type), T.last_err);\
  } while (0)

/* Tenpai hands (T*) and noten hands (N*), compatible in any seat combination used below. */
static const char *T0 = "123456789m11p23p", *T1 = "123456789s11m23m", *T2 = "123456789p44s56s",
                  *T3 = "1112223334455z";
static const char *N0 = "147m258p369s1234z", *N1 = "258m147p369s1234z", *N2 = "258m369p147s5677z",
                  *N3 = "369m147p258s5567z";

static void wall(int dealer, const char *h0, const char *h1, const char *h2, const char *h3,
                 const char *live) {
  const char *h[4] = {h0, h1, h2, h3};
  if (rt_wall(W, dealer, h, live, NULL, "9s", NULL)) TK_FAILF("bad scripted wall");
}

/* A hand with the given hands, played out by tsumogiri from the given state. */
static void draw_out(int round, int honba, int sticks, const int32_t *scores,
                     const tk_riichi_rules *rules, const char *h0, const char *h1, const char *h2,
                     const char *h3) {
  wall(round % 4, h0, h1, h2, h3, NULL);
  rt_init(&T, rules);
  T.g.round = (uint8_t)round;
  T.g.honba = (uint8_t)honba;
  T.g.sticks = (uint8_t)sticks;
  if (scores) memcpy(T.g.scores, scores, sizeof T.g.scores);
  rt_deal(&T, W);
  T.check = 1;
  rt_to_end(&T);
  TK_EQ(T.failures, 0, "invariants");
}

/* ------------------------------------------------------------ exhaustive draw */

static const tk_riichi_event *ryukyoku(void) { return rt_find(&T, TK_RIICHI_EV_RYUKYOKU, 0); }

static void exhaustive_payments(void) {
  draw_out(0, 0, 0, NULL, NULL, N0, T1, N2, N3);
  const tk_riichi_event *e = ryukyoku();
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_EXHAUSTIVE, "exhaustive draw");
  TK_EQ(e ? e->tenpai[1] : 0, 1, "seat 1 tenpai");
  DELTAS(-1000, 3000, -1000, -1000, e);
  TK_EQ(T.g.round, 1, "dealer noten: the deal passes");
  TK_EQ(T.g.honba, 1, "honba + 1 on a draw");
  char buf[2048] = "";
  if (e) tk_riichi_event_json(e, NULL, buf, sizeof buf);
  TK_EQ(strstr(buf, "\"reason\":\"fanpai\",\"tenpais\":[false,true,false,false]") != NULL, 1, buf);

  draw_out(0, 0, 0, NULL, NULL, T0, N0, N2, N3);
  DELTAS(3000, -1000, -1000, -1000, ryukyoku());
  TK_EQ(T.g.round, 0, "dealer tenpai repeats");
  TK_EQ(T.g.honba, 1, "honba + 1");

  draw_out(0, 0, 0, NULL, NULL, T0, T1, N2, N3);
  DELTAS(1500, 1500, -1500, -1500, ryukyoku());

  draw_out(0, 0, 0, NULL, NULL, T0, T1, T2, N3);
  DELTAS(1000, 1000, 1000, -3000, ryukyoku());

  draw_out(0, 0, 0, NULL, NULL, T0, T1, T2, T3);
  DELTAS(0, 0, 0, 0, ryukyoku());
  TK_EQ(T.g.round, 0, "all tenpai: dealer repeats");

  draw_out(0, 0, 0, NULL, NULL, N0, N1, N2, N3);
  DELTAS(0, 0, 0, 0, ryukyoku());
  TK_EQ(T.g.round, 1, "all noten: the deal passes");

  /* honba carry over: E1 with 3 honba and a stick, dealer tenpai -> E1 4 honba, stick kept */
  int32_t sc[4] = {24000, 25000, 25000, 25000};
  draw_out(0, 3, 1, sc, NULL, T0, N0, N2, N3);
  TK_EQ(T.g.honba, 4, "honba 4");
  TK_EQ(T.g.sticks, 1, "the stick stays on the table");
  rt_deal(&T, NULL);
  const tk_riichi_event *s = rt_find(&T, TK_RIICHI_EV_START_KYOKU, 0);
  TK_EQ(s && s->honba == 4 && s->sticks == 1 && s->round == 0 && s->dealer == 0, 1, "start_kyoku E1 4 honba");
}

/* The live wall of a hand dealt by seat 0 with hands h (and indicator 9s) played out by
 * tsumogiri without calls: draw j goes to seat j % 4, so seat `nagashi` draws only terminals and
 * honors and every other seat only simples (the lowest kinds left first). Returns 0, or -1 if
 * the tiles run out. */
static int nagashi_live(const char *const h[4], int nagashi, char live[300]) {
  int cnt[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) cnt[k] = 4;
  for (int s = 0; s < 4; s++) {
    uint8_t t[13];
    tk_error err;
    int n = tk_tiles_parse(h[s], t, 13, &err);
    for (int i = 0; i < n; i++) cnt[tk_tile_kind(t[i])]--;
  }
  cnt[26]--; /* the dora indicator 9s */
  live[0] = 0;
  int y = 0, m = 0, reds = 0;
  for (int j = 0; j < TK_RIICHI_LIVE; j++) {
    int want_yaochu = j % 4 == nagashi, k;
    int *cur = want_yaochu ? &y : &m;
    for (;; (*cur)++) {
      k = *cur;
      if (k >= TK_KINDS) return -1;
      if (cnt[k] > 0 && tk_kind_is_yaochu(k) == want_yaochu) break;
    }
    cnt[k]--;
    int red = (k == TK_5M || k == TK_5P || k == TK_5S) && !(reds >> (k / 9) & 1);
    if (red) reds |= 1 << (k / 9);
    strcat(live, tk_tile_str((tk_tile)(k | (red ? TK_TILE_RED : 0))));
  }
  return 0;
}

/* Plays out a hand of East 1 in which seat `nagashi` qualifies for nagashi mangan. */
static void nagashi_out(int nagashi, int honba, int sticks, const char *h0, const char *h1,
                        const char *h2, const char *h3) {
  const char *h[4] = {h0, h1, h2, h3};
  char live[300];
  if (nagashi_live(h, nagashi, live)) {
    TK_FAILF("nagashi wall: pool exhausted");
    return;
  }
  wall(0, h0, h1, h2, h3, live);
  rt_init(&T, NULL);
  T.g.honba = (uint8_t)honba;
  T.g.sticks = (uint8_t)sticks;
  T.g.scores[3] -= 1000 * sticks;
  rt_deal(&T, W);
  T.check = 1;
  rt_to_end(&T);
  TK_EQ(T.failures, 0, "invariants");
}

static void nagashi_mangan(void) {
  /* seat 2 draws only terminals and honors and discards them all; the others draw simples */
  nagashi_out(2, 0, 0, N0, N1, N2, N3);
  const tk_riichi_event *e = ryukyoku();
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_NAGASHI, "nagashi mangan");
  DELTAS(-4000, -2000, 8000, -2000, e); /* a non-dealer mangan tsumo, no noten payments */
  TK_EQ(T.g.round, 1, "dealer noten: the deal passes");
  TK_EQ(T.g.honba, 1, "honba + 1 (a draw)");
}

static void nagashi_mangan_dealer(void) {
  /* the dealer qualifies; seat 1 is tenpai. Dealer mangan: 4000 from each seat (12000), no honba
   * paid, no noten payment (seat 1 would have had +3000), the stick stays; the dealer is noten,
   * so the deal passes, and the honba grows */
  nagashi_out(0, 1, 1, N0, T1, N2, N3);
  const tk_riichi_event *e = ryukyoku();
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_NAGASHI, "nagashi mangan");
  TK_EQ(rt_tenpai_code(e), 100, "tenpai: seat 1 only");
  DELTAS(12000, -4000, -4000, -4000, e);
  SCORES(&T, 37000, 21000, 21000, 20000);
  TK_EQ(T.g.sticks, 1, "the stick stays on the table");
  TK_EQ(T.g.round, 1, "dealer noten: the deal passes");
  TK_EQ(T.g.honba, 2, "honba + 1");
}

static void nagashi_mangan_with_tenpai(void) {
  /* seat 2 qualifies; the dealer and seat 3 are tenpai (noten payments would be +-1500): only
   * the mangan is paid; the dealer is tenpai, so it repeats */
  nagashi_out(2, 0, 0, T0, N1, N2, T3);
  const tk_riichi_event *e = ryukyoku();
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_NAGASHI, "nagashi mangan");
  TK_EQ(rt_tenpai_code(e), 1001, "tenpai: the dealer and seat 3");
  DELTAS(-4000, -2000, 8000, -2000, e);
  SCORES(&T, 21000, 23000, 33000, 23000);
  TK_EQ(T.g.round, 0, "dealer tenpai: it repeats");
  TK_EQ(T.g.honba, 1, "honba + 1");
}

/* ------------------------------------------------------------ abortive draws */

static void nine_terminals(void) {
  wall(0, "19m19p19s1234567z", N1, N2, N3, "5m");
  rt_start(&T, NULL, W);
  TK_EQ(rt_can(&T, 0, TK_RIICHI_KYUUSHU, NULL), 1, "nine terminals offered");
  DO(0, TK_RIICHI_KYUUSHU, NULL);
  const tk_riichi_event *e = ryukyoku();
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_KYUUSHU, "kyushukyuhai");
  DELTAS(0, 0, 0, 0, e);
  TK_EQ(T.g.round, 0, "dealer keeps the seat");
  TK_EQ(T.g.honba, 1, "honba + 1");
  /* only on the first uninterrupted draw */
  rt_start(&T, NULL, W);
  DO(0, TK_RIICHI_DISCARD, "5m");
  rt_pass(&T);
  rt_tsumogiri(&T, 3);
  TK_EQ(T.g.turn, 0, "dealer's second draw");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_KYUUSHU, NULL), 0, "not on the second draw");
  /* and only when the rules allow it */
  tk_riichi_rules r = tk_riichi_default_rules();
  r.kyuushu = 0;
  rt_start(&T, &r, W);
  TK_EQ(rt_can(&T, 0, TK_RIICHI_KYUUSHU, NULL), 0, "rule off");
}

/* Starts East 1 from `W` with `honba` and `sticks` (seat 3 paid the sticks). */
static void start_with(int honba, int sticks) {
  rt_init(&T, NULL);
  T.g.honba = (uint8_t)honba;
  T.g.sticks = (uint8_t)sticks;
  T.g.scores[3] -= 1000 * sticks;
  rt_deal(&T, W);
  T.check = 1;
}

/* An abortive draw pays nothing: the scores are unchanged, the sticks stay, the dealer repeats
 * and the honba grows. */
static void no_payment(int honba, int sticks) {
  DELTAS(0, 0, 0, 0, ryukyoku());
  SCORES(&T, 25000, 25000, 25000, 25000 - 1000 * sticks);
  TK_EQ(T.g.sticks, sticks, "the sticks stay on the table");
  TK_EQ(T.g.round, 0, "dealer keeps the seat");
  TK_EQ(T.g.honba, honba + 1, "honba + 1");
}

static void four_winds(void) {
  wall(0, N0, N1, "369m147p258s1567z", "147m369p258s1567z", NULL);
  start_with(2, 1);
  for (int s = 0; s < 4; s++) {
    TK_EQ(T.g.turn, s, "in turn");
    DO(s, TK_RIICHI_DISCARD, "1z");
    rt_pass(&T);
  }
  const tk_riichi_event *e = ryukyoku();
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_FOUR_WINDS, "suufonrenda");
  no_payment(2, 1);
  TK_EQ(T.failures, 0, "invariants");
}

static void four_riichi(void) {
  wall(0, T0, T1, T2, T3, "7z7z7z7z");
  rt_start(&T, NULL, W);
  T.check = 1;
  for (int s = 0; s < 4; s++) {
    DO(s, TK_RIICHI_RIICHI, NULL);
    rt_pass(&T);
  }
  TK_EQ(rt_count(&T, TK_RIICHI_EV_REACH_ACCEPTED), 4, "four sticks paid");
  const tk_riichi_event *e = ryukyoku();
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_FOUR_RIICHI, "suuchariichi");
  TK_EQ(T.g.sticks, 4, "the sticks stay on the table");
  TK_EQ(T.g.scores[0] + T.g.scores[1] + T.g.scores[2] + T.g.scores[3], 96000, "4000 in sticks");
  TK_EQ(T.g.round, 0, "dealer keeps the seat");
  TK_EQ(T.failures, 0, "invariants");
}

/* The dealer's closed kans of 1m and 2m, its 1z discard, then seat 1's closed kans of 3m and
 * 4m: four kans by two players, seat 1 to discard. */
static void two_players_kan_four_times(void) {
  DO(0, TK_RIICHI_ANKAN, "1m");
  rt_pass(&T);
  DO(0, TK_RIICHI_ANKAN, "2m");
  rt_pass(&T);
  DO(0, TK_RIICHI_DISCARD, "1z");
  rt_pass(&T);
  TK_EQ(T.g.turn, 1, "seat 1 drew");
  DO(1, TK_RIICHI_ANKAN, "3m");
  rt_pass(&T);
  DO(1, TK_RIICHI_ANKAN, "4m");
  rt_pass(&T);
  TK_EQ(T.g.nkans, 4, "four kans, two players");
}

static void four_kans(void) {
  wall(0, "11112222m147p12z", "33334444m258p34z", "369p147s258s369s5z", "556677889m5671z", NULL);
  start_with(1, 1);
  two_players_kan_four_times();
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_SELF, "the hand goes on until the discard passes");
  DO(1, TK_RIICHI_DISCARD, "3z");
  rt_pass(&T);
  const tk_riichi_event *e = ryukyoku();
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_FOUR_KANS, "suukaikan");
  TK_EQ(rt_count(&T, TK_RIICHI_EV_HORA), 0, "no win");
  no_payment(1, 1);
  TK_EQ(T.failures, 0, "invariants");
}

/* The same two-player four kans, but seat 2 (shanpon 3z/5s) rons the discard that follows the
 * fourth kan: the hand ends with the win, not the abortive draw. West is seat 2's own wind:
 * 1 han 40 fu (20 + menzen ron 10 + honor triplet completed by ron 4) = 1300, + 300 honba from
 * the discarder, + the stick on the table. The five indicators make 1p, 9p, 9p, 7m and 1p
 * dora, none in the hand. */
static void four_kans_ronned(void) {
  const char *h[4] = {"11112222m147p12z", "33334444m258p34z", "234p567p678s33z55s", "5689m19p19s24567z"};
  if (rt_wall(W, 0, h, "9m9m", "8m8m7m7m", "9p8p8p6m9p", NULL)) TK_FAILF("bad scripted wall");
  start_with(1, 1);
  two_players_kan_four_times();
  TK_EQ(T.g.ndora, 5, "five indicators");
  DO(1, TK_RIICHI_DISCARD, "3z");
  TK_EQ(rt_can(&T, 2, TK_RIICHI_RON, "3z"), 1, "the discard after the fourth kan may be ronned");
  DO(2, TK_RIICHI_RON, NULL);
  rt_pass(&T);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_RYUKYOKU), 0, "no abortive draw");
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(e && e->actor == 2 && e->target == 1, 1, "seat 2 rons seat 1");
  TK_EQ(e ? e->score.han * 100 + e->score.fu : 0, 140, "1 han 40 fu");
  DELTAS(0, -1600, 2600, 0, e);
  SCORES(&T, 25000, 23400, 27600, 24000);
  TK_EQ(T.g.sticks, 0, "the stick went to the winner");
  TK_EQ(T.g.round == 1 && T.g.honba == 0, 1, "a non-dealer won: East 2, honba reset");
  TK_EQ(T.failures, 0, "invariants");
}

/* ------------------------------------------------------------ walls */

static void walls(void) {
  uint8_t a[TK_RIICHI_TILES], b[TK_RIICHI_TILES];
  tk_riichi_wall(1, 5, 2, 1, a);
  tk_riichi_wall(1, 5, 2, 1, b);
  TK_EQ(memcmp(a, b, sizeof a), 0, "pure function");
  TK_EQ(tk_riichi_wall_check(a, NULL), 0, "136 tiles, 4 of each kind");
  int red = 0;
  for (int i = 0; i < TK_RIICHI_TILES; i++) red += tk_tile_is_red(a[i]);
  TK_EQ(red, 3, "one red five per suit");
  tk_riichi_wall(1, 5, 2, 2, b);
  TK_EQ(memcmp(a, b, sizeof a) != 0, 1, "honba changes the wall");
  tk_riichi_wall(1, 5, 3, 1, b);
  TK_EQ(memcmp(a, b, sizeof a) != 0, 1, "round changes the wall");
  tk_riichi_wall(1, 6, 2, 1, b);
  TK_EQ(memcmp(a, b, sizeof a) != 0, 1, "game index changes the wall");
  tk_riichi_wall(2, 5, 2, 1, b);
  TK_EQ(memcmp(a, b, sizeof a) != 0, 1, "seed changes the wall");
  uint8_t bad[TK_RIICHI_TILES];
  memcpy(bad, a, sizeof bad);
  bad[0] = bad[1];
  TK_EQ(tk_riichi_wall_check(bad, NULL) != 0 || bad[0] == a[0], 1, "a fifth copy is refused");

  /* a generated deal uses the wall of (seed, game, round, honba) */
  tk_riichi_game g;
  tk_riichi_init(&g, NULL, 9, 4, NULL, NULL);
  g.round = 2;
  g.honba = 3;
  tk_riichi_deal(&g, NULL, NULL, NULL);
  tk_riichi_wall(9, 4, 2, 3, a);
  TK_EQ(memcmp(g.wall, a, sizeof a), 0, "the hand's wall");
  TK_EQ(g.turn, 2, "dealer of East 3 is seat 2");
  TK_EQ(g.drawn, a[TK_RIICHI_FIRST_DRAW], "the dealer drew wall[52]");
  TK_EQ(g.p[2].hand[tk_tile_kind(a[0])] >= 1, 1, "the dealer holds wall[0..12]");
  TK_EQ(g.wall[TK_RIICHI_DORA_POS], a[TK_RIICHI_DORA_POS], "first indicator wall[126]");
  /* without red fives */
  tk_riichi_rules r = tk_riichi_default_rules();
  r.red_fives = 0;
  tk_riichi_init(&g, &r, 9, 4, NULL, NULL);
  tk_riichi_deal(&g, NULL, NULL, NULL);
  red = 0;
  for (int i = 0; i < TK_RIICHI_TILES; i++) red += tk_tile_is_red(g.wall[i]);
  TK_EQ(red, 0, "red fives off");
}

/* ------------------------------------------------------------ end of the game */

static void bust_ends(void) {
  int32_t sc[4] = {49100, 25000, 25000, 900};
  draw_out(0, 0, 0, sc, NULL, N0, T1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "seat 3 below zero: over");
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_END_GAME, 0);
  TK_EQ(e && e->scores[3] == -100, 1, "end_game with -100");
  tk_riichi_result r;
  tk_riichi_result_of(&T.g, &r);
  TK_EQ(r.rank[0], 1, "rank");
  TK_EQ(r.rank[1], 2, "rank");
  TK_EQ(r.rank[2], 3, "rank");
  TK_EQ(r.rank[3], 4, "rank");
  TK_EQ(r.hands, 1, "one hand");

  int32_t z[4] = {49000, 25000, 25000, 1000};
  draw_out(0, 0, 0, z, NULL, N0, T1, N2, N3);
  TK_EQ(T.g.scores[3], 0, "exactly zero");
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_DEAL, "zero is not a bust");
}

static void east4_ends(void) {
  int32_t sc[4] = {31000, 25000, 25000, 19000};
  draw_out(3, 0, 0, sc, NULL, N0, T1, N2, N3);
  TK_EQ(T.g.scores[0], 30000, "seat 0 at 30000");
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "East 4 passed with someone at 30000: over");
}

static void south_extension(void) {
  draw_out(3, 0, 0, NULL, NULL, N0, T1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_DEAL, "nobody at 30000: the game goes on");
  TK_EQ(T.g.round, 4, "South 1");
  rt_deal(&T, NULL);
  char buf[2048] = "";
  const tk_riichi_event *s = rt_find(&T, TK_RIICHI_EV_START_KYOKU, 0);
  if (s) tk_riichi_event_json(s, NULL, buf, sizeof buf);
  TK_EQ(strstr(buf, "\"bakaze\":\"S\",") != NULL && strstr(buf, "\"kyoku\":1,") != NULL, 1, buf);

  /* without the extension the game ends after East 4 */
  tk_riichi_rules r = tk_riichi_default_rules();
  r.extension = 0;
  draw_out(3, 0, 0, NULL, &r, N0, T1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "no extension: over");

  /* sudden death: the first hand that leaves someone at 30000 ends it */
  int32_t sc[4] = {25000, 29000, 25000, 21000};
  draw_out(4, 0, 0, sc, NULL, N0, T1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "South 1: seat 1 reached 32000");
  /* a dealer repeat has priority (Tenhou): seat 1 reaches 30000 at a draw where the dealer is
   * tenpai too (1500 each from seats 2, 3), but the dealer keeps the seat and the game goes on */
  int32_t sc2[4] = {25000, 28500, 25000, 21500};
  draw_out(4, 0, 0, sc2, NULL, T0, T1, N2, N3);
  SCORES(&T, 26500, 30000, 23500, 20000);
  TK_EQ(T.g.phase == TK_RIICHI_PHASE_DEAL && T.g.round == 4 && T.g.honba == 1, 1,
        "dealer tenpai in the extension: South 1 again, honba 1");
  /* ... unless the repeating dealer is top with 30000: tenpai-yame */
  int32_t sc3[4] = {28500, 25000, 25000, 21500};
  draw_out(4, 0, 0, sc3, NULL, T0, T1, N2, N3);
  SCORES(&T, 30000, 26500, 23500, 20000);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "extension: tenpai-yame of the top dealer");
  /* the dealer's draw passes the deal: sudden death applies at that hand (seat 1 at 30000) */
  draw_out(4, 0, 0, sc2, NULL, N0, T1, T2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "dealer noten, seat 1 at 30000: over");

  /* the extension's last hand ends the game whatever the scores */
  draw_out(7, 0, 0, NULL, NULL, N0, T1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "South 4 passed: over");
  draw_out(5, 0, 0, NULL, NULL, T0, N1, N2, N3);
  TK_EQ(T.g.phase == TK_RIICHI_PHASE_DEAL && T.g.round == 6, 1, "South 2 -> South 3");
}

static void agari_yame(void) {
  /* East 4 (dealer seat 3) tenpai and top at 33000: tenpai-yame */
  int32_t sc[4] = {25000, 25000, 20000, 30000};
  draw_out(3, 0, 0, sc, NULL, N0, N1, N2, T0);
  TK_EQ(T.g.scores[3], 33000, "dealer 33000");
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "tenpai-yame");
  tk_riichi_rules r = tk_riichi_default_rules();
  r.agariyame = 0;
  draw_out(3, 0, 0, sc, &r, N0, N1, N2, T0);
  TK_EQ(T.g.phase == TK_RIICHI_PHASE_DEAL && T.g.round == 3 && T.g.honba == 1, 1,
        "rule off: East 4 again");
  /* dealer repeats but is not top: go on */
  int32_t sc2[4] = {32000, 25000, 20000, 23000};
  draw_out(3, 0, 0, sc2, NULL, N0, N1, N2, T0);
  TK_EQ(T.g.phase == TK_RIICHI_PHASE_DEAL && T.g.round == 3, 1, "not top: East 4 again");
  /* agari-yame: the dealer of East 4 wins (tenhou) and is top */
  wall(3, N0, N1, N2, T0, "4p");
  rt_init(&T, NULL);
  T.g.round = 3;
  rt_deal(&T, W);
  DO(3, TK_RIICHI_TSUMO, NULL);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "agari-yame");
  TK_EQ(T.g.scores[3], 73000, "tenhou 16000 all");
}

static void sticks_to_top(void) {
  int32_t sc[4] = {31000, 25000, 25000, 17000};
  draw_out(3, 0, 2, sc, NULL, N0, T1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "over");
  TK_EQ(T.g.scores[0], 32000, "2000 in leftover sticks to the top");
  TK_EQ(T.g.sticks, 0, "no stick left");
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_END_GAME, 0);
  TK_EQ(e ? e->scores[0] : 0, 32000, "end_game scores include them");
  tk_riichi_result r;
  tk_riichi_result_of(&T.g, &r);
  TK_EQ(r.points[0], 32000, "result points");
  TK_EQ(r.final_score[0], 32000 - 30000 + 20000 + 20000, "top: points - return + uma + oka");
  TK_EQ(r.final_score[3], 16000 - 30000 - 20000, "last: points - return - 20000");
  TK_EQ(r.final_score[0] + r.final_score[1] + r.final_score[2] + r.final_score[3], 0, "zero-sum");
}

static void ties_and_hanchan(void) {
  int32_t eq[4] = {25000, 25000, 25000, 25000}, t2[4] = {20000, 30000, 30000, 20000};
  uint8_t rk[4];
  tk_riichi_ranks(eq, rk);
  TK_EQ(rk[0] == 1 && rk[1] == 2 && rk[2] == 3 && rk[3] == 4, 1, "ties by seat order");
  tk_riichi_ranks(t2, rk);
  TK_EQ(rk[0] == 3 && rk[1] == 1 && rk[2] == 2 && rk[3] == 4, 1, "ties by seat order");
  /* hanchan: East 4 is not the last hand */
  tk_riichi_rules r = tk_riichi_default_rules();
  r.length = 2;
  int32_t sc[4] = {31000, 25000, 25000, 19000};
  draw_out(3, 0, 0, sc, &r, N0, T1, N2, N3);
  TK_EQ(T.g.phase == TK_RIICHI_PHASE_DEAL && T.g.round == 4, 1, "hanchan: on to South 1");
  draw_out(7, 0, 0, sc, &r, N0, T1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "hanchan: South 4 with 30000: over");
  draw_out(7, 0, 0, NULL, &r, N0, T1, N2, N3);
  TK_EQ(T.g.phase == TK_RIICHI_PHASE_DEAL && T.g.round == 8, 1, "hanchan extension: West 1");
  /* West extension: the dealer (seat 1 in West 2) tenpai at the draw keeps the seat although
   * seat 0 holds 31500; the game goes on (the case of a real Tenhou record) */
  int32_t w2[4] = {30000, 26000, 25000, 19000};
  draw_out(9, 0, 0, w2, &r, T0, T1, N2, N3);
  SCORES(&T, 31500, 27500, 23500, 17500);
  TK_EQ(T.g.phase == TK_RIICHI_PHASE_DEAL && T.g.round == 9 && T.g.honba == 1, 1,
        "West 2 again, honba 1");
  /* the same draw with the dealer noten ends the game (seat 0 at 30000 or more) */
  draw_out(9, 0, 0, w2, &r, T0, N1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "dealer noten: over");
  /* West 4 (the extension's last hand): a dealer repeat goes on, a passed deal ends it */
  draw_out(11, 0, 0, NULL, &r, N0, N1, N2, T0);
  TK_EQ(T.g.phase == TK_RIICHI_PHASE_DEAL && T.g.round == 11, 1, "West 4 dealer tenpai: again");
  draw_out(11, 0, 0, NULL, &r, T0, N1, N2, N3);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "West 4 passed: over");
}

static void bad_input(void) {
  tk_riichi_game g;
  tk_error err;
  tk_riichi_rules r = tk_riichi_default_rules();
  r.length = 3;
  tk_error_clear(&err);
  TK_EQ(tk_riichi_init(&g, &r, 1, 0, NULL, &err), TK_EINVAL, "length 3 refused");
  tk_riichi_init(&g, NULL, 1, 0, NULL, NULL);
  tk_riichi_legal l;
  TK_EQ(tk_riichi_legal_of(&g, 0, &l), 0, "no decision before the deal");
  TK_EQ(tk_riichi_to_act(&g), -1, "nobody to act");
  tk_riichi_deal(&g, NULL, NULL, NULL);
  TK_EQ(tk_riichi_deal(&g, NULL, NULL, &err), TK_ESTATE, "no deal during a hand");
  tk_riichi_action a = {TK_RIICHI_DISCARD, 0, 0, {0, 0}, {0, 0, 0}};
  TK_EQ(tk_riichi_apply(&g, 1, &a, NULL, NULL), TK_ESTATE, "not seat 1's turn");
  a.tile = TK_CHUN;
  int held = g.p[0].hand[TK_CHUN];
  if (!held) TK_EQ(tk_riichi_apply(&g, 0, &a, NULL, NULL), TK_EILLEGAL, "a tile not held");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"exhaustive draw: noten payments, dealer repeat, honba", exhaustive_payments},
      {"nagashi mangan", nagashi_mangan},
      {"nagashi mangan by the dealer: 4000 from each, no honba", nagashi_mangan_dealer},
      {"nagashi mangan with tenpai seats: no noten payments", nagashi_mangan_with_tenpai},
      {"nine terminals", nine_terminals},
      {"four winds", four_winds},
      {"four riichi", four_riichi},
      {"four kans by two players", four_kans},
      {"four kans: a ron on the next discard wins, no abortive draw", four_kans_ronned},
      {"walls: a pure function of (seed, game, round, honba)", walls},
      {"a player below zero ends the game", bust_ends},
      {"East 4 ends the game when someone has 30000", east4_ends},
      {"South extension, sudden death, its last hand", south_extension},
      {"agari-yame and tenpai-yame", agari_yame},
      {"leftover sticks go to the top; final scores", sticks_to_top},
      {"ties by seat order; hanchan", ties_and_hanchan},
      {"bad input", bad_input},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_game", tests);
}
