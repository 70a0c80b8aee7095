/* arenas/mahjong/shanten.c — exact, table-driven shanten; effective tiles; waits.
 *
 * Method. Shanten is (the least number of tiles to draw, discarding others, to reach a
 * complete hand) - 1, where a complete hand never holds a fifth copy of a kind. For the
 * standard form the cost separates by suit: a target hand of M melds and a pair is a sum of
 * per-suit targets, and tiles needed = sum over suits of the tiles the suit's target lacks.
 * So for every suit configuration c (9 counts 0..4 summing to at most 14; 405,350 of them)
 * and every (m melds, p pairs) with m <= 4, p <= 1, the table holds
 *     d(c, m, p) = 3m + 2p - (the most tiles of c that fit in some m-meld p-pair target),
 * the target's own counts being at most 4. Honors (7 kinds, triplets only) get a table over
 * 5^7 configurations. The answer for a hand is the min-plus combination of the four suits'
 * 10-entry rows for exactly M melds and one pair.
 *
 * Those rows take few distinct values: 126 for a numbered suit, 55 for honors, and their
 * min-plus combinations (man+pin, then +sou) close on 180 rows. So each configuration stores
 * only the id of its row (one byte), and the combinations are tabulated once:
 * ab = T1[man][pin], abc = T2[ab][sou], distance = FIN[M][abc][honors]. A query is three suit
 * ranks, one honor code and four byte lookups, all in under 500 KB:
 *  - a suit's configuration is ranked densely (by tile count, then lexicographically) with
 *    eight independent lookups in a 36 KB table (2.4 KB per tile count), the prefix sums
 *    they need taken at once by one multiplication of the suit's counts as a 64-bit word;
 *    random hands' suits (2 to 6 tiles) fall in the first few tens of KB of the id table;
 *  - honor kinds are interchangeable, so their row depends only on how many kinds are held at
 *    least 1, 2, 3, 4 times: a 12-bit code, also by word arithmetic, into a 4 KB table;
 *  - ids are bytes and strides powers of two; FIN is sliced by M, so the 13- and 14-tile
 *    queries (M = 4) read 16 KB of it.
 * tk_shanten_standard does only that (after checking the counts); the other forms add the
 * closed formulas of seven pairs and thirteen orphans, computed on the same words.
 *
 * Tables are built on first use (about 0.02 s of CPU): the targets of every (m, p) are
 * enumerated, the configurations inside one found by closing downwards (c is inside if c plus
 * one tile is), and the ten d(c, m, p) of each configuration filled in one ascending pass:
 * 3m + 2p - |c| if c is inside a target, else the least d of c minus one tile. Seven pairs and
 * thirteen orphans use their closed formulas, which are exact for 13 and 14 tiles. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/mahjong.h"

enum { SUIT_STATES = 405350, HONOR_STATES = 78125 };

enum { SUIT_ROWS_MAX = 128, HONOR_ROWS_MAX = 64, POOL_MAX = 256, HONOR_HIST = 4096 };

/* Query tables. Row ids are bytes and the strides powers of two, so an index is a shift and an
 * or; fin is sliced by M first, so the 13- and 14-tile queries (M = 4) touch 16 KB of it. */
static uint8_t suit_id[SUIT_STATES];   /* row id of each suit configuration, by dense rank */
static uint8_t honor_id[HONOR_HIST];   /* row id of each honor configuration, by histogram code */
static uint8_t suit_rows[SUIT_ROWS_MAX][10]; /* d(c, m, p) at [id][2m + p] */
static uint8_t honor_rows[HONOR_ROWS_MAX][10];
static uint8_t pool_rows[POOL_MAX][10];      /* combined rows (man+pin, man+pin+sou) */
static int n_suit_rows, n_honor_rows, n_pool;
static uint8_t t1[SUIT_ROWS_MAX * SUIT_ROWS_MAX]; /* [man id << 7 | pin id] -> pool id */
static uint8_t t2[POOL_MAX * SUIT_ROWS_MAX];      /* [pool id << 7 | sou id] -> pool id */
static uint8_t fin[5][POOL_MAX * HONOR_ROWS_MAX]; /* [M][pool id << 6 | honor id] */
static uint32_t rank_tab[15][8][15][5]; /* rank(c) = sum_i rank_tab[|c|][i][prefix sum][c_i] */
static uint8_t *suit_id_at; /* row id of each suit configuration by base-5 index, for build_steps */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static atomic_int tables_ready; /* fast path: set once the tables are built */

static const uint32_t POW5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};

/* The dense rank orders suits by their number of tiles S first, then lexicographically:
 * rank(c) = (suits of fewer tiles) + sum_i (suits of S tiles that agree with c before i and
 * hold fewer than c_i at i). The last kind adds nothing (its count is S minus the others), and
 * the first term is folded into i = 0. Ordering by S keeps the suits of random hands (mostly
 * 2 to 6 tiles) within the first few tens of kilobytes of suit_id. */
