/* plugins/riichi_opp/eval.c — held-out figures of a binary predictor (train.h): log loss beside
 * a constant predictor's, accuracy at 0.5, AUC (rank statistic, ties counted half), and the
 * calibration table of ten equal-width bins with its expected calibration error (ECE: the
 * rows' share-weighted mean |observed rate - mean prediction| over the bins). */
#include <math.h>
#include <stdlib.h>

#include "train.h"

typedef struct pp {
  double p;
  float y;
} pp;

static int by_p(const void *a, const void *b) {
  double x = ((const pp *)a)->p, y = ((const pp *)b)->p;
  return (x > y) - (x < y);
}

/* AUC of p against y, or NAN when one class is empty or memory runs out. */
static double auc(const double *p, const float *y, size_t n) {
  pp *v = malloc(n * sizeof *v);
  if (!v) return NAN;
  size_t pos = 0;
  for (size_t i = 0; i < n; i++) v[i].p = p[i], v[i].y = y[i], pos += y[i] > 0.5f;
  size_t neg = n - pos;
  if (!pos || !neg) {
    free(v);
    return NAN;
  }
  qsort(v, n, sizeof *v, by_p);
  double ranks = 0; /* sum of the positives' ranks (1-based, ties averaged) */
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && v[j].p == v[i].p) j++;
    double r = (double)(i + 1 + j) / 2;
    for (size_t k = i; k < j; k++)
      if (v[k].y > 0.5f) ranks += r;
    i = j;
  }
  free(v);
  return (ranks - (double)pos * ((double)pos + 1) / 2) / ((double)pos * (double)neg);
}

static double clip(double p) { return p < 1e-6 ? 1e-6 : p > 1 - 1e-6 ? 1 - 1e-6 : p; }

void eval_binary(FILE *f, const char *title, const double *p, const float *y, size_t n,
                 double base_train, int table) {
  if (!n) {
    fprintf(f, "%s: no rows\n", title);
    return;
  }
  double ll = 0, llc = 0, pos = 0, right = 0, bp[10] = {0}, by[10] = {0}, mean = 0;
  size_t bn[10] = {0};
  double c = clip(base_train);
  for (size_t i = 0; i < n; i++) {
    int yes = y[i] > 0.5f;
    double q = clip(p[i]);
    ll -= yes ? log(q) : log(1 - q);
    llc -= yes ? log(c) : log(1 - c);
    pos += yes;
    mean += p[i];
    right += (p[i] >= 0.5) == yes;
    int b = (int)(p[i] * 10);
    b = b < 0 ? 0 : b > 9 ? 9 : b;
    bp[b] += p[i], by[b] += yes, bn[b]++;
  }
  double ece = 0;
  for (int b = 0; b < 10; b++)
    if (bn[b]) ece += fabs(by[b] - bp[b]) / (double)n;
  double dn = (double)n;
  fprintf(f, "%s: %zu rows, rate %.4f (mean prediction %.4f), log loss %.4f (constant %.4f: "
             "%.4f), accuracy@0.5 %.4f (constant: %.4f), AUC %.4f, ECE %.4f\n",
          title, n, pos / dn, mean / dn, ll / dn, c, llc / dn, right / dn,
          c >= 0.5 ? pos / dn : 1 - pos / dn, auc(p, y, n), ece);
  if (!table) return;
  fprintf(f, "  %-9s %10s %10s %10s\n", "bin", "rows", "predicted", "observed");
  for (int b = 0; b < 10; b++)
    if (bn[b])
      fprintf(f, "  [%.1f,%.1f) %10zu %10.4f %10.4f\n", b / 10.0, (b + 1) / 10.0, bn[b],
              bp[b] / (double)bn[b], by[b] / (double)bn[b]);
}
