/* arenas/daifugo/internal.h — helpers shared by the daifugo engine's files (not public).
 * Card layout: bit 16*row + col (taikai/daifugo.h); a suit set has ♠ as bit 0 … ♣ as bit 3. */
#ifndef TAIKAI_DAIFUGO_INTERNAL_H
#define TAIKAI_DAIFUGO_INTERNAL_H

#include <string.h>

#include "taikai/daifugo.h"

/* Without a hardware popcount (the default x86-64 target) the builtin is a library call: SWAR. */
static inline int tk__df_popcount(uint64_t x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
  x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
  x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
  return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}
static inline int tk__df_ctz(uint64_t x) { return __builtin_ctzll(x); }

/* The suit set held at column `col` (bit r = row r). */
static inline unsigned tk__df_nibble(uint64_t h, int col) {
  return (unsigned)(((h >> col) & 1) | ((h >> (col + 15)) & 2) | ((h >> (col + 30)) & 4) |
                    ((h >> (col + 45)) & 8));
}
/* The cards of suit set `s` at column `col`. */
static inline uint64_t tk__df_spread(unsigned s, int col) {
  uint64_t c = (uint64_t)(s & 1) | (uint64_t)(s >> 1 & 1) << 16 | (uint64_t)(s >> 2 & 1) << 32 |
               (uint64_t)(s >> 3 & 1) << 48;
  return c << col;
}
/* 1 if a play of `kind`, `rank` and `n` cards contains an eight (a joker standing for one
 * included; a single joker never). */
static inline int tk__df_has8_of(int kind, int rank, int n) {
  if (kind == TK_DAIFUGO_SEQ) return rank <= TK_DAIFUGO_COL_8 && TK_DAIFUGO_COL_8 <= rank + n - 1;
  return (kind == TK_DAIFUGO_SINGLE || kind == TK_DAIFUGO_GROUP) && rank == TK_DAIFUGO_COL_8;
}
static inline int tk__df_has8(const tk_daifugo_move *m) { return tk__df_has8_of(m->kind, m->rank, m->n); }
/* 1 if a play flips the order: a group of 4+ or a sequence of 5+ (the joker counted). */
static inline int tk__df_revolts_of(int kind, int n) {
  return (kind == TK_DAIFUGO_GROUP && n >= 4) || (kind == TK_DAIFUGO_SEQ && n >= 5);
}
static inline int tk__df_revolts(const tk_daifugo_move *m) { return tk__df_revolts_of(m->kind, m->n); }
static inline int tk__df_is_spade3(const tk_daifugo_move *m) {
  return m->kind == TK_DAIFUGO_SINGLE && m->cards == TK_DAIFUGO_CARD(0, 1);
}
static inline int tk__df_same(const tk_daifugo_move *a, const tk_daifugo_move *b) {
  return a->kind == b->kind && a->cards == b->cards && a->jcell == b->jcell;
}

/* The engine's files share these without exporting them from libtaikai (a direct call, no PLT). */
#if defined(__GNUC__)
#define TK__DF_HIDDEN __attribute__((visibility("hidden")))
#else
#define TK__DF_HIDDEN
#endif

/* The cards of column set `cols` (bit c = column c) in every row. */
static inline uint64_t tk__df_lanes(uint32_t cols) { return (uint64_t)cols * UINT64_C(0x0001000100010001); }

/* tk_rng_next and tk_rng_below (arenas/common/rng.c: xoshiro256**, Lemire's bounded draw), the
 * same stream, inline: a playout draws about 45 times, and libtaikai's exported functions are
 * reached through the PLT. test_daifugo_draw checks the two agree. */
