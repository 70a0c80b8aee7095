/* tests/test_shanten.c — shanten (every form, with and without calls), effective tiles,
 * waits, the complete-hand test and the decomposition enumerator: hand-checked answers,
 * a brute-force reference, and properties over random hands. */
#include <math.h>
#include <string.h>

#include "taikai/mahjong.h"
#include "taikai/rng.h"
#include "unit.h"

static void counts_of(const char *s, uint8_t *c) {
  tk_tile t[20];
  int n = tk_tiles_parse(s, t, 20, NULL);
  memset(c, 0, TK_KINDS);
  for (int i = 0; i < n; i++) c[tk_tile_kind(t[i])]++;
}

typedef struct known {
  const char *hand;
  int standard, chiitoi, kokushi, all; /* -9 = not applicable (TK_EINVAL for that form) */
} known;

/* Each value worked out by hand from the definition: tiles to draw, minus one. */
static const known KNOWN[] = {
    /* 13 tiles */
    {"123m456p789s1122z", 0, 4, 8, 0},       /* shanpon on E/S */
    {"19m19p19s1234567z", 8, 6, 0, 0},       /* thirteen-sided kokushi wait */
    {"19m19p19s1234566z", 7, 5, 0, 0},       /* kokushi waiting on 7z */
    {"1122m3344p5566s7z", 3, 0, 10, 0},      /* chiitoi tanki on 7z */
    {"1111m234p567s789s", 1, 4, 10, 1},      /* 111m + tanki 1m would be a fifth 1m: not tenpai */
    {"123m456p789s2222z", 1, 5, 9, 1},       /* same with an honor quad */
    {"1111m22p33p44s55s6z", 2, 2, 10, 2},    /* chiitoi counts 1111m as one pair: 6-5+1 */
    {"1112345678999m", 0, 4, 10, 0},         /* pure nine gates, 13 tiles */
    {"13579m13579p135s", 4, 6, 8, 4},        /* kanchan shapes only */
    {"147m258p369s1234z", 8, 6, 7, 6},       /* the worst standard shape */
    /* 14 tiles */
    {"123m456p789s11222z", -1, 4, 8, -1},
    {"11223344556677m", -1, -1, 11, -1},
    {"19m19p19s12345677z", 7, 5, -1, -1},
    {"1122m3344p5566s77z", 3, -1, 10, -1},  /* seven pairs */
    {"2234455m667788s3p", 0, 0, 13, 0},
};

static void test_known(void) {
  for (size_t i = 0; i < sizeof KNOWN / sizeof KNOWN[0]; i++) {
    const known *k = &KNOWN[i];
    uint8_t c[TK_KINDS];
    counts_of(k->hand, c);
    TK_EQ(tk_shanten_forms(c, TK_FORM_STANDARD), k->standard, k->hand);
    TK_EQ(tk_shanten_forms(c, TK_FORM_CHIITOI), k->chiitoi, k->hand);
    TK_EQ(tk_shanten_forms(c, TK_FORM_KOKUSHI), k->kokushi, k->hand);
    TK_EQ(tk_shanten(c), k->all, k->hand);
  }
}

