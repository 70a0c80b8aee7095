/* plugins/daifugo_search/exchange.h — daifugo_search's learned exchange policy: a conditional
 * logit (linear softmax) over the cards the daifugo or the fugo may give back, trained by
 * build/daifugo_search_exchange_train to imitate daifugo_mcl's Monte Carlo exchange at a large
 * budget (README.md, "The exchange policy"). Pure functions of the hand and the giver's role:
 * no allocation, no randomness.
 *
 * Weights file (include/taikai/weights.h, format 1): model "daifugo_search_exchange", feature
 * version DSX_FEATURE_VERSION, shape [DSX_ROLES, DSX_FEATURES]: row r holds the weights of role
 * r (DSX_ROLE_*), column f those of feature f (the DSX_F_* layout below). */
#ifndef DAIFUGO_SEARCH_EXCHANGE_H
#define DAIFUGO_SEARCH_EXCHANGE_H

#include <stdint.h>

#include "taikai/common.h"
#include "taikai/daifugo.h"

#define DSX_MODEL "daifugo_search_exchange"
#define DSX_DEFAULT_WEIGHTS "daifugo_search_exchange.tkw"
enum { DSX_FEATURE_VERSION = 1 };

/* Who gives: the daifugo's first card (two to give), its second, the fugo's one card. Each has
 * its own row of weights. */
enum { DSX_ROLE_DAIFUGO_FIRST = 0, DSX_ROLE_DAIFUGO_SECOND = 1, DSX_ROLE_FUGO = 2, DSX_ROLES = 3 };

/* The features of giving card c from hand H (c in H), A = H without c. "Column" is the card's
 * rank, 1 (3) .. 13 (2), 14 for the joker; n = the cards of c's column in H (1..4; 0 for the
 * joker); the run = the longest chain of consecutive columns of c's suit in H through c
 * (real cards only, the joker not filling gaps); a single of a hand is a real card alone in its
 * column and in no run of 3+ of that hand. */
enum {
  DSX_F_COL = 0,        /* 14 one-hot: c's column (13 = the joker) */
  DSX_F_COL_N = 14,     /* 52 one-hot: (column 1..13, n 1..4) at 14 + 4 (col - 1) + (n - 1) */
  DSX_F_N = 66,         /* 4 one-hot: n 1..4 */
  DSX_F_RUN = 70,       /* 5 one-hot: the run's length 1, 2, 3, 4, 5+ */
  DSX_F_BREAKS_SEQ = 75,   /* the run is 3+ and no piece of 3+ is left of it in A */
  DSX_F_SHORTENS_SEQ = 76, /* the run is 3+ and a piece of 3+ is left of it in A */
  DSX_F_SINGLES = 77,   /* singles of A minus singles of H (a number, -1 .. +3) */
  DSX_F_N_JOKER = 78,   /* 4 one-hot: n 1..4 while A holds the joker */
  DSX_F_S3 = 82,        /* c is ♠3 (the one card over a lone joker) */
  DSX_F_D3 = 83,        /* c is ♦3 (its holder leads the game) */
  DSX_F_ORDER = 84,     /* 4 one-hot: columns of H below c's: 0, 1, 2, 3+ (the joker: 3+) */
  DSX_FEATURES = 88
};
enum { DSX_MAX_ACTIVE = 12 }; /* nonzero features of one card, at most */

typedef struct dsx_model {
  double w[DSX_ROLES * DSX_FEATURES]; /* w[role * DSX_FEATURES + f] */
} dsx_model;

/* The nonzero features of giving `card` (one bit of `hand`) from `hand`: writes their indexes,
 * increasing, to idx and values to val; returns their number (<= DSX_MAX_ACTIVE). */
int dsx_features(uint64_t hand, uint64_t card, int *idx, double *val);

/* The role of the viewer of an exchange decision, or -1 unless it is the daifugo or the fugo
 * (v->cls of the viewer 0 or 1) with a card to give. */
int dsx_role(const tk_daifugo_view *v);

/* The score of giving `card` from `hand` in role `role` (the softmax's logit). */
double dsx_score(const dsx_model *m, int role, uint64_t hand, uint64_t card);

/* The referee fallback's order of `card` (one card): lower is weaker, 3 … 2, ♣ ♦ ♥ ♠ within a
 * column, the joker last. */
int dsx_weakness(uint64_t card);

/* The card to give: the index into l->a of the highest score over l's GIVE actions for v's hand
 * and role; ties go to the weaker card in the referee fallback's order (3 … 2, ♣ ♦ ♥ ♠ within a
 * column, the joker last). Returns -1 unless l is an exchange decision with actions and v's
 * viewer has a role (dsx_role). */
int dsx_choose(const dsx_model *m, const tk_daifugo_view *v, const tk_daifugo_legal *l);

/* Loads a weights file (model DSX_MODEL, DSX_FEATURE_VERSION, shape [DSX_ROLES,
 * DSX_FEATURES]) into *m. Returns 0, or tk_weights_load's error naming the file and the field;
 * *m is untouched on error. */
int dsx_load(const char *path, dsx_model *m, tk_error *err);
/* Writes *m as such a file. Returns 0 or TK_EIO. */
int dsx_save(const char *path, const dsx_model *m, tk_error *err);

#endif
