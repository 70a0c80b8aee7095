/* tests/riichi/test_riichi_features.c — the one-player policy's features (plugins/riichi_oneplayer/
 * features.c, paper 000 tables 2 and 3; readings in docs/riichi-oneplayer.md). Each row is checked
 * on hand-made hands whose component values are worked out by hand in the comment above the
 * check; the expected index is written as the row's mixed radix over those values (value, radix
 * pairs, most significant first), so the comment, the layout and the number can be read together.
 * Then properties over random hands and over the views of whole games: every index below the
 * dimension, each single-valued row exactly once, sorted distinct output, determinism; the
 * restricted shanten against the kernel's; the pattern ranks against an enumeration; the fast
 * extraction and restricted shanten against the reference (rof_reference_mode).
 *
 * Unless a test says otherwise the context is: seat East, round East, turn 5, riichi allowed,
 * no furiten, one dora indicator 7z (dora = haku), nothing visible but the indicator. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "riichi_oneplayer/features.h"
#include "rt.h"
#include "taikai/rng.h"
#include "unit.h"

static rof_hand H;
static rof_ctx X;
static rof_comp C;
static uint32_t F[ROF_MAX_ACTIVE];
static int NF;

static void ctx_default(void) {
  memset(&X, 0, sizeof X);
  X.turn = 5;
  X.riichi_ok = 1;
  X.ndora = 1;
  X.dora[0] = TK_CHUN;
  X.seen[TK_CHUN] = 1;
}

/* The hand `tiles` (compact notation, concealed) with melds "p2m" (pon), "c1m" (chi from 1m),
 * "k5z" (open kan), "a5z" (closed kan), given as further arguments ending with NULL. Computes
 * the features into F / NF and the components into C. */
static void hand(const char *tiles, ...) {
  memset(&H, 0, sizeof H);
  tk_tile t[14];
  tk_error err;
  tk_error_clear(&err);
  int n = tk_tiles_parse(tiles, t, 14, &err);
  if (n < 0) { TK_FAILF("bad tiles %s: %s", tiles, err.msg); return; }
  for (int i = 0; i < n; i++) {
    H.c[tk_tile_kind(t[i])]++;
    H.red = (uint8_t)(H.red + tk_tile_is_red(t[i]));
  }
  va_list ap;
  va_start(ap, tiles);
  const char *m;
  while ((m = va_arg(ap, const char *)) != NULL) {
    tk_tile k;
    if (tk_tiles_parse(m + 1, &k, 1, &err) != 1) { TK_FAILF("bad meld %s", m); break; }
    tk_call *c = &H.melds[H.nmelds++];
    c->type = m[0] == 'c' ? TK_CALL_CHI : m[0] == 'p' ? TK_CALL_PON : m[0] == 'k' ? TK_CALL_MINKAN
                                                                         : TK_CALL_ANKAN;
    c->kind = (uint8_t)tk_tile_kind(k);
    for (int j = 0; j < (c->type == TK_CALL_CHI ? 3 : 1); j++)
      X.seen[c->kind + j] = (uint8_t)(X.seen[c->kind + j] + (c->type == TK_CALL_CHI ? 1 :
                                                             c->type == TK_CALL_PON ? 3 : 4));
  }
  va_end(ap);
  tk_error_clear(&err);
  NF = rof_features(&H, &X, F, &C, &err);
  if (NF < 0) TK_FAILF("rof_features(%s): %s", tiles, err.msg);
}

/* Mixed radix over (value, radix) pairs, most significant first; -1 ends the list. */
static uint32_t mix(int v0, int r0, ...) {
  uint32_t acc = (uint32_t)v0;
  (void)r0;
  va_list ap;
  va_start(ap, r0);
  for (;;) {
    int v = va_arg(ap, int);
    if (v < 0) break;
    int r = va_arg(ap, int);
    if (v >= r) TK_FAILF("mix: value %d not below radix %d", v, r);
    acc = acc * (uint32_t)r + (uint32_t)v;
  }
  va_end(ap);
  return acc;
}

/* The active indices of `row`, minus its offset, into `out` (at most cap); returns how many. */
static int row_active(int row, uint32_t *out, int cap) {
  int n = 0;
  uint32_t off = rof_row_offset(row), dim = rof_row_dim(row);
  for (int i = 0; i < NF; i++)
    if (F[i] >= off && F[i] < off + dim && n < cap) out[n++] = F[i] - off;
  return n;
}

/* Asserts that single-valued `row` fires exactly once, at `want`. */
static void expect_row(int line, int row, uint32_t want) {
  uint32_t a[8];
  int n = row_active(row, a, 8);
  if (n != 1) TK_FAILF("line %d: row %s fires %d times", line, rof_row_name(row), n);
  else if (a[0] != want)
    TK_FAILF("line %d: row %s at %u, expected %u", line, rof_row_name(row), a[0], want);
  else CU_PASS("row");
}
#define ROW(row, want) expect_row(__LINE__, ROF_ROW_##row, (want))

/* Asserts that per-item `row` fires exactly at the `n` indices given (ascending). */
static void expect_items(int line, int row, int n, ...) {
  uint32_t a[64];
  int got = row_active(row, a, 64);
  va_list ap;
  va_start(ap, n);
  int ok = got == n;
  uint32_t want[64];
  for (int i = 0; i < n && i < 64; i++) want[i] = va_arg(ap, uint32_t);
  va_end(ap);
  for (int i = 0; ok && i < n; i++) ok = a[i] == want[i];
  if (!ok) {
    char buf[512];
    int p = 0;
    for (int i = 0; i < got && p < 480; i++) p += snprintf(buf + p, sizeof buf - (size_t)p, " %u", a[i]);
    TK_FAILF("line %d: row %s fires at [%s ] (%d), expected %d items", line, rof_row_name(row), buf,
             got, n);
  } else CU_PASS("items");
}
#define ITEMS(row, n, ...) expect_items(__LINE__, ROF_ROW_##row, (n), __VA_ARGS__)

