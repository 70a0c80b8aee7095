/* plugins/riichi_nn002/nn.c — paper 002's network (nn.h). */
#include "nn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/mahjong.h"
#include "taikai/weights.h"

/* Adds the thermometer code of counts c at `off` to x (ascending within the block). */
static int thermo(const uint8_t c[NN_KINDS], int off, uint16_t *x, int n) {
  for (int k = 0; k < NN_KINDS; k++)
    for (int j = 0; j < 4 && j < c[k]; j++) x[n++] = (uint16_t)(off + 4 * k + j);
  return n;
}

int nn_encode(const tk_riichi_view *v, uint16_t *x) {
  int n = 0, s = v->seat;
  for (int j = 0; j < 4; j++)
    if (v->riichi[(s + j) & 3]) x[n++] = (uint16_t)(NN_OFF_RIICHI + j);
  uint8_t own[NN_KINDS];
  memcpy(own, v->hand, NN_KINDS);
  n = thermo(own, NN_OFF_HAND, x, n);
  for (int j = 0; j < 4; j++) {
    int p = (s + j) & 3;
    uint8_t c[NN_KINDS] = {0};
    for (int i = 0; i < v->nriver[p] && i < TK_RIICHI_MAX_RIVER; i++) {
      int k = tk_tile_kind(v->river[p][i].tile);
      if (k < NN_KINDS && c[k] < 4) c[k]++;
    }
    n = thermo(c, NN_OFF_RIVER + 136 * j, x, n);
  }
  uint8_t unseen[NN_KINDS];
  for (int k = 0; k < NN_KINDS; k++) {
    int u = 4 - own[k] - v->seen[k];
    unseen[k] = (uint8_t)(u > 0 ? u : 0);
  }
  return thermo(unseen, NN_OFF_UNSEEN, x, n);
}

int nn_init(nn_model *m, int hidden, int improved, double init, tk_rng *rng, tk_error *err) {
  memset(m, 0, sizeof *m);
  m->hidden = hidden;
  m->improved = improved;
  m->w = calloc((size_t)hidden * (NN_INPUTS + 1), sizeof *m->w);
  m->v = calloc((size_t)NN_KINDS * (hidden + 1), sizeof *m->v);
  if (!m->w || !m->v) {
    nn_free(m);
    return tk_error_set(err, TK_ENOMEM, -1, "riichi_nn002: out of memory (%d hidden units)", hidden);
  }
  for (int h = 0; h < hidden; h++)
    for (int i = 0; i < NN_INPUTS; i++)
      m->w[(size_t)h * (NN_INPUTS + 1) + i] = init * (2 * tk_rng_double(rng) - 1);
  for (int k = 0; k < NN_KINDS; k++)
    for (int h = 0; h < hidden; h++)
      m->v[(size_t)k * (hidden + 1) + h] = init * (2 * tk_rng_double(rng) - 1);
  return 0;
}

void nn_free(nn_model *m) {
  if (!m) return;
  free(m->w);
  free(m->v);
  m->w = m->v = NULL;
}

static double sigmoid(double z) { return 1 / (1 + exp(-z)); }

void nn_forward(const nn_model *m, const uint16_t *x, int nx, double *h, double o[NN_KINDS]) {
  const int M = m->hidden;
  for (int j = 0; j < M; j++) {
    const double *w = m->w + (size_t)j * (NN_INPUTS + 1);
    double z = w[NN_INPUTS];
    for (int i = 0; i < nx; i++) z += w[x[i]];
    h[j] = sigmoid(z);
  }
  for (int k = 0; k < NN_KINDS; k++) {
    const double *v = m->v + (size_t)k * (M + 1);
    double z = v[M];
    for (int j = 0; j < M; j++) z += v[j] * h[j];
    o[k] = z;
  }
}

/* The outputs: σ(o) (faithful) or softmax(o) (improved). */
static void outputs(const nn_model *m, const double o[NN_KINDS], double y[NN_KINDS]) {
  if (!m->improved) {
    for (int k = 0; k < NN_KINDS; k++) y[k] = sigmoid(o[k]);
    return;
  }
  double mx = o[0], s = 0;
  for (int k = 1; k < NN_KINDS; k++) mx = o[k] > mx ? o[k] : mx;
  for (int k = 0; k < NN_KINDS; k++) s += y[k] = exp(o[k] - mx);
  for (int k = 0; k < NN_KINDS; k++) y[k] /= s;
}

double nn_loss(const nn_model *m, const double o[NN_KINDS], int target) {
  double y[NN_KINDS];
  outputs(m, o, y);
  if (m->improved) return -log(y[target] > 1e-300 ? y[target] : 1e-300);
  double e = 0;
  for (int k = 0; k < NN_KINDS; k++) {
    double d = y[k] - (k == target);
    e += 0.5 * d * d;
  }
  return e;
}

