/* tests/referee/test_ref_stats.c — intervals and paired tests against known answers computed
 * independently (closed formulas evaluated with 30-digit arithmetic, or in Python's floats from
 * the formulas in the comments, with the t quantiles quoted), the range invariants (no interval
 * leaves its metric's range or has zero width on finite data), and the pairing of walls from a
 * tally (harness/stats/tally.h) in paired statistics. */
#include <math.h>
#include <string.h>

#include "stats.h"
#include "tally.h"
#include "unit.h"

/* Quantiles in the comments below: z = 1.959963984540054 (normal 0.975), T3 =
 * 3.18244630528370959 and T4 = 2.776445105197794358 (Student t 0.975 with 3 and 4 df). */

#define NEAR(x, want, tol)                                                      \
  do {                                                                          \
    double x_ = (x), w_ = (want);                                               \
    if (!(fabs(x_ - w_) <= (tol))) TK_FAILF("%s = %.12g, expected %.12g", #x, x_, w_); \
    else CU_PASS(#x);                                                           \
  } while (0)

static void test_wilson(void) {
  tk_estimate e;
  /* z = 1.959963984540054; centre (p + z^2/2n)/(1 + z^2/n), half-width
   * z sqrt(p(1-p)/n + z^2/4n^2)/(1 + z^2/n) for p = 0.18, n = 100 */
  CU_ASSERT_EQUAL_FATAL(tk_stats_wilson(18, 100, 0.95, &e), 0);
  NEAR(e.value, 0.18, 1e-15);
  NEAR(e.lo, 0.117002254989463502, 1e-12);
  NEAR(e.hi, 0.266673583863007336, 1e-12);
  CU_ASSERT_EQUAL_FATAL(tk_stats_wilson(0, 10, 0.95, &e), 0);
  NEAR(e.lo, 0.0, 1e-15);
  CU_ASSERT(e.hi > 0.2 && e.hi < 0.35);
  CU_ASSERT_EQUAL_FATAL(tk_stats_wilson(0, 0, 0.95, &e), 0);
  CU_ASSERT(isnan(e.value));
}

static void test_clopper_pearson(void) {
  tk_estimate e;
  /* beta quantiles: Beta^-1(0.025; 18, 83), Beta^-1(0.975; 19, 82) */
  CU_ASSERT_EQUAL_FATAL(tk_stats_clopper_pearson(18, 100, 0.95, &e), 0);
  NEAR(e.lo, 0.110311229153260550, 1e-9);
  NEAR(e.hi, 0.269477085966811895, 1e-9);
  /* k = 0: upper bound 1 - (alpha/2)^(1/n) */
  CU_ASSERT_EQUAL_FATAL(tk_stats_clopper_pearson(0, 10, 0.95, &e), 0);
  NEAR(e.lo, 0.0, 0);
  NEAR(e.hi, 1 - pow(0.025, 0.1), 1e-9);
}

static void test_mean_t(void) {
  /* 1..5: mean 3, sd sqrt(2.5), t(0.975, 4) = 2.776445105197794 */
  double x[5] = {1, 2, 3, 4, 5}, one[5] = {1, 1, 1, 1, 1};
  tk_estimate e;
  CU_ASSERT_EQUAL_FATAL(tk_stats_ratio(x, one, 5, 0.95, &e), 0);
  double half = 2.776445105197794358 * sqrt(2.5 / 5);
  NEAR(e.value, 3.0, 1e-12);
  NEAR(e.lo, 3.0 - half, 1e-9);
  NEAR(e.hi, 3.0 + half, 1e-9);
  CU_ASSERT_EQUAL(e.n, 5);
}

static void test_ratio(void) {
  /* points per win over 4 walls: wins {1,0,1,1}, points {2000,0,4000,3000}: 9000/3 = 3000;
   * z_i = (x_i - 3000 w_i)/0.75 = {-1333.3, 0, 1333.3, 0}: sd = sqrt(2 * 1333.3^2 / 3) */
  double pts[4] = {2000, 0, 4000, 3000}, wins[4] = {1, 0, 1, 1};
  tk_estimate e;
  CU_ASSERT_EQUAL_FATAL(tk_stats_ratio(pts, wins, 4, 0.95, &e), 0);
  NEAR(e.value, 3000, 1e-9);
  double z = 1000 / 0.75, sd = sqrt(2 * z * z / 3);
  double t3 = 3.18244630528370959; /* t(0.975, 3) */
  NEAR(e.hi - e.value, t3 * sd / 2, 1e-6);
  double zero[4] = {0, 0, 0, 0};
  CU_ASSERT_EQUAL(tk_stats_ratio(pts, zero, 4, 0.95, &e), 0);
  CU_ASSERT(isnan(e.value));
}

static void test_paired(void) {
  /* a - b per wall = {1,2,3,4,5}: t = 3 / sqrt(2.5/5) with 4 df, two-sided p = 0.01323559956 */
  double a[5] = {2, 4, 6, 8, 10}, b[5] = {1, 2, 3, 4, 5}, one[5] = {1, 1, 1, 1, 1};
  tk_estimate e;
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_ratio(a, one, b, one, 5, 0.95, &e), 0);
  NEAR(e.value, 3.0, 1e-12);
  NEAR(e.p, 0.0132355995636826895, 1e-9);
  double half = 2.776445105197794358 * sqrt(2.5 / 5);
  NEAR(e.lo, 3.0 - half, 1e-9);
  /* identical agents: difference 0, p = 1 */
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_ratio(a, one, a, one, 5, 0.95, &e), 0);
  NEAR(e.value, 0, 0);
  NEAR(e.p, 1, 0);
}