/* ------------------------------------------------------------------ hand H1: perfect 1-shanten
 * 123556m 456p 3477s. Ryanmen-first decomposition: m 123 (meld) + 556 (ryanmen-pair composite:
 * beats 56+5 and 55+6 on composites); p 456; s 34 (ryanmen) + 77 (pair). So melds 2, ryanmen 1,
 * bad 0, pairs 1, rpair 1, bpair 0, no isolated tile. Shanten: 2 melds, partials 34s and 56m,
 * head 77s: 8 - 4 - 2 - 1 = 1; perfect 1-shanten (2 melds, a ryanmen, a pair, a ryanmen-pair).
 * Effective tiles: 4m (456m), 5m (555m), 7m (567m), 2s and 5s (34s), 7s (777s); 3s, 4s, 6m do
 * not help. Unseen copies: 4 + 2 + 4 + 4 + 4 + 2 = 20; per colour m 10, p 0, s 10, honors 0.
 * Chiitoitsu: two pairs, 10 kinds: 6 - 2 = 4. Kokushi: one yaochu kind (1m), no pair: 12. */
static void test_h1_shanten_rows(void) {
  ctx_default();
  hand("123556m456p3477s", NULL);
  TK_EQ(C.sh, 1, "H1 shanten");
  TK_EQ(C.melds, 2, "H1 melds");
  TK_EQ(C.ryanmen, 1, "H1 ryanmen");
  TK_EQ(C.rpair, 1, "H1 ryanmen-pair");
  TK_EQ(C.pairs, 1, "H1 pairs");
  TK_EQ(C.nisolated, 0, "H1 isolated");
  TK_EQ(C.perfect, 1, "H1 perfect");
  TK_EQ(C.ukeire, 20, "H1 ukeire");
  ROW(2_1n, 1);
  ROW(2_1c, 4);
  ROW(2_1k, 12);
  ROW(2_2, 0);
  ROW(2_3, mix(1, 15, 0, 5, -1));
  ROW(2_4, 0);                             /* not tenpai */
  ROW(2_5, mix(1, 15, 0, 5, 20, 21, -1));
  /* ryanmen + melds 3; blocks: 2 melds + ryanmen + pair + composite = 5 */
  ROW(2_15, mix(3, 7, 1, 15, -1));
  ROW(2_16, mix(5, 11, 1, 15, -1));
  ROW(2_17, mix(3, 7, 5, 11, 1, 15, -1));
}

/* H1 again, the decomposition rows: 2.22 (rm 3, bad 0, rpair 1, bpair 0, no isolated, no
 * concealed triplet, pairs 1, min(sh,3) 1, perfect 1, riichi 0, turn/3 = 1), 2.23 (the same
 * without perfect), 2.27 (no overlapping partials: 34s waits 2s5s, alone), 2.28 (good pairs: 77s
 * as the head keeps shanten 1; 55m as the head leaves 123m 456p 34s 6m 77s: partials 34s and 77s,
 * 8 - 4 - 2 - 1 = 1, kept too: 2), 2.29 (no yakuhai, melds 2, ryanmen 1, bad 0, good pairs 2,
 * calls 0, yaku status "none" (1): not tenpai, no yakuhai triplet), 2.31 (no triplet), 3.5 and 3.6
 * (no triplet, two pairs, none dead), 3.19 (1-shanten: 20 effective, perfect). */
static void test_h1_decomposition_rows(void) {
  ctx_default();
  hand("123556m456p3477s", NULL);
  TK_EQ(C.good_pairs, 2, "H1 good pairs");
  ROW(2_22, mix(3, 8, 0, 8, 1, 4, 0, 4, 0, 2, 0, 2, 1, 4, 1, 4, 1, 3, 0, 2, 1, 7, -1));
  ROW(2_23, mix(3, 8, 0, 8, 1, 4, 0, 4, 0, 2, 0, 2, 1, 4, 1, 4, 0, 2, 1, 7, -1));
  ROW(2_27, mix(3, 8, 0, 8, 0, 4, 0, 4, 1, 4, 1, 3, 0, 2, -1));
  ROW(2_28, mix(1, 5, 4, 8, 2, 8, 3, 8, 0, 2, 1, 3, -1));
  ROW(2_29, mix(1, 4, 0, 2, 0, 2, 2, 5, 1, 8, 0, 4, 2, 4, 0, 4, 1, 3, -1));
  ROW(2_31, mix(1, 5, 4, 8, 0, 5, 0, 5, 0, 2, 1, 3, -1));
  ROW(3_5, mix(0, 5, 2, 7, 0, 2, -1));
  ROW(3_6, mix(0, 5, 2, 7, 0, 2, -1));
  ROW(3_19, mix(20, 32, 0, 5, 1, 3, -1));
  ITEMS(2_26, 0, 0u); /* no isolated tile: neither 2.26 nor 2.30 fires */
  ITEMS(2_30, 0, 0u);
}

/* H1, row 3.20: per colour (m, p, s, honors) = (10, 0, 10, 0). Singles: 0, 10. Pairs, as the
 * sorted (lo, hi) ranked hi' = hi + 1: C(hi', 2) + lo, after 21: (0,0) -> 21, (0,10) -> 21 + 55
 * = 76, (10,10) -> 21 + 65 = 86. Triples (a <= b <= c) ranked C(c+2, 3) + C(b+1, 2) + a after
 * 252: (0,0,10) -> 252 + 220 = 472, (0,10,10) -> 252 + 220 + 55 = 527. Also rows 3.3 and 3.4:
 * the window 4p-5p is at mirror position 3 of n = 2 with pattern (1,1), rank 5 + 1 = 6, so
 * index (3 * 25 + 6) * 2 = 162; the window 3p-4p, pattern (0,1) rank 1 at position 2, gives
 * (2 * 25 + 1) * 2 = 102, and 6p-7p mirrors onto it. */
