/* plugins/riichi_oneplayer/features.c — tables 2 and 3 of paper 000 (features.h). The readings
 * of every row, and of the glossary terms the paper does not define (the ryanmen-first
 * decomposition, perfect 1/2-shanten, the yaku status, the yaku-specific shanten...), are in
 * docs/riichi-oneplayer.md; the comments here state how each is computed. Shanten, effective
 * tiles, waits and scores come from the rules kernel (taikai/mahjong.h). This file encodes
 * the rows; components.c computes the hand's components they read (rof_components). */
#include "features.h"
#include "features_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ row tables */

static const char *const row_names[ROF_NROWS] = {
#define ROF__NAME(name, dim, item) #name,
  ROF_ROWS(ROF__NAME)
#undef ROF__NAME
};
static const uint32_t row_offs[ROF_NROWS] = {
#define ROF__O(name, dim, item) ROF_OFF_##name,
  ROF_ROWS(ROF__O)
#undef ROF__O
};
static const uint32_t row_dims[ROF_NROWS] = {
#define ROF__D(name, dim, item) (dim),
  ROF_ROWS(ROF__D)
#undef ROF__D
};
static const uint8_t row_items[ROF_NROWS] = {
#define ROF__I(name, dim, item) (item),
  ROF_ROWS(ROF__I)
#undef ROF__I
};

const char *rof_row_name(int row) { return row >= 0 && row < ROF_NROWS ? row_names[row] : NULL; }
uint32_t rof_row_offset(int row) { return row >= 0 && row < ROF_NROWS ? row_offs[row] : 0; }
uint32_t rof_row_dim(int row) { return row >= 0 && row < ROF_NROWS ? row_dims[row] : 0; }
int rof_row_per_item(int row) { return row >= 0 && row < ROF_NROWS ? row_items[row] : 0; }
int rof_row_of(uint32_t index) {
  if (index >= ROF_FEATURES) return -1;
  int lo = 0, hi = ROF_NROWS - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (row_offs[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* ------------------------------------------------------------------ small helpers */

_Thread_local int rof__plain_mode;
void rof_reference_mode(int on) { rof__plain_mode = on != 0; }

/* acc * radix + v, v clipped into 0..radix-1: one step of a row's mixed-radix index. */
static uint32_t mr(uint32_t acc, int v, int radix) {
  return acc * (uint32_t)radix + (uint32_t)clip(v, 0, radix - 1);
}

/* Number of patterns of `len` counts, each 0..cap, with total <= budget (cap 2 and 4). */
static const uint32_t cnt2[10][15] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3},
  {1, 3, 6, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9},
  {1, 4, 10, 17, 23, 26, 27, 27, 27, 27, 27, 27, 27, 27, 27},
  {1, 5, 15, 31, 50, 66, 76, 80, 81, 81, 81, 81, 81, 81, 81},
  {1, 6, 21, 51, 96, 147, 192, 222, 237, 242, 243, 243, 243, 243, 243},
  {1, 7, 28, 78, 168, 294, 435, 561, 651, 701, 722, 728, 729, 729, 729},
  {1, 8, 36, 113, 274, 540, 897, 1290, 1647, 1913, 2074, 2151, 2179, 2186, 2187},
  {1, 9, 45, 157, 423, 927, 1711, 2727, 3834, 4850, 5634, 6138, 6404, 6516, 6552},
  {1, 10, 55, 211, 625, 1507, 3061, 5365, 8272, 11411, 14318, 16622, 18176, 19058, 19472}};
static const uint32_t cnt4[7][15] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5},
  {1, 3, 6, 10, 15, 19, 22, 24, 25, 25, 25, 25, 25, 25, 25},
  {1, 4, 10, 20, 35, 53, 72, 90, 105, 115, 121, 124, 125, 125, 125},
  {1, 5, 15, 35, 70, 122, 190, 270, 355, 435, 503, 555, 590, 610, 620},
  {1, 6, 21, 56, 126, 247, 432, 687, 1007, 1372, 1753, 2118, 2438, 2693, 2878},
  {1, 7, 28, 84, 210, 456, 882, 1548, 2499, 3745, 5251, 6937, 8688, 10374, 11880}};

uint32_t rof_pattern_rank(const uint8_t *v, int n, int cap) {
  uint32_t r = 0;
  int budget = 14;
  for (int i = 0; i < n; i++) {
    for (int x = 0; x < v[i] && x <= budget; x++)
      r += cap == 2 ? cnt2[n - i - 1][budget - x] : cnt4[n - i - 1][budget - x];
    budget -= v[i];
    if (budget < 0) break; /* not a pattern of the set: callers never pass one */
  }
  return r;
}

