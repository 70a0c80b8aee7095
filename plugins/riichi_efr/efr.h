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

enum { EFR_RON, EFR_TSUMO, EFR_DRAW, EFR_ABORT };

/* One hand's outcome, seats relative to the dealer (k = seat (dealer + k) mod 4): what the logs'
 * hands are (efr_data.h), what Penalty(z) averages over and what Score(x) builds for a win
 * (plugins/riichi_score). */

typedef struct efr_hand {
  int32_t d[4];      /* score change without the honba payments and the sticks that were on
                        the table at the deal (the hand's own riichi deposits stay in) */
  uint8_t kind;      /* EFR_RON, _TSUMO (a win), _DRAW (exhaustive, nagashi), _ABORT */
  uint8_t winner;    /* a win: the seat that took the sticks and honba (the first winner) */
  uint8_t payer;     /* a win: the seat that paid the honba (0xff: tsumo, each paid 100) */
  uint8_t nriichi;   /* riichi sticks put down in this hand */
  uint8_t renchan;   /* the dealer keeps the seat (won, tenpai, or an abortive draw) */
  uint8_t yame;      /* the dealer won or was tenpai (agari-yame / tenpai-yame may end) */
  uint8_t round;     /* the hand's number (0 = East 1) */
  uint8_t reserved;
  uint32_t game;
} efr_hand;

/* Applies the outcome `h` to the situation `s` (a hand boundary) as the engine would, then its
 * end rules for an east-only game of Tenhou's rules (bust below 0, the extension while nobody
 * holds 30,000, agari-yame and tenpai-yame, the extension's last hand). Returns 1 when the game
 * is over (the sticks left went to the top; tk_riichi_ranks of s->scores are the final ranks),
 * else 0 with `s` the next boundary. */
int rm_efr_apply(rm_efr_state *s, const efr_hand *h);

/* The outcome of a win of `han` han (1..12; 5 and above are limit hands) and `fu` fu by the seat
 * `winner` relative to the dealer, off the relative seat `from` (== winner: tsumo), with no other
 * payment (no riichi sticks put down in the hand): Tenhou's points, no rounding up to mangan. */
efr_hand rm_efr_win(int han, int fu, int winner, int from);

/* EFR of `seat` after the outcome `h` from `s`: the exact final rank when it ends the game, else
 * rm_efr_value of the next boundary. */
double rm_efr_after(const rm_efr *m, const rm_efr_state *s, const efr_hand *h, int seat);

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
