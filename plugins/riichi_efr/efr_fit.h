/* plugins/riichi_efr/efr_fit.h — fitting the EFR model and the baselines it is judged against:
 * examples (a seat at a hand boundary and its final rank), the L2-regularised multinomial
 * logistic regression fitted by L-BFGS, the prior, and the empirical and smoothed tables. */
#ifndef RIICHI_EFR_FIT_H
#define RIICHI_EFR_FIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "efr_internal.h"

/* Examples: the active features and the final rank (0 = first) of each. */
typedef struct efr_set {
  uint32_t *f;   /* n × EFR_ACTIVE */
  uint8_t *y;    /* n ranks, 0..3 */
  uint8_t *rel;  /* n relative seats (the prior's cell) */
  size_t n, cap;
} efr_set;

/* Appends `seat` at `s` with final rank `rank` (1..4). Returns 0 or TK_ENOMEM. */
int efr_set_add(efr_set *set, const rm_efr_state *s, int seat, int rank, tk_error *err);
void efr_set_free(efr_set *set);

/* Mean negative log-likelihood (nats) of `set` under the weights `w`. */
double efr_loss(const double *w, const efr_set *set);

/* Fits w (EFR_FEATURES × 4, holding the starting point: zeros, or a nearby fit) minimising the mean negative log-likelihood of `set`
 * plus lambda/2 · |w|², the features of the groups with on[g] == 0 held at zero. Runs L-BFGS
 * up to max_iter iterations; returns the iterations used. `log` (may be NULL): progress. */
int efr_fit(const efr_set *set, double lambda, const uint8_t on[EFR_GROUPS], int max_iter,
            FILE *log, double *w);

/* P(rank | relative seat) from `set`, add-one smoothed: prior[rel][r]. */
void efr_prior(const efr_set *set, double prior[4][4]);
/* Mean negative log-likelihood of `set` under `prior`. */
double efr_prior_loss(const double prior[4][4], const efr_set *set);

/* The table of the cells (round class, relative seat, the three difference bins): rank counts
 * of `train`. The held-out comparison: over the examples of `held` whose cell has data in
 * `train`, their number (*covered), the loss of the table's frequencies add-½ smoothed
 * (*table), and the loss of the model `w` on the same examples (*model). `smooth_k` > 0 also
 * gives, over all of `held`, the loss of the smoothed table: counts plus smooth_k pseudo-counts
 * spread as the frequencies of the coarser cell (round class, relative seat, current rank)
 * (*smoothed). Returns 0 or TK_ENOMEM. */
typedef struct efr_table_cmp {
  size_t covered;
  double table, model;
  double smoothed[8]; /* for each k of smooth_k */
} efr_table_cmp;
int efr_table_compare(const efr_set *train, const efr_set *held, const double *w,
                      const double *smooth_k, int nk, efr_table_cmp *out, tk_error *err);

/* Prints the calibration of `w` on `set`: EFR in bins of 0.25 (mean predicted against mean
 * rank) and, for each rank, P(rank) in tenths (mean predicted against frequency). */
void efr_calibration(FILE *f, const double *w, const efr_set *set);

#endif