static void build_rank(void) {
  uint32_t nv[10][15] = {{1}}; /* vectors of length p with entries 0..4 and sum exactly b */
  for (int p = 1; p <= 9; p++)
    for (int b = 0; b <= 14; b++)
      for (int v = 0; v <= 4 && v <= b; v++) nv[p][b] += nv[p - 1][b - v];
  uint32_t below = 0; /* suits of fewer than S tiles */
  for (int S = 0; S <= 14; S++) {
    for (int i = 0; i < 8; i++)
      for (int sp = 0; sp <= 14; sp++) {
        uint32_t acc = i == 0 ? below : 0;
        for (int v = 0; v <= 4; v++) {
          rank_tab[S][i][sp][v] = acc;
          int rest = S - sp - v;
          acc += rest >= 0 ? nv[8 - i][rest] : 0;
        }
      }
    below += nv[9][S];
  }
  if (below != SUIT_STATES) abort(); /* cannot happen: 405,350 suits of at most 14 tiles */
}

static inline uint32_t suit_rank(const uint8_t *c) {
  int S = 0;
  for (int i = 0; i < 9; i++) S += c[i];
  uint32_t r = 0;
  int sp = 0;
  for (int i = 0; i < 8; i++) {
    r += rank_tab[S][i][sp][c[i]];
    sp += c[i];
  }
  return r;
}

/* ---- table construction over configurations of nk kinds (counts 0..4, at most 14 tiles),
 * indexed in base 5 with kind 0 least significant */

/* Interns a 10-byte row into rows[0..*n), returning its id: ids are given in order of first
 * interning. Linear probing over a small open-addressed index keyed by the row's hash. */
typedef struct interner {
  uint8_t (*rows)[10];
  int *n;
  int cap;
  int16_t slot[4096];
} interner;

static int intern(interner *in, const uint8_t *row) {
  uint64_t lo;
  memcpy(&lo, row, 8);
  uint64_t h = (lo * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(row[8] | row[9] << 8)) * 0xff51afd7ed558ccdULL;
  for (uint32_t j = (uint32_t)(h >> 52);; j = (j + 1) & 4095) {
    int id = in->slot[j];
    if (id < 0) {
      if (*in->n >= in->cap) abort(); /* cannot happen: the counts are fixed by the rules */
      id = (*in->n)++;
      memcpy(in->rows[id], row, 10);
      in->slot[j] = (int16_t)id;
      return id;
    }
    if (!memcmp(in->rows[id], row, 10)) return id;
  }
}

/* Moves (c, its tile count S, its index) to the next configuration in ascending index order;
 * returns 0, leaving c zero, after the last. */
static inline int next_config(uint8_t *c, int nk, int *S, uint32_t *idx) {
  for (int k = 0; k < nk; k++) {
    if (c[k] < 4 && *S < 14) {
      c[k]++;
      ++*S;
      *idx += POW5[k];
      return 1;
    }
    *S -= c[k];
    *idx -= c[k] * POW5[k];
    c[k] = 0;
  }
  return 0;
}

/* The same in descending order; returns 0 at the first (c zero). */
static inline int prev_config(uint8_t *c, int nk, int *S, uint32_t *idx) {
  int k = 0;
  while (k < nk && !c[k]) k++;
  if (k == nk) return 0;
  c[k]--;
  --*S;
  *idx -= POW5[k];
  for (int j = k - 1; j >= 0; j--) { /* the lower kinds take the most they can */
    c[j] = (uint8_t)(14 - *S < 4 ? 14 - *S : 4);
    *S += c[j];
    *idx += c[j] * POW5[j];
  }
  return 1;
}

/* Sets `bit` in in[t] for every target t that adds `melds` melds (those of index >= from:
 * triplets 0..nk-1, then sequences) and `pair` pairs to c, whose index is idx. */
static void mark_targets(uint16_t *in, int nk, int seq, uint8_t *c, uint32_t idx, int melds, int pair,
                         uint16_t bit, int from) {
  if (melds == 0) {
    if (!pair) {
      in[idx] |= bit;
      return;
    }
    for (int k = 0; k < nk; k++)
      if (c[k] <= 2) in[idx + 2 * POW5[k]] |= bit;
    return;
  }
  int nmeld = nk + (seq ? nk - 2 : 0);
  for (int j = from; j < nmeld; j++) {
    if (j < nk) {
      if (c[j] > 1) continue;
      c[j] += 3;
      mark_targets(in, nk, seq, c, idx + 3 * POW5[j], melds - 1, pair, bit, j);
      c[j] -= 3;
    } else {
      int k = j - nk;
      if (c[k] > 3 || c[k + 1] > 3 || c[k + 2] > 3) continue;
      c[k]++, c[k + 1]++, c[k + 2]++;
      mark_targets(in, nk, seq, c, idx + POW5[k] + POW5[k + 1] + POW5[k + 2], melds - 1, pair, bit, j);
      c[k]--, c[k + 1]--, c[k + 2]--;
    }
  }
}

