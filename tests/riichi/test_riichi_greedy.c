/* tests/riichi/test_riichi_greedy.c — the riichi_greedy baseline agent driven through the plugin
 * ABI (its descriptor's create / begin_game / act / end_game / destroy, linked statically) on
 * positions set up with scripted walls: efficiency discards (minimum shanten, then the most
 * unseen effective tiles, ties to the lowest kind), riichi as soon as it is tenpai, tsumogiri in
 * riichi, wins whenever it can (before a pon), pons of yakuhai only (no chi). Each expected
 * choice is worked out by hand in the comment above it. Seat 0 deals; compact tile notation,
 * 1z..7z = E S W N P F C. */
#include <string.h>

#include "agents.h"
#include "rt.h"
#include "unit.h"

static rt T;
static uint8_t W[TK_RIICHI_TILES];
static const tk_agent_descriptor *D;
static tk_agent_instance *I;

#define DO(seat, type, tile)                                                                  \
  do {                                                                                        \
    int rc_ = rt_do(&T, (seat), (type), (tile), NULL, NULL);                                  \
    if (rc_) TK_FAILF("line %d: seat %d action %d: %s", __LINE__, (seat), (type), T.last_err);\
  } while (0)

/* Deals East 1 from the scripted wall (dealer seat 0) and starts the agent's game. */
static void deal(const char *h0, const char *h1, const char *h2, const char *h3, const char *live,
                 const char *dora) {
  const char *h[4] = {h0, h1, h2, h3};
  if (rt_wall(W, 0, h, live, NULL, dora, NULL)) TK_FAILF("bad scripted wall");
  rt_start(&T, NULL, W);
  T.check = 1;
  tk_riichi_info info;
  memset(&info, 0, sizeof info);
  info.head.seed = 1;
  info.length = 1;
  info.red_fives = 1;
  info.start_points = 25000;
  info.return_points = 30000;
  TK_EQ(D->begin_game(I, &info), 0, "begin_game");
}

/* The agent's choice for `seat` now, through act(); checked to be one of the legal actions. */
static tk_riichi_action ask(int seat) {
  tk_riichi_view v;
  tk_riichi_legal l;
  tk_riichi_action a;
  memset(&a, 0xee, sizeof a);
  tk_riichi_view_of(&T.g, seat, &v);
  tk_riichi_legal_of(&T.g, seat, &l);
  TK_EQ(l.n > 0, 1, "the seat has a decision");
  TK_EQ(D->act(I, &v, &l, &a), 0, "act");
  int legal = 0;
  for (int i = 0; i < l.n; i++) legal |= !memcmp(&a, &l.a[i], sizeof a);
  TK_EQ(legal, 1, "the choice is one of the legal actions");
  return a;
}

/* Asserts the agent's choice: `type` and, unless NULL, the tile (exact, red flag included). */
static void expect(int line, int seat, int type, const char *tile, const char *ctx) {
  tk_riichi_action a = ask(seat);
  if (a.type != type || (tile && a.tile != rt_tile(tile)))
    TK_FAILF("line %d: %s: chose action %d tile %s, expected %d %s", line, ctx, a.type,
             a.tile < 0x80 ? tk_tile_str(a.tile) : "none", type, tile ? tile : "");
  else CU_PASS(ctx);
}
#define EXPECT(seat, type, tile, ctx) expect(__LINE__, (seat), (type), (tile), (ctx))

/* Plays the agent's choice for the seat to move (a self decision) in the engine. */
static void play_greedy(int seat) {
  tk_riichi_action a = ask(seat);
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_riichi_apply(&T.g, seat, &a, &T.sink, &err);
  if (rc) TK_FAILF("greedy's action refused: %s", err.msg);
}

/* Noten hands for the other seats. */
static const char *N1 = "147m258p369s1234z", *N2 = "258m369p147s5677z", *N3 = "369m147p258s5567z";

/* ------------------------------------------------------------ discards */

/* The dealer holds 123m 456m 11z (after drawing the second E) and three partial sets: 12p
 * (waits 3p), 67p (5p 8p), 46s (5s). Every discard from a partial set leaves 1-shanten; anything
 * else is worse. Breaking 12p or 46s keeps 12 effective tiles (3p or 5s, plus 5p 8p), breaking
 * 67p only 8. With the indicator 9m nothing is seen: 1p, 2p, 4s, 6s tie at 12 and the lowest
 * kind, 1p, goes. With the indicator 5s one 5s is seen: keeping 46s is worth 11, keeping 12p
 * still 12, so 4s goes (the lower of 4s and 6s). No riichi is possible (no tenpai discard). */
