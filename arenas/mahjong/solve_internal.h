/* arenas/mahjong/solve_internal.h — what the solver's two files share (solve.c: the exact,
 * forward and direct modes and tk_solve; solve_detour.c: the detour mode): the solver's state,
 * its state keys and open-addressed tables, and the scoring and comparison of values. The hot
 * helpers are `static inline` here so that each file still inlines them. Include it after
 * defining _DEFAULT_SOURCE (big_alloc's madvise). */
#ifndef TK_SOLVE_INTERNAL_H
#define TK_SOLVE_INTERNAL_H

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "taikai/solo.h"
#include "taikai/solve.h"

/* Memory for the large tables and arenas: from 4 MiB up, 2 MiB-aligned and marked for huge pages
 * where the system has them (the searches read them at random: with 4 KiB pages nearly every
 * read also misses the TLB). Zeroed if `zero`. Freed with free(). */
static inline void *big_alloc(size_t bytes, int zero) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const size_t huge = (size_t)2 << 20;
  if (bytes >= 2 * huge) {
    size_t len = (bytes + huge - 1) & ~(huge - 1);
    void *p = NULL;
    if (posix_memalign(&p, huge, len)) return NULL;
    madvise(p, len, MADV_HUGEPAGE);
    if (zero) memset(p, 0, bytes);
    return p;
  }
#endif
  return zero ? calloc(1, bytes) : malloc(bytes);
}

typedef struct key {
  uint64_t w[4]; /* packed state; w[3] holds t + 1, so w[3] == 0 marks an empty slot */
} key;

typedef struct entry {
  key k;
  double p, e; /* V(h, t) (memo); in the direct mode's table p holds the index of h's vectors */
} entry;

typedef struct table {
  entry *slot;
  size_t cap, used; /* cap a power of two */
} table;

/* The direct mode's drawn hands: 16-byte slots, four to a cache line. a holds the counts of
 * kinds 0..20 (3 bits each), b those of kinds 21..33 in its low 39 bits and, above them, the
 * hand's ordinal + 1 (its vectors' place in vals14); b == 0 marks an empty slot. */
typedef struct slot16 {
  uint64_t a, b;
} slot16;
typedef struct table16 {
  slot16 *slot;
  size_t cap, used;
} table16;
struct tk_solver {
  table memo;   /* V(h, t) */
  table score;  /* points of a complete 14-tile hand by winning kind (t field = kind) */
  /* the current solve */
  uint8_t root[TK_KINDS];  /* r: the hand at the decision */
  uint8_t unseen[TK_KINDS];/* u */
  uint8_t cls[TK_KINDS];   /* 5 r[k] + u[k]: a kind's class at the decision, for the keys */
  int objective, mode, dora, closed;
  tk_solve_score_fn score_fn; /* the solve's own scorer, or NULL (solo points) */
  void *score_ctx;
  int score_custom;           /* the score table holds a scorer's answers (cleared per solve) */
  int draws;               /* T: the draws left at the decision */
  long max_states, max_direct, nodes;
  int aborted;
  /* the direct mode: V(h, 0..T) per hand, T + 1 doubles of win (then as many of points for
     TK_SOLVE_POINTS) from vals[index] */
  double *vals;
  size_t nvals, capvals;
  /* the direct mode's drawn 3k+2-tile hands, memoised on their exact counts (a hand reached
     again from another parent is not searched again): best-child vectors over t = 0..T (win;
     then points for TK_SOLVE_POINTS) from vals14[index] */
  table16 after14;
  double *vals14;
  size_t nvals14, capvals14;
  /* the direct mode, win objective: a tenpai state's vector depends only on the weight of its
     winning draws and the wall's total (each under 137), so states that share them share one
     vector in vals; valid while gen[] equals the current search's generation */
  struct tenpai_vec {
    uint32_t gen;
    int32_t idx;
  } *tenpai;
  uint32_t gen;
  /* the detour mode */
  struct detour *dt; /* its graph and values, allocated on its first use */
  int detours;       /* the current solve's budget */
  int keep_shanten;  /* the current solve values only the root discards keeping the shanten */
  long dstates;      /* its last graph's draw nodes */
};