static void test_h1_colour_and_pattern_rows(void) {
  ctx_default();
  hand("123556m456p3477s", NULL);
  ITEMS(3_20, 7, 0u, 10u, 21u, 76u, 86u, 472u, 527u);
  uint32_t a[128];
  int n = row_active(ROF_ROW_3_3, a, 128), has162 = 0, has102 = 0;
  for (int i = 0; i < n; i++) {
    has162 |= a[i] == 162;
    has102 |= a[i] == 102;
  }
  TK_EQ(has162, 1, "3.3: window 45p");
  TK_EQ(has102, 1, "3.3: window 34p / 67p");
  /* 3.4: one per suit; the honors are not a suit; the m pattern capped at 2 is 111021000 */
  uint8_t m[9] = {1, 1, 1, 0, 2, 1, 0, 0, 0};
  n = row_active(ROF_ROW_3_4, a, 128);
  TK_EQ(n, 3, "3.4 fires once per suit");
  int hasm = 0;
  for (int i = 0; i < n; i++) hasm |= a[i] == rof_pattern_rank(m, 9, 2);
  TK_EQ(hasm, 1, "3.4: the m pattern");
}

/* ------------------------------------------------------------------ hand H2: tenpai, yaku
 * 234m 567p 33s 456s 78s (closed). Waits 3s (33+345+678), 6s (33+456+678), 9s (33+456+789).
 * Ron without riichi: 3s pinfu + tanyao = 2, 6s 2, 9s pinfu only = 1; tsumo adds menzen tsumo:
 * 3, 3, 2 (difference 1 each). Unseen copies: 3s 2, 6s 3, 9s 4. All waits have a yaku: status 0;
 * winning copies with a yaku 9, without 0. Riichi possible (closed, tenpai, allowed). */
static void test_h2_wait_rows(void) {
  ctx_default();
  hand("234m567p33456s78s", NULL);
  TK_EQ(C.sh, 0, "H2 tenpai");
  TK_EQ(C.nwaits, 3, "H2 waits");
  ROW(2_4, 1);
  ROW(2_12, 0);
  ROW(2_13, mix(0, 4, 0, 3, 5, 18, -1));
  ROW(2_14, mix(0, 4, 0, 5, 0, 2, 7, 8, -1)); /* min(9, 7) */
  ROW(3_18, mix(9, 10, 0, 6, 0, 5, 0, 2, -1));
  /* 3.16 (left, han, turn/3): 3s (2,2,1), 6s (3,2,1), 9s (4 -> 3,1,1), ascending */
  ITEMS(3_16, 3, mix(2, 4, 2, 9, 1, 7, -1), mix(3, 4, 1, 9, 1, 7, -1), mix(3, 4, 2, 9, 1, 7, -1));
  /* 3.17 (class, left, han, tsumo-ron, riichi, dora, suji, furiten): 3s (class 3/7 = 2, 2, 2,
   * 1, 1, 0, 0, 0), 6s (4/6 = 3, 3, 2, 1, 1, 0, 0, 0), 9s (1/9 = 0, 3, 1, 1, 1, 0, 0, 0) */
  ITEMS(3_17, 3, mix(0, 8, 3, 4, 1, 8, 1, 3, 1, 2, 0, 2, 0, 2, 0, 2, -1),
        mix(2, 8, 2, 4, 2, 8, 1, 3, 1, 2, 0, 2, 0, 2, 0, 2, -1),
        mix(3, 8, 3, 4, 2, 8, 1, 3, 1, 2, 0, 2, 0, 2, 0, 2, -1));
}

/* H2 with 6s in the own river (and so visible): furiten (6s is a wait); 3s and 9s become suji
 * waits of 6s; 6s has 2 copies left. Row 2.14: furiten 1. */
static void test_h2_furiten_suji(void) {
  ctx_default();
  X.river = 1ULL << (TK_1S + 5);
  X.seen[TK_1S + 5] = 1;
  hand("234m567p33456s78s", NULL);
  TK_EQ(C.furiten, 1, "H2 furiten");
  ROW(2_14, mix(0, 4, 0, 5, 1, 2, 7, 8, -1)); /* winning copies with yaku 2 + 2 + 4 = 8 -> 7 */
  ITEMS(3_17, 3, mix(0, 8, 3, 4, 1, 8, 1, 3, 1, 2, 0, 2, 1, 2, 1, 2, -1),
        mix(2, 8, 2, 4, 2, 8, 1, 3, 1, 2, 0, 2, 1, 2, 1, 2, -1),
        mix(3, 8, 2, 4, 2, 8, 1, 3, 1, 2, 0, 2, 0, 2, 1, 2, -1));
}

/* H2, the tanyao rows. Tanyao shanten 0 (3s or 6s completes an all-simples hand); tanyao tiles
 * 13; tanyao pairs 1 (33s). The decomposition takes melds first: s 345 + 678 + isolated 3s, so
 * melds 4, ryanmen 0, bad 0. Effective tiles (the waits) on 1/9/honors: 9s, 4 copies.
 * 3.7 (tsh 0, tsh-sh 0, tiles-9 = 4, calls 0, tanyao pairs 1); 3.8 (dora 0, tanyao dora 0, tsh 0,
 * 0, possible 1); 3.9 (tanyao ok, chanta ok (no meld), yaochu effective 4 -> 3, riichi 1, calls
 * 0); 2.25 (tsh 0, melds 4, rm 4, bad 0, tanyao dora 0, calls 0, turn/3 1, tsh = sh 1, yaochu
 * effective 4 -> 2, tanyao tiles - 11 = 2). */
