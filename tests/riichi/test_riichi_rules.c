/* tests/riichi/test_riichi_rules.c — scenario tests of the riichi engine's hand rules, each a
 * short scripted wall with the expected events and points: calls and their priorities (an
 * open kan over a chi), kuikae, kans and kan dora timing, rinshan, chankan (and thirteen orphans
 * on a closed kan), riichi conditions, a ron on the riichi tile, double riichi, ippatsu, furiten
 * (discard, temporary, riichi), double ron (also with the dealer) and triple ron, pao
 * (daisangen, daisuushii), haitei, houtei, tenhou. Seat 0 deals unless a test says otherwise; compact tile
 * notation, 0m/0p/0s = red fives, 1z..7z = E S W N P F C. */
#include <stdio.h>
#include <string.h>

#include "rt.h"
#include "unit.h"

static rt T;

#define DO(seat, type, tile)                                                                  \
  do {                                                                                        \
    int rc_ = rt_do(&T, (seat), (type), (tile), NULL, NULL);                                  \
    if (rc_) TK_FAILF("line %d: seat %d action %d %s: %s", __LINE__, (seat), (type),          \
                      (tile) ? (const char *)(tile) : "-", T.last_err);                       \
  } while (0)
#define DO2(seat, type, tile, c0, c1)                                                         \
  do {                                                                                        \
    int rc_ = rt_do(&T, (seat), (type), (tile), (c0), (c1));                                  \
    if (rc_) TK_FAILF("line %d: seat %d call %d: %s", __LINE__, (seat), (type), T.last_err);  \
  } while (0)

static uint8_t W[TK_RIICHI_TILES];

static void wall(int dealer, const char *h0, const char *h1, const char *h2, const char *h3,
                 const char *live, const char *rinshan, const char *dora, const char *ura) {
  const char *h[4] = {h0, h1, h2, h3};
  if (rt_wall(W, dealer, h, live, rinshan, dora, ura)) TK_FAILF("bad scripted wall");
}

static int has_yaku(const tk_riichi_event *e, int yaku) {
  for (int i = 0; e && i < e->score.nyaku; i++)
    if (e->score.yaku[i] == yaku) return 1;
  return 0;
}

/* ------------------------------------------------------------ calls */

/* Seat 0 discards 4m: seat 1 may chi (three shapes), seat 2 pon, seat 3 ron (23m, pinfu
 * tanyao). Dora indicator 9p. */
static void calls_wall(const char *live) {
  wall(0, "14m19p19s1234567z", "234567m123p99s11z", "44m789m456p456s77z", "23m456678p45666s",
       live, NULL, "9p", NULL);
}

static void chi_and_kuikae(void) {
  calls_wall("8s8s8s7s8s7s7s1m");
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "4m");
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_REACT, "reaction phase");
  tk_riichi_legal l;
  tk_riichi_legal_of(&T.g, 1, &l);
  int chis = 0;
  for (int i = 0; i < l.n; i++) chis += l.a[i].type == TK_RIICHI_CHI;
  TK_EQ(chis, 3, "chi shapes 23m, 35m, 56m");
  TK_EQ(rt_can(&T, 2, TK_RIICHI_PON, "4m"), 1, "seat 2 may pon");
  TK_EQ(rt_can(&T, 3, TK_RIICHI_RON, "4m"), 1, "seat 3 may ron");
  DO2(1, TK_RIICHI_CHI, "4m", "5m", "6m");
  DO(2, TK_RIICHI_PASS, NULL);
  DO(3, TK_RIICHI_PASS, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_CHI, 0);
  TK_EQ(e != NULL, 1, "chi event");
  if (!e) return;
  TK_EQ(e->actor, 1, "chi actor");
  TK_EQ(e->target, 0, "chi target");
  TK_EQ(e->consumed[0], rt_tile("5m"), "consumed 5m");
  TK_EQ(e->consumed[1], rt_tile("6m"), "consumed 6m");
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_SELF, "seat 1 to discard");
  TK_EQ(T.g.turn, 1, "seat 1 to discard");
  TK_EQ(T.g.p[0].river[0].flags & TK_RIICHI_CALLED, TK_RIICHI_CALLED, "called flag in the river");
  /* kuikae: neither the called 4m nor its suji 7m; the rest may go */
  TK_EQ(rt_can(&T, 1, TK_RIICHI_DISCARD, "4m"), 0, "no 4m (the called tile)");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_DISCARD, "7m"), 0, "no 7m (suji of the chi)");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_DISCARD, "2m"), 1, "2m may go");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_DISCARD, "1z"), 1, "E may go");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_TSUMO, NULL) + rt_can(&T, 1, TK_RIICHI_ANKAN, NULL), 0,
        "no win or kan after a call");
  TK_EQ(rt_do(&T, 1, TK_RIICHI_DISCARD, "7m", NULL, NULL), TK_EILLEGAL, "7m refused");
  DO(1, TK_RIICHI_DISCARD, "2m");
  rt_pass(&T);
  TK_EQ(T.g.turn, 2, "seat 2 draws next");
  TK_EQ(T.g.no_calls, 0, "the first go-around is interrupted");
  TK_EQ(T.failures, 0, "invariants");
}

static void pon_beats_chi(void) {
  calls_wall("8s8s8s7s8s7s7s1m");
  rt_start(&T, NULL, W);
  DO(0, TK_RIICHI_DISCARD, "4m");
  DO2(1, TK_RIICHI_CHI, "4m", "2m", "3m");
  DO2(2, TK_RIICHI_PON, "4m", "4m", "4m");
  DO(3, TK_RIICHI_PASS, NULL);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_CHI), 0, "no chi");
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_PON, 0);
  TK_EQ(e && e->actor == 2 && e->target == 0, 1, "seat 2 pons from seat 0");
  TK_EQ(T.g.turn, 2, "seat 2 discards");
  TK_EQ(T.g.p[1].hand[1] + T.g.p[1].hand[2], 2, "seat 1 keeps 2m 3m");
  DO(2, TK_RIICHI_DISCARD, "7m");
  rt_pass(&T);
  TK_EQ(T.g.turn, 3, "then seat 3 draws: seat 1 was skipped");
}

static void ron_beats_calls(void) {
  calls_wall("8s8s8s7s8s7s7s1m");
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "4m");
  DO2(1, TK_RIICHI_CHI, "4m", "5m", "6m");
  DO2(2, TK_RIICHI_PON, "4m", "4m", "4m");
  DO(3, TK_RIICHI_RON, "4m");
  TK_EQ(rt_count(&T, TK_RIICHI_EV_CHI) + rt_count(&T, TK_RIICHI_EV_PON), 0, "no call");
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(e && e->actor == 3 && e->target == 0, 1, "seat 3 rons seat 0");
  TK_EQ(has_yaku(e, TK_YAKU_PINFU) && has_yaku(e, TK_YAKU_TANYAO), 1, "pinfu tanyao");
  DELTAS(-2000, 0, 0, 2000, e); /* 2 han 30 fu, non-dealer ron */
  TK_EQ(T.g.round, 1, "East 2 next");
  TK_EQ(T.g.honba, 0, "honba reset");
  TK_EQ(T.failures, 0, "invariants");
}

