/* plugins/riichi_opp/opp.h — opponent models of four-player riichi in the spirit of paper 000's
 * reference [2] and Mizukami & Tsuruoka's CIG 2015 player (../shared/specs/riichi-agents.md
 * §2.8): from what one seat sees (its tk_riichi_view), for each other seat, the probability that
 * it is tenpai, the probability that each tile kind is among its winning kinds when it is, and
 * the points a deal-in into it costs. Learned from game logs, where every hand is known, by
 * build/riichi_opp_train.
 *
 * A static library (tk_riichi_opp) that any riichi plugin links; it keeps its symbols hidden in
 * the plugin. The model file is a taikai weights file (taikai/weights.h); its default,
 * riichi_opp.tkw, is copied beside the plugins. README.md in this folder says how the shipped
 * file was made (command, data, seed, SHA-256) and its held-out accuracy and calibration. */
#ifndef RIICHI_OPP_H
#define RIICHI_OPP_H

#include "taikai/common.h"
#include "taikai/mahjong.h"
#include "taikai/riichi.h"

#define RM_OPP_DEFAULT_FILE "riichi_opp.tkw"

typedef struct rm_opp rm_opp;

/* What the viewer's view says of one other seat. The models were trained on labels from the
 * true hands (build/riichi_opp_train, README.md): tenpai = shanten 0 with a wait; wait[k] = 1
 * when a discard of k now would let the seat win by ron (k completes its hand, the seat is not
 * furiten by its river or a passed win, and the win has a yaku), so tenpai * wait[k] is the
 * probability that discarding k deals in to it; loss = the kernel's ron payment for its hand in
 * the true context (riichi, ippatsu, dora and ura indicators), averaged over its ron kinds. */
typedef struct rm_opp_threat {
  double tenpai;          /* P(the seat is tenpai); exactly 1 for a seat in riichi (the engine
                             allows riichi only from tenpai, and the hand cannot change after) */
  double wait[TK_KINDS];  /* P(kind k is one of its winning kinds | tenpai); 0 where a ron on k
                             is impossible for it (k in its own river: furiten) */
  double loss;            /* expected points the discarder pays on a deal-in into it (its hand's
                             value, dealer or not; without honba and sticks) */
} rm_opp_threat;

/* Loads the models in `path`. Returns 0, or an error naming the file and the field. */
int rm_opp_load(const char *path, rm_opp **out, tk_error *err);
void rm_opp_free(rm_opp *m);

/* Assesses every seat o != v->seat into out[o] (out[v->seat] is zeroed). Fast enough for
 * playouts: one call per view (about 5 us of CPU for the three seats, no allocation). Reads
 * only the view (rivers with their flags, melds, riichi, dora, the viewer's hand and seen
 * counts), never hidden tiles; features in oppf.h. */
void rm_opp_assess(const rm_opp *m, const tk_riichi_view *v, rm_opp_threat out[4]);

/* The probability that discarding kind k now deals in to seat o: out[o].tenpai * out[o].wait[k]
 * (per_seat may be NULL); returns the probability that it deals in to anyone, treating the
 * seats as independent. */
double rm_opp_dealin(const rm_opp_threat t[4], int viewer, int k, double per_seat[4]);

#endif
