/* tests/referee/test_ref_sprt.c — the sequential test of `taikai gate` (harness/stats/sprt.h):
 * the LLR and bounds against hand-computed values, and the operating characteristics measured by
 * simulation: thousands of tests on synthetic per-wall differences with a known mean and spread,
 * whose error rates must lie within a stated tolerance of alpha and beta and whose mean number of
 * walls is compared with Wald's approximation. The simulation prints its measurements (they are
 * the figures docs/referee.md quotes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sprt.h"
#include "taikai/rng.h"
#include "unit.h"

#define NEAR(x, want, tol)                                                               \
  do {                                                                                   \
    double x_ = (x), w_ = (want);                                                        \
    if (!(fabs(x_ - w_) <= (tol))) TK_FAILF("%s = %.12g, expected %.12g", #x, x_, w_);   \
    else CU_PASS(#x);                                                                    \
  } while (0)

static tk_sprt_params params(double d0, double d1, int normalised) {
  tk_sprt_params p = {d0, d1, normalised, 0.05, 0.05, 0.95, 100000, 2};
  return p;
}

static void test_bounds_and_llr(void) {
  double lo, hi;
  tk_sprt_bounds(0.05, 0.05, &lo, &hi);
  NEAR(lo, -2.944438979166440, 1e-12); /* ln(0.05 / 0.95) */
  NEAR(hi, 2.944438979166440, 1e-12);
  tk_sprt_bounds(0.05, 0.10, &lo, &hi);
  NEAR(lo, log(0.10 / 0.95), 1e-15);
  NEAR(hi, log(0.90 / 0.05), 1e-15);

  /* x = 1, 2, 3, 4: mean 2.5, variance (divisor n) 1.25. Raw bounds 0 and 1:
   * LLR = 4 [(2.5 - 0)^2 - (2.5 - 1)^2] / (2 * 1.25) = 4 * (6.25 - 2.25) / 2.5 = 6.4 */
  double x[] = {1, 2, 3, 4};
  tk_sprt_params p = params(0, 1, 0);
  tk_sprt_look l;
  tk_sprt_eval(&p, x, 4, &l);
  NEAR(l.mean, 2.5, 1e-15);
  NEAR(l.sd, sqrt(1.25), 1e-15);
  NEAR(l.llr, 6.4, 1e-12);
  TK_EQ(l.decision, TK_SPRT_H1, "LLR 6.4 above 2.944");
  /* normalised bounds -0.1, 0.1: t = 2.5 / sqrt(1.25) = 2.2360679775;
   * LLR = 4 [(t + 0.1)^2 - (t - 0.1)^2] / 2 = 4 * 0.4 t / 2 = 0.8 t = 1.788854382 */
  p = params(-0.1, 0.1, 1);
  tk_sprt_eval(&p, x, 4, &l);
  NEAR(l.llr, 0.8 * 2.5 / sqrt(1.25), 1e-12);
  TK_EQ(l.decision, TK_SPRT_NONE, "LLR 1.79 inside the bounds");
  /* the mirror image accepts H0 */
  double y[] = {-1, -2, -3, -4};
  p = params(0, 1, 0);
  tk_sprt_eval(&p, y, 4, &l);
  NEAR(l.llr, 4 * (6.25 - 12.25) / 2.5, 1e-12);
  TK_EQ(l.decision, TK_SPRT_H0, "LLR -9.6 below -2.944");
}

static void test_degenerate(void) {
  /* every wall gives the same difference: with raw bounds 0 and 1 the side of the midpoint 0.5
   * decides, exactly at it nothing does */
  tk_sprt_look l;
  tk_sprt_params p = params(0, 1, 0);
  double above[] = {0.75, 0.75, 0.75}, below[] = {0.25, 0.25, 0.25}, mid[] = {0.5, 0.5};
  tk_sprt_eval(&p, above, 3, &l);
  TK_EQ(l.decision, TK_SPRT_H1, "no spread above the midpoint");
  tk_sprt_eval(&p, below, 3, &l);
  TK_EQ(l.decision, TK_SPRT_H0, "no spread below the midpoint");
  tk_sprt_eval(&p, mid, 2, &l);
  TK_EQ(l.decision, TK_SPRT_NONE, "no spread at the midpoint");
  /* normalised bounds: a constant nonzero difference is an infinite effect size on its side;
   * a constant zero (identical deterministic agents) is an effect size of exactly 0 */
  p = params(-0.1, 0.1, 1);
  tk_sprt_eval(&p, above, 3, &l);
  TK_EQ(l.decision, TK_SPRT_H1, "normalised, no spread, difference +0.75");
  double neg[] = {-2, -2, -2}, zero[600] = {0};
  tk_sprt_eval(&p, neg, 3, &l);
  TK_EQ(l.decision, TK_SPRT_H0, "normalised, no spread, difference -2");
  p = params(0, 0.1, 1);
  tk_sprt_eval(&p, zero, 588, &l);
  NEAR(l.llr, 588 * (0 - 0.01) / 2, 1e-12);
  TK_EQ(l.decision, TK_SPRT_NONE, "effect 0 against bounds 0, 0.1: LLR -2.94 not yet crossed");
  tk_sprt_eval(&p, zero, 590, &l);
  TK_EQ(l.decision, TK_SPRT_H0, "effect 0 against bounds 0, 0.1: H0 after 589 walls");
  p = params(-0.1, 0.05, 1);
  tk_sprt_eval(&p, zero, 600, &l);
  TK_EQ(l.decision, TK_SPRT_NONE, "non-regression bounds: effect 0 needs 786 walls");
  p = params(-0.1, 0.1, 1);
  tk_sprt_eval(&p, above, 1, &l);
  TK_EQ(l.decision, TK_SPRT_NONE, "one wall decides nothing");
  char why[128];
  p = params(0.1, 0.1, 1);
  CU_ASSERT(tk_sprt_check(&p, why, sizeof why) != 0);
  p = params(0, 0.1, 1);
  p.alpha = 0;
  CU_ASSERT(tk_sprt_check(&p, why, sizeof why) != 0);
  p = params(0, 0.1, 1);
  CU_ASSERT(tk_sprt_check(&p, why, sizeof why) == 0);
}

