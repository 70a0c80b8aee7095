/* arenas/daifugo/internal.h — helpers shared by the daifugo engine's files (not public).
 * Card layout: bit 16*row + col (taikai/daifugo.h); a suit set has ♠ as bit 0 … ♣ as bit 3. */
#ifndef TAIKAI_DAIFUGO_INTERNAL_H
#define TAIKAI_DAIFUGO_INTERNAL_H

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
/* 1 if `m` contains an eight (a joker standing for one included; a single joker never). */
static inline int tk__df_has8(const tk_daifugo_move *m) {
  if (m->kind == TK_DAIFUGO_SINGLE || m->kind == TK_DAIFUGO_GROUP)
    return m->rank == TK_DAIFUGO_COL_8;
  if (m->kind == TK_DAIFUGO_SEQ)
    return m->rank <= TK_DAIFUGO_COL_8 && TK_DAIFUGO_COL_8 <= m->rank + m->n - 1;
  return 0;
}
/* 1 if `m` flips the order: a group of 4+ or a sequence of 5+ (the joker counted). */
static inline int tk__df_revolts(const tk_daifugo_move *m) {
  return (m->kind == TK_DAIFUGO_GROUP && m->n >= 4) || (m->kind == TK_DAIFUGO_SEQ && m->n >= 5);
}
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
/* A uniform index in [0, n), n >= 1; no draw when there is one choice. The playout draws of
 * tk_daifugo_random_play and tk_daifugo_playout all go through it, so that both consume the
 * same stream. */
static inline int tk__df_pick(tk_rng *r, int n) { return n > 1 ? (int)tk__df_below(r, (uint32_t)n) : 0; }

/* The `k`-th (0-based) set bit of `x`, which has more than k. */
static inline int tk__df_select(uint64_t x, int k) {
  while (k--) x &= x - 1;
  return tk__df_ctz(x);
}

/* The cards that may follow the single `top` in order `rev` (of its suit under `lock`), the
 * joker's bit included; over the single joker only the ♠3, whatever the lock and the order. */
static inline uint64_t tk__df_beaters(const tk_daifugo_move *top, int rev, int lock) {
  if (top->kind == TK_DAIFUGO_JOKER1) return TK_DAIFUGO_CARD(0, 1);
  int t = top->rank;
  uint32_t cols = rev ? ((1u << t) - 1) & ~1u : 0x3ffeu & ~((2u << t) - 1);
  uint64_t m = tk__df_lanes(cols);
  if (lock) m &= UINT64_C(0xffff) << (16 * tk__df_ctz(top->suits));
  return m | TK_DAIFUGO_JOKER;
}

/* A single: the card `b` (bit index) or, for b == 15, the single joker. */
static inline void tk__df_single(int b, tk_daifugo_move *m) {
  tk_daifugo_move s = {.cards = UINT64_C(1) << b, .kind = TK_DAIFUGO_SINGLE, .n = 1,
                       .rank = (uint8_t)(b & 15), .suits = (uint8_t)(1 << (b >> 4)),
                       .jcell = TK_DAIFUGO_NOCELL};
  if (b == 15) s.kind = TK_DAIFUGO_JOKER1, s.rank = 0, s.suits = 0;
  *m = s;
}

/* Draws uniformly one of the plays over a single, `cand` (hand & tk__df_beaters): a card or
 * the single joker. Returns 0 and writes the pass when there is none. */
static inline int tk__df_draw_single(uint64_t cand, tk_rng *r, tk_daifugo_move *m) {
  if (!cand) {
    *m = (tk_daifugo_move){.kind = TK_DAIFUGO_PASS, .jcell = TK_DAIFUGO_NOCELL};
    return 0;
  }
  tk__df_single(tk__df_select(cand, tk__df_pick(r, tk__df_popcount(cand))), m);
  return 1;
}

/* Lists every legal play of `hand` against the table (`top`, `rev`, `lock`) after l->a[0] = pass;
 * sets l->n. */
TK__DF_HIDDEN void tk__df_gen(uint64_t hand, const tk_daifugo_move *top, int rev, int lock,
                              tk_daifugo_legal *l);

/* The playouts' draws: each picks uniformly one of the plays tk__df_gen lists (the pass
 * excluded), with the same fields, from counts, decoding only the play drawn. */

/* On a new table; returns 0 if the hand is empty. */
TK__DF_HIDDEN int tk__df_draw_lead(uint64_t hand, tk_rng *r, tk_daifugo_move *m);
/* The columns (bit c = column c) where `hand` has a play over the group `top`. */
TK__DF_HIDDEN uint32_t tk__df_group_cols(uint64_t hand, const tk_daifugo_move *top, int rev, int lock);
/* Over the group `top`, among the columns `cols` of tk__df_group_cols (not 0). */
TK__DF_HIDDEN void tk__df_draw_group(uint64_t hand, const tk_daifugo_move *top, int lock,
                                     uint32_t cols, tk_rng *r, tk_daifugo_move *m);
/* Over any table; writes the pass and returns 0 when there is no play. */
TK__DF_HIDDEN int tk__df_draw(uint64_t hand, const tk_daifugo_move *top, int rev, int lock,
                              tk_rng *r, tk_daifugo_move *m);

#endif