/* ------------------------------------------------------------------ rows */

typedef struct out {
  uint32_t *f;
  int n;
} out;

static void put(out *o, uint32_t off, uint32_t dim, uint32_t v) {
  if (v >= dim) v = dim - 1; /* never: every component is clipped; kept so no index escapes */
  if (o->n < ROF_MAX_ACTIVE) o->f[o->n++] = off + v;
}
#define PUT(o, row, v) put((o), ROF_OFF_##row, ROF_DIM_##row, (v))

/* Wait class of row 3.17: the number classes 0..4, double wind 5, other yakuhai 6, otakaze 7. */
static int wait_class(int k, const rof_ctx *x) {
  if (k < 27) return num_class(k);
  if (k == TK_EAST + x->seat_wind && k == TK_EAST + x->round_wind) return 5;
  return is_yakuhai(k, x) ? 6 : 7;
}

/* Class of a pair kind for row 2.30: 0 none, 1 1/9/honor, 2 2/8 or 3/7, 3 4..6. */
static int pair_class(int present, int k) {
  if (!present) return 0;
  if (tk_kind_is_yaochu(k)) return 1;
  return num_class(k) <= 2 ? 2 : 3;
}

/* Rows 3.3 and 3.4 of one suit are a pure function of its nine counts: a per-thread
 * direct-mapped memo keyed by the counts in base 5 (plus one) holds the windows' indices (before
 * the riichi bit) and the capped pattern's rank. */
typedef struct suit_memo {
  uint32_t key;
  uint32_t rank2;
  uint32_t nwin;
  uint32_t win[31]; /* 8 + 7 + 6 + 5 + 4 windows at most, ascending, then UINT32_MAX */
} suit_memo;
enum { SUIT_MEMO_BITS = 12 };
static _Thread_local suit_memo suit_cache[1 << SUIT_MEMO_BITS];

