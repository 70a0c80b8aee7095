/* tests/agents/test_best_hand.c — the best-hand search of the komatsu and alpha agents
 * (plugins/solo_search/best_hand.c) is exact: on thousands of random pools it returns the same
 * hand and key (R, P, U, h) as a brute force that scores every complete sub-hand of the pool
 * with the kernel (tk_solo_score) over every allowed winning tile. Two brute forces: every
 * 14-tile sub-multiset of the pool filtered by tk_is_complete (small pools), and every
 * decomposition (pair + 4 melds, seven pairs, thirteen orphans) fitting in the pool (any
 * pool); the first also checks the second's enumeration. Pools are drawn at random and biased
 * towards flushes, terminals, honors and greens so that every yaku and yakuman occurs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../plugins/solo_search/best_hand.h"
#include "taikai/rng.h"
#include "taikai/solo.h"
#include "unit.h"

/* ------------------------------------------------------------------ brute force */

typedef struct bf {
  const uint8_t *cur, *pool;
  int dora_ind, a, prefer_points;
  tk__bh_best best;
  long hands;
} bf;

static void bf_offer(bf *b, const uint8_t h[TK_KINDS]) {
  b->hands++;
  int p = 0;
  for (int w = 0; w < TK_KINDS; w++) {
    if (h[w] <= b->cur[w]) continue; /* the winning tile is drawn from the future */
    int q = tk_solo_score(h, w, b->dora_ind, NULL);
    if (q > p) p = q;
  }
  if (p <= 0) return;
  int u = 0;
  for (int k = 0; k < TK_KINDS; k++) u += h[k] < b->cur[k] ? h[k] : b->cur[k];
  int64_t r = tk__bh_reward(b->a, p, u);
  int pp = b->prefer_points;
  if (b->best.found && tk__bh_compare(r, pp ? p : 0, u, h, b->best.reward,
                                      pp ? b->best.points : 0, b->best.used, b->best.hand) <= 0)
    return;
  b->best.found = 1;
  b->best.reward = r;
  b->best.points = p;
  b->best.used = u;
  memcpy(b->best.hand, h, TK_KINDS);
}

/* every sub-multiset of 14 tiles */
static void bf_subsets(bf *b, uint8_t *h, int k, int left) {
  if (left == 0) {
    if (tk_is_complete(h)) bf_offer(b, h);
    return;
  }
  if (k == TK_KINDS) return;
  int mx = b->pool[k] < left ? b->pool[k] : left;
  for (int n = mx; n >= 0; n--) {
    h[k] = (uint8_t)n;
    bf_subsets(b, h, k + 1, left - n);
  }
  h[k] = 0;
}

/* every decomposition: melds in non-decreasing index 2*kind + type */
static void bf_melds(bf *b, uint8_t *h, int j, int r) {
  if (r == 0) {
    bf_offer(b, h);
    return;
  }
  for (int i = j; i < 2 * TK_KINDS; i++) {
    int k = i / 2;
    if (i & 1) {
      if (h[k] + 3 > b->pool[k]) continue;
      h[k] += 3;
      bf_melds(b, h, i, r - 1);
      h[k] -= 3;
    } else {
      if (k >= 27 || k % 9 > 6) continue;
      if (h[k] + 1 > b->pool[k] || h[k + 1] + 1 > b->pool[k + 1] || h[k + 2] + 1 > b->pool[k + 2])
        continue;
      h[k]++, h[k + 1]++, h[k + 2]++;
      bf_melds(b, h, i, r - 1);
      h[k]--, h[k + 1]--, h[k + 2]--;
    }
  }
}

static void bf_pairs7(bf *b, uint8_t *h, int k, int n) {
  if (n == 7) {
    bf_offer(b, h);
    return;
  }
  for (int i = k; i < TK_KINDS; i++)
    if (b->pool[i] >= 2) {
      h[i] = 2;
      bf_pairs7(b, h, i + 1, n + 1);
      h[i] = 0;
    }
}

