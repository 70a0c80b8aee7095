/* arenas/daifugo/moves.c — move generation: every distinct legal play of a hand against the table,
 * each listed exactly once. A play is identified by the cards leaving the hand and the joker's
 * cell; the joker may stand in a cell whose card is also held (a distinct play: it keeps that
 * card). Plays are listed singles, groups (ascending column), sequences (row, length, column).
 * Playouts draw a new table's play uniformly from counts, listing only the part drawn. */
#include <string.h>

#include "internal.h"

typedef struct gen_ctx {
  tk_daifugo_legal *l;
  uint64_t hand;
  int joker;              /* the hand holds the joker */
  int rev, lock;
  int col_lo, col_hi;     /* groups: the columns to list */
  const tk_daifugo_move *top;
} gen_ctx;

static void push(gen_ctx *c, int kind, uint64_t cards, int n, int rank, int suits, int jcell) {
  if (c->l->n >= TK_DAIFUGO_MAX_LEGAL) return; /* unreachable: 366 actions at most */
  tk_daifugo_move *m = &c->l->a[c->l->n++];
  m->cards = cards;
  m->kind = (uint8_t)kind;
  m->n = (uint8_t)n;
  m->rank = (uint8_t)rank;
  m->suits = (uint8_t)suits;
  m->jcell = (uint8_t)jcell;
  m->reserved[0] = m->reserved[1] = m->reserved[2] = 0;
}