static void test_h2_tanyao_rows(void) {
  ctx_default();
  hand("234m567p33456s78s", NULL);
  TK_EQ(C.sh_tanyao, 0, "H2 tanyao shanten");
  TK_EQ(C.melds, 4, "H2 melds");
  ROW(3_7, mix(0, 5, 0, 4, 4, 5, 0, 5, 1, 4, -1));
  ROW(3_8, mix(0, 4, 0, 4, 0, 5, 0, 4, 1, 2, -1));
  ROW(3_9, mix(1, 2, 1, 2, 3, 4, 1, 2, 0, 5, -1));
  ROW(2_25, mix(0, 5, 4, 5, 4, 8, 0, 4, 0, 5, 0, 5, 1, 6, 1, 2, 2, 3, 2, 3, -1));
}

/* ------------------------------------------------------------------ hand H3: open, partial yaku
 * pon 2m + 567p 33s 456s 78s. Waits as H2; kuitan on 3s and 6s (1 han each), nothing on 9s:
 * status "partial" (2); with-yaku copies 2 + 3 = 5, without 4. Row 2.6: pon of 2m = kind 1 *4
 * + 1 = 5. 3.6: triplets 1 (the pon), pairs 1 (33s), none dead. Riichi impossible (open). */
static void test_h3_open_rows(void) {
  ctx_default();
  hand("567p33456s78s", "p2m", NULL);
  ROW(2_2, 1);
  ROW(2_4, 0);
  ROW(2_12, 2);
  ITEMS(2_6, 1, 5u);
  ROW(3_18, mix(5, 10, 4, 6, 1, 5, 0, 2, -1));
  ROW(3_6, mix(1, 5, 1, 7, 0, 2, -1));
  /* pon 1m instead: tanyao impossible, no yaku on any wait (status 1), 3.7 at its last value */
  ctx_default();
  hand("567p33456s78s", "p1m", NULL);
  ROW(2_12, 1);
  ROW(3_7, 2000);
  ROW(3_8, mix(0, 4, 0, 4, 4, 5, 3, 4, 0, 2, -1)); /* tanyao shanten 14 clipped to 4, diff 3 */
  /* a chi makes toitoi impossible: 3.6 at its last value */
  ctx_default();
  hand("567p33456s78s", "c2m", NULL);
  ROW(3_6, 70);
  ITEMS(2_6, 1, mix(1, 34, 0, 4, -1));
}

/* ------------------------------------------------------------------ hand H4: yakuhai, dora
 * 123m 456p E 55z 666z 7z, seat and round East, dora indicator 9m (dora 1m). Yakuhai: hatsu
 * triplet (1), haku pair (1), isolated chun (bit 2) and East (seat/round wind, bit 3): mask 12.
 * Shanten: melds 123m 456p 666z, head 55z, nothing else: 8 - 6 - 1 = 1. Good pairs: haku as the
 * head keeps 1; hatsu as the head leaves 2 melds + the haku pair: 8 - 4 - 1 - 1 = 2: only 1.
 * Decomposition: melds 3, pairs 1 (haku), isolated E and chun; ryanmen 0. Chiitoitsu: pairs 55z
 * and 666z, 10 kinds: 4. */
static void test_h4_yakuhai_dora_rows(void) {
  ctx_default();
  X.dora[0] = TK_9M;
  X.seen[TK_CHUN] = 0;
  X.seen[TK_9M] = 1;
  hand("123m456p1556667z", NULL);
  TK_EQ(C.sh, 1, "H4 shanten");
  TK_EQ(C.good_pairs, 1, "H4 good pairs");
  ROW(2_7, 1);
  ROW(2_8, mix(1, 6, 1, 6, -1));
  ROW(2_9, mix(1, 2, 1, 6, 1, 6, 12, 16, 1, 5, 0, 5, -1));
  ROW(2_11, 1);
  /* 2.20, the one indicator: dora 1m (class 1/9 = 0), held 1, visible 0, turn/2 2, red 0 */
  ITEMS(2_20, 1, mix(0, 7, 1, 4, 0, 4, 2, 8, 0, 4, -1));
  ROW(3_14, mix(1, 4, 0, 4, 0, 4, 0, 4, -1));
  ROW(3_15, mix(2, 4, 3, 4, 1, 4, -1));
  /* 3.1 per honor held (visible, held, dora, most-suit count 3 - 6 -> 0, rm 3, turn 5, seat 0,
   * round 0, which): E (0,1,..,0), chun (0,1,..,4), haku (0,2,..,4), hatsu (0,3,..,4) */
  ITEMS(3_1, 4, mix(0, 5, 1, 5, 0, 2, 0, 8, 3, 8, 5, 8, 0, 4, 0, 3, 0, 5, -1),
        mix(0, 5, 1, 5, 0, 2, 0, 8, 3, 8, 5, 8, 0, 4, 0, 3, 4, 5, -1),
        mix(0, 5, 2, 5, 0, 2, 0, 8, 3, 8, 5, 8, 0, 4, 0, 3, 4, 5, -1),
        mix(0, 5, 3, 5, 0, 2, 0, 8, 3, 8, 5, 8, 0, 4, 0, 3, 4, 5, -1));
}

/* H4, the isolated-tile rows: 2.26 per isolated tile (rm 3, bad 0, chiitoitsu 4, min(sh,3) 1,
 * perfect 0, riichi 0, class honor 3, visible 0): E and chun give the same index; 2.30 once
 * (rm 3, bad 0, outermost honor 4, pairs (haku: 1/9/honor class 1, none 0) = 4, pairs 1,
 * perfect 0). 3.2 per number kind held (class, held, distance to the dora 1m): 1m (0,1,0),
 * 2m (1,1,1), 3m (2,1,2), 4p (3,1,none 4), 5p (4,1,4), 6p (3,1,4). */
