/* plugins/riichi_nn002/nn.h — paper 002's discard selector (../shared/specs/riichi-agents.md §3;
 * docs/riichi-nn002.md): a 3-layer network over 820 boolean inputs that scores the 34 tile kinds
 * for discarding.
 *
 * Inputs (nn_encode; all thermometer codes over the 34 kinds, bit (k, c) = [count_k > c] for
 * c = 0..3, so a block of 136 per count vector; players in the order self, right, across, left):
 *   [0, 4)        riichi declared, per player
 *   [4, 140)      the own concealed hand (the tiles before the discard; melds do not appear)
 *   [140, 684)    each player's river as counts (every discarded tile, called ones included)
 *   [684, 820)    the tiles unseen from the player's view (4 - own - visible)
 * Red fives count as fives (the paper's rules have none).
 *
 * The network: h_m = σ(Σ_i x_i W_mi + b_m), o_k = Σ_m V_km h_m + c_k, σ(x) = 1/(1 + e^-x). The
 * paper's configuration ("faithful") has no biases (b = c = 0, never trained), sigmoid outputs
 * and squared error ½Σ(σ(o_k) - t_k)², plain online gradient descent; the "improved" one
 * (beyond the paper) trains the biases and uses softmax outputs with cross-entropy. Either plays
 * the kind in hand of largest o_k.
 *
 * The weights file (a taikai weights file, model "riichi_nn002", feature version 1) has shape
 * [M + 1, 855] for M hidden units: row m < M is W_m (820), b_m, then V_km for k = 0..33; the last
 * row is 821 zeros and then c_k. */
#ifndef RIICHI_NN002_NN_H
#define RIICHI_NN002_NN_H

#include <stdint.h>

#include "taikai/common.h"
#include "taikai/riichi.h"
#include "taikai/rng.h"

enum {
  NN_INPUTS = 820,
  NN_KINDS = 34,
  NN_ROW = NN_INPUTS + 1 + NN_KINDS, /* a row of the weights file */
  NN_OFF_RIICHI = 0,
  NN_OFF_HAND = 4,
  NN_OFF_RIVER = 140,
  NN_OFF_UNSEEN = 684,
  NN_MAX_ACTIVE = NN_INPUTS
};
#define NN_MODEL "riichi_nn002"
#define NN_VERSION 1u

typedef struct nn_model {
  int hidden;   /* M */
  int improved; /* training rule: 0 the paper's, 1 biases + softmax cross-entropy */
  double *w;    /* M × (NN_INPUTS + 1): W_m then b_m */
  double *v;    /* NN_KINDS × (M + 1): V_km then c_k */
} nn_model;

/* The active inputs of the view of the player deciding (ascending). Returns their number. */
int nn_encode(const tk_riichi_view *v, uint16_t *x);

/* A model of `hidden` units with weights drawn uniformly from [-init, init] by `rng` (biases 0).
 * Returns 0 or TK_ENOMEM. */
int nn_init(nn_model *m, int hidden, int improved, double init, tk_rng *rng, tk_error *err);
void nn_free(nn_model *m);

/* Forward: the hidden activations into h[M] (may be NULL: scratch of its own is not kept, the
 * caller passes one) and the pre-activations o[34]. */
void nn_forward(const nn_model *m, const uint16_t *x, int nx, double *h, double o[NN_KINDS]);
/* The example's loss under the model's rule (squared error or cross-entropy). */
double nn_loss(const nn_model *m, const double o[NN_KINDS], int target);
/* One step of online gradient descent with rate eta on example (x, target); h and o are
 * scratch of M and 34 doubles. Returns the loss before the step. */
double nn_step(nn_model *m, const uint16_t *x, int nx, int target, double eta, double *h,
               double o[NN_KINDS]);

/* The kind in hand (counts c) of largest o; -1 when the hand is empty. */
int nn_pick(const double o[NN_KINDS], const uint8_t c[NN_KINDS]);

int nn_save(const char *path, const nn_model *m, tk_error *err);
/* Loads a weights file; the hidden size comes from the file. Returns 0, or an error naming the
 * file and the field. */
int nn_load(const char *path, nn_model *m, tk_error *err);

#endif