static inline uint64_t tk__df_next(tk_rng *r) {
  uint64_t *s = r->s;
  uint64_t x = s[1] * 5;
  uint64_t result = ((x << 7) | (x >> 57)) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
  return result;
}
static inline uint32_t tk__df_below(tk_rng *r, uint32_t n) {
  uint64_t m = (uint64_t)(uint32_t)(tk__df_next(r) >> 32) * n;
  uint32_t l = (uint32_t)m;
  if (l < n) {
    uint32_t t = (uint32_t)(-n) % n;
    while (l < t) {
      m = (uint64_t)(uint32_t)(tk__df_next(r) >> 32) * n;
      l = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}
/* A uniform index in [0, n), n >= 1 (one draw even when n = 1: a branch on it would be
 * mispredicted more often than the draw costs). The playout draws of tk_daifugo_random_play
 * and tk_daifugo_playout all go through it, so that both consume the same stream. */
static inline int tk__df_pick(tk_rng *r, int n) { return (int)tk__df_below(r, (uint32_t)n); }

/* The `k`-th (0-based) set bit of `x`, which has more than k. The sets are small (a hand, the
 * cards that beat a single): clearing the lowest bit k times measured faster than a
 * branch-free broadword select. */
static inline int tk__df_select(uint64_t x, int k) {
  while (k--) x &= x - 1;
  return tk__df_ctz(x);
}

/* A move from its fields, the reserved bytes zero. The eight bytes after `cards` are built as one
 * integer, so that the move travels in two registers: built byte by byte in memory and then
 * copied whole, it would stall the store-to-load forwarding. */
static inline tk_daifugo_move tk__df_move(uint64_t cards, int kind, int n, int rank, int suits,
                                          int jcell) {
  tk_daifugo_move m;
  m.cards = cards;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t head = (uint64_t)(uint8_t)kind | (uint64_t)(uint8_t)n << 8 | (uint64_t)(uint8_t)rank << 16 |
                  (uint64_t)(uint8_t)suits << 24 | (uint64_t)(uint8_t)jcell << 32;
  _Static_assert(offsetof(tk_daifugo_move, kind) == 8 && offsetof(tk_daifugo_move, jcell) == 12,
                 "tk__df_move packs kind..jcell into the second word");
  memcpy(&m.kind, &head, 8);
#else
  m.kind = (uint8_t)kind, m.n = (uint8_t)n, m.rank = (uint8_t)rank, m.suits = (uint8_t)suits;
  m.jcell = (uint8_t)jcell, m.reserved[0] = m.reserved[1] = m.reserved[2] = 0;
#endif
  return m;
}
/* The eight bytes after `cards` as one integer (kind in the low byte, then n, rank, suits, jcell;
 * reserved zero), and back: the playout loop keeps the table's move as two integers. */
static inline uint64_t tk__df_head(const tk_daifugo_move *m) {
  return (uint64_t)m->kind | (uint64_t)m->n << 8 | (uint64_t)m->rank << 16 |
         (uint64_t)m->suits << 24 | (uint64_t)m->jcell << 32;
}
static inline tk_daifugo_move tk__df_unhead(uint64_t cards, uint64_t head) {
  return tk__df_move(cards, (int)(head & 0xff), (int)(head >> 8 & 0xff), (int)(head >> 16 & 0xff),
                     (int)(head >> 24 & 0xff), (int)(head >> 32 & 0xff));
}
static inline tk_daifugo_move tk__df_pass(void) {
  return tk__df_move(0, TK_DAIFUGO_PASS, 0, 0, 0, TK_DAIFUGO_NOCELL);
}

/* The cards that may follow a single (`kind` SINGLE or JOKER1, `rank`, `suits`) in order `rev`
 * (of its suit under `lock`), the joker's bit included; over the single joker only the ♠3,
 * whatever the lock and the order. */
static inline uint64_t tk__df_beaters_of(int kind, int rank, int suits, int rev, int lock) {
  if (kind == TK_DAIFUGO_JOKER1) return TK_DAIFUGO_CARD(0, 1);
  static const uint64_t ROW[16] = {0, UINT64_C(0xffff), UINT64_C(0xffff) << 16, 0,
                                   UINT64_C(0xffff) << 32, 0, 0, 0, UINT64_C(0xffff) << 48};
  uint32_t cols = rev ? ((1u << rank) - 1) & ~1u : 0x3ffeu & ~((2u << rank) - 1);
  /* Under a lock, the row of the single's suit; else every row. */
  return (tk__df_lanes(cols) & (ROW[suits & 15] | ((uint64_t)lock - 1))) | TK_DAIFUGO_JOKER;
}
static inline uint64_t tk__df_beaters(const tk_daifugo_move *top, int rev, int lock) {
  return tk__df_beaters_of(top->kind, top->rank, top->suits, rev, lock);
}

/* A single: the card `b` (bit index) or, for b == 15, the single joker. */
static inline tk_daifugo_move tk__df_single(int b) {
  int joker = b == 15;
  return tk__df_move(UINT64_C(1) << b, joker ? TK_DAIFUGO_JOKER1 : TK_DAIFUGO_SINGLE, 1,
                     joker ? 0 : b & 15, joker ? 0 : 1 << (b >> 4), TK_DAIFUGO_NOCELL);
}

/* Draws uniformly one of the plays over a single, `cand` (hand & tk__df_beaters): a card or
 * the single joker; the pass when there is none. */
static inline tk_daifugo_move tk__df_draw_single(uint64_t cand, tk_rng *r) {
  if (!cand) return tk__df_pass();
  return tk__df_single(tk__df_select(cand, tk__df_pick(r, tk__df_popcount(cand))));
}

/* Lists every legal play of `hand` against the table (`top`, `rev`, `lock`) after l->a[0] = pass;
 * sets l->n. */
TK__DF_HIDDEN void tk__df_gen(uint64_t hand, const tk_daifugo_move *top, int rev, int lock,
                              tk_daifugo_legal *l);

/* The playouts' draws: each picks uniformly one of the plays tk__df_gen lists (the pass
 * excluded), with the same fields, from counts, decoding only the play drawn. */

/* On a new table; the pass if the hand is empty. */
TK__DF_HIDDEN tk_daifugo_move tk__df_draw_lead(uint64_t hand, tk_rng *r);
/* The columns (bit c = column c) where `hand` has a play over the group `top`. */
TK__DF_HIDDEN uint32_t tk__df_group_cols(uint64_t hand, const tk_daifugo_move *top, int rev, int lock);
/* Over the group `top`, among the columns `cols` of tk__df_group_cols (not 0). */
TK__DF_HIDDEN tk_daifugo_move tk__df_draw_group(uint64_t hand, const tk_daifugo_move *top, int lock,
                                                uint32_t cols, tk_rng *r);
/* Over any table; the pass when there is no play. */
TK__DF_HIDDEN tk_daifugo_move tk__df_draw(uint64_t hand, const tk_daifugo_move *top, int rev,
                                          int lock, tk_rng *r);

#endif