/* Row ids of the configurations of nk kinds (with sequences if seq), by index: the row
 * d(c, m, p) at [2m + p] of each configuration is interned into `rows` in ascending index
 * order. If by_rank is not NULL (nk = 9), by_rank[rank(c)] gets the id too. Returns a
 * calloc'd array of 5^nk ids (0 at the indices of more than 14 tiles). All ten (m, p) are
 * filled in one pass, a configuration's row being the least of its predecessors' (c minus one
 * tile) except in the lanes where c fits a target. */
static uint8_t *build_ids(int nk, int seq, interner *rows, uint8_t *by_rank) {
  uint32_t size = POW5[nk];
  uint16_t *in = calloc(size, sizeof *in); /* bit 2m + p: c is inside some (m, p) target */
  uint8_t *id = calloc(size, 1);
  if (!in || !id) abort(); /* a one-off 6 MB at start-up */
  uint8_t c[9] = {0};
  for (int m = 0; m <= 4; m++)
    for (int p = 0; p <= 1; p++) mark_targets(in, nk, seq, c, 0, m, p, (uint16_t)(1u << (2 * m + p)), 0);
  /* Inside a target: a target, or c plus one tile inside one. Descending from the last. */
  int S = 0;
  uint32_t idx = 0;
  for (int k = nk - 1; k >= 0; k--) {
    c[k] = (uint8_t)(14 - S < 4 ? 14 - S : 4);
    S += c[k];
    idx += c[k] * POW5[k];
  }
  do {
    if (S == 14) continue;
    uint16_t m = in[idx];
    for (int k = 0; k < nk; k++)
      if (c[k] < 4) m |= in[idx + POW5[k]];
    in[idx] = m;
  } while (prev_config(c, nk, &S, &idx));
  /* d(c) = 3m + 2p - |c| inside a target, else the least d(c minus one tile). Rows are kept
   * padded to 16 bytes for the lane-wise minimum. Ascending from c = 0 (inside every target). */
  uint8_t full[15][16], pad[256][16];
  for (int s = 0; s <= 14; s++)
    for (int j = 0; j < 16; j++) full[s][j] = (uint8_t)(j < 10 ? 3 * (j / 2) + 2 * (j % 2) - s : 0xff);
  do {
    unsigned m = in[idx];
    uint8_t r[16];
    memset(r, 0xff, sizeof r);
    if (m != 0x3ff)
      for (int k = 0; k < nk; k++) {
        if (!c[k]) continue;
        const uint8_t *q = pad[id[idx - POW5[k]]];
        for (int j = 0; j < 16; j++) r[j] = q[j] < r[j] ? q[j] : r[j];
      }
    for (int j = 0; j < 10; j++)
      if (m >> j & 1) r[j] = full[S][j];
    int n = *rows->n, v = intern(rows, r);
    if (v == n) memcpy(pad[v], r, 16);
    id[idx] = (uint8_t)v;
    if (by_rank) by_rank[suit_rank(c)] = (uint8_t)v;
  } while (next_config(c, nk, &S, &idx));
  free(in);
  return id;
}

/* SWAR over byte lanes of tile counts (each 0..4). H8 has the high bit of every byte. */
#define H8 0x8080808080808080ULL
/* Lanes holding more than 4 (any nonzero result = a bad count). */
static inline uint64_t over4(uint64_t x) { return (((x & 0x7f7f7f7f7f7f7f7fULL) + 0x7b7b7b7b7b7b7b7bULL) | x) & H8; }

/* Histogram code of seven honor counts in lanes 0..6 of x (lane 7 zero): the number of kinds
 * held >= 1, >= 2, >= 3 and >= 4 times, three bits each. */
static inline uint32_t honor_code(uint64_t x) {
  uint64_t g1 = ((x + 0x7f7f7f7f7f7f7f7fULL) & H8) >> 7, g2 = ((x + 0x7e7e7e7e7e7e7e7eULL) & H8) >> 7;
  uint64_t g3 = ((x + 0x7d7d7d7d7d7d7d7dULL) & H8) >> 7, g4 = ((x + 0x7c7c7c7c7c7c7c7cULL) & H8) >> 7;
  /* lane 7 is zero, so it adds 0 (0 + 0x7f has no high bit) */
  uint64_t lo = g1 | g2 << 3, hi = g3 | g4 << 3; /* per lane <= 9, seven lanes sum to <= 63 */
  return (uint32_t)(((lo * 0x0101010101010101ULL) >> 56) | ((hi * 0x0101010101010101ULL) >> 56) << 6);
}