/* Seat 1 pons P and F; the third call that would leave only forbidden tiles is refused. */
static void kuikae_refuses_a_call(void) {
  wall(0, "499m123p12388s56z", "4456777m19s5566z", "123m567p22p77z123z", "456m456p456s2344z",
       "9p9p9p9p8p8p8p", NULL, "9s", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "5z");
  DO2(1, TK_RIICHI_PON, "5z", "5z", "5z");
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "1s");
  rt_pass(&T);
  rt_tsumogiri(&T, 2); /* seats 2, 3 */
  TK_EQ(T.g.turn, 0, "seat 0 drew");
  DO(0, TK_RIICHI_DISCARD, "6z");
  DO2(1, TK_RIICHI_PON, "6z", "6z", "6z");
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "9s");
  rt_pass(&T);
  rt_tsumogiri(&T, 2); /* seats 2, 3 */
  TK_EQ(T.g.turn, 0, "seat 0 to move");
  DO(0, TK_RIICHI_DISCARD, "4m");
  /* seat 1 holds 44m 56m 777m: chi 56m would leave only 4m and 7m, both forbidden */
  TK_EQ(rt_can(&T, 1, TK_RIICHI_CHI, NULL), 0, "chi refused by kuikae");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_PON, "4m"), 1, "pon still possible");
  rt_pass(&T);
  TK_EQ(T.failures, 0, "invariants");
}

static void red_five_choices(void) {
  /* seat 1 holds 5m 5m 0m: pon 5m with (5m,5m) or (5m,0m); seat 1 chis 4m with 0m or 5m */
  wall(0, "45m19p19s1234567z", "055m67m123p999s12z", "123m789m123s678s7z", "456p456p456s2344z",
       "9p9p", NULL, "1p", NULL);
  rt_start(&T, NULL, W);
  DO(0, TK_RIICHI_DISCARD, "5m");
  tk_riichi_legal l;
  tk_riichi_legal_of(&T.g, 1, &l);
  int pons = 0, red_pon = 0, chis = 0, red_chi = 0;
  for (int i = 0; i < l.n; i++) {
    if (l.a[i].type == TK_RIICHI_PON) pons++, red_pon += tk_tile_is_red(l.a[i].consumed[1]);
    if (l.a[i].type == TK_RIICHI_CHI) chis++, red_chi += tk_tile_is_red(l.a[i].consumed[0]);
  }
  TK_EQ(pons, 2, "two pons: 55m and 50m");
  TK_EQ(red_pon, 1, "one of them with the red five");
  TK_EQ(chis, 1, "one chi shape: 67m");
  TK_EQ(red_chi, 0, "no red five in it");
  DO2(1, TK_RIICHI_PON, "5m", "5m", "0m");
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_PON, 0);
  TK_EQ(e && tk_tile_is_red(e->consumed[1]), 1, "red five consumed");
  TK_EQ(T.g.p[1].red & 1, 0, "the red five left the hand");
  TK_EQ(T.g.p[1].melds[0].tiles[0], rt_tile("0m"), "meld holds 0m");
  char buf[512] = "";
  if (e) tk_riichi_event_json(e, NULL, buf, sizeof buf);
  TK_EQ(strstr(buf, "\"consumed\":[\"5m\",\"5mr\"]") != NULL, 1, buf);
}

/* ------------------------------------------------------------ kans */

static void open_kan_rinshan_and_dora_timing(void) {
  /* seat 1: 222p + 345m 678m 345s 9s: after the open kan, tanki 9s; the rinshan tile is 9s.
   * The open kan's indicator (1p: dora 2p, four of them) turns only at the next discard, so
   * the rinshan win does not count it: rinshan, 1 han 40 fu = 400/700. */
  wall(0, "19m29p19s1234567z", "222p345m678m345s9s", "147m147p147s1234z", "369m369p258s5567z",
       "8p", "9s", "1z1p", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "2p");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_MINKAN, "2p"), 1, "open kan offered");
  DO(1, TK_RIICHI_MINKAN, NULL);
  rt_pass(&T);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_DAIMINKAN), 1, "daiminkan event");
  const tk_riichi_event *ts = rt_find(&T, TK_RIICHI_EV_TSUMO, 0);
  TK_EQ(ts && ts->actor == 1 && ts->tile == rt_tile("9s"), 1, "rinshan draw of wall[122]");
  TK_EQ(T.g.ndora, 1, "open kan: indicator not yet turned");
  TK_EQ(T.g.pending_dora, 1, "one pending indicator");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_TSUMO, NULL), 1, "rinshan win offered");
  DO(1, TK_RIICHI_TSUMO, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_RINSHAN), 1, "rinshan kaihou");
  TK_EQ(has_yaku(e, TK_YAKU_DORA), 0, "the kan dora was not turned");
  TK_EQ(e ? e->score.han : 0, 1, "1 han");
  TK_EQ(e ? e->score.fu : 0, 40, "40 fu");
  DELTAS(-700, 1500, -400, -400, e);
  TK_EQ(T.failures, 0, "invariants");
}

static void open_kan_dora_turns_at_discard(void) {
  wall(0, "19m29p19s1234567z", "222p345m678m345s9s", "147m147p147s1234z", "369m369p258s5567z",
       "8p", "7z", "1z1p", NULL);
  rt_start(&T, NULL, W);
  DO(0, TK_RIICHI_DISCARD, "2p");
  DO(1, TK_RIICHI_MINKAN, NULL);
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, NULL);
  /* the order is daiminkan, tsumo, dahai, dora */
  int n = T.nev;
  TK_EQ(T.ev[n - 1].type == TK_RIICHI_EV_DORA || T.ev[n - 2].type == TK_RIICHI_EV_DORA, 1, "dora follows the discard");
  const tk_riichi_event *d = rt_find(&T, TK_RIICHI_EV_DORA, 0), *dh = rt_find(&T, TK_RIICHI_EV_DAHAI, 0);
  TK_EQ(d && dh && d > dh, 1, "dora after dahai");
  TK_EQ(d ? d->tile : 0, rt_tile("1p"), "the second indicator, wall[127]");
  TK_EQ(T.g.ndora, 2, "two indicators");
}

/* Seat 1 calls an open kan of seat 0's 2p, draws its replacement tile (5m) and, before
 * discarding, makes a closed kan of 1m. The open kan's indicator (1p), still pending, turns at
 * the second kan, after that kan's own line, then the closed kan's (3p), then the next
 * replacement draw (6m): daiminkan, tsumo, ankan, dora 1p, dora 3p, tsumo. No dora line stands
 * between a draw and the decision that follows it (the log reader takes each seat's decision
 * from the line after its draw). */
static void open_kan_then_closed_kan_dora_order(void) {
  wall(0, "29m29p19s1234567z", "1111m222p345s789s", "36m47p26s1234567z", "48m368p8s1234567z",
       "8p", "5m6m", "1z1p3p", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "2p");
  DO(1, TK_RIICHI_MINKAN, NULL);
  rt_pass(&T);
  TK_EQ(T.g.pending_dora, 1, "the open kan's indicator is pending");
  int first = T.nev;
  TK_EQ(rt_can(&T, 1, TK_RIICHI_ANKAN, "1m"), 1, "closed kan of 1m offered after the rinshan draw");
  DO(1, TK_RIICHI_ANKAN, "1m");
  rt_pass(&T);
  static const int order[] = {TK_RIICHI_EV_ANKAN, TK_RIICHI_EV_DORA, TK_RIICHI_EV_DORA,
                              TK_RIICHI_EV_TSUMO};
  TK_EQ(T.nev - first, 4, "four events for the closed kan");
  for (int i = 0; i < 4 && first + i < T.nev; i++)
    TK_EQ(T.ev[first + i].type, order[i], "ankan, dora, dora, tsumo");
  TK_EQ(first + 1 < T.nev ? T.ev[first + 1].tile : 0, rt_tile("1p"), "the open kan's indicator first");
  TK_EQ(first + 2 < T.nev ? T.ev[first + 2].tile : 0, rt_tile("3p"), "then the closed kan's");
  TK_EQ(first + 3 < T.nev ? T.ev[first + 3].tile : 0, rt_tile("6m"), "second replacement tile");
  TK_EQ(T.g.ndora, 3, "three indicators");
  TK_EQ(T.g.pending_dora, 0, "none pending");
  int before = rt_count(&T, TK_RIICHI_EV_DORA);
  DO(1, TK_RIICHI_DISCARD, NULL);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_DORA), before, "no indicator at the discard");
  TK_EQ(T.failures, 0, "invariants");
}

