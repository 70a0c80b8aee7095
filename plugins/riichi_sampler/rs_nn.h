/* plugins/riichi_sampler/rs_nn.h — a small multilayer perceptron over CBLAS (float): dense layers,
 * SiLU between them (the last layer linear), minibatch forward and backward, Adam, and
 * save/load through the project's weights file (taikai/weights.h, format 2).
 *
 * Matrix products go through cblas_sgemm. Which CBLAS is a build choice (rs_cblas.h): the trainer
 * links OpenBLAS when found (fast), the sampler inside plugins links GSL's reference CBLAS always,
 * because OpenBLAS picks CPU-specific kernels whose float sums differ in the last bits between
 * machines and a tournament must be byte-identical everywhere for a seed. GSL's CBLAS is plain
 * loops in a fixed order: the same bits on every x86-64 machine built with the same flags.
 *
 * Layout: layer l maps n[l] inputs to n[l+1] outputs, W_l row-major [n[l]][n[l+1]] (row i = the
 * weights from input i), then b_l [n[l+1]]; all layers' parameters follow one another in one
 * float array, layer 0 first. A batch is row-major [rows][width]. */
#ifndef RIICHI_SAMPLER_RS_NN_H
#define RIICHI_SAMPLER_RS_NN_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "taikai/common.h"
#include "rs_math.h"
#include "taikai/rng.h"

enum { RS_NN_MAX_LAYERS = 6, RS_NN_META = 640 };

typedef struct rs_mlp {
  int nl;                        /* layers (weight matrices), 1..RS_NN_MAX_LAYERS */
  int n[RS_NN_MAX_LAYERS + 1];   /* widths: n[0] inputs ... n[nl] outputs */
  size_t off[RS_NN_MAX_LAYERS];  /* offset of W_l in p; b_l follows it */
  size_t np;                     /* parameters in all */
  float *p;                      /* owned */
  double meta[RS_NN_META];       /* the model's own numbers saved with it (steps, options) */
} rs_mlp;

/* Activations of one batch kept for the backward pass. */
typedef struct rs_mlp_cache {
  int rows, cap;
  float *a[RS_NN_MAX_LAYERS + 1]; /* a[0] = input, a[l] = output of layer l (after SiLU) */
  float *z[RS_NN_MAX_LAYERS + 1]; /* pre-activations of layers 1..nl */
  float *d[2];                    /* scratch for the backward pass */
} rs_mlp_cache;

typedef struct rs_adam {
  float *m, *v, *g;  /* moments and the gradient (np each) */
  double lr, b1, b2, eps;
  long t;
} rs_adam;

/* Allocates a network of widths n[0..nl] with weights uniform in +-sqrt(6 / (in + out)) (Glorot)
 * drawn from `rng` and zero biases. Returns 0 or TK_ENOMEM / TK_EINVAL. */
int rs_mlp_init(rs_mlp *m, int nl, const int *n, tk_rng *rng, tk_error *err);
void rs_mlp_free(rs_mlp *m);

static inline float *rs_mlp_w(const rs_mlp *m, int l) { return m->p + m->off[l]; }
static inline float *rs_mlp_b(const rs_mlp *m, int l) {
  return m->p + m->off[l] + (size_t)m->n[l] * (size_t)m->n[l + 1];
}

/* SiLU, z sigmoid(z), through rs_exp (rs_math.h: the same bits on every machine). */
static inline float rs_silu(float z) { return (float)(z / (1.0 + rs_exp(-(double)z))); }

/* Layer l on a batch: y[rows][n[l+1]] = x[rows][n[l]] W_l + b_l (no activation). */
void rs_mlp_dense(const rs_mlp *m, int l, int rows, const float *x, float *y);
/* The whole network on a batch: out[rows][n[nl]]. `c` keeps what backward needs (NULL: forward
 * only, with `scratch` of 2 x rows x max width floats). */
int rs_mlp_forward(const rs_mlp *m, int rows, const float *x, float *out, rs_mlp_cache *c,
                   float *scratch);
/* From layer `from` on: x is the input of layer `from` (already activated). */
void rs_mlp_forward_from(const rs_mlp *m, int from, int rows, const float *x, float *out,
                         float *scratch);
/* Accumulates into g (np floats) the gradient of the loss whose derivative by the last forward's
 * output is dout[rows][n[nl]]. */
void rs_mlp_backward(const rs_mlp *m, rs_mlp_cache *c, const float *dout, float *g);
void rs_mlp_cache_free(rs_mlp_cache *c);

int rs_adam_init(rs_adam *a, const rs_mlp *m, double lr, tk_error *err);
/* One Adam step on m with a->g (then zeroed). */
void rs_adam_step(rs_adam *a, rs_mlp *m);
void rs_adam_free(rs_adam *a);

/* Saves m as a format-2 weights file of model `model`, version `version`, shape [size]: the
 * values are RS_NN_META numbers of the model (m->meta), nl, n[0..nl], then the parameters.
 * Returns 0 or TK_EIO / TK_ENOMEM. */
int rs_mlp_save(const char *path, const rs_mlp *m, const char *model, uint32_t version,
                tk_error *err);
/* Loads what rs_mlp_save wrote, refusing another model name or version, a damaged file, or an
 * architecture that does not fit the file's size. `sha256` (may be NULL) receives the file's
 * SHA-256. Returns 0 or TK_E* naming the file. */
int rs_mlp_load(const char *path, const char *model, uint32_t version, rs_mlp *m,
                uint8_t sha256[32], tk_error *err);

#endif
