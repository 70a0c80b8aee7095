/* plugins/daifugo_mcl/features.h — the features of paper 001's learned playout policy (Table 2 of
 * the paper, docs/daifugo-agents.md "mcl"), shared by the daifugo_mcl plugin and its trainer
 * (train.c), so that a move is described the same way in a playout and in a record.
 *
 * A move of the player to move is described by 182 binary units: A (1, the bias), B (31, the
 * move itself) and C (150, the position around it). Each item is one-hot over its values. The
 * position comes from a tk_daifugo_view (records) or a tk_daifugo_game (playouts) through one
 * struct, dmcl_pos, built once per decision; the units of a move are computed from it.
 *
 * Two learners read the units:
 * - AP: a linear function of the 35 x 146 = 5110 crossed units (B + play type) x (C - play
 *   type); crossed unit (b, c) is index b * DMCL_CP + c;
 * - NN: 182 -> H sigmoid -> 1 sigmoid.
 * The index spaces: feature f in 0..181 (f 0 the bias); B' unit b in 0..34 is feature 1 + b
 * (the 31 B units, then the 4 play types); C' unit c in 0..145 is feature 36 + c (C without the
 * play type). Changing any unit changes DMCL_FEATURE_VERSION, which weights files record. */
#ifndef DAIFUGO_MCL_FEATURES_H
#define DAIFUGO_MCL_FEATURES_H

#include <stdint.h>

#include "taikai/daifugo.h"

#define DMCL_FEATURE_VERSION 1u

enum {
  DMCL_FEATURES = 182, /* A 1 + B 31 + C 150 */
  DMCL_BP = 35,        /* B' = B + the play type */
  DMCL_CP = 146,       /* C' = C - the play type */
  DMCL_CROSSED = DMCL_BP * DMCL_CP,
  DMCL_MAX_B = 8,      /* active B' units of one move, at most */
  DMCL_MAX_FIXED = 32, /* active move-independent C' units of one position, at most */
  DMCL_MAX_ACTIVE = 64 /* active features of one move, at most */
};

/* B' units (add 1 for the feature index). */
enum {
  DMCL_B_DIFF = 0,    /* 5: rank of the play minus rank on the table, 1, 2, 3, 4, 5+ steps */
  DMCL_B_COUNT = 5,   /* 3: cards in the play 2, 3, 4+ */
  DMCL_B_RANK = 8,    /* 17: rank of the play (13 columns, joker normal/rev, ♠3-cut normal/rev) */
  DMCL_B_REV = 25,    /* 2: causes a revolution (no, yes) */
  DMCL_B_LOCK = 27,   /* 2: causes a lock (no, yes) */
  DMCL_B_EIGHT = 29,  /* 2: causes an 8-cut (no, yes) */
  DMCL_B_TYPE = 31    /* 4: pass, single, group, sequence */
};

/* C' units (add 36 for the feature index). */
enum {
  DMCL_C_REVNOW = 0,   /* 2: revolution in effect before the play (no, yes) */
  DMCL_C_UNSEEN = 2,   /* 41: per column 1..13: 0, 1, 2+ unseen cards; then joker (no, yes) */
  DMCL_C_AFTER = 43,   /* 41: the same encoding of our hand after the play */
  DMCL_C_NFP = 84,     /* 5: other players out or passed, 0..4 */
  DMCL_C_PASSED = 89,  /* 8: each other player in seat order after us: (no, yes) */
  DMCL_C_MYSIZE = 97,  /* 6: our hand size 1, 2, 3, 4-5, 6-8, 9+ */
  DMCL_C_SIZES = 103,  /* 28: the others' hand sizes, ascending, each 0, 1, 2, 3, 4-5, 6-8, 9+ */
  DMCL_C_TABLE = 131,  /* 13: the rank on the table, columns 1..13 */
  DMCL_C_NEW = 144     /* 2: the table is new (no, yes) */
};

/* What the features need of a position, for the player to move. */
typedef struct dmcl_pos {
  uint64_t hand;        /* the mover's cards */
  uint64_t unseen;      /* cards neither played this game nor in the mover's hand */
  tk_daifugo_move top;  /* the play on the table; kind PASS when the table is new */
  uint8_t rev, lock;    /* revolution, suit lock in effect */
  uint8_t nfp;          /* other players out or passed since the last clear, 0..4 */
  uint8_t passed[4];    /* the others in seat order after the mover: 1 if out or passed */
  uint8_t mysize;       /* cards the mover holds */
  uint8_t sizes[4];     /* the others' card counts, ascending */
  uint8_t nfixed;       /* entries of fixed */
  uint8_t fixed[DMCL_MAX_FIXED]; /* the active C' units that do not depend on the move,
                                    ascending (all but the play type and DMCL_C_AFTER's) */
} dmcl_pos;

