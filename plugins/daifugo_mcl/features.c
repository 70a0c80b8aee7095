/* plugins/daifugo_mcl/features.c — Table 2's units for a move of the player to move (features.h).
 * The choices the paper leaves open (docs/daifugo-agents.md, "mcl: feature choices"):
 * - the rank of a sequence is its weakest card in the current order (dmcl_rank_col);
 * - the rank difference is strength(play) - strength(table) in the current order, bucketed
 *   1, 2, 3, 4, 5+; all zero for a pass, on a new table, or when either side is a single joker;
 * - "rank of the play" is the column for every play but the single joker and the ♠3 played
 *   over it (the ♠3-cut), which have their own units in normal order and in revolution;
 * - "causes a lock": the play locks the suits and they were not locked before;
 * - the single joker's play type is single;
 * - "cards neither on the table nor in our hand": every card not played this game and not held;
 * - a player "passed" if it passed since the last clear or is out (it cannot answer the
 *   table); the others are taken in seat order starting after the mover;
 * - the table rank is all zero on a new table and for a single joker. */
#include "features.h"

#include <string.h>

#define COL_OF(bit) ((bit) & 15)

/* Bit counts without the popcnt instruction (the build targets baseline x86-64, where
 * __builtin_popcountll is a library call). */
static int popcount64(uint64_t x) {
  x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
  x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
  x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
  return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

int dmcl_rank_col(const tk_daifugo_move *m, int rev) {
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

/* Bucket of a hand size: 1, 2, 3, 4-5, 6-8, 9+ -> 0..5 (0 cards -> -1). */
static int my_bucket(int n) {
  if (n <= 0) return -1;
  if (n <= 3) return n - 1;
  return n <= 5 ? 3 : n <= 8 ? 4 : 5;
}
/* Bucket of another player's hand size: 0, 1, 2, 3, 4-5, 6-8, 9+ -> 0..6. */
static int other_bucket(int n) {
  if (n <= 3) return n;
  return n <= 5 ? 4 : n <= 8 ? 5 : 6;
}

void dmcl_hand_units(uint64_t hand, int base, uint8_t c[14]) {
  /* per column, the cards of the four rows added bit-sliced: one = the sum is 1, two = 2+ */
  unsigned r0 = (unsigned)hand & 0x3ffe, r1 = (unsigned)(hand >> 16) & 0x3ffe,
           r2 = (unsigned)(hand >> 32) & 0x3ffe, r3 = (unsigned)(hand >> 48) & 0x3ffe;
  unsigned a = r0 ^ r1, b = r2 ^ r3, two = (r0 & r1) | (r2 & r3) | (a & b), one = (a ^ b) & ~two;
  for (int col = 1; col <= 13; col++) {
    int k = (two >> col & 1) ? 2 : (int)(one >> col & 1);
    c[col - 1] = (uint8_t)(base + 3 * (col - 1) + k);
  }
  c[13] = (uint8_t)(base + 39 + ((hand & TK_DAIFUGO_JOKER) != 0));
}

/* Fills p->fixed from the other fields. */
static void finish(dmcl_pos *p) {
  int n = 0;
  p->fixed[n++] = (uint8_t)(DMCL_C_REVNOW + (p->rev != 0));
  uint8_t u[14];
  dmcl_hand_units(p->unseen, DMCL_C_UNSEEN, u);
  for (int i = 0; i < 14; i++) p->fixed[n++] = u[i];
  p->fixed[n++] = (uint8_t)(DMCL_C_NFP + p->nfp);
  for (int k = 0; k < 4; k++) p->fixed[n++] = (uint8_t)(DMCL_C_PASSED + 2 * k + p->passed[k]);
  int mb = my_bucket(p->mysize);
  if (mb >= 0) p->fixed[n++] = (uint8_t)(DMCL_C_MYSIZE + mb);
  for (int k = 0; k < 4; k++) p->fixed[n++] = (uint8_t)(DMCL_C_SIZES + 7 * k + other_bucket(p->sizes[k]));
  int t = dmcl_rank_col(&p->top, p->rev);
  if (t) p->fixed[n++] = (uint8_t)(DMCL_C_TABLE + t - 1);
  p->fixed[n++] = (uint8_t)(DMCL_C_NEW + (p->top.kind == TK_DAIFUGO_PASS));
  p->nfixed = (uint8_t)n;
}

/* The common part: `me` to move, seats, passed/out masks, counts. */
static void fill(dmcl_pos *p, int me, const uint8_t seat_of[5], unsigned passed, unsigned out,
                 const uint8_t count[5]) {
  uint8_t at_seat[5];
  for (int q = 0; q < 5; q++) at_seat[seat_of[q] % 5] = (uint8_t)q;
  unsigned gone = (passed | out) & ~(1u << me) & 31u;
  p->nfp = (uint8_t)popcount64(gone);
  for (int k = 0; k < 4; k++) {
    int q = at_seat[(seat_of[me] + 1 + k) % 5];
    p->passed[k] = (uint8_t)((gone >> q) & 1);
  }
  int n = 0;
  for (int q = 0; q < 5; q++)
    if (q != me) {
      int i = n++;
      while (i > 0 && p->sizes[i - 1] > count[q]) p->sizes[i] = p->sizes[i - 1], i--;
      p->sizes[i] = count[q];
    }
  p->mysize = count[me];
}

int dmcl_pos_of_view(const tk_daifugo_view *v, dmcl_pos *p) {
  if (v->decision != TK_DAIFUGO_DECIDE_PLAY || v->turn != v->player || v->player >= 5) return -1;
  memset(p, 0, sizeof *p);
  p->hand = v->hand;
  p->unseen = TK_DAIFUGO_DECK & ~v->hand & ~v->played;
  p->top = v->top;
  p->rev = v->rev;
  p->lock = v->lock;
  fill(p, v->player, v->seat_of, v->passed, v->out, v->count);
  finish(p);
  return 0;
}

void dmcl_pos_of_game(const tk_daifugo_game *g, dmcl_pos *p) {
  memset(p, 0, sizeof *p);
  int me = g->turn;
  p->hand = g->hand[me];
  p->unseen = TK_DAIFUGO_DECK & ~g->hand[me] & ~g->played;
  p->top = g->top;
  p->rev = g->rev;
  p->lock = g->lock;
  uint8_t count[5];
  for (int q = 0; q < 5; q++) count[q] = (uint8_t)popcount64(g->hand[q]);
  fill(p, me, g->seat_of, g->passed, g->out, count);
  finish(p);
}

int dmcl_move_b(const dmcl_pos *p, const tk_daifugo_move *m, uint8_t b[DMCL_MAX_B]) {
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

int dmcl_features(const dmcl_pos *p, const tk_daifugo_move *m, uint8_t f[DMCL_MAX_ACTIVE]) {
  uint8_t b[DMCL_MAX_B], after[14];
  int nb = dmcl_move_b(p, m, b), n = 0;
  f[n++] = 0;
  for (int i = 0; i < nb; i++) f[n++] = (uint8_t)(1 + b[i]);
  /* C': the fixed units and the hand after the play, merged in ascending order */
  dmcl_hand_units(p->hand & ~m->cards, DMCL_C_AFTER, after);
  int i = 0, j = 0;
  while (i < p->nfixed || j < 14) {
    if (j >= 14 || (i < p->nfixed && p->fixed[i] < after[j])) f[n++] = (uint8_t)(36 + p->fixed[i++]);
    else f[n++] = (uint8_t)(36 + after[j++]);
  }
  return n;
}

static int same_move(const tk_daifugo_move *a, const tk_daifugo_move *b) {
  return a->kind == b->kind && a->cards == b->cards && a->jcell == b->jcell;
}

int dmcl_training_position(const tk_daifugo_view *v, const tk_daifugo_legal *l,
                           const tk_daifugo_move *act, int *first, int *teacher) {
  if (l->n <= 1) return DMCL_SKIP_ONLY_PASS;
  int t = -1;
  for (int j = 0; j < l->n; j++) {
    if (l->a[j].kind != TK_DAIFUGO_PASS && l->a[j].cards == v->hand) return DMCL_SKIP_EMPTIES;
    if (t < 0 && same_move(&l->a[j], act)) t = j;
  }
  if (t < 0) return DMCL_NOT_LEGAL;
  int lead = v->top.kind == TK_DAIFUGO_PASS;
  if (lead && t == 0) return DMCL_SKIP_LEAD_PASS;
  *first = lead;
  *teacher = t - lead;
  return DMCL_KEEP;
}