static void test_h4_isolated_number_rows(void) {
  ctx_default();
  X.dora[0] = TK_9M;
  X.seen[TK_CHUN] = 0;
  X.seen[TK_9M] = 1;
  hand("123m456p1556667z", NULL);
  TK_EQ(C.nisolated, 2, "H4 isolated");
  ITEMS(2_26, 1, mix(3, 8, 0, 8, 4, 8, 1, 4, 0, 3, 0, 2, 3, 4, 0, 4, -1));
  ITEMS(2_30, 1, mix(3, 8, 0, 8, 4, 5, 4, 16, 1, 4, 0, 3, -1));
  ITEMS(3_2, 5, mix(0, 5, 1, 5, 0, 5, -1), mix(1, 5, 1, 5, 1, 5, -1), mix(2, 5, 1, 5, 2, 5, -1),
        mix(3, 5, 1, 5, 4, 5, -1), mix(4, 5, 1, 5, 4, 5, -1));
}

/* ------------------------------------------------------------------ hand H5: chanta
 * 123m 789p 123s 99s 11z (closed), tenpai on 9s and East (shanpon). Chanta shanten 0, tanyao
 * shanten: the simples 2m 3m 7p 8p 2s 3s fit 234m, 678p, 234s: 6 of 14 tiles, 8 missing: 7.
 * Chanta tiles 13 (- 6 = 7), chanta blocks: 123m, 789p, 123s, 99s, 11z = 5. Effective copies:
 * 9s 2 + East 2 = 4 (/4 = 1). 2.18 (0, 7, 5, 1, 0); 2.19 (csh 0, tiles 7, no 2/3/7/8 triplet,
 * calls 0, melds 3, ryanmen 0, bad 0, a 1/9/honor pair 1, no 2/3/7/8 pair 0). */
static void test_h5_chanta_rows(void) {
  ctx_default();
  hand("123m789p12399s11z", NULL);
  TK_EQ(C.sh_chanta, 0, "H5 chanta shanten");
  TK_EQ(C.sh_tanyao, 7, "H5 tanyao shanten");
  TK_EQ(C.chanta_blocks, 5, "H5 chanta blocks");
  ROW(2_18, mix(0, 5, 7, 8, 5, 8, 1, 5, 0, 4, -1));
  ROW(2_19, mix(0, 5, 7, 8, 0, 2, 0, 5, 3, 5, 0, 4, 0, 8, 1, 2, 0, 2, -1));
}

/* ------------------------------------------------------------------ hand H6: one suit, ittsu
 * 1112345678m 555z: 111m 234m 567m 555z + 8m: tenpai on 2m 3m 5m 6m 8m 9m, all m. Most
 * numerous suit m with 10 tiles, honors held: 2.10 (10, calls 0, no honors 0). One-suit shanten
 * 0; decomposition melds 4, composites 0: 2.24 (0, 4, 0, 0, 0). Good triplets: without 111m the
 * rest is tenpai (0), without 555z too: 2. 2.31 (sh 0, chiitoitsu: pairs 1m 5z, 9 kinds: 4, 2,
 * calls 0, no chi, not perfect). 3.5: 2 concealed triplets, 0 pairs. Ittsu: m holds ranks 1-8
 * (mask 255): 3.12 (255, sh 0, calls 0, rm + bad = 4 < 5: 0, rm >= 4: 1, perfect 0), 3.13 (8
 * kinds, melds 4, ryanmen 0, bad + pairs 0, no pair, calls 0, the effective tiles are m: 1). */
static void test_h6_suit_ittsu_rows(void) {
  ctx_default();
  hand("1112345678m555z", NULL);
  TK_EQ(C.sh_suit, 0, "H6 one-suit shanten");
  TK_EQ(C.good_triplets, 2, "H6 good triplets");
  ROW(2_10, mix(10, 15, 0, 5, 0, 2, -1));
  ROW(2_24, mix(0, 5, 4, 5, 0, 8, 0, 8, 0, 5, -1));
  ROW(2_31, mix(0, 5, 4, 8, 2, 5, 0, 5, 0, 2, 0, 3, -1));
  ROW(3_5, mix(2, 5, 0, 7, 0, 2, -1));
  ITEMS(3_12, 1, mix(255, 512, 0, 5, 0, 5, 0, 2, 1, 2, 0, 3, -1));
  ROW(3_13, mix(8, 10, 4, 5, 0, 8, 0, 8, 0, 2, 0, 5, 1, 2, -1));
}

/* ------------------------------------------------------------------ hand H7: sanshoku
 * 123m 123p 12s 789s 55z: tenpai on 3s. Sanshoku 123 holds 8 of its 9 kinds (all but 3s):
 * 3.10 (8, sh 0, calls 0). 3.11 per candidate with 3+ of its kinds: 123 (mask: m bits 0-2, p
 * bits 3-5, s 1 2 bits 6-7 = 255; is 123/789 1; sh 0; the effective 3s is one of its kinds 1;
 * riichi 1), 234 (2m 3m 2p 3p 2s: bits 0 1 3 4 6 = 91; 0; 0; 3s 1; 1), 789 (only 789s: bits
 * 6 7 8 = 448; 1; 0; 0; 1). */
static void test_h7_sanshoku_rows(void) {
  ctx_default();
  hand("123m123p12789s55z", NULL);
  ROW(3_10, mix(8, 10, 0, 14, 0, 5, -1));
  ITEMS(3_11, 3, mix(0, 2, 91, 512, 0, 4, 1, 2, 1, 2, -1), mix(1, 2, 255, 512, 0, 4, 1, 2, 1, 2, -1),
        mix(1, 2, 448, 512, 0, 4, 0, 2, 1, 2, -1));
}

