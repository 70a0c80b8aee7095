/* plugins/riichi_oneplayer/features.c — tables 2 and 3 of paper 000 (features.h). The readings
 * of every row, and of the glossary terms the paper does not define (the ryanmen-first
 * decomposition, perfect 1/2-shanten, the yaku status, the yaku-specific shanten...), are in
 * docs/riichi-oneplayer.md; the comments here state how each is computed. Shanten, effective
 * tiles, waits and scores come from the rules kernel (taikai/mahjong.h). */
#include "features.h"

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

/* The reference switch (features.h): on, every extraction is computed from scratch. */
static _Thread_local int plain_mode;
void rof_reference_mode(int on) { plain_mode = on != 0; }

static int clip(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static int imin(int a, int b) { return a < b ? a : b; }

/* acc * radix + v, v clipped into 0..radix-1: one step of a row's mixed-radix index. */
static uint32_t mr(uint32_t acc, int v, int radix) {
  return acc * (uint32_t)radix + (uint32_t)clip(v, 0, radix - 1);
}

static int is_yakuhai(int k, const rof_ctx *x) {
  return k >= TK_HAKU || k == TK_EAST + x->seat_wind || k == TK_EAST + x->round_wind;
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

/* ------------------------------------------------------------------ restricted shanten */

/* Per group (a suit or the honors): best[nb][np] = the most held tiles that nb blocks and np
 * pairs (0..1) of the allowed kinds can cover. The search takes the lowest held tile not yet
 * decided and either leaves every remaining copy of it uncovered or covers it with a block
 * containing it (a triplet or pair of it, a sequence starting 0, 1 or 2 ranks below it), which
 * also covers one held copy of each of its higher ranks: copies of a rank are interchangeable,
 * so covering greedily loses nothing, and every target is reached. A kind is never needed more
 * than 4 times. */
typedef struct tgt_search {
  uint8_t v[9];       /* held tiles not yet decided */
  uint8_t need[9];    /* copies the chosen blocks use */
  int len;            /* 9 or 7 */
  int maxb;           /* blocks allowed */
  uint32_t seqs, trips, pairs; /* allowed, bit r = rank r of the group */
  int left;           /* sum of v */
  int best[5][2];
} tgt_search;

static void tgt_rec(tgt_search *s, int nb, int np, int matched) {
  if (matched > s->best[nb][np]) s->best[nb][np] = matched;
  if (!s->left) return;
  /* bound: this node can only improve entries with more blocks or pairs, by at most the tiles
   * left; stop when none of them is below that */
  int reach = matched + s->left, useful = 0;
  for (int b = nb; b <= s->maxb && !useful; b++)
    for (int p = np; p < 2 && !useful; p++) useful = s->best[b][p] < reach;
  if (!useful) return;
  int i = 0;
  while (i < s->len && !s->v[i]) i++;
  uint8_t *v = s->v, *need = s->need;
  int keep = v[i];
  v[i] = 0; /* leave every copy of rank i uncovered */
  s->left -= keep;
  tgt_rec(s, nb, np, matched);
  s->left += keep;
  v[i] = (uint8_t)keep;
  if (nb < s->maxb && (s->trips >> i & 1) && need[i] + 3 <= 4) {
    int take = imin(v[i], 3);
    v[i] = (uint8_t)(v[i] - take);
    need[i] = (uint8_t)(need[i] + 3);
    s->left -= take;
    tgt_rec(s, nb + 1, np, matched + take);
    s->left += take;
    need[i] = (uint8_t)(need[i] - 3);
    v[i] = (uint8_t)(v[i] + take);
  }
  if (!np && (s->pairs >> i & 1) && need[i] + 2 <= 4) {
    int take = imin(v[i], 2);
    v[i] = (uint8_t)(v[i] - take);
    need[i] = (uint8_t)(need[i] + 2);
    s->left -= take;
    tgt_rec(s, nb, 1, matched + take);
    s->left += take;
    need[i] = (uint8_t)(need[i] - 2);
    v[i] = (uint8_t)(v[i] + take);
  }
  if (nb >= s->maxb) return;
  for (int st = i - 2; st <= i; st++) {
    if (st < 0 || st + 2 >= s->len || !(s->seqs >> st & 1)) continue;
    if (need[st] >= 4 || need[st + 1] >= 4 || need[st + 2] >= 4) continue;
    int took[3] = {0, 0, 0}, take = 0;
    for (int r = st; r <= st + 2; r++) {
      need[r]++;
      if (r >= i && v[r]) { v[r]--; took[r - st] = 1; take++; }
    }
    s->left -= take;
    tgt_rec(s, nb + 1, np, matched + take);
    s->left += take;
    for (int r = st; r <= st + 2; r++) {
      need[r]--;
      v[r] = (uint8_t)(v[r] + took[r - st]);
    }
  }
}

/* A small per-thread memo of the per-group searches (a direct-mapped cache: a pure function's
 * results, so the answers never depend on what it holds). */
typedef struct tgt_memo {
  uint64_t key;
  int8_t best[5][2];
} tgt_memo;
enum { TGT_MEMO_BITS = 16 };
static _Thread_local tgt_memo tgt_cache[1 << TGT_MEMO_BITS];

int rof_target_shanten(const uint8_t c[TK_KINDS], int nmelds, uint64_t seqs, uint64_t trips,
                       uint64_t pairs) {
  int N = 4 - nmelds;
  if (N < 0) return 14;
  int f[5][2];
  for (int b = 0; b <= 4; b++) f[b][0] = f[b][1] = -1000;
  f[0][0] = 0;
  for (int g = 0; g < 4; g++) {
    int base = 9 * g, len = g < 3 ? 9 : 7;
    uint32_t gseqs = g < 3 ? (uint32_t)(seqs >> base) & 0x7f : 0;
    uint32_t gtrips = (uint32_t)(trips >> base) & ((1u << len) - 1);
    uint32_t gpairs = (uint32_t)(pairs >> base) & ((1u << len) - 1);
    /* Held tiles of kinds no allowed group contains are never covered: the best covers are
     * the same without them (the search can only leave them), so the fast path drops them: the
     * memo then sees fewer distinct patterns and the searches are smaller. A group left with no
     * tile adds nothing (its only entry is best[0][0] = 0): it is skipped. */
    uint32_t cover = gtrips | gpairs | gseqs | gseqs << 1 | gseqs << 2;
    uint8_t v[9];
    uint32_t code = 0;
    for (int r = 0; r < len; r++) {
      v[r] = plain_mode || (cover >> r & 1) ? c[base + r] : 0;
      code = code * 5 + v[r];
    }
    if (!plain_mode && !code) continue;
    /* the per-group search is a pure function of these: memoised */
    uint64_t key = 1ULL << 63 | (uint64_t)N << 59 | (uint64_t)(g == 3) << 58 |
                   (uint64_t)gseqs << 51 | (uint64_t)gtrips << 42 | (uint64_t)gpairs << 33 | code;
    tgt_memo *mm =
        &tgt_cache[(key ^ key >> 29 ^ key >> 47) * 0x9e3779b97f4a7c15ULL >> (64 - TGT_MEMO_BITS)];
    int best[5][2];
    if (!plain_mode && mm->key == key) {
      for (int b = 0; b <= 4; b++)
        for (int p = 0; p < 2; p++) best[b][p] = mm->best[b][p];
    } else {
      tgt_search s;
      memset(&s, 0, sizeof s);
      s.len = len;
      for (int r = 0; r < s.len; r++) {
        s.v[r] = v[r];
        s.left += s.v[r];
      }
      s.maxb = N;
      s.seqs = gseqs;
      s.trips = gtrips;
      s.pairs = gpairs;
      for (int b = 0; b <= 4; b++) s.best[b][0] = s.best[b][1] = -100;
      tgt_rec(&s, 0, 0, 0);
      for (int b = 0; b <= 4; b++)
        for (int p = 0; p < 2; p++) best[b][p] = s.best[b][p];
      if (!plain_mode) {
        mm->key = key;
        for (int b = 0; b <= 4; b++)
          for (int p = 0; p < 2; p++) mm->best[b][p] = (int8_t)best[b][p];
      }
    }
    int nf[5][2];
    for (int b = 0; b <= 4; b++) nf[b][0] = nf[b][1] = -1000;
    for (int b1 = 0; b1 <= N; b1++)
      for (int p1 = 0; p1 < 2; p1++) {
        if (f[b1][p1] < 0) continue;
        for (int b2 = 0; b1 + b2 <= N; b2++)
          for (int p2 = 0; p1 + p2 < 2; p2++)
            if (best[b2][p2] >= 0 && f[b1][p1] + best[b2][p2] > nf[b1 + b2][p1 + p2])
              nf[b1 + b2][p1 + p2] = f[b1][p1] + best[b2][p2];
      }
    memcpy(f, nf, sizeof f);
  }
  /* the blocks and pair not covering a held tile are free: any allowed one (a suit's allowed
   * sequence, else an allowed triplet), as long as one exists */
  int any_block = (seqs | trips) != 0, any_pair = pairs != 0;
  int best = -1;
  for (int b = 0; b <= N; b++)
    for (int p = 0; p < 2; p++) {
      if (f[b][p] < 0) continue;
      if (b < N && !any_block) continue;
      if (p == 0 && !any_pair) continue;
      if (f[b][p] > best) best = f[b][p];
    }
  if (best < 0) return 14;
  return clip(3 * N + 2 - best - 1, -1, 14);
}

/* ------------------------------------------------------------------ ryanmen-first decomposition */

enum { B_MELD, B_RYANMEN, B_BAD, B_PAIR, B_RPAIR, B_BPAIR, B_ISO };

typedef struct block {
  uint8_t type, lo, hi; /* kinds spanned */
} block;

typedef struct decomp {
  int n[7];       /* blocks per type */
  int nb;
  block b[14];
} decomp;

/* The choice key: most melds, then most ryanmen (plain or in a composite), then most other
 * partials and pairs, then most composites (ties: the first found in the search order). */
static long key_of(const int n[7]) {
  return (long)n[B_MELD] * 1000000 + (long)(n[B_RYANMEN] + n[B_RPAIR]) * 10000 +
         (long)(n[B_BAD] + n[B_BPAIR] + n[B_PAIR]) * 100 + (n[B_RPAIR] + n[B_BPAIR]);
}

typedef struct dsearch {
  uint8_t v[9];
  int len, base, honors;
  decomp cur, best;
  long best_key;
  int left; /* tiles not yet placed */
} dsearch;

static void dpush(dsearch *s, int type, int lo, int hi) {
  s->cur.n[type]++;
  block *b = &s->cur.b[s->cur.nb++];
  b->type = (uint8_t)type;
  b->lo = (uint8_t)(s->base + lo);
  b->hi = (uint8_t)(s->base + hi);
}
static void dpop(dsearch *s) { s->cur.n[s->cur.b[--s->cur.nb].type]--; }

static void drec(dsearch *s) {
  int i = 0;
  while (i < s->len && !s->v[i]) i++;
  if (i == s->len) {
    long k = key_of(s->cur.n);
    if (k > s->best_key) { s->best_key = k; s->best = s->cur; }
    return;
  }
  /* bound: even if every tile left became melds, the meld count cannot beat the best's */
  if (s->best_key >= 0 && s->cur.n[B_MELD] + s->left / 3 < s->best.n[B_MELD]) return;
  uint8_t *v = s->v;
  int num = !s->honors;
#define TRY(type, lo, hi, ...)                                               \
  do {                                                                       \
    static const int8_t take_[] = {__VA_ARGS__};                             \
    int ok_ = 1, nt_ = (int)sizeof take_;                                    \
    for (int t_ = 0; t_ < nt_; t_++)                                         \
      if (i + take_[t_] >= s->len || !v[i + take_[t_]]--) ok_ = 0;           \
    if (ok_) {                                                               \
      s->left -= nt_;                                                        \
      dpush(s, type, i + (lo), i + (hi));                                    \
      drec(s);                                                               \
      dpop(s);                                                               \
      s->left += nt_;                                                        \
    }                                                                        \
    for (int t_ = 0; t_ < nt_; t_++)                                         \
      if (i + take_[t_] < s->len) v[i + take_[t_]]++;                        \
  } while (0)
  /* v[x]-- above ran only while the index was in range; a failed take (count 0) was still
   * decremented and is restored by the loop after */
  TRY(B_MELD, 0, 0, 0, 0, 0);
  if (num) {
    TRY(B_MELD, 0, 2, 0, 1, 2);
    int ryan = i >= 1 && i <= 6; /* i, i+1 both within 2..8 */
    TRY(ryan ? B_RPAIR : B_BPAIR, 0, 1, 0, 0, 1);
    TRY(ryan ? B_RPAIR : B_BPAIR, 0, 1, 0, 1, 1);
    TRY(B_BPAIR, 0, 2, 0, 0, 2);
    TRY(B_BPAIR, 0, 2, 0, 2, 2);
    TRY(ryan ? B_RYANMEN : B_BAD, 0, 1, 0, 1);
    TRY(B_BAD, 0, 2, 0, 2);
  }
  TRY(B_PAIR, 0, 0, 0, 0);
  TRY(B_ISO, 0, 0, 0);
#undef TRY
}

/* A per-thread memo of the per-group searches, direct-mapped: the best decomposition of a group
 * is a pure function of its counts (the key: the group, and its counts in base 5, plus one). */
typedef struct dmemo {
  uint32_t key;
  uint8_t n[7], nb;
  block b[14];
} dmemo;
enum { DMEMO_BITS = 13 };
static _Thread_local dmemo dcache[1 << DMEMO_BITS];

/* Decomposes every group of `c` and merges them (the key is a sum over groups, so the best of
 * the whole is the best of each group). */
static void decompose(const uint8_t c[TK_KINDS], decomp *out) {
  memset(out, 0, sizeof *out);
  for (int g = 0; g < 4; g++) {
    int len = g < 3 ? 9 : 7;
    dmemo *mm = NULL;
    if (!plain_mode) {
      uint32_t code = 0;
      for (int r = 0; r < len; r++) code = code * 5 + c[9 * g + r];
      if (!code) continue;
      uint32_t key = ((uint32_t)g << 22 | code) + 1;
      mm = &dcache[(key * 0x9e3779b1u) >> (32 - DMEMO_BITS)];
      if (mm->key == key) {
        for (int t = 0; t < 7; t++) out->n[t] += mm->n[t];
        for (int j = 0; j < mm->nb && out->nb < 14; j++) out->b[out->nb++] = mm->b[j];
        continue;
      }
      mm->key = key;
    }
    dsearch s;
    memset(&s, 0, sizeof s);
    s.len = g < 3 ? 9 : 7;
    s.base = 9 * g;
    s.honors = g == 3;
    for (int r = 0; r < s.len; r++) {
      s.v[r] = c[s.base + r];
      s.left += s.v[r];
    }
    if (!s.left) continue;
    s.best_key = -1;
    drec(&s);
    if (mm) {
      for (int t = 0; t < 7; t++) mm->n[t] = (uint8_t)s.best.n[t];
      mm->nb = (uint8_t)imin(s.best.nb, 14);
      memcpy(mm->b, s.best.b, sizeof mm->b);
    }
    for (int t = 0; t < 7; t++) out->n[t] += s.best.n[t];
    for (int j = 0; j < s.best.nb && out->nb < 14; j++) out->b[out->nb++] = s.best.b[j];
  }
}

/* The kinds a partial waits on, as a bit mask (kinds of its own suit). */
static uint64_t partial_waits(const block *b) {
  int lo = b->lo, r = lo % 9;
  if (b->hi - b->lo == 2) return 1ULL << (lo + 1); /* kanchan */
  uint64_t m = 0;
  if (r > 0) m |= 1ULL << (lo - 1);
  if (r + 1 < 8) m |= 1ULL << (lo + 2);
  return m;
}

/* ------------------------------------------------------------------ components */

static int meld_tiles(const tk_call *m, int k) {
  switch (m->type) {
  case TK_CALL_CHI: return k >= m->kind && k <= m->kind + 2;
  case TK_CALL_PON: return k == m->kind ? 3 : 0;
  default: return k == m->kind ? 4 : 0;
  }
}

static int meld_tanyao(const tk_call *m) {
  if (m->type == TK_CALL_CHI) return tk_kind_number(m->kind) >= 2 && tk_kind_number(m->kind) <= 6;
  return !tk_kind_is_yaochu(m->kind);
}
static int meld_chanta(const tk_call *m) {
  if (m->type == TK_CALL_CHI) return tk_kind_number(m->kind) == 1 || tk_kind_number(m->kind) == 7;
  return tk_kind_is_yaochu(m->kind);
}

/* Class of a number kind: 1/9 -> 0, 2/8 -> 1, 3/7 -> 2, 4/6 -> 3, 5 -> 4. */
static int num_class(int k) {
  int r = tk_kind_number(k);
  int d = r <= 5 ? r : 10 - r;
  return d - 1;
}

/* Does a block fit chanta: its tiles within 1-3 or within 7-9 of one suit, or honors; a
 * complete meld or a pair must also hold a 1/9/honor. */
static int block_chanta(const block *b) {
  if (b->lo >= 27) return 1;
  int rl = tk_kind_number(b->lo), rh = tk_kind_number(b->hi);
  int within = (rh <= 3) || (rl >= 7);
  if (!within) return 0;
  if (b->type == B_MELD || b->type == B_PAIR) return tk_kind_is_yaochu(b->lo) || tk_kind_is_yaochu(b->hi);
  return 1;
}


static int std_shanten(const uint8_t c[TK_KINDS]) {
  return plain_mode ? tk_shanten_forms(c, TK_FORM_STANDARD) : tk_shanten_standard(c);
}

int rof_components(const rof_hand *h, const rof_ctx *x, rof_comp *o, tk_error *err) {
  memset(o, 0, sizeof *o);
  if (h->nmelds > 4) return tk_error_set(err, TK_EINVAL, -1, "oneplayer features: hand.nmelds = %d (at most 4)",
                        h->nmelds);
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (h->c[k] > 4) return tk_error_set(err, TK_EINVAL, -1, "oneplayer features: hand.c[%d] = %d (at most 4)", k,
                          h->c[k]);
    n += h->c[k];
  }
  if (n != 3 * (4 - h->nmelds) + 1)
    return tk_error_set(err, TK_EINVAL, -1,
                        "oneplayer features: hand.c holds %d tiles with %d melds (want %d)", n,
                        h->nmelds, 3 * (4 - h->nmelds) + 1);
  for (int i = 0; i < h->nmelds; i++) {
    const tk_call *m = &h->melds[i];
    if (m->type > TK_CALL_KAKAN || m->kind >= TK_KINDS ||
        (m->type == TK_CALL_CHI && (m->kind >= 27 || m->kind % 9 > 6)))
      return tk_error_set(err, TK_EINVAL, -1,
                          "oneplayer features: hand.melds[%d] = (type %d, kind %d) is no meld", i,
                          m->type, m->kind);
  }
  const uint8_t *c = h->c;
  /* every tile of the hand, melds included (a kan counts 4) */
  uint8_t all[TK_KINDS];
  memcpy(all, c, TK_KINDS);
  o->calls = h->nmelds;
  for (int i = 0; i < h->nmelds; i++) {
    const tk_call *m = &h->melds[i];
    for (int k = m->kind; k <= imin(m->kind + 2, TK_KINDS - 1); k++) {
      int t = meld_tiles(m, k);
      all[k] = (uint8_t)imin(all[k] + t, 4);
    }
    if (m->type != TK_CALL_ANKAN) o->open = 1;
    if (m->type == TK_CALL_CHI) o->has_chi = 1;
  }

  /* shanten */
  if (plain_mode) {
    o->sh = (int8_t)tk_shanten_forms(c, TK_FORM_STANDARD);
    o->sh_all = (int8_t)tk_shanten(c);
    o->sh_chiitoi = (int8_t)(h->nmelds ? 7 : tk_shanten_forms(c, TK_FORM_CHIITOI));
    o->sh_kokushi = (int8_t)(h->nmelds ? 14 : tk_shanten_forms(c, TK_FORM_KOKUSHI));
  } else {
    /* the same values through the cheaper calls: tk_shanten is the least of the three forms,
     * and with a meld called (fewer than 13 concealed tiles) it is the standard form's */
    o->sh = (int8_t)tk_shanten_standard(c);
    o->sh_chiitoi = (int8_t)(h->nmelds ? 7 : tk_shanten_forms(c, TK_FORM_CHIITOI));
    o->sh_kokushi = (int8_t)(h->nmelds ? 14 : tk_shanten_forms(c, TK_FORM_KOKUSHI));
    int least = o->sh;
    if (!h->nmelds) least = imin(least, imin(o->sh_chiitoi, o->sh_kokushi));
    o->sh_all = (int8_t)least;
  }

  /* effective tiles of the normal form */
  int cnt = 0;
  o->ukeire_mask = tk_ukeire(c, x->seen, TK_FORM_STANDARD, &cnt, NULL);
  o->ukeire = (uint8_t)clip(cnt, 0, 255);
  for (int k = 0; k < TK_KINDS; k++)
    if (o->ukeire_mask >> k & 1) {
      int left = 4 - c[k] - x->seen[k];
      if (left < 0) left = 0;
      o->ukeire_suit[tk_kind_suit(k)] = (uint8_t)(o->ukeire_suit[tk_kind_suit(k)] + left);
      if (tk_kind_is_yaochu(k)) o->ukeire_yaochu = (uint8_t)(o->ukeire_yaochu + left);
    }
  o->riichi = x->riichi_ok && !o->open && o->sh_all == 0;

  /* decomposition */
  decomp d;
  decompose(c, &d);
  o->melds = (uint8_t)(d.n[B_MELD] + h->nmelds);
  o->ryanmen = (uint8_t)d.n[B_RYANMEN];
  o->bad = (uint8_t)d.n[B_BAD];
  o->pairs = (uint8_t)d.n[B_PAIR];
  o->rpair = (uint8_t)d.n[B_RPAIR];
  o->bpair = (uint8_t)d.n[B_BPAIR];
  int np = 0;
  for (int j = 0; j < d.nb; j++) {
    const block *b = &d.b[j];
    if (b->type == B_ISO) o->isolated[o->nisolated++] = b->lo;
    if (b->type == B_PAIR && np < 7) o->pair_kind[np++] = b->lo;
  }
  /* blocks come group by group in ascending order of their lowest kind: sort the lists */
  for (int a = 1; a < o->nisolated; a++)
    for (int b = a; b > 0 && o->isolated[b - 1] > o->isolated[b]; b--) {
      uint8_t t = o->isolated[b]; o->isolated[b] = o->isolated[b - 1]; o->isolated[b - 1] = t;
    }
  for (int a = 1; a < np; a++)
    for (int b = a; b > 0 && o->pair_kind[b - 1] > o->pair_kind[b]; b--) {
      uint8_t t = o->pair_kind[b]; o->pair_kind[b] = o->pair_kind[b - 1]; o->pair_kind[b - 1] = t;
    }
  for (int a = 0; a < d.nb; a++) {
    const block *p = &d.b[a];
    if (p->type != B_RYANMEN && p->type != B_BAD) continue;
    for (int b = a + 1; b < d.nb; b++) {
      const block *q = &d.b[b];
      if (q->type != B_RYANMEN && q->type != B_BAD) continue;
      if (!(partial_waits(p) & partial_waits(q))) continue;
      if (p->type == B_RYANMEN && q->type == B_RYANMEN) o->over_ryanmen++;
      else o->over_bad++;
    }
  }
  if (o->sh == 1 && o->melds == 2 && o->ryanmen >= 1 && o->pairs >= 1 && o->rpair >= 1)
    o->perfect = 1;
  else if (o->sh == 2 && o->melds == 1 && o->ryanmen >= 2 && o->pairs >= 1 && o->rpair >= 1)
    o->perfect = 2;

  /* pairs as the head, triplets as a meld: the normal-form shanten with the choice fixed. A
   * pair k is fixed as the head by moving it onto a kind h that holds nothing and has no held
   * neighbour: such a pair can only be the head or an idle pair, and the shanten of that hand
   * is the shanten with k's pair as the head. A triplet is fixed as a meld by removing it (the
   * kernel counts the removed tiles as a called meld). */
  int free_h = -1;
  for (int k = TK_EAST; k < TK_KINDS && free_h < 0; k++)
    if (!c[k]) free_h = k;
  for (int k = 0; k < 27 && free_h < 0; k++) {
    int r = k % 9, lone = !c[k];
    for (int dd = -2; dd <= 2 && lone; dd++)
      if (r + dd >= 0 && r + dd < 9 && c[k + dd]) lone = 0;
    if (lone) free_h = k;
  }
  uint8_t t[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) {
    if (c[k] >= 2) {
      if (free_h < 0) o->good_pairs++; /* no free kind (never seen in practice): count it */
      else {
        memcpy(t, c, TK_KINDS);
        t[k] = (uint8_t)(t[k] - 2);
        t[free_h] = 2;
        if (std_shanten(t) == o->sh) o->good_pairs++;
      }
    }
    if (c[k] >= 3) {
      o->ctriplets++;
      memcpy(t, c, TK_KINDS);
      t[k] = (uint8_t)(t[k] - 3);
      if (std_shanten(t) == o->sh) o->good_triplets++;
    }
  }
  o->triplets = o->ctriplets;
  for (int i = 0; i < h->nmelds; i++)
    if (h->melds[i].type != TK_CALL_CHI) o->triplets++;
  for (int k = 0; k < TK_KINDS; k++)
    if (c[k] == 2 && 4 - 2 - x->seen[k] <= 0) o->dead_pairs++;

  /* yakuhai */
  for (int k = TK_EAST; k < TK_KINDS; k++) {
    if (!is_yakuhai(k, x)) continue;
    if (c[k] >= 3) o->yakuhai_trip++;
    if (c[k] == 2) o->yakuhai_pairs++;
    if (c[k] == 1) o->yakuhai_iso |= (uint8_t)(k >= TK_HAKU ? 1 << (k - TK_HAKU) : 8);
  }
  for (int i = 0; i < h->nmelds; i++)
    if (h->melds[i].type != TK_CALL_CHI && is_yakuhai(h->melds[i].kind, x)) o->yakuhai_trip++;

  /* dora */
  int red_melds = 0;
  for (int i = 0; i < h->nmelds; i++) red_melds += h->melds[i].red;
  int dora = h->red + red_melds, tdora = dora;
  for (int i = 0; i < x->ndora; i++) {
    int dk = tk_dora_of(x->dora[i]);
    dora += all[dk];
    if (!tk_kind_is_yaochu(dk)) tdora += all[dk];
  }
  o->dora = (uint8_t)clip(dora, 0, 255);
  o->tanyao_dora = (uint8_t)clip(tdora, 0, 255);

  /* tanyao, chanta, one suit */
  o->tanyao_ok = o->chanta_ok = 1;
  for (int i = 0; i < h->nmelds; i++) {
    if (!meld_tanyao(&h->melds[i])) o->tanyao_ok = 0;
    if (!meld_chanta(&h->melds[i])) o->chanta_ok = 0;
  }
  uint64_t simples = 0, yaochu = 0, tseq = 0, cseq = 0, seq_starts = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    if (tk_kind_is_yaochu(k)) yaochu |= 1ULL << k;
    else simples |= 1ULL << k;
    int r = tk_kind_number(k);
    if (r >= 2 && r <= 6) tseq |= 1ULL << k;
    if (r == 1 || r == 7) cseq |= 1ULL << k;
    if (r >= 1 && r <= 7) seq_starts |= 1ULL << k;
  }
  o->sh_tanyao = (int8_t)(o->tanyao_ok ? rof_target_shanten(c, h->nmelds, tseq, simples, simples) : 14);
  o->sh_chanta = (int8_t)(o->chanta_ok ? rof_target_shanten(c, h->nmelds, cseq, yaochu, yaochu) : 14);
  int suitn[3] = {0, 0, 0};
  for (int k = 0; k < TK_KINDS; k++) {
    int tiles = c[k];
    if (k < 27) suitn[k / 9] += tiles;
    else if (tiles) o->has_honor = 1;
    if (!tk_kind_is_yaochu(k)) o->tanyao_tiles = (uint8_t)(o->tanyao_tiles + tiles);
    int r = tk_kind_number(k);
    if (k >= 27 || r <= 3 || r >= 7) o->chanta_tiles = (uint8_t)(o->chanta_tiles + tiles);
    if (k < 27 && r >= 2 && r <= 8 && c[k] == 2) o->tanyao_pairs++;
  }
  for (int i = 0; i < h->nmelds; i++) {
    const tk_call *m = &h->melds[i];
    if (m->kind < 27) suitn[m->kind / 9] += 3;
    else o->has_honor = 1;
    if (meld_tanyao(m)) o->tanyao_tiles = (uint8_t)(o->tanyao_tiles + 3);
    if (meld_chanta(m)) {
      o->chanta_tiles = (uint8_t)(o->chanta_tiles + 3);
      o->chanta_blocks++;
    }
  }
  for (int j = 0; j < d.nb; j++)
    if (d.b[j].type != B_ISO && block_chanta(&d.b[j])) o->chanta_blocks++;
  int s = 0;
  for (int g = 1; g < 3; g++)
    if (suitn[g] > suitn[s]) s = g;
  o->suit = (uint8_t)s;
  o->suit_count = (uint8_t)suitn[s];
  int suit_ok = 1;
  for (int i = 0; i < h->nmelds; i++)
    if (h->melds[i].kind < 27 && h->melds[i].kind / 9 != s) suit_ok = 0;
  if (suit_ok) {
    uint64_t sk = ((1ULL << 9) - 1) << (9 * s), hon = ((1ULL << 7) - 1) << 27;
    o->sh_suit = (int8_t)rof_target_shanten(c, h->nmelds, sk & seq_starts, sk | hon, sk | hon);
  } else
    o->sh_suit = 14;

  /* sanshoku and ittsu: distinct kinds held (melds included) */
  for (int r = 0; r < 7; r++) {
    int m = 0;
    for (int g = 0; g < 3; g++)
      for (int dd = 0; dd < 3; dd++) m += all[9 * g + r + dd] > 0;
    if (m > o->sanshoku_max) o->sanshoku_max = (uint8_t)m;
  }
  for (int g = 0; g < 3; g++) {
    int m = 0;
    for (int r = 0; r < 9; r++) m += all[9 * g + r] > 0;
    if (m > o->ittsu_max) o->ittsu_max = (uint8_t)m;
  }

  /* waits: han of a ron and of a tsumo on each (no riichi: the yaku the hand itself holds) */
  o->yaku = o->yakuhai_trip ? 0 : 1;
  if (o->sh_all == 0) {
    uint64_t w = tk_waits(c);
    tk_win_ctx wc;
    memset(&wc, 0, sizeof wc);
    wc.ruleset = TK_RULES_TENHOU;
    wc.round_wind = x->round_wind;
    wc.seat_wind = x->seat_wind;
    wc.ndora = (uint8_t)imin(x->ndora, TK_MAX_INDICATORS);
    memcpy(wc.dora, x->dora, TK_MAX_INDICATORS);
    int with = 0;
    for (int k = 0; k < TK_KINDS && o->nwaits < 13; k++) {
      if (!(w >> k & 1)) continue;
      memcpy(t, c, TK_KINDS);
      t[k]++;
      int hans[2];
      for (int ron = 1; ron >= 0; ron--) {
        tk_score sc;
        wc.ron = (uint8_t)ron;
        wc.win_tile = (uint8_t)k;
        int rc = tk_score_counts(t, k, h->red, h->melds, h->nmelds, &wc, &sc, NULL);
        hans[ron] = rc ? 0 : sc.yakuman ? 13 : sc.han;
      }
      int left = 4 - c[k] - x->seen[k];
      if (left < 0) left = 0;
      int i = o->nwaits++;
      o->waits[i] = (uint8_t)k;
      o->wait_han[i] = (uint8_t)hans[1];
      o->wait_tsumo[i] = (uint8_t)hans[0];
      o->wait_left[i] = (uint8_t)left;
      if (hans[1] > 0) { with++; o->win_yaku = (uint8_t)(o->win_yaku + left); }
      else o->win_noyaku = (uint8_t)(o->win_noyaku + left);
    }
    o->yaku = with == o->nwaits ? 0 : with == 0 ? 1 : 2;
    o->furiten = (x->furiten & ROF_FURITEN_OTHER) || (w & x->river);
    o->special_form = o->sh > 0;
  }
  return 0;
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

int rof_features(const rof_hand *h, const rof_ctx *x, uint32_t *f, rof_comp *comp, tk_error *err) {
  rof_comp cc, *o = comp ? comp : &cc;
  int rc = rof_components(h, x, o, err);
  if (rc) return rc;
  out O = {f, 0};
  const uint8_t *c = h->c;
  int sh = o->sh, calls = o->calls, rm = o->melds + o->ryanmen;
  int sh3 = imin(sh, 3), sh4 = imin(sh, 4), turn = x->turn;
  int chi7 = o->sh_chiitoi; /* 0..6, 7 = impossible */

  /* 2.1-2.5 */
  PUT(&O, 2_1n, (uint32_t)clip(sh, 0, 14));
  PUT(&O, 2_1c, (uint32_t)clip(o->sh_chiitoi, 0, 6));
  PUT(&O, 2_1k, (uint32_t)clip(o->sh_kokushi, 0, 13));
  PUT(&O, 2_2, (uint32_t)calls);
  PUT(&O, 2_3, mr(mr(0, sh, 15), calls, 5));
  PUT(&O, 2_4, o->riichi);
  PUT(&O, 2_5, mr(mr(mr(0, sh, 15), calls, 5), o->ukeire, 21));
  /* 2.6 each meld: kind x (chi, pon, open kan, closed kan) */
  for (int i = 0; i < h->nmelds; i++) {
    int t = h->melds[i].type;
    int cls = t == TK_CALL_CHI ? 0 : t == TK_CALL_PON ? 1 : t == TK_CALL_ANKAN ? 3 : 2;
    PUT(&O, 2_6, mr(mr(0, h->melds[i].kind, 34), cls, 4));
  }
  PUT(&O, 2_7, o->yakuhai_trip);
  PUT(&O, 2_8, mr(mr(0, o->good_pairs, 6), o->yakuhai_pairs, 6));
  {
    uint32_t v = mr(0, o->yakuhai_trip > 0, 2);
    v = mr(v, o->good_pairs, 6);
    v = mr(v, o->yakuhai_pairs, 6);
    v = mr(v, o->yakuhai_iso, 16);
    v = mr(v, sh4, 5);
    v = mr(v, calls, 5);
    PUT(&O, 2_9, v);
  }
  {
    int suit_ok = o->sh_suit < 14;
    uint32_t v = mr(0, suit_ok ? clip(o->suit_count, 0, 13) : 14, 15);
    v = mr(mr(v, calls, 5), !o->has_honor, 2);
    PUT(&O, 2_10, v);
  }
  PUT(&O, 2_11, (uint32_t)imin(o->dora, 3));
  PUT(&O, 2_12, o->yaku);
  PUT(&O, 2_13, mr(mr(mr(0, sh3, 4), o->yaku, 3), turn, 18));
  PUT(&O, 2_14, mr(mr(mr(mr(0, sh3, 4), calls, 5), o->furiten, 2), o->win_yaku, 8));
  int blocks = o->melds + o->ryanmen + o->bad + o->pairs + o->rpair + o->bpair;
  PUT(&O, 2_15, mr(mr(0, rm, 7), sh, 15));
  PUT(&O, 2_16, mr(mr(0, blocks, 11), sh, 15));
  PUT(&O, 2_17, mr(mr(mr(0, rm, 7), blocks, 11), sh, 15));
  int csh = o->sh_chanta, ctiles = o->chanta_tiles - 6;
  {
    uint32_t v = mr(0, csh, 5);
    v = mr(v, ctiles, 8);
    v = mr(v, o->chanta_blocks, 8);
    v = mr(v, o->ukeire / 4, 5);
    v = mr(v, csh - sh, 4);
    PUT(&O, 2_18, v);
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
    PUT(&O, 2_19, v);
  }
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
      PUT(&O, 2_20, v);
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
    PUT(&O, 2_22, w);
    PUT(&O, 2_23, mr(mr(v, o->riichi, 2), turn / 3, 7));
  }
  {
    uint32_t v = mr(0, o->sh_suit, 5);
    v = mr(v, o->melds, 5);
    v = mr(v, o->rpair, 8);
    v = mr(v, o->bpair, 8);
    v = mr(v, calls, 5);
    PUT(&O, 2_24, v);
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
    PUT(&O, 2_25, v);
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
    PUT(&O, 2_26, v);
  }
  {
    uint32_t v = mr(0, rm, 8);
    v = mr(v, o->bad, 8);
    v = mr(v, o->over_ryanmen, 4);
    v = mr(v, o->over_bad, 4);
    v = mr(v, sh3, 4);
    v = mr(v, o->perfect, 3);
    v = mr(v, o->riichi, 2);
    PUT(&O, 2_27, v);
  }
  {
    uint32_t v = mr(0, sh4, 5);
    v = mr(v, chi7, 8);
    v = mr(v, o->good_pairs, 8);
    v = mr(v, rm, 8);
    v = mr(v, o->riichi, 2);
    v = mr(v, o->perfect, 3);
    PUT(&O, 2_28, v);
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
    PUT(&O, 2_29, v);
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
    PUT(&O, 2_30, v);
  }
  {
    uint32_t v = mr(0, sh4, 5);
    v = mr(v, chi7, 8);
    v = mr(v, o->good_triplets, 5);
    v = mr(v, calls, 5);
    v = mr(v, o->has_chi, 2);
    v = mr(v, o->perfect, 3);
    PUT(&O, 2_31, v);
  }

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
    PUT(&O, 3_1, v);
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
    PUT(&O, 3_2, mr(mr(mr(0, num_class(k), 5), c[k], 5), dist, 5));
  }
  /* 3.3 each window of 2..6 ranks holding a tile; 3.4 each suit's pattern, counts capped at 2 */
  if (!plain_mode) {
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
      PUT(&O, 3_3, m * 2 + o->riichi);
      pa += a == m;
      pb += b == m;
      pc += e3 == m;
    }
    for (int a = 1; a < 3; a++)
      for (int b = a; b > 0 && r2[b - 1] > r2[b]; b--) {
        uint32_t t = r2[b]; r2[b] = r2[b - 1]; r2[b - 1] = t;
      }
    for (int g = 0; g < 3; g++) PUT(&O, 3_4, r2[g]);
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
          PUT(&O, 3_3, idx * 2 + o->riichi);
        }
      base += npat[n] * npos[n];
    }
  }
  for (int g = 0; plain_mode && g < 3; g++) {
    uint8_t v[9];
    for (int r = 0; r < 9; r++) v[r] = (uint8_t)imin(c[9 * g + r], 2);
    PUT(&O, 3_4, rof_pattern_rank(v, 9, 2));
  }
  int pairs2 = 0;
  for (int k = 0; k < TK_KINDS; k++) pairs2 += c[k] == 2;
  PUT(&O, 3_5, mr(mr(mr(0, o->ctriplets, 5), pairs2, 7), o->dead_pairs > 0, 2));
  PUT(&O, 3_6, o->has_chi ? 70 : mr(mr(mr(0, o->triplets, 5), pairs2, 7), o->dead_pairs > 0, 2));
  int tsh = o->sh_tanyao;
  if (!o->tanyao_ok) PUT(&O, 3_7, 2000);
  else {
    uint32_t v = mr(0, tsh, 5);
    v = mr(v, tsh - sh, 4);
    v = mr(v, o->tanyao_tiles - 9, 5);
    v = mr(v, calls, 5);
    v = mr(v, o->tanyao_pairs, 4);
    PUT(&O, 3_7, v);
  }
  {
    uint32_t v = mr(0, o->dora, 4);
    v = mr(v, o->tanyao_dora, 4);
    v = mr(v, tsh, 5);
    v = mr(v, tsh - sh, 4);
    v = mr(v, o->tanyao_ok, 2);
    PUT(&O, 3_8, v);
  }
  {
    uint32_t v = mr(0, o->tanyao_ok, 2);
    v = mr(v, o->chanta_ok, 2);
    v = mr(v, o->ukeire_yaochu, 4);
    v = mr(v, o->riichi, 2);
    v = mr(v, calls, 5);
    PUT(&O, 3_9, v);
  }
  PUT(&O, 3_10, mr(mr(mr(0, o->sanshoku_max, 10), sh, 14), calls, 5));
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
    PUT(&O, 3_11, v);
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
    PUT(&O, 3_12, v);
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
    PUT(&O, 3_13, v);
  }
  {
    uint32_t v = 0;
    for (int k = TK_EAST; k <= TK_NORTH; k++) v = mr(v, all[k], 4);
    PUT(&O, 3_14, v);
    v = 0;
    for (int k = TK_HAKU; k <= TK_CHUN; k++) v = mr(v, all[k], 4);
    PUT(&O, 3_15, v);
  }
  /* 3.16, 3.17 each wait */
  for (int i = 0; i < o->nwaits; i++) {
    int k = o->waits[i], han = o->wait_han[i];
    PUT(&O, 3_16, mr(mr(mr(0, o->wait_left[i], 4), han, 9), turn / 3, 7));
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
    PUT(&O, 3_17, v);
  }
  PUT(&O, 3_18, mr(mr(mr(mr(0, o->win_yaku, 10), o->win_noyaku, 6), calls, 5), o->special_form, 2));
  PUT(&O, 3_19, mr(mr(mr(0, sh == 1 ? o->ukeire : 0, 32), calls, 5), o->perfect, 3));
  /* 3.20 the sorted effective-tile counts of each 1, 2 and 3 of the four colours */
  {
    int u[4];
    for (int g = 0; g < 4; g++) u[g] = imin(o->ukeire_suit[g], 20);
    for (int a = 0; a < 4; a++) {
      PUT(&O, 3_20, (uint32_t)u[a]);
      for (int b = a + 1; b < 4; b++) {
        int lo = imin(u[a], u[b]), hi = u[a] + u[b] - lo;
        int b1 = hi + 1;
        PUT(&O, 3_20, 21u + (uint32_t)(b1 * (b1 - 1) / 2 + lo));
        for (int e = b + 1; e < 4; e++) {
          int t3[3] = {u[a], u[b], u[e]};
          for (int p = 1; p < 3; p++)
            for (int q = p; q > 0 && t3[q - 1] > t3[q]; q--) {
              int tmp = t3[q]; t3[q] = t3[q - 1]; t3[q - 1] = tmp;
            }
          int z = t3[2] + 2, y = t3[1] + 1;
          PUT(&O, 3_20, 21u + 231u + (uint32_t)(z * (z - 1) * (z - 2) / 6 + y * (y - 1) / 2 + t3[0]));
        }
      }
    }
  }

  if (plain_mode) qsort(f, (size_t)O.n, sizeof *f, cmp_u32);
  else {
    /* rows come in ascending offset order, so only a per-item row's own indices can be out of
     * order: an insertion sort does little work (the sorted list is the same either way) */
    for (int i = 1; i < O.n; i++) {
      uint32_t v = f[i];
      int j = i;
      for (; j > 0 && f[j - 1] > v; j--) f[j] = f[j - 1];
      f[j] = v;
    }
  }
  int m = 0;
  for (int i = 0; i < O.n; i++)
    if (!m || f[m - 1] != f[i]) f[m++] = f[i];
  return m;
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
