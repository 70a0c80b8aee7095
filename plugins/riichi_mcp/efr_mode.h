/* plugins/riichi_mcp/efr_mode.h — the opening of paper 000 §5.4–5.5 over a han model: the move
 * that minimises Score(x) (plugins/riichi_score/score.h), or the depth-k one-player search of
 * §5.5 with Score at its leaves (../shared/specs/riichi-agents.md §2.9; docs/riichi-table-6-7.md).
 *
 * One decision (mce_decide):
 * - a win is played whenever legal; when a riichi is legal only the discards that allow it
 *   compete and riichi is declared with the best (as the target mode; the opening of riichi_mcp's
 *   "efr" mode ends before either can happen);
 * - plies 1, or any decision that is not an own draw: every candidate of rop_candidates
 *   (discards, kans, pass, (call, discard) pairs) is valued Score(hand after it) and the least is
 *   played (ties keep the first, rop_candidates' order);
 * - plies k >= 2 at an own draw: a pseudo game tree of the player's own draws and discards only
 *   (no calls, no opponents, no riichi, no kans). A discard node (13 tiles, its own discards so
 *   far d) is worth Score(hand) when d == k, else the average over the draws it expands of the
 *   draw node after it, each weighted by its unseen copies (normalised over the expanded draws:
 *   the others are "tsumogiri" and left out). A draw node (14 tiles) is worth EFR after the
 *   tsumo win when the hand is complete with a yaku (scored exactly, dora included), else the
 *   least over its `width` best discards by Score (the others pruned). Draws expanded: the kinds
 *   that lower the hand's shanten and the kinds within two ranks of an isolated tile (the tile
 *   itself included; an isolated honor relates only to itself). The root plays the least of its
 *   `width` best discards (kans are not expanded and not played at k >= 2). Deeper nodes discard
 *   a plain five before a red one and keep the red-five count while a five is held. */
#ifndef RIICHI_MCP_EFR_MODE_H
#define RIICHI_MCP_EFR_MODE_H

#include <stdint.h>

#include "model.h"
#include "score.h"
#include "../riichi_oneplayer/policy.h"

typedef struct mce_params {
  int kind;  /* RS_MCP, RS_BCP_LITERAL, RS_BCP_CLAMPED: how the model's output becomes P(0..4) */
  int plies; /* own discards on each line of the search; 1 = Score of each candidate */
  int width; /* discards expanded at each discard choice of the search (3) */
  int fu;    /* fu of Score's wins (30) */
} mce_params;

typedef struct mce_stats {
  uint64_t decisions, searches, evals, wins; /* evals: Score evaluations; wins: leaves that won */
} mce_stats;

typedef struct mce_ctx {
  mce_params p;
  const mcm_model *han;    /* borrowed */
  const rm_efr *efr;       /* borrowed */
  const rs_penalty *pen;   /* borrowed; NULL: the "none" penalty */
  /* the situation the cached values belong to */
  int valid, seat;
  rm_efr_state z;
  rs_situation sit;
  mce_stats st;
} mce_ctx;

/* The move in (v, l) into *action (an index of l); *value (may be NULL) receives its Score or
 * search value. Returns 0 or a TK_E* code (detail in err). */
int mce_decide(mce_ctx *c, const tk_riichi_view *v, const tk_riichi_legal *l, int *action,
               double *value, tk_error *err);

/* Score of one hand in a context (the cached situation of the last decision; mce_decide sets
 * it), for the tests and the case study. */
double mce_score_hand(mce_ctx *c, const rof_hand *h, const rof_ctx *x, tk_error *err);

#endif