/* Hands with called melds: 1, 2, 4, 5, 7, 8, 10, 11 concealed tiles (standard form only). */
static void test_with_calls(void) {
  static const struct {
    const char *hand;
    int shanten;
  } K[] = {
      {"5m", 0},          {"55m", -1},        {"56m", 0},         {"1111m", 1},      /* tanki on a fifth 1m */
      {"1234m", 0},       {"1111m2p", 0},     {"11112m", 0},      {"23456m", 0},
      {"234567m77z", -1},  {"1357m", 1},       {"1199m", 0},       {"111m2p", 0},
      {"1234567m", 0},    {"123456m1z", 0},   {"1379m13p5s", 2},  {"1112223334m", 0},
      {"2222m333m4p", 0}, {"19m19p19s1z", 4}, {"11m", -1},       {"1z", 0},
  };
  for (size_t i = 0; i < sizeof K / sizeof K[0]; i++) {
    uint8_t c[TK_KINDS];
    counts_of(K[i].hand, c);
    TK_EQ(tk_shanten(c), K[i].shanten, K[i].hand);
    TK_EQ(tk_shanten_forms(c, TK_FORM_STANDARD), K[i].shanten, K[i].hand);
    /* seven pairs and kokushi need 13 or 14 tiles */
    TK_EQ(tk_shanten_forms(c, TK_FORM_CHIITOI), TK_EINVAL, K[i].hand);
  }
  uint8_t c[TK_KINDS] = {0};
  TK_EQ(tk_shanten(c), TK_EINVAL, "no tiles");
  counts_of("123m", c);
  TK_EQ(tk_shanten(c), TK_EINVAL, "3 tiles");
  counts_of("123m456m789m123p", c);
  TK_EQ(tk_shanten(c), TK_EINVAL, "12 tiles");
  memset(c, 0, sizeof c);
  c[0] = 5;
  c[1] = 8;
  TK_EQ(tk_shanten(c), TK_EINVAL, "a fifth copy");
}

/* ---- a slow, independent reference: search over target hands directly */

typedef struct ref {
  const uint8_t *c;
  uint8_t t[TK_KINDS];
  int best;
} ref;

/* cost of adding `add` copies of kind k to the target */
static int add_cost(ref *r, int k, int add) {
  int before = r->t[k] > r->c[k] ? r->t[k] - r->c[k] : 0;
  int after = r->t[k] + add > r->c[k] ? r->t[k] + add - r->c[k] : 0;
  return after - before;
}

static void ref_melds(ref *r, int left, int from, int cost) {
  if (cost >= r->best) return;
  if (left == 0) {
    r->best = cost;
    return;
  }
  for (int j = from; j < 34 + 21; j++) {
    if (j < 34) {
      if (r->t[j] + 3 > 4) continue;
      int dc = add_cost(r, j, 3);
      r->t[j] += 3;
      ref_melds(r, left - 1, j, cost + dc);
      r->t[j] -= 3;
    } else {
      int s = (j - 34) / 7, n = (j - 34) % 7, k = 9 * s + n;
      if (r->t[k] >= 4 || r->t[k + 1] >= 4 || r->t[k + 2] >= 4) continue;
      int dc = 0;
      for (int x = 0; x < 3; x++) {
        dc += add_cost(r, k + x, 1);
        r->t[k + x]++;
      }
      ref_melds(r, left - 1, j, cost + dc);
      for (int x = 0; x < 3; x++) r->t[k + x]--;
    }
  }
}

static int ref_standard(const uint8_t *c) {
  int n = tk_counts_total(c);
  ref r;
  r.c = c;
  r.best = 99;
  memset(r.t, 0, sizeof r.t);
  for (int p = 0; p < TK_KINDS; p++) {
    int dc = add_cost(&r, p, 2);
    r.t[p] = 2;
    ref_melds(&r, n / 3, 0, dc);
    r.t[p] = 0;
  }
  return r.best - 1;
}

static int ref_chiitoi(const uint8_t *c) {
  /* best 7 distinct kinds: those already holding the most (capped at 2) */
  int have[3] = {0, 0, 0};
  for (int k = 0; k < TK_KINDS; k++) have[c[k] >= 2 ? 2 : c[k]]++;
  int need = 0, left = 7;
  for (int v = 2; v >= 0 && left; v--) {
    int take = have[v] < left ? have[v] : left;
    need += take * (2 - v);
    left -= take;
  }
  return need - 1;
}