/* The detour mode (solve_detour.c): the decision hand h's choices into out (3k+2 tiles: every
 * discard; 3k+1: the hand); returns 0, or -1 with s->aborted set (the cap: the caller falls back
 * to the direct mode). */
int tk__solve_detour(tk_solver *s, uint8_t *h, int n, tk_solve_result *out);
/* Frees the detour mode's graph (NULL: nothing). */
void tk__solve_detour_free(struct detour *d);

/* Sorts three suit codes ascending (the symmetric key's order of the suits). */
static inline void sort3(uint64_t suit[3]) {
  for (int i = 1; i < 3; i++)
    for (int j = i; j > 0 && suit[j - 1] > suit[j]; j--) {
      uint64_t x = suit[j];
      suit[j] = suit[j - 1];
      suit[j - 1] = x;
    }
}

/* The seven honor codes (7 bits each) sorted ascending and packed, first the smallest. */
static inline uint64_t honor_word(const uint8_t code[7]) {
  uint8_t hon[7];
  memcpy(hon, code, 7);
  for (int i = 1; i < 7; i++)
    for (int j = i; j > 0 && hon[j - 1] > hon[j]; j--) {
      uint8_t x = hon[j];
      hon[j] = hon[j - 1];
      hon[j - 1] = x;
    }
  uint64_t hw = 0;
  for (int i = 0; i < 7; i++) hw = hw << 7 | hon[i];
  return hw;
}

/* The state (h, t) as a key. Without `sym`: the 34 counts, 3 bits each. With `sym` (the win
 * objective, where only shapes matter): each kind's class (held h, held at the decision r,
 * unseen at the decision u) in 7 bits, a suit read forwards or backwards, whichever is smaller,
 * the three suits sorted, the seven honors sorted. Two hands with one key then have one value:
 * relabelling the suits, reversing a suit's numbers (1..9 as 9..1) and permuting the honors map
 * complete hands to complete hands and keep every kind's wall count. */
static inline key pack(const tk_solver *s, const uint8_t *h, int t, int sym) {
  key k = {{0, 0, 0, 0}};
  if (!sym) {
    for (int i = 20; i >= 0; i--) k.w[0] = k.w[0] << 3 | h[i];
    for (int i = 33; i >= 21; i--) k.w[1] = k.w[1] << 3 | h[i];
    k.w[3] = (uint64_t)(t + 1);
    return k;
  }
  uint64_t suit[3];
  for (int su = 0; su < 3; su++) {
    uint64_t f = 0, b = 0;
    const uint8_t *hs = h + 9 * su, *cs = s->cls + 9 * su;
    for (int i = 0; i < 9; i++) {
      uint64_t c = (uint64_t)(hs[i] * 25 + cs[i]);
      f = f << 7 | c;       /* kind i first */
      b |= c << (7 * i);    /* kind 8 - i first */
    }
    suit[su] = f < b ? f : b;
  }
  sort3(suit);
  uint8_t hon[7];
  for (int i = 0; i < 7; i++) hon[i] = (uint8_t)(h[27 + i] * 25 + s->cls[27 + i]);
  uint64_t hw = honor_word(hon);
  k.w[0] = suit[0];
  k.w[1] = suit[1];
  k.w[2] = suit[2];
  k.w[3] = hw << 8 | (uint64_t)(t + 1);
  return k;
}

