/* harness/stats/stats.c — intervals with GSL's quantile functions (see stats.h for the methods
 * and their invariants). GSL's error handler is off: every quantile is checked for NaN/inf. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "stats.h"
#include "taikai/common.h"

void tk_stats_init(void) { gsl_set_error_handler_off(); }

static void none(tk_estimate *o, size_t n) {
  o->value = o->lo = o->hi = o->p = NAN;
  o->n = n;
  o->method = TK_METHOD_NONE;
}

static const char *const method_names[TK_METHOD_COUNT] = {
    [TK_METHOD_NONE] = "none",
    [TK_METHOD_WILSON] = "wilson",
    [TK_METHOD_CLOPPER_PEARSON] = "clopper-pearson",
    [TK_METHOD_WILSON_DEFF] = "wilson-deff",
    [TK_METHOD_CP_DEFF] = "clopper-pearson-deff",
    [TK_METHOD_T] = "t",
    [TK_METHOD_LOG_T] = "log-t",
    [TK_METHOD_LOGIT_T] = "logit-t",
    [TK_METHOD_RANGE] = "range-wilson",
    [TK_METHOD_PAIRED_T] = "paired-t",
    [TK_METHOD_PAIRED_RANGE] = "paired-range",
};

static const char *const method_texts[TK_METHOD_COUNT] = {
    [TK_METHOD_NONE] = "no interval: no data, or no variation between walls and no range to bound it",
    [TK_METHOD_WILSON] = "Wilson score interval; each wall is one trial",
    [TK_METHOD_CLOPPER_PEARSON] = "Clopper-Pearson (beta quantiles); each wall is one trial",
    [TK_METHOD_WILSON_DEFF] =
        "Wilson score interval at the effective number of trials: trials / design effect, the "
        "design effect being the variance of the ratio over walls (the independent unit) over "
        "the binomial variance, at least 1; a rate of 0 or 1 counts each wall as one trial",
    [TK_METHOD_CP_DEFF] = "Clopper-Pearson at the effective number of trials (as wilson-deff)",
    [TK_METHOD_T] = "Student-t (walls - 1 df) of the per-wall linearised ratio "
                    "(num_w - R den_w) / mean(den); the metric has no range",
    [TK_METHOD_LOG_T] = "Student-t of the per-wall linearised ratio on log(R - lo) (one bound), "
                        "mapped back: never crosses the bound",
    [TK_METHOD_LOGIT_T] = "Student-t of the per-wall linearised ratio on logit((R - lo) / (hi - "
                          "lo)), mapped back: stays inside [lo, hi]",
    [TK_METHOD_RANGE] = "no variation between walls: (R - lo) / (hi - lo) as a rate with the walls "
                        "as trials (Wilson), mapped back to [lo, hi]",
    [TK_METHOD_PAIRED_T] = "Student-t (walls - 1 df) of the per-wall differences of the "
                           "linearised ratios, clipped to +-(hi - lo)",
    [TK_METHOD_PAIRED_RANGE] = "equal on every wall: +-(hi - lo) times the Wilson upper bound of "
                               "0 differing walls among the walls",
};

const char *tk_stats_method_name(int m) {
  return m >= 0 && m < TK_METHOD_COUNT ? method_names[m] : "?";
}

const char *tk_stats_method_text(int m) {
  return m >= 0 && m < TK_METHOD_COUNT ? method_texts[m] : "?";
}

int tk_stats_wilson(double k, double n, double conf, tk_estimate *out) {
  none(out, (size_t)n);
  if (!(n > 0) || k < 0 || k > n || !(conf > 0 && conf < 1)) return n == 0 ? 0 : TK_EINVAL;
  double z = gsl_cdf_ugaussian_Pinv(1 - (1 - conf) / 2);
  if (!isfinite(z)) return TK_ERANGE;
  double p = k / n, z2 = z * z;
  double denom = 1 + z2 / n;
  double centre = (p + z2 / (2 * n)) / denom;
  double half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom;
  out->value = p;
  out->lo = k == 0 ? 0 : fmax(0, centre - half);
  out->hi = k == n ? 1 : fmin(1, centre + half);
  out->method = TK_METHOD_WILSON;
  return 0;
}

int tk_stats_clopper_pearson(double k, double n, double conf, tk_estimate *out) {
  none(out, (size_t)n);
  if (!(n > 0) || k < 0 || k > n || !(conf > 0 && conf < 1)) return n == 0 ? 0 : TK_EINVAL;
  double a = (1 - conf) / 2;
  out->value = k / n;
  out->lo = k == 0 ? 0 : gsl_cdf_beta_Pinv(a, k, n - k + 1);
  out->hi = k == n ? 1 : gsl_cdf_beta_Pinv(1 - a, k + 1, n - k);
  if (!isfinite(out->lo) || !isfinite(out->hi)) return TK_ERANGE;
  out->method = TK_METHOD_CLOPPER_PEARSON;
  return 0;
}

/* Mean +- t * sd / sqrt(n) of z[0..n-1] around `centre`; p-value of centre = 0. */
static int t_interval(const double *z, size_t n, double centre, double conf, tk_estimate *out) {
  out->value = centre;
  out->n = n;
  if (n < 2) {
    out->lo = out->hi = out->p = NAN;
    return 0;
  }
  double mean = 0, ss = 0;
  for (size_t i = 0; i < n; i++) mean += z[i];
  mean /= (double)n;
  for (size_t i = 0; i < n; i++) ss += (z[i] - mean) * (z[i] - mean);
  double se = sqrt(ss / (double)(n - 1) / (double)n);
  double df = (double)(n - 1);
  double t = gsl_cdf_tdist_Pinv(1 - (1 - conf) / 2, df);
  if (!isfinite(t)) return TK_ERANGE;
  out->method = TK_METHOD_T;
  out->lo = centre - t * se;
  out->hi = centre + t * se;
  if (se > 0) {
    out->p = 2 * gsl_cdf_tdist_Q(fabs(centre) / se, df);
    if (!isfinite(out->p)) return TK_ERANGE;
  } else {
    out->p = centre == 0 ? 1 : 0;
  }
  return 0;
}

