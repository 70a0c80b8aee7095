/* plugins/riichi_sampler/rs_nn.c — the MLP of rs_nn.h. */
#include "rs_nn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_cblas.h"
#include "taikai/sha256.h"
#include "taikai/weights.h"

int rs_mlp_init(rs_mlp *m, int nl, const int *n, tk_rng *rng, tk_error *err) {
  memset(m, 0, sizeof *m);
  if (nl < 1 || nl > RS_NN_MAX_LAYERS)
    return tk_error_set(err, TK_EINVAL, -1, "mlp: %d layers (1..%d)", nl, RS_NN_MAX_LAYERS);
  m->nl = nl;
  size_t np = 0;
  for (int l = 0; l <= nl; l++) {
    if (n[l] < 1 || n[l] > 100000)
      return tk_error_set(err, TK_EINVAL, -1, "mlp: width %d of layer %d", n[l], l);
    m->n[l] = n[l];
  }
  for (int l = 0; l < nl; l++) {
    m->off[l] = np;
    np += (size_t)n[l] * (size_t)n[l + 1] + (size_t)n[l + 1];
  }
  m->np = np;
  m->p = calloc(np, sizeof *m->p);
  if (!m->p) return tk_error_set(err, TK_ENOMEM, -1, "mlp: out of memory (%zu weights)", np);
  if (rng)
    for (int l = 0; l < nl; l++) {
      double a = sqrt(6.0 / (n[l] + n[l + 1]));
      float *w = rs_mlp_w(m, l);
      for (size_t i = 0; i < (size_t)n[l] * (size_t)n[l + 1]; i++)
        w[i] = (float)((2 * tk_rng_double(rng) - 1) * a);
    }
  return 0;
}

void rs_mlp_free(rs_mlp *m) {
  free(m->p);
  m->p = NULL;
}

void rs_mlp_dense(const rs_mlp *m, int l, int rows, const float *x, float *y) {
  int in = m->n[l], out = m->n[l + 1];
  const float *b = rs_mlp_b(m, l);
  for (int r = 0; r < rows; r++) memcpy(y + (size_t)r * out, b, (size_t)out * sizeof *y);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, out, in, 1.0f, x, in,
              rs_mlp_w(m, l), out, 1.0f, y, out);
}

static int maxw(const rs_mlp *m) {
  int w = 0;
  for (int l = 0; l <= m->nl; l++) w = m->n[l] > w ? m->n[l] : w;
  return w;
}

void rs_mlp_forward_from(const rs_mlp *m, int from, int rows, const float *x, float *out,
                         float *scratch) {
  size_t half = (size_t)rows * (size_t)maxw(m);
  const float *cur = x;
  for (int l = from; l < m->nl; l++) {
    float *y = l == m->nl - 1 ? out : scratch + (size_t)((l - from) & 1) * half;
    rs_mlp_dense(m, l, rows, cur, y);
    if (l < m->nl - 1) {
      size_t k = (size_t)rows * (size_t)m->n[l + 1];
      for (size_t i = 0; i < k; i++) y[i] = rs_silu(y[i]);
    }
    cur = y;
  }
}

static int cache_reserve(const rs_mlp *m, rs_mlp_cache *c, int rows) {
  if (c->cap >= rows) return 0;
  for (int l = 0; l <= m->nl; l++) {
    size_t k = (size_t)rows * (size_t)m->n[l];
    float *a = realloc(c->a[l], k * sizeof *a), *z = realloc(c->z[l], k * sizeof *z);
    if (a) c->a[l] = a;
    if (z) c->z[l] = z;
    if (!a || !z) return -1;
  }
  size_t k = (size_t)rows * (size_t)maxw(m);
  for (int i = 0; i < 2; i++) {
    float *d = realloc(c->d[i], k * sizeof *d);
    if (!d) return -1;
    c->d[i] = d;
  }
  c->cap = rows;
  return 0;
}

