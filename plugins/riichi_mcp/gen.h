/* plugins/riichi_mcp/gen.h — one training example of the MCP/BCP han predictors (paper 000
 * §5.1, figure 2; the spec's "mcp / bcp"), played with the riichi engine.
 *
 * Hand `i` of seed `s` is independent of every other: its set-up (the self player's seat wind,
 * 1/4 each; the round wind, East 4/9, South 4/9, West 1/9; the training turn t, uniform over
 * 1..max_turn; the random move) comes from tk_rng_seed2(s ^ MCG_SALT, i), its wall from
 * tk_riichi_wall(s, i, round, 0). The hand is dealt as hand `round` = 4 * round wind of a fresh
 * game (so seat 0 deals, honba 0, no sticks, 25,000 points each) and the self player sits at the
 * seat of its wind. The self player plays rop_decide (wins and riichi whenever legal) except for
 * one uniformly random move at its random decision: the first decision of its t-th turn, a turn
 * beginning after its previous own draw (so that decision is its t-th draw, or a call
 * opportunity before it). The random move is uniform over:
 * - at a draw: the distinct discard kinds (a red five and a plain one are one move; the plain
 *   copy is discarded when both are held), each closed kan and each added kan; when the
 *   chosen discard allows riichi, riichi is declared with it;
 * - at a call opportunity: pass, each (call, following discard kind) pair that kuikae allows,
 *   each open kan (call forms that differ only in a red five are one move).
 * The example is the features of the hand after the move (rof_features of the candidate, as
 * rop_candidates builds it). Its label is the self player's win in this hand: 0 none, else the
 * total han (yaku, dora, red fives, ura-dora as the engine scored it), 4 for >= 4 or yakuman.
 * No example (MCG_NONE) when: the hand ends before the random decision; the self player is in
 * riichi at it; a win is legal at it (the win is taken: this covers tenhou and chiihou); or the
 * random call is taken over by another seat's higher claim (the position never exists). */
#ifndef RIICHI_MCP_GEN_H
#define RIICHI_MCP_GEN_H

#include "../riichi_oneplayer/policy.h"
#include "mcp_io.h"

#define MCG_SALT 0x6d63702d72656373ull /* "mcp-recs" */

enum { MCG_EXAMPLE = 1, MCG_NONE = 0 };
/* Why a hand gave no example (mcg_result.why). */
enum { MCG_WHY_OK, MCG_WHY_ENDED, MCG_WHY_RIICHI, MCG_WHY_WIN, MCG_WHY_OVERRIDDEN, MCG_NWHY };

typedef struct mcg_params {
  uint64_t seed;
  int opponents;     /* MCX_OPP_* */
  int max_turn;      /* 18 */
  const double *w;   /* the one-player policy's weights (ROF_FEATURES) */
  /* For scripted tests (mcg_params_init leaves them off): a wall to deal instead of the
   * generated one, set-up values instead of the drawn ones (-1: drawn), and the random move
   * replaced by the discard of kind `force_kind` (-1: uniform; the hand gives an error when that
   * discard is not a move). The set-up draws happen either way, so the rest is unchanged. */
  const uint8_t *wall;
  int seat_wind, round_wind, turn, force_kind;
} mcg_params;

/* Fills `p` with the given seed, opponents and weights, max_turn 18 and no scripting. */
void mcg_params_init(mcg_params *p, uint64_t seed, int opponents, const double *w);

typedef struct mcg_result {
  int why;           /* MCG_WHY_* */
  int seat_wind, round_wind, turn; /* the set-up */
  int random_phase;  /* TK_RIICHI_PHASE_SELF / _REACT of the random decision (when made) */
  int nmoves;        /* distinct random moves it was drawn from */
  int han, yakuman;  /* the self player's win as scored (0 when none) */
  uint64_t decisions;/* agent decisions played */
  /* The self player at the end of the hand: */
  int calls;         /* open melds called (chi, pon, open kan; an added kan stays one meld) */
  int riichi;        /* riichi declared (1 or 2 for double riichi), else 0 */
  int shanten;       /* the concealed tiles' shanten when the hand ended without its win (0 =
                        tenpai), -1 when it won */
} mcg_result;

/* Plays hand `hand` of `p`. Returns MCG_EXAMPLE with `e` filled (e->hand = hand), MCG_NONE,
 * or a negative TK_E* code (an engine or policy error, detail in err). */
int mcg_play(const mcg_params *p, uint64_t hand, mcx_example *e, mcg_result *res, tk_error *err);

/* A self player's decision in (v, l) into out->action (an index of l); 0 or a TK_E* code. */
typedef int (*mcg_decide_fn)(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                             rop_choice *out, tk_error *err);

/* Plays hand `hand` of `p` as mcg_play deals and sets it up (the same wall, winds and draws),
 * but with the self player following `decide` at every decision and no random move: the
 * evaluation of paper 000 table 5 on identical walls. Returns the self player's label, 0 (no
 * win) .. 4 (>= 4 han or yakuman), with `res` filled (why = MCG_WHY_OK, han, yakuman), or a
 * negative TK_E* code. */
int mcg_evaluate(const mcg_params *p, uint64_t hand, mcg_decide_fn decide, void *ctx,
                 mcg_result *res, tk_error *err);

/* For the programs (riichi_mcp_records, riichi_mcp_eval): the one-player policy's weights from
 * `path`, or when it is NULL the default beside the build's plugins (<folder of the running
 * program>/plugins/riichi_oneplayer.tkw); the path used goes to used[cap]. Returns 0, or a TK_E*
 * code with the message (naming the file) in err. */
int mcg_load_policy(const char *path, char *used, size_t cap, double **w, tk_error *err);

/* "tsumogiri" → MCX_OPP_TSUMOGIRI, "policy" → MCX_OPP_POLICY, anything else → -1. */
int mcg_opponents_of(const char *name);

/* The label of a win scored `s` (tk_score.han includes dora, red fives and ura-dora). */
int mcg_label(int han, int yakuman);

#endif