static void combine2(const uint8_t *a, const uint8_t *b, uint8_t *r, int M);

static void build_tables(void) {
  build_rank();
  uint8_t build_rows[SUIT_ROWS_MAX][10];
  int n_build = 0;
  interner *in = malloc(sizeof *in);
  if (!in) abort();
  *in = (interner){build_rows, &n_build, SUIT_ROWS_MAX, {0}};
  memset(in->slot, 0xff, sizeof in->slot);
  uint8_t *ids = build_ids(9, 1, in, suit_id);
  /* Suit row ids are numbered by first appearance in rank order, so that the tables do not
   * depend on the order in which they were built. */
  uint8_t renum[256];
  memset(renum, 0xff, sizeof renum);
  for (uint32_t r = 0; r < SUIT_STATES; r++) {
    uint8_t b = suit_id[r];
    if (renum[b] == 0xff) {
      renum[b] = (uint8_t)n_suit_rows;
      memcpy(suit_rows[n_suit_rows++], build_rows[b], 10);
    }
    suit_id[r] = renum[b];
  }
  for (uint32_t i = 0; i < POW5[9]; i++) ids[i] = renum[ids[i]];
  suit_id_at = ids;
  /* Honor kinds are interchangeable (no sequences), so a row depends only on how many kinds
   * are held at least once, twice, three and four times: the histogram code. Every index with
   * a code must give the same row; that is checked here rather than assumed. */
  *in = (interner){honor_rows, &n_honor_rows, HONOR_ROWS_MAX, {0}};
  memset(in->slot, 0xff, sizeof in->slot);
  uint8_t *hids = build_ids(7, 0, in, NULL);
  memset(honor_id, 0xff, sizeof honor_id);
  uint8_t c[8] = {0};
  int S = 0;
  uint32_t idx = 0;
  do {
    uint64_t x;
    memcpy(&x, c, 8);
    uint32_t code = honor_code(x);
    if (honor_id[code] != 0xff && honor_id[code] != hids[idx]) abort(); /* cannot happen: symmetry */
    honor_id[code] = hids[idx];
  } while (next_config(c, 7, &S, &idx));
  free(hids);
  *in = (interner){pool_rows, &n_pool, POOL_MAX, {0}};
  memset(in->slot, 0xff, sizeof in->slot);
  uint8_t r[10];
  for (int a = 0; a < n_suit_rows; a++)
    for (int b = 0; b < n_suit_rows; b++) {
      combine2(suit_rows[a], suit_rows[b], r, 4);
      t1[a << 7 | b] = (uint8_t)intern(in, r);
    }
  for (int a = 0; a < n_pool; a++) /* n_pool grows while we go: the closure */
    for (int b = 0; b < n_suit_rows; b++) {
      combine2(pool_rows[a], suit_rows[b], r, 4);
      t2[a << 7 | b] = (uint8_t)intern(in, r);
    }
  for (int a = 0; a < n_pool; a++)
    for (int h = 0; h < n_honor_rows; h++)
      for (int M = 0; M <= 4; M++) {
        int best = 255;
        for (int m1 = 0; m1 <= M; m1++) {
          const uint8_t *x = pool_rows[a] + 2 * m1, *y = honor_rows[h] + 2 * (M - m1);
          if (x[0] + y[1] < best) best = x[0] + y[1];
          if (x[1] + y[0] < best) best = x[1] + y[0];
        }
        fin[M][a << 6 | h] = (uint8_t)best;
      }
  free(in);
  atomic_store_explicit(&tables_ready, 1, memory_order_release);
}

void tk_shanten_init(void) { pthread_once(&tables_once, build_tables); }

static inline void ensure_tables(void) {
  if (__builtin_expect(!atomic_load_explicit(&tables_ready, memory_order_acquire), 0)) tk_shanten_init();
}

/* Steps between suit configurations, for the draw and discard queries: steps[rank(c)][i] is
 * the row id of c plus one kind i, steps[rank(c)][9 + i] that of c minus one (0xff where the
 * count would leave 0..4 or the suit 0..14 tiles). 7.3 MB, built on the first of those queries
 * (about 0.01 s), so that a hand's draws and discards cost one rank per suit instead of one per
 * kind. */
static uint8_t (*steps)[18];
static pthread_once_t steps_once = PTHREAD_ONCE_INIT;
static atomic_int steps_ready;

/* Moves the suit c (S tiles, base-5 index idx) to the next suit of S tiles in rank order
 * (lexicographic, kind 0 first); returns 0 after the last. The kinds after the one that grows
 * take the rest from the right, the least they can in lexicographic order. */
