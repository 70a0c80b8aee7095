/* harness/stats/sprt.h — the sequential probability ratio test that `taikai gate` runs on paired
 * walls, as a pure function of the per-wall differences seen so far.
 *
 * Data: x_1 … x_n, the per-wall paired differences candidate − baseline of one metric (every
 * wall is an independent unit: the candidate and the baseline played the same deals).
 * Hypotheses on their mean μ: H0 μ = μ0 against H1 μ = μ1 (μ0 < μ1), with
 *  - raw bounds: μ0 = d0 and μ1 = d1 in the metric's units;
 *  - normalised bounds (the default, as chess engine testing normalises its Elo bounds):
 *    μ0 = d0·σ and μ1 = d1·σ, σ the standard deviation of the per-wall difference, so d0 and d1
 *    are effect sizes ("the candidate is d standard deviations of one wall better").
 * The log-likelihood ratio is the generalised SPRT's normal one with σ² estimated by the sample
 * variance s² (maximum likelihood, divisor n):
 *     LLR = n·[(x̄ − μ0)² − (x̄ − μ1)²] / (2 s²)
 * which for normalised bounds is n·[(t − d0)² − (t − d1)²] / 2 with t = x̄ / s. Wald's bounds:
 * accept H1 when LLR ≥ ln((1 − β) / α), accept H0 when LLR ≤ ln(β / (1 − α)) (±2.944 at
 * α = β = 0.05). */
#ifndef TAIKAI_HARNESS_SPRT_H
#define TAIKAI_HARNESS_SPRT_H

#include <stddef.h>

typedef struct tk_sprt_params {
  double d0, d1;     /* the hypotheses, d0 < d1 (raw units, or standard deviations) */
  int normalised;    /* 1: d0, d1 in standard deviations of the per-wall difference */
  double alpha;      /* P(accept H1 | H0) */
  double beta;       /* P(accept H0 | H1) */
  double confidence; /* level of the reported interval (0.95) */
  size_t max_walls;  /* the cap, fixed before the test: tunes the interval (tk_sprt_interval) */
  size_t min_walls;  /* no decision on fewer walls (default 20): the plug-in variance of a few
                      * walls is too often small, and early looks then cross a bound by chance
                      * (measured in tests/referee/test_ref_sprt.c: with a look at every wall
                      * from the second, the error rates were 0.09 and 0.08 for a nominal 0.05) */
} tk_sprt_params;

enum { TK_SPRT_NONE = 0, TK_SPRT_H1 = 1, TK_SPRT_H0 = -1 };

typedef struct tk_sprt_look {
  size_t n;             /* walls */
  double mean, sd;      /* of the per-wall differences (sd: divisor n) */
  double llr;           /* 0 when it cannot be computed (n < 2, or s = 0 with normalised bounds) */
  double lower, upper;  /* Wald's bounds */
  int decision;         /* TK_SPRT_* */
  double lo, hi;        /* the anytime-valid interval of the mean (tk_sprt_interval) */
} tk_sprt_look;

/* Returns 0, or -1 with `why` filled when the parameters are unusable (d0 >= d1, alpha or beta
 * outside (0, 0.5], confidence outside (0, 1), max_walls 0, min_walls below 2). */
int tk_sprt_check(const tk_sprt_params *p, char *why, size_t cap);

/* Wald's bounds of the LLR. */
void tk_sprt_bounds(double alpha, double beta, double *lower, double *upper);

/* Evaluates the test on x[0..n). With s = 0 (every wall gave the same difference): raw bounds
 * decide by the side of (μ0 + μ1) / 2 the common value lies on; normalised bounds cannot
 * normalise and give no decision (LLR 0). */
void tk_sprt_eval(const tk_sprt_params *p, const double *x, size_t n, tk_sprt_look *out);

/* The interval of the mean after n walls with mean m and standard deviation s that holds at the
 * stated confidence simultaneously for every n, so it stays valid whatever the stopping rule
 * (a confidence sequence: Robbins' normal mixture, as in Howard, Ramdas, McAuliffe and Sekhon,
 * "Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Statist. 2021, with the
 * sample standard deviation in place of σ). Half-width
 *     s·sqrt((n + k)·(2 ln(2 / a) + ln((n + k) / k))) / n,   a = 1 − confidence,
 * with the mixture's scale k = max_walls / (2 ln(2 / a) + ln(1 + 2 ln(2 / a))), which makes it
 * tightest near the cap (chosen before the data, as the method requires). */
void tk_sprt_interval(const tk_sprt_params *p, size_t n, double m, double s, double *lo,
                      double *hi);

/* JSON has no infinity: gate.json stores an infinite LLR as ±TK_SPRT_LLR_INF, and its readers
 * take any |LLR| at or beyond it as infinite. */
#define TK_SPRT_LLR_INF 1e300

/* The reason a run stopped by the test's decision records (summary.json's "stopped"), for the
 * look `l` whose decision is not TK_SPRT_NONE: "sequential test: H1 accepted after N walls (LLR
 * +x, bounds l, u)", into buf (at most cap bytes). tk_sprt_stop_parse is its one reader. */
void tk_sprt_stop_text(const tk_sprt_look *l, char *buf, size_t cap);

/* Whether `stopped` (summary.json's "stopped"; NULL: no) is the test's decision as
 * tk_sprt_stop_text writes it: 1 with *decision (TK_SPRT_H1 or TK_SPRT_H0) and *walls (the walls
 * it was decided on), else 0 (a fault policy, a signal, anything else). */
int tk_sprt_stop_parse(const char *stopped, int *decision, unsigned long long *walls);

/* For a run the test stopped (`stopped` as tk_sprt_stop_parse accepts), writes "stopped by the
 * sequential test after N of M walls (H1 accepted)" into buf, M being `max_walls` (the run's
 * cap), and returns 1; for any other stop returns 0 and writes nothing. Every report of a run
 * folder says it in these words, and none calls such a run incomplete: it played what the test
 * needed. */
int tk_sprt_stop_describe(const char *stopped, unsigned long long max_walls, char *buf,
                          size_t cap);

/* Wald's approximations of the expected number of walls when the true mean is μ0 (h = 0) or
 * μ1 (h = 1), for normalised bounds (unit σ): E[N] = (P(H0)·ln B0 + P(H1)·ln B1) / E[z] with
 * z the per-wall LLR increment. The operating characteristics' theory, for comparison. */
double tk_sprt_expected_walls(const tk_sprt_params *p, int h);

#endif