/* An added kan after an open kan: seat 1 pons seat 0's 1m, later calls an open kan of its 2p,
 * draws the fourth 1m as the replacement tile and adds it to the pon. The pending indicator
 * (1p) turns after the kakan line; the added kan's own (3p) waits for the discard. */
static void open_kan_then_added_kan_dora_order(void) {
  wall(0, "19m29p19s1234567z", "11m222p345s789s44s", "36m47p26s1234567z", "48m368p8s1234567z",
       "8p8m8p9m", "1m6m", "1z1p3p", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "1m");
  DO2(1, TK_RIICHI_PON, "1m", "1m", "1m");
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "4s");
  rt_pass(&T);
  rt_tsumogiri(&T, 2); /* seats 2, 3 */
  DO(0, TK_RIICHI_DISCARD, "2p");
  DO(1, TK_RIICHI_MINKAN, NULL);
  rt_pass(&T);
  TK_EQ(T.g.pending_dora, 1, "the open kan's indicator is pending");
  int first = T.nev;
  TK_EQ(rt_can(&T, 1, TK_RIICHI_KAKAN, "1m"), 1, "added kan of 1m offered");
  DO(1, TK_RIICHI_KAKAN, "1m");
  rt_pass(&T);
  static const int order[] = {TK_RIICHI_EV_KAKAN, TK_RIICHI_EV_DORA, TK_RIICHI_EV_TSUMO};
  TK_EQ(T.nev - first, 3, "three events for the added kan");
  for (int i = 0; i < 3 && first + i < T.nev; i++)
    TK_EQ(T.ev[first + i].type, order[i], "kakan, dora, tsumo");
  TK_EQ(first + 1 < T.nev ? T.ev[first + 1].tile : 0, rt_tile("1p"), "the open kan's indicator");
  TK_EQ(T.g.ndora, 2, "two indicators");
  TK_EQ(T.g.pending_dora, 1, "the added kan's own is pending");
  DO(1, TK_RIICHI_DISCARD, NULL);
  const tk_riichi_event *d = rt_find(&T, TK_RIICHI_EV_DORA, 0), *dh = rt_find(&T, TK_RIICHI_EV_DAHAI, 0);
  TK_EQ(d && dh && d > dh && d->tile == rt_tile("3p"), 1, "the added kan's indicator after the discard");
  TK_EQ(T.failures, 0, "invariants");
}

/* Seat 0 discards 2p: seat 1 may chi it (13p), seat 2 holds 222p and calls an open kan. The
 * kan wins over the chi whatever the order of the answers; seat 2 draws the replacement tile
 * wall[122] (9s) and wins on it: rinshan, 1 han 40 fu (open kan of simples 8, tanki 2, tsumo 2)
 * = 400/700, the kan's indicator not yet turned. */
static void open_kan_beats_chi(void) {
  wall(0, "19m29p19s1234567z", "13p147m258s34567z", "222p345m678m345s9s", "369m369p258s5567z",
       "8p", "9s", "1z", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "2p");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_CHI, "2p"), 1, "seat 1 may chi");
  TK_EQ(rt_can(&T, 2, TK_RIICHI_MINKAN, "2p"), 1, "seat 2 may call an open kan");
  DO2(1, TK_RIICHI_CHI, "2p", "1p", "3p"); /* the chi answers first */
  DO(2, TK_RIICHI_MINKAN, NULL);
  rt_pass(&T);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_CHI), 0, "no chi");
  const tk_riichi_event *k = rt_find(&T, TK_RIICHI_EV_DAIMINKAN, 0);
  TK_EQ(k && k->actor == 2 && k->target == 0 && k->tile == rt_tile("2p"), 1, "seat 2 kans seat 0's 2p");
  TK_EQ(T.ev[T.nev - 1].type, TK_RIICHI_EV_TSUMO, "the replacement draw follows the kan");
  TK_EQ(T.ev[T.nev - 2].type, TK_RIICHI_EV_DAIMINKAN, "right after it");
  const tk_riichi_event *ts = rt_find(&T, TK_RIICHI_EV_TSUMO, 0);
  TK_EQ(ts && ts->actor == 2 && ts->tile == rt_tile("9s"), 1, "rinshan draw of wall[122] by seat 2");
  TK_EQ(T.g.turn, 2, "seat 2 to move");
  TK_EQ(T.g.rinshan, 1, "on a replacement tile");
  TK_EQ(T.g.p[1].hand[9] + T.g.p[1].hand[11], 2, "seat 1 keeps 1p 3p");
  TK_EQ(T.g.p[1].nmelds, 0, "seat 1 has no meld");
  TK_EQ(T.g.p[2].melds[0].type, TK_CALL_MINKAN, "seat 2's open kan");
  TK_EQ(tk_riichi_tiles_left(&T.g), 70 - 1 - 1, "the dealer's draw and the kan's tile");
  DO(2, TK_RIICHI_TSUMO, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_RINSHAN), 1, "rinshan kaihou");
  TK_EQ(e ? e->score.han * 100 + e->score.fu : 0, 140, "1 han 40 fu");
  DELTAS(-700, -400, 1500, -400, e);
  SCORES(&T, 24300, 24600, 26500, 24600);
  TK_EQ(T.g.round == 1 && T.g.honba == 0, 1, "East 2, no honba");
  TK_EQ(T.failures, 0, "invariants");
}

static void closed_kan_dora_at_once(void) {
  /* dealer: 123456789m 1p 777z + 7z: closed kan of C; its indicator (F: dora C) turns at once and
   * counts for the rinshan win on 1p: rinshan, tsumo, ittsu 2, chun, dora 4 = 9 han, baiman. */
  wall(0, "123456789m1p777z", "147m147p147s1234z", "258m258p258s1234z", "369m369p369s1234z",
       "7z", "1p", "1z6z", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  TK_EQ(rt_can(&T, 0, TK_RIICHI_ANKAN, "7z"), 1, "closed kan offered");
  DO(0, TK_RIICHI_ANKAN, "7z");
  rt_pass(&T);
  int n = T.nev;
  TK_EQ(T.ev[n - 3].type, TK_RIICHI_EV_ANKAN, "ankan");
  TK_EQ(T.ev[n - 2].type, TK_RIICHI_EV_DORA, "then dora at once");
  TK_EQ(T.ev[n - 1].type, TK_RIICHI_EV_TSUMO, "then the rinshan draw");
  TK_EQ(T.g.ndora, 2, "two indicators");
  DO(0, TK_RIICHI_TSUMO, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_TENHOU), 0, "no tenhou on a replacement tile");
  TK_EQ(e ? e->score.han : 0, 9, "9 han with the kan dora");
  DELTAS(24000, -8000, -8000, -8000, e);
  TK_EQ(T.failures, 0, "invariants");
}

/* Seat 1 pons 2p from seat 0, discards N; later draws the fourth 2p and adds it. Seat 2 waits on
 * 2p (13p, no yaku): chankan is its only yaku. */
static void kakan_wall(void) {
  wall(0, "19m29p19s1234567z", "22p345m678m345s9s4z", "13p456m789m456s77s", "147m369p258s1234z",
       "8s9p8s8s2p", "6s", "5z", NULL);
}