/* The suit sets of each size, ascending. */
static const unsigned SETS[5][6] = {{0}, {0}, {3, 5, 6, 9, 10, 12}, {7, 11, 13, 14}, {15}};
static const int NSETS[5] = {0, 0, 6, 4, 1};
static const uint8_t NIBBLE_COUNT[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* 1 if a play of column `col` beats column `top` in the current order. */
static inline int beats(int col, int top, int rev) { return rev ? col < top : col > top; }

static void singles(gen_ctx *c) {
  const tk_daifugo_move *t = c->top;
  if (t->kind == TK_DAIFUGO_JOKER1) { /* only the ♠3, under a lock and in revolution too */
    if (c->hand & TK_DAIFUGO_CARD(0, 1))
      push(c, TK_DAIFUGO_SINGLE, TK_DAIFUGO_CARD(0, 1), 1, 1, 1, TK_DAIFUGO_NOCELL);
    return;
  }
  uint64_t real = c->hand & TK_DAIFUGO_REAL;
  while (real) {
    int b = tk__df_ctz(real);
    real &= real - 1;
    int row = b >> 4, col = b & 15;
    if (t->kind == TK_DAIFUGO_SINGLE) {
      if (!beats(col, t->rank, c->rev)) continue;
      if (c->lock && (1 << row) != t->suits) continue;
    }
    push(c, TK_DAIFUGO_SINGLE, UINT64_C(1) << b, 1, col, 1 << row, TK_DAIFUGO_NOCELL);
  }
  if (c->joker) push(c, TK_DAIFUGO_JOKER1, TK_DAIFUGO_JOKER, 1, 0, 0, TK_DAIFUGO_NOCELL);
}

/* Groups of suit set `s` (2..4 suits) at column `col` held as `nib`: without the joker when all
 * are held, and with the joker in each cell j of s whose other cells are held. */
static void groups_of_set(gen_ctx *c, int col, unsigned nib, unsigned s) {
  int n = NIBBLE_COUNT[s & 15];
  if ((s & nib) == s) push(c, TK_DAIFUGO_GROUP, tk__df_spread(s, col), n, col, (int)s, TK_DAIFUGO_NOCELL);
  if (!c->joker) return;
  for (unsigned js = s; js; js &= js - 1) {
    unsigned j = js & -js;
    unsigned rest = s & ~j;
    if ((rest & nib) != rest) continue;
    int row = tk__df_ctz(j);
    push(c, TK_DAIFUGO_GROUP, tk__df_spread(rest, col) | TK_DAIFUGO_JOKER, n, col, (int)s,
         TK_DAIFUGO_CELL(row, col));
  }
}

static void groups(gen_ctx *c) {
  const tk_daifugo_move *t = c->top;
  int want = 0; /* 0 = any size */
  if (t->kind == TK_DAIFUGO_GROUP) want = t->n;
  else if (t->kind != TK_DAIFUGO_PASS) return;
  for (int col = c->col_lo; col <= c->col_hi; col++) {
    if (want && !beats(col, t->rank, c->rev)) continue;
    unsigned nib = tk__df_nibble(c->hand, col);
    if (NIBBLE_COUNT[nib] + c->joker < 2) continue;
    if (want == 5 || !want) { /* four suits and the joker (row 4): the only set with bit 16 */
      if (nib == 15 && c->joker)
        push(c, TK_DAIFUGO_GROUP, tk__df_spread(15, col) | TK_DAIFUGO_JOKER, 5, col, 31,
             TK_DAIFUGO_CELL(4, col));
      if (want) continue;
    }
    if (want && c->lock) {
      groups_of_set(c, col, nib, t->suits);
      continue;
    }
    for (int n = want ? want : 2; n <= (want ? want : 4); n++)
      for (int i = 0; i < NSETS[n]; i++) groups_of_set(c, col, nib, SETS[n][i]);
  }
}

static void sequences(gen_ctx *c) {
  const tk_daifugo_move *t = c->top;
  int want = 0;
  if (t->kind == TK_DAIFUGO_SEQ) want = t->n;
  else if (t->kind != TK_DAIFUGO_PASS) return;
  for (int row = 0; row < 4; row++) {
    if (want && c->lock && t->suits != (1 << row)) continue;
    uint32_t lane = (uint32_t)(c->hand >> (16 * row)) & (uint32_t)TK_DAIFUGO_SUIT_LANE;
    int held = tk__df_popcount(lane);
    if (held + c->joker < 3) continue;
    /* Any window of three needs all three cells held, or two with the joker. */
    uint32_t x = lane, y = lane >> 1, z = lane >> 2;
    if (!(c->joker ? (x & y) | (x & z) | (y & z) : x & y & z)) continue;
    int nmin = want ? want : 3, nmax = want ? want : held + c->joker;
    if (nmax > 15) nmax = 15;
    for (int n = nmin; n <= nmax; n++) {
      int lo_min = 0, lo_max = 15 - n;
      if (want) {
        if (c->rev) lo_max = lo_max < t->rank - n ? lo_max : t->rank - n; /* hi < top lo */
        else lo_min = t->rank + t->n;                                      /* lo > top hi */
      }
      uint32_t ones = (1u << n) - 1;
      int fit = 0; /* windows of this length with at most one cell missing */
      for (int lo = lo_min; lo <= lo_max; lo++) { /* on a new table: every window */
        uint32_t w = ones << lo;
        uint32_t in = lane & w;
        int miss = n - tk__df_popcount(in);
        fit += miss == 0 || (miss == 1 && c->joker);
        uint64_t cards = (uint64_t)in << (16 * row);
        if (miss == 0) {
          push(c, TK_DAIFUGO_SEQ, cards, n, lo, 1 << row, TK_DAIFUGO_NOCELL);
          if (c->joker)
            for (int k = lo; k < lo + n; k++)
              push(c, TK_DAIFUGO_SEQ, (cards & ~TK_DAIFUGO_CARD(row, k)) | TK_DAIFUGO_JOKER, n, lo,
                   1 << row, TK_DAIFUGO_CELL(row, k));
        } else if (miss == 1 && c->joker) {
          int k = tk__df_ctz(w & ~in);
          push(c, TK_DAIFUGO_SEQ, cards | TK_DAIFUGO_JOKER, n, lo, 1 << row, TK_DAIFUGO_CELL(row, k));
        }
      }
      /* On a new table every window was seen; a longer window contains a shorter one with as
       * few missing cells, so none fits either. */
      if (!fit) break;
    }
  }
}

void tk__df_gen(uint64_t hand, const tk_daifugo_move *top, int rev, int lock, tk_daifugo_legal *l) {
  gen_ctx c = {.l = l, .hand = hand, .joker = (hand & TK_DAIFUGO_JOKER) != 0, .rev = rev,
               .lock = lock, .col_lo = 1, .col_hi = 13, .top = top};
  l->n = 0;
  push(&c, TK_DAIFUGO_PASS, 0, 0, 0, 0, TK_DAIFUGO_NOCELL);
  if (top->kind == TK_DAIFUGO_PASS || top->kind == TK_DAIFUGO_SINGLE ||
      top->kind == TK_DAIFUGO_JOKER1)
    singles(&c);
  groups(&c);
  sequences(&c);
}

/* Groups of one column on a new table, by the number of suits held there: without the joker
 * 2^c - 1 - c; with it 3 C(c,1) + 2 C(c,2) + C(c,3) (the joker in each free or held cell of a
 * set of 2..4) plus the five-card group when c = 4. */
static const uint8_t PLAIN[5] = {0, 0, 1, 4, 11}, WITH_JOKER[5] = {0, 3, 8, 16, 29};

int tk__df_draw_lead(uint64_t hand, tk_rng *r, tk_daifugo_move *m) {
  static const tk_daifugo_move empty = {.kind = TK_DAIFUGO_PASS, .jcell = TK_DAIFUGO_NOCELL};
  tk_daifugo_legal l; /* only its first entries are written */
  gen_ctx c = {.l = &l, .hand = hand, .joker = (hand & TK_DAIFUGO_JOKER) != 0, .rev = 0,
               .lock = 0, .col_lo = 1, .col_hi = 13, .top = &empty};
  uint64_t real = hand & TK_DAIFUGO_REAL;
  int nreal = tk__df_popcount(real);
  int ns = nreal + c.joker, ng = 0;
  int per_col[14];
  for (int col = 1; col <= 13; col++) {
    int k = NIBBLE_COUNT[tk__df_nibble(hand, col)];
    per_col[col] = c.joker ? PLAIN[k] + WITH_JOKER[k] : PLAIN[k];
    ng += per_col[col];
  }
  l.n = 0;
  sequences(&c);
  int nq = l.n;
  int total = ns + ng + nq;
  if (!total) return 0;
  int k = (int)tk_rng_below(r, (uint32_t)total);
  if (k >= ns + ng) {
    *m = l.a[k - ns - ng];
    return 1;
  }
  if (k < ns) {
    memset(m, 0, sizeof *m);
    m->jcell = TK_DAIFUGO_NOCELL;
    m->n = 1;
    if (k == nreal) {
      m->kind = TK_DAIFUGO_JOKER1;
      m->cards = TK_DAIFUGO_JOKER;
      return 1;
    }
    while (k--) real &= real - 1;
    int b = tk__df_ctz(real);
    m->kind = TK_DAIFUGO_SINGLE;
    m->cards = UINT64_C(1) << b;
    m->rank = (uint8_t)(b & 15);
    m->suits = (uint8_t)(1 << (b >> 4));
    return 1;
  }
  k -= ns;
  int col = 1;
  while (k >= per_col[col]) k -= per_col[col++];
  c.col_lo = c.col_hi = col;
  l.n = 0;
  groups(&c);
  *m = l.a[k];
  return 1;
}

int tk__df_draw_group(uint64_t hand, const tk_daifugo_move *top, int rev, int lock, tk_rng *r,
                      tk_daifugo_move *m) {
  static const uint8_t BINOM[5][5] = {{1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}};
  int joker = (hand & TK_DAIFUGO_JOKER) != 0, n = top->n;
  int per_col[14] = {0}, total = 0;
  for (int col = 1; col <= 13; col++) {
    if (!beats(col, top->rank, rev)) continue;
    unsigned nib = tk__df_nibble(hand, col);
    int c = NIBBLE_COUNT[nib], k = 0;
    if (n == 5) {
      k = nib == 15 && joker;
    } else if (lock) {
      unsigned s = top->suits;
      k = (s & nib) == s;
      if (joker)
        for (unsigned js = s; js; js &= js - 1) k += ((s & ~(js & -js)) & nib) == (s & ~(js & -js));
    } else {
      k = BINOM[c][n] + (joker ? BINOM[c][n - 1] * (5 - n) : 0);
    }
    per_col[col] = k;
    total += k;
  }
  if (!total) return 0;
  int k = (int)tk_rng_below(r, (uint32_t)total);
  int col = 1;
  while (k >= per_col[col]) k -= per_col[col++];
  tk_daifugo_legal l; /* only its first entries are written */
  gen_ctx c = {.l = &l, .hand = hand, .joker = joker, .rev = rev, .lock = lock, .col_lo = col,
               .col_hi = col, .top = top};
  l.n = 0;
  groups(&c);
  *m = l.a[k];
  return 1;
}