/* Points per win on 4 walls (range [0, 48000]): wins {1,0,1,1}, points {2000,0,4000,3000}:
 * R = 3000, linearised z = {-1333.3, 0, 1333.3, 0}, se = sd(z) / 2 = 544.331053951817; on
 * u = R / 48000 = 0.0625: logit(u) +- T3 se / 48000 / (u (1 - u)), mapped back. */
static void test_metric_logit(void) {
  double pts[4] = {2000, 0, 4000, 3000}, wins[4] = {1, 0, 1, 1};
  tk_design d = {.lo = 0, .hi = 48000};
  tk_estimate e;
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(pts, wins, 4, &d, 0.95, &e), 0);
  TK_EQ(e.method, TK_METHOD_LOGIT_T, "logit-t");
  NEAR(e.value, 3000, 1e-9);
  NEAR(e.lo, 1668.3653977396489, 1e-6);
  NEAR(e.hi, 5273.5248455510555, 1e-6);
  /* one bound (win points >= 0): wins {1,0,2,1}, points {8000,0,12000,3900}: R = 5975,
   * se = 837.0956735443486, R exp(-+T3 se / R) */
  double wp[4] = {8000, 0, 12000, 3900}, w2[4] = {1, 0, 2, 1};
  tk_design one = {.lo = 0, .hi = INFINITY};
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(wp, w2, 4, &one, 0.95, &e), 0);
  TK_EQ(e.method, TK_METHOD_LOG_T, "log-t");
  NEAR(e.lo, 3825.6345282807383, 1e-6);
  NEAR(e.hi, 9331.948657428095, 1e-6);
  /* no range: the plain t interval of tk_stats_ratio */
  tk_design none = {.lo = -INFINITY, .hi = INFINITY};
  tk_estimate t;
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(wp, w2, 4, &none, 0.95, &e), 0);
  CU_ASSERT_EQUAL_FATAL(tk_stats_ratio(wp, w2, 4, 0.95, &t), 0);
  TK_EQ(e.method, TK_METHOD_T, "t");
  NEAR(e.lo, t.lo, 1e-9);
  NEAR(e.hi, t.hi, 1e-9);
}

