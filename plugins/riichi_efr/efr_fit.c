/* plugins/riichi_efr/efr_fit.c — the EFR model's fit (L-BFGS on the L2-regularised mean
 * log loss) and the baselines and calibration of efr_fit.h. */
#include "efr_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NW = EFR_FEATURES * 4, HISTORY = 10 };

int efr_set_add(efr_set *set, const rm_efr_state *s, int seat, int rank, tk_error *err) {
  if (set->n == set->cap) {
    size_t cap = set->cap ? 2 * set->cap : 4096;
    uint32_t *f = realloc(set->f, cap * EFR_ACTIVE * sizeof *f);
    if (f) set->f = f;
    uint8_t *y = f ? realloc(set->y, cap) : NULL;
    if (y) set->y = y;
    uint8_t *rel = y ? realloc(set->rel, cap) : NULL;
    if (!rel) return tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
    set->rel = rel;
    set->cap = cap;
  }
  efr_features(s, seat, set->f + set->n * EFR_ACTIVE);
  set->y[set->n] = (uint8_t)(rank - 1);
  set->rel[set->n] = (uint8_t)((seat - s->round) & 3);
  set->n++;
  return 0;
}

void efr_set_free(efr_set *set) {
  free(set->f), free(set->y), free(set->rel);
  memset(set, 0, sizeof *set);
}

double efr_loss(const double *w, const efr_set *set) {
  double nll = 0, p[4];
  for (size_t i = 0; i < set->n; i++) {
    efr_probs_of(w, set->f + i * EFR_ACTIVE, p);
    nll -= log(p[set->y[i]] > 1e-300 ? p[set->y[i]] : 1e-300);
  }
  return set->n ? nll / (double)set->n : 0;
}

/* The objective at w and its gradient g (masked features: zero gradient). */
static double objective(const double *w, const efr_set *set, double lambda, const uint8_t *mask,
                        double *g) {
  memset(g, 0, NW * sizeof *g);
  double nll = 0, p[4];
  for (size_t i = 0; i < set->n; i++) {
    const uint32_t *f = set->f + i * EFR_ACTIVE;
    int y = set->y[i];
    efr_probs_of(w, f, p);
    nll -= log(p[y] > 1e-300 ? p[y] : 1e-300);
    p[y] -= 1;
    for (int k = 0; k < EFR_ACTIVE; k++) {
      double *r = g + (size_t)f[k] * 4;
      r[0] += p[0], r[1] += p[1], r[2] += p[2], r[3] += p[3];
    }
  }
  double inv = set->n ? 1.0 / (double)set->n : 0, reg = 0;
  for (size_t j = 0; j < NW; j++) {
    g[j] = mask[j / 4] ? g[j] * inv + lambda * w[j] : 0;
    reg += w[j] * w[j];
  }
  return nll * inv + 0.5 * lambda * reg;
}

static double dot(const double *a, const double *b) {
  double s = 0;
  for (size_t j = 0; j < NW; j++) s += a[j] * b[j];
  return s;
}

/* The L-BFGS direction d = -H g from the last `m` pairs (s, y), newest at (k - 1) % HISTORY. */
static void direction(const double *g, double (*s)[NW], double (*y)[NW], const double *rho,
                      int k, int m, double *d) {
  double alpha[HISTORY];
  for (size_t j = 0; j < NW; j++) d[j] = -g[j];
  for (int i = 0; i < m; i++) {
    int c = (k - 1 - i + HISTORY) % HISTORY;
    alpha[c] = rho[c] * dot(s[c], d);
    for (size_t j = 0; j < NW; j++) d[j] -= alpha[c] * y[c][j];
  }
  if (m > 0) {
    int c = (k - 1 + HISTORY) % HISTORY;
    double gamma = dot(s[c], y[c]) / dot(y[c], y[c]);
    for (size_t j = 0; j < NW; j++) d[j] *= gamma;
  }
  for (int i = m - 1; i >= 0; i--) {
    int c = (k - 1 - i + HISTORY) % HISTORY;
    double beta = rho[c] * dot(y[c], d);
    for (size_t j = 0; j < NW; j++) d[j] += (alpha[c] - beta) * s[c][j];
  }
}