static const int YAO[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static void bf_decompositions(bf *b) {
  uint8_t h[TK_KINDS] = {0};
  for (int p = 0; p < TK_KINDS; p++)
    if (b->pool[p] >= 2) {
      h[p] = 2;
      bf_melds(b, h, 0, 4);
      h[p] = 0;
    }
  bf_pairs7(b, h, 0, 0);
  int ok = 1;
  for (int i = 0; i < 13; i++) ok &= b->pool[YAO[i]] >= 1;
  if (ok)
    for (int i = 0; i < 13; i++) {
      if (b->pool[YAO[i]] < 2) continue;
      memset(h, 0, sizeof h);
      for (int j = 0; j < 13; j++) h[YAO[j]] = 1;
      h[YAO[i]] = 2;
      bf_offer(b, h);
    }
}

/* ------------------------------------------------------------------ random pools */

/* Draws 14 current and d future tiles from a wall restricted to `kinds` (4 copies each). */
static int random_pool(tk_rng *r, const int *kinds, int nk, int d, uint8_t *cur, uint8_t *fut) {
  uint8_t tiles[136];
  int n = 0;
  for (int i = 0; i < nk; i++)
    for (int c = 0; c < 4; c++) tiles[n++] = (uint8_t)kinds[i];
  if (n < 14 + d) return -1;
  for (int i = 0; i < 14 + d; i++) {
    int j = i + (int)tk_rng_below(r, (uint32_t)(n - i));
    uint8_t t = tiles[i];
    tiles[i] = tiles[j];
    tiles[j] = t;
  }
  memset(cur, 0, TK_KINDS);
  memset(fut, 0, TK_KINDS);
  for (int i = 0; i < 14; i++) cur[tiles[i]]++;
  for (int i = 14; i < 14 + d; i++) fut[tiles[i]]++;
  return 0;
}

/* A random family of kinds: everything, one suit (+ honors), terminals and honors, greens,
 * honors, or a few random kinds. */
static int full_deck; /* 1: every pool from the whole deck, as in games */

static int random_kinds(tk_rng *r, int *kinds) {
  int n = 0, mode = full_deck ? 0 : (int)tk_rng_below(r, 8), su = (int)tk_rng_below(r, 3);
  switch (mode) {
    case 0:
    case 1:
      for (int k = 0; k < TK_KINDS; k++) kinds[n++] = k;
      break;
    case 2:
      for (int k = 0; k < 9; k++) kinds[n++] = 9 * su + k;
      break;
    case 3:
      for (int k = 0; k < 9; k++) kinds[n++] = 9 * su + k;
      for (int k = 27; k < 34; k++) kinds[n++] = k;
      break;
    case 4:
      for (int i = 0; i < 13; i++) kinds[n++] = YAO[i];
      for (int i = 0; i < 3; i++) kinds[n++] = 9 * (int)tk_rng_below(r, 3) + 1 + (int)tk_rng_below(r, 7);
      break;
    case 5: {
      static const int G[] = {19, 20, 21, 23, 25, 32, 22, 24, 31};
      for (int i = 0; i < 9; i++) kinds[n++] = G[i];
      break;
    }
    case 6:
      for (int k = 27; k < 34; k++) kinds[n++] = k;
      for (int i = 0; i < 3; i++) kinds[n++] = (int)tk_rng_below(r, 27);
      break;
    default: {
      int want = 7 + (int)tk_rng_below(r, 8);
      uint64_t seen = 0;
      while (n < want) {
        int k = (int)tk_rng_below(r, TK_KINDS);
        if (seen >> k & 1) continue;
        seen |= 1ULL << k;
        kinds[n++] = k;
      }
    }
  }
  /* dedupe (mode 4 and 6 may repeat a kind) */
  int m = 0;
  uint64_t have = 0;
  for (int i = 0; i < n; i++)
    if (!(have >> kinds[i] & 1)) have |= 1ULL << kinds[i], kinds[m++] = kinds[i];
  return m;
}

static void describe(const uint8_t *cur, const uint8_t *fut, int dora_ind, int a, char *buf,
                     size_t cap) {
  tk_tile t[40];
  int n = 0, m = 0;
  char c1[80], c2[80];
  for (int k = 0; k < TK_KINDS; k++)
    for (int i = 0; i < cur[k]; i++) t[n++] = (tk_tile)k;
  tk_tiles_format(t, n, c1, sizeof c1);
  for (int k = 0; k < TK_KINDS; k++)
    for (int i = 0; i < fut[k]; i++) t[m++] = (tk_tile)k;
  tk_tiles_format(t, m, c2, sizeof c2);
  snprintf(buf, cap, "cur %s fut %s dora-ind %d a %d", c1, c2, dora_ind, a);
}

static void hand_str(const uint8_t *h, char *buf, size_t cap) {
  tk_tile t[20];
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++)
    for (int i = 0; i < h[k] && n < 20; i++) t[n++] = (tk_tile)k;
  tk_tiles_format(t, n, buf, cap);
}