/* ---------------------------------------------------------------- simulation */

static double gauss(tk_rng *r) {
  double u = tk_rng_double(r), v = tk_rng_double(r);
  return sqrt(-2 * log(1 - u)) * cos(6.283185307179586 * v);
}

/* A skewed per-wall difference like a one-player points difference: mostly 0, sometimes a large
 * win for either side; mean shift mu added, standard deviation 1. The mixture: with probability
 * 0.2 a value ±(1 + exponential), else 0 (scaled to unit variance). */
static double skewed(tk_rng *r) {
  if (tk_rng_double(r) >= 0.2) return 0;
  double e = 1 - log(1 - tk_rng_double(r)); /* 1 + Exp(1): E = 2, E[x^2] = 5 */
  return (tk_rng_double(r) < 0.5 ? -e : e) / sqrt(0.2 * 5);
}

typedef struct oc {
  double p_h1, p_h0, mean_walls;
  int undecided;
} oc;

/* Runs `tests` sequential tests with true mean mu (in standard deviations), looking every
 * `batch` walls, up to `cap` walls each. */
static oc simulate(const tk_sprt_params *p, double mu, int shape, int tests, size_t batch,
                   size_t cap, uint64_t seed) {
  double *x = malloc(cap * sizeof *x);
  oc out = {0, 0, 0, 0};
  double walls = 0;
  int h1 = 0, h0 = 0;
  for (int t = 0; t < tests; t++) {
    tk_rng r;
    tk_rng_seed2(&r, seed, (uint64_t)t);
    size_t n = 0;
    int d = TK_SPRT_NONE;
    while (n < cap && d == TK_SPRT_NONE) {
      for (size_t k = 0; k < batch && n < cap; k++) x[n++] = mu + (shape ? skewed(&r) : gauss(&r));
      tk_sprt_look l;
      tk_sprt_eval(p, x, n, &l);
      d = l.decision;
    }
    walls += (double)n;
    h1 += d == TK_SPRT_H1;
    h0 += d == TK_SPRT_H0;
    out.undecided += d == TK_SPRT_NONE;
  }
  free(x);
  out.p_h1 = (double)h1 / tests;
  out.p_h0 = (double)h0 / tests;
  out.mean_walls = walls / tests;
  return out;
}

/* The tolerance on an error rate: the measured rate may lie below the nominal one (Wald's bounds
 * are conservative, and looks in batches overshoot less often into the wrong side), down to 0.4
 * times it, but not above it by more than 0.02 + 3 binomial standard errors: the generalised
 * test's plug-in variance makes the true error rates slightly larger than nominal at small
 * numbers of walls. */
static void check_rate(const char *what, double measured, double nominal, int tests) {
  double se = sqrt(nominal * (1 - nominal) / tests);
  if (measured < 0.4 * nominal) /* a test that almost never errs is spending walls for nothing */
    TK_FAILF("%s: measured error rate %.4f, far below the nominal %.3f", what, measured, nominal);
  else if (measured > nominal + 0.02 + 3 * se)
    TK_FAILF("%s: measured error rate %.4f, nominal %.3f (tolerance +%.4f)", what, measured,
             nominal, 0.02 + 3 * se);
  else
    CU_PASS(what);
}