double nn_step(nn_model *m, const uint16_t *x, int nx, int target, double eta, double *h,
               double o[NN_KINDS]) {
  const int M = m->hidden;
  nn_forward(m, x, nx, h, o);
  double y[NN_KINDS], d[NN_KINDS];
  outputs(m, o, y);
  double loss = nn_loss(m, o, target);
  /* dE/do_k: (y - t) y (1 - y) for the squared error of sigmoids, y - t for softmax + CE */
  for (int k = 0; k < NN_KINDS; k++) {
    double t = k == target;
    d[k] = m->improved ? y[k] - t : (y[k] - t) * y[k] * (1 - y[k]);
  }
  /* the hidden units' deltas with the weights before the step, then both updates */
  for (int j = 0; j < M; j++) {
    double g = 0;
    for (int k = 0; k < NN_KINDS; k++) g += d[k] * m->v[(size_t)k * (M + 1) + j];
    g *= h[j] * (1 - h[j]);
    double *w = m->w + (size_t)j * (NN_INPUTS + 1);
    for (int i = 0; i < nx; i++) w[x[i]] -= eta * g;
    if (m->improved) w[NN_INPUTS] -= eta * g;
  }
  for (int k = 0; k < NN_KINDS; k++) {
    double *v = m->v + (size_t)k * (M + 1);
    for (int j = 0; j < M; j++) v[j] -= eta * d[k] * h[j];
    if (m->improved) v[M] -= eta * d[k];
  }
  return loss;
}

int nn_pick(const double o[NN_KINDS], const uint8_t c[NN_KINDS]) {
  int best = -1;
  for (int k = 0; k < NN_KINDS; k++)
    if (c[k] && (best < 0 || o[k] > o[best])) best = k;
  return best;
}

int nn_save(const char *path, const nn_model *m, tk_error *err) {
  const int M = m->hidden;
  tk_weights w;
  memset(&w, 0, sizeof w);
  snprintf(w.model, sizeof w.model, "%s", NN_MODEL);
  w.feature_version = NN_VERSION;
  w.ndims = 2;
  w.shape[0] = (uint32_t)M + 1;
  w.shape[1] = NN_ROW;
  w.count = (size_t)(M + 1) * NN_ROW;
  w.values = calloc(w.count, sizeof *w.values);
  if (!w.values) return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  for (int j = 0; j < M; j++) {
    double *r = w.values + (size_t)j * NN_ROW;
    memcpy(r, m->w + (size_t)j * (NN_INPUTS + 1), (NN_INPUTS + 1) * sizeof *r);
    for (int k = 0; k < NN_KINDS; k++) r[NN_INPUTS + 1 + k] = m->v[(size_t)k * (M + 1) + j];
  }
  double *last = w.values + (size_t)M * NN_ROW;
  for (int k = 0; k < NN_KINDS; k++) last[NN_INPUTS + 1 + k] = m->v[(size_t)k * (M + 1) + M];
  int rc = tk_weights_save(path, &w, err);
  free(w.values);
  return rc;
}

int nn_load(const char *path, nn_model *m, tk_error *err) {
  memset(m, 0, sizeof *m);
  const uint32_t shape[2] = {TK_WEIGHTS_ANY, NN_ROW};
  tk_weights w;
  int rc = tk_weights_load(path, NN_MODEL, NN_VERSION, 2, shape, &w, err);
  if (rc) return rc;
  if (w.shape[0] < 2 || w.shape[0] > 100001) {
    uint32_t rows = w.shape[0];
    tk_weights_free(&w);
    return tk_error_set(err, TK_EPARSE, -1, "%s: shape[0] = %u: must be the hidden units + 1, "
                        "2 to 100001", path, rows);
  }
  const int M = (int)w.shape[0] - 1;
  m->hidden = M;
  m->w = malloc((size_t)M * (NN_INPUTS + 1) * sizeof *m->w);
  m->v = malloc((size_t)NN_KINDS * (M + 1) * sizeof *m->v);
  if (!m->w || !m->v) {
    tk_weights_free(&w);
    nn_free(m);
    return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  }
  for (int j = 0; j < M; j++) {
    const double *r = w.values + (size_t)j * NN_ROW;
    memcpy(m->w + (size_t)j * (NN_INPUTS + 1), r, (NN_INPUTS + 1) * sizeof *r);
    for (int k = 0; k < NN_KINDS; k++) m->v[(size_t)k * (M + 1) + j] = r[NN_INPUTS + 1 + k];
  }
  const double *last = w.values + (size_t)M * NN_ROW;
  for (int k = 0; k < NN_KINDS; k++) m->v[(size_t)k * (M + 1) + M] = last[NN_INPUTS + 1 + k];
  tk_weights_free(&w);
  return 0;
}