int efr_fit(const efr_set *set, double lambda, const uint8_t on[EFR_GROUPS], int max_iter,
            FILE *log, double *w) {
  uint8_t *mask = malloc(EFR_FEATURES);
  double *g = malloc(NW * sizeof *g), *g2 = malloc(NW * sizeof *g2), *d = malloc(NW * sizeof *d);
  double *w2 = malloc(NW * sizeof *w2);
  double (*s)[NW] = malloc(HISTORY * sizeof *s), (*y)[NW] = malloc(HISTORY * sizeof *y);
  double rho[HISTORY];
  int it = 0;
  if (!mask || !g || !g2 || !d || !w2 || !s || !y) goto done;
  for (uint32_t f = 0; f < EFR_FEATURES; f++) mask[f] = on[efr_group_of(f)];
  for (size_t j = 0; j < NW; j++)
    if (!mask[j / 4]) w[j] = 0;
  double fx = objective(w, set, lambda, mask, g);
  int k = 0, m = 0;
  for (it = 0; it < max_iter; it++) {
    direction(g, s, y, rho, k, m, d);
    double gd = dot(g, d);
    if (gd >= 0) { /* not a descent direction: restart from the gradient */
      m = 0;
      for (size_t j = 0; j < NW; j++) d[j] = -g[j];
      gd = dot(g, d);
    }
    double step = m ? 1.0 : 1.0 / sqrt(dot(g, g) + 1e-300), f2 = fx;
    int ok = 0;
    for (int ls = 0; ls < 40; ls++, step *= 0.5) {
      for (size_t j = 0; j < NW; j++) w2[j] = w[j] + step * d[j];
      f2 = objective(w2, set, lambda, mask, g2);
      if (f2 <= fx + 1e-4 * step * gd) {
        ok = 1;
        break;
      }
    }
    if (!ok) break;
    int c = k % HISTORY;
    for (size_t j = 0; j < NW; j++) {
      s[c][j] = w2[j] - w[j];
      y[c][j] = g2[j] - g[j];
    }
    double sy = dot(s[c], y[c]);
    if (sy > 1e-20) {
      rho[c] = 1.0 / sy;
      k++;
      if (m < HISTORY) m++;
    }
    double gain = fx - f2;
    memcpy(w, w2, NW * sizeof *w);
    memcpy(g, g2, NW * sizeof *g);
    fx = f2;
    if (log && (it % 25 == 0)) fprintf(log, "  iteration %d: objective %.6f\n", it, fx);
    if (gain < 1e-10 * (fabs(fx) > 1 ? fabs(fx) : 1)) {
      it++;
      break;
    }
  }
done:
  free(mask), free(g), free(g2), free(d), free(w2), free(s), free(y);
  return it;
}

void efr_prior(const efr_set *set, double prior[4][4]) {
  double n[4][4];
  for (int a = 0; a < 4; a++)
    for (int r = 0; r < 4; r++) n[a][r] = 1;
  for (size_t i = 0; i < set->n; i++) n[set->rel[i]][set->y[i]] += 1;
  for (int a = 0; a < 4; a++) {
    double t = n[a][0] + n[a][1] + n[a][2] + n[a][3];
    for (int r = 0; r < 4; r++) prior[a][r] = n[a][r] / t;
  }
}

double efr_prior_loss(const double prior[4][4], const efr_set *set) {
  double nll = 0;
  for (size_t i = 0; i < set->n; i++) nll -= log(prior[set->rel[i]][set->y[i]]);
  return set->n ? nll / (double)set->n : 0;
}

/* The index of example i's cell (round class, relative seat, three bins) and its coarse cell
 * (round class, relative seat, current rank). */
static size_t cell_of(const uint32_t *f) {
  size_t cell = (f[0] - EFR_OFF_DIFF) / EFR_BINS / 3;
  return ((cell * EFR_BINS + f[0] % EFR_BINS) * EFR_BINS + f[1] % EFR_BINS) * EFR_BINS +
         f[2] % EFR_BINS;
}
static size_t coarse_of(const uint32_t *f) { return f[12] - EFR_OFF_RANK; }

