/* harness/stats/stats.c — intervals with GSL's quantile functions (see stats.h). GSL's error handler
 * is off: every quantile is checked for NaN/inf instead. */
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
  out->lo = fmax(0, centre - half);
  out->hi = fmin(1, centre + half);
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
