/* tests/test_ratings.c — the Plackett–Luce fit (harness/stats/ratings.h) on known answers: the
 * log-likelihood of small games with and without ties, Bradley–Terry's closed form, the fixed
 * point of a duplicate-style game, the prior's root of a cubic, R BradleyTerry2's estimates on
 * Stigler's citations data; and simulated tournaments with
 * planted strengths, whose 90 % intervals must cover the planted values at a rate near 90 % over
 * 200 seeded tournaments whose games on one wall are dependent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "ratings.h"
#include "unit.h"

#define NEAR(x, want, tol, what)                                                            \
  do {                                                                                      \
    double x_ = (x), w_ = (want);                                                           \
    if (!(fabs(x_ - w_) <= (tol))) TK_FAILF("%s: %.12g, expected %.12g", (what), x_, w_);   \
    else CU_PASS(what);                                                                     \
  } while (0)

static const tk_pl_opts MLE = {.prior = 0, .tol = 1e-12};

/* Log-likelihoods at equal strengths, by hand: A > B > C is (1/3)(1/2); {A,B} tied > C is
 * (1/3)^2 under Breslow; a draw of two seats, and the last place, choose nothing. */
static void test_loglik(void) {
  tk_pl *d = tk_pl_new(3);
  double th[3] = {0, 0, 0};
  int abc[3] = {0, 1, 2};
  unsigned char tie_ab[2] = {1, 0}, tie_all[2] = {1, 1};
  TK_EQ(tk_pl_add(d, abc, NULL, 3, 0), 0, "add");
  NEAR(tk_pl_loglik(d, th), -log(6), 1e-12, "A > B > C at equal strengths");
  tk_pl_free(d);
  d = tk_pl_new(3);
  tk_pl_add(d, abc, tie_ab, 3, 0);
  NEAR(tk_pl_loglik(d, th), -log(9), 1e-12, "{A,B} tied > C");
  tk_pl_add(d, abc, tie_all, 3, 1);
  tk_pl_add(d, abc, tie_ab, 2, 2);
  NEAR(tk_pl_loglik(d, th), -log(9), 1e-12, "a game all tied and a draw add nothing");
  /* strengths 2, 1, 1: A > B > C is (2/4)(1/2) */
  double th2[3] = {log(2), 0, 0};
  tk_pl_free(d);
  d = tk_pl_new(3);
  tk_pl_add(d, abc, NULL, 3, 0);
  NEAR(tk_pl_loglik(d, th2), log(0.25), 1e-12, "A > B > C at strengths 2, 1, 1");
  TK_EQ(tk_pl_agent_games(d, 0), 1, "games of A");
  int bad[2] = {0, 3};
  TK_EQ(tk_pl_add(d, bad, NULL, 2, 0), TK_EINVAL, "an agent out of range");
  tk_pl_free(d);
}

/* Bradley–Terry: A ahead of B 3 times, B ahead once: the MLE ratio is 3. A draw (a tie of both
 * seats) changes nothing. */
static void test_bradley_terry(void) {
  tk_pl *d = tk_pl_new(2);
  int ab[2] = {0, 1}, ba[2] = {1, 0};
  unsigned char tie[1] = {1};
  for (int i = 0; i < 3; i++) tk_pl_add(d, ab, NULL, 2, (uint64_t)i);
  tk_pl_add(d, ba, NULL, 2, 3);
  tk_pl_add(d, ab, tie, 2, 4);
  double th[2];
  int it = 0;
  tk_error e;
  tk_error_clear(&e);
  TK_EQ(tk_pl_fit(d, &MLE, th, &it, &e), 0, e.msg);
  NEAR(th[0] - th[1], log(3), 1e-9, "log(3)");
  NEAR(th[0] + th[1], 0, 1e-12, "centred on the mean");
  TK_EQ(tk_pl_games(d), 5, "games");
  TK_EQ(tk_pl_clusters(d), 5, "clusters");
  /* A ahead of B 3 times and never behind: no maximum-likelihood estimate */
  tk_pl_free(d);
  d = tk_pl_new(2);
  for (int i = 0; i < 3; i++) tk_pl_add(d, ab, NULL, 2, (uint64_t)i);
  TK_EQ(tk_pl_fit(d, &MLE, th, &it, &e), TK_ERANGE, "never behind");
  if (!strstr(e.msg, "agent 0 is never behind")) TK_FAILF("message: %s", e.msg);
  /* with the prior of 2 virtual games against strength 1: by symmetry g_B = 1/g_A, and
   * g_A = x solves 4 = 3x^2/(x^2+1) + 2x/(x+1), i.e. x^3 - x^2 - 2x - 4 = 0: x = 2.4675038570565 */
  tk_pl_opts pr = {.prior = 2, .tol = 1e-12};
  TK_EQ(tk_pl_fit(d, &pr, th, &it, &e), 0, e.msg);
  NEAR(th[0], log(2.4675038570565184), 1e-8, "the prior's root");
  NEAR(th[1], -log(2.4675038570565184), 1e-8, "and its inverse");
  tk_pl_free(d);
}