/* A small sample near a bound: two wins in 300 walls, 200 and 11480 points. The t interval of
 * the ratio reaches below 0; the logit one stays inside [0, 48000] with width. */
static void test_metric_small(void) {
  static double pts[300], wins[300];
  pts[10] = 200, wins[10] = 1;
  pts[200] = 11480, wins[200] = 1;
  tk_design d = {.lo = 0, .hi = 48000};
  tk_estimate e, t;
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(pts, wins, 300, &d, 0.95, &e), 0);
  CU_ASSERT_EQUAL_FATAL(tk_stats_ratio(pts, wins, 300, 0.95, &t), 0);
  TK_EQ(t.lo < 0, 1, "the unbounded t interval leaves the range");
  NEAR(e.value, 5840, 1e-9);
  TK_EQ(e.lo > 0 && e.lo < e.value && e.value < e.hi && e.hi <= 48000, 1, "inside [0, 48000]");
}

/* No variation between walls: (R - lo) / (hi - lo) as a rate of walls (Wilson), mapped back. */
static void test_metric_all_zero(void) {
  static double zero[60], one[60];
  for (int i = 0; i < 60; i++) one[i] = 1;
  tk_design d = {.lo = 0, .hi = 48000};
  tk_estimate e;
  /* 60 games without a point: [0, 48000 z^2 / (60 + z^2)] = [0, 2888.248902820313] */
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(zero, one, 60, &d, 0.95, &e), 0);
  TK_EQ(e.method, TK_METHOD_RANGE, "range-wilson");
  NEAR(e.value, 0, 0);
  NEAR(e.lo, 0, 0);
  NEAR(e.hi, 2888.248902820313, 1e-6);
  /* a single wall inside the range: Wilson of u = 0.25 in one trial, mapped to [1, 4] */
  double r = 1.75, g = 1;
  tk_estimate w;
  tk_design rank = {.lo = 1, .hi = 4};
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(&r, &g, 1, &rank, 0.95, &e), 0);
  CU_ASSERT_EQUAL_FATAL(tk_stats_wilson(0.25, 1, 0.95, &w), 0);
  TK_EQ(e.method, TK_METHOD_RANGE, "range-wilson");
  NEAR(e.lo, 1 + 3 * w.lo, 1e-12);
  NEAR(e.hi, 1 + 3 * w.hi, 1e-12);
  TK_EQ(e.lo >= 1 && e.lo < 1.75 && e.hi > 1.75 && e.hi <= 4, 1, "proper interval in [1, 4]");
  /* no range and no variation: no interval rather than a point */
  tk_design none = {.lo = -INFINITY, .hi = INFINITY};
  double c[3] = {5, 5, 5}, o[3] = {1, 1, 1};
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(c, o, 3, &none, 0.95, &e), 0);
  NEAR(e.value, 5, 0);
  TK_EQ(isnan(e.lo) && isnan(e.hi) && e.method == TK_METHOD_NONE, 1, "no interval");
}

/* Rates with several trials per wall (4 games on each of 4 walls, wins {1,2,0,3}): R = 0.375,
 * linearised z = (num - 4R) / 4 = {-0.125, 0.125, -0.375, 0.375}, V_walls = var(z) / 4 =
 * 0.026041666666666664, V_binomial = R (1 - R) / 16 = 0.0146484375, deff = 1.7777777777777777,
 * n_eff = 16 / deff = 9: Wilson(3.375 of 9) = [0.1449789074718043, 0.6798073546330817]. */