/* The position of a play decision's view (v->decision == TK_DAIFUGO_DECIDE_PLAY and v->turn ==
 * v->player). Returns 0, or -1 when the view is not the viewer's play decision. */
int dmcl_pos_of_view(const tk_daifugo_view *v, dmcl_pos *p);
/* The position of g->turn in a game that is not over. */
void dmcl_pos_of_game(const tk_daifugo_game *g, dmcl_pos *p);
/* The same without nfixed and fixed (left 0): what the AP scorer reads (policy.h), a playout's
 * hot path. */
void dmcl_pos_of_game_core(const tk_daifugo_game *g, dmcl_pos *p);

/* Inlined even where the compiler would not: the playout's scoring loop calls these per move. */
#if defined(__GNUC__)
#define DMCL_HOT_INLINE static inline __attribute__((always_inline))
#else
#define DMCL_HOT_INLINE static inline
#endif

/* The active B' units of move `m` (pass included) in `p`, ascending; returns their number. */
DMCL_HOT_INLINE int dmcl_move_b(const dmcl_pos *p, const tk_daifugo_move *m, uint8_t b[DMCL_MAX_B]);
/* The 14 active C' units encoding `hand` at offset `base` (DMCL_C_UNSEEN or DMCL_C_AFTER):
 * one per column 1..13, then the joker's. */
void dmcl_hand_units(uint64_t hand, int base, uint8_t c[14]);
/* Bit-sliced column counts of `hand`: bit col (1..13) of *one is set when it holds exactly one
 * card of column col, of *two when it holds 2 or more. */
static inline void dmcl_col_counts(uint64_t hand, uint32_t *one, uint32_t *two) {
  uint32_t r0 = (uint32_t)hand & 0x3ffe, r1 = (uint32_t)(hand >> 16) & 0x3ffe,
           r2 = (uint32_t)(hand >> 32) & 0x3ffe, r3 = (uint32_t)(hand >> 48) & 0x3ffe;
  uint32_t a = r0 ^ r1, b = r2 ^ r3;
  *two = (r0 & r1) | (r2 & r3) | (a & b);
  *one = (a ^ b) & ~*two;
}
/* The same as codes: code[col - 1] = min(cards of `hand` in column col, 2) for col 1..13, and
 * code[13] = 1 if `hand` holds the joker; unit = base + 3 * (col - 1) + code (the joker's:
 * base + 39 + code). */
void dmcl_hand_codes(uint64_t hand, uint8_t code[14]);
/* The hand-size buckets of DMCL_C_MYSIZE (1, 2, 3, 4-5, 6-8, 9+ -> 0..5; no cards -> -1, no
 * unit) and DMCL_C_SIZES (0, 1, 2, 3, 4-5, 6-8, 9+ -> 0..6). */
static inline int dmcl_my_bucket(int n) {
  if (n <= 0) return -1;
  if (n <= 3) return n - 1;
  return n <= 5 ? 3 : n <= 8 ? 4 : 5;
}
static inline int dmcl_other_bucket(int n) {
  if (n <= 3) return n;
  return n <= 5 ? 4 : n <= 8 ? 5 : 6;
}
/* Every active feature (0..181) of `m` in `p`, ascending; returns their number. */
int dmcl_features(const dmcl_pos *p, const tk_daifugo_move *m, uint8_t f[DMCL_MAX_ACTIVE]);

/* Whether a teacher's play decision is a training position (paper 001 §5.1): more than the pass
 * legal, no legal play empties the hand, and not a pass on a new table (which the rules forbid;
 * a record holding one is kept out rather than refused). The candidates are l->a[*first ..
 * l->n): the pass is left out on a new table. */
enum {
  DMCL_KEEP = 0,
  DMCL_SKIP_ONLY_PASS = 1, /* only the pass is legal */
  DMCL_SKIP_EMPTIES = 2,   /* a legal play empties the hand */
  DMCL_SKIP_LEAD_PASS = 3, /* the teacher passed on a new table */
  DMCL_NOT_LEGAL = 4       /* the teacher's move is not in l (a damaged record) */
};
/* Returns one of the codes above; on DMCL_KEEP, *teacher is the index of the teacher's move `act`
 * among the candidates (0-based from *first). */
