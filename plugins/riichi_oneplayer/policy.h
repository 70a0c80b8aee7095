/* plugins/riichi_oneplayer/policy.h — the one-player policy's decision (paper 000 §4; the spec's
 * "oneplayer" entry): every candidate move of a riichi decision is mapped to the hand after it and
 * scored w·φ(hand) with the features of features.h; the best is played. Shared by the
 * riichi_oneplayer plugin and its trainer (which needs the candidates' hands).
 *
 * Candidates (docs/riichi-oneplayer.md, "The policy"):
 * - at an own draw: every distinct discard tile (a red five and a plain five are distinct), and
 *   every closed or added kan scored on the hand after the kan, before the replacement draw;
 * - at a call opportunity: pass, scored on the current hand; every chi / pon with every following
 *   discard that kuikae allows, scored on the hand after both; an open kan on the hand after it;
 * - after one's own chi / pon: the discards (the call's planned discard is one of them).
 * Wins are taken and riichi is declared whenever legal: a tsumo or ron is played at once; when a
 * riichi is legal, the best-scoring discard among those that allow riichi is declared. The
 * nine-terminals draw is never declared. Ties keep the first candidate in this order: at a draw,
 * the discards by tile code (plain kinds ascending, then the red fives), then the kans in legal
 * order; at a call opportunity, pass, then the calls in legal order, each with its discards by
 * kind (a plain five before the red one). */
#ifndef RIICHI_ONEPLAYER_POLICY_H
#define RIICHI_ONEPLAYER_POLICY_H

#include "features.h"

enum { ROP_MAX_CANDS = 192 };

typedef struct rop_cand {
  uint8_t action;  /* index in the legal list of the action that starts the move */
  uint8_t discard; /* a chi / pon's following discard (tk_tile), else TK_TILE_NONE */
  rof_hand hand;   /* the hand after the move */
  rof_ctx ctx;     /* the context after it (the discard joins the river and the visible tiles) */
} rop_cand;

/* The candidates of the decision (v, l) besides wins and riichi declarations, in tie order.
 * Returns their number (at most cap). */
int rop_candidates(const tk_riichi_view *v, const tk_riichi_legal *l, rop_cand *out, int cap);

/* The legal riichi declarations by tile: riichi_of[tile & 0x7f] = the index in l of the first
 * riichi action discarding that tile, 0xff where none. Returns 1 when any riichi is legal. */
int rop_riichi_of(const tk_riichi_legal *l, uint8_t riichi_of[0x80]);

/* w·φ over the active features f[0..n). */
double rop_score(const double *w, const uint32_t *f, int n);

typedef struct rop_choice {
  int action;      /* index in the legal list to play */
  uint8_t discard; /* for a chi / pon: the discard planned after it, else TK_TILE_NONE */
  double score;    /* the chosen candidate's score (0 for a win) */
  int ncands;      /* candidates scored */
} rop_choice;

/* The policy's choice in (v, l) under weights w (ROF_FEATURES values). Returns 0, or TK_EINVAL
 * (detail in err) when the view gives a malformed hand or the legal list is empty. */
int rop_decide(const tk_riichi_view *v, const tk_riichi_legal *l, const double *w, rop_choice *out,
               tk_error *err);

#endif