static inline int next_in_rank(uint8_t *c, uint32_t *idx) {
  int rest = c[8];
  for (int i = 7; i >= 0; i--) {
    if (c[i] < 4 && rest >= 1) {
      c[i]++;
      *idx += POW5[i];
      rest--;
      for (int j = 8; j > i; j--) {
        int v = rest < 4 ? rest : 4;
        *idx = *idx - c[j] * POW5[j] + v * POW5[j];
        c[j] = (uint8_t)v;
        rest -= v;
      }
      return 1;
    }
    rest += c[i];
  }
  return 0;
}

/* Written in rank order, so that the 7.3 MB are written once, in sequence. */
static void build_steps(void) {
  tk_shanten_init();
  uint8_t (*t)[18] = malloc(SUIT_STATES * sizeof *t);
  if (!t) abort(); /* as the tables above: no shanten without them */
  const uint8_t *id = suit_id_at;
  uint8_t (*row)[18] = t;
  for (int S = 0; S <= 14; S++) {
    uint8_t c[9] = {0};
    uint32_t idx = 0;
    for (int j = 8, rest = S; j >= 0; j--) { /* the first suit of S tiles */
      c[j] = (uint8_t)(rest < 4 ? rest : 4);
      rest -= c[j];
      idx += c[j] * POW5[j];
    }
    do {
      for (int i = 0; i < 9; i++) {
        (*row)[i] = c[i] < 4 && S < 14 ? id[idx + POW5[i]] : 0xff;
        (*row)[9 + i] = c[i] ? id[idx - POW5[i]] : 0xff;
      }
      row++;
    } while (next_in_rank(c, &idx));
  }
  if (row != t + SUIT_STATES) abort(); /* cannot happen: every suit has one rank */
  free(suit_id_at); /* its only reader, run once */
  suit_id_at = NULL;
  steps = t;
  atomic_store_explicit(&steps_ready, 1, memory_order_release);
}

static inline void ensure_steps(void) {
  if (__builtin_expect(!atomic_load_explicit(&steps_ready, memory_order_acquire), 0))
    pthread_once(&steps_once, build_steps);
}

/* ---- queries */

/* min over m1 + m2 = m, p1 + p2 = p of a[m1][p1] + b[m2][p2], for m <= M. */
static void combine2(const uint8_t *a, const uint8_t *b, uint8_t *r, int M) {
  for (int m = 0; m <= M; m++) {
    int r0 = 255, r1 = 255;
    for (int m1 = 0; m1 <= m; m1++) {
      const uint8_t *x = a + 2 * m1, *y = b + 2 * (m - m1);
      int v0 = x[0] + y[0];
      int v1 = x[0] + y[1], v2 = x[1] + y[0];
      if (v0 < r0) r0 = v0;
      if (v1 < r1) r1 = v1;
      if (v2 < r1) r1 = v2;
    }
    r[2 * m] = (uint8_t)r0;
    r[2 * m + 1] = (uint8_t)r1;
  }
}

static inline uint64_t load8(const uint8_t *p) {
  uint64_t x;
  memcpy(&x, p, 8);
  return x;
}

/* Dense rank of a suit (as suit_rank): lanes 0..7 of x hold the counts of kinds 1..8, c8 the
 * 9s' count; the suit holds at most 14 tiles. Lane i of the prefix product holds c_0 + ... +
 * c_i (at most 14, so no lane carries), which makes the eight rank_tab lookups independent of
 * one another. */
static inline uint32_t suit_rank_x(uint64_t x, unsigned c8) {
  uint64_t incl = x * 0x0101010101010101ULL;
  const uint32_t *t = &rank_tab[(incl >> 56) + c8][0][0][0]; /* [i][s][v] at 75 i + 5 s + v */
  uint64_t key = (incl << 8) * 5 + x; /* lane i: 5 (c_0 + ... + c_(i-1)) + c_i <= 74 */
  return t[key & 0xff] + t[75 + (key >> 8 & 0xff)] + t[150 + (key >> 16 & 0xff)] +
         t[225 + (key >> 24 & 0xff)] + t[300 + (key >> 32 & 0xff)] + t[375 + (key >> 40 & 0xff)] +
         t[450 + (key >> 48 & 0xff)] + t[525 + (key >> 56)];
}

/* Row id of the numbered suit whose nine counts start at c. */
static inline int suit_row(const uint8_t *c) { return suit_id[suit_rank_x(load8(c), c[8])]; }

/* Row id of the honors, from the eight counts of kinds 26..33 (the 9s of the last suit first). */
static inline int honor_row(const uint8_t *c26) { return honor_id[honor_code(load8(c26) >> 8)]; }

/* Standard-form distance (tiles to draw) from the four row ids, for M melds and a pair. */
static inline int distance(int man, int pin, int sou, int hon, int M) {
  int ab = t1[man << 7 | pin];
  int abc = t2[ab << 7 | sou];
  return fin[M][abc << 6 | hon];
}