static void kakan_and_chankan(void) {
  kakan_wall();
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "2p");
  TK_EQ(rt_can(&T, 2, TK_RIICHI_RON, NULL), 0, "no yaku: seat 2 cannot ron 2p");
  DO2(1, TK_RIICHI_PON, "2p", "2p", "2p");
  rt_pass(&T);
  TK_EQ(T.g.p[2].furiten & TK_RIICHI_FURITEN_TEMP, TK_RIICHI_FURITEN_TEMP, "passed a wait: temporary furiten");
  DO(1, TK_RIICHI_DISCARD, "4z");
  rt_pass(&T);
  rt_tsumogiri(&T, 3); /* seats 2 (clears its furiten), 3, 0 */
  TK_EQ(T.g.p[2].furiten, 0, "furiten cleared by its own discard");
  TK_EQ(T.g.turn, 1, "seat 1 drew");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_KAKAN, "2p"), 1, "added kan offered");
  DO(1, TK_RIICHI_KAKAN, "2p");
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_REACT, "chankan chance");
  TK_EQ(rt_can(&T, 2, TK_RIICHI_RON, "2p"), 1, "chankan offered");
  TK_EQ(rt_can(&T, 2, TK_RIICHI_PON, NULL), 0, "only ron on an added kan");
  DO(2, TK_RIICHI_RON, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(e && e->actor == 2 && e->target == 1, 1, "seat 2 robs seat 1's kan");
  TK_EQ(has_yaku(e, TK_YAKU_CHANKAN), 1, "chankan");
  DELTAS(0, -1300, 1300, 0, e); /* 1 han 40 fu */
  TK_EQ(T.g.stats[1].deal_ins, 1, "the kan's owner dealt in");
  TK_EQ(rt_count(&T, TK_RIICHI_EV_DORA), 0, "the robbed kan never turned its indicator");
  TK_EQ(T.failures, 0, "invariants");
}

static void kakan_passed(void) {
  kakan_wall();
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "2p");
  DO2(1, TK_RIICHI_PON, "2p", "2p", "2p");
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "4z");
  rt_pass(&T);
  rt_tsumogiri(&T, 3);
  DO(1, TK_RIICHI_KAKAN, "2p");
  DO(2, TK_RIICHI_PASS, NULL);
  TK_EQ(T.g.p[2].furiten & TK_RIICHI_FURITEN_TEMP, TK_RIICHI_FURITEN_TEMP, "passing chankan is furiten");
  const tk_riichi_event *ts = rt_find(&T, TK_RIICHI_EV_TSUMO, 0);
  TK_EQ(ts && ts->actor == 1 && ts->tile == rt_tile("6s"), 1, "rinshan draw");
  TK_EQ(T.g.p[1].melds[0].type, TK_CALL_KAKAN, "the pon became a kan");
  TK_EQ(T.g.ndora, 1, "added kan: indicator waits for the discard");
  DO(1, TK_RIICHI_DISCARD, NULL);
  TK_EQ(T.g.ndora, 2, "turned at the discard");
  const tk_riichi_event *k = rt_find(&T, TK_RIICHI_EV_KAKAN, 0);
  char buf[512] = "";
  if (k) tk_riichi_event_json(k, NULL, buf, sizeof buf);
  TK_EQ(!strcmp(buf, "{\"type\":\"kakan\",\"actor\":1,\"pai\":\"2p\",\"consumed\":[\"2p\",\"2p\",\"2p\"]}"), 1, buf);
  TK_EQ(T.failures, 0, "invariants");
}

static void kokushi_robs_closed_kan(void) {
  /* dealer holds EEE, draws the fourth; seat 1 waits on E with thirteen orphans */
  wall(0, "111z258m258p258s2z", "119m19p19s234567z", "34567m34567p345s", "34567m34567p667s",
       "1z", NULL, "3s", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_ANKAN, "1z");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_RON, "1z"), 1, "kokushi may rob a closed kan");
  DO(1, TK_RIICHI_RON, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_KOKUSHI), 1, "kokushi");
  DELTAS(-32000, 32000, 0, 0, e);
  TK_EQ(T.failures, 0, "invariants");
}

static void four_kans_one_player_continues(void) {
  wall(0, "1111222233334m", "147p258p369p1234z", "147s258s369s1234z", "556677889m1234z",
       "4m", "4m4m5z6z", "7z7z7z7z5z", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_ANKAN, "1m");
  rt_pass(&T);
  DO(0, TK_RIICHI_ANKAN, "2m");
  rt_pass(&T);
  DO(0, TK_RIICHI_ANKAN, "3m");
  rt_pass(&T);
  DO(0, TK_RIICHI_ANKAN, "4m");
  rt_pass(&T);
  TK_EQ(T.g.nkans, 4, "four kans");
  TK_EQ(T.g.ndora, 5, "five indicators");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_ANKAN, NULL), 0, "no fifth kan");
  DO(0, TK_RIICHI_DISCARD, "6z");
  rt_pass(&T);
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_SELF, "one player's four kans do not abort");
  TK_EQ(T.g.turn, 1, "seat 1 draws");
  TK_EQ(tk_riichi_tiles_left(&T.g), 70 - 4 - 2, "each kan shortened the live wall");
  TK_EQ(T.failures, 0, "invariants");
}

/* ------------------------------------------------------------ riichi */

static const char *T0 = "123456789m11p23p"; /* ittsu; waits 1p 4p */

static void riichi_conditions(void) {
  wall(0, T0, "147m258p369s1234z", "258m369p147s5677z", "369m147p258s5567z", "7z", NULL, "9s", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RIICHI, "7z"), 1, "tenpai keeping discard: riichi");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RIICHI, "1m"), 0, "a discard breaking tenpai: no riichi");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RIICHI, "2p"), 0, "2p breaks tenpai");
  DO(0, TK_RIICHI_RIICHI, NULL);
  TK_EQ(T.g.sticks, 0, "the stick waits for the discard to pass (seat 2 may pon 7z)");
  rt_pass(&T);
  int n = T.nev;
  TK_EQ(T.ev[n - 4].type, TK_RIICHI_EV_REACH, "reach");
  TK_EQ(T.ev[n - 3].type, TK_RIICHI_EV_DAHAI, "dahai");
  TK_EQ(T.ev[n - 2].type, TK_RIICHI_EV_REACH_ACCEPTED, "reach_accepted once passed");
  TK_EQ(T.ev[n - 1].type, TK_RIICHI_EV_TSUMO, "then the next draw");
  TK_EQ(T.g.sticks, 1, "one stick");
  TK_EQ(T.g.scores[0], 24000, "1000 paid");
  TK_EQ(T.g.p[0].riichi, 2, "double riichi (first uninterrupted discard)");
  TK_EQ(T.g.p[0].river[0].flags, TK_RIICHI_DECLARED | TK_RIICHI_TSUMOGIRI, "river flags");
  rt_tsumogiri(&T, 3);
  /* in riichi: only the drawn tile may go */
  tk_riichi_legal l;
  tk_riichi_legal_of(&T.g, 0, &l);
  TK_EQ(l.n, 1, "only tsumogiri");
  TK_EQ(l.a[0].tsumogiri, 1, "the drawn tile");
  TK_EQ(T.failures, 0, "invariants");

  /* below 1000 points: no riichi */
  rt_init(&T, NULL);
  T.g.scores[0] = 900;
  T.g.scores[1] = 49100;
  rt_deal(&T, W);
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RIICHI, NULL), 0, "900 points: no riichi");
  /* exactly 1000: allowed */
  rt_init(&T, NULL);
  T.g.scores[0] = 1000;
  T.g.scores[1] = 49000;
  rt_deal(&T, W);
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RIICHI, NULL), 1, "1000 points: riichi");
}