static const suit_memo *suit_patterns(const uint8_t *cs) {
  uint32_t code = 0;
  for (int r = 0; r < 9; r++) code = code * 5 + cs[r];
  uint32_t key = code + 1;
  suit_memo *sm = &suit_cache[(key * 0x9e3779b1u) >> (32 - SUIT_MEMO_BITS)];
  if (sm->key == key) return sm;
  static const uint32_t npat[7] = {0, 0, 25, 125, 620, 2878, 11880};
  static const uint32_t npos[7] = {0, 0, 4, 4, 3, 3, 2};
  uint32_t base = 0;
  sm->nwin = 0;
  for (int n = 2; n <= 6; n++) {
    for (int st = 0; st + n <= 9; st++) {
      uint8_t v[6];
      int any = 0, m = 9 - n - st;
      for (int i = 0; i < n; i++) {
        v[i] = st > m ? cs[st + n - 1 - i] : cs[st + i];
        any |= v[i];
      }
      if (!any) continue;
      uint32_t cls = (uint32_t)imin(st, m);
      sm->win[sm->nwin++] = base + cls * npat[n] + rof_pattern_rank(v, n, 4);
    }
    base += npat[n] * npos[n];
  }
  for (uint32_t a = 1; a < sm->nwin; a++)
    for (uint32_t b = a; b > 0 && sm->win[b - 1] > sm->win[b]; b--) {
      uint32_t t = sm->win[b]; sm->win[b] = sm->win[b - 1]; sm->win[b - 1] = t;
    }
  sm->win[sm->nwin] = UINT32_MAX;
  uint8_t v[9];
  for (int r = 0; r < 9; r++) v[r] = (uint8_t)imin(cs[r], 2);
  sm->rank2 = rof_pattern_rank(v, 9, 2);
  sm->key = key;
  return sm;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* What every row reads: the hand, its context and components, and the values most rows
 * combine. */
typedef struct rows_in {
  const rof_hand *h;
  const rof_ctx *x;
  const rof_comp *o;
  int sh, calls, rm, sh3, sh4, turn, chi7; /* chi7: chiitoi shanten 0..6, 7 = impossible */
} rows_in;

/* Table 2, rows 2.1-2.19: the hand as a whole, its melds, pairs and blocks. */
static void rows_2_1_to_2_19(out *O, const rows_in *in) {
  const uint8_t *c = in->h->c;
  const rof_hand *h = in->h;
  const rof_comp *o = in->o;
  int sh = in->sh, calls = in->calls, rm = in->rm, sh3 = in->sh3, sh4 = in->sh4;
  int turn = in->turn;
  /* 2.1-2.5 */
  PUT(O, 2_1n, (uint32_t)clip(sh, 0, 14));
  PUT(O, 2_1c, (uint32_t)clip(o->sh_chiitoi, 0, 6));
  PUT(O, 2_1k, (uint32_t)clip(o->sh_kokushi, 0, 13));
  PUT(O, 2_2, (uint32_t)calls);
  PUT(O, 2_3, mr(mr(0, sh, 15), calls, 5));
  PUT(O, 2_4, o->riichi);
  PUT(O, 2_5, mr(mr(mr(0, sh, 15), calls, 5), o->ukeire, 21));
  /* 2.6 each meld: kind x (chi, pon, open kan, closed kan) */
  for (int i = 0; i < h->nmelds; i++) {
    int t = h->melds[i].type;
    int cls = t == TK_CALL_CHI ? 0 : t == TK_CALL_PON ? 1 : t == TK_CALL_ANKAN ? 3 : 2;
    PUT(O, 2_6, mr(mr(0, h->melds[i].kind, 34), cls, 4));
  }
  PUT(O, 2_7, o->yakuhai_trip);
  PUT(O, 2_8, mr(mr(0, o->good_pairs, 6), o->yakuhai_pairs, 6));
  {
    uint32_t v = mr(0, o->yakuhai_trip > 0, 2);
    v = mr(v, o->good_pairs, 6);
    v = mr(v, o->yakuhai_pairs, 6);
    v = mr(v, o->yakuhai_iso, 16);
    v = mr(v, sh4, 5);
    v = mr(v, calls, 5);
    PUT(O, 2_9, v);
  }
  {
    int suit_ok = o->sh_suit < 14;
    uint32_t v = mr(0, suit_ok ? clip(o->suit_count, 0, 13) : 14, 15);
    v = mr(mr(v, calls, 5), !o->has_honor, 2);
    PUT(O, 2_10, v);
  }
  PUT(O, 2_11, (uint32_t)imin(o->dora, 3));
  PUT(O, 2_12, o->yaku);
  PUT(O, 2_13, mr(mr(mr(0, sh3, 4), o->yaku, 3), turn, 18));
  PUT(O, 2_14, mr(mr(mr(mr(0, sh3, 4), calls, 5), o->furiten, 2), o->win_yaku, 8));
  int blocks = o->melds + o->ryanmen + o->bad + o->pairs + o->rpair + o->bpair;
  PUT(O, 2_15, mr(mr(0, rm, 7), sh, 15));
  PUT(O, 2_16, mr(mr(0, blocks, 11), sh, 15));
  PUT(O, 2_17, mr(mr(mr(0, rm, 7), blocks, 11), sh, 15));
  int csh = o->sh_chanta, ctiles = o->chanta_tiles - 6;
  {
    uint32_t v = mr(0, csh, 5);
    v = mr(v, ctiles, 8);
    v = mr(v, o->chanta_blocks, 8);
    v = mr(v, o->ukeire / 4, 5);
    v = mr(v, csh - sh, 4);
    PUT(O, 2_18, v);
  }
  {
    int t2378 = 0, p19 = 0, p2378 = 0;
    for (int k = 0; k < 27; k++) {
      int cl = num_class(k);
      if ((cl == 1 || cl == 2) && c[k] >= 3) t2378 = 1;
    }
    for (int i = 0; i < h->nmelds; i++) {
      int k = h->melds[i].kind;
      if (h->melds[i].type != TK_CALL_CHI && k < 27 && (num_class(k) == 1 || num_class(k) == 2))
        t2378 = 1;
    }
    for (int i = 0; i < o->pairs && i < 7; i++) {
      int k = o->pair_kind[i];
      if (tk_kind_is_yaochu(k)) p19 = 1;
      else if (num_class(k) == 1 || num_class(k) == 2) p2378 = 1;
    }
    uint32_t v = mr(0, csh, 5);
    v = mr(v, ctiles, 8);
    v = mr(v, t2378, 2);
    v = mr(v, calls, 5);
    v = mr(v, o->melds, 5);
    v = mr(v, o->ryanmen, 4);
    v = mr(v, o->bad, 8);
    v = mr(v, p19, 2);
    v = mr(v, p2378, 2);
    PUT(O, 2_19, v);
  }
}

/* Table 2, rows 2.20-2.31: dora indicators, isolated tiles and the yaku status. */
static void rows_2_20_to_2_31(out *O, const rows_in *in) {
  const uint8_t *c = in->h->c;
  const rof_hand *h = in->h;
  const rof_ctx *x = in->x;
  const rof_comp *o = in->o;
  int sh = in->sh, calls = in->calls, rm = in->rm, sh3 = in->sh3, sh4 = in->sh4;
  int turn = in->turn, chi7 = in->chi7;
  /* 2.20 each dora indicator */
  {
    int red = h->red;
    for (int i = 0; i < h->nmelds; i++) red += h->melds[i].red;
    uint8_t all[TK_KINDS];
    memcpy(all, c, TK_KINDS);
    for (int i = 0; i < h->nmelds; i++)
      for (int k = h->melds[i].kind; k <= imin(h->melds[i].kind + 2, TK_KINDS - 1); k++)
        all[k] = (uint8_t)imin(all[k] + meld_tiles(&h->melds[i], k), 4);
    for (int i = 0; i < x->ndora && i < TK_MAX_INDICATORS; i++) {
      int dk = tk_dora_of(x->dora[i]);
      int cls = dk < 27 ? num_class(dk) : is_yakuhai(dk, x) ? 5 : 6;
      uint32_t v = mr(0, cls, 7);
      v = mr(v, all[dk], 4);
      v = mr(v, x->seen[dk], 4);
      v = mr(v, turn / 2, 8);
      v = mr(v, red, 4);
      PUT(O, 2_20, v);
    }
  }
  {
    uint32_t v = mr(0, rm, 8);
    v = mr(v, o->bad, 8);
    v = mr(v, o->rpair, 4);
    v = mr(v, o->bpair, 4);
    v = mr(v, o->nisolated > 0, 2);
    v = mr(v, o->ctriplets > 0, 2);
    v = mr(v, o->pairs, 4);
    v = mr(v, sh3, 4);
    uint32_t w = mr(mr(mr(v, o->perfect, 3), o->riichi, 2), turn / 3, 7);
    PUT(O, 2_22, w);
    PUT(O, 2_23, mr(mr(v, o->riichi, 2), turn / 3, 7));
  }
  {
    uint32_t v = mr(0, o->sh_suit, 5);
    v = mr(v, o->melds, 5);
    v = mr(v, o->rpair, 8);
    v = mr(v, o->bpair, 8);
    v = mr(v, calls, 5);
    PUT(O, 2_24, v);
  }
  {
    int tsh = o->sh_tanyao;
    uint32_t v = mr(0, tsh, 5);
    v = mr(v, o->melds, 5);
    v = mr(v, rm, 8);
    v = mr(v, o->bad, 4);
    v = mr(v, o->tanyao_dora, 5);
    v = mr(v, calls, 5);
    v = mr(v, turn / 3, 6);
    v = mr(v, tsh == sh, 2);
    v = mr(v, o->ukeire_yaochu, 3);
    v = mr(v, o->tanyao_tiles - 11, 3);
    PUT(O, 2_25, v);
  }
  /* 2.26 each isolated tile */
  for (int i = 0; i < o->nisolated; i++) {
    int k = o->isolated[i];
    int cls = k >= 27 ? 3 : num_class(k) == 0 ? 0 : num_class(k) == 1 ? 1 : 2;
    uint32_t v = mr(0, rm, 8);
    v = mr(v, o->bad, 8);
    v = mr(v, chi7, 8);
    v = mr(v, sh3, 4);
    v = mr(v, o->perfect, 3);
    v = mr(v, o->riichi, 2);
    v = mr(v, cls, 4);
    v = mr(v, x->seen[k], 4);
    PUT(O, 2_26, v);
  }
  {
    uint32_t v = mr(0, rm, 8);
    v = mr(v, o->bad, 8);
    v = mr(v, o->over_ryanmen, 4);
    v = mr(v, o->over_bad, 4);
    v = mr(v, sh3, 4);
    v = mr(v, o->perfect, 3);
    v = mr(v, o->riichi, 2);
    PUT(O, 2_27, v);
  }
  {
    uint32_t v = mr(0, sh4, 5);
    v = mr(v, chi7, 8);
    v = mr(v, o->good_pairs, 8);
    v = mr(v, rm, 8);
    v = mr(v, o->riichi, 2);
    v = mr(v, o->perfect, 3);
    PUT(O, 2_28, v);
  }
  {
    uint32_t v = mr(0, sh3, 4);
    v = mr(v, o->yakuhai_trip > 0, 2);
    v = mr(v, o->yakuhai_pairs > 0, 2);
    v = mr(v, o->melds, 5);
    v = mr(v, o->ryanmen, 8);
    v = mr(v, o->bad, 4);
    v = mr(v, o->good_pairs, 4);
    v = mr(v, imin(calls, 3), 4);
    v = mr(v, o->yaku, 3);
    PUT(O, 2_29, v);
  }
  /* 2.30 once, when an isolated tile exists */
  if (o->nisolated) {
    int outer = 4;
    for (int i = 0; i < o->nisolated; i++) {
      int k = o->isolated[i];
      int cls = k >= 27 ? 4 : num_class(k) <= 2 ? num_class(k) : 3;
      if (cls < outer) outer = cls;
    }
    int pp = pair_class(o->pairs > 0, o->pair_kind[0]) * 4 +
             pair_class(o->pairs > 1, o->pair_kind[1]);
    uint32_t v = mr(0, rm, 8);
    v = mr(v, o->bad, 8);
    v = mr(v, outer, 5);
    v = mr(v, pp, 16);
    v = mr(v, o->pairs, 4);
    v = mr(v, o->perfect, 3);
    PUT(O, 2_30, v);
  }
  {
    uint32_t v = mr(0, sh4, 5);
    v = mr(v, chi7, 8);
    v = mr(v, o->good_triplets, 5);
    v = mr(v, calls, 5);
    v = mr(v, o->has_chi, 2);
    v = mr(v, o->perfect, 3);
    PUT(O, 2_31, v);
  }
}

/* Table 3, rows 3.1-3.10: each held kind, windows, suit patterns and yaku shanten. */
static void rows_3_1_to_3_10(out *O, const rows_in *in) {
  const uint8_t *c = in->h->c;
  const rof_ctx *x = in->x;
  const rof_comp *o = in->o;
  int sh = in->sh, calls = in->calls, rm = in->rm;
  int turn = in->turn;
  /* 3.1 each honor kind held */
  for (int k = TK_EAST; k < TK_KINDS; k++) {
    if (!c[k]) continue;
    int is_dora = 0;
    for (int i = 0; i < x->ndora && i < TK_MAX_INDICATORS; i++) is_dora |= tk_dora_of(x->dora[i]) == k;
    uint32_t v = mr(0, x->seen[k], 5);
    v = mr(v, c[k], 5);
    v = mr(v, is_dora, 2);
    v = mr(v, o->suit_count - 6, 8);
    v = mr(v, rm, 8);
    v = mr(v, turn, 8);
    v = mr(v, x->seat_wind, 4);
    v = mr(v, x->round_wind, 3);
    v = mr(v, k >= TK_HAKU ? 4 : k - TK_EAST, 5);
    PUT(O, 3_1, v);
  }
  /* 3.2 each number kind held */
  for (int k = 0; k < 27; k++) {
    if (!c[k]) continue;
    int dist = 4;
    for (int i = 0; i < x->ndora && i < TK_MAX_INDICATORS; i++) {
      int dk = tk_dora_of(x->dora[i]);
      if (dk < 27 && dk / 9 == k / 9) {
        int dd = dk > k ? dk - k : k - dk;
        if (dd > 3) dd = 3;
        if (dd < dist) dist = dd;
      }
    }
    PUT(O, 3_2, mr(mr(mr(0, num_class(k), 5), c[k], 5), dist, 5));
  }
  /* 3.3 each window of 2..6 ranks holding a tile; 3.4 each suit's pattern, counts capped at 2 */
  if (!rof__plain_mode) {
    /* each suit's windows come sorted from the memo, ended by UINT32_MAX: merged, they reach
     * the final sort in order (an index held by two suits is emitted once, as the final
     * deduplication would leave it); copies, as two suits may share a memo slot */
    suit_memo sm[3];
    uint32_t r2[3];
    for (int g = 0; g < 3; g++) {
      const suit_memo *e = suit_patterns(c + 9 * g);
      memcpy(&sm[g], e, offsetof(suit_memo, win) + (e->nwin + 1) * sizeof e->win[0]);
      r2[g] = sm[g].rank2;
    }
    const uint32_t *pa = sm[0].win, *pb = sm[1].win, *pc = sm[2].win;
    for (;;) {
      uint32_t a = *pa, b = *pb, e3 = *pc;
      uint32_t m = a < b ? a : b;
      m = m < e3 ? m : e3;
      if (m == UINT32_MAX) break;
      PUT(O, 3_3, m * 2 + o->riichi);
      pa += a == m;
      pb += b == m;
      pc += e3 == m;
    }
    for (int a = 1; a < 3; a++)
      for (int b = a; b > 0 && r2[b - 1] > r2[b]; b--) {
        uint32_t t = r2[b]; r2[b] = r2[b - 1]; r2[b - 1] = t;
      }
    for (int g = 0; g < 3; g++) PUT(O, 3_4, r2[g]);
  } else {
    static const uint32_t npat[7] = {0, 0, 25, 125, 620, 2878, 11880};
    static const uint32_t npos[7] = {0, 0, 4, 4, 3, 3, 2};
    uint32_t base = 0;
    for (int n = 2; n <= 6; n++) {
      for (int g = 0; g < 3; g++)
        for (int st = 0; st + n <= 9; st++) {
          uint8_t v[6];
          int any = 0, m = 9 - n - st;
          for (int i = 0; i < n; i++) {
            v[i] = st > m ? c[9 * g + st + n - 1 - i] : c[9 * g + st + i];
            any |= v[i];
          }
          if (!any) continue;
          uint32_t cls = (uint32_t)imin(st, m);
          uint32_t idx = base + cls * npat[n] + rof_pattern_rank(v, n, 4);
          PUT(O, 3_3, idx * 2 + o->riichi);
        }
      base += npat[n] * npos[n];
    }
  }
  for (int g = 0; rof__plain_mode && g < 3; g++) {
    uint8_t v[9];
    for (int r = 0; r < 9; r++) v[r] = (uint8_t)imin(c[9 * g + r], 2);
    PUT(O, 3_4, rof_pattern_rank(v, 9, 2));
  }
  int pairs2 = 0;
  for (int k = 0; k < TK_KINDS; k++) pairs2 += c[k] == 2;
  PUT(O, 3_5, mr(mr(mr(0, o->ctriplets, 5), pairs2, 7), o->dead_pairs > 0, 2));
  PUT(O, 3_6, o->has_chi ? 70 : mr(mr(mr(0, o->triplets, 5), pairs2, 7), o->dead_pairs > 0, 2));
  int tsh = o->sh_tanyao;
  if (!o->tanyao_ok) PUT(O, 3_7, 2000);
  else {
    uint32_t v = mr(0, tsh, 5);
    v = mr(v, tsh - sh, 4);
    v = mr(v, o->tanyao_tiles - 9, 5);
    v = mr(v, calls, 5);
    v = mr(v, o->tanyao_pairs, 4);
    PUT(O, 3_7, v);
  }
  {
    uint32_t v = mr(0, o->dora, 4);
    v = mr(v, o->tanyao_dora, 4);
    v = mr(v, tsh, 5);
    v = mr(v, tsh - sh, 4);
    v = mr(v, o->tanyao_ok, 2);
    PUT(O, 3_8, v);
  }
  {
    uint32_t v = mr(0, o->tanyao_ok, 2);
    v = mr(v, o->chanta_ok, 2);
    v = mr(v, o->ukeire_yaochu, 4);
    v = mr(v, o->riichi, 2);
    v = mr(v, calls, 5);
    PUT(O, 3_9, v);
  }
  PUT(O, 3_10, mr(mr(mr(0, o->sanshoku_max, 10), sh, 14), calls, 5));
}

/* Table 3, rows 3.11-3.20: sanshoku and ittsu candidates, waits, effective tiles. */
static void rows_3_11_to_3_20(out *O, const rows_in *in) {
  const uint8_t *c = in->h->c;
  const rof_hand *h = in->h;
  const rof_ctx *x = in->x;
  const rof_comp *o = in->o;
  int sh = in->sh, calls = in->calls, rm = in->rm, sh3 = in->sh3, sh4 = in->sh4;
  int turn = in->turn;
  /* all tiles (melds included) for the sanshoku and ittsu candidates */
  uint8_t all[TK_KINDS];
  memcpy(all, c, TK_KINDS);
  for (int i = 0; i < h->nmelds; i++)
    for (int k = h->melds[i].kind; k <= imin(h->melds[i].kind + 2, TK_KINDS - 1); k++)
      all[k] = (uint8_t)imin(all[k] + meld_tiles(&h->melds[i], k), 4);
  /* 3.11 each sanshoku candidate with 3+ of its 9 kinds held */
  for (int r = 0; r < 7; r++) {
    unsigned held = 0;
    int nh = 0;
    uint64_t kinds = 0;
    for (int g = 0; g < 3; g++)
      for (int dd = 0; dd < 3; dd++) {
        int k = 9 * g + r + dd;
        kinds |= 1ULL << k;
        if (all[k]) { held |= 1u << (3 * g + dd); nh++; }
      }
    if (nh < 3) continue;
    uint32_t v = mr(0, r == 0 || r == 6, 2);
    v = mr(v, (int)held, 512);
    v = mr(v, sh3, 4);
    v = mr(v, (o->ukeire_mask & kinds) != 0, 2);
    v = mr(v, o->riichi, 2);
    PUT(O, 3_11, v);
  }
  /* 3.12 each ittsu candidate (a suit with 3+ of its ranks held) */
  int ittsu_suit = 0, ittsu_best = -1;
  for (int g = 0; g < 3; g++) {
    unsigned held = 0;
    int nh = 0;
    for (int r = 0; r < 9; r++)
      if (all[9 * g + r]) { held |= 1u << r; nh++; }
    if (nh > ittsu_best) { ittsu_best = nh; ittsu_suit = g; }
    if (nh < 3) continue;
    uint32_t v = mr(0, (int)held, 512);
    v = mr(v, sh4, 5);
    v = mr(v, calls, 5);
    v = mr(v, rm + o->bad >= 5, 2);
    v = mr(v, rm >= 4, 2);
    v = mr(v, o->perfect, 3);
    PUT(O, 3_12, v);
  }
  {
    uint64_t kinds = ((1ULL << 9) - 1) << (9 * ittsu_suit);
    uint32_t v = mr(0, o->ittsu_max, 10);
    v = mr(v, o->melds, 5);
    v = mr(v, o->ryanmen, 8);
    v = mr(v, o->bad + o->pairs, 8);
    v = mr(v, o->pairs > 0, 2);
    v = mr(v, calls, 5);
    v = mr(v, (o->ukeire_mask & kinds) != 0, 2);
    PUT(O, 3_13, v);
  }
  {
    uint32_t v = 0;
    for (int k = TK_EAST; k <= TK_NORTH; k++) v = mr(v, all[k], 4);
    PUT(O, 3_14, v);
    v = 0;
    for (int k = TK_HAKU; k <= TK_CHUN; k++) v = mr(v, all[k], 4);
    PUT(O, 3_15, v);
  }
  /* 3.16, 3.17 each wait */
  for (int i = 0; i < o->nwaits; i++) {
    int k = o->waits[i], han = o->wait_han[i];
    PUT(O, 3_16, mr(mr(mr(0, o->wait_left[i], 4), han, 9), turn / 3, 7));
    int is_dora = 0, suji = 0;
    for (int j = 0; j < x->ndora && j < TK_MAX_INDICATORS; j++) is_dora |= tk_dora_of(x->dora[j]) == k;
    if (k < 27) {
      int r = k % 9;
      if (r >= 3 && (x->river >> (k - 3) & 1)) suji = 1;
      if (r <= 5 && (x->river >> (k + 3) & 1)) suji = 1;
    }
    uint32_t v = mr(0, wait_class(k, x), 8);
    v = mr(v, o->wait_left[i], 4);
    v = mr(v, han, 8);
    v = mr(v, o->wait_tsumo[i] - han, 3);
    v = mr(v, o->riichi, 2);
    v = mr(v, is_dora, 2);
    v = mr(v, suji, 2);
    v = mr(v, o->furiten, 2);
    PUT(O, 3_17, v);
  }
  PUT(O, 3_18, mr(mr(mr(mr(0, o->win_yaku, 10), o->win_noyaku, 6), calls, 5), o->special_form, 2));
  PUT(O, 3_19, mr(mr(mr(0, sh == 1 ? o->ukeire : 0, 32), calls, 5), o->perfect, 3));
  /* 3.20 the sorted effective-tile counts of each 1, 2 and 3 of the four colours */
  {
    int u[4];
    for (int g = 0; g < 4; g++) u[g] = imin(o->ukeire_suit[g], 20);
    for (int a = 0; a < 4; a++) {
      PUT(O, 3_20, (uint32_t)u[a]);
      for (int b = a + 1; b < 4; b++) {
        int lo = imin(u[a], u[b]), hi = u[a] + u[b] - lo;
        int b1 = hi + 1;
        PUT(O, 3_20, 21u + (uint32_t)(b1 * (b1 - 1) / 2 + lo));
        for (int e = b + 1; e < 4; e++) {
          int t3[3] = {u[a], u[b], u[e]};
          for (int p = 1; p < 3; p++)
            for (int q = p; q > 0 && t3[q - 1] > t3[q]; q--) {
              int tmp = t3[q]; t3[q] = t3[q - 1]; t3[q - 1] = tmp;
            }
          int z = t3[2] + 2, y = t3[1] + 1;
          PUT(O, 3_20, 21u + 231u + (uint32_t)(z * (z - 1) * (z - 2) / 6 + y * (y - 1) / 2 + t3[0]));
        }
      }
    }
  }
}

/* Sorts f[0..n) and drops repeats: the extraction's index list. Returns its length. */
static int sorted_unique(uint32_t *f, int n) {
  if (rof__plain_mode) qsort(f, (size_t)n, sizeof *f, cmp_u32);
  else {
    /* rows come in ascending offset order, so only a per-item row's own indices can be out of
     * order: an insertion sort does little work (the sorted list is the same either way) */
    for (int i = 1; i < n; i++) {
      uint32_t v = f[i];
      int j = i;
      for (; j > 0 && f[j - 1] > v; j--) f[j] = f[j - 1];
      f[j] = v;
    }
  }
  int m = 0;
  for (int i = 0; i < n; i++)
    if (!m || f[m - 1] != f[i]) f[m++] = f[i];
  return m;
}

int rof_features(const rof_hand *h, const rof_ctx *x, uint32_t *f, rof_comp *comp, tk_error *err) {
  rof_comp cc, *o = comp ? comp : &cc;
  int rc = rof_components(h, x, o, err);
  if (rc) return rc;
  out O = {f, 0};
  int sh = o->sh;
  rows_in in = {.h = h, .x = x, .o = o, .sh = sh, .calls = o->calls,
                .rm = o->melds + o->ryanmen, .sh3 = imin(sh, 3), .sh4 = imin(sh, 4),
                .turn = x->turn, .chi7 = o->sh_chiitoi};
  /* the rows in ascending offset order */
  rows_2_1_to_2_19(&O, &in);
  rows_2_20_to_2_31(&O, &in);
  rows_3_1_to_3_10(&O, &in);
  rows_3_11_to_3_20(&O, &in);
  return sorted_unique(f, O.n);
}

/* ------------------------------------------------------------------ views */

void rof_hand_of_view(const tk_riichi_view *v, rof_hand *h) {
  memset(h, 0, sizeof *h);
  memcpy(h->c, v->hand, TK_KINDS);
  for (int i = 0; i < v->nhand && i < 14; i++) h->red = (uint8_t)(h->red + tk_tile_is_red(v->tiles[i]));
  int s = v->seat;
  h->nmelds = (uint8_t)imin(v->nmelds[s], 4);
  for (int i = 0; i < h->nmelds; i++) {
    const tk_riichi_meld *m = &v->melds[s][i];
    tk_call *o = &h->melds[i];
    o->type = m->type;
    o->kind = (uint8_t)tk_tile_kind(m->tiles[0]);
    for (int j = 0; j < 4; j++)
      if (m->tiles[j] != TK_TILE_NONE) o->red = (uint8_t)(o->red + tk_tile_is_red(m->tiles[j]));
  }
}

void rof_ctx_of_view(const tk_riichi_view *v, rof_ctx *x) {
  memset(x, 0, sizeof *x);
  int s = v->seat;
  x->seat_wind = v->seat_wind;
  x->round_wind = v->round_wind;
  x->turn = v->nriver[s];
  x->riichi_ok = v->riichi[s] == 0 && v->scores[s] >= 1000 && v->tiles_left >= 4;
  x->furiten = (v->furiten & (TK_RIICHI_FURITEN_TEMP | TK_RIICHI_FURITEN_RIICHI)) ? ROF_FURITEN_OTHER : 0;
  x->ndora = (uint8_t)imin(v->ndora, TK_MAX_INDICATORS);
  for (int i = 0; i < x->ndora; i++) x->dora[i] = (uint8_t)tk_tile_kind(v->dora[i]);
  memcpy(x->seen, v->seen, TK_KINDS);
  for (int i = 0; i < v->nriver[s] && i < TK_RIICHI_MAX_RIVER; i++)
    x->river |= 1ULL << tk_tile_kind(v->river[s][i].tile);
}

void rof_ctx_discard(rof_ctx *x, int kind) {
  if (kind < 0 || kind >= TK_KINDS) return;
  if (x->seen[kind] < 4) x->seen[kind]++;
  x->river |= 1ULL << kind;
}
