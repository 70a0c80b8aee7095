/* plugins/daifugo_mcl/policy.h — the learned ranking h of paper 001 (AP or NN over features.h's
 * units) and the playout policy that draws a move by its rank, shared by the daifugo_mcl plugin,
 * its trainer and its tests.
 *
 * Weights (the values of a weights file, include/taikai/weights.h):
 * - AP: model "daifugo_mcl_ap", shape [35, 146]: w[b * 146 + c] the weight of crossed unit
 *   (B' b, C' c); h = the sum over the move's active crossed units.
 * - NN: model "daifugo_mcl_nn", shape [H, 183]: row j holds the 182 input weights of hidden
 *   unit j then its output weight v_j; h = σ(Σ_j v_j σ(Σ_f w[j][f])) over the active features.
 * AP's weights are rounded at load to the grid 2^-k (k the largest with max |w| 2^k < 2^24),
 * so that every h is a sum of integers in units of 2^-k, exact in any order: the fast scorer
 * adds precombined integer rows (below) and gets the same value, bit for bit, as dmcl_h on the
 * rounded weights. The rounding moves a weight by at most 2^-24 of the largest |w|; it can change a
 * ranking only where two moves' h differ by less than the roundings summed over their units (at
 * most 368 units, 2^-(k+1) each; two moves equal on the grid tie and are ordered at random).
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
/* AP's combined rows: each the 35 B' rows' integer weights (and a 0 pad) summed over one
 * combination of C' units that occur together:
 *   columns 1-2, 3-4, ..., 11-12: their unseen counts and our counts, 0, 1, 2+ each (6 x 81);
 *   column 13 and the joker likewise (36);
 *   the four "passed" units with DMCL_C_NFP (their sum) and our hand size's bucket (16 x 7);
 *   the others' sizes, sorted, two at a time (2 x 49);
 *   the revolution, the new table and the table's column (2 x 2 x 14).
 * A position's base for every B' unit is the sum of 11 of these rows. Then, for the change a
 * move makes to our hand, one row per change of a DMCL_C_AFTER code, the new unit's weights
 * minus the old's: 1 to 0, 2+ to 0, 2+ to 1 in each column 1..13, and the joker's 1 to 0 (40). */
enum { DMCL_T_STRIDE = 36, DMCL_T_ROWS = 828 };

typedef struct dmcl_model {
  int learner;       /* DMCL_AP or DMCL_NN */
  int hidden;        /* NN: H (1..DMCL_MAX_HIDDEN); AP: 0 */
  const double *w;   /* DMCL_CROSSED values (AP, rounded to the grid: the model's own copy) or
                        hidden * DMCL_NN_ROW (NN: borrowed, as given to dmcl_model_init) */
  int k;             /* AP: the grid is 2^-k */
  double unit;       /* AP: 2^-k */
  double *own;       /* AP: the rounded weights w points to */
  int32_t *t;        /* AP: DMCL_T_ROWS x DMCL_T_STRIDE combined rows, in units of 2^-k */
} dmcl_model;

/* Builds a model from `w` (DMCL_CROSSED values for AP; hidden * DMCL_NN_ROW for NN, which `md`
 * then borrows). Returns 0, or -1 when out of memory or a weight is not finite (md is then
 * empty; dmcl_model_free is safe on it). */
int dmcl_model_init(dmcl_model *md, int learner, int hidden, const double *w);
void dmcl_model_free(dmcl_model *md);

/* h of move `m` in `p` from its full list of features (the reference every fast path must
 * match; the NN's output sigmoid included). */
double dmcl_h(const dmcl_model *md, const dmcl_pos *p, const tk_daifugo_move *m);

/* Scores of one position's moves. */
typedef struct dmcl_scorer {
  const dmcl_model *md;
  const dmcl_pos *p;
  uint32_t hone, htwo;           /* AP: dmcl_col_counts of our hand */
  uint8_t before[14];            /* NN: DMCL_C_AFTER units of the hand before the play */
  _Alignas(16) int32_t base[DMCL_T_STRIDE]; /* AP: per B' unit, the sum over the fixed and before
                                               units (aligned: written four lanes a store, read a
                                               lane a load, no store crosses a cache line) */
  double nbase[DMCL_MAX_HIDDEN]; /* NN: per hidden unit, its input from them and the bias */
} dmcl_scorer;

/* For AP, `p` needs only the fields dmcl_pos_of_game_core fills; for NN, fixed too. */
void dmcl_scorer_init(dmcl_scorer *s, const dmcl_model *md, const dmcl_pos *p);
/* A score ordered as h (h itself for AP; for NN the output unit's input, before its sigmoid). */
double dmcl_scorer_rank_key(dmcl_scorer *s, const tk_daifugo_move *m);
/* key[i] = dmcl_scorer_rank_key(s, &m[i]) for the n moves (n <= TK_DAIFUGO_MAX_LEGAL). */
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
  int finish; /* 1: a play that empties the mover's hand is made whenever it is legal, before the
                 ranking (daifugo_search's "playout_finish"); 0: it is ranked like any other
                 (daifugo_mcl, the paper's) */
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
