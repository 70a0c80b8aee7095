/* plugins/riichi_sampler/autoregressive.h — paper 003's autoregressive baseline, in the same
 * spirit but smaller: not a GPT over tile tokens but an MLP (rs_nn.h) that gives the next tile's
 * kind from the observation c (obs.h), the tiles drawn so far for the 3 opponents and whose
 * turn it is. Hands are generated one tile at a time, opponents in order (viewer-relative 1, 2,
 * 3), each tile sampled from the softmax over the kinds that still have unseen copies (never
 * beam search, as the paper). Trained as the paper does on shuffled hands: a row is an
 * opponent i, the earlier opponents' complete hands, a random prefix of opponent i's shuffled
 * tiles, and the next of them as the target (cross-entropy). Red fives: an opponent holding n of
 * the u unseen fives of a suit holds the red one with probability n / u (drawn from the rng).
 *
 * Input layout, RS_AR_IN numbers: c; the 3 opponents' counts so far / 4; a one-hot of the
 * opponent being dealt; the tiles it still needs / 14. Output: 34 logits. */
#ifndef RIICHI_SAMPLER_AUTOREGRESSIVE_H
#define RIICHI_SAMPLER_AUTOREGRESSIVE_H

#include "obs.h"
#include "rs_nn.h"
#include "rsamp.h"

#define RS_AR_MODEL "rs_autoregressive"
enum { RS_AR_IN = RS_OBS_DIM + 3 * TK_KINDS + 3 + 1 };

typedef struct rs_ar {
  rs_mlp net;
  uint8_t sha256[32];
  float *buf;   /* scratch */
  unsigned long long samples;
} rs_ar;

int rs_ar_load(rs_ar *m, const char *path, tk_error *err);
void rs_ar_free(rs_ar *m);

/* One input row: c, counts so far (3 x 34), the opponent i being dealt, the tiles it needs. */
void rs_ar_input(const float c[RS_OBS_DIM], const uint8_t sofar[3][TK_KINDS], int i, int left,
                 float in[RS_AR_IN]);

/* The 3 opponents' hands for observation c: need[i] tiles each from the unseen copies. Returns 0
 * or -1 when the unseen tiles cannot fill them. */
int rs_ar_hands(rs_ar *m, const float c[RS_OBS_DIM], const int need[3],
                const uint8_t unseen[TK_KINDS], uint8_t red_unseen, tk_rng *rng,
                uint8_t hands[3][TK_KINDS], uint8_t red[3]);

/* The sampler (tk_riichi_sample_fn), ctx an rs_ar. */
int rs_ar_sample(void *ctx, const tk_riichi_view *v, const tk_riichi_rules *rules, tk_rng *rng,
                 int k, tk_riichi_game *out, tk_error *err);
/* rsamp.c's opener of "autoregressive": no options; default weights riichi_autoregressive.tkw. */
int rs_ar_open(rs_sampler *s, const char *options_json, const char *file, tk_error *err);

#endif