static inline size_t hash(const key *k) {
  uint64_t x = k->w[0] * 0x9E3779B97F4A7C15ULL ^ (k->w[1] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL ^
               (k->w[2] + 0x165667B19E3779F9ULL) * 0xD6E8FEB86659FD93ULL ^ k->w[3] * 0xFF51AFD7ED558CCDULL;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ULL;
  return (size_t)(x ^ x >> 32);
}

/* The slot of `k`: the entry itself, or the empty slot where it would go. */
static inline entry *find(table *tb, const key *k) {
  size_t mask = tb->cap - 1;
  for (size_t j = hash(k) & mask;; j = (j + 1) & mask) {
    entry *x = &tb->slot[j];
    if (!x->k.w[3] || !memcmp(&x->k, k, sizeof *k)) return x;
  }
}

/* Both tables' clearing: `slot` (cap elements of `size` bytes, `used` filled by the last search)
 * emptied. One past 2^16 slots whose last search filled less than 1/16 of it is replaced by one 4
 * times that search's size (clearing a large table for a run of small searches costs more than
 * growing again; a search as large as the last one finds its table ready); *cap is updated.
 * Returns the array to use (the same one, zeroed, when it is kept or no memory is left). */
static inline void *cleared_slots(void *slot, size_t *cap, size_t used, size_t size) {
  if (*cap > (1u << 16) && 16 * used < *cap) {
    size_t c = 1u << 12;
    while (c < 4 * used) c *= 2;
    void *small = big_alloc(c * size, 1);
    if (small) {
      free(slot);
      *cap = c;
      return small;
    }
  }
  memset(slot, 0, *cap * size);
  return slot;
}

static inline int table_init(table *tb, size_t cap) {
  tb->slot = big_alloc(cap * sizeof *tb->slot, 1);
  tb->cap = tb->slot ? cap : 0;
  tb->used = 0;
  return tb->slot ? 0 : TK_ENOMEM;
}

/* Empties the table (see cleared_slots). */
static inline void table_clear(table *tb) {
  tb->slot = cleared_slots(tb->slot, &tb->cap, tb->used, sizeof *tb->slot);
  tb->used = 0;
}

/* Doubles the table when half full; returns 0 or TK_ENOMEM (the table is then unchanged). */
static inline int table_reserve(table *tb) {
  if (2 * (tb->used + 1) <= tb->cap) return 0;
  table nt;
  if (table_init(&nt, tb->cap * 2)) return TK_ENOMEM;
  for (size_t i = 0; i < tb->cap; i++)
    if (tb->slot[i].k.w[3]) *find(&nt, &tb->slot[i].k) = tb->slot[i];
  nt.used = tb->used;
  free(tb->slot);
  *tb = nt;
  return 0;
}

/* Points of the complete hand h won by drawing k, uncached: the solve's scorer, or the solo
 * points of a closed hand. */
static inline double points_raw(tk_solver *s, uint8_t *h, int k) {
  if (s->score_fn) return s->score_fn(s->score_ctx, h, k);
  if (!s->closed) return 0;
  int pts = tk_solo_score(h, k, s->dora, NULL);
  return pts > 0 ? pts : 0;
}

/* Points of the complete 14-tile hand h won by drawing k (cached). */
static inline double points_of(tk_solver *s, uint8_t *h, int k) {
  if (s->objective == TK_SOLVE_WIN || (!s->closed && !s->score_fn)) return 0;
  key kk = pack(s, h, k, 0);
  /* The solo points' cache outlives a solve (the dora is in the key); a scorer's is cleared at
   * the start of every solve, since its context may change between calls. */
  kk.w[3] |= (uint64_t)(s->dora + 1) << 16;
  entry *x = find(&s->score, &kk);
  if (x->k.w[3]) return x->e;
  double v = points_raw(s, h, k);
  if (table_reserve(&s->score) == 0) {
    x = find(&s->score, &kk);
    *x = (entry){kk, 1, v};
    s->score.used++;
  }
  return v;
}

/* Is (p1, e1) better than (p2, e2) for the objective? Values within TK_SOLVE_TIE_EPS (relative)
 * of each other are a tie, broken by the other quantity; then the first one wins. A tie is not
 * left to rounding, so any exact evaluation of the model makes the same choices. */
static inline int above(double a, double b) {
  double m = a > b ? a : b;
  return a - b > TK_SOLVE_TIE_EPS * (m > 1 ? m : 1);
}
static inline int better(const tk_solver *s, double p1, double e1, double p2, double e2) {
  if (s->objective == TK_SOLVE_POINTS) return above(e1, e2) || (!above(e2, e1) && above(p1, p2));
  return above(p1, p2);
}

#endif
