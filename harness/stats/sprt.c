/* harness/stats/sprt.c — the sequential probability ratio test on per-wall paired differences
 * (sprt.h). */
#include "sprt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int tk_sprt_check(const tk_sprt_params *p, char *why, size_t cap) {
  if (!(p->d0 < p->d1)) {
    snprintf(why, cap, "the bounds must satisfy d0 < d1 (got %g, %g)", p->d0, p->d1);
    return -1;
  }
  if (!(p->alpha > 0 && p->alpha <= 0.5) || !(p->beta > 0 && p->beta <= 0.5)) {
    snprintf(why, cap, "alpha and beta must lie in (0, 0.5] (got %g, %g)", p->alpha, p->beta);
    return -1;
  }
  if (!(p->confidence > 0 && p->confidence < 1)) {
    snprintf(why, cap, "the confidence level must lie in (0, 1) (got %g)", p->confidence);
    return -1;
  }
  if (!p->max_walls) {
    snprintf(why, cap, "the cap on walls must be at least 1");
    return -1;
  }
  if (p->min_walls < 2) {
    snprintf(why, cap, "the minimum number of walls before a decision must be at least 2 (got "
             "%zu)", p->min_walls);
    return -1;
  }
  return 0;
}

void tk_sprt_bounds(double alpha, double beta, double *lower, double *upper) {
  *lower = log(beta / (1 - alpha));
  *upper = log((1 - beta) / alpha);
}

/* The mixture scale of tk_sprt_interval, in units of s²: tightest near the cap. */
static double mixture_scale(const tk_sprt_params *p) {
  double l = 2 * log(2 / (1 - p->confidence));
  return (double)p->max_walls / (l + log(1 + l));
}

void tk_sprt_interval(const tk_sprt_params *p, size_t n, double m, double s, double *lo,
                      double *hi) {
  if (n < 2 || !isfinite(s)) {
    *lo = -INFINITY;
    *hi = INFINITY;
    return;
  }
  double k = mixture_scale(p), nn = (double)n;
  double l = 2 * log(2 / (1 - p->confidence));
  double half = s * sqrt((nn + k) * (l + log((nn + k) / k))) / nn;
  *lo = m - half;
  *hi = m + half;
}

void tk_sprt_eval(const tk_sprt_params *p, const double *x, size_t n, tk_sprt_look *out) {
  out->n = n;
  out->mean = out->sd = 0;
  out->llr = 0;
  out->decision = TK_SPRT_NONE;
  tk_sprt_bounds(p->alpha, p->beta, &out->lower, &out->upper);
  out->lo = -INFINITY;
  out->hi = INFINITY;
  if (!n) return;
  /* two-pass mean and variance: per-wall differences may be large (points) and close together */
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += x[i];
  double mean = sum / (double)n, ss = 0;
  for (size_t i = 0; i < n; i++) ss += (x[i] - mean) * (x[i] - mean);
  double var = ss / (double)n, sd = sqrt(var);
  out->mean = mean;
  out->sd = sd;
  if (n < 2) return;
  tk_sprt_interval(p, n, mean, sd, &out->lo, &out->hi);
  double nn = (double)n;
  if (p->normalised) {
    if (sd > 0) {
      double t = mean / sd;
      out->llr = nn * ((t - p->d0) * (t - p->d0) - (t - p->d1) * (t - p->d1)) / 2;
    } else if (mean != 0) {
      /* no spread and a difference: the effect size is infinite, on the difference's side */
      out->llr = mean > 0 ? INFINITY : -INFINITY;
    } else {
      /* no spread and no difference (identical deterministic agents): the effect size is 0 */
      out->llr = nn * (p->d0 * p->d0 - p->d1 * p->d1) / 2;
    }
  } else if (sd > 0) {
    out->llr = nn * ((mean - p->d0) * (mean - p->d0) - (mean - p->d1) * (mean - p->d1)) /
               (2 * var);
  } else {
    /* no spread: every wall says the same; the side of the midpoint decides */
    double mid = (p->d0 + p->d1) / 2;
    out->llr = mean > mid ? INFINITY : mean < mid ? -INFINITY : 0;
  }
  if (n < p->min_walls) return;
  if (out->llr >= out->upper) out->decision = TK_SPRT_H1;
  else if (out->llr <= out->lower) out->decision = TK_SPRT_H0;
}

double tk_sprt_expected_walls(const tk_sprt_params *p, int h) {
  double lower, upper;
  tk_sprt_bounds(p->alpha, p->beta, &lower, &upper);
  double ez = (p->d1 - p->d0) * (p->d1 - p->d0) / 2; /* |E[z]| under either hypothesis, σ = 1 */
  if (h) return (p->beta * lower + (1 - p->beta) * upper) / ez;
  return ((1 - p->alpha) * lower + p->alpha * upper) / -ez;
}

static const char stop_prefix[] = "sequential test: ";

void tk_sprt_stop_text(const tk_sprt_look *l, char *buf, size_t cap) {
  snprintf(buf, cap, "%s%s accepted after %zu walls (LLR %+.3f, bounds %.3f, %.3f)", stop_prefix,
           l->decision == TK_SPRT_H1 ? "H1" : "H0", l->n, l->llr, l->lower, l->upper);
}

int tk_sprt_stop_parse(const char *stopped, int *decision, unsigned long long *walls) {
  size_t k = sizeof stop_prefix - 1;
  if (!stopped || strncmp(stopped, stop_prefix, k)) return 0;
  char h[3];
  unsigned long long n;
  if (sscanf(stopped + k, "%2[H01] accepted after %llu walls", h, &n) != 2) return 0;
  if (strcmp(h, "H1") && strcmp(h, "H0")) return 0;
  *decision = h[1] == '1' ? TK_SPRT_H1 : TK_SPRT_H0;
  *walls = n;
  return 1;
}

int tk_sprt_stop_describe(const char *stopped, unsigned long long max_walls, char *buf,
                          size_t cap) {
  int decision;
  unsigned long long walls;
  if (!tk_sprt_stop_parse(stopped, &decision, &walls)) return 0;
  snprintf(buf, cap, "stopped by the sequential test after %llu of %llu walls (%s accepted)", walls,
           max_walls, decision == TK_SPRT_H1 ? "H1" : "H0");
  return 1;
}
