/* tests/agents/test_solo_linear_features.c — solo_linear's features (plugins/solo_linear/
 * features.c) on hand-worked hands: each discard's active features listed by hand in the
 * comment above it, from the feature list at the top of features.c (shanten and unseen
 * effective tiles after the discard, the kind's class, drawn, copies held, neighbours at
 * distance 1 and 2, dora, turn third). Unseen counts are 4 - held - the dora indicator (no
 * discards yet), as the view defines them. */
#include <stdio.h>
#include <string.h>

#include "solo_linear/features.h"
#include "taikai/mahjong.h"
#include "unit.h"

/* A view of 14 tiles `tiles` (the drawn tile included) at `turn`, `drawn` and `indicator` given
 * as tiles ("9s", "4p"; indicator NULL: none). */
static tk_solo_view view(const char *tiles, const char *drawn, int turn, const char *indicator) {
  tk_solo_view v;
  memset(&v, 0, sizeof v);
  tk_tile t[14];
  tk_error err;
  tk_error_clear(&err);
  int n = tk_tiles_parse(tiles, t, 14, &err);
  if (n != 14 || tk_counts_add(v.hand, t, n, &err)) TK_FAILF("bad hand %s: %s", tiles, err.msg);
  v.drawn = (uint8_t)tk_tile_parse1(drawn, &err);
  v.dora_indicator = indicator ? (uint8_t)tk_tile_parse1(indicator, &err) : TK_TILE_NONE;
  for (int k = 0; k < TK_KINDS; k++)
    v.unseen[k] = (uint8_t)(4 - v.hand[k] - (k == v.dora_indicator));
  v.turn = (uint8_t)turn;
  v.ndiscards = (uint8_t)(turn - 1);
  v.draws = 18;
  return v;
}

static void expect(const tk_solo_view *v, const char *discard, const int *want, int nwant) {
  tk_error err;
  int k = tk_tile_parse1(discard, &err), f[SL_MAX_ACTIVE];
  int n = sl_features(v, k, f), ok = n == nwant;
  for (int i = 0; ok && i < n; i++) ok = f[i] == want[i];
  if (ok) {
    CU_PASS(discard);
    return;
  }
  char g[256] = "", w[256] = "";
  for (int i = 0; i < n; i++) snprintf(g + strlen(g), sizeof g - strlen(g), " %d", f[i]);
  for (int i = 0; i < nwant; i++) snprintf(w + strlen(w), sizeof w - strlen(w), " %d", want[i]);
  TK_FAILF("discard %s: features [%s ], expected [%s ]", discard, g, w);
}
#define EXPECT(v, d, ...)                                                                     \
  do {                                                                                        \
    const int want_[] = {__VA_ARGS__};                                                        \
    expect((v), (d), want_, (int)(sizeof want_ / sizeof *want_));                             \
  } while (0)

/* 123456789m 123p 5p 9s, drew 9s, indicator 4p (dora 5p).
 * - discard 9s at turn 1: 123m 456m 789m 123p + 5p waits on 5p alone (shanten 0), 3 unseen ->
 *   0*64+3 = 3; 448; a 9 is a terminal 456; drawn 459; one held 460; 8s and 7s not held: 464,
 *   467; not dora; one dora (5p) held after: 472; turn 1, third 0, shanten 0: 475.
 * - discard 5p at turn 1: waits on 9s alone, 3 unseen -> 3; 448; a 5 is 3..7: 458; not drawn;
 *   460; 4p, 6p not held (464), 3p held and 7p not (468); 5p is the dora: 470; no dora left:
 *   471; 475.
 * - discard 1m at turn 14: 23m 456m 789m 123p 5p 9s is 1-shanten (3 sets, a two-sided wait, no
 *   pair); 1m or 4m complete 23m, 7m regroups the manzu as 234m 567m 789m, 5p or 9s make the
 *   pair: 3 unseen each = 15 -> 64+15 = 79 (2m, 3m, 5m, 6m, 8m, 9m, the other pinzu and 7s-8s
 *   leave it 1-shanten); 449; terminal 456; not drawn;
 *   460; 2m held (465), 3m held (468); not dora; 5p held: 472; turn 14, third 2, shanten 1:
 *   475 + 14 + 1 = 490. */
static void plain_hand(void) {
  tk_solo_view v = view("123456789m1235p9s", "9s", 1, "4p");
  EXPECT(&v, "9s", 3, 448, 456, 459, 460, 464, 467, 472, 475);
  EXPECT(&v, "5p", 3, 448, 458, 460, 464, 468, 470, 471, 475);
  /* the turn thirds end at turns 6 and 12: 475 + 0 and 475 + 7 */
  v = view("123456789m1235p9s", "9s", 6, "4p");
  EXPECT(&v, "9s", 3, 448, 456, 459, 460, 464, 467, 472, 475);
  v = view("123456789m1235p9s", "9s", 12, "4p");
  EXPECT(&v, "9s", 3, 448, 456, 459, 460, 464, 467, 472, 482);
  v = view("123456789m1235p9s", "9s", 14, "4p");
  EXPECT(&v, "1m", 79, 449, 456, 460, 465, 468, 472, 490);
}

/* 1112345678999m + 1z (East), drew 1z, indicator 9m (dora 1m), turn 7 (third 1).
 * - discard 1z: the nine gates, waiting on 1m..9m: 1m 1 unseen (3 held), 2m..8m 3 each (21),
 *   9m 0 (3 held and the indicator) = 22; 448; honour 455; drawn 459; 460; no neighbour units
 *   for an honour; not dora; 1m (dora) held three times: 474; 475 + 7 + 0 = 482.
 * - discard 5m: 111m 234m 678m 999m + 1z waits on 1z alone (3 unseen) -> 3; 448; 458; not
 *   drawn; 460; 4m and 6m held (466), 3m and 7m held (469); not dora; 474; 482. */
static void nine_gates(void) {
  tk_solo_view v = view("1112345678999m1z", "1z", 7, "9m");
  EXPECT(&v, "1z", 22, 448, 455, 459, 460, 474, 482);
  EXPECT(&v, "5m", 3, 448, 458, 460, 466, 469, 474, 482);
}

/* The same 1112345678999m + 1z with indicator 2z (dora 3z, none held), turn 13 (third 2):
 * discard 9m (three held): 1112345678 99m + 1z is 1-shanten (1z alone cannot join a set, and
 * the 12 manzu cannot make four sets). Each draw that makes it tenpai: 1z (pair: 111 234 567 99
 * + 11z after throwing 8m), 9m (the nine gates again), 8m, 7m, 6m, 5m, 4m, 3m, 2m (each leaves
 * three sets, a pair and a wait or two pairs once 1z goes) and 1m (111 123 456 78 99): 3 unseen
 * each but 1m and 9m (three held: 1 each) = 3 + 1 + 7*3 + 1 = 26 -> 64 + 26 = 90; 449; 456;
 * not drawn; three held: 462; 8m held (465), 7m held (468); not dora; no dora held: 471;
 * 475 + 14 + 1 = 490. */
static void three_copies(void) {
  tk_solo_view v = view("1112345678999m1z", "1z", 13, "2z");
  EXPECT(&v, "9m", 90, 449, 456, 462, 465, 468, 471, 490);
}

int main(void) {
  tk_shanten_init();
  CU_TestInfo tests[] = {
      {"a plain hand: tenpai and 1-shanten discards, dora, neighbours, turn thirds", plain_hand},
      {"the nine gates: an honour discard, held dora", nine_gates},
      {"three copies held, 1-shanten with 26 tiles", three_copies},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("solo_linear features", tests);
}