static void efficiency(void) {
  const char *dealer = "123m456m12p67p46s1z";
  deal(dealer, N1, N2, N3, "1z", "9m");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RIICHI, NULL), 0, "no riichi");
  EXPECT(0, TK_RIICHI_DISCARD, "1p", "tie at 12 unseen tiles: the lowest kind");
  deal(dealer, N1, N2, N3, "1z", "5s");
  EXPECT(0, TK_RIICHI_DISCARD, "4s", "a 5s seen: keep 12p, break 46s");
  deal(dealer, N1, N2, N3, "1z", "3p");
  EXPECT(0, TK_RIICHI_DISCARD, "1p", "a 3p seen: keep 46s, break 12p");
}

/* {"ukeire": false}, the weakened copy of the CI gate: among the minimum-shanten discards the
 * lowest kind goes whatever the effective tiles. The hand of `efficiency` with indicator 5s: the
 * full agent breaks 46s (4s), the weakened one breaks 12p (1p, the lowest of 1p 2p 6p 7p 4s 6s). */
static void without_ukeire(void) {
  tk_error err;
  tk_error_clear(&err);
  tk_agent_instance *full = I;
  I = D->create("{\"ukeire\": false}", 7, &err);
  if (!I) TK_FAILF("create {\"ukeire\": false}: %s", err.msg);
  else {
    deal("123m456m12p67p46s1z", N1, N2, N3, "1z", "5s");
    EXPECT(0, TK_RIICHI_DISCARD, "1p", "no effective-tile count: the lowest minimum-shanten kind");
    D->end_game(I, NULL);
    D->destroy(I);
  }
  I = full;
  static const struct {
    const char *params, *msg;
  } bad[] = {
      {"{\"ukeire\": 1}", "\"ukeire\" must be true or false, not 1"},
      {"{\"ukeire\": \"yes\"}", "must be true or false, not \"yes\""},
      {"{\"ukiere\": false}", "unknown field \"ukiere\" (known: ukeire)"},
      {"[]", "expected an object"},
      {"{", "params:"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tk_error_clear(&err);
    tk_agent_instance *x = D->create(bad[i].params, 7, &err);
    TK_EQ(x == NULL, 1, bad[i].params);
    if (x) D->destroy(x);
    else if (!strstr(err.msg, bad[i].msg))
      TK_FAILF("params %s: message \"%s\" lacks \"%s\"", bad[i].params, err.msg, bad[i].msg);
  }
}

/* ------------------------------------------------------------ riichi */

/* The dealer holds 123m 456m 789p 11z 468s: discarding 4s leaves the kanchan 68s (waits 7s),
 * discarding 8s leaves 46s (waits 5s); both are tenpai, so riichi is legal with either, and the
 * agent declares it at once. Indicator 9m: 4 unseen each, the lower kind 4s. Indicator 7s: 7s
 * has 3 unseen, so 8s. In riichi it then discards whatever it draws (2p: no win). */
static void riichi_at_tenpai(void) {
  const char *dealer = "123m456m789p468s1z";
  deal(dealer, N1, N2, N3, "1z", "9m");
  EXPECT(0, TK_RIICHI_RIICHI, "4s", "riichi, waits 7s (tie with 5s: the lower kind)");
  deal(dealer, N1, N2, N3, "1z7m7m7m2p", "7s");
  EXPECT(0, TK_RIICHI_RIICHI, "8s", "riichi on the wait with more unseen tiles (5s)");
  play_greedy(0);
  rt_pass(&T);
  TK_EQ(T.g.p[0].riichi, 2, "declared (double riichi)");
  TK_EQ(rt_count(&T, TK_RIICHI_EV_REACH_ACCEPTED), 1, "and accepted");
  rt_tsumogiri(&T, 3);
  TK_EQ(T.g.turn == 0 && T.g.drawn == rt_tile("2p"), 1, "the dealer drew 2p");
  tk_riichi_action a = ask(0);
  TK_EQ(a.type == TK_RIICHI_DISCARD && a.tsumogiri && a.tile == rt_tile("2p"), 1, "tsumogiri in riichi");
}

/* ------------------------------------------------------------ wins */

/* Tsumo on the first draw (ittsu, waits 1p 4p, draws 4p): riichi and discards are also legal,
 * the agent wins. Seat 1 (shanpon 5z / 3p) may ron the dealer's 5z (haku) or pon it (a
 * yakuhai pon the agent would otherwise make): it rons. */
static void wins_when_it_can(void) {
  deal("123456789m11p23p", N1, N2, N3, "4p", "9m");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RIICHI, NULL), 1, "riichi also legal");
  EXPECT(0, TK_RIICHI_TSUMO, NULL, "tsumo");
  play_greedy(0);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(e && e->actor == 0, 1, "the dealer won");

  deal("5z19m19p19s123467z", "234m567p888s33p55z", N2, "369m147p258s1234z", "5m", "9m");
  DO(0, TK_RIICHI_DISCARD, "5z");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_PON, "5z") && rt_can(&T, 1, TK_RIICHI_RON, "5z"), 1, "ron and pon legal");
  EXPECT(1, TK_RIICHI_RON, NULL, "ron before the pon");
}

