/* plugins/riichi_sampler/direct.h — paper 003's "direct" baseline: no hands are generated; an
 * MLP (rs_nn.h) maps the observation c (obs.h) to, for each opponent (viewer-relative 1, 2, 3),
 * a distribution over its shanten 0..6 (6: six or more; softmax, cross-entropy) and the
 * probability that each kind is one of its winning tiles (34 sigmoids, binary cross-entropy;
 * all 0 unless the hand is tenpai). Output layout: for opponent i, [41 i, 41 i + 7) the shanten
 * logits, then 34 wait logits. */
#ifndef RIICHI_SAMPLER_DIRECT_H
#define RIICHI_SAMPLER_DIRECT_H

#include "obs.h"
#include "rs_nn.h"

#define RS_DIRECT_MODEL "rs_direct"
enum { RS_DIRECT_SH = 7, RS_DIRECT_PER = RS_DIRECT_SH + TK_KINDS, RS_DIRECT_OUT = 3 * RS_DIRECT_PER };

typedef struct rs_direct {
  rs_mlp net;
  uint8_t sha256[32];
} rs_direct;

/* Loads a weights file written by build/riichi_diffusion_train --model direct (model
 * "rs_direct", obs version RS_OBS_VERSION, RS_OBS_DIM -> RS_DIRECT_OUT). Returns 0 or TK_E*. */
int rs_direct_load(rs_direct *m, const char *path, tk_error *err);
void rs_direct_free(rs_direct *m);

/* The prediction for the viewer of `v` (default rules): shanten[i][s] = P(opponent i + 1 has
 * shanten s) (s = 6: six or more), wait[i][k] = P(kind k wins for opponent i + 1). Returns 0, or
 * -1 when out of memory (the arrays are then zero). Thread-safe: m is only read. */
int rs_direct_predict(const rs_direct *m, const tk_riichi_view *v, double shanten[3][7],
                      double wait[3][34]);

/* Training: the loss of one output row against the truth (shanten per opponent, clamped to
 * 0..6; waits as kind bit masks), and its derivative by the row into dout (scaled by `scale`). */
double rs_direct_loss(const float out[RS_DIRECT_OUT], const uint8_t sh[3], const uint64_t wait[3],
                      float scale, float dout[RS_DIRECT_OUT]);

#endif
