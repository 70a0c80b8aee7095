/* plugins/riichi_opp/fit.c — the trainer's fits (train.h): L2-regularised logistic regression
 * by Newton's method (the models have at most a few dozen features, so the d x d Hessian is
 * cheap next to one pass over the rows) and ridge regression by its normal equations; both
 * solve with a Cholesky factorisation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train.h"

enum { DMAX = 64 };

void rows_push(rows *r, const float *x, float y, int split, int tag) {
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 1 << 14;
    float *nx = realloc(r->x, cap * (size_t)r->d * sizeof *nx);
    if (nx) r->x = nx;
    float *ny = realloc(r->y, cap * sizeof *ny);
    if (ny) r->y = ny;
    uint8_t *ns = realloc(r->split, cap);
    if (ns) r->split = ns;
    uint8_t *nt = realloc(r->tag, cap);
    if (nt) r->tag = nt;
    if (!nx || !ny || !ns || !nt) {
      fprintf(stderr, "riichi_opp_train: out of memory (%zu rows of %d features)\n", cap, r->d);
      exit(1);
    }
    r->cap = cap;
  }
  memcpy(r->x + r->n * (size_t)r->d, x, (size_t)r->d * sizeof *x);
  r->y[r->n] = y;
  r->split[r->n] = (uint8_t)split;
  r->tag[r->n] = (uint8_t)tag;
  r->n++;
}

void rows_free(rows *r) {
  free(r->x), free(r->y), free(r->split), free(r->tag);
  memset(r, 0, sizeof *r);
}

/* Solves A z = b for the symmetric positive definite A (d x d, row-major; overwritten by its
 * Cholesky factor). Returns 0, or -1 when A is not positive definite. */
static int cholesky_solve(double *a, const double *b, double *z, int d) {
  for (int j = 0; j < d; j++) {
    double s = a[j * d + j];
    for (int k = 0; k < j; k++) s -= a[j * d + k] * a[j * d + k];
    if (!(s > 0)) return -1;
    a[j * d + j] = sqrt(s);
    for (int i = j + 1; i < d; i++) {
      double t = a[i * d + j];
      for (int k = 0; k < j; k++) t -= a[i * d + k] * a[j * d + k];
      a[i * d + j] = t / a[j * d + j];
    }
  }
  for (int i = 0; i < d; i++) {
    double t = b[i];
    for (int k = 0; k < i; k++) t -= a[i * d + k] * z[k];
    z[i] = t / a[i * d + i];
  }
  for (int i = d - 1; i >= 0; i--) {
    double t = z[i];
    for (int k = i + 1; k < d; k++) t -= a[k * d + i] * z[k];
    z[i] = t / a[i * d + i];
  }
  return 0;
}

static double dotf(const double *w, const float *x, int d) {
  double s = 0;
  for (int i = 0; i < d; i++) s += w[i] * x[i];
  return s;
}

static double sigmoid(double z) { return 1.0 / (1.0 + exp(-z)); }

double logistic_loss(const rows *r, unsigned splits, int mask, int want, const double *w) {
  double sum = 0;
  size_t n = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (!rows_sel(r, i, splits, mask, want)) continue;
    double p = sigmoid(dotf(w, r->x + i * (size_t)r->d, r->d));
    p = p < 1e-6 ? 1e-6 : p > 1 - 1e-6 ? 1 - 1e-6 : p;
    sum -= r->y[i] > 0.5f ? log(p) : log(1 - p);
    n++;
  }
  return n ? sum / (double)n : 0;
}

/* The regularised objective at w. */
static double objective(const rows *r, unsigned splits, int mask, int want, double lambda,
                        const double *w) {
  double reg = 0;
  for (int j = 1; j < r->d; j++) reg += w[j] * w[j];
  return logistic_loss(r, splits, mask, want, w) + 0.5 * lambda * reg;
}

int fit_logistic(const rows *r, unsigned splits, int mask, int want, double lambda, double *w) {
  int d = r->d;
  double h[DMAX * DMAX], g[DMAX], step[DMAX], trial[DMAX];
  double f = objective(r, splits, mask, want, lambda, w);
  for (int it = 1; it <= 50; it++) {
    memset(h, 0, sizeof(double) * (size_t)(d * d));
    memset(g, 0, sizeof(double) * (size_t)d);
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++) {
      if (!rows_sel(r, i, splits, mask, want)) continue;
      const float *x = r->x + i * (size_t)d;
      double p = sigmoid(dotf(w, x, d)), e = p - r->y[i], q = p * (1 - p);
      for (int a = 0; a < d; a++) {
        if (x[a] == 0) continue;
        double qa = q * x[a];
        g[a] += e * x[a];
        for (int b = 0; b <= a; b++) h[a * d + b] += qa * x[b];
      }
      n++;
    }
    if (!n) return 0;
    for (int a = 0; a < d; a++) {
      g[a] /= (double)n;
      for (int b = 0; b <= a; b++) h[a * d + b] /= (double)n, h[b * d + a] = h[a * d + b];
      double reg = a ? lambda : 1e-9;
      h[a * d + a] += reg;
      g[a] += reg * w[a];
    }
    if (cholesky_solve(h, g, step, d)) return -1;
    /* a damped step when the full one does not lower the objective */
    double t = 1, fn = f, big = 0;
    for (int half = 0; half < 30; half++, t *= 0.5) {
      for (int a = 0; a < d; a++) trial[a] = w[a] - t * step[a];
      fn = objective(r, splits, mask, want, lambda, trial);
      if (fn <= f + 1e-12) break;
    }
    for (int a = 0; a < d; a++) {
      big = fabs(t * step[a]) > big ? fabs(t * step[a]) : big;
      w[a] = trial[a];
    }
    double gain = f - fn;
    f = fn;
    if (big < 1e-7 || gain < 1e-10) return it;
  }
  return 50;
}

int fit_ridge(const rows *r, unsigned splits, double lambda, double *w) {
  int d = r->d;
  double a[DMAX * DMAX], b[DMAX];
  memset(a, 0, sizeof(double) * (size_t)(d * d));
  memset(b, 0, sizeof(double) * (size_t)d);
  size_t n = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (!(splits >> r->split[i] & 1)) continue;
    const float *x = r->x + i * (size_t)d;
    for (int j = 0; j < d; j++) {
      b[j] += x[j] * (double)r->y[i];
      for (int k = 0; k <= j; k++) a[j * d + k] += (double)x[j] * x[k];
    }
    n++;
  }
  if (!n) return -1;
  for (int j = 0; j < d; j++) {
    b[j] /= (double)n;
    for (int k = 0; k <= j; k++) a[j * d + k] /= (double)n, a[k * d + j] = a[j * d + k];
    a[j * d + j] += j ? lambda : 1e-9;
  }
  return cholesky_solve(a, b, w, d);
}

double ridge_mse(const rows *r, unsigned splits, const double *w) {
  double s = 0;
  size_t n = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (!(splits >> r->split[i] & 1)) continue;
    double e = dotf(w, r->x + i * (size_t)r->d, r->d) - r->y[i];
    s += e * e;
    n++;
  }
  return n ? s / (double)n : 0;
}
