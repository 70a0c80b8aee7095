/* plugins/riichi_efr/efr_internal.h — the features of the EFR model, shared by efr.c, its
 * trainer and the tests (not part of the contract in efr.h).
 *
 * A multinomial logistic regression: P(rank r | s, seat) ∝ exp(Σ_k w[f_k][r]) over the
 * EFR_ACTIVE features f_k of the situation, each the one active entry of one group:
 *   DIFF   round class × relative seat × opponent j (1..3 seats after) × difference bin
 *          (floor((own − opponent) / 1000) clipped to [−30, 30]): the per-opponent conjunctions
 *          that let a 10,000-point lead weigh more in East 4 than in East 1;
 *   PHASE  the same with the phase (East 1..3, or East 4 and the extension) for the round class;
 *   POOLED the same with no round at all: with L2, these two carry what the round classes
 *          share, so that a class with little data (the extension) leans on them;
 *   BIAS   round class × relative seat;
 *   STICKS round class × relative seat × riichi sticks (0, 1, 2, 3+);
 *   HONBA  round class × relative seat × honba (0, 1, 2, 3+);
 *   RANK   round class × relative seat × current rank (taikai's tie rule);
 *   OWN    round class × relative seat × own points in 2,500-point bins (0 .. 24, clipped):
 *          the 30,000 end and the bust, which differences alone cannot place;
 *   TOP    round class × relative seat × whether an opponent holds 30,000 or more.
 * Round classes: East 1..4 (0..3), the extension's hands 4..6 (class 4), its last hand 7 (5).
 * The relative seat is (seat − dealer) mod 4, the dealer being round mod 4.
 * Weights are feature-major: w[f * 4 + r], r = 0 for rank 1. */
#ifndef RIICHI_EFR_INTERNAL_H
#define RIICHI_EFR_INTERNAL_H

#include <stdint.h>

#include "efr.h"

#define EFR_MODEL "riichi_efr"
#define EFR_FEATURE_VERSION 1u

enum {
  EFR_RC = 6,      /* round classes */
  EFR_BIN_MAX = 30, /* difference bins -30 .. 30 (thousands of points) */
  EFR_BINS = 2 * EFR_BIN_MAX + 1,
  EFR_CAP = 4,     /* sticks and honba: 0, 1, 2, 3+ */
  EFR_OWN = 25,    /* own points: 2,500-point bins */
  EFR_CELLS = EFR_RC * 4, /* round class × relative seat */

  EFR_G_DIFF = 0,
  EFR_G_PHASE,
  EFR_G_POOLED,
  EFR_G_BIAS,
  EFR_G_STICKS,
  EFR_G_HONBA,
  EFR_G_RANK,
  EFR_G_OWN,
  EFR_G_TOP,
  EFR_GROUPS,

  EFR_OFF_DIFF = 0,
  EFR_OFF_PHASE = EFR_OFF_DIFF + EFR_CELLS * 3 * EFR_BINS,
  EFR_OFF_POOLED = EFR_OFF_PHASE + 2 * 4 * 3 * EFR_BINS,
  EFR_OFF_BIAS = EFR_OFF_POOLED + 4 * 3 * EFR_BINS,
  EFR_OFF_STICKS = EFR_OFF_BIAS + EFR_CELLS,
  EFR_OFF_HONBA = EFR_OFF_STICKS + EFR_CELLS * EFR_CAP,
  EFR_OFF_RANK = EFR_OFF_HONBA + EFR_CELLS * EFR_CAP,
  EFR_OFF_OWN = EFR_OFF_RANK + EFR_CELLS * 4,
  EFR_OFF_TOP = EFR_OFF_OWN + EFR_CELLS * EFR_OWN,
  EFR_FEATURES = EFR_OFF_TOP + EFR_CELLS * 2,

  /* active features of one situation: three of each DIFF, PHASE, POOLED, one of each other */
  EFR_ACTIVE = 9 + EFR_GROUPS - 3
};

/* The names of the groups, for the trainer's --groups and messages ("diff", "bias", ...). */
extern const char *const efr_group_name[EFR_GROUPS];
/* The group of feature index f. */
int efr_group_of(uint32_t f);

/* The round class of hand `round` (0 = East 1). */
static inline int efr_round_class(int round) { return round < 4 ? round : round < 7 ? 4 : 5; }

/* The difference bin (0 .. EFR_BINS-1) of own − opponent points. */
static inline int efr_diff_bin(int32_t d) {
  int b = d >= 0 ? d / 1000 : -((-d + 999) / 1000); /* floor */
  b = b < -EFR_BIN_MAX ? -EFR_BIN_MAX : b > EFR_BIN_MAX ? EFR_BIN_MAX : b;
  return b + EFR_BIN_MAX;
}

/* Writes the EFR_ACTIVE feature indices of `seat` in `s` to f: DIFF for j = 1, 2, 3 first, then
 * PHASE and POOLED likewise, then BIAS, STICKS, HONBA, RANK, OWN, TOP. */
void efr_features(const rm_efr_state *s, int seat, uint32_t f[EFR_ACTIVE]);

/* P(rank) from the weights `w` (EFR_FEATURES × 4) and the active features `f`. */
void efr_probs_of(const double *w, const uint32_t f[EFR_ACTIVE], double p[4]);

/* A model holding a copy of `w` (EFR_FEATURES × 4 doubles). Returns 0 or TK_ENOMEM. */
int efr_from_values(const double *w, rm_efr **out, tk_error *err);
/* The model's weights (EFR_FEATURES × 4), borrowed. */
const double *efr_values(const rm_efr *m);
/* Writes `w` (EFR_FEATURES × 4) to `path` as a format-1 weights file. Returns 0 or TK_EIO. */
int efr_save(const char *path, const double *w, tk_error *err);

#endif
