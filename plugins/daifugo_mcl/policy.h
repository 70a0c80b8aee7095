/* plugins/daifugo_mcl/policy.h — the learned ranking h of paper 001 (AP or NN over features.h's
 * units) and the playout policy that draws a move by its rank, shared by the daifugo_mcl plugin,
 * its trainer and its tests.
 *
 * Weights (the values of a weights file, include/taikai/weights.h):
 * - AP: model "daifugo_mcl_ap", shape [35, 146]: w[b * 146 + c] the weight of crossed unit
 *   (B' b, C' c); h = the sum over the move's active crossed units.
 * - NN: model "daifugo_mcl_nn", shape [H, 183]: row j holds the 182 input weights of hidden
 *   unit j then its output weight v_j; h = σ(Σ_j v_j σ(Σ_f w[j][f])) over the active features.
 * Scoring a position's moves goes through dmcl_scorer, which computes once per position what
 * does not depend on the move (the fixed C' units and the hand before the play), so a move
 * costs its B' units times the columns it takes from the hand. */
#ifndef DAIFUGO_MCL_POLICY_H
#define DAIFUGO_MCL_POLICY_H

#include "features.h"
#include "taikai/rng.h"

#define DMCL_MODEL_AP "daifugo_mcl_ap"
#define DMCL_MODEL_NN "daifugo_mcl_nn"

enum { DMCL_AP = 0, DMCL_NN = 1 };
enum { DMCL_NN_ROW = DMCL_FEATURES + 1, DMCL_MAX_HIDDEN = 256, DMCL_DEFAULT_HIDDEN = 16 };

typedef struct dmcl_model {
  int learner;       /* DMCL_AP or DMCL_NN */
  int hidden;        /* NN: H (1..DMCL_MAX_HIDDEN); AP: 0 */
  const double *w;   /* borrowed: DMCL_CROSSED values (AP) or hidden * DMCL_NN_ROW (NN) */
} dmcl_model;

/* h of move `m` in `p` from its full list of features (the reference every fast path must
 * match; the NN's output sigmoid included). */
double dmcl_h(const dmcl_model *md, const dmcl_pos *p, const tk_daifugo_move *m);

/* Scores of one position's moves. */
typedef struct dmcl_scorer {
  const dmcl_model *md;
  const dmcl_pos *p;
  uint64_t have;                 /* AP: bit b set once base[b] is computed */
  uint8_t before[14];            /* DMCL_C_AFTER units of the hand before the play */
  double base[DMCL_MAX_HIDDEN];  /* AP: per B' unit, the sum over the fixed and before units;
                                    NN: per hidden unit, its input from them and the bias */
} dmcl_scorer;

void dmcl_scorer_init(dmcl_scorer *s, const dmcl_model *md, const dmcl_pos *p);
/* A score ordered as h (h itself for AP; for NN the output unit's input, before its sigmoid). */
double dmcl_scorer_rank_key(dmcl_scorer *s, const tk_daifugo_move *m);
/* key[i] = dmcl_scorer_rank_key(s, &m[i]) for the n moves (n <= TK_DAIFUGO_MAX_LEGAL), the same
 * bits, faster: the AP rows every move needs are summed together. */
void dmcl_scorer_keys(dmcl_scorer *s, const tk_daifugo_move *m, int n, double *key);

/* P(the i-th ranked of k moves is drawn), i 1-based: α^(i-1)(1-α)/(1-α^k); α 0 gives the first
 * with certainty, α 1 (or more) is uniform. */
double dmcl_rank_prob(double alpha, int k, int i);
/* Draws a 0-based rank from that distribution. */
int dmcl_draw_rank(double alpha, int k, tk_rng *r);

/* The playout policy's state: the model, α, and whether the pass is a candidate when the table
 * is not new (`no_pass` 0: the paper's proposal; 1: the pass only when forced, as in plain MC's
 * playouts, so that α 1 is exactly plain MC's playout distribution). */
typedef struct dmcl_policy {
  dmcl_model md;
  double alpha;
  int no_pass;
} dmcl_policy;

/* Writes g->turn's playout move: the legal moves (the pass included unless the table is new or
 * no_pass is set, and always when it is the only one) ranked by h, the i-th drawn with dmcl_rank_prob, ties in h broken at random. With α >= 1 the
 * move is uniform over them and h is not computed. `ctx` is a dmcl_policy; `g` not over. The
 * signature of dmc_policy_fn (plugins/daifugo_mc/dmc.h). */
void dmcl_policy_move(void *ctx, const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *out);

/* Index into `m` (n >= 1 moves) of the draw above, given their position `p`. */
int dmcl_pick(const dmcl_policy *pol, const dmcl_pos *p, const tk_daifugo_move *m, int n,
              tk_rng *r);

#endif