static int total_tiles(const uint8_t *c) {
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) n += c[k];
  return n;
}


static inline int valid_count(int n) { return n > 0 && n <= 14 && n % 3 != 0; }

/* The 34 counts as five words: the four suits (honors: kinds 27..33 in lanes 0..6) and the
 * three 9s apart (lanes 0..2); together they cover every count once. */
typedef struct words {
  uint64_t man, pin, sou, hon, nines;
} words;

static inline words load_words(const uint8_t *c) {
  words w = {load8(c), load8(c + 9), load8(c + 18), load8(c + 26) >> 8,
             (uint64_t)c[8] | (uint64_t)c[17] << 8 | (uint64_t)c[26] << 16};
  return w;
}

/* Lanes holding at least 1 (g1) or 2 (g2) as 0/1 lanes; counts at most 4. */
static inline uint64_t g1(uint64_t x) { return ((x + 0x7f7f7f7f7f7f7f7fULL) & H8) >> 7; }
static inline uint64_t g2(uint64_t x) { return ((x + 0x7e7e7e7e7e7e7e7eULL) & H8) >> 7; }
static inline int hsum(uint64_t x) { return (int)((x * 0x0101010101010101ULL) >> 56); }

/* Shanten by the standard form of valid counts c (n tiles), from its words. */
static inline int standard_of(const words *w, const uint8_t *c, int n) {
  int a = suit_id[suit_rank_x(w->man, c[8])], b = suit_id[suit_rank_x(w->pin, c[17])];
  int d = suit_id[suit_rank_x(w->sou, c[26])], h = honor_id[honor_code(w->hon)];
  return distance(a, b, d, h, n >= 12 ? 4 : n / 3) - 1;
}

/* The lower of the seven-pairs and thirteen-orphans shanten among `forms` (99 if neither), for
 * 13 or 14 valid tiles. Terminals and honors: lane 0 of each numbered suit, the 9s, honors. */
static inline int other_forms(const words *w, unsigned forms) {
  int best = 99;
  uint64_t m1 = g1(w->man), p1 = g1(w->pin), s1 = g1(w->sou), h1 = g1(w->hon), n1 = g1(w->nines);
  uint64_t m2 = g2(w->man), p2 = g2(w->pin), s2 = g2(w->sou), h2 = g2(w->hon), n2 = g2(w->nines);
  if (forms & TK_FORM_CHIITOI) {
    int kinds = hsum(m1 + p1 + s1 + h1 + n1), pairs = hsum(m2 + p2 + s2 + h2 + n2);
    best = 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
  }
  if (forms & TK_FORM_KOKUSHI) {
    int ykinds = hsum(((m1 + p1 + s1) & 0xff) + h1 + n1);
    int ypair = (((m2 | p2 | s2) & 0xff) | h2 | n2) != 0;
    int ks = 13 - ykinds - ypair;
    if (ks < best) best = ks;
  }
  return best;
}

/* Seven pairs' and thirteen orphans' counts of valid words: kinds held, kinds held twice or
 * more, terminal and honor kinds held, those held twice or more. */
static inline void form_counts(const words *w, int *kinds, int *pairs, int *ykinds, int *ypair2) {
  uint64_t m1 = g1(w->man), p1 = g1(w->pin), s1 = g1(w->sou), h1 = g1(w->hon), n1 = g1(w->nines);
  uint64_t m2 = g2(w->man), p2 = g2(w->pin), s2 = g2(w->sou), h2 = g2(w->hon), n2 = g2(w->nines);
  *kinds = hsum(m1 + p1 + s1 + h1 + n1);
  *pairs = hsum(m2 + p2 + s2 + h2 + n2);
  *ykinds = hsum(((m1 + p1 + s1) & 0xff) + h1 + n1);
  *ypair2 = hsum(((m2 + p2 + s2) & 0xff) + h2 + n2);
}

/* Tiles in valid words: each lane of the sum is at most 5 * 4, the whole at most 34 * 4. */
static inline int words_total(const words *w) { return hsum(w->man + w->pin + w->sou + w->hon + w->nines); }

static inline int words_bad(const words *w) {
  return (over4(w->man) | over4(w->pin) | over4(w->sou) | over4(w->hon) | over4(w->nines)) != 0;
}

int tk_shanten_standard(const uint8_t c[TK_KINDS]) {
  ensure_tables();
  words w = load_words(c);
  if (words_bad(&w)) return TK_EINVAL;
  int n = words_total(&w);
  if (!valid_count(n)) return TK_EINVAL;
  return standard_of(&w, c, n);
}

