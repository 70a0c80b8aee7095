/* plugins/riichi_score/score.h — paper 000's Score(x) and Penalty(z)
 * (../shared/specs/riichi-agents.md §2.7; docs/riichi-table-6-7.md says every reading):
 *
 *   Score(x) = Σ_{i=1..4} Σ_{j} P(i, j | x) · EFR(y(z, i, j)) + P(0 | x) · Penalty(z)
 *
 * where z is the score situation now, P(i | x) the han model's probability of winning this hand
 * with i han (4: four or more) from the hand x, j one of the four ways to win (tsumo, ron off
 * each opponent), each P(i)/4, y(z, i, j) the situation after that win of i han 30 fu (honba
 * and sticks paid, the dealer's repeat), and Penalty(z) the mean EFR over the end-of-hand
 * outcomes in which the seat does not win. EFR is an expected final rank: Score is minimised.
 *
 * The spec's corrections are applied: the no-win weight is P(0 | x) (1), BCP's conversion is
 * P(0) = 1 - P_bc(>= 1), P(i) = P_bc(>= i) - P_bc(>= i+1) with P_bc(>= 5) = 0 (2), literal or
 * clamped at 0 and renormalised (3), Score minimised (4), class 4 scored as 4 han 30 fu with the
 * honba and sticks paid (5), the dealer's repeat after its own win part of y (6).
 *
 * Penalty(z) comes from a table of outcomes (riichi_penalty_train reads game logs): every hand
 * of the records as a score change in seats relative to the dealer, with its kind and who won;
 * Penalty(z) of the seat at relative seat r is the count-weighted mean, over the outcomes that
 * r did not win, of EFR after the outcome applied to z (the exact final rank when it ends the
 * game). The "none" penalty (no table) is the paper's naive choice: the hand passes with no
 * points moving (an exhaustive draw in which nobody is tenpai). */
#ifndef RIICHI_SCORE_H
#define RIICHI_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "efr.h"
#include "taikai/common.h"

#define RS_PENALTY_MODEL "riichi_penalty"
#define RS_PENALTY_VERSION 1u
enum { RS_PENALTY_COLS = 11 }; /* d0..d3, kind, winner, payer, nriichi, renchan, yame, count */

/* A table of outcomes: distinct outcomes with their counts. */
typedef struct rs_penalty {
  size_t n;
  efr_hand *h;       /* round and game unused */
  uint32_t *count;
  uint64_t total;    /* Σ count: the hands it rests on */
} rs_penalty;

/* Builds a table from hands[0 .. n) (equal outcomes merged, in first-seen order). Returns 0 or
 * TK_ENOMEM. */
int rs_penalty_build(const efr_hand *hands, size_t n, rs_penalty *out, tk_error *err);
/* Loads a table file (a taikai weights file, model "riichi_penalty", shape [n, 11]). Returns 0,
 * or an error naming the file, the row, the column and the value. */
int rs_penalty_load(const char *path, rs_penalty *out, tk_error *err);
int rs_penalty_save(const char *path, const rs_penalty *p, tk_error *err);
void rs_penalty_free(rs_penalty *p);

/* Penalty(z) of `seat` (0..3, absolute); p == NULL is the "none" penalty. */
double rs_penalty_value(const rs_penalty *p, const rm_efr *m, const rm_efr_state *z, int seat);

/* What the table says of the hands that the seat at relative seat `rel` (0 = dealer) does not
 * win: their number and the share of each kind of outcome. */
typedef struct rs_penalty_stats {
  uint64_t hands;
  double opp_tsumo, dealin, opp_ron_other, draw, abort;
  double mean_own; /* mean own score change */
} rs_penalty_stats;
void rs_penalty_stats_of(const rs_penalty *p, int rel, rs_penalty_stats *out);

/* The values Score needs in one situation: win[i - 1][j], the EFR after a win of i han by the
 * seat (j = 0..2: ron off the opponents one, two, three seats to the right; 3: tsumo), and the
 * penalty. They depend only on z and the seat: callers keep them for the hand. */
typedef struct rs_situation {
  double win[4][4];
  double penalty;
} rs_situation;
void rs_situation_of(const rm_efr *m, const rs_penalty *p, const rm_efr_state *z, int seat,
                     int fu, rs_situation *out);

/* The han distribution P(0..4) from a model's output: MCP's class probabilities as they are;
 * BCP's P(>= h) (ge[1..4]) converted, literal (differences may be negative) or clamped at 0 and
 * renormalised. */
enum { RS_MCP, RS_BCP_LITERAL, RS_BCP_CLAMPED };
void rs_han_probs(int kind, const double model_out[5], double P[5]);

/* Score(x) for the han distribution P. Lower is better. */
double rs_score(const rs_situation *s, const double P[5]);

/* The situation of a view (its scores, round, honba and sticks). */
void rs_state_of_view(const tk_riichi_view *v, rm_efr_state *z);

#endif