static void test_metric_clustered_rate(void) {
  double k[4] = {1, 2, 0, 3}, n[4] = {4, 4, 4, 4};
  tk_design d = {.proportion = 1};
  tk_estimate e;
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(k, n, 4, &d, 0.95, &e), 0);
  TK_EQ(e.method, TK_METHOD_WILSON_DEFF, "wilson-deff");
  NEAR(e.value, 0.375, 1e-15);
  NEAR(e.lo, 0.1449789074718043, 1e-12);
  NEAR(e.hi, 0.6798073546330817, 1e-12);
  /* the sample that printed 0.07 [-0.08, 0.23]: 3 walls of 4 games, one win: R = 1/12; the t
   * interval is [-0.2752, 0.4419]; deff = 1.0909090909090913, n_eff = 11:
   * Wilson(11/12 of 11) = [0.01397161878319722, 0.3683891870234959] */
  double k3[3] = {1, 0, 0}, n3[3] = {4, 4, 4};
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(k3, n3, 3, &d, 0.95, &e), 0);
  NEAR(e.lo, 0.01397161878319722, 1e-12);
  NEAR(e.hi, 0.3683891870234959, 1e-12);
  /* walls more alike than binomial trials (wins {2,2,2,1} of 4): R = 7/16, z = {1,1,1,-3}/16,
   * V_walls = 0.00390625 < V_binomial = 0.015380859375 (deff 0.254): the floor deff = 1 keeps
   * n_eff = 16, Wilson(7 of 16) = [0.23098652405492354, 0.6682144360118811]; an interval
   * narrower than the binomial one (n_eff 63 without the floor, 32 with a floor of 0.5) would
   * claim more than the trials hold */
  double ku[4] = {2, 2, 2, 1};
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(ku, n, 4, &d, 0.95, &e), 0);
  TK_EQ(e.method, TK_METHOD_WILSON_DEFF, "wilson-deff, under-dispersed");
  NEAR(e.value, 0.4375, 1e-15);
  NEAR(e.lo, 0.23098652405492354, 1e-12);
  NEAR(e.hi, 0.6682144360118811, 1e-12);
  /* all zero (a 0 % riichi rate): no design effect to estimate, so each wall is one trial:
   * [0, z^2 / (5 + z^2)] = [0, 0.43448246478317476], not [0, 0] */
  double k0[5] = {0}, n5[5] = {40, 40, 40, 40, 40}, k5[5] = {40, 40, 40, 40, 40};
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(k0, n5, 5, &d, 0.95, &e), 0);
  NEAR(e.value, 0, 0);
  NEAR(e.lo, 0, 0);
  NEAR(e.hi, 0.43448246478317476, 1e-12);
  /* all one: [5 / (5 + z^2), 1] */
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(k5, n5, 5, &d, 0.95, &e), 0);
  NEAR(e.lo, 0.5655175352168251, 1e-12);
  NEAR(e.hi, 1, 0);
  /* one trial per wall: exactly tk_stats_wilson on the sums (or Clopper–Pearson) */
  double b[5] = {1, 0, 0, 1, 0}, g[5] = {1, 1, 1, 1, 1};
  tk_estimate w;
  d.one_per_wall = 1;
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(b, g, 5, &d, 0.95, &e), 0);
  CU_ASSERT_EQUAL_FATAL(tk_stats_wilson(2, 5, 0.95, &w), 0);
  TK_EQ(e.method, TK_METHOD_WILSON, "wilson");
  NEAR(e.lo, w.lo, 0);
  NEAR(e.hi, w.hi, 0);
  d.clopper_pearson = 1;
  CU_ASSERT_EQUAL_FATAL(tk_stats_metric(b, g, 5, &d, 0.95, &e), 0);
  CU_ASSERT_EQUAL_FATAL(tk_stats_clopper_pearson(2, 5, 0.95, &w), 0);
  TK_EQ(e.method, TK_METHOD_CLOPPER_PEARSON, "clopper-pearson");
  NEAR(e.hi, w.hi, 0);
}

/* Property: over many random samples of every shape (rates, ratios, few walls, many zeros),
 * the interval holds the estimate, stays in the range and has width. */
