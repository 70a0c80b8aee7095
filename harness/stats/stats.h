/* harness/stats/stats.h — confidence intervals and paired tests, with GSL's distributions.
 * Call tk_stats_init() once before use (turns GSL's aborting error handler off). Functions
 * return 0 or a negative TK_E code; estimates without data have value NAN and ci NAN. */
#ifndef TAIKAI_HARNESS_STATS_H
#define TAIKAI_HARNESS_STATS_H

#include <stddef.h>

typedef struct tk_estimate {
  double value;  /* point estimate */
  double lo, hi; /* confidence interval */
  double p;      /* two-sided p-value of "value = 0" (paired differences), else NAN */
  size_t n;      /* independent units (walls, or trials) behind it */
} tk_estimate;

void tk_stats_init(void);

/* Wilson score interval for k successes in n trials at level `conf`. */
int tk_stats_wilson(double k, double n, double conf, tk_estimate *out);
/* Clopper–Pearson (exact, beta quantiles) interval for k successes in n trials. */
int tk_stats_clopper_pearson(double k, double n, double conf, tk_estimate *out);

/* Ratio of sums over independent units i < n (the walls): R = sum(num) / sum(den), with a
 * Student-t interval (n - 1 degrees of freedom) from the linearised per-unit values
 * z_i = (num_i - R den_i) / mean(den). With den_i = 1 this is the t interval of a mean. */
int tk_stats_ratio(const double *num, const double *den, size_t n, double conf,
                   tk_estimate *out);

/* Paired difference R_a - R_b of two ratios measured on the same n units, with a Student-t
 * interval and the two-sided p-value from the per-unit differences of the linearised values. */
int tk_stats_paired_ratio(const double *num_a, const double *den_a, const double *num_b,
                          const double *den_b, size_t n, double conf, tk_estimate *out);

#endif
