/* tests/referee/test_ref_stats.c — intervals and paired tests against known answers computed
 * independently (closed formulas evaluated with 30-digit arithmetic, see comments). */
#include <math.h>

#include "stats.h"
#include "unit.h"

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

int main(void) {
  tk_stats_init();
  CU_TestInfo tests[] = {
      {"wilson", test_wilson},
      {"clopper_pearson", test_clopper_pearson},
      {"mean_t", test_mean_t},
      {"ratio", test_ratio},
      {"paired", test_paired},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee stats", tests);
}
