/* arenas/daifugo/moves.c — move generation: every distinct legal play of a hand against the table,
 * each listed exactly once. A play is identified by the cards leaving the hand and the joker's
 * cell; the joker may stand in a cell whose card is also held (a distinct play: it keeps that
 * card). Plays are listed singles, groups (ascending column), sequences (row, length, column).
 * The playouts' draws (below) count the plays of a hand from bit masks, all four rows at once, and
 * decode only the play drawn; test_daifugo_draw checks them against these lists. */
#include <string.h>

#include "internal.h"

typedef struct gen_ctx {
  tk_daifugo_legal *l;
  int n;                  /* plays listed so far (l->n once done) */
  uint64_t hand;
  int joker;              /* the hand holds the joker */
  int rev, lock;
  const tk_daifugo_move *top;
} gen_ctx;

static inline void push(gen_ctx *c, int kind, uint64_t cards, int n, int rank, int suits, int jcell) {
  if (c->n >= TK_DAIFUGO_MAX_LEGAL) return; /* unreachable: 366 actions at most */
  c->l->a[c->n++] = tk__df_move(cards, kind, n, rank, suits, jcell);
}

/* The suit sets of each size, ascending. */
static const unsigned SETS[5][6] = {{0}, {0}, {3, 5, 6, 9, 10, 12}, {7, 11, 13, 14}, {15}};
static const int NSETS[5] = {0, 0, 6, 4, 1};
static const uint8_t NIBBLE_COUNT[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* The columns that beat column `t` in order `rev`. */
static inline uint32_t cols_over(int t, int rev) {
  return rev ? ((1u << t) - 1) & ~1u : 0x3ffeu & ~((2u << t) - 1);
}

/* The four rows of `hand` as column sets (bit c = column c), and the columns where at least k
 * of them hold a card (ge[k], k = 1..4; ge[0] every column). */
typedef struct col_counts {
  uint32_t row[4];
  uint32_t ge[5];
} col_counts;

static inline void count_cols(uint64_t hand, col_counts *cc) {
  uint32_t a = (uint32_t)hand & 0x3ffe, b = (uint32_t)(hand >> 16) & 0x3ffe;
  uint32_t c = (uint32_t)(hand >> 32) & 0x3ffe, d = (uint32_t)(hand >> 48) & 0x3ffe;
  cc->row[0] = a, cc->row[1] = b, cc->row[2] = c, cc->row[3] = d;
  cc->ge[0] = 0x3ffe;
  cc->ge[1] = a | b | c | d;
  cc->ge[2] = ((a | b) & (c | d)) | (a & b) | (c & d);
  cc->ge[3] = (a & b & (c | d)) | (c & d & (a | b));
  cc->ge[4] = a & b & c & d;
}

static void singles(gen_ctx *c) {
  const tk_daifugo_move *t = c->top;
  if (t->kind == TK_DAIFUGO_JOKER1) { /* only the ♠3, under a lock and in revolution too */
    if (c->hand & TK_DAIFUGO_CARD(0, 1))
      push(c, TK_DAIFUGO_SINGLE, TK_DAIFUGO_CARD(0, 1), 1, 1, 1, TK_DAIFUGO_NOCELL);
    return;
  }
  uint64_t real = c->hand & TK_DAIFUGO_REAL;
  if (t->kind == TK_DAIFUGO_SINGLE) real &= tk__df_beaters(t, c->rev, c->lock);
  while (real) {
    int b = tk__df_ctz(real);
    real &= real - 1;
    push(c, TK_DAIFUGO_SINGLE, UINT64_C(1) << b, 1, b & 15, 1 << (b >> 4), TK_DAIFUGO_NOCELL);
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
  /* the columns holding two cards, or one and the joker, and beating the table's */
  col_counts cc;
  count_cols(c->hand, &cc);
  uint32_t cols = cc.ge[2 - c->joker] & (want ? cols_over(t->rank, c->rev) : 0x3ffeu);
  for (; cols; cols &= cols - 1) {
    int col = tk__df_ctz(cols);
    unsigned nib = tk__df_nibble(c->hand, col);
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
  /* The test below for all four rows at once first (as lead_sequences: a window reaching column
   * 14, 15 or the next row holds at most one card): most hands have no sequence at all. */
  uint64_t real = c->hand & TK_DAIFUGO_REAL, rx = real, ry = real >> 1, rz = real >> 2;
  if (!(c->joker ? (rx & ry) | (rx & rz) | (ry & rz) : rx & ry & rz)) return;
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
               .lock = lock, .top = top};
  push(&c, TK_DAIFUGO_PASS, 0, 0, 0, 0, TK_DAIFUGO_NOCELL);
  if (top->kind == TK_DAIFUGO_PASS || top->kind == TK_DAIFUGO_SINGLE ||
      top->kind == TK_DAIFUGO_JOKER1)
    singles(&c);
  groups(&c);
  sequences(&c);
  l->n = (uint16_t)c.n;
}

/* ------------------------------------------------------------ the playouts' draws */

/* The plays of one column's groups, decoded by index. `nib` is the suit set held there; `size`
 * the group size wanted (0: any of 2..5); `lockset` the suit set a lock demands (0: none). The
 * plays are: the plain sets (subsets of nib), then the joker plays, each a set `rest` of held
 * suits with the joker in a suit j outside it (the five-card group: rest = all four, j = row
 * 4). Returns the number of plays; writes play `k` into *m when k is below it. */
static int column_groups(int col, unsigned nib, int joker, int size, unsigned lockset, int k,
                         tk_daifugo_move *m) {
  int count = 0;
  for (unsigned s = nib; s; s = (s - 1) & nib) { /* every non-empty subset of nib */
    int n = NIBBLE_COUNT[s];
    if (n < 2 || (size && n != size) || (lockset && s != lockset)) continue;
    if (count++ == k)
      *m = tk__df_move(tk__df_spread(s, col), TK_DAIFUGO_GROUP, n, col, (int)s, TK_DAIFUGO_NOCELL);
  }
  if (!joker) return count;
  for (unsigned rest = nib; rest; rest = (rest - 1) & nib) {
    int n = NIBBLE_COUNT[rest] + 1;
    if (size && n != size) continue;
    if (n == 5) {
      if (count++ == k)
        *m = tk__df_move(tk__df_spread(15, col) | TK_DAIFUGO_JOKER, TK_DAIFUGO_GROUP, 5, col, 31,
                         TK_DAIFUGO_CELL(4, col));
      continue;
    }
    for (unsigned free = 15u & ~rest; free; free &= free - 1) {
      unsigned j = free & -free;
      if (lockset && (rest | j) != lockset) continue;
      if (count++ == k)
        *m = tk__df_move(tk__df_spread(rest, col) | TK_DAIFUGO_JOKER, TK_DAIFUGO_GROUP, n, col,
                         (int)(rest | j), TK_DAIFUGO_CELL(tk__df_ctz(j), col));
    }
  }
  return count;
}

/* Groups of one column on a new table, by the number c of suits held there: without the joker
 * 2^c - 1 - c; with it also 3 C(c,1) + 2 C(c,2) + C(c,3) (the joker in each suit outside a held
 * set of 1..3) and the five-card group when c = 4. Column counts are summed as
 * sum_c W[c] * |{columns holding c}|, the four column counts packed in 16-bit lanes and
 * multiplied by the weights packed in reverse, so that the dot product lands in the top lane. */
static const uint64_t GROUP_WEIGHTS[2] = {
    UINT64_C(11) | UINT64_C(4) << 16 | UINT64_C(1) << 32 | UINT64_C(0) << 48,   /* W[4..1] */
    UINT64_C(40) | UINT64_C(20) << 16 | UINT64_C(9) << 32 | UINT64_C(3) << 48}; /* with the joker */

static inline int lead_groups(const col_counts *cc, int joker) {
  /* Columns holding exactly 1, 2, 3, 4 cards, in lanes 0..3. */
  uint64_t x = (uint64_t)(cc->ge[1] & ~cc->ge[2]) | (uint64_t)(cc->ge[2] & ~cc->ge[3]) << 16 |
               (uint64_t)(cc->ge[3] & ~cc->ge[4]) << 32 | (uint64_t)cc->ge[4] << 48;
  x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
  x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
  x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
  x = (x + (x >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
  return (int)((x * GROUP_WEIGHTS[joker]) >> 48);
}

/* Sequences on a new table, all four rows at once in the 16-bit lanes of one word. For a
 * length n, bit 16*row + lo of full[n] marks a window of columns lo..lo+n-1 (within 0..14)
 * holding n cards of the row, and of one[n] a window missing exactly one (kept only with the
 * joker). A full window is 1 + n plays with the joker (plain, or the joker in any of its
 * cells), 1 without; a window missing one is 1 play (the joker in the gap). */
typedef struct seq_windows {
  uint64_t real;        /* the hand's real cards */
  uint64_t full[16], one[16];
  int plays[16];        /* plays of each length, 0 past the longest window */
} seq_windows;

static int lead_sequences(uint64_t hand, int joker, seq_windows *w) {
  uint64_t real = hand & TK_DAIFUGO_REAL;
  uint64_t x = real, y = real >> 1, z = real >> 2;
  w->real = real;
  /* Any window of three needs its three cells held, or two with the joker (without masks: a
   * window reaching column 14, 15 or the next row holds at most one card). */
  if (!(joker ? (x & y) | (x & z) | (y & z) : x & y & z)) return 0;
  uint64_t full = real, one = joker ? ~real & tk__df_lanes(0x7fff) : 0;
  int total = 0;
  for (int n = 1; n < 15; n++) { /* from the windows of length n to those of n + 1 */
    uint64_t next = real >> n;   /* bit lo: the cell lo + n */
    if (joker) one = ((one & next) | (full & ~next)) & tk__df_lanes(0x7fffu >> n);
    full &= next;
    w->plays[n + 1] = 0;
    if (!(full | one)) break;
    if (n + 1 < 3) continue;
    int k = tk__df_popcount(full);
    int plays = joker ? k * (n + 2) + tk__df_popcount(one) : k;
    w->full[n + 1] = full, w->one[n + 1] = one, w->plays[n + 1] = plays;
    total += plays;
  }
  return total;
}

/* Play `k` of the windows of length n: the full windows first (with the joker: plain, then the
 * joker in each cell), then the windows missing one. */
static tk_daifugo_move decode_sequence(const seq_windows *w, int n, int joker, int k) {
  int per = joker ? n + 1 : 1, nfull = tk__df_popcount(w->full[n]);
  int bit, jcell = TK_DAIFUGO_NOCELL;
  if (k < nfull * per) {
    bit = tk__df_select(w->full[n], k / per);
    if (k % per) jcell = bit + k % per - 1; /* the cell 16*row + col is its bit */
  } else {
    bit = tk__df_select(w->one[n], k - nfull * per);
    jcell = tk__df_ctz((((UINT64_C(1) << n) - 1) << bit) & ~w->real);
  }
  uint64_t cards = (((UINT64_C(1) << n) - 1) << bit) & w->real;
  if (jcell != TK_DAIFUGO_NOCELL) cards = (cards & ~(UINT64_C(1) << jcell)) | TK_DAIFUGO_JOKER;
  return tk__df_move(cards, TK_DAIFUGO_SEQ, n, bit & 15, 1 << (bit >> 4), jcell);
}

static const uint8_t LEAD_GROUPS[2][5] = {{0, 0, 1, 4, 11}, {0, 3, 9, 20, 40}};

tk_daifugo_move tk__df_draw_lead(uint64_t hand, tk_rng *r) {
  int joker = (hand & TK_DAIFUGO_JOKER) != 0;
  col_counts cc;
  count_cols(hand, &cc);
  seq_windows w;
  int ns = tk__df_popcount(hand); /* the singles, the single joker included */
  int ng = lead_groups(&cc, joker);
  int nq = lead_sequences(hand, joker, &w);
  int total = ns + ng + nq;
  if (!total) return tk__df_pass();
  int k = tk__df_pick(r, total);
  if (k < ns) return tk__df_single(tk__df_select(hand, k));
  k -= ns;
  if (k < ng) {
    for (uint32_t cols = joker ? cc.ge[1] : cc.ge[2];; cols &= cols - 1) {
      int col = tk__df_ctz(cols);
      unsigned nib = tk__df_nibble(hand, col);
      int c = LEAD_GROUPS[joker][NIBBLE_COUNT[nib]];
      if (k < c) {
        tk_daifugo_move m;
        column_groups(col, nib, joker, 0, 0, k, &m);
        return m;
      }
      k -= c;
    }
  }
  k -= ng;
  for (int n = 3;; n++) {
    if (k < w.plays[n]) return decode_sequence(&w, n, joker, k);
    k -= w.plays[n];
  }
}

uint32_t tk__df_group_cols(uint64_t hand, const tk_daifugo_move *top, int rev, int lock) {
  col_counts cc;
  count_cols(hand, &cc);
  int joker = (hand & TK_DAIFUGO_JOKER) != 0, n = top->n;
  uint32_t cols = cols_over(top->rank, rev);
  if (n == 5) return joker ? cc.ge[4] & cols : 0;
  if (!lock) return (cc.ge[n] | (joker ? cc.ge[n - 1] : 0)) & cols;
  /* Under a lock the suit set is the table's: every suit of it held, or (with the joker) every
   * suit but one. */
  uint32_t all = cols, some = 0;
  unsigned s = top->suits;
  for (int row = 0; row < 4; row++)
    if (s >> row & 1) all &= cc.row[row];
  if (joker)
    for (unsigned js = s; js; js &= js - 1) {
      uint32_t but = cols;
      for (int row = 0; row < 4; row++)
        if ((s & ~(js & -js)) >> row & 1) but &= cc.row[row];
      some |= but;
    }
  return all | some;
}

tk_daifugo_move tk__df_draw_group(uint64_t hand, const tk_daifugo_move *top, int lock,
                                  uint32_t cols, tk_rng *r) {
  int joker = (hand & TK_DAIFUGO_JOKER) != 0;
  unsigned lockset = lock ? top->suits : 0;
  int per_col[16], total = 0;
  for (uint32_t c = cols; c; c &= c - 1) {
    int col = tk__df_ctz(c);
    per_col[col] = column_groups(col, tk__df_nibble(hand, col), joker, top->n, lockset, -1, NULL);
    total += per_col[col];
  }
  int k = tk__df_pick(r, total);
  for (;; cols &= cols - 1) {
    int col = tk__df_ctz(cols);
    if (k < per_col[col]) {
      tk_daifugo_move m;
      column_groups(col, tk__df_nibble(hand, col), joker, top->n, lockset, k, &m);
      return m;
    }
    k -= per_col[col];
  }
}

tk_daifugo_move tk__df_draw(uint64_t hand, const tk_daifugo_move *top, int rev, int lock, tk_rng *r) {
  switch (top->kind) {
  case TK_DAIFUGO_PASS:
    return tk__df_draw_lead(hand, r);
  case TK_DAIFUGO_SINGLE:
  case TK_DAIFUGO_JOKER1:
    return tk__df_draw_single(hand & tk__df_beaters(top, rev, lock), r);
  case TK_DAIFUGO_GROUP: {
    uint32_t cols = tk__df_group_cols(hand, top, rev, lock);
    return cols ? tk__df_draw_group(hand, top, lock, cols, r) : tk__df_pass();
  }
  default: {
    tk_daifugo_legal l;
    tk__df_gen(hand, top, rev, lock, &l);
    return l.n > 1 ? l.a[1 + tk__df_pick(r, l.n - 1)] : tk__df_pass();
  }
  }
}