static void test_metric_invariants(void) {
  uint64_t x = 12345;
  for (int trial = 0; trial < 2000; trial++) {
    double num[12], den[12];
    size_t n = 1 + (size_t)(trial % 12);
    int rate = trial % 2, sparse = trial % 3 == 0;
    for (size_t i = 0; i < n; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      int g = rate ? 1 + (int)(x >> 60) : (int)(x >> 62);
      den[i] = g;
      double u = (double)(x >> 11 & 0xFFFFF) / 0x100000;
      num[i] = rate ? floor(u * (g + 1)) : (sparse ? 0 : u * 48000 * g);
      if (num[i] > (rate ? g : 48000.0 * g)) num[i] = rate ? g : 48000.0 * g;
    }
    tk_design d = rate ? (tk_design){.proportion = 1} : (tk_design){.lo = 0, .hi = 48000};
    tk_estimate e;
    CU_ASSERT_EQUAL_FATAL(tk_stats_metric(num, den, n, &d, 0.95, &e), 0);
    if (isnan(e.value)) continue; /* no trials */
    double hi = rate ? 1 : 48000;
    if (!(e.lo >= 0 && e.lo <= e.value && e.value <= e.hi && e.hi <= hi && e.lo < e.hi))
      TK_FAILF("trial %d (%s, %zu walls): %g [%g, %g] (%s)", trial, rate ? "rate" : "ratio", n,
               e.value, e.lo, e.hi, tk_stats_method_name(e.method));
  }
  CU_PASS("invariants");
}

/* Paired points per win with real denominators on 5 walls:
 *   a: wins {1,0,1,1,0}, points {4000,0,8000,2000,0}: R_a = 14000/3
 *   b: wins {1,1,0,1,1}, points {1000,3000,0,2000,1000}: R_b = 1750
 * d_w = z_a,w - z_b,w (z = (num - R den) / mean(den)), value 2916.666..., se(d) =
 * 1685.8702692718723: CI value +- T4 se = [-1764.0595904517104, 7597.392923785044], p =
 * 2 (1 - F4(value / se)) = 0.15867033160140198 (F4 the t(4) CDF in closed form). Pairing b's
 * walls one step off leaves the value but gives se 1546.2113943203, CI [-1376.3043906949870,
 * 7209.637724028321], p 0.13230991325467034: a mispairing shows. */
static const double PA[5] = {4000, 0, 8000, 2000, 0}, WA[5] = {1, 0, 1, 1, 0};
static const double PB[5] = {1000, 3000, 0, 2000, 1000}, WB[5] = {1, 1, 0, 1, 1};

/* A paired difference of rates stays in [-1, 1]: wins a {0,0,0,1,0} and b {1,1,1,0,1}, one game
 * a wall: d = {-1,-1,-1,1,-1}, value -0.6, se 0.4, t interval -0.6 +- T4 0.4 =
 * [-1.710578042079118, 0.5105780420791178]: its lower end is clipped to -1, its upper kept. */
static void test_paired_clipped(void) {
  double a[5] = {0, 0, 0, 1, 0}, b[5] = {1, 1, 1, 0, 1}, one[5] = {1, 1, 1, 1, 1};
  tk_design d = {.proportion = 1};
  tk_estimate e;
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_metric(a, one, b, one, 5, &d, 0.95, &e), 0);
  TK_EQ(e.method, TK_METHOD_PAIRED_T, "paired-t");
  NEAR(e.value, -0.6, 1e-15);
  NEAR(e.lo, -1, 0);
  NEAR(e.hi, 0.5105780420791178, 1e-12);
  /* the mirror image: the upper end clipped to 1 */
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_metric(b, one, a, one, 5, &d, 0.95, &e), 0);
  NEAR(e.lo, -0.5105780420791178, 1e-12);
  NEAR(e.hi, 1, 0);
}