/* z_i = (num_i - R den_i) / mean(den) into z; returns R (NAN if sum(den) = 0). */
static double linearise(const double *num, const double *den, size_t n, double *z) {
  double sn = 0, sd = 0;
  for (size_t i = 0; i < n; i++) {
    sn += num[i];
    sd += den[i];
  }
  if (!(sd > 0)) return NAN;
  double r = sn / sd, mden = sd / (double)n;
  for (size_t i = 0; i < n; i++) z[i] = (num[i] - r * den[i]) / mden;
  return r;
}

int tk_stats_ratio(const double *num, const double *den, size_t n, double conf,
                   tk_estimate *out) {
  none(out, n);
  if (n == 0) return 0;
  double *z = malloc(n * sizeof *z);
  if (!z) return TK_ENOMEM;
  double r = linearise(num, den, n, z);
  int rc = 0;
  if (!isnan(r)) rc = t_interval(z, n, r, conf, out);
  out->p = NAN;
  free(z);
  return rc;
}

int tk_stats_paired_ratio(const double *num_a, const double *den_a, const double *num_b,
                          const double *den_b, size_t n, double conf, tk_estimate *out) {
  none(out, n);
  if (n == 0) return 0;
  double *za = malloc(n * sizeof *za), *zb = malloc(n * sizeof *zb);
  int rc = 0;
  if (!za || !zb) {
    rc = TK_ENOMEM;
    goto done;
  }
  double ra = linearise(num_a, den_a, n, za), rb = linearise(num_b, den_b, n, zb);
  if (isnan(ra) || isnan(rb)) goto done;
  for (size_t i = 0; i < n; i++) za[i] -= zb[i];
  rc = t_interval(za, n, ra - rb, conf, out);
done:
  free(za);
  free(zb);
  return rc;
}

/* ---- metrics with a range (see stats.h) */

/* Standard error of the mean of z[0..n-1] (n >= 2). */
static double se_mean(const double *z, size_t n) {
  double mean = 0, ss = 0;
  for (size_t i = 0; i < n; i++) mean += z[i];
  mean /= (double)n;
  for (size_t i = 0; i < n; i++) ss += (z[i] - mean) * (z[i] - mean);
  return sqrt(ss / (double)(n - 1) / (double)n);
}

/* A binomial interval for k of n with the design's choice of method; `deff`: the clustered
 * variant's method name. */
static int binomial(double k, double n, const tk_design *d, double conf, int deff,
                    tk_estimate *out) {
  int rc = d->clopper_pearson ? tk_stats_clopper_pearson(k, n, conf, out)
                              : tk_stats_wilson(k, n, conf, out);
  if (!rc && deff) out->method = d->clopper_pearson ? TK_METHOD_CP_DEFF : TK_METHOD_WILSON_DEFF;
  return rc;
}

/* No variation between walls (or one wall): u = (r - lo) / (hi - lo) as a rate of `walls`
 * trials, mapped back; NAN without two bounds. */
