/* plugins/riichi_oneplayer/features_internal.h — what features.c (the rows) and components.c
 * (the hand's components) share: the reference switch and the small helpers of both. Not part
 * of the plugin's interface. */
#ifndef TAIKAI_ROF_FEATURES_INTERNAL_H
#define TAIKAI_ROF_FEATURES_INTERNAL_H

#include "features.h"

/* The reference switch (features.h, rof_reference_mode): on, every extraction is computed
 * from scratch. Per thread. */
extern _Thread_local int rof__plain_mode;

static inline int clip(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static inline int imin(int a, int b) { return a < b ? a : b; }

static inline int is_yakuhai(int k, const rof_ctx *x) {
  return k >= TK_HAKU || k == TK_EAST + x->seat_wind || k == TK_EAST + x->round_wind;
}

/* Copies of kind k in the open meld m. */
static inline int meld_tiles(const tk_call *m, int k) {
  switch (m->type) {
  case TK_CALL_CHI: return k >= m->kind && k <= m->kind + 2;
  case TK_CALL_PON: return k == m->kind ? 3 : 0;
  default: return k == m->kind ? 4 : 0;
  }
}

/* Class of a number kind: 1/9 -> 0, 2/8 -> 1, 3/7 -> 2, 4/6 -> 3, 5 -> 4. */
static inline int num_class(int k) {
  int r = tk_kind_number(k);
  int d = r <= 5 ? r : 10 - r;
  return d - 1;
}

#endif
