/* harness/stats/stats.h — confidence intervals and paired tests, with GSL's distributions.
 * Call tk_stats_init() once before use (turns GSL's aborting error handler off). Functions
 * return 0 or a negative TK_E code; estimates without data have value NAN and ci NAN.
 * Invariant of tk_stats_metric and tk_stats_paired_metric: an interval never leaves the metric's
 * range (for a difference: ±the range's width) and never has zero width on finite data when the
 * range gives it room; where no honest interval exists the ci is NAN, never a point. */
#ifndef TAIKAI_HARNESS_STATS_H
#define TAIKAI_HARNESS_STATS_H

#include <stddef.h>

/* How an interval was computed (tk_stats_method_name gives summary.json's name). */
typedef enum tk_method {
  TK_METHOD_NONE,            /* no interval: no data, or no variation and no range to bound it */
  TK_METHOD_WILSON,          /* binomial: one trial per wall */
  TK_METHOD_CLOPPER_PEARSON, /* binomial, exact */
  TK_METHOD_WILSON_DEFF,     /* clustered rate: Wilson at the effective n (design effect) */
  TK_METHOD_CP_DEFF,         /* clustered rate: Clopper–Pearson at the effective n */
  TK_METHOD_T,               /* Student-t of the per-wall linearised ratio (unbounded metric) */
  TK_METHOD_LOG_T,           /* the same on log(R - lo) (or log(hi - R)): one bound */
  TK_METHOD_LOGIT_T,         /* the same on logit((R - lo) / (hi - lo)): two bounds */
  TK_METHOD_RANGE,           /* no variation between walls: Wilson on the range, walls as trials */
  TK_METHOD_PAIRED_T,        /* Student-t of per-wall differences, within ±(hi - lo) */
  TK_METHOD_PAIRED_RANGE,    /* equal on every wall: ±(hi - lo) × Wilson bound of 0 of n walls */
  TK_METHOD_COUNT
} tk_method;

typedef struct tk_estimate {
  double value;  /* point estimate */
  double lo, hi; /* confidence interval */
  double p;      /* two-sided p-value of "value = 0" (paired differences), else NAN */
  size_t n;      /* independent units (walls, or trials) behind it */
  int method;    /* tk_method of the interval */
} tk_estimate;

/* What a metric is, for its interval. */
typedef struct tk_design {
  double lo, hi;       /* the metric's range; -INFINITY / INFINITY where unbounded */
  int proportion;      /* a rate: num_i <= den_i, range [0, 1] */
  int one_per_wall;    /* every wall gives one trial (den_i is 1): a binomial interval */
  int clopper_pearson; /* rates: Clopper–Pearson instead of Wilson */
} tk_design;

void tk_stats_init(void);
/* "wilson", "clopper-pearson", "wilson-deff", "clopper-pearson-deff", "t", "log-t", "logit-t",
 * "range-wilson", "paired-t", "paired-range", "none". */
const char *tk_stats_method_name(int method);
/* One sentence on a method (summary.json's legend). */
const char *tk_stats_method_text(int method);

/* Wilson score interval for k successes in n trials at level `conf`. */
int tk_stats_wilson(double k, double n, double conf, tk_estimate *out);
/* Clopper–Pearson (exact, beta quantiles) interval for k successes in n trials. */
int tk_stats_clopper_pearson(double k, double n, double conf, tk_estimate *out);

/* Ratio of sums over independent units i < n (the walls): R = sum(num) / sum(den), with a
 * Student-t interval (n - 1 degrees of freedom) from the linearised per-unit values
 * z_i = (num_i - R den_i) / mean(den). With den_i = 1 this is the t interval of a mean.
 * No range: prefer tk_stats_metric. */
int tk_stats_ratio(const double *num, const double *den, size_t n, double conf,
                   tk_estimate *out);

/* Paired difference R_a - R_b of two ratios measured on the same n units, with a Student-t
 * interval and the two-sided p-value from the per-unit differences of the linearised values. */
int tk_stats_paired_ratio(const double *num_a, const double *den_a, const double *num_b,
                          const double *den_b, size_t n, double conf, tk_estimate *out);

/* The estimate of a metric R = sum(num) / sum(den) over n walls with an interval inside the
 * design's range:
 *  - a rate with one trial per wall: Wilson (or Clopper–Pearson) on (sum num, sum den);
 *  - a rate with several trials per wall: the same at the effective number of trials
 *    n_eff = sum(den) / deff, deff = max(1, V_walls / V_binomial) with V_walls the variance of
 *    the linearised ratio over walls (tk_stats_ratio) and V_binomial = R(1 - R) / sum(den);
 *    when the data cannot estimate deff (R = 0 or 1, or one wall) the worst case: each wall
 *    with trials counts as one trial;
 *  - other ratios: the Student-t interval of the linearised ratio on a scale that respects the
 *    range (logit with two bounds, log with one, none without);
 *  - no variation between walls (every wall's ratio equal, e.g. all zero) or a single wall, with
 *    a bounded range: u = (R - lo) / (hi - lo) treated as a rate with the walls as trials
 *    (Wilson; a variable on [lo, hi] varies at most as a two-point one on its ends), mapped back;
 *    unbounded: no interval (NAN). */
int tk_stats_metric(const double *num, const double *den, size_t n, const tk_design *d,
                    double conf, tk_estimate *out);

/* Paired difference R_a - R_b on the same n walls (walls where either has den 0 still count
 * through the linearised values): Student-t over per-wall differences, clipped to
 * ±(hi - lo); equal linearised values on every wall with a bounded range: R_a - R_b ± (hi - lo)
 * times the Wilson upper bound of 0 differing walls in n, with p 1 for a difference of 0 and
 * NAN (no test) otherwise. */
int tk_stats_paired_metric(const double *num_a, const double *den_a, const double *num_b,
                           const double *den_b, size_t n, const tk_design *d, double conf,
                           tk_estimate *out);

#endif