/* ------------------------------------------------------------ calls */

/* The dealer discards, one per turn, E, S, W, N, P and 5m from its hand (the others discard
 * what they draw). East is the round wind: seat 3 (North) pons it. South is seat 1's own wind:
 * pon. West is seat 2's own wind: pon. North is neither seat 1's wind nor the round's: pass.
 * P (haku) is a dragon: seat 2 pons. 5m is not yakuhai: seat 1 passes both the pon and the
 * chi 345m. (Each answer is asked, then every seat passes, so the dealer keeps discarding.) */
static void pons_yakuhai_only(void) {
  deal("5m189p1289s12345z", "3455m246p37s2244z", "1267m357p46s3355z", "789m2369p568s116z", NULL, "9m");
  static const struct {
    const char *tile;
    int seat, type;
    const char *why;
  } c[] = {
      {"1z", 3, TK_RIICHI_PON, "E: the round wind"},
      {"2z", 1, TK_RIICHI_PON, "S: seat 1's wind"},
      {"3z", 2, TK_RIICHI_PON, "W: seat 2's wind"},
      {"4z", 1, TK_RIICHI_PASS, "N: not yakuhai for seat 1"},
      {"5z", 2, TK_RIICHI_PON, "P: a dragon"},
      {"5m", 1, TK_RIICHI_PASS, "5m: no pon, no chi"},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    TK_EQ(T.g.turn == 0 && T.g.phase == TK_RIICHI_PHASE_SELF, 1, "the dealer to discard");
    DO(0, TK_RIICHI_DISCARD, c[i].tile);
    TK_EQ(rt_can(&T, c[i].seat, TK_RIICHI_PON, c[i].tile), 1, c[i].why);
    if (c[i].type == TK_RIICHI_PASS && !strcmp(c[i].tile, "5m"))
      TK_EQ(rt_can(&T, c[i].seat, TK_RIICHI_CHI, "5m"), 1, "chi legal too");
    EXPECT(c[i].seat, c[i].type, c[i].type == TK_RIICHI_PON ? c[i].tile : NULL, c[i].why);
    rt_pass(&T);
    rt_tsumogiri(&T, 3);
  }
  TK_EQ(T.failures, 0, "invariants");
}

int main(void) {
  D = taikai_agent_entry_riichi_greedy();
  tk_error err;
  tk_error_clear(&err);
  I = D->create("{}", 7, &err);
  if (!I) return 1;
  CU_TestInfo tests[] = {
      {"discards: minimum shanten, most unseen effective tiles, lowest kind", efficiency},
      {"{\"ukeire\": false}: the lowest minimum-shanten kind; bad params", without_ukeire},
      {"riichi as soon as tenpai; tsumogiri in riichi", riichi_at_tenpai},
      {"wins whenever it can, a ron before a pon", wins_when_it_can},
      {"pons yakuhai only; no chi", pons_yakuhai_only},
      CU_TEST_INFO_NULL,
  };
  int rc = tk_unit_run("riichi_greedy", tests);
  D->end_game(I, NULL);
  D->destroy(I);
  return rc;
}