static int same(const tk__bh_best *x, const tk__bh_best *y) {
  if (x->found != y->found) return 0;
  if (!x->found) return 1;
  return x->reward == y->reward && x->points == y->points && x->used == y->used &&
         !memcmp(x->hand, y->hand, TK_KINDS);
}

static void report(const char *what, const uint8_t *cur, const uint8_t *fut, int dora_ind, int a,
                   const tk__bh_best *got, const tk__bh_best *want) {
  char d[200], h1[64], h2[64];
  describe(cur, fut, dora_ind, a, d, sizeof d);
  hand_str(got->hand, h1, sizeof h1);
  hand_str(want->hand, h2, sizeof h2);
  TK_FAILF("%s: %s: search found %d P %d U %d %s; brute force found %d P %d U %d %s", what, d,
           got->found, got->points, got->used, h1, want->found, want->points, want->used, h2);
}

static const int ALPHAS[] = {1000, 1000, 800, 500, 0, 900, 100};

/* Runs `n` random pools with d future tiles in [dmin, dmax]; `subsets` adds the sub-multiset
 * brute force (small pools only). */
static void run_pools(uint64_t seed, int n, int dmin, int dmax, int subsets) {
  tk_rng r;
  tk_rng_seed(&r, seed);
  int fails = 0, found = 0, yakuman = 0;
  long nodes = 0, hands = 0;
  for (int i = 0; i < n && fails < 5; i++) {
    int kinds[TK_KINDS + 8];
    int nk = random_kinds(&r, kinds);
    int d = dmin + (int)tk_rng_below(&r, (uint32_t)(dmax - dmin + 1));
    uint8_t cur[TK_KINDS], fut[TK_KINDS], pool[TK_KINDS];
    if (random_pool(&r, kinds, nk, d, cur, fut)) {
      i--;
      continue;
    }
    int dora_ind = tk_rng_below(&r, 5) ? (int)tk_rng_below(&r, TK_KINDS) : TK_TILE_NONE;
    if (nk < TK_KINDS && tk_rng_below(&r, 2)) dora_ind = kinds[tk_rng_below(&r, (uint32_t)nk)];
    int a = i % 9 < 7 ? ALPHAS[i % 9] : (int)tk_rng_below(&r, 1001);
    int pp = (i / 9) % 2;
    for (int k = 0; k < TK_KINDS; k++) pool[k] = (uint8_t)(cur[k] + fut[k]);

    tk__bh_ctx ctx;
    tk__bh_prepare(&ctx, cur, dora_ind, a, pp);
    tk__bh_best got;
    tk__bh_search(&ctx, fut, &got);
    nodes += got.nodes;

    bf b;
    memset(&b, 0, sizeof b);
    b.cur = cur, b.pool = pool, b.dora_ind = dora_ind, b.a = a, b.prefer_points = pp;
    bf_decompositions(&b);
    hands += b.hands;
    if (!same(&got, &b.best)) {
      report(pp ? "decompositions, prefer_points" : "decompositions", cur, fut, dora_ind, a, &got,
             &b.best);
      fails++;
    }
    if (subsets) {
      bf s;
      memset(&s, 0, sizeof s);
      s.cur = cur, s.pool = pool, s.dora_ind = dora_ind, s.a = a, s.prefer_points = pp;
      uint8_t h[TK_KINDS] = {0};
      bf_subsets(&s, h, 0, 14);
      if (!same(&s.best, &b.best)) {
        report("subsets vs decompositions", cur, fut, dora_ind, a, &s.best, &b.best);
        fails++;
      }
    }
    found += got.found;
    yakuman += got.found && got.points == 48000;
  }
  printf("\n    %d pools, d %d..%d: %d with a hand, %d yakuman; search %.0f nodes/pool, brute "
         "force %.0f hands/pool\n",
         n, dmin, dmax, found, yakuman, (double)nodes / n, (double)hands / n);
  CU_ASSERT_EQUAL(fails, 0);
}