static void test_paired_known(void) {
  tk_design d = {.lo = 0, .hi = 48000};
  tk_estimate e;
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_metric(PA, WA, PB, WB, 5, &d, 0.95, &e), 0);
  TK_EQ(e.method, TK_METHOD_PAIRED_T, "paired-t");
  NEAR(e.value, 2916.666666666667, 1e-9);
  NEAR(e.lo, -1764.0595904517104, 1e-6);
  NEAR(e.hi, 7597.392923785044, 1e-6);
  NEAR(e.p, 0.15867033160140198, 1e-9);
  double pb[5], wb[5];
  for (int i = 0; i < 5; i++) pb[i] = PB[(i + 1) % 5], wb[i] = WB[(i + 1) % 5];
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_metric(PA, WA, pb, wb, 5, &d, 0.95, &e), 0);
  NEAR(e.lo, -1376.304390694987, 1e-6);
  NEAR(e.p, 0.13230991325467034, 1e-9);
  /* a rate's difference stays within [-1, 1]; equal on every wall: +-(Wilson bound of 0 of 5
   * walls) = +-0.43448246478317476 around 0, not [0, 0] */
  tk_design rate = {.proportion = 1};
  double k[5] = {0, 1, 0, 0, 1}, g[5] = {1, 1, 1, 1, 1};
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_metric(k, g, k, g, 5, &rate, 0.95, &e), 0);
  TK_EQ(e.method, TK_METHOD_PAIRED_RANGE, "paired-range");
  NEAR(e.value, 0, 0);
  NEAR(e.lo, -0.43448246478317476, 1e-12);
  NEAR(e.hi, 0.43448246478317476, 1e-12);
  NEAR(e.p, 1, 0);
  double all[2] = {1, 1}, none[2] = {0, 0}, two[2] = {1, 1};
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_metric(all, two, none, two, 2, &rate, 0.95, &e), 0);
  TK_EQ(e.lo >= -1 && e.hi <= 1 && e.lo < e.hi, 1, "a rate difference within [-1, 1]");
  TK_EQ(e.method == TK_METHOD_PAIRED_RANGE && isnan(e.p), 1, "the same non-zero difference on "
        "every wall: no t-test, so no p-value beside a range interval that may hold 0");
}

/* The duplicate format with two candidates: a candidate's paired column against the baseline
 * holds the baseline copies it sat with, not every copy of the wall (which pools the copies at
 * the other candidate's tables); without tk_tally_duplicate, every copy. Two seats, two walls:
 * at candidate 1's tables the baseline scores 10, at candidate 2's 30. */
static void test_duplicate_baseline(void) {
  for (int dup = 0; dup < 2; dup++) {
    tk_tally t;
    CU_ASSERT_EQUAL_FATAL(tk_tally_init(&t, 3, 2, 2), 0);
    if (dup) CU_ASSERT_EQUAL_FATAL(tk_tally_duplicate(&t, 0), 0);
    for (int w = 0; w < 2; w++)
      for (int c = 1; c <= 2; c++)
        for (int seat = 0; seat < 2; seat++) { /* the candidate in each seat in turn */
          tk_unit_result r;
          memset(&r, 0, sizeof r);
          r.wall = (uint64_t)w;
          r.nseats = 2;
          r.agent[seat] = c;
          r.agent[1 - seat] = 0;
          r.q[seat][0] = r.q[1 - seat][0] = 1;
          r.q[seat][1] = c == 1 ? 20 : 5;
          r.q[1 - seat][1] = c == 1 ? 10 : 30;
          CU_ASSERT_EQUAL_FATAL(tk_tally_add(&t, &r), 0);
        }
    double num[2], den[2];
    TK_EQ(tk_tally_columns(&t, 0, 1, 1, 0, num, den), 2, "two walls");
    NEAR(num[0] / den[0], dup ? 10 : 20, 1e-12);  /* pooled: (10 + 10 + 30 + 30) / 4 */
    TK_EQ(tk_tally_columns(&t, 0, 2, 1, 0, num, den), 2, "two walls");
    NEAR(num[1] / den[1], dup ? 30 : 20, 1e-12);
    tk_tally_columns(&t, 1, 0, 1, 0, num, den); /* the candidate's own column is its own */
    NEAR(num[0] / den[0], 20, 1e-12);
    tk_tally_columns(&t, 0, -1, 1, 0, num, den); /* the baseline alone: every copy */
    NEAR(num[0] / den[0], 20, 1e-12);
    tk_tally_columns(&t, 1, 2, 1, 0, num, den); /* two candidates: their own results */
    NEAR(num[0] / den[0], 20, 1e-12);
    tk_tally_free(&t);
  }
}