int dmcl_training_position(const tk_daifugo_view *v, const tk_daifugo_legal *l,
                           const tk_daifugo_move *act, int *first, int *teacher);

/* Strength of a column in the current order (3 weakest normally): col, or 14 - col. */
static inline int dmcl_strength(int col, int rev) { return rev ? 14 - col : col; }
/* The column describing a play on the table or in hand: a single's or group's column; a
 * sequence's weakest card in the current order (its lowest column normally, its highest in
 * revolution), clamped to 1..13 when the joker stands below 3 or above 2; 0 for a pass or a
 * single joker. */
static inline int dmcl_rank_col(const tk_daifugo_move *m, int rev);

/* Inline: a playout ranks a few moves per call, and these are most of a move's cost. */
static inline int dmcl_rank_col(const tk_daifugo_move *m, int rev) {
  int col;
  switch (m->kind) {
  case TK_DAIFUGO_SINGLE:
  case TK_DAIFUGO_GROUP:
    return m->rank;
  case TK_DAIFUGO_SEQ:
    col = rev ? m->rank + m->n - 1 : m->rank;
    return col < 1 ? 1 : col > 13 ? 13 : col;
  default:
    return 0;
  }
}

DMCL_HOT_INLINE int dmcl_move_b(const dmcl_pos *p, const tk_daifugo_move *m, uint8_t b[DMCL_MAX_B]) {
  int n = 0;
  if (m->kind == TK_DAIFUGO_PASS) {
    b[n++] = DMCL_B_REV;
    b[n++] = DMCL_B_LOCK;
    b[n++] = DMCL_B_EIGHT;
    b[n++] = DMCL_B_TYPE + 0;
    return n;
  }
  const tk_daifugo_move *t = &p->top;
  int joker_table = t->kind == TK_DAIFUGO_JOKER1;
  int spade3_cut = joker_table && m->kind == TK_DAIFUGO_SINGLE && m->cards == TK_DAIFUGO_CARD(0, 1);
  int col = dmcl_rank_col(m, p->rev);
  /* rank difference */
  if (t->kind != TK_DAIFUGO_PASS && !joker_table && m->kind != TK_DAIFUGO_JOKER1) {
    int d = dmcl_strength(col, p->rev) - dmcl_strength(dmcl_rank_col(t, p->rev), p->rev);
    if (d >= 1) b[n++] = (uint8_t)(DMCL_B_DIFF + (d >= 5 ? 4 : d - 1));
  }
  if (m->n >= 2) b[n++] = (uint8_t)(DMCL_B_COUNT + (m->n >= 4 ? 2 : m->n - 2));
  if (m->kind == TK_DAIFUGO_JOKER1) b[n++] = (uint8_t)(DMCL_B_RANK + 13 + (p->rev != 0));
  else if (spade3_cut) b[n++] = (uint8_t)(DMCL_B_RANK + 15 + (p->rev != 0));
  else b[n++] = (uint8_t)(DMCL_B_RANK + col - 1);
  int revolts = (m->kind == TK_DAIFUGO_GROUP && m->n >= 4) || (m->kind == TK_DAIFUGO_SEQ && m->n >= 5);
  b[n++] = (uint8_t)(DMCL_B_REV + revolts);
  int locks = !p->lock && t->kind != TK_DAIFUGO_PASS && !joker_table &&
              m->kind != TK_DAIFUGO_JOKER1 && m->suits == t->suits;
  b[n++] = (uint8_t)(DMCL_B_LOCK + locks);
  int eight = ((m->kind == TK_DAIFUGO_SINGLE || m->kind == TK_DAIFUGO_GROUP) &&
               m->rank == TK_DAIFUGO_COL_8) ||
              (m->kind == TK_DAIFUGO_SEQ && m->rank <= TK_DAIFUGO_COL_8 &&
               TK_DAIFUGO_COL_8 <= m->rank + m->n - 1);
  b[n++] = (uint8_t)(DMCL_B_EIGHT + eight);
  int type = m->kind == TK_DAIFUGO_GROUP ? 2 : m->kind == TK_DAIFUGO_SEQ ? 3 : 1;
  b[n++] = (uint8_t)(DMCL_B_TYPE + type);
  return n;
}

#endif