static void test_operating_characteristics(void) {
  const int tests = 3000;
  struct { double d0, d1; size_t batch; int shape; const char *name; } cases[] = {
      {0.0, 0.2, 1, 0, "normal, bounds 0,0.2, a look every wall"},
      {0.0, 0.2, 10, 0, "normal, bounds 0,0.2, a look every 10 walls"},
      {-0.1, 0.05, 10, 0, "normal, non-regression bounds -0.1,0.05, looks every 10"},
      {0.0, 0.2, 10, 1, "skewed (80 % zeros), bounds 0,0.2, looks every 10"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    tk_sprt_params p = params(cases[c].d0, cases[c].d1, 1);
    p.min_walls = 20;
    oc at0 = simulate(&p, cases[c].d0, cases[c].shape, tests, cases[c].batch, 100000, 1000 + c);
    oc at1 = simulate(&p, cases[c].d1, cases[c].shape, tests, cases[c].batch, 100000, 2000 + c);
    printf("\n  %s: %d tests each\n"
           "    true mean d0: P(accept H1) %.4f (alpha 0.05), mean walls %.1f (Wald %.1f)\n"
           "    true mean d1: P(accept H0) %.4f (beta 0.05), mean walls %.1f (Wald %.1f)\n",
           cases[c].name, tests, at0.p_h1, at0.mean_walls, tk_sprt_expected_walls(&p, 0),
           at1.p_h0, at1.mean_walls, tk_sprt_expected_walls(&p, 1));
    TK_EQ(at0.undecided + at1.undecided, 0, cases[c].name);
    check_rate(cases[c].name, at0.p_h1, 0.05, tests);
    check_rate(cases[c].name, at1.p_h0, 0.05, tests);
    /* the mean number of walls is of Wald's order: within a factor 2 either way */
    double w0 = tk_sprt_expected_walls(&p, 0), w1 = tk_sprt_expected_walls(&p, 1);
    if (!(at0.mean_walls > w0 / 2 && at0.mean_walls < 2 * w0 + cases[c].batch))
      TK_FAILF("%s: mean walls at d0 %.1f, Wald %.1f", cases[c].name, at0.mean_walls, w0);
    if (!(at1.mean_walls > w1 / 2 && at1.mean_walls < 2 * w1 + cases[c].batch))
      TK_FAILF("%s: mean walls at d1 %.1f, Wald %.1f", cases[c].name, at1.mean_walls, w1);
  }
  /* power away from the hypotheses: a clearly weaker candidate fails almost always, a clearly
   * stronger one passes almost always (non-regression bounds) */
  tk_sprt_params p = params(-0.1, 0.05, 1);
  p.min_walls = 20;
  oc weak = simulate(&p, -0.3, 0, 1000, 10, 100000, 3000);
  oc strong = simulate(&p, 0.2, 0, 1000, 10, 100000, 4000);
  printf("  non-regression -0.1,0.05: at mean -0.3 P(H0) %.4f, mean walls %.1f; at +0.2 P(H1) "
         "%.4f, mean walls %.1f\n", weak.p_h0, weak.mean_walls, strong.p_h1, strong.mean_walls);
  CU_ASSERT(weak.p_h0 > 0.99);
  CU_ASSERT(strong.p_h1 > 0.99);
}

/* The anytime-valid interval covers the true mean at every look of a whole sequence in at least
 * the stated share of sequences (checked on 1,000 sequences of 2,000 walls, looks every 10). */
static void test_interval_coverage(void) {
  tk_sprt_params p = params(0, 0.2, 1);
  p.max_walls = 2000;
  int covered_always = 0, tests = 1000;
  double *x = malloc(2000 * sizeof *x);
  for (int t = 0; t < tests; t++) {
    tk_rng r;
    tk_rng_seed2(&r, 77, (uint64_t)t);
    int ok = 1;
    for (size_t n = 0; n < 2000;) {
      for (int k = 0; k < 10; k++) x[n++] = 0.3 + gauss(&r);
      tk_sprt_look l;
      tk_sprt_eval(&p, x, n, &l);
      if (n >= 20 && !(l.lo <= 0.3 && 0.3 <= l.hi)) ok = 0;
    }
    covered_always += ok;
  }
  free(x);
  printf("  anytime-valid 95%% interval: covered the mean at every look in %d of %d sequences\n",
         covered_always, tests);
  CU_ASSERT(covered_always >= 0.93 * tests);
  /* and it is wider than a fixed-n interval: at n = 2000, s = 1, half-width above 1.96/sqrt(n) */
  double lo, hi;
  tk_sprt_interval(&p, 2000, 0, 1, &lo, &hi);
  CU_ASSERT(hi > 1.96 / sqrt(2000.0));
  CU_ASSERT(hi < 4 * 1.96 / sqrt(2000.0));
}

int main(void) {
  CU_TestInfo tests[] = {
      {"bounds and LLR by hand", test_bounds_and_llr},
      {"degenerate data and bad parameters", test_degenerate},
      {"operating characteristics by simulation", test_operating_characteristics},
      {"anytime-valid interval coverage", test_interval_coverage},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("sprt", tests);
}