static void riichi_needs_four_tiles(void) {
  /* one seat (tenpai 123456789s 11m 23m, tanki-free) keeps drawing junk; riichi is offered while
   * at least 4 live tiles remain after its draw. A seat draws every fourth tile, so each seat
   * holding the hand draws at another count modulo 4: over the four, the hand is drawn to with
   * exactly 4 and with exactly 3 left, the two sides of the limit. */
  static const char *const junk[3] = {"147m258p369s1234z", "258m369p147s5677z",
                                      "369m147p258s5567z"};
  int seen[8] = {0};
  for (int ts = 0; ts < 4; ts++) {
    const char *h[4];
    for (int s = 0, j = 0; s < 4; s++) h[s] = s == ts ? "123456789s11m23m" : junk[j++];
    wall(0, h[0], h[1], h[2], h[3], NULL, NULL, "9m", NULL);
    rt_start(&T, NULL, W);
    while (T.g.phase == TK_RIICHI_PHASE_SELF || T.g.phase == TK_RIICHI_PHASE_REACT) {
      rt_pass(&T);
      if (T.g.phase != TK_RIICHI_PHASE_SELF) break;
      if (T.g.turn == ts && T.g.p[ts].shanten == 0) {
        int left = tk_riichi_tiles_left(&T.g);
        int can = rt_can(&T, ts, TK_RIICHI_RIICHI, NULL);
        if (left >= 4 && !can) TK_FAILF("seat %d: riichi refused with %d tiles left", ts, left);
        if (left < 4 && can) TK_FAILF("seat %d: riichi offered with %d tiles left", ts, left);
        if (left < 8) seen[left] = 1;
      }
      rt_tsumogiri(&T, 1);
    }
  }
  TK_EQ(seen[4] && seen[3], 1, "draws with exactly 4 and exactly 3 live tiles left seen");
}

static void riichi_closed_only(void) {
  /* seat 1 pons P, is then tenpai with an open hand: no riichi */
  wall(0, "499m123p12388s56z", "23m456p678s55z99s4z", "123m567p22p77z123z", "147m258p369s1234z",
       "9p9p", NULL, "1s", NULL);
  rt_start(&T, NULL, W);
  DO(0, TK_RIICHI_DISCARD, "5z");
  DO2(1, TK_RIICHI_PON, "5z", "5z", "5z");
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "4z");
  rt_pass(&T);
  rt_tsumogiri(&T, 3);
  TK_EQ(T.g.turn, 1, "seat 1 drew");
  TK_EQ(T.g.p[1].shanten <= 0, 1, "tenpai");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_RIICHI, NULL), 0, "open hand: no riichi");
}

/* The dealer declares riichi on 7z and seat 1 rons it (shanpon 7z/9p: chun, 1 han 40 fu =
 * 1300). The riichi never stands: no reach_accepted, no stick paid; the ron pays its plain
 * value plus the honba (300) and the one stick already on the table (1000). */
static void ron_on_the_riichi_tile(void) {
  wall(0, T0, "234s567s678s99p77z", "147m258p369s1234z", "258m147p258s3456z", "7z", NULL, "9s", NULL);
  rt_init(&T, NULL);
  T.g.honba = 1;
  T.g.sticks = 1;
  T.g.scores[3] -= 1000;
  rt_deal(&T, W);
  T.check = 1;
  DO(0, TK_RIICHI_RIICHI, "7z");
  TK_EQ(rt_count(&T, TK_RIICHI_EV_REACH), 1, "reach declared");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_RON, "7z"), 1, "the declaration tile may be ronned");
  DO(1, TK_RIICHI_RON, NULL);
  rt_pass(&T);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_REACH_ACCEPTED), 0, "the riichi is not accepted");
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(e && e->actor == 1 && e->target == 0, 1, "seat 1 rons the dealer");
  TK_EQ(has_yaku(e, TK_YAKU_CHUN), 1, "chun");
  TK_EQ(e ? e->score.han * 100 + e->score.fu : 0, 140, "1 han 40 fu");
  TK_EQ(e ? e->ctx.sticks : -1, 1, "one stick for the winner: the one on the table");
  DELTAS(-1600, 2600, 0, 0, e); /* 1300 + 300 honba from the dealer, + 1000 stick */
  TK_EQ(T.g.scores[0], 23400, "the dealer paid 1600 and no stick");
  TK_EQ(T.g.scores[1], 27600, "seat 1");
  TK_EQ(T.g.scores[2] == 25000 && T.g.scores[3] == 24000, 1, "the others unchanged");
  TK_EQ(T.g.sticks, 0, "no stick left on the table");
  TK_EQ(T.g.round == 1 && T.g.honba == 0, 1, "East 2, honba reset");
  TK_EQ(T.failures, 0, "invariants");
}

static void riichi_kan_rules(void) {
  /* seat 0 riichi on 111m 234p 567p 888s 9s (tanki 9s): drawing 1m, the kan keeps the wait */
  wall(0, "111m234p567p888s9s", "247m258p369s1234z", "258m369p147s5677z", "369m147p258s5567z",
       "7z2z3z4z1m", "5z", "1z", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_RIICHI, NULL);
  rt_pass(&T);
  rt_tsumogiri(&T, 3);
  TK_EQ(rt_can(&T, 0, TK_RIICHI_ANKAN, "1m"), 1, "kan keeping the waits is allowed");
  DO(0, TK_RIICHI_ANKAN, "1m");
  rt_pass(&T);
  TK_EQ(T.g.p[0].waits, 1ULL << 24 | 1ULL << 26, "still waiting on 7s 9s");
  TK_EQ(T.g.p[0].ippatsu, 0, "a kan ends ippatsu");

  /* 1112m: waits 2m 3m; drawing 1m, a kan would leave 2m only: refused */
  wall(0, "1112m456p789p345s", "247m258p369s1234z", "258m369p147s5677z", "369m147p258s5567z",
       "7z2z3z4z1m", "5z", "1z", NULL);
  rt_start(&T, NULL, W);
  DO(0, TK_RIICHI_RIICHI, NULL);
  rt_pass(&T);
  rt_tsumogiri(&T, 3);
  TK_EQ(T.g.drawn, rt_tile("1m"), "drew the fourth 1m");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_ANKAN, NULL), 0, "kan changing the waits is refused");
}

static void ippatsu_and_ura(void) {
  /* dealer double riichi; seat 1 discards 4p at once: ron with ippatsu, ura from wall[131] */
  wall(0, T0, "4p47m258p369s1234z", "258m369p147s5677z", "369m147p258s5567z",
       "7z1s", NULL, "9s", "3p");
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_RIICHI, NULL);
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "4p");
  DO(0, TK_RIICHI_RON, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_DOUBLE_RIICHI) && has_yaku(e, TK_YAKU_IPPATSU), 1, "double riichi, ippatsu");
  TK_EQ(has_yaku(e, TK_YAKU_URA_DORA), 1, "ura dora (3p: 4p)");
  TK_EQ(e ? e->nura : 0, 1, "one ura indicator shown");
  /* double riichi 2 + ippatsu 1 + ittsu 2 + ura 1 = 6 han: dealer haneman 18000 + the stick */
  DELTAS(19000, -18000, 0, 0, e);
  char buf[2048] = "";
  if (e) tk_riichi_event_json(e, NULL, buf, sizeof buf);
  TK_EQ(strstr(buf, "\"uradora_markers\":[\"3p\"]") != NULL, 1, buf);
  TK_EQ(strstr(buf, "\"deltas\":[19000,-18000,0,0]") != NULL, 1, buf);
}

