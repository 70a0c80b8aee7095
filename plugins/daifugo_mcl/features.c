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

void dmcl_hand_codes(uint64_t hand, uint8_t code[14]) {
  uint32_t one, two;
  dmcl_col_counts(hand, &one, &two);
  for (int col = 1; col <= 13; col++)
    code[col - 1] = (uint8_t)((two >> col & 1) * 2 + (one >> col & 1));
  code[13] = (hand & TK_DAIFUGO_JOKER) != 0;
}

void dmcl_hand_units(uint64_t hand, int base, uint8_t c[14]) {
  dmcl_hand_codes(hand, c);
  for (int col = 1; col <= 13; col++) c[col - 1] = (uint8_t)(base + 3 * (col - 1) + c[col - 1]);
  c[13] = (uint8_t)(base + 39 + c[13]);
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
  int mb = dmcl_my_bucket(p->mysize);
  if (mb >= 0) p->fixed[n++] = (uint8_t)(DMCL_C_MYSIZE + mb);
  for (int k = 0; k < 4; k++) p->fixed[n++] = (uint8_t)(DMCL_C_SIZES + 7 * k + dmcl_other_bucket(p->sizes[k]));
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
  dmcl_pos_of_game_core(g, p);
  finish(p);
}

/* Orders *a <= *b. */
static inline void cswap(int *a, int *b) {
  int x = *a, y = *b;
  *a = x < y ? x : y;
  *b = x < y ? y : x;
}

void dmcl_pos_of_game_core(const tk_daifugo_game *g, dmcl_pos *p) {
  /* fill()'s fields from the game's own seat table, the sizes sorted by a network: the same
   * values (the tests compare the view's position with the game's byte for byte) */
  memset(p, 0, sizeof *p);
  int me = g->turn, s = g->seat_of[me];
  p->hand = g->hand[me];
  p->unseen = TK_DAIFUGO_DECK & ~g->hand[me] & ~g->played;
  p->top = g->top;
  p->rev = g->rev;
  p->lock = g->lock;
  unsigned gone = ((unsigned)g->passed | g->out) & ~(1u << me) & 31u;
  int c[4], nfp = 0;
  for (int k = 0; k < 4; k++) {
    int t = s + 1 + k, q = g->at_seat[t >= 5 ? t - 5 : t];
    p->passed[k] = (uint8_t)(gone >> q & 1);
    nfp += p->passed[k];
    c[k] = popcount64(g->hand[q]);
  }
  p->nfp = (uint8_t)nfp;
  int c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
  cswap(&c0, &c1), cswap(&c2, &c3), cswap(&c0, &c2), cswap(&c1, &c3), cswap(&c1, &c2);
  p->sizes[0] = (uint8_t)c0, p->sizes[1] = (uint8_t)c1, p->sizes[2] = (uint8_t)c2;
  p->sizes[3] = (uint8_t)c3;
  p->mysize = (uint8_t)popcount64(p->hand);
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
