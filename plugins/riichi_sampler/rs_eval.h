/* plugins/riichi_sampler/rs_eval.h — paper 003's evaluation of opponent-hand guessers
 * (build/riichi_sampler_eval, docs/riichi-samplers.md "Evaluation"): the prediction every entrant
 * is reduced to (rs_pred), the truth it is measured against (rs_truth), and the accumulators of
 * the metrics (rs_eval_acc). Two kinds of entrant share one code path: a sampler's k samples are
 * counted into an rs_pred (rs_pred_from_games); a predictor (the paper's "direct prediction"
 * baseline) fills one itself through an rs_predict_fn. Opponents are viewer-relative: index
 * o = 0, 1, 2 is seat rs_seat_of(viewer, o + 1) (next, across, previous). */
#ifndef RIICHI_SAMPLER_RS_EVAL_H
#define RIICHI_SAMPLER_RS_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "taikai/common.h"
#include "taikai/riichi.h"

enum {
  RS_SHANTEN_N = 7, /* shanten classes of an opponent's 3k+1 concealed tiles: 0 .. 6 (6 is the
                       most any such hand has, so the last class is exact) */
  RS_TURNS = 18,    /* turn buckets 1 .. 18; later turns count in 18 */
  RS_TURN_CLASSES = 5, /* the by-turn distribution's classes: shanten 0, 1, 2, 3, 4+ */
  RS_BINS = 10,     /* reliability bins [0, .1), ..., [.9, 1] */
};

/* What an entrant says about one position: per opponent o, a distribution over its shanten
 * (shanten[o][s] = P(shanten = s), summing to 1) and, per kind t, the probability that t is one
 * of its waits (wait[o][t]; a hand that is not tenpai has no wait). */
typedef struct rs_pred {
  double shanten[3][RS_SHANTEN_N];
  double wait[3][TK_KINDS];
} rs_pred;

/* The true hands' answers: per opponent, its shanten (0 .. 6) and its waits (bit t: kind t,
 * tk_waits of the concealed tiles; 0 when not tenpai). */
typedef struct rs_truth {
  int shanten[3];
  uint64_t waits[3];
} rs_truth;

/* A predictor: from the viewer's view alone, fills *out. Returns 0, or a negative TK_E code
 * with err set. ctx is the predictor's own (a model). The hook for the "direct" baseline
 * (--predictor NAME in build/riichi_sampler_eval: see the table there). */
typedef int (*rs_predict_fn)(void *ctx, const tk_riichi_view *v, rs_pred *out, tk_error *err);

/* The shanten (0 .. 6) and waits of concealed counts c of 3k+1 tiles (13 - 3 x melds): returns 0,
 * or TK_EINVAL when c is not such a hand. */
int rs_hand_answer(const uint8_t c[TK_KINDS], int *shanten, uint64_t *waits);

/* The truth of position g (the game at a decision of `viewer`; every hand known): the concealed
 * hands of the three opponents. Returns 0 or TK_EINVAL (an opponent's count is not 3k+1). */
int rs_truth_of(const tk_riichi_game *g, int viewer, rs_truth *out);

/* Counts k sampled games (each with every opponent's concealed hand chosen) into *out: the
 * fraction of samples at each shanten, and of samples in which each kind is a wait. Returns 0,
 * or TK_EINVAL when a sample's opponent hand is not 3k+1 tiles (err names the sample and seat). */
int rs_pred_from_games(const tk_riichi_game *games, int k, int viewer, rs_pred *out,
                       tk_error *err);

/* The shanten error of a distribution against the truth: sqrt(sum_s p(s) (s - truth)^2), which
 * for a distribution counted from k samples is the RMS over the samples of
 * (shanten_sample - shanten_true). */
double rs_shanten_rms(const double p[RS_SHANTEN_N], int truth);

/* One (probability, outcome) pair of the wait calibration, and the fold it belongs to (the
 * position's parity: Platt scaling is cross-fitted, fitted on one fold, applied to the other). */