static void ippatsu_broken_by_a_call(void) {
  /* dealer riichi; seat 2 pons seat 1's discard; the dealer's ron on seat 3's 4p has no ippatsu */
  wall(0, T0, "147m258p369s2345z", "55z258m369p147s67z", "4p369m147p258s567z",
       "7z1s6s6s", NULL, "9s", "9s");
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_RIICHI, NULL);
  rt_pass(&T);
  TK_EQ(T.g.p[0].ippatsu, 1, "ippatsu chance open");
  DO(1, TK_RIICHI_DISCARD, "5z");
  DO2(2, TK_RIICHI_PON, "5z", "5z", "5z");
  rt_pass(&T);
  TK_EQ(T.g.p[0].ippatsu, 0, "the call ended it");
  DO(2, TK_RIICHI_DISCARD, "6z");
  rt_pass(&T);
  DO(3, TK_RIICHI_DISCARD, "4p");
  DO(0, TK_RIICHI_RON, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_IPPATSU), 0, "no ippatsu");
  TK_EQ(has_yaku(e, TK_YAKU_DOUBLE_RIICHI), 1, "still double riichi");
}

/* ------------------------------------------------------------ furiten */

static void temporary_furiten(void) {
  /* seat 3 (23m pinfu) passes a ron on 4m; cannot ron seat 1's 4m in the same go-around; after
   * its own discard it can ron 1m again */
  calls_wall("8s8s8s7s8s7s7s1m");
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "4m");
  rt_pass(&T); /* seat 3 passes its ron */
  TK_EQ(T.g.p[3].furiten, TK_RIICHI_FURITEN_TEMP, "temporary furiten");
  tk_riichi_view v;
  DO(1, TK_RIICHI_DISCARD, "4m");
  TK_EQ(rt_can(&T, 3, TK_RIICHI_RON, NULL), 0, "no ron until its own discard");
  rt_pass(&T);
  rt_tsumogiri(&T, 1); /* seat 2 */
  tk_riichi_view_of(&T.g, 3, &v);
  TK_EQ(v.furiten, TK_RIICHI_FURITEN_TEMP, "view shows it");
  rt_tsumogiri(&T, 1); /* seat 3 discards 8s */
  TK_EQ(T.g.p[3].furiten, 0, "cleared by its own discard");
  DO(0, TK_RIICHI_DISCARD, "1m");
  TK_EQ(rt_can(&T, 3, TK_RIICHI_RON, "1m"), 1, "ron again");
  DO(3, TK_RIICHI_RON, NULL);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_HORA), 0, "seat 1 (chi) has not answered yet");
  rt_pass(&T);
  DELTAS(-1000, 0, 0, 1000, rt_find(&T, TK_RIICHI_EV_HORA, 0)); /* pinfu 30 fu */
}

static void discard_furiten(void) {
  /* seat 3 draws 1m (a win it declines) and discards it: furiten on 1m 4m; it cannot ron 4m
   * but may still win by tsumo (1m again: pinfu tsumo 20 fu 2 han = 400/700) */
  calls_wall("8s8s8s1m8s7s7s1m");
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "9p");
  rt_pass(&T);
  rt_tsumogiri(&T, 2);
  TK_EQ(rt_can(&T, 3, TK_RIICHI_TSUMO, NULL), 1, "tsumo offered");
  DO(3, TK_RIICHI_DISCARD, NULL); /* declines */
  rt_pass(&T);
  tk_riichi_view v;
  tk_riichi_view_of(&T.g, 3, &v);
  TK_EQ(v.furiten & TK_RIICHI_FURITEN_DISCARD, TK_RIICHI_FURITEN_DISCARD, "discard furiten");
  DO(0, TK_RIICHI_DISCARD, "4m");
  TK_EQ(rt_can(&T, 3, TK_RIICHI_RON, NULL), 0, "no ron in furiten");
  rt_pass(&T);
  rt_tsumogiri(&T, 2);
  TK_EQ(rt_can(&T, 3, TK_RIICHI_TSUMO, "1m"), 1, "tsumo allowed in furiten");
  DO(3, TK_RIICHI_TSUMO, NULL);
  DELTAS(-700, -400, -400, 1500, rt_find(&T, TK_RIICHI_EV_HORA, 0));
}

static void riichi_furiten(void) {
  /* dealer double riichi (waits 1p 4p) passes seat 1's 1p: no ron for the rest of the hand */
  wall(0, T0, "14p47m258p369s234z", "258m369p147s5677z", "369m147p258s5567z",
       "7z1s6s6s2m2m", NULL, "9s", NULL);
  rt_start(&T, NULL, W);
  T.check = 1;
  DO(0, TK_RIICHI_RIICHI, NULL);
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "1p");
  DO(0, TK_RIICHI_PASS, NULL);
  rt_pass(&T);
  TK_EQ(T.g.p[0].furiten & TK_RIICHI_FURITEN_RIICHI, TK_RIICHI_FURITEN_RIICHI, "riichi furiten");
  rt_tsumogiri(&T, 3); /* seats 2, 3, then the dealer's own discard */
  TK_EQ(T.g.p[0].furiten & TK_RIICHI_FURITEN_RIICHI, TK_RIICHI_FURITEN_RIICHI, "still after its discard");
  DO(1, TK_RIICHI_DISCARD, "4p");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RON, NULL), 0, "no ron");
}

/* ------------------------------------------------------------ several winners */

static const char *DR0 = "4p19m19p1s1234567z", *DR1 = "23p234m567m678s55s",
                  *DR2 = "56p345m678m234s88s", *DR3 = "35666p22234777s";

static void double_ron(void) {
  wall(0, DR0, DR1, DR2, DR3, "9s", NULL, "1z", NULL);
  rt_init(&T, NULL);
  T.g.honba = 2;
  T.g.sticks = 1;
  T.g.scores[3] -= 1000;
  rt_deal(&T, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "4p");
  DO(1, TK_RIICHI_RON, NULL);
  DO(2, TK_RIICHI_RON, NULL);
  DO(3, TK_RIICHI_PASS, NULL);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_HORA), 2, "two wins");
  /* the nearest winner (seat 1) takes the honba (600) and the stick (1000) */
  DELTAS(-2600, 3600, 0, 0, rt_find(&T, TK_RIICHI_EV_HORA, 1));
  DELTAS(-2000, 0, 2000, 0, rt_find(&T, TK_RIICHI_EV_HORA, 0));
  TK_EQ(T.g.scores[0], 25000 - 4600, "dealer paid both");
  TK_EQ(T.g.sticks, 0, "stick collected");
  TK_EQ(T.g.round, 1, "dealer did not win: East 2");
  TK_EQ(T.g.honba, 0, "honba reset");
  TK_EQ(T.failures, 0, "invariants");
}

/* Seat 1 discards 4p; seat 2 (pinfu tanyao, 2000) and the dealer (pinfu tanyao, 2900) ron it.
 * Seat 2 is the first winner in turn order after the discarder, so it takes the honba (2 x
 * 300) and the stick; the dealer is paid its plain value, repeats, and the honba grows. */