int tk_shanten_forms(const uint8_t c[TK_KINDS], unsigned forms) {
  ensure_tables();
  words w = load_words(c);
  if (words_bad(&w)) return TK_EINVAL;
  int n = words_total(&w);
  if (!valid_count(n)) return TK_EINVAL;
  int best = forms & TK_FORM_STANDARD ? standard_of(&w, c, n) : 99;
  if (n >= 13 && (forms & (TK_FORM_CHIITOI | TK_FORM_KOKUSHI))) {
    int v = other_forms(&w, forms);
    if (v < best) best = v;
  }
  return best == 99 ? TK_EINVAL : best;
}

int tk_shanten(const uint8_t c[TK_KINDS]) { return tk_shanten_forms(c, TK_FORM_ALL); }

/* Shanten after adding kind k, recomputing only k's suit row. */
typedef struct rows {
  int id[4]; /* row ids of man, pin, sou, honors */
  int n;
  unsigned forms;
} rows;

static inline int suit_row_id(const uint8_t *c, int s) {
  return s < 3 ? suit_row(c + 9 * s) : honor_row(c + 26);
}

static void rows_init(rows *w, const uint8_t *c, int n, unsigned forms) {
  for (int s = 0; s < 4; s++) w->id[s] = suit_row_id(c, s);
  w->n = n;
  w->forms = forms;
}

static int shanten_with(const rows *w, uint8_t *c, int k) {
  int n = w->n + 1, s = k / 9;
  c[k]++;
  int id[4] = {w->id[0], w->id[1], w->id[2], w->id[3]};
  int best = 99;
  if (w->forms & TK_FORM_STANDARD) {
    id[s] = suit_row_id(c, s);
    best = distance(id[0], id[1], id[2], id[3], n >= 12 ? 4 : n / 3) - 1;
  }
  if (n >= 13 && (w->forms & (TK_FORM_CHIITOI | TK_FORM_KOKUSHI))) {
    words x = load_words(c);
    int v = other_forms(&x, w->forms);
    if (v < best) best = v;
  }
  c[k]--;
  return best;
}

uint64_t tk_ukeire(const uint8_t c[TK_KINDS], const uint8_t *seen, unsigned forms, int *count,
                   int *shanten) {
  tk_shanten_init();
  int n = total_tiles(c);
  if (count) *count = 0;
  if (n % 3 != 1 || n > 13) {
    if (shanten) *shanten = TK_EINVAL;
    return 0;
  }
  uint8_t h[TK_KINDS];
  memcpy(h, c, TK_KINDS);
  int s0 = tk_shanten_forms(h, forms);
  if (shanten) *shanten = s0;
  if (s0 < 0) return 0;
  rows w;
  rows_init(&w, h, n, forms);
  uint64_t mask = 0;
  int total = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (h[k] >= 4) continue;
    if (shanten_with(&w, h, k) < s0) {
      mask |= 1ULL << k;
      int left = 4 - h[k] - (seen ? seen[k] : 0);
      total += left > 0 ? left : 0;
    }
  }
  if (count) *count = total;
  return mask;
}

/* For the draw and discard queries: the row ids id[0..3] of man, pin, sou and honors, the three
 * numbered suits' ranks rk (for steps[]), and other[s], the pool id of the suits other than s
 * (for s = 3, the three numbered suits), so that a change in suit s costs two lookups. */
static inline void suit_pools(const uint8_t *h, int id[4], uint32_t rk[3], int other[4]) {
  for (int s = 0; s < 3; s++) id[s] = suit_id[rk[s] = suit_rank_x(load8(h + 9 * s), h[9 * s + 8])];
  id[3] = honor_row(h + 26);
  other[0] = t1[id[1] << 7 | id[2]];
  other[1] = t1[id[0] << 7 | id[2]];
  other[2] = t1[id[0] << 7 | id[1]];
  other[3] = t2[other[2] << 7 | id[2]];
}

int tk_shanten_discards(const uint8_t c[TK_KINDS], int out[TK_KINDS]) {
  ensure_tables();
  ensure_steps();
  int n = total_tiles(c);
  if (n % 3 != 2 || n > 14) return TK_EINVAL;
  uint8_t h[TK_KINDS];
  memcpy(h, c, TK_KINDS);
  int id[4], other[4];
  uint32_t rk[3];
  suit_pools(h, id, rk, other);
  int M = n - 1 >= 12 ? 4 : (n - 1) / 3;
  /* seven pairs and thirteen orphans (13 tiles after the discard): pairs and kinds change only
   * at the discarded kind */
  int kinds = 0, pairs = 0, ykinds = 0, ypair2 = 0; /* ypair2: terminal/honor kinds held >= 2 */
  if (n == 14) {
    words wd = load_words(h);
    form_counts(&wd, &kinds, &pairs, &ykinds, &ypair2);
  }
  int count = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    out[k] = 99;
    if (!h[k]) continue;
    int s = k / 9;
    h[k]--;
    int best = s < 3 ? fin[M][t2[other[s] << 7 | steps[rk[s]][9 + k - 9 * s]] << 6 | id[3]] - 1
                     : fin[M][other[3] << 6 | honor_row(h + 26)] - 1;
    if (n == 14) {
      int kd = kinds - (h[k] == 0), pd = pairs - (h[k] == 1);
      int cs = 6 - pd + (kd < 7 ? 7 - kd : 0);
      if (cs < best) best = cs;
      if (tk_kind_is_yaochu(k)) {
        int ks = 13 - (ykinds - (h[k] == 0)) - (ypair2 - (h[k] == 1) > 0);
        if (ks < best) best = ks;
      } else {
        int ks = 13 - ykinds - (ypair2 > 0);
        if (ks < best) best = ks;
      }
    }
    h[k]++;
    out[k] = best;
    count++;
  }
  return count;
}