/* A reference implementation on a public data set: Stigler's (1994) citations among four
 * statistics journals, as shipped in R's BradleyTerry2 (data `citations`: row i, column j = the
 * times journal j cited journal i, a win of i over j). BradleyTerry2 1.1-2 (Debian
 * r-cran-bradleyterry2) gives, with Biometrika at 0:
 *   cd <- countsToBinomial(citations); m <- BTm(cbind(win1, win2), player1, player2, ~ journal,
 *     id = "journal", data = cd, control = glm.control(epsilon = 1e-14, maxit = 200));
 *   BTabilities(m): Comm Statist -2.949072496844, JASA -0.479569769752, JRSS-B 0.268954055819 */
static void test_citations(void) {
  static const int cites[4][4] = {{714, 730, 498, 221}, /* Biometrika (cited) */
                                  {33, 425, 68, 17},    /* Comm Statist */
                                  {320, 813, 1072, 142}, /* JASA */
                                  {284, 276, 325, 188}}; /* JRSS-B */
  static const double want[4] = {0, -2.949072496844, -0.479569769752, 0.268954055819};
  tk_pl *d = tk_pl_new(4);
  uint64_t game = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; i != j && k < cites[i][j]; k++) {
        int order[2] = {i, j};
        tk_pl_add(d, order, NULL, 2, game++);
      }
  double th[4];
  tk_error e;
  tk_error_clear(&e);
  TK_EQ(tk_pl_fit(d, &MLE, th, NULL, &e), 0, e.msg);
  for (int j = 1; j < 4; j++) {
    char what[64];
    snprintf(what, sizeof what, "journal %d against Biometrika", j);
    NEAR(th[j] - th[0], want[j], 1e-8, what);
  }
  tk_pl_free(d);
}

/* One A against three copies of B (a duplicate riichi index), A once in each place: the score
 * of A is 3 - (1/4 + 7/12 + 13/12 + 13/12) = 0 at equal strengths, so the MLE is equal. A in
 * first place twice more: A's strength is above B's. */
static void test_duplicate_fixed_point(void) {
  tk_pl *d = tk_pl_new(2);
  for (int place = 0; place < 4; place++) {
    int seat[4] = {1, 1, 1, 1};
    seat[place] = 0;
    tk_pl_add(d, seat, NULL, 4, 7);
  }
  TK_EQ(tk_pl_clusters(d), 1, "one wall");
  double th[2];
  tk_error e;
  tk_error_clear(&e);
  TK_EQ(tk_pl_fit(d, &MLE, th, NULL, &e), 0, e.msg);
  NEAR(th[0] - th[1], 0, 1e-9, "uniform places: equal strengths");
  int first[4] = {0, 1, 1, 1};
  tk_pl_add(d, first, NULL, 4, 8);
  tk_pl_add(d, first, NULL, 4, 8);
  TK_EQ(tk_pl_fit(d, &MLE, th, NULL, &e), 0, e.msg);
  if (!(th[0] > th[1])) TK_FAILF("A first more often: %g vs %g", th[0], th[1]);
  TK_EQ(tk_pl_agent_games(d, 1), 6, "B counted once per game, not per seat");
  tk_pl_free(d);
}

/* The MM fixed point is the maximum: the likelihood at the fit is above it at nearby points. */
static void test_maximum(void) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 5);
  tk_pl *d = tk_pl_new(5);
  for (int g = 0; g < 300; g++) {
    int seat[4];
    for (int k = 0; k < 4; k++) seat[k] = (int)gsl_rng_uniform_int(rng, 5);
    unsigned char tie[3] = {gsl_rng_uniform(rng) < 0.2, 0, gsl_rng_uniform(rng) < 0.2};
    tk_pl_add(d, seat, tie, 4, (uint64_t)g / 3);
  }
  double th[5], t2[5];
  tk_error e;
  tk_error_clear(&e);
  TK_EQ(tk_pl_fit(d, &MLE, th, NULL, &e), 0, e.msg);
  double best = tk_pl_loglik(d, th);
  for (int a = 0; a < 5; a++)
    for (int s = -1; s <= 1; s += 2) {
      memcpy(t2, th, sizeof th);
      t2[a] += s * 1e-3;
      if (!(tk_pl_loglik(d, t2) < best)) TK_FAILF("agent %d moved by %d e-3: not below", a, s);
    }
  CU_PASS("a maximum");
  gsl_rng_free(rng);
  tk_pl_free(d);
}

/* A Plackett–Luce order of `n` seats of strengths g (agents `ag`), best first, into `out`. */
static void sample_pl(gsl_rng *rng, const double *g, const int *ag, int n, int *out) {
  int left[8];
  memcpy(left, ag, (size_t)n * sizeof *ag);
  for (int k = 0; k < n; k++) {
    double tot = 0;
    for (int j = k; j < n; j++) tot += g[left[j]];
    double u = gsl_rng_uniform(rng) * tot;
    int pick = n - 1;
    for (int j = k; j < n; j++) {
      u -= g[left[j]];
      if (u < 0) {
        pick = j;
        break;
      }
    }
    int t = left[k];
    left[k] = left[pick];
    left[pick] = t;
    out[k] = left[k];
  }
}