static void double_ron_with_the_dealer(void) {
  wall(0, "23p234m567m678s55s", DR0, DR2, "258m369p147s5677z", "9s9s", NULL, "1z", NULL);
  rt_init(&T, NULL);
  T.g.honba = 2;
  T.g.sticks = 1;
  T.g.scores[3] -= 1000;
  rt_deal(&T, W);
  T.check = 1;
  rt_tsumogiri(&T, 1); /* the dealer discards 9s */
  TK_EQ(T.g.turn, 1, "seat 1 drew");
  DO(1, TK_RIICHI_DISCARD, "4p");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_RON, "4p") && rt_can(&T, 2, TK_RIICHI_RON, "4p"), 1, "two rons offered");
  DO(0, TK_RIICHI_RON, NULL); /* the dealer answers first: the order of answers does not matter */
  DO(2, TK_RIICHI_RON, NULL);
  rt_pass(&T);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_HORA), 2, "two wins");
  const tk_riichi_event *first = rt_find(&T, TK_RIICHI_EV_HORA, 1), *second = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(first && first->actor == 2 && first->target == 1, 1, "seat 2 is scored first");
  TK_EQ(second && second->actor == 0 && second->target == 1, 1, "then the dealer");
  TK_EQ(first ? first->ctx.honba * 10 + first->ctx.sticks : -1, 21, "seat 2 gets 2 honba and 1 stick");
  TK_EQ(second ? second->ctx.honba * 10 + second->ctx.sticks : -1, 0, "the dealer gets neither");
  DELTAS(0, -2600, 3600, 0, first);   /* 2000 + 600 + 1000 */
  DELTAS(2900, -2900, 0, 0, second);  /* dealer 2 han 30 fu */
  TK_EQ(T.g.scores[0], 27900, "dealer");
  TK_EQ(T.g.scores[1], 19500, "the discarder paid 5500");
  TK_EQ(T.g.scores[2], 28600, "seat 2");
  TK_EQ(T.g.scores[3], 24000, "seat 3 unchanged");
  TK_EQ(T.g.sticks, 0, "stick collected");
  TK_EQ(T.g.round, 0, "the dealer won: East 1 again");
  TK_EQ(T.g.honba, 3, "honba + 1");
  TK_EQ(T.failures, 0, "invariants");
}

static void triple_ron_aborts(void) {
  wall(0, DR0, DR1, DR2, DR3, "9s", NULL, "1z", NULL);
  rt_start(&T, NULL, W);
  DO(0, TK_RIICHI_DISCARD, "4p");
  DO(1, TK_RIICHI_RON, NULL);
  DO(2, TK_RIICHI_RON, NULL);
  DO(3, TK_RIICHI_RON, NULL);
  TK_EQ(rt_count(&T, TK_RIICHI_EV_HORA), 0, "no win");
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_RYUKYOKU, 0);
  TK_EQ(e ? e->reason : -1, TK_RIICHI_DRAW_TRIPLE_RON, "sanchahou");
  DELTAS(0, 0, 0, 0, e);
  TK_EQ(T.g.round, 0, "dealer keeps the seat");
  TK_EQ(T.g.honba, 1, "honba + 1");
}

/* ------------------------------------------------------------ pao */

static const char *P0 = "258m258p111258s5z", *P1 = "234m19p9s4556677z", *P2 = "369m369p369s2367z",
                  *P3 = "147m147p147s1234z";

static void pao_setup(const char *live, int honba) {
  wall(0, P0, P1, P2, P3, live, NULL, "1m", NULL);
  rt_init(&T, NULL);
  T.g.honba = (uint8_t)honba;
  rt_deal(&T, W);
  T.check = 1;
  DO(0, TK_RIICHI_DISCARD, "5z");
  DO2(1, TK_RIICHI_PON, "5z", "5z", "5z");
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "4z");
  rt_pass(&T);
  DO(2, TK_RIICHI_DISCARD, "6z");
  DO2(1, TK_RIICHI_PON, "6z", "6z", "6z");
  rt_pass(&T);
  DO(1, TK_RIICHI_DISCARD, "1p");
  rt_pass(&T);
  TK_EQ(T.g.p[1].pao, TK_RIICHI_NOBODY, "two dragon sets: no liability yet");
  DO(2, TK_RIICHI_DISCARD, "7z");
  DO2(1, TK_RIICHI_PON, "7z", "7z", "7z");
  rt_pass(&T);
  TK_EQ(T.g.p[1].pao, 2, "seat 2 fed the third dragon set");
  DO(1, TK_RIICHI_DISCARD, "9p");
  rt_pass(&T);
}

static void pao_tsumo(void) {
  pao_setup("2p2p2p3p3p3p9s", 0);
  rt_tsumogiri(&T, 3); /* seats 2, 3, 0 */
  DO(1, TK_RIICHI_TSUMO, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_DAISANGEN), 1, "daisangen");
  TK_EQ(e ? e->pao : -1, 2, "liability applied");
  DELTAS(0, 32000, -32000, 0, e);
  TK_EQ(T.failures, 0, "invariants");
}

static void pao_ron(void) {
  pao_setup("2p2p2p3p9s3p3p", 1);
  rt_tsumogiri(&T, 1); /* seat 2 */
  DO(3, TK_RIICHI_DISCARD, NULL); /* 9s */
  DO(1, TK_RIICHI_RON, NULL);
  /* half each; the liable seat also pays the honba */
  DELTAS(0, 32300, -16300, -16000, rt_find(&T, TK_RIICHI_EV_HORA, 0));
  TK_EQ(T.failures, 0, "invariants");
}

/* Daisuushii: seat 1 holds pairs of the four winds and pons E from the dealer, then S, W and
 * N from seat 2; the fourth wind set makes seat 2 liable. Seat 1 then waits on 9s (tanki).
 * Daisuushii counts as one yakuman (32000 for a non-dealer); honba 1. Live wall: the dealer's
 * draw, seat 2's three draws, then `rest`. */
static void pao4_setup(const char *rest) {
  char live[64];
  snprintf(live, sizeof live, "4m4m4m6m%s", rest);
  wall(0, "258m258p258s1567z", "19m19p9s11223344z", "369m369p369s234z", "147m147p147s5677z",
       live, NULL, "1s", NULL);
  rt_init(&T, NULL);
  T.g.honba = 1;
  rt_deal(&T, W);
  T.check = 1;
  static const char *const wind[4] = {"1z", "2z", "3z", "4z"}, *const junk[4] = {"1m", "9m", "1p", "9p"};
  for (int i = 0; i < 4; i++) {
    int from = i == 0 ? 0 : 2;
    DO(from, TK_RIICHI_DISCARD, wind[i]);
    DO2(1, TK_RIICHI_PON, wind[i], wind[i], wind[i]);
    rt_pass(&T);
    TK_EQ(T.g.p[1].pao, i < 3 ? TK_RIICHI_NOBODY : 2, i < 3 ? "no liability yet" : "seat 2 fed the fourth wind set");
    DO(1, TK_RIICHI_DISCARD, junk[i]);
    rt_pass(&T);
  }
  TK_EQ(T.g.p[1].waits, 1ULL << 26, "seat 1 waits on 9s");
}

static void pao_daisuushii(void) {
  /* tsumo: the liable seat pays the whole hand and the honba */
  pao4_setup("6p6p7p9s");
  rt_tsumogiri(&T, 3); /* seats 2, 3, 0 */
  DO(1, TK_RIICHI_TSUMO, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_DAISUUSHII), 1, "daisuushii");
  TK_EQ(e ? e->score.yakuman : 0, 1, "one yakuman");
  TK_EQ(e ? e->pao : -1, 2, "liability applied");
  DELTAS(0, 32300, -32300, 0, e);
  TK_EQ(T.g.scores[2], -7300, "seat 2 below zero");
  TK_EQ(T.g.phase, TK_RIICHI_PHASE_OVER, "so the game is over");
  TK_EQ(T.failures, 0, "invariants");

  /* ron from seat 3: seat 3 and the liable seat 2 pay 16000 each, seat 2 also the honba */
  pao4_setup("6p9s");
  rt_tsumogiri(&T, 1); /* seat 2 */
  DO(3, TK_RIICHI_DISCARD, NULL); /* 9s */
  DO(1, TK_RIICHI_RON, NULL);
  rt_pass(&T);
  e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(e && e->actor == 1 && e->target == 3, 1, "seat 1 rons seat 3");
  TK_EQ(e ? e->pao : -1, 2, "liability applied");
  DELTAS(0, 32300, -16300, -16000, e);
  TK_EQ(T.failures, 0, "invariants");

  /* ron from the liable seat itself: it pays the whole hand and the honba, as any discarder */
  pao4_setup("9s");
  DO(2, TK_RIICHI_DISCARD, NULL); /* 9s */
  DO(1, TK_RIICHI_RON, NULL);
  rt_pass(&T);
  e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(e && e->actor == 1 && e->target == 2, 1, "seat 1 rons seat 2");
  TK_EQ(e ? e->pao : -1, TK_RIICHI_NOBODY, "no liability: the event names nobody");
  DELTAS(0, 32300, -32300, 0, e);
  TK_EQ(T.failures, 0, "invariants");
}