static void test_points_table(void) {
  for (int han = 1; han <= 20; han++)
    for (int fu = 20; fu <= 110; fu += 5) TK_EQ(tk__bh_points(han, fu), tk_solo_points(han, fu), "points");
}

static void test_small_pools_both_brute_forces(void) { run_pools(11, 1500, 1, 6, 1); }
static void test_medium_pools(void) { run_pools(12, 6000, 1, 10, 0); }
static void test_large_pools(void) { run_pools(13, 1500, 11, 17, 0); }
static void test_game_pools(void) {
  full_deck = 1;
  run_pools(14, 4000, 1, 17, 0);
  full_deck = 0;
}

/* The reward is an exact integer multiple of alpha*P/48000 + (1-alpha)*U/13. */
static void test_reward_scale(void) {
  TK_EQ(tk__bh_reward(1000, 12000, 10), 13000LL * 12000, "komatsu reward");
  TK_EQ(tk__bh_reward(0, 12000, 10), 1000LL * 48000 * 10, "alpha 0 reward");
  TK_EQ(tk__bh_reward(800, 1500, 13), 800LL * 13 * 1500 + 200LL * 48000 * 13, "alpha 0.8");
}

/* A hand-made position: 123456789m 11p 2p 5s 7z with the future 3p 4p. The best hand is
 * 123m 456m 789m 234p 11p won on 4p (ryanmen): tsumo 1 + pinfu 1 + ittsu 2 = 4 han 20 fu. */
static void test_known_position(void) {
  uint8_t cur[TK_KINDS] = {0}, fut[TK_KINDS] = {0};
  tk_tile t[14];
  CU_ASSERT_EQUAL(tk_tiles_parse("123456789m112p5s7z", t, 14, NULL), 14);
  for (int i = 0; i < 14; i++) cur[t[i]]++;
  fut[TK_1P + 2] = 1;
  fut[TK_1P + 3] = 1;
  tk__bh_ctx ctx;
  tk__bh_prepare(&ctx, cur, TK_TILE_NONE, 1000, 0);
  tk__bh_best b;
  CU_ASSERT_EQUAL(tk__bh_search(&ctx, fut, &b), 1);
  TK_EQ(b.points, 7700, "ittsu pinfu tsumo");
  TK_EQ(b.used, 12, "kept tiles");
  TK_EQ(b.hand[TK_5S] + b.hand[TK_CHUN], 0, "5s and 7z unused");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"points table = tk_solo_points", test_points_table},
      {"reward scale", test_reward_scale},
      {"a hand-made position", test_known_position},
      {"small pools: search = decompositions = sub-multisets", test_small_pools_both_brute_forces},
      {"medium pools: search = brute force", test_medium_pools},
      {"large pools (d 11..17): search = brute force", test_large_pools},
      {"pools from the whole deck, as in games (d 1..17)", test_game_pools},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("best_hand", tests);
}
