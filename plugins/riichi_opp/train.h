/* plugins/riichi_opp/train.h — the parts of build/riichi_opp_train (train.c): the example rows
 * of the three models, the fits (fit.c) and the held-out figures (eval.c); the logs are read by
 * tk_riichi_log_games (riichi_log.h). Not part of the library the plugins link. */
#ifndef RIICHI_OPP_TRAIN_H
#define RIICHI_OPP_TRAIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

/* Which part of the data a game belongs to: wall = game / games-per-wall; the walls with
 * wall % M == M - 1 are held out (TEST), those with wall % M == M - 2 choose the L2 strength
 * (VAL) and are then trained on with the others (TRAIN). */
enum { SPLIT_TRAIN = 0, SPLIT_VAL = 1, SPLIT_TEST = 2 };
#define SPLITS_FIT ((1u << SPLIT_TRAIN) | (1u << SPLIT_VAL))

/* Tags of a row. */
enum { TAG_RIICHI = 1, TAG_OPEN = 2 };

/* Examples of one model: row i is x[i * d .. i * d + d), its label y[i] (0/1, or the log of the
 * payment), its split and tags. */
typedef struct rows {
  int d;
  float *x, *y;
  uint8_t *split, *tag;
  size_t n, cap;
} rows;

void rows_push(rows *r, const float *x, float y, int split, int tag);
void rows_free(rows *r);
/* Is row i selected: its split in the mask `splits`, and (tag & mask) == want? */
static inline int rows_sel(const rows *r, size_t i, unsigned splits, int mask, int want) {
  return (splits >> r->split[i] & 1) && (r->tag[i] & mask) == want;
}

/* fit.c. The weights minimising the mean log loss of the selected rows plus lambda/2 |w|^2
 * (the bias w[0] is not penalised), by Newton's method from w's content. Returns the number of
 * iterations, or -1 when the Hessian is not positive definite. */
int fit_logistic(const rows *r, unsigned splits, int mask, int want, double lambda, double *w);
/* Mean log loss of the selected rows under w (probabilities clipped to [1e-6, 1 - 1e-6]). */
double logistic_loss(const rows *r, unsigned splits, int mask, int want, const double *w);
/* Ridge regression of y on x: mean squared error plus lambda |w|^2 (bias free). Returns 0 or
 * -1 as fit_logistic. */
int fit_ridge(const rows *r, unsigned splits, double lambda, double *w);
double ridge_mse(const rows *r, unsigned splits, const double *w);

/* eval.c. Prints the figures of binary predictions p[i] against labels y[i] (0/1): count, base
 * rate, log loss beside a constant's (base_train: the training set's rate), accuracy at 0.5,
 * AUC, ECE and the 10-bin calibration table (when `table`). */
void eval_binary(FILE *f, const char *title, const double *p, const float *y, size_t n,
                 double base_train, int table);

#endif
