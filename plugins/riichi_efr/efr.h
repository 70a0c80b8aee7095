/* plugins/riichi_efr/efr.h — the expected final rank (EFR) of a seat at a hand boundary of an
 * east-only riichi game (../shared/specs/riichi-agents.md §2.7): a model of
 * P(final rank = r | the situation before the next hand is dealt), learned from complete games
 * by build/riichi_efr_train, and EFR = Σ r·P(r). Rank 1 is the best: lower EFR is better.
 *
 * A static library (tk_riichi_efr) that any riichi plugin links; it keeps its symbols hidden in
 * the plugin. The model file is a taikai weights file (taikai/weights.h); its default,
 * riichi_efr.tkw, is copied beside the plugins. README.md in this folder says how the shipped
 * file was made (command, data, seed, SHA-256) and what its held-out loss is. */
#ifndef RIICHI_EFR_H
#define RIICHI_EFR_H

#include <stdint.h>

#include "taikai/common.h"
#include "taikai/riichi.h"

#define RM_EFR_DEFAULT_FILE "riichi_efr.tkw"

typedef struct rm_efr rm_efr;

/* The situation before hand `round` (0 = East 1, as tk_riichi_game.round; 4 and above are the
 * extension) is dealt: every seat's points (sticks already paid), the repeat counter and the
 * riichi sticks on the table. The dealer is seat round % 4. */
typedef struct rm_efr_state {
  int32_t scores[4];
  uint8_t round, honba, sticks;
} rm_efr_state;

/* Loads the model in `path`. Returns 0, or an error naming the file and the field. */
int rm_efr_load(const char *path, rm_efr **out, tk_error *err);
void rm_efr_free(rm_efr *m);

/* P(final rank = r + 1 | s) of `seat` in p[0..3] (they sum to 1). */
void rm_efr_probs(const rm_efr *m, const rm_efr_state *s, int seat, double p[4]);
/* Σ r·P(r | s) of `seat`, in [1, 4]. */
double rm_efr_value(const rm_efr *m, const rm_efr_state *s, int seat);
/* The EFR of `seat` in a game between hands: its exact final rank when the game is over
 * (TK_RIICHI_PHASE_OVER), else rm_efr_value of the situation before the next hand
 * (TK_RIICHI_PHASE_DEAL). Other phases are not hand boundaries: the value is then that of the
 * current scores, honba and sticks at the current round, a stand-in the callers avoid. */
double rm_efr_game(const rm_efr *m, const tk_riichi_game *g, int seat);

#endif
