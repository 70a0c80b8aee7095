/* plugins/riichi_opp/model.h — the layout of the opponent models (opp.h) for their trainer and
 * tests: the weights of the three models and how they sit in the file.
 *
 * File: a dense taikai weights file (format 1), model "riichi_opp", feature version
 * RM_OPPF_VERSION, shape [RM_OPP_NVALUES]: the tenpai weights (RM_OPPF_NT), the wait weights
 * for a seat in riichi (RM_OPPF_NW), the wait weights for a seat not in riichi (RM_OPPF_NW),
 * the loss weights (RM_OPPF_NL), and the loss's smearing factor (> 0). */
#ifndef RIICHI_OPP_MODEL_H
#define RIICHI_OPP_MODEL_H

#include "oppf.h"
#include "opp.h"

#define RM_OPP_MODEL "riichi_opp"
enum {
  RM_OPP_OFF_TENPAI = 0,
  RM_OPP_OFF_WAIT_RIICHI = RM_OPP_OFF_TENPAI + RM_OPPF_NT,
  RM_OPP_OFF_WAIT_DAMA = RM_OPP_OFF_WAIT_RIICHI + RM_OPPF_NW,
  RM_OPP_OFF_LOSS = RM_OPP_OFF_WAIT_DAMA + RM_OPPF_NW,
  RM_OPP_OFF_SMEAR = RM_OPP_OFF_LOSS + RM_OPPF_NL,
  RM_OPP_NVALUES = RM_OPP_OFF_SMEAR + 1,
  RM_OPP_NW_PAD = (RM_OPPF_NW + 7) / 8 * 8
};

struct rm_opp {
  double tenpai[RM_OPPF_NT];       /* logit of P(tenpai) for a seat not in riichi */
  double wait[2][RM_OPPF_NW];      /* [1] a seat in riichi, [0] not: logit of P(wait) */
  double loss[RM_OPPF_NL];         /* log of the deal-in payment */
  double smear;                    /* E[exp(residual)] of the log fit: loss = exp(w.x) * smear */
  /* the wait weights as floats, padded with zeros to RM_OPP_NW_PAD, for the fast dot product
   * of rm_opp_assess (set by rm_opp_prepare) */
  float waitf[2][RM_OPP_NW_PAD];
};

/* Derives the fast copies (waitf) from the weights: call it after changing m->wait. */
void rm_opp_prepare(rm_opp *m);
/* A model from the file's values (RM_OPP_NVALUES of them; prepared) and back. */
void rm_opp_from_values(rm_opp *m, const double *values);
void rm_opp_to_values(const rm_opp *m, double *values);
/* Writes `m` to `path` (tk_weights_save). Returns 0 or TK_EIO. */
int rm_opp_save(const rm_opp *m, const char *path, tk_error *err);

/* The logistic function, as the models use it. */
double rm_opp_sigmoid(double z);

#endif