/* ------------------------------------------------------------------ overlapping partials
 * 123456p 789s 4455m: 4455m decomposes into 45 + 45 (two ryanmen beat 445 + 5 and 44 + 55), both
 * waiting on 3m/6m: one overlapping ryanmen pair. Tenpai on 4m/5m (shanpon), so riichi 1.
 * 2.27 (rm 3 + 2 = 5, bad 0, 1, 0, sh 0, perfect 0, riichi 1). With 1133m instead: 13 + 13 (the
 * kanchans are tried before the pairs and tie with 11 + 33), both waiting on 2m: over_bad 1. */
static void test_overlap_rows(void) {
  ctx_default();
  hand("123456p789s4455m", NULL);
  TK_EQ(C.over_ryanmen, 1, "4455m overlapping ryanmen");
  ROW(2_27, mix(5, 8, 0, 8, 1, 4, 0, 4, 0, 4, 0, 3, 1, 2, -1));
  ctx_default();
  hand("123456p789s1133m", NULL);
  TK_EQ(C.bad, 2, "1133m kanchans");
  TK_EQ(C.over_bad, 1, "1133m overlapping bad shapes");
  ROW(2_27, mix(3, 8, 2, 8, 0, 4, 1, 4, 0, 4, 0, 3, 1, 2, -1));
}

/* ------------------------------------------------------------------ bad input */
static void test_bad_input(void) {
  ctx_default();
  rof_hand h;
  memset(&h, 0, sizeof h);
  h.c[0] = 4;
  h.c[1] = 4;
  h.c[2] = 4;
  h.c[3] = 2; /* 14 tiles */
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(rof_features(&h, &X, F, NULL, &err), TK_EINVAL, "14 tiles refused");
  if (!strstr(err.msg, "14 tiles")) TK_FAILF("message names the count: %s", err.msg);
  h.c[3] = 1;
  h.c[4] = 5;
  tk_error_clear(&err);
  TK_EQ(rof_features(&h, &X, F, NULL, &err), TK_EINVAL, "a fifth copy refused");
  if (!strstr(err.msg, "hand.c[4] = 5")) TK_FAILF("message names the field: %s", err.msg);
}

/* ------------------------------------------------------------------ properties */

/* Every row's dimension as the header's and the docs' table state it, and the sum. */
static void test_dimensions(void) {
  uint32_t sum = 0;
  for (int r = 0; r < ROF_NROWS; r++) {
    TK_EQ(rof_row_offset(r), sum, rof_row_name(r));
    sum += rof_row_dim(r);
  }
  TK_EQ(sum, ROF_FEATURES, "total");
  TK_EQ(ROF_DIM_2_22, 2752512, "2.22 as printed");
  TK_EQ(ROF_DIM_3_1, 1536000, "3.1 as printed");
  TK_EQ(ROF_DIM_3_3, 69708, "3.3 as printed");
  TK_EQ(ROF_DIM_3_4, 19472, "3.4 as printed");
  TK_EQ(rof_row_of(0), ROF_ROW_2_1n, "row of 0");
  TK_EQ(rof_row_of(ROF_FEATURES - 1), ROF_ROW_3_20, "row of the last");
  TK_EQ(rof_row_of(ROF_OFF_2_22), ROF_ROW_2_22, "row of an offset");
  TK_EQ(rof_row_of(ROF_FEATURES), -1, "past the end");
}

/* Pattern ranks: enumerating every pattern in lexicographic order gives ranks 0, 1, 2, ... */
static int enum_check(uint8_t *v, int i, int n, int cap, int budget, uint32_t *next) {
  if (i == n) {
    uint32_t r = rof_pattern_rank(v, n, cap);
    if (r != *next) { TK_FAILF("pattern rank n %d cap %d: %u, expected %u", n, cap, r, *next); return 1; }
    (*next)++;
    return 0;
  }
  for (int x = 0; x <= cap && x <= budget; x++) {
    v[i] = (uint8_t)x;
    if (enum_check(v, i + 1, n, cap, budget - x, next)) return 1;
  }
  return 0;
}
static void test_pattern_rank(void) {
  static const uint32_t counts[7] = {0, 0, 25, 125, 620, 2878, 11880};
  uint8_t v[9];
  for (int n = 2; n <= 6; n++) {
    uint32_t next = 0;
    enum_check(v, 0, n, 4, 14, &next);
    TK_EQ(next, counts[n], "patterns of cap 4");
  }
  uint32_t next = 0;
  enum_check(v, 0, 9, 2, 14, &next);
  TK_EQ(next, 19472, "patterns of cap 2, 9 ranks");
}