typedef struct rs_calib_pair {
  float p;
  uint8_t y;
  uint8_t fold;
} rs_calib_pair;

/* A reliability table: per bin, the pairs in it, their mean probability and their frequency of
 * the outcome; ECE = sum over bins of n_b / n x |mean p_b - freq_b|. */
typedef struct rs_reliability {
  size_t n[RS_BINS];
  double mean_p[RS_BINS];
  double freq[RS_BINS];
  size_t total;
  double ece;
  double brier;   /* mean (p - y)^2 */
  double logloss; /* mean -log(p) for y = 1, -log(1 - p) for y = 0, p clipped to RS_CLIP */
} rs_reliability;

#define RS_CLIP 1e-4
/* The reliability table of p[i] against y[i], i < n. A constant predictor at the base rate has
 * ECE 0 here (all pairs in one bin): read ECE with the Brier score and the log loss. */
void rs_reliability_of(const double *p, const uint8_t *y, size_t n, rs_reliability *out);

/* Platt scaling: the a, b maximising the likelihood of y under sigmoid(a x logit(p) + b) over
 * the pairs with fold == fold (fold -1: all), p clipped to [RS_CLIP, 1 - RS_CLIP] before the
 * logit (a probability of exactly 0 or 1 has no logit). Newton's method on the two parameters
 * with a ridge of 1e-3 (the optimum is unbounded for separable data, e.g. a perfect predictor).
 * Returns the number of pairs used; with none, a = 1 and b = 0 (the identity on clipped p). */
size_t rs_platt_fit(const rs_calib_pair *pairs, size_t n, int fold, double *a, double *b);
/* sigmoid(a x logit(clip(p)) + b). */
double rs_platt_apply(double p, double a, double b);

/* Accumulated metrics of one entrant over positions. */
typedef struct rs_eval_acc {
  /* shanten error, per opponent o and pooled (index 3): over positions, the sum of the per-
   * position RMS e, of e^2 (the mean squared error), and the count */
  double sum_e[4], sum_e2[4];
  size_t npos[4];
  /* tenpai: sum over opponent-positions of the predicted P(tenpai) and of the true indicator */
  double tenpai_pred[3], tenpai_true[3];
  /* by turn (bucket 0 .. RS_TURNS - 1 is turn 1 .. 18+): predicted mass and true counts of the
   * classes shanten 0, 1, 2, 3, 4+, over opponent-positions */
  double turn_pred[RS_TURNS][RS_TURN_CLASSES];
  double turn_true[RS_TURNS][RS_TURN_CLASSES];
  size_t turn_n[RS_TURNS];
  /* wait calibration pairs: every opponent and every kind of every position */
  rs_calib_pair *pairs;
  size_t npairs, cap;
  /* cost: CPU seconds of the sampling (or predicting) calls, and the samples drawn */
  double cpu_s;
  unsigned long long samples;
  size_t positions;
} rs_eval_acc;

/* Adds one position: the entrant's prediction, the truth, the viewer's turn (1-based; its
 * discard about to be made), the position's fold (0/1). Returns 0, or TK_ENOMEM. */
int rs_eval_add(rs_eval_acc *a, const rs_pred *p, const rs_truth *t, int turn, int fold);
/* Frees the pairs (not a itself); then a is as zeroed. */
void rs_eval_free(rs_eval_acc *a);

/* The summary of an accumulator. */
typedef struct rs_eval_summary {
  double err_mean[4], err_sd[4], mse[4]; /* per opponent, then pooled; sd: over positions, n-1 */
  size_t npos[4];
  double tenpai_pred[3], tenpai_true[3]; /* rates */
  rs_reliability raw, platt;
  double platt_a[2], platt_b[2]; /* fitted on fold f, applied to fold 1 - f */
} rs_eval_summary;

/* Computes the summary; returns 0 or TK_ENOMEM. */
int rs_eval_summarize(const rs_eval_acc *a, rs_eval_summary *out);

#endif