/* The same five walls through a tally (the referee's path, harness/stats/tally.h): unit results
 * added out of wall order, agent b also with a wall that a did not play (skipped), and the
 * columns of a paired comparison give back the walls in common, aligned. */
static void test_paired_tally(void) {
  tk_tally t;
  CU_ASSERT_EQUAL_FATAL(tk_tally_init(&t, 2, 4, 6), 0);
  static const int order[6] = {4, 1, 5, 0, 3, 2};
  for (int k = 0; k < 6; k++) {
    int w = order[k];
    for (int a = 0; a < 2; a++) {
      tk_unit_result r;
      memset(&r, 0, sizeof r);
      r.unit = (uint64_t)(w * 2 + a);
      r.wall = (uint64_t)w;
      r.nseats = 1;
      r.agent[0] = a;
      r.skipped = w == 5 && a == 0; /* wall 5: only b has a game */
      r.q[0][0] = 1; /* games */
      r.q[0][1] = w < 5 ? (a ? WB : WA)[w] : 1;
      r.q[0][2] = w < 5 ? (a ? PB : PA)[w] : 48000;
      CU_ASSERT_EQUAL_FATAL(tk_tally_add(&t, &r), 0);
    }
  }
  double na[6], da[6], nb[6], db[6];
  size_t n = tk_tally_columns(&t, 0, 1, 2, 1, na, da);
  TK_EQ(tk_tally_columns(&t, 1, 0, 2, 1, nb, db), n, "both columns over the same walls");
  TK_EQ(n, 5, "walls in common");
  TK_EQ(tk_tally_columns(&t, 1, -1, 2, 1, nb, db), 6, "b alone: six walls");
  tk_tally_columns(&t, 1, 0, 2, 1, nb, db);
  tk_design d = {.lo = 0, .hi = 48000};
  tk_estimate e;
  CU_ASSERT_EQUAL_FATAL(tk_stats_paired_metric(na, da, nb, db, n, &d, 0.95, &e), 0);
  NEAR(e.value, 2916.666666666667, 1e-9);
  NEAR(e.lo, -1764.0595904517104, 1e-6);
  NEAR(e.p, 0.15867033160140198, 1e-9);
  tk_tally_free(&t);
}

int main(void) {
  tk_stats_init();
  CU_TestInfo tests[] = {
      {"wilson", test_wilson},
      {"clopper_pearson", test_clopper_pearson},
      {"mean_t", test_mean_t},
      {"ratio", test_ratio},
      {"paired", test_paired},
      {"metric: logit-t, log-t, t", test_metric_logit},
      {"metric: a small sample stays in range", test_metric_small},
      {"metric: no variation, one wall", test_metric_all_zero},
      {"metric: clustered rates (design effect), all zero, all one", test_metric_clustered_rate},
      {"metric: in range with width over random samples", test_metric_invariants},
      {"paired: known answer with real denominators; a mispairing shows", test_paired_known},
      {"paired: a difference of rates clipped to [-1, 1]", test_paired_clipped},
      {"paired: walls from a tally stay aligned", test_paired_tally},
      {"duplicate: a candidate against the copies it sat with", test_duplicate_baseline},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee stats", tests);
}