int efr_table_compare(const efr_set *train, const efr_set *held, const double *w,
                      const double *smooth_k, int nk, efr_table_cmp *out, tk_error *err) {
  const size_t ncell = (size_t)EFR_CELLS * EFR_BINS * EFR_BINS * EFR_BINS;
  uint32_t (*n)[4] = calloc(ncell, sizeof *n);
  double (*coarse)[4] = calloc(EFR_CELLS * 4, sizeof *coarse);
  if (!n || !coarse) {
    free(n), free(coarse);
    return tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
  }
  for (size_t i = 0; i < train->n; i++) {
    const uint32_t *f = train->f + i * EFR_ACTIVE;
    n[cell_of(f)][train->y[i]]++;
    coarse[coarse_of(f)][train->y[i]] += 1;
  }
  for (size_t c = 0; c < EFR_CELLS * 4; c++) {
    double t = 4;
    for (int r = 0; r < 4; r++) t += coarse[c][r];
    for (int r = 0; r < 4; r++) coarse[c][r] = (coarse[c][r] + 1) / t;
  }
  memset(out, 0, sizeof *out);
  double p[4];
  for (size_t i = 0; i < held->n; i++) {
    const uint32_t *f = held->f + i * EFR_ACTIVE;
    const uint32_t *c = n[cell_of(f)];
    int y = held->y[i];
    double tot = (double)c[0] + c[1] + c[2] + c[3];
    for (int k = 0; k < nk && k < 8; k++)
      out->smoothed[k] -= log((c[y] + smooth_k[k] * coarse[coarse_of(f)][y]) / (tot + smooth_k[k]));
    if (tot == 0) continue;
    out->covered++;
    out->table -= log((c[y] + 0.5) / (tot + 2));
    efr_probs_of(w, f, p);
    out->model -= log(p[y]);
  }
  if (out->covered) out->table /= (double)out->covered, out->model /= (double)out->covered;
  for (int k = 0; k < nk && k < 8; k++) out->smoothed[k] /= held->n ? (double)held->n : 1;
  free(n), free(coarse);
  return 0;
}

void efr_calibration(FILE *f, const double *w, const efr_set *set) {
  enum { EB = 12, PB = 10 };
  double pe[EB] = {0}, ae[EB] = {0}, ne[EB] = {0}, pp[4][PB] = {{0}}, ap[4][PB] = {{0}},
         np[4][PB] = {{0}}, p[4];
  for (size_t i = 0; i < set->n; i++) {
    efr_probs_of(w, set->f + i * EFR_ACTIVE, p);
    double e = p[0] + 2 * p[1] + 3 * p[2] + 4 * p[3];
    int b = (int)((e - 1) / 0.25);
    b = b < 0 ? 0 : b >= EB ? EB - 1 : b;
    pe[b] += e, ae[b] += set->y[i] + 1, ne[b] += 1;
    for (int r = 0; r < 4; r++) {
      int q = (int)(p[r] * PB);
      q = q >= PB ? PB - 1 : q;
      pp[r][q] += p[r], ap[r][q] += set->y[i] == r, np[r][q] += 1;
    }
  }
  fprintf(f, "calibration of EFR (bins of 0.25): predicted mean / mean final rank / examples\n");
  for (int b = 0; b < EB; b++)
    if (ne[b] > 0)
      fprintf(f, "  [%.2f, %.2f)  %.3f  %.3f  %8.0f\n", 1 + 0.25 * b, 1.25 + 0.25 * b,
              pe[b] / ne[b], ae[b] / ne[b], ne[b]);
  fprintf(f, "calibration of P(rank) in tenths: predicted / observed (examples)\n");
  for (int q = 0; q < PB; q++) {
    fprintf(f, "  [%.1f, %.1f)", 0.1 * q, 0.1 * (q + 1));
    for (int r = 0; r < 4; r++)
      if (np[r][q] > 0)
        fprintf(f, "  r%d %.3f/%.3f (%.0f)", r + 1, pp[r][q] / np[r][q], ap[r][q] / np[r][q],
                np[r][q]);
      else fprintf(f, "  r%d -", r + 1);
    fprintf(f, "\n");
  }
}