/* A random hand of 13 - 3m concealed tiles with m random melds (0..2), drawn from one wall. */
static void random_hand(tk_rng *r, rof_hand *h, rof_ctx *x) {
  uint8_t left[TK_KINDS];
  memset(left, 4, sizeof left);
  memset(h, 0, sizeof *h);
  memset(x, 0, sizeof *x);
  int m = (int)tk_rng_below(r, 3);
  for (int i = 0; i < m; i++) {
    tk_call *c = &h->melds[h->nmelds];
    int type = (int)tk_rng_below(r, 4);
    int k = (int)tk_rng_below(r, TK_KINDS);
    if (type == 0) {
      if (k >= 27 || k % 9 > 6 || !left[k] || !left[k + 1] || !left[k + 2]) continue;
      left[k]--; left[k + 1]--; left[k + 2]--;
      c->type = TK_CALL_CHI;
    } else {
      if (left[k] < 4) continue;
      left[k] = type == 1 ? 1 : 0;
      c->type = (uint8_t)(type == 1 ? TK_CALL_PON : type == 2 ? TK_CALL_MINKAN : TK_CALL_ANKAN);
    }
    c->kind = (uint8_t)k;
    h->nmelds++;
  }
  int need = 13 - 3 * h->nmelds;
  while (need) {
    int k = (int)tk_rng_below(r, TK_KINDS);
    if (!left[k]) continue;
    left[k]--;
    h->c[k]++;
    need--;
  }
  for (int k = 0; k < TK_KINDS; k++) {
    int vis = (int)tk_rng_below(r, (uint32_t)left[k] + 1);
    x->seen[k] = (uint8_t)(vis + (4 - left[k] - h->c[k]));
  }
  x->seat_wind = (uint8_t)tk_rng_below(r, 4);
  x->round_wind = (uint8_t)tk_rng_below(r, 2);
  x->turn = (uint8_t)tk_rng_below(r, 20);
  x->riichi_ok = (uint8_t)tk_rng_below(r, 2);
  x->furiten = (uint8_t)tk_rng_below(r, 2);
  x->ndora = (uint8_t)(1 + tk_rng_below(r, 3));
  for (int i = 0; i < x->ndora; i++) x->dora[i] = (uint8_t)tk_rng_below(r, TK_KINDS);
  x->river = tk_rng_next(r) & tk_rng_next(r) & ((1ULL << TK_KINDS) - 1);
  h->red = (uint8_t)(h->c[TK_5M] && tk_rng_below(r, 2));
}

/* Checks one feature list: ascending, distinct, below the dimension, each single-valued row
 * exactly once, at most ROF_MAX_ACTIVE; returns the number of problems. */
static int check_list(const uint32_t *f, int n, const char *ctx) {
  int bad = 0, per[ROF_NROWS];
  memset(per, 0, sizeof per);
  if (n <= 0 || n > ROF_MAX_ACTIVE) { TK_FAILF("%s: %d features", ctx, n); return 1; }
  for (int i = 0; i < n; i++) {
    if (f[i] >= ROF_FEATURES) { TK_FAILF("%s: index %u >= %d", ctx, f[i], ROF_FEATURES); bad++; }
    if (i && f[i] <= f[i - 1]) { TK_FAILF("%s: not ascending at %d", ctx, i); bad++; }
    int r = rof_row_of(f[i]);
    if (r >= 0) per[r]++;
  }
  for (int r = 0; r < ROF_NROWS; r++)
    if (!rof_row_per_item(r) && per[r] != 1) {
      TK_FAILF("%s: row %s fires %d times", ctx, rof_row_name(r), per[r]);
      bad++;
    }
  return bad;
}

static void test_random_hands(void) {
  tk_rng r;
  tk_rng_seed(&r, 15);
  int problems = 0, maxn = 0;
  long total = 0;
  uint32_t f2[ROF_MAX_ACTIVE];
  for (int it = 0; it < 5000 && problems < 5; it++) {
    rof_hand h;
    rof_ctx x;
    random_hand(&r, &h, &x);
    tk_error err;
    tk_error_clear(&err);
    int n = rof_features(&h, &x, F, NULL, &err);
    if (n < 0) { TK_FAILF("random hand %d: %s", it, err.msg); problems++; continue; }
    problems += check_list(F, n, "random hand");
    int n2 = rof_features(&h, &x, f2, NULL, NULL);
    if (n2 != n || memcmp(F, f2, (size_t)n * sizeof *F)) { TK_FAILF("random hand %d: not deterministic", it); problems++; }
    if (n > maxn) maxn = n;
    total += n;
  }
  TK_EQ(problems, 0, "random hands");
  printf("\n    5,000 random hands: %.1f active features on average, %d at most\n", total / 5000.0, maxn);
}

/* The restricted shanten with every group allowed is the kernel's normal-form shanten. */
static void test_target_shanten(void) {
  tk_rng r;
  tk_rng_seed(&r, 16);
  uint64_t seqs = 0, all = (1ULL << TK_KINDS) - 1;
  for (int k = 0; k < 27; k++)
    if (k % 9 <= 6) seqs |= 1ULL << k;
  int mism = 0;
  for (int it = 0; it < 10000 && mism < 5; it++) {
    rof_hand h;
    rof_ctx x;
    random_hand(&r, &h, &x);
    int want = tk_shanten_forms(h.c, TK_FORM_STANDARD);
    int got = rof_target_shanten(h.c, h.nmelds, seqs, all, all);
    if (got != want) {
      char buf[64];
      tk_tile t[14];
      int n = 0;
      for (int k = 0; k < TK_KINDS; k++)
        for (int j = 0; j < h.c[k]; j++) t[n++] = (tk_tile)k;
      tk_tiles_format(t, n, buf, sizeof buf);
      TK_FAILF("%s (%d melds): restricted shanten %d, kernel %d", buf, h.nmelds, got, want);
      mism++;
    }
  }
  TK_EQ(mism, 0, "restricted shanten = kernel shanten");
}

/* The fast extraction (memos, cheaper calls) against the reference (rof_reference_mode): the
 * same features and components on random hands, and the same restricted shanten for the
 * tanyao, chanta and one-suit targets and for random targets (random subsets of the allowed
 * sequences, triplets and pairs, with 0..4 melds). */