int tk_shanten_draws(const uint8_t c[TK_KINDS], int out[TK_KINDS]) {
  ensure_tables();
  ensure_steps();
  int n = total_tiles(c);
  if (n % 3 != 1 || n > 13) return TK_EINVAL;
  uint8_t h[TK_KINDS];
  memcpy(h, c, TK_KINDS);
  int id[4], other[4];
  uint32_t rk[3];
  suit_pools(h, id, rk, other);
  int M = n + 1 >= 12 ? 4 : (n + 1) / 3; /* the same as for n tiles */
  /* A kind x with no copy held within two of it ("far") cannot share a block with the hand's
   * tiles: a complete hand that uses the drawn x puts it in a block made of missing tiles only,
   * so the distance after the draw is min(the hand's, the best of the hand's other blocks plus
   * that block's other missing tiles), the same for every far x. (It can be below the hand's
   * own: 1111z 222z is 1-shanten, the fourth 1z being no pair, and any far tile makes it
   * tenpai.) So it is computed once, for the first far number kind and the first far honor
   * (their blocks differ: an honor has no runs), and copied to the others. */
  uint64_t near = 0;
  for (int s = 0; s < 3; s++) {
    uint64_t held = 0;
    for (int i = 0; i < 9; i++) held |= (uint64_t)(h[9 * s + i] > 0) << i;
    uint64_t m = (held | held << 1 | held << 2 | held >> 1 | held >> 2) & 0x1ff;
    near |= m << (9 * s);
  }
  for (int k = 27; k < TK_KINDS; k++) near |= (uint64_t)(h[k] > 0) << k;
  /* seven pairs and thirteen orphans (14 tiles after the draw): pairs and kinds change only at
   * the drawn kind */
  int kinds = 0, pairs = 0, ykinds = 0, ypair2 = 0;
  if (n == 13) {
    words wd = load_words(h);
    form_counts(&wd, &kinds, &pairs, &ykinds, &ypair2);
  }
  int own = fin[M][other[3] << 6 | id[3]] - 1;
  int far_std[2] = {99, 99}; /* numbers, honors */
  if (n == 13) {
    int cs = 6 - pairs + (kinds < 7 ? 7 - kinds : 0), ks = 13 - ykinds - (ypair2 > 0);
    if (cs < own) own = cs;
    if (ks < own) own = ks;
  }
  for (int k = 0; k < TK_KINDS; k++) {
    out[k] = 99;
    if (h[k] >= 4) continue;
    int far = !(near >> k & 1), *memo = &far_std[k >= 27];
    int best = *memo;
    if (!far || best == 99) {
      if (k < 27) {
        int s = k / 9;
        best = fin[M][t2[other[s] << 7 | steps[rk[s]][k - 9 * s]] << 6 | id[3]] - 1;
      } else {
        h[k]++;
        best = fin[M][other[3] << 6 | honor_row(h + 26)] - 1;
        h[k]--;
      }
      if (far) *memo = best;
    }
    if (n == 13) {
      int kd = kinds + (h[k] == 0), pd = pairs + (h[k] == 1);
      int cs = 6 - pd + (kd < 7 ? 7 - kd : 0);
      if (cs < best) best = cs;
      int y = tk_kind_is_yaochu(k);
      int ks = 13 - (ykinds + (y && h[k] == 0)) - (ypair2 + (y && h[k] == 1) > 0);
      if (ks < best) best = ks;
    }
    out[k] = best;
  }
  return own;
}

uint64_t tk_waits(const uint8_t c[TK_KINDS]) {
  tk_shanten_init();
  int n = total_tiles(c);
  if (n % 3 != 1 || n > 13) return 0;
  uint8_t h[TK_KINDS];
  memcpy(h, c, TK_KINDS);
  rows w;
  rows_init(&w, h, n, TK_FORM_ALL);
  uint64_t mask = 0;
  for (int k = 0; k < TK_KINDS; k++)
    if (h[k] < 4 && shanten_with(&w, h, k) == -1) mask |= 1ULL << k;
  return mask;
}
