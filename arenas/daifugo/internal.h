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

/* Lists every legal play of `hand` against the table (`top`, `rev`, `lock`) after l->a[0] = pass;
 * sets l->n. */
void tk__df_gen(uint64_t hand, const tk_daifugo_move *top, int rev, int lock, tk_daifugo_legal *l);
/* Draws one of the plays of `hand` on a new table uniformly (the same set tk__df_gen lists),
 * listing only the column or the sequences it falls in; returns 0 if the hand is empty. */
int tk__df_draw_lead(uint64_t hand, tk_rng *r, tk_daifugo_move *m);
/* The same over a group on the table (`top`); returns 0 (and leaves *m) if there is no play. */
int tk__df_draw_group(uint64_t hand, const tk_daifugo_move *top, int rev, int lock, tk_rng *r,
                      tk_daifugo_move *m);

#endif