static void test_fast_equals_reference(void) {
  tk_rng r;
  tk_rng_seed(&r, 17);
  uint32_t f2[ROF_MAX_ACTIVE];
  int problems = 0;
  for (int it = 0; it < 5000 && problems < 5; it++) {
    rof_hand h;
    rof_ctx x;
    random_hand(&r, &h, &x);
    rof_comp ca, cb;
    rof_reference_mode(1);
    int nb = rof_features(&h, &x, f2, &cb, NULL);
    rof_reference_mode(0);
    int na = rof_features(&h, &x, F, &ca, NULL);
    if (na != nb || (na > 0 && memcmp(F, f2, (size_t)na * sizeof *F)) || memcmp(&ca, &cb, sizeof ca)) {
      TK_FAILF("random hand %d: %d features (reference %d) or components differ", it, na, nb);
      problems++;
    }
  }
  uint64_t simples = 0, yaochu = 0, tseq = 0, cseq = 0, starts = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (tk_kind_is_yaochu(k)) yaochu |= 1ULL << k;
    else simples |= 1ULL << k;
    int n = tk_kind_number(k);
    if (n >= 2 && n <= 6) tseq |= 1ULL << k;
    if (n == 1 || n == 7) cseq |= 1ULL << k;
    if (n >= 1 && n <= 7) starts |= 1ULL << k;
  }
  uint64_t all = (1ULL << TK_KINDS) - 1, man = 0x1ffULL, hon = 0x7fULL << 27;
  long compared = 0;
  for (int it = 0; it < 20000 && problems < 5; it++) {
    rof_hand h;
    rof_ctx x;
    random_hand(&r, &h, &x);
    uint64_t masks[4][3] = {{tseq, simples, simples},
                            {cseq, yaochu, yaochu},
                            {man & starts, man | hon, man | hon},
                            {starts & (tk_rng_next(&r) & all), tk_rng_next(&r) & all,
                             tk_rng_next(&r) & all}};
    for (int t = 0; t < 4; t++) {
      int nm = (int)tk_rng_below(&r, 5);
      rof_reference_mode(1);
      int want = rof_target_shanten(h.c, nm, masks[t][0], masks[t][1], masks[t][2]);
      rof_reference_mode(0);
      int got = rof_target_shanten(h.c, nm, masks[t][0], masks[t][1], masks[t][2]);
      compared++;
      if (got != want) {
        TK_FAILF("hand %d target %d (%d melds): restricted shanten %d, reference %d", it, t, nm,
                 got, want);
        problems++;
      }
    }
  }
  TK_EQ(problems, 0, "fast = reference");
  TK_EQ(compared, 80000, "restricted shanten compared");
}

/* Whole games of riichi_tsumogiri-like play (the fallback action): at every own decision, the
 * features of the hand after each distinct discard, built from the view, pass check_list. */
static void test_views_of_games(void) {
  int checked = 0, problems = 0;
  for (uint64_t game = 0; game < 8 && problems < 5; game++) {
    tk_riichi_game g;
    tk_error err;
    tk_error_clear(&err);
    if (tk_riichi_init(&g, NULL, 7, game, NULL, &err)) { TK_FAILF("init: %s", err.msg); return; }
    while (!tk_riichi_is_over(&g)) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, NULL, NULL);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_legal l;
      tk_riichi_legal_of(&g, s, &l);
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_SELF) {
        tk_riichi_view v;
        tk_riichi_view_of(&g, s, &v);
        rof_hand h0;
        rof_ctx x0;
        rof_hand_of_view(&v, &h0);
        rof_ctx_of_view(&v, &x0);
        for (int i = 0; i < l.n; i++) {
          if (l.a[i].type != TK_RIICHI_DISCARD) continue;
          rof_hand h = h0;
          rof_ctx x = x0;
          int k = tk_tile_kind(l.a[i].tile);
          h.c[k]--;
          if (tk_tile_is_red(l.a[i].tile)) h.red--;
          rof_ctx_discard(&x, k);
          tk_error_clear(&err);
          int n = rof_features(&h, &x, F, NULL, &err);
          if (n < 0) { TK_FAILF("view: %s", err.msg); problems++; continue; }
          problems += check_list(F, n, "view");
          checked++;
        }
      }
      int fb = tk_riichi_fallback(&l);
      tk_riichi_apply(&g, s, &l.a[fb], NULL, NULL);
    }
  }
  TK_EQ(problems, 0, "views of games");
  TK_EQ(checked > 1000, 1, "enough positions checked");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"H1: rows 2.1-2.5, 2.15-2.17", test_h1_shanten_rows},
      {"H1: rows 2.22, 2.23, 2.26-2.31, 3.5, 3.6, 3.19", test_h1_decomposition_rows},
      {"H1: rows 3.3, 3.4, 3.20", test_h1_colour_and_pattern_rows},
      {"H2: rows 2.4, 2.12-2.14, 3.16-3.18 (waits)", test_h2_wait_rows},
      {"H2: furiten and suji waits", test_h2_furiten_suji},
      {"H2: rows 2.25, 3.7-3.9 (tanyao)", test_h2_tanyao_rows},
      {"H3: rows 2.2, 2.6, 2.12, 3.6-3.8 with melds", test_h3_open_rows},
      {"H4: rows 2.7-2.9, 2.11, 2.20, 3.1, 3.14, 3.15", test_h4_yakuhai_dora_rows},
      {"H4: rows 2.26, 2.30, 3.2", test_h4_isolated_number_rows},
      {"H5: rows 2.18, 2.19 (chanta)", test_h5_chanta_rows},
      {"H6: rows 2.10, 2.24, 2.31, 3.5, 3.12, 3.13", test_h6_suit_ittsu_rows},
      {"H7: rows 3.10, 3.11 (sanshoku)", test_h7_sanshoku_rows},
      {"row 2.27: overlapping partials", test_overlap_rows},
      {"bad input", test_bad_input},
      {"row offsets and dimensions", test_dimensions},
      {"pattern ranks", test_pattern_rank},
      {"property: random hands", test_random_hands},
      {"property: restricted shanten = kernel", test_target_shanten},
      {"property: views of whole games", test_views_of_games},
      {"property: fast extraction = reference", test_fast_equals_reference},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_features", tests);
}