/* 200 tournaments of 4 agents with planted log-strengths -0.6, -0.2, 0.2, 0.6, 60 walls of 4
 * four-seat games each; the games of a wall are dependent (each after the first repeats the
 * wall's first order with probability 0.5, which keeps every game's distribution
 * Plackett–Luce). Each agent's 90 % interval (300 resamples of walls, the default prior) must
 * cover the planted value (centred on the mean) 80–97 % of the time; resampling games instead
 * of walls would cover too rarely. */
static void test_coverage(void) {
  enum { SIMS = 200, WALLS = 60, M = 4, RES = 300 };
  const double planted[M] = {-0.6, -0.2, 0.2, 0.6};
  double g[M];
  for (int a = 0; a < M; a++) g[a] = exp(planted[a]);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 20261127);
  double *rs = malloc(RES * M * sizeof *rs), col[RES];
  int covered = 0, total = 0;
  double bias[M] = {0};
  tk_pl_opts o = {.prior = 2};
  for (int sim = 0; sim < SIMS; sim++) {
    tk_pl *d = tk_pl_new(M);
    for (int w = 0; w < WALLS; w++) {
      int seats[M] = {0, 1, 2, 3}, first[M], order[M];
      sample_pl(rng, g, seats, M, first);
      tk_pl_add(d, first, NULL, M, (uint64_t)w);
      for (int k = 1; k < 4; k++) {
        if (gsl_rng_uniform(rng) < 0.5) memcpy(order, first, sizeof order);
        else sample_pl(rng, g, seats, M, order);
        tk_pl_add(d, order, NULL, M, (uint64_t)w);
      }
    }
    double th[M];
    tk_error e;
    tk_error_clear(&e);
    if (tk_pl_fit(d, &o, th, NULL, &e) ||
        tk_pl_resample(d, &o, th, RES, 1000 + (uint64_t)sim, rs, &e)) {
      TK_FAILF("simulation %d: %s", sim, e.msg);
      tk_pl_free(d);
      break;
    }
    for (int a = 0; a < M; a++) {
      for (int r = 0; r < RES; r++) col[r] = rs[r * M + a];
      gsl_sort(col, 1, RES);
      double lo = gsl_stats_quantile_from_sorted_data(col, 1, RES, 0.05);
      double hi = gsl_stats_quantile_from_sorted_data(col, 1, RES, 0.95);
      covered += lo <= planted[a] && planted[a] <= hi;
      total++;
      bias[a] += (th[a] - planted[a]) / SIMS;
    }
    tk_pl_free(d);
  }
  double cov = (double)covered / total;
  printf("\n  coverage of 90 %% intervals: %d of %d = %.3f; mean error", covered, total, cov);
  for (int a = 0; a < M; a++) printf(" %+.3f", bias[a]);
  printf("\n");
  if (!(cov >= 0.80 && cov <= 0.97)) TK_FAILF("coverage %.3f outside [0.80, 0.97]", cov);
  else CU_PASS("coverage");
  for (int a = 0; a < M; a++)
    if (fabs(bias[a]) > 0.05) TK_FAILF("agent %d: mean error %+.3f", a, bias[a]);
  free(rs);
  gsl_rng_free(rng);
}

/* The same seed gives the same resamples; another seed others. */
static void test_seeded(void) {
  tk_pl *d = tk_pl_new(3);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 9);
  double g[3] = {1, 2, 3};
  int seats[3] = {0, 1, 2}, order[3];
  for (int k = 0; k < 90; k++) {
    sample_pl(rng, g, seats, 3, order);
    tk_pl_add(d, order, NULL, 3, (uint64_t)k / 3);
  }
  double th[3], a[30], b[30], c[30];
  tk_pl_opts o = {.prior = 2};
  tk_pl_fit(d, &o, th, NULL, NULL);
  tk_pl_resample(d, &o, th, 10, 42, a, NULL);
  tk_pl_resample(d, &o, th, 10, 42, b, NULL);
  tk_pl_resample(d, &o, th, 10, 43, c, NULL);
  TK_EQ(memcmp(a, b, sizeof a), 0, "seed 42 twice");
  TK_EQ(memcmp(a, c, sizeof a) != 0, 1, "seeds 42 and 43");
  gsl_rng_free(rng);
  tk_pl_free(d);
}

int main(void) {
  gsl_set_error_handler_off();
  CU_TestInfo tests[] = {
      {"log-likelihood by hand, ties", test_loglik},
      {"Bradley-Terry closed form, draws, prior", test_bradley_terry},
      {"duplicate game fixed point", test_duplicate_fixed_point},
      {"Stigler's citations: BradleyTerry2's estimates", test_citations},
      {"the fit is a maximum", test_maximum},
      {"coverage over 200 planted tournaments", test_coverage},
      {"seeded resamples", test_seeded},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("ratings", tests);
}