int rs_mlp_forward(const rs_mlp *m, int rows, const float *x, float *out, rs_mlp_cache *c,
                   float *scratch) {
  if (!c) {
    rs_mlp_forward_from(m, 0, rows, x, out, scratch);
    return 0;
  }
  if (cache_reserve(m, c, rows)) return TK_ENOMEM;
  c->rows = rows;
  memcpy(c->a[0], x, (size_t)rows * (size_t)m->n[0] * sizeof *x);
  for (int l = 0; l < m->nl; l++) {
    size_t k = (size_t)rows * (size_t)m->n[l + 1];
    rs_mlp_dense(m, l, rows, c->a[l], c->z[l + 1]);
    if (l < m->nl - 1)
      for (size_t i = 0; i < k; i++) c->a[l + 1][i] = rs_silu(c->z[l + 1][i]);
    else
      memcpy(c->a[l + 1], c->z[l + 1], k * sizeof *out);
  }
  memcpy(out, c->a[m->nl], (size_t)rows * (size_t)m->n[m->nl] * sizeof *out);
  return 0;
}

void rs_mlp_backward(const rs_mlp *m, rs_mlp_cache *c, const float *dout, float *g) {
  int rows = c->rows;
  float *dz = c->d[0], *da = c->d[1];
  memcpy(dz, dout, (size_t)rows * (size_t)m->n[m->nl] * sizeof *dz);
  for (int l = m->nl - 1; l >= 0; l--) {
    int in = m->n[l], out = m->n[l + 1];
    float *gw = g + m->off[l], *gb = gw + (size_t)in * (size_t)out;
    /* dW += a[l]^T dz, db += column sums of dz */
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, in, out, rows, 1.0f, c->a[l], in, dz,
                out, 1.0f, gw, out);
    for (int r = 0; r < rows; r++)
      for (int j = 0; j < out; j++) gb[j] += dz[(size_t)r * out + j];
    if (l == 0) break;
    /* da = dz W^T, then through SiLU: silu'(z) = s (1 + z (1 - s)), s = sigmoid(z) */
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, in, out, 1.0f, dz, out,
                rs_mlp_w(m, l), out, 0.0f, da, in);
    const float *z = c->z[l];
    for (size_t i = 0; i < (size_t)rows * (size_t)in; i++) {
      float s = 1.0f / (1.0f + expf(-z[i]));
      da[i] *= s * (1.0f + z[i] * (1.0f - s));
    }
    float *t = dz;
    dz = da, da = t;
  }
}

void rs_mlp_cache_free(rs_mlp_cache *c) {
  for (int l = 0; l <= RS_NN_MAX_LAYERS; l++) free(c->a[l]), free(c->z[l]);
  free(c->d[0]), free(c->d[1]);
  memset(c, 0, sizeof *c);
}

int rs_adam_init(rs_adam *a, const rs_mlp *m, double lr, tk_error *err) {
  memset(a, 0, sizeof *a);
  a->m = calloc(m->np, sizeof *a->m), a->v = calloc(m->np, sizeof *a->v);
  a->g = calloc(m->np, sizeof *a->g);
  if (!a->m || !a->v || !a->g) {
    rs_adam_free(a);
    return tk_error_set(err, TK_ENOMEM, -1, "adam: out of memory");
  }
  a->lr = lr, a->b1 = 0.9, a->b2 = 0.999, a->eps = 1e-8;
  return 0;
}

void rs_adam_step(rs_adam *a, rs_mlp *m) {
  a->t++;
  double c1 = 1 - pow(a->b1, (double)a->t), c2 = 1 - pow(a->b2, (double)a->t);
  float lr = (float)(a->lr * sqrt(c2) / c1), b1 = (float)a->b1, b2 = (float)a->b2;
  float eps = (float)a->eps;
  for (size_t i = 0; i < m->np; i++) {
    float g = a->g[i];
    a->m[i] = b1 * a->m[i] + (1 - b1) * g;
    a->v[i] = b2 * a->v[i] + (1 - b2) * g * g;
    m->p[i] -= lr * a->m[i] / (sqrtf(a->v[i]) + eps);
    a->g[i] = 0;
  }
}

void rs_adam_free(rs_adam *a) {
  free(a->m), free(a->v), free(a->g);
  a->m = a->v = a->g = NULL;
}

