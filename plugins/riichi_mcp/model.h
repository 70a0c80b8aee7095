/* plugins/riichi_mcp/model.h — the han predictors of paper 000 §5.2 over sparse binary features:
 * MCP, a 5-class softmax regression P(h | x) = exp(w_h·x) / Σ_k exp(w_k·x), h = 0..4, and BCP,
 * four logistic regressions P(>= h | x) = σ(w_h·x), h = 1..4 (the paper prints σ(-w·x); the sign
 * is immaterial). Every feature list gets one more feature, the bias (index D - 1), always on.
 *
 * Training is FOBOS with the L2² regulariser (λ_e / 2)‖w‖² per example and AdaGrad step sizes,
 * one example at a time, on the coordinates (k, j) of the active features j:
 *   g = p_k - y_k;  G += g²;  η = η0 / (δ + √G);  w ← (w - η g) / (1 + η λ_e).
 * An inactive coordinate's step has g = 0, so it only shrinks by 1 / (1 + η λ_e) with its η
 * unchanged; that shrinking is applied lazily, (1 + η λ_e)^-s for the s steps it missed, when the
 * feature is next active, at prediction, and by mcm_finalize. An example costs O(K n). */
#ifndef RIICHI_MCP_MODEL_H
#define RIICHI_MCP_MODEL_H

#include <stdint.h>

enum { MCM_MCP = 0, MCM_BCP = 1 };

typedef struct mcm_model {
  int kind;       /* MCM_MCP or MCM_BCP */
  int K;          /* weight rows: 5 (MCP) or 4 (BCP) */
  uint32_t D;     /* features per row, the bias included */
  double eta0, delta, l2; /* η0, δ, λ_e */
  double *w;      /* D * K, feature-major (the K weights of feature j at w + j * K, so that one
                     active feature touches one or two cache lines) */
  float *G;       /* D * K, the same layout: AdaGrad's sum of squared gradients */
  uint64_t *last; /* D: the step at which feature j was last brought up to date */
  uint64_t t;     /* examples seen */
} mcm_model;

/* Allocates a zero model over `nfeatures` features (the bias is added). Returns 0 or -1. */
int mcm_init(mcm_model *m, int kind, uint32_t nfeatures, double eta0, double delta, double l2);
/* Allocates a zero model for prediction only (mcm_load): w alone, no AdaGrad sums, no lazy
 * shrinking (G and last stay NULL); mcm_update and mcm_finalize must not be called on it. */
int mcm_init_predict(mcm_model *m, int kind, uint32_t nfeatures);
void mcm_free(mcm_model *m);
/* One FOBOS-AdaGrad step on example (f[0..n), label 0..4); f ascending, below nfeatures. */
void mcm_update(mcm_model *m, const uint32_t *f, int n, int label);
/* The predicted class probabilities: out[h] = P(h), h = 0..4, for MCP; for BCP out[h] =
 * P(>= h), h = 1..4, and out[0] = 1. */
void mcm_predict(const mcm_model *m, const uint32_t *f, int n, double out[5]);
/* P(>= h | x) for h = 1..4 into ge[1..4] (ge[0] = 1), from either kind. */
void mcm_predict_ge(const mcm_model *m, const uint32_t *f, int n, double ge[5]);
/* The example's log loss: MCP -log P(label); BCP the sum over h = 1..4 of the binary log loss
 * of "label >= h". */
double mcm_loss(const mcm_model *m, const uint32_t *f, int n, int label);
/* Brings every weight up to date (the lazy shrinking): w is then the model's. */
void mcm_finalize(mcm_model *m);

#endif