static int range_interval(double r, double lo, double hi, double walls, double conf,
                          tk_estimate *out) {
  out->lo = out->hi = NAN;
  out->method = TK_METHOD_NONE;
  if (!isfinite(lo) || !isfinite(hi) || !(walls > 0)) return 0;
  double u = fmin(1, fmax(0, (r - lo) / (hi - lo)));
  tk_estimate w;
  int rc = tk_stats_wilson(u * walls, walls, conf, &w);
  if (rc) return rc;
  out->lo = lo + (hi - lo) * w.lo;
  out->hi = lo + (hi - lo) * w.hi;
  out->method = TK_METHOD_RANGE;
  return 0;
}

int tk_stats_metric(const double *num, const double *den, size_t n, const tk_design *d,
                    double conf, tk_estimate *out) {
  none(out, n);
  if (!(conf > 0 && conf < 1)) return TK_EINVAL;
  double sn = 0, sd = 0, walls = 0; /* walls: those with trials (den > 0) */
  for (size_t i = 0; i < n; i++) {
    sn += num[i];
    sd += den[i];
    walls += den[i] > 0;
  }
  if (!(sd > 0)) return 0;
  double lo = d->proportion ? 0 : d->lo, hi = d->proportion ? 1 : d->hi;
  double r = sn / sd;
  if (d->proportion && d->one_per_wall) return binomial(sn, sd, d, conf, 0, out);
  double *z = malloc(n * sizeof *z);
  if (!z) return TK_ENOMEM;
  linearise(num, den, n, z);
  double se = n >= 2 ? se_mean(z, n) : 0;
  free(z);
  int rc = 0;
  if (d->proportion) {
    double vbin = r * (1 - r) / sd, neff = walls; /* the worst case: a wall is one trial */
    if (se > 0 && vbin > 0) neff = sd / fmax(1, se * se / vbin);
    rc = binomial(r * neff, neff, d, conf, 1, out);
    out->value = r;
    out->n = n;
    return rc;
  }
  out->value = r;
  if (!(se > 0) || r <= lo || r >= hi) {
    rc = range_interval(r, lo, hi, walls, conf, out);
    return rc;
  }
  double t = gsl_cdf_tdist_Pinv(1 - (1 - conf) / 2, (double)(n - 1));
  if (!isfinite(t)) return TK_ERANGE;
  if (isfinite(lo) && isfinite(hi)) {
    double u = (r - lo) / (hi - lo), g = log(u / (1 - u));
    double h = t * se / (hi - lo) / (u * (1 - u));
    out->lo = lo + (hi - lo) / (1 + exp(-(g - h)));
    out->hi = lo + (hi - lo) / (1 + exp(-(g + h)));
    out->method = TK_METHOD_LOGIT_T;
  } else if (isfinite(lo)) {
    double h = t * se / (r - lo);
    out->lo = lo + (r - lo) * exp(-h);
    out->hi = lo + (r - lo) * exp(h);
    out->method = TK_METHOD_LOG_T;
  } else if (isfinite(hi)) {
    double h = t * se / (hi - r);
    out->lo = hi - (hi - r) * exp(h);
    out->hi = hi - (hi - r) * exp(-h);
    out->method = TK_METHOD_LOG_T;
  } else {
    out->lo = r - t * se;
    out->hi = r + t * se;
    out->method = TK_METHOD_T;
  }
  return 0;
}

int tk_stats_paired_metric(const double *num_a, const double *den_a, const double *num_b,
                           const double *den_b, size_t n, const tk_design *d, double conf,
                           tk_estimate *out) {
  int rc = tk_stats_paired_ratio(num_a, den_a, num_b, den_b, n, conf, out);
  if (rc || isnan(out->value)) return rc;
  double width = d->proportion ? 1 : d->hi - d->lo; /* INFINITY without two bounds */
  if (isfinite(out->lo) && out->hi > out->lo) {
    out->lo = fmax(out->lo, -width);
    out->hi = fmin(out->hi, width);
    out->method = TK_METHOD_PAIRED_T;
    return 0;
  }
  /* equal linearised values on every wall (or a single wall): no t-test; p stays 1 for a
   * difference of 0 and is undefined otherwise (the interval below is the evidence) */
  if (out->value != 0) out->p = NAN;
  out->lo = out->hi = NAN;
  out->method = TK_METHOD_NONE;
  if (!isfinite(width)) return 0;
  tk_estimate w;
  if ((rc = tk_stats_wilson(0, (double)n, conf, &w))) return rc;
  out->lo = fmax(out->value - width * w.hi, -width);
  out->hi = fmin(out->value + width * w.hi, width);
  out->method = TK_METHOD_PAIRED_RANGE;
  return 0;
}