/* The file's values: meta[RS_NN_META], nl, n[0..RS_NN_MAX_LAYERS], then p. */
enum { HEAD = RS_NN_META + 1 + RS_NN_MAX_LAYERS + 1 };

int rs_mlp_save(const char *path, const rs_mlp *m, const char *model, uint32_t version,
                tk_error *err) {
  tk_weights w;
  memset(&w, 0, sizeof w);
  snprintf(w.model, sizeof w.model, "%s", model);
  w.feature_version = version;
  w.ndims = 1;
  w.count = HEAD + m->np;
  w.shape[0] = (uint32_t)w.count;
  w.values = calloc(w.count, sizeof *w.values);
  if (!w.values) return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  for (int i = 0; i < RS_NN_META; i++) w.values[i] = m->meta[i];
  w.values[RS_NN_META] = m->nl;
  for (int l = 0; l <= m->nl; l++) w.values[RS_NN_META + 1 + l] = m->n[l];
  for (size_t i = 0; i < m->np; i++) w.values[HEAD + i] = m->p[i];
  int rc = tk_weights_sparse_save_dense(path, &w, NULL, err);
  free(w.values);
  return rc;
}

/* The file's single shape entry, read from its header ("TKWEIGHT" u32 format, char[32] model,
 * u32 version, u32 ndims, u32 shape[ndims]), so that the shared loader can check it. */
static int peek_size(const char *path, uint32_t *size, tk_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return tk_error_set(err, TK_ENOTFOUND, -1, "weights %s: cannot open", path);
  unsigned char h[8 + 4 + 32 + 4 + 4 + 4];
  size_t got = fread(h, 1, sizeof h, f);
  fclose(f);
  if (got != sizeof h || memcmp(h, "TKWEIGHT", 8))
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: not a weights file", path);
  uint32_t nd = h[48] | h[49] << 8 | h[50] << 16 | (uint32_t)h[51] << 24;
  if (nd != 1) return tk_error_set(err, TK_EABI, -1, "weights %s: %u dimensions, not 1", path, nd);
  *size = h[52] | h[53] << 8 | h[54] << 16 | (uint32_t)h[55] << 24;
  return 0;
}

int rs_mlp_load(const char *path, const char *model, uint32_t version, rs_mlp *m,
                uint8_t sha256[32], tk_error *err) {
  memset(m, 0, sizeof *m);
  uint32_t size;
  int rc = peek_size(path, &size, err);
  if (rc) return rc;
  if (size < HEAD || size > 50000000u)
    return tk_error_set(err, TK_EABI, -1, "weights %s: size %u", path, size);
  double *v = malloc((size_t)size * sizeof *v);
  if (!v) return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  rc = tk_weights_sparse_load_dense(path, model, version, 1, &size, v, NULL, err);
  if (rc) {
    free(v);
    return rc;
  }
  int nl = (int)v[RS_NN_META], n[RS_NN_MAX_LAYERS + 1] = {0};
  for (int l = 0; l <= RS_NN_MAX_LAYERS; l++) n[l] = (int)v[RS_NN_META + 1 + l];
  rc = nl >= 1 && nl <= RS_NN_MAX_LAYERS ? rs_mlp_init(m, nl, n, NULL, err) : TK_EABI;
  if (!rc && HEAD + m->np != size) rc = TK_EABI;
  if (rc) {
    rs_mlp_free(m);
    free(v);
    return tk_error_set(err, rc == TK_ENOMEM ? TK_ENOMEM : TK_EABI, -1,
                        "weights %s: the architecture does not fit the file's %u values", path,
                        size);
  }
  for (int i = 0; i < RS_NN_META; i++) m->meta[i] = v[i];
  for (size_t i = 0; i < m->np; i++) m->p[i] = (float)v[HEAD + i];
  free(v);
  if (sha256) {
    char hex[TK_SHA256_HEX];
    if ((rc = tk_sha256_file(path, hex, err))) {
      rs_mlp_free(m);
      return rc;
    }
    for (int i = 0; i < 32; i++) {
      unsigned x;
      sscanf(hex + 2 * i, "%2x", &x);
      sha256[i] = (uint8_t)x;
    }
  }
  return 0;
}