static const uint8_t YAOCHU[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static int ref_kokushi(const uint8_t *c) {
  int best = 99;
  for (int j = 0; j < 13; j++) {
    int need = 0;
    for (int i = 0; i < 13; i++) {
      int want = 1 + (i == j);
      need += c[YAOCHU[i]] < want ? want - c[YAOCHU[i]] : 0;
    }
    if (need < best) best = need;
  }
  return best - 1;
}

static void random_hand(tk_rng *r, int n, uint8_t *c) {
  memset(c, 0, TK_KINDS);
  for (int i = 0; i < n;) {
    int k = (int)tk_rng_below(r, TK_KINDS);
    if (c[k] < 4) c[k]++, i++;
  }
}

/* Hands skewed towards few kinds, so quads, near-complete shapes and fifth-copy waits occur. */
static void clustered_hand(tk_rng *r, int n, uint8_t *c) {
  memset(c, 0, TK_KINDS);
  int base = (int)tk_rng_below(r, 3) * 9;
  for (int i = 0; i < n;) {
    int k = tk_rng_below(r, 4) ? base + (int)tk_rng_below(r, 9) : (int)tk_rng_below(r, TK_KINDS);
    if (c[k] < 4) c[k]++, i++;
  }
}

static void test_reference(void) {
  tk_rng r;
  tk_rng_seed(&r, 2024);
  static const int SIZES[] = {14, 13, 11, 10, 8, 7, 5, 4, 2, 1};
  int checked = 0;
  for (int it = 0; it < 3000; it++) {
    int n = SIZES[it % 10];
    uint8_t c[TK_KINDS];
    if (it % 3) clustered_hand(&r, n, c);
    else random_hand(&r, n, c);
    int fast = tk_shanten_forms(c, TK_FORM_STANDARD), slow = ref_standard(c);
    if (fast != slow) {
      uint8_t t[14];
      int m = 0;
      for (int k = 0; k < TK_KINDS; k++)
        for (int x = 0; x < c[k]; x++) t[m++] = (uint8_t)k;
      char buf[64];
      tk_tiles_format(t, m, buf, sizeof buf);
      TK_FAILF("standard shanten of %s: table %d, reference %d", buf, fast, slow);
      return;
    }
    if (n >= 13) {
      TK_EQ(tk_shanten_forms(c, TK_FORM_CHIITOI), ref_chiitoi(c), "chiitoi vs reference");
      TK_EQ(tk_shanten_forms(c, TK_FORM_KOKUSHI), ref_kokushi(c), "kokushi vs reference");
    }
    checked++;
  }
  TK_EQ(checked, 3000, "hands checked against the reference");
}

/* tk_shanten_standard, the standard-form entry point, against the brute-force reference on
 * hands of every size it takes (1, 2, 4, ..., 14 tiles: 0 to 4 called melds), drawn three
 * ways: uniform, clustered in one suit, and honor-heavy (so that every honor histogram and
 * the 9s of each suit occur); then against tk_shanten_forms and tk_shanten on more hands, and
 * on counts no hand can have. */
static void honor_heavy_hand(tk_rng *r, int n, uint8_t *c) {
  memset(c, 0, TK_KINDS);
  for (int i = 0; i < n;) {
    int k = tk_rng_below(r, 2) ? 27 + (int)tk_rng_below(r, 7) : 8 + 9 * (int)tk_rng_below(r, 3) - (int)tk_rng_below(r, 3);
    if (c[k] < 4) c[k]++, i++;
  }
}

static void test_standard_entry(void) {
  tk_rng r;
  tk_rng_seed(&r, 4242);
  static const int SIZES[] = {14, 13, 11, 10, 8, 7, 5, 4, 2, 1};
  int wrong = 0, checked = 0;
  for (int it = 0; it < 15000; it++) {
    int n = SIZES[it % 10];
    uint8_t c[TK_KINDS];
    int how = (it / 10) % 3;
    if (how == 0) random_hand(&r, n, c);
    else if (how == 1) clustered_hand(&r, n, c);
    else honor_heavy_hand(&r, n, c);
    int fast = tk_shanten_standard(c), slow = ref_standard(c);
    checked++;
    if (fast != slow && wrong++ < 5) TK_FAILF("hand %d (%d tiles): tk_shanten_standard %d, reference %d", it, n, fast, slow);
  }
  TK_EQ(wrong, 0, "tk_shanten_standard vs the brute-force reference");
  TK_EQ(checked, 15000, "hands checked against the reference");
  wrong = 0;
  for (int it = 0; it < 300000; it++) {
    int n = SIZES[it % 10];
    uint8_t c[TK_KINDS];
    int how = (it / 10) % 3;
    if (how == 0) random_hand(&r, n, c);
    else if (how == 1) clustered_hand(&r, n, c);
    else honor_heavy_hand(&r, n, c);
    int st = tk_shanten_standard(c), all = st;
    if (n >= 13) {
      int cs = ref_chiitoi(c), ks = ref_kokushi(c);
      if (cs < all) all = cs;
      if (ks < all) all = ks;
    }
    if ((st != tk_shanten_forms(c, TK_FORM_STANDARD) || all != tk_shanten(c)) && wrong++ < 5)
      TK_FAILF("hand %d (%d tiles): standard %d, forms(standard) %d, all forms %d, expected %d", it, n, st,
               tk_shanten_forms(c, TK_FORM_STANDARD), tk_shanten(c), all);
  }
  TK_EQ(wrong, 0, "tk_shanten_standard vs tk_shanten_forms and tk_shanten");
  uint8_t c[TK_KINDS] = {0};
  TK_EQ(tk_shanten_standard(c), TK_EINVAL, "no tiles");
  counts_of("123m", c);
  TK_EQ(tk_shanten_standard(c), TK_EINVAL, "3 tiles");
  counts_of("123m456p789s112233z", c);
  TK_EQ(tk_shanten_standard(c), TK_EINVAL, "15 tiles");
  static const int FIFTH[] = {0, 8, 9, 17, 26, 27, 33};
  for (size_t i = 0; i < sizeof FIFTH / sizeof FIFTH[0]; i++) {
    memset(c, 0, sizeof c);
    c[FIFTH[i]] = 5;
    c[(FIFTH[i] + 5) % TK_KINDS] = 8;
    TK_EQ(tk_shanten_standard(c), TK_EINVAL, "a fifth copy");
    c[FIFTH[i]] = 255;
    c[(FIFTH[i] + 5) % TK_KINDS] = 0;
    TK_EQ(tk_shanten_standard(c), TK_EINVAL, "a count of 255");
  }
}

/* Published: the mean all-forms shanten of random 14-tile hands is 3.156 (exact table
 * methods over 1e8 hands). Its standard deviation is about 0.9, so over 1e6 hands the
 * sampling error is about 0.001; we allow 0.005. */
static void test_mean_shanten(void) {
  tk_rng r;
  tk_rng_seed(&r, 99);
  const long N = 1000000;
  double sum = 0, sum2 = 0;
  uint8_t set[136];
  for (long i = 0; i < N; i++) {
    for (int j = 0; j < 136; j++) set[j] = (uint8_t)(j / 4);
    uint8_t c[TK_KINDS] = {0};
    for (int j = 0; j < 14; j++) {
      int x = j + (int)tk_rng_below(&r, (uint32_t)(136 - j));
      uint8_t t = set[x];
      set[x] = set[j];
      set[j] = t;
      c[t]++;
    }
    int s = tk_shanten(c);
    sum += s;
    sum2 += (double)s * s;
  }
  double mean = sum / N, sd = sqrt(sum2 / N - mean * mean);
  if (mean < 3.156 - 0.005 || mean > 3.156 + 0.005) TK_FAILF("mean shanten %.4f (sd %.3f), expected 3.156", mean, sd);
  else CU_PASS("mean shanten");
}

static void test_ukeire_waits(void) {
  uint8_t c[TK_KINDS], seen[TK_KINDS] = {0};
  int count, sh;
  counts_of("123m456p789s1122z", c);
  uint64_t m = tk_ukeire(c, NULL, TK_FORM_ALL, &count, &sh);
  TK_EQ(sh, 0, "shanpon hand");
  TK_EQ(m, (1ULL << TK_EAST) | (1ULL << TK_SOUTH), "shanpon effective kinds");
  TK_EQ(count, 4, "shanpon unseen effective tiles");
  seen[TK_EAST] = 2; /* both other Easts visible: only the Souths remain */
  tk_ukeire(c, seen, TK_FORM_ALL, &count, &sh);
  TK_EQ(count, 2, "shanpon with the Easts seen");
  TK_EQ(tk_waits(c), (1ULL << TK_EAST) | (1ULL << TK_SOUTH), "shanpon waits");

  counts_of("1112345678999m", c);
  TK_EQ(tk_waits(c), 0x1ffULL, "nine gates waits on every man tile");
  tk_ukeire(c, NULL, TK_FORM_ALL, &count, &sh);
  TK_EQ(count, 23, "nine gates: 1m 1, 9m 1, 2m..8m 3 each (4 - 1 held)");

  counts_of("1234m", c); /* 123 + 4 tanki, 234 + 1 tanki */
  TK_EQ(tk_waits(c), (1ULL << 0) | (1ULL << 3), "1234m waits 1m 4m");
  counts_of("1111m", c); /* a fifth 1m does not exist: no wait, not tenpai */
  TK_EQ(tk_waits(c), 0, "1111m has no wait");
  tk_ukeire(c, NULL, TK_FORM_ALL, &count, &sh);
  TK_EQ(sh, 1, "1111m is 1-shanten");
  m = tk_ukeire(c, NULL, TK_FORM_ALL, &count, &sh);
  CU_ASSERT(m & (1ULL << 1));
  CU_ASSERT(m & (1ULL << 2));
  CU_ASSERT(!(m & 1ULL));

  counts_of("123m456p789s2222z", c);
  TK_EQ(tk_waits(c), 0, "honor quad: tanki on a fifth copy");
  counts_of("19m19p19s1234567z", c);
  TK_EQ(tk_waits(c), ((1ULL << 0) | (1ULL << 8) | (1ULL << 9) | (1ULL << 17) | (1ULL << 18) |
                                             (1ULL << 26) | (0x7fULL << 27)), "kokushi thirteen-sided");
  tk_ukeire(c, NULL, TK_FORM_ALL, &count, &sh);
  TK_EQ(count, 39, "kokushi: 13 kinds x 3 unseen");
  counts_of("1122m3344p5566s7z", c);
  TK_EQ(tk_waits(c), 1ULL << TK_CHUN, "chiitoi tanki");
  /* restricting forms changes the answer */
  tk_ukeire(c, NULL, TK_FORM_STANDARD, &count, &sh);
  TK_EQ(sh, 3, "standard-only shanten of a chiitoi tenpai");
  /* a 14-tile hand is refused */
  counts_of("123m456p789s11222z", c);
  TK_EQ(tk_ukeire(c, NULL, TK_FORM_ALL, &count, &sh), 0, "14 tiles");
  TK_EQ(sh, TK_EINVAL, "14 tiles");
}

/* ukeire agrees with its definition on random hands */
static void test_ukeire_property(void) {
  tk_rng r;
  tk_rng_seed(&r, 5);
  for (int it = 0; it < 3000; it++) {
    uint8_t c[TK_KINDS];
    int n = (it % 2) ? 13 : 10;
    clustered_hand(&r, n, c);
    int count, sh;
    uint64_t m = tk_ukeire(c, NULL, TK_FORM_ALL, &count, &sh);
    int s0 = tk_shanten(c), total = 0;
    uint64_t want = 0;
    for (int k = 0; k < TK_KINDS; k++) {
      if (c[k] == 4) continue;
      c[k]++;
      if (tk_shanten(c) < s0) want |= 1ULL << k, total += 4 - (c[k] - 1);
      c[k]--;
    }
    if (m != want || count != total || sh != s0) {
      TK_FAILF("ukeire mismatch on random hand %d", it);
      return;
    }
    uint64_t w = tk_waits(c), wr = 0;
    for (int k = 0; k < TK_KINDS; k++) {
      if (c[k] == 4) continue;
      c[k]++;
      if (tk_shanten(c) == -1) wr |= 1ULL << k;
      c[k]--;
    }
    if (w != wr) {
      TK_FAILF("waits mismatch on random hand %d", it);
      return;
    }
  }
  CU_PASS("ukeire property");
}

static int count_decomps(const char *s, tk_decomp *d, int cap) {
  uint8_t c[TK_KINDS];
  counts_of(s, c);
  return tk_decompose(c, d, cap);
}

static void test_decompose_known(void) {
  tk_decomp d[16];
  TK_EQ(count_decomps("111222333m789p55s", d, 16), 2, "three triplets or three sequences");
  TK_EQ(count_decomps("11223344556677m", d, 16), 4, "pairs 11/44/77 with sequences, and seven pairs");
  TK_EQ(count_decomps("19m19p19s12345677z", d, 16), 1, "kokushi");
  TK_EQ(d[0].form, TK_HAND_KOKUSHI, "kokushi form");
  TK_EQ(d[0].pair, TK_CHUN, "kokushi pair");
  TK_EQ(count_decomps("123m456p789s11222z", d, 16), 1, "one reading");
  TK_EQ(d[0].pair, TK_EAST, "pair");
  TK_EQ(d[0].nmelds, 4, "melds");
  TK_EQ(count_decomps("11112222333344m", d, 16), 3, "11+123x2+234x2; 44+123x4; 44+111+123+222+333");
  TK_EQ(count_decomps("123m456p789s1122z", d, 16), 0, "13 tiles");
  TK_EQ(count_decomps("123m456p789s11223z", d, 16), 0, "not complete");
  TK_EQ(count_decomps("22m", d, 16), 1, "a lone pair");
  /* seven pairs needs seven distinct pairs */
  TK_EQ(count_decomps("1111m2233p4455s66z", d, 16), 0, "a quad is not two pairs");
  /* nine gates completed with a 5m reads one way */
  TK_EQ(count_decomps("11123455678999m", d, 16), 1, "nine gates + 5m");
}

static void complete_random(tk_rng *r, uint8_t *c, int melds) {
  for (;;) {
    memset(c, 0, TK_KINDS);
    int ok = 1;
    for (int m = 0; m < melds; m++) {
      if (tk_rng_below(r, 3)) {
        int k = 9 * (int)tk_rng_below(r, 3) + (int)tk_rng_below(r, 7);
        for (int j = 0; j < 3; j++) ok &= ++c[k + j] <= 4;
      } else {
        int k = (int)tk_rng_below(r, TK_KINDS);
        ok &= (c[k] += 3) <= 4;
      }
    }
    int p = (int)tk_rng_below(r, TK_KINDS);
    ok &= (c[p] += 2) <= 4;
    if (ok) return;
  }
}

/* The fast complete test and the enumerator agree; every decomposition rebuilds the hand. */
static void test_complete_property(void) {
  tk_rng r;
  tk_rng_seed(&r, 77);
  int complete = 0, total = 0;
  for (int it = 0; it < 200000; it++) {
    uint8_t c[TK_KINDS];
    int melds = 4 - (it % 5 == 0 ? (int)tk_rng_below(&r, 5) : 0);
    complete_random(&r, c, melds);
    if (it % 2) { /* swap one tile to make most of them incomplete */
      int from, to;
      do from = (int)tk_rng_below(&r, TK_KINDS); while (!c[from]);
      do to = (int)tk_rng_below(&r, TK_KINDS); while (c[to] >= 4 || to == from);
      c[from]--, c[to]++;
    }
    if (it % 7 == 3) random_hand(&r, 14, c);
    tk_decomp d[32];
    int nd = tk_decompose(c, d, 32);
    int fast = tk_is_complete(c);
    if (fast != (nd > 0)) {
      TK_FAILF("hand %d: tk_is_complete %d but %d decompositions", it, fast, nd);
      return;
    }
    complete += fast;
    total++;
    for (int i = 0; i < nd && i < 32; i++) {
      uint8_t back[TK_KINDS] = {0};
      if (d[i].form == TK_HAND_CHIITOI) {
        for (int j = 0; j < 7; j++) back[d[i].pairs[j]] += 2;
      } else if (d[i].form == TK_HAND_KOKUSHI) {
        for (int j = 0; j < 13; j++) back[YAOCHU[j]]++;
        back[d[i].pair]++;
      } else {
        back[d[i].pair] += 2;
        for (int j = 0; j < d[i].nmelds; j++) {
          int k = d[i].meld_kind[j];
          if (d[i].meld_type[j] == TK_GROUP_SEQ) back[k]++, back[k + 1]++, back[k + 2]++;
          else back[k] += 3;
        }
      }
      if (memcmp(back, c, TK_KINDS)) {
        TK_FAILF("hand %d: decomposition %d does not rebuild the hand", it, i);
        return;
      }
      for (int j = 0; j < i; j++)
        if (!memcmp(&d[i], &d[j], sizeof d[i])) {
          TK_FAILF("hand %d: decompositions %d and %d are the same", it, j, i);
          return;
        }
    }
  }
  if (complete < 50000) TK_FAILF("only %d of %d hands complete: the generator is off", complete, total);
  else CU_PASS("complete property");
}

/* tk_shanten_discards = tk_shanten after each discard, on random hands of every 3k+2 size,
 * biased towards terminals, honors and pairs so that seven pairs and thirteen orphans decide
 * often. */
static void test_discards(void) {
  tk_rng r;
  tk_rng_seed(&r, 77);
  int disagree = 0, forms_won = 0;
  for (int it = 0; it < 60000; it++) {
    int n = 3 * (int)tk_rng_below(&r, 5) + 2;
    uint8_t c[TK_KINDS] = {0};
    int yaochu_only = it % 3 == 0;
    for (int i = 0; i < n;) {
      static const int Y[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
      int k = yaochu_only ? Y[tk_rng_below(&r, 13)] : (int)tk_rng_below(&r, it % 3 == 1 ? 9 : TK_KINDS);
      if (c[k] < 4) c[k]++, i++;
    }
    int out[TK_KINDS];
    int held = tk_shanten_discards(c, out);
    int kinds = 0;
    for (int k = 0; k < TK_KINDS; k++) {
      kinds += c[k] > 0;
      int want = 99;
      if (c[k]) {
        c[k]--;
        want = tk_shanten(c);
        forms_won += n == 14 && want < tk_shanten_forms(c, TK_FORM_STANDARD);
        c[k]++;
      }
      if (out[k] != want && disagree++ < 5) TK_FAILF("hand %d, discard %d: %d, expected %d", it, k, out[k], want);
    }
    if (held != kinds) TK_FAILF("hand %d: %d kinds held, returned %d", it, kinds, held);
  }
  TK_EQ(disagree, 0, "disagreements");
  if (forms_won < 1000) TK_FAILF("seven pairs / thirteen orphans decided only %d times", forms_won);
  uint8_t c[TK_KINDS] = {0};
  c[0] = 3;
  int out[TK_KINDS];
  TK_EQ(tk_shanten_discards(c, out), TK_EINVAL, "3 tiles");
}

/* tk_shanten_draws = tk_shanten after each draw, on random hands of every 3k+1 size: uniform,
 * one suit, terminals and honors, and sparse hands (two or three suits, fours often) in which
 * most kinds are far from every held tile, the case the function counts instead of searching. */
static void test_draws(void) {
  tk_rng r;
  tk_rng_seed(&r, 78);
  long disagree = 0, far = 0, checked = 0;
  for (int it = 0; it < 80000; it++) {
    int n = 3 * (int)tk_rng_below(&r, 5) + 1;
    uint8_t c[TK_KINDS] = {0};
    int mix = it % 4;
    int base = 9 * (int)tk_rng_below(&r, 3);
    for (int i = 0; i < n;) {
      static const int Y[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
      int k = mix == 0 ? (int)tk_rng_below(&r, TK_KINDS)
              : mix == 1 ? base + (int)tk_rng_below(&r, 9)
              : mix == 2 ? Y[tk_rng_below(&r, 13)]
                         : (tk_rng_below(&r, 2) ? base + (int)tk_rng_below(&r, 4) : 27 + (int)tk_rng_below(&r, 3));
      int copies = mix == 3 ? 1 + (int)tk_rng_below(&r, 4) : 1;
      for (int j = 0; j < copies && i < n && c[k] < 4; j++) c[k]++, i++;
    }
    int out[TK_KINDS];
    int own = tk_shanten_draws(c, out);
    if (own != tk_shanten(c) && disagree++ < 5) TK_FAILF("hand %d: own shanten %d, expected %d", it, own, tk_shanten(c));
    for (int k = 0; k < TK_KINDS; k++) {
      int want = 99;
      if (c[k] < 4) {
        int near = 0;
        for (int j = k - 2; j <= k + 2; j++)
          near |= j >= 0 && j < TK_KINDS && (k >= 27 ? j == k : j / 9 == k / 9) && c[j];
        far += !near;
        c[k]++;
        want = tk_shanten(c);
        c[k]--;
        checked++;
      }
      if (out[k] != want && disagree++ < 5) TK_FAILF("hand %d, draw %d: %d, expected %d", it, k, out[k], want);
    }
  }
  TK_EQ(disagree, 0, "disagreements");
  if (far < checked / 4) TK_FAILF("only %ld of %ld draws far from the hand's tiles", far, checked);
  /* hand-checked: 123m 456p 789s 11z 2z 3z is 1-shanten; 1s (far from 789s) keeps it 1-shanten,
     2z (a second pair) and 1z (a fourth meld) make it tenpai; 7z (no pair) changes nothing */
  uint8_t c[TK_KINDS] = {0};
  const int K[] = {0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 29};
  for (int i = 0; i < 13; i++) c[K[i]]++;
  int out[TK_KINDS];
  TK_EQ(tk_shanten_draws(c, out), 1, "123m456p789s1123z");
  TK_EQ(out[18], 1, "draw 1s");
  TK_EQ(out[28], 0, "draw 2z");
  TK_EQ(out[27], 0, "draw 1z");
  TK_EQ(out[33], 1, "draw 7z");
  c[0] = 3;
  TK_EQ(tk_shanten_draws(c, out), TK_EINVAL, "15 tiles");
}

static CU_TestInfo tests[] = {
    {"hand-checked shanten, every form", test_known},
    {"hands with calls", test_with_calls},
    {"brute-force reference", test_reference},
    {"standard-form entry point vs reference", test_standard_entry},
    {"mean shanten of random 14-tile hands", test_mean_shanten},
    {"effective tiles and waits", test_ukeire_waits},
    {"effective tiles property", test_ukeire_property},
    {"shanten after every discard", test_discards},
    {"shanten after every draw", test_draws},
    {"decompositions, hand-checked", test_decompose_known},
    {"complete test vs enumerator", test_complete_property},
    CU_TEST_INFO_NULL,
};

int main(void) { return tk_unit_run("shanten", tests); }