/* ------------------------------------------------------------ last tile, first draw */

/* Makes wall[121], the last live tile, a copy of `t` taken from the live wall (the dead wall,
 * e.g. a dora indicator, is left alone). */
static void put_last(const char *tile) {
  uint8_t t = rt_tile(tile);
  for (int i = TK_RIICHI_RINSHAN_POS - 1; i >= TK_RIICHI_FIRST_DRAW; i--)
    if (W[i] == t) {
      W[i] = W[121];
      W[121] = t;
      return;
    }
  TK_FAILF("no spare %s", tile);
}

static void play_to_last_draw(void) {
  while (T.g.phase == TK_RIICHI_PHASE_SELF && tk_riichi_tiles_left(&T.g) > 0) rt_tsumogiri(&T, 1);
}

static void haitei(void) {
  /* seat 1 (tanki 9s) draws the 70th live tile, the last 9s */
  wall(0, "147m258p368s1234z", "123m456p789s9s111z", "258m369p147s5677z", "369m147p258s5567z",
       NULL, NULL, "9s", NULL);
  put_last("9s");
  rt_start(&T, NULL, W);
  T.check = 1;
  play_to_last_draw();
  TK_EQ(T.g.turn, 1, "seat 1 drew the last tile");
  TK_EQ(tk_riichi_tiles_left(&T.g), 0, "no live tile left");
  TK_EQ(rt_can(&T, 1, TK_RIICHI_TSUMO, NULL), 1, "haitei win");
  DO(1, TK_RIICHI_TSUMO, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_HAITEI), 1, "haitei");
  /* haitei, menzen tsumo, East (round wind) = 3 han; 20 + concealed honor triplet 8 + tanki 2 +
   * tsumo 2 = 40 fu: 1300 / 2600 (dora 1s: none) */
  TK_EQ(e ? e->score.han * 100 + e->score.fu : 0, 340, "3 han 40 fu");
  DELTAS(-2600, 5200, -1300, -1300, e);
  SCORES(&T, 22400, 30200, 23700, 23700);
  TK_EQ(T.g.round == 1 && T.g.honba == 0 && T.g.sticks == 0, 1, "East 2, no honba, no stick");
  TK_EQ(T.failures, 0, "invariants");
}

static void houtei(void) {
  /* seat 2 waits on 2p (13p, no yaku) and seat 0 holds 222p: the last discard is 2p; ron by
   * houtei, its only yaku (with a dora: 2 han 40 fu); no pon on the last discard */
  wall(0, "147m222p369s1234z", "258m369p147s5677z", "13p456m789m456s77s", "369m147p258s5567z",
       NULL, NULL, "9p", NULL);
  put_last("2p");
  rt_start(&T, NULL, W);
  T.check = 1;
  play_to_last_draw();
  TK_EQ(T.g.turn, 1, "seat 1 drew the last tile");
  DO(1, TK_RIICHI_DISCARD, NULL);
  TK_EQ(rt_can(&T, 2, TK_RIICHI_RON, "2p"), 1, "houtei ron");
  TK_EQ(rt_can(&T, 0, TK_RIICHI_PON, NULL) + rt_can(&T, 0, TK_RIICHI_MINKAN, NULL), 0,
        "no call on the last discard");
  DO(2, TK_RIICHI_RON, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_HOUTEI), 1, "houtei");
  DELTAS(0, -2600, 2600, 0, e); /* houtei + dora (9p: 1p), 40 fu */
  TK_EQ(T.failures, 0, "invariants");
}

static void tenhou(void) {
  wall(0, T0, "147m258p369s1234z", "258m369p147s5677z", "369m147p258s5567z", "4p", NULL, "9s", NULL);
  rt_start(&T, NULL, W);
  DO(0, TK_RIICHI_TSUMO, NULL);
  const tk_riichi_event *e = rt_find(&T, TK_RIICHI_EV_HORA, 0);
  TK_EQ(has_yaku(e, TK_YAKU_TENHOU), 1, "tenhou");
  DELTAS(48000, -16000, -16000, -16000, e);
  TK_EQ(T.g.round, 0, "dealer repeats");
  TK_EQ(T.g.honba, 1, "honba + 1");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"chi, its shapes, and kuikae after it", chi_and_kuikae},
      {"pon beats chi", pon_beats_chi},
      {"ron beats pon and chi", ron_beats_calls},
      {"a call leaving only forbidden discards is refused", kuikae_refuses_a_call},
      {"pon and chi choices with a red five", red_five_choices},
      {"open kan: rinshan draw, rinshan win without the new dora", open_kan_rinshan_and_dora_timing},
      {"open kan: its indicator turns after the discard", open_kan_dora_turns_at_discard},
      {"open kan beats chi; the replacement draw follows", open_kan_beats_chi},
      {"closed kan: its indicator turns at once", closed_kan_dora_at_once},
      {"open kan, then a closed kan: ankan, dora, dora, tsumo", open_kan_then_closed_kan_dora_order},
      {"open kan, then an added kan: kakan, dora, tsumo; its own after the discard",
       open_kan_then_added_kan_dora_order},
      {"added kan robbed (chankan)", kakan_and_chankan},
      {"added kan passed: rinshan, dora at the discard", kakan_passed},
      {"thirteen orphans robs a closed kan", kokushi_robs_closed_kan},
      {"four kans by one player do not abort", four_kans_one_player_continues},
      {"riichi: tenpai discards, sticks, double riichi, 1000 points", riichi_conditions},
      {"riichi: at least four live tiles", riichi_needs_four_tiles},
      {"riichi: closed hands only", riichi_closed_only},
      {"riichi: closed kan only when the waits stay", riichi_kan_rules},
      {"ron on the riichi declaration tile: no stick, plain value", ron_on_the_riichi_tile},
      {"ippatsu and ura-dora", ippatsu_and_ura},
      {"ippatsu broken by a call", ippatsu_broken_by_a_call},
      {"temporary furiten", temporary_furiten},
      {"discard furiten: no ron, tsumo allowed", discard_furiten},
      {"riichi furiten is permanent", riichi_furiten},
      {"double ron: honba and sticks to the nearest", double_ron},
      {"double ron with the dealer: the nearest takes the sticks, the dealer repeats", double_ron_with_the_dealer},
      {"triple ron is an abortive draw", triple_ron_aborts},
      {"pao on tsumo: the liable seat pays all", pao_tsumo},
      {"pao on ron: half each", pao_ron},
      {"pao for daisuushii: tsumo, ron by another, ron from the liable seat", pao_daisuushii},
      {"haitei: a win on the last live tile", haitei},
      {"houtei: a win on the last discard, no calls on it", houtei},
      {"tenhou", tenhou},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_rules", tests);
}
