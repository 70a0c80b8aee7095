/* plugins/riichi_mcp/model.c — MCP and BCP trained by FOBOS-AdaGrad (model.h). */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int mcm_init(mcm_model *m, int kind, uint32_t nfeatures, double eta0, double delta, double l2) {
  memset(m, 0, sizeof *m);
  m->kind = kind;
  m->K = kind == MCM_MCP ? 5 : 4;
  m->D = nfeatures + 1;
  m->eta0 = eta0;
  m->delta = delta;
  m->l2 = l2;
  m->w = calloc((size_t)m->K * m->D, sizeof *m->w);
  m->G = calloc((size_t)m->K * m->D, sizeof *m->G);
  m->last = calloc(m->D, sizeof *m->last);
  if (!m->w || !m->G || !m->last) {
    mcm_free(m);
    return -1;
  }
  return 0;
}

int mcm_init_predict(mcm_model *m, int kind, uint32_t nfeatures) {
  memset(m, 0, sizeof *m);
  m->kind = kind;
  m->K = kind == MCM_MCP ? 5 : 4;
  m->D = nfeatures + 1;
  m->w = calloc((size_t)m->K * m->D, sizeof *m->w);
  return m->w ? 0 : -1;
}

void mcm_free(mcm_model *m) {
  free(m->w);
  free(m->G);
  free(m->last);
  m->w = NULL;
  m->G = NULL;
  m->last = NULL;
}

/* The shrink factor of coordinate i over s missed steps. */
static double shrink(const mcm_model *m, size_t i, uint64_t s) {
  if (m->l2 == 0 || s == 0 || m->G[i] == 0) return 1;
  double eta = m->eta0 / (m->delta + sqrt((double)m->G[i]));
  return pow(1 + eta * m->l2, -(double)s);
}

/* Brings feature j up to date before step m->t (the steps it missed since). */
static void catch_up(mcm_model *m, uint32_t j) {
  uint64_t s = m->t - m->last[j];
  if (s == 0) return;
  for (int k = 0; k < m->K; k++) {
    size_t i = (size_t)j * m->K + k;
    m->w[i] *= shrink(m, i, s);
  }
  m->last[j] = m->t;
}

/* The scores w_k·x (the bias included), with the pending shrinking applied on the fly. */
static void scores(const mcm_model *m, const uint32_t *f, int n, double *z) {
  for (int k = 0; k < m->K; k++) z[k] = 0;
  for (int i = 0; i <= n; i++) {
    uint32_t j = i < n ? f[i] : m->D - 1;
    uint64_t s = m->last ? m->t - m->last[j] : 0;
    const double *w = m->w + (size_t)j * m->K;
    for (int k = 0; k < m->K; k++)
      z[k] += s ? w[k] * shrink(m, (size_t)j * m->K + k, s) : w[k];
  }
}

static double sigmoid(double z) {
  return z >= 0 ? 1 / (1 + exp(-z)) : exp(z) / (1 + exp(z));
}

static void probs(const mcm_model *m, const double *z, double out[5]) {
  if (m->kind == MCM_MCP) {
    double mx = z[0], sum = 0;
    for (int k = 1; k < 5; k++)
      if (z[k] > mx) mx = z[k];
    for (int k = 0; k < 5; k++) sum += out[k] = exp(z[k] - mx);
    for (int k = 0; k < 5; k++) out[k] /= sum;
  } else {
    out[0] = 1;
    for (int h = 1; h <= 4; h++) out[h] = sigmoid(z[h - 1]);
  }
}

void mcm_predict(const mcm_model *m, const uint32_t *f, int n, double out[5]) {
  double z[5];
  scores(m, f, n, z);
  probs(m, z, out);
}

void mcm_predict_ge(const mcm_model *m, const uint32_t *f, int n, double ge[5]) {
  double p[5];
  mcm_predict(m, f, n, p);
  if (m->kind == MCM_BCP) {
    memcpy(ge, p, sizeof p);
    return;
  }
  double tail = 0;
  for (int h = 4; h >= 1; h--) ge[h] = tail += p[h];
  ge[0] = 1;
}

static double clamp_log(double p) { return log(p < 1e-300 ? 1e-300 : p); }

double mcm_loss(const mcm_model *m, const uint32_t *f, int n, int label) {
  double p[5];
  mcm_predict(m, f, n, p);
  if (m->kind == MCM_MCP) return -clamp_log(p[label]);
  double l = 0;
  for (int h = 1; h <= 4; h++) l -= label >= h ? clamp_log(p[h]) : clamp_log(1 - p[h]);
  return l;
}

void mcm_update(mcm_model *m, const uint32_t *f, int n, int label) {
  for (int i = 0; i < n; i++) catch_up(m, f[i]);
  catch_up(m, m->D - 1);
  double z[5], p[5];
  scores(m, f, n, z);
  probs(m, z, p);
  double g[5];
  for (int k = 0; k < m->K; k++)
    g[k] = m->kind == MCM_MCP ? p[k] - (label == k) : p[k + 1] - (label >= k + 1);
  for (int i = 0; i <= n; i++) {
    uint32_t j = i < n ? f[i] : m->D - 1;
    double *w = m->w + (size_t)j * m->K;
    float *G = m->G + (size_t)j * m->K;
    for (int k = 0; k < m->K; k++) {
      G[k] += (float)(g[k] * g[k]);
      if (G[k] == 0) continue;
      double eta = m->eta0 / (m->delta + sqrt((double)G[k]));
      w[k] = (w[k] - eta * g[k]) / (1 + eta * m->l2);
    }
  }
  m->t++;
  for (int i = 0; i < n; i++) m->last[f[i]] = m->t;
  m->last[m->D - 1] = m->t;
}

void mcm_finalize(mcm_model *m) {
  for (uint32_t j = 0; j < m->D; j++) catch_up(m, j);
}
