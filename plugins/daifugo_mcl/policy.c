/* plugins/daifugo_mcl/policy.c — h (AP and NN) by the full feature list and by the per-position
 * scorer, and the rank-based draw of the playout policy (policy.h). */
#include "policy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Four int32 lanes added at once. */
typedef int32_t v4i __attribute__((vector_size(16)));
static inline v4i ld4(const int32_t *p) {
  v4i x;
  memcpy(&x, p, sizeof x);
  return x;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

double dmcl_h(const dmcl_model *md, const dmcl_pos *p, const tk_daifugo_move *m) {
  uint8_t f[DMCL_MAX_ACTIVE];
  int nf = dmcl_features(p, m, f);
  if (md->learner == DMCL_AP) {
    double h = 0;
    for (int i = 0; i < nf; i++) {
      if (f[i] < 1 || f[i] > DMCL_BP) continue; /* a B' unit */
      int b = f[i] - 1;
      for (int j = 0; j < nf; j++)
        if (f[j] >= 1 + DMCL_BP) h += md->w[b * DMCL_CP + (f[j] - 1 - DMCL_BP)];
    }
    return h;
  }
  double out = 0;
  for (int j = 0; j < md->hidden; j++) {
    const double *row = md->w + (size_t)j * DMCL_NN_ROW;
    double z = 0;
    for (int i = 0; i < nf; i++) z += row[f[i]];
    out += row[DMCL_FEATURES] * sigmoid(z);
  }
  return sigmoid(out);
}

/* ---- the model */

/* The first row of each group of combined rows (policy.h). A column's code is min(cards, 2)
 * (features.h, dmcl_hand_codes) of the unseen cards (u) and of our hand (a). */
enum {
  T_PAIR = 0,     /* + 81 g + 27 u(c) + 9 a(c) + 3 u(c + 1) + a(c + 1), c = 2 g + 1, g 0..5 */
  T_LAST = 486,   /* + 4 (3 u(13) + a(13)) + 2 u(joker) + a(joker) */
  T_ME = 522,     /* + 7 (the passed mask, bit k: the k-th other after us) + our size bucket + 1 */
  T_SIZES01 = 634, /* + 7 bucket(sizes[0]) + bucket(sizes[1]) */
  T_SIZES23 = 683, /* + 7 bucket(sizes[2]) + bucket(sizes[3]) */
  T_TOP = 732,    /* + 14 (2 rev + new) + the table's column (0: none) */
  T_CHANGE = 788  /* + 3 (col - 1) + old + new - 1, a column's code going from old to new < old;
                     + 39 the joker's 1 to 0 */
};

/* A column's code from bit-sliced counts (dmcl_col_counts): 0, 1, 2+. */
static inline int code_at(uint32_t one, uint32_t two, int col) {
  return (int)((two >> col & 1) * 2 + (one >> col & 1));
}

/* The row of column group g (0..5: columns 2g+1, 2g+2; 6: column 13 and the joker) for the
 * unseen cards' counts (uo, ut, uj: joker unseen) and ours (ao, at, aj). */
static inline int group_row(int g, uint32_t uo, uint32_t ut, int uj, uint32_t ao, uint32_t at,
                            int aj) {
  if (g < 6) {
    int c = 2 * g + 1;
    return T_PAIR + 81 * g + 27 * code_at(uo, ut, c) + 9 * code_at(ao, at, c) +
           3 * code_at(uo, ut, c + 1) + code_at(ao, at, c + 1);
  }
  return T_LAST + 4 * (3 * code_at(uo, ut, 13) + code_at(ao, at, 13)) + 2 * uj + aj;
}

/* group_row's offset within a pair group (g < 6), 27 u(c) + 9 a(c) + 3 u(c + 1) + a(c + 1), from
 * an 8-bit index of the columns' bits: bits 0-1 (columns c, c + 1) of the unseen "two or more"
 * mask, 2-3 of the unseen "exactly one", 4-5 of our "two or more", 6-7 of our "exactly one". */
#define PR(i)                                                                                    \
  (54 * ((i) & 1) + 6 * ((i) >> 1 & 1) + 27 * ((i) >> 2 & 1) + 3 * ((i) >> 3 & 1) +             \
   18 * ((i) >> 4 & 1) + 2 * ((i) >> 5 & 1) + 9 * ((i) >> 6 & 1) + ((i) >> 7 & 1))
#define PR4(i) PR(i), PR(i + 1), PR(i + 2), PR(i + 3)
#define PR16(i) PR4(i), PR4(i + 4), PR4(i + 8), PR4(i + 12)
#define PR64(i) PR16(i), PR16(i + 16), PR16(i + 32), PR16(i + 48)
static const uint8_t PAIR_ROW[256] = {PR64(0), PR64(64), PR64(128), PR64(192)};
#undef PR64
#undef PR16
#undef PR4
#undef PR

/* The first rows of the six pair groups, rows[0..6), as group_row gives them: the four masks
 * packed in the 16-bit lanes of one word, each group's two columns shifted down to bits 0-1 of
 * every lane, and the four 2-bit fields gathered into the top byte by one multiplication (the
 * other partial products stay below bit 48, so nothing carries into it). */
static inline void pair_rows(uint32_t uo, uint32_t ut, uint32_t ao, uint32_t at, int rows[6]) {
  const uint64_t lanes = ut | (uint64_t)uo << 16 | (uint64_t)at << 32 | (uint64_t)ao << 48;
  const uint64_t low2 = UINT64_C(0x0003000300030003);
  const uint64_t gather = UINT64_C(1) << 56 | UINT64_C(1) << 42 | UINT64_C(1) << 28 | UINT64_C(1) << 14;
  for (int g = 0; g < 6; g++)
    rows[g] = T_PAIR + 81 * g + PAIR_ROW[((lanes >> (2 * g + 1) & low2) * gather) >> 56];
}

/* Adds C' unit c's integer weights (q, DMCL_BP x DMCL_CP) to combined row `row`. */
static void add_unit(int32_t *t, int row, const int64_t *q, int c) {
  for (int b = 0; b < DMCL_BP; b++) t[row * DMCL_T_STRIDE + b] += (int32_t)q[b * DMCL_CP + c];
}

/* Subtracts C' unit c's integer weights from combined row `row`. */
static void sub_unit(int32_t *t, int row, const int64_t *q, int c) {
  for (int b = 0; b < DMCL_BP; b++) t[row * DMCL_T_STRIDE + b] -= (int32_t)q[b * DMCL_CP + c];
}

/* The unit of column col (1..13, 14 the joker) with code k in the hand encoding at `base`. */
static int col_unit(int base, int col, int k) { return base + 3 * (col - 1) + k; }

static int ap_init(dmcl_model *md, const double *w) {
  double big = 0;
  for (int i = 0; i < DMCL_CROSSED; i++) {
    if (!isfinite(w[i])) return -1;
    if (fabs(w[i]) > big) big = fabs(w[i]);
  }
  /* big = f 2^e with f in [0.5, 1): big 2^(24 - e) < 2^24, so |q| <= 2^24 after rounding; a
   * combined row sums at most 6 of them and a base or key at most 8 x 46, far inside int32 and
   * int64, and every partial sum is exact in a double too. */
  int e = 0;
  if (big > 0) frexp(big, &e);
  md->k = 24 - e;
  md->unit = ldexp(1, -md->k);
  int64_t *q = malloc(sizeof *q * DMCL_CROSSED);
  md->own = malloc(sizeof *md->own * DMCL_CROSSED);
  md->t = calloc((size_t)DMCL_T_ROWS * DMCL_T_STRIDE, sizeof *md->t);
  if (!q || !md->own || !md->t) {
    free(q);
    return -1;
  }
  for (int i = 0; i < DMCL_CROSSED; i++) {
    q[i] = llround(ldexp(w[i], md->k));
    md->own[i] = ldexp((double)q[i], -md->k);
  }
  md->w = md->own;
  int32_t *t = md->t;
  /* every combination of codes, as the counts that give it */
  for (int g = 0; g < 7; g++)
    for (int code = 0; code < (g < 6 ? 81 : 36); code++) {
      int c = 2 * g + 1, u1, a1, u2, a2;
      if (g < 6) u1 = code / 27, a1 = code / 9 % 3, u2 = code / 3 % 3, a2 = code % 3;
      else u1 = code / 12, a1 = code / 4 % 3, u2 = code / 2 % 2, a2 = code % 2; /* c 13, joker */
      uint32_t uo = (uint32_t)(u1 == 1) << c, ut = (uint32_t)(u1 == 2) << c;
      uint32_t ao = (uint32_t)(a1 == 1) << c, at = (uint32_t)(a1 == 2) << c;
      if (g < 6) {
        uo |= (uint32_t)(u2 == 1) << (c + 1), ut |= (uint32_t)(u2 == 2) << (c + 1);
        ao |= (uint32_t)(a2 == 1) << (c + 1), at |= (uint32_t)(a2 == 2) << (c + 1);
      }
      int row = group_row(g, uo, ut, g < 6 ? 0 : u2, ao, at, g < 6 ? 0 : a2);
      add_unit(t, row, q, col_unit(DMCL_C_UNSEEN, c, u1));
      add_unit(t, row, q, col_unit(DMCL_C_AFTER, c, a1));
      add_unit(t, row, q, col_unit(DMCL_C_UNSEEN, c + 1, u2)); /* c + 1 = 14: the joker */
      add_unit(t, row, q, col_unit(DMCL_C_AFTER, c + 1, a2));
    }
  for (int mask = 0; mask < 16; mask++)
    for (int mb = 0; mb < 7; mb++) {
      int row = T_ME + 7 * mask + mb, n = 0;
      for (int k = 0; k < 4; k++) {
        add_unit(t, row, q, DMCL_C_PASSED + 2 * k + (mask >> k & 1));
        n += mask >> k & 1;
      }
      add_unit(t, row, q, DMCL_C_NFP + n);
      if (mb) add_unit(t, row, q, DMCL_C_MYSIZE + mb - 1);
    }
  for (int b0 = 0; b0 < 7; b0++)
    for (int b1 = 0; b1 < 7; b1++) {
      add_unit(t, T_SIZES01 + 7 * b0 + b1, q, DMCL_C_SIZES + b0);
      add_unit(t, T_SIZES01 + 7 * b0 + b1, q, DMCL_C_SIZES + 7 + b1);
      add_unit(t, T_SIZES23 + 7 * b0 + b1, q, DMCL_C_SIZES + 14 + b0);
      add_unit(t, T_SIZES23 + 7 * b0 + b1, q, DMCL_C_SIZES + 21 + b1);
    }
  for (int rev = 0; rev < 2; rev++)
    for (int isnew = 0; isnew < 2; isnew++)
      for (int col = 0; col <= 13; col++) {
        int row = T_TOP + 14 * (2 * rev + isnew) + col;
        add_unit(t, row, q, DMCL_C_REVNOW + rev);
        add_unit(t, row, q, DMCL_C_NEW + isnew);
        if (col) add_unit(t, row, q, DMCL_C_TABLE + col - 1);
      }
  for (int col = 1; col <= 13; col++)
    for (int old = 1; old <= 2; old++)
      for (int now = 0; now < old; now++) {
        int row = T_CHANGE + 3 * (col - 1) + old + now - 1;
        add_unit(t, row, q, col_unit(DMCL_C_AFTER, col, now));
        sub_unit(t, row, q, col_unit(DMCL_C_AFTER, col, old));
      }
  add_unit(t, T_CHANGE + 39, q, col_unit(DMCL_C_AFTER, 14, 0));
  sub_unit(t, T_CHANGE + 39, q, col_unit(DMCL_C_AFTER, 14, 1));
  free(q);
  return 0;
}

int dmcl_model_init(dmcl_model *md, int learner, int hidden, const double *w) {
  memset(md, 0, sizeof *md);
  md->learner = learner;
  if (learner == DMCL_NN) {
    md->hidden = hidden;
    md->w = w;
    return 0;
  }
  if (ap_init(md, w)) {
    dmcl_model_free(md);
    return -1;
  }
  return 0;
}

void dmcl_model_free(dmcl_model *md) {
  free(md->own);
  free(md->t);
  memset(md, 0, sizeof *md);
}

/* ---- the scorer */

void dmcl_scorer_init(dmcl_scorer *s, const dmcl_model *md, const dmcl_pos *p) {
  s->md = md;
  s->p = p;
  if (md->learner == DMCL_NN) {
    dmcl_hand_units(p->hand, DMCL_C_AFTER, s->before);
    for (int j = 0; j < md->hidden; j++) {
      const double *row = md->w + (size_t)j * DMCL_NN_ROW;
      double z = row[0];
      for (int i = 0; i < p->nfixed; i++) z += row[36 + p->fixed[i]];
      for (int i = 0; i < 14; i++) z += row[36 + s->before[i]];
      s->nbase[j] = z;
    }
    return;
  }
  uint32_t uo, ut;
  dmcl_col_counts(p->hand, &s->hone, &s->htwo);
  dmcl_col_counts(p->unseen, &uo, &ut);
  int uj = (p->unseen & TK_DAIFUGO_JOKER) != 0, aj = (p->hand & TK_DAIFUGO_JOKER) != 0;
  int rows[11], n = 7;
  pair_rows(uo, ut, s->hone, s->htwo, rows);
  rows[6] = group_row(6, uo, ut, uj, s->hone, s->htwo, aj);
  rows[n++] = T_ME + 7 * (p->passed[0] | p->passed[1] << 1 | p->passed[2] << 2 | p->passed[3] << 3) +
              1 + dmcl_my_bucket(p->mysize);
  rows[n++] = T_SIZES01 + 7 * dmcl_other_bucket(p->sizes[0]) + dmcl_other_bucket(p->sizes[1]);
  rows[n++] = T_SIZES23 + 7 * dmcl_other_bucket(p->sizes[2]) + dmcl_other_bucket(p->sizes[3]);
  rows[n++] = T_TOP + 14 * (2 * (p->rev != 0) + (p->top.kind == TK_DAIFUGO_PASS)) +
              dmcl_rank_col(&p->top, p->rev);
  /* 11 rows of 36 lanes: nine sums of four lanes each, all kept in vector registers across the
   * rows (GCC and Clang vector types; SSE2 on baseline x86-64) */
  v4i z0 = {0}, z1 = {0}, z2 = {0}, z3 = {0}, z4 = {0}, z5 = {0}, z6 = {0}, z7 = {0}, z8 = {0};
  for (int i = 0; i < n; i++) {
    const int32_t *r = md->t + rows[i] * DMCL_T_STRIDE;
    z0 += ld4(r), z1 += ld4(r + 4), z2 += ld4(r + 8), z3 += ld4(r + 12), z4 += ld4(r + 16);
    z5 += ld4(r + 20), z6 += ld4(r + 24), z7 += ld4(r + 28), z8 += ld4(r + 32);
  }
  const v4i z[DMCL_T_STRIDE / 4] = {z0, z1, z2, z3, z4, z5, z6, z7, z8};
  memcpy(s->base, z, sizeof z);
}

/* The columns 1..13 the move takes cards from (bit col). */
static uint32_t taken_cols(uint64_t cards) {
  uint64_t c = cards | cards >> 16 | cards >> 32 | cards >> 48;
  return (uint32_t)(c & TK_DAIFUGO_SUIT_LANE);
}

static int col_count(uint64_t hand, int col) {
  return (int)(hand >> col & 1) + (int)(hand >> (16 + col) & 1) + (int)(hand >> (32 + col) & 1) +
         (int)(hand >> (48 + col) & 1);
}

/* AP: the key of a move whose B' units are b[0..nb), in units of 2^-k: the bases, and for each
 * column the play changes our code in, the change's row (its new unit's weights minus its old's). */
DMCL_HOT_INLINE int64_t ap_key(const dmcl_scorer *s, const tk_daifugo_move *m, const uint8_t *b, int nb) {
  int64_t h = 0;
  for (int i = 0; i < nb; i++) h += s->base[b[i]];
  uint64_t after = s->p->hand & ~m->cards;
  /* only our code of each column the play takes from can change (a small table, unlike the
   * combined rows) */
  const int32_t *tc = s->md->t + T_CHANGE * DMCL_T_STRIDE;
  uint32_t cols = taken_cols(m->cards & TK_DAIFUGO_REAL);
  while (cols) {
    int col = __builtin_ctz(cols);
    cols &= cols - 1;
    int k = col_count(after, col), o = code_at(s->hone, s->htwo, col);
    k = k > 2 ? 2 : k;
    if (k == o) continue;
    const int32_t *d = tc + (3 * (col - 1) + o + k - 1) * DMCL_T_STRIDE;
    for (int i = 0; i < nb; i++) h += d[b[i]];
  }
  if (m->cards & TK_DAIFUGO_JOKER) {
    const int32_t *d = tc + 39 * DMCL_T_STRIDE;
    for (int i = 0; i < nb; i++) h += d[b[i]];
  }
  return h;
}

/* NN: the output unit's input for a move whose B' units are b[0..nb). */
static double nn_key(const dmcl_scorer *s, const tk_daifugo_move *m, const uint8_t *b, int nb) {
  const dmcl_model *md = s->md;
  uint64_t after = s->p->hand & ~m->cards;
  /* the C' units that change from the hand before to the hand after: (old, new) pairs */
  int old_u[14], new_u[14], nd = 0;
  uint32_t cols = taken_cols(m->cards & TK_DAIFUGO_REAL);
  while (cols) {
    int col = __builtin_ctz(cols);
    cols &= cols - 1;
    int k = col_count(after, col);
    int o = s->before[col - 1], n = DMCL_C_AFTER + 3 * (col - 1) + (k > 2 ? 2 : k);
    if (o != n) old_u[nd] = o, new_u[nd++] = n;
  }
  if (m->cards & TK_DAIFUGO_JOKER) old_u[nd] = DMCL_C_AFTER + 40, new_u[nd++] = DMCL_C_AFTER + 39;
  double out = 0;
  for (int j = 0; j < md->hidden; j++) {
    const double *row = md->w + (size_t)j * DMCL_NN_ROW;
    double z = s->nbase[j];
    for (int i = 0; i < nb; i++) z += row[1 + b[i]];
    for (int k = 0; k < nd; k++) z += row[36 + new_u[k]] - row[36 + old_u[k]];
    out += row[DMCL_FEATURES] * sigmoid(z);
  }
  return out;
}

double dmcl_scorer_rank_key(dmcl_scorer *s, const tk_daifugo_move *m) {
  uint8_t b[DMCL_MAX_B];
  int nb = dmcl_move_b(s->p, m, b);
  if (s->md->learner == DMCL_AP) return (double)ap_key(s, m, b, nb) * s->md->unit;
  return nn_key(s, m, b, nb);
}

void dmcl_scorer_keys(dmcl_scorer *s, const tk_daifugo_move *m, int n, double *key) {
  for (int i = 0; i < n; i++) key[i] = dmcl_scorer_rank_key(s, &m[i]);
}

double dmcl_rank_prob(double alpha, int k, int i) {
  if (k < 1 || i < 1 || i > k) return 0;
  if (alpha <= 0) return i == 1;
  if (alpha >= 1) return 1.0 / k;
  return pow(alpha, i - 1) * (1 - alpha) / (1 - pow(alpha, k));
}

/* x^k by squaring (faster than pow for the small k here). */
static double ipow(double x, int k) {
  double y = 1;
  for (; k; k >>= 1, x *= x)
    if (k & 1) y *= x;
  return y;
}

int dmcl_draw_rank(double alpha, int k, tk_rng *r) {
  if (k <= 1 || alpha <= 0) return 0;
  if (alpha >= 1) return (int)tk_rng_below(r, (uint32_t)k);
  /* weights alpha^i, i = 0..k-1, their total (1 - alpha^k) / (1 - alpha) */
  double u = tk_rng_double(r) * (1 - ipow(alpha, k)) / (1 - alpha), w = 1;
  int i = 0;
  while (i < k - 1 && u >= w) u -= w, w *= alpha, i++;
  return i;
}

/* The index of the key at position `rank` (0-based) of the descending order of h[0..n), ties
 * ordered at random: the distinct values are walked down until the one covering `rank`. One
 * body for AP's integer keys and NN's doubles (the same order and ties as AP's keys in doubles,
 * which are exact). */
#define WALK(T, TOP, BOTTOM)                                                                     \
  do {                                                                                           \
    T above = TOP;                                                                               \
    int pos = 0;                                                                                 \
    for (;;) {                                                                                   \
      T v = BOTTOM;                                                                              \
      int ties = 0;                                                                              \
      for (int i = 0; i < n; i++)                                                                \
        if (h[i] < above) {                                                                      \
          if (h[i] > v) v = h[i], ties = 1;                                                      \
          else if (h[i] == v) ties++;                                                            \
        }                                                                                        \
      if (ties == 0) return 0; /* not reached: rank < n */                                       \
      if (pos + ties > rank) {                                                                   \
        /* ties are ordered at random, so the move at `rank` is uniform among them */           \
        int t = ties > 1 ? (int)tk_rng_below(r, (uint32_t)ties) : 0;                             \
        for (int i = 0; i < n; i++)                                                              \
          if (h[i] == v && t-- == 0) return i;                                                   \
      }                                                                                          \
      pos += ties;                                                                               \
      above = v;                                                                                 \
    }                                                                                            \
  } while (0)

static int walk_i64(const int64_t *h, int n, int rank, tk_rng *r) { WALK(int64_t, INT64_MAX, INT64_MIN); }
static int walk_f64(const double *h, int n, int rank, tk_rng *r) { WALK(double, INFINITY, -INFINITY); }
#undef WALK

int dmcl_pick(const dmcl_policy *pol, const dmcl_pos *p, const tk_daifugo_move *m, int n,
              tk_rng *r) {
  if (n <= 1) return 0;
  if (pol->alpha >= 1) return (int)tk_rng_below(r, (uint32_t)n);
  int rank = dmcl_draw_rank(pol->alpha, n, r);
  dmcl_scorer s;
  dmcl_scorer_init(&s, &pol->md, p);
  if (pol->md.learner == DMCL_AP) {
    /* |key| <= 8 x 46 x 2^24 < 2^33 (ap_init): never the sentinels */
    int64_t h[TK_DAIFUGO_MAX_LEGAL];
    for (int i = 0; i < n; i++) {
      uint8_t b[DMCL_MAX_B];
      int nb = dmcl_move_b(p, &m[i], b);
      h[i] = ap_key(&s, &m[i], b, nb);
    }
    return walk_i64(h, n, rank, r);
  }
  double h[TK_DAIFUGO_MAX_LEGAL];
  dmcl_scorer_keys(&s, m, n, h);
  return walk_f64(h, n, rank, r);
}

void dmcl_policy_move(void *ctx, const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *out) {
  const dmcl_policy *pol = ctx;
  /* the pass forced (about half the calls of a playout): the list's only action, no draw */
  if (!tk_daifugo_game_can_play(g)) {
    *out = (tk_daifugo_move){.kind = TK_DAIFUGO_PASS, .jcell = TK_DAIFUGO_NOCELL};
    return;
  }
  tk_daifugo_legal l;
  tk_daifugo_game_legal(g, &l);
  if (pol->finish) { /* going out now: the first such play of the list */
    uint64_t hand = g->hand[g->turn];
    for (int i = 0; i < l.n; i++)
      if (l.a[i].kind != TK_DAIFUGO_PASS && l.a[i].cards == hand) {
        *out = l.a[i];
        return;
      }
  }
  /* a[0] is the pass: left out on a new table (where something else is always legal), and with
   * no_pass whenever something else is legal */
  int first = (g->top.kind == TK_DAIFUGO_PASS || pol->no_pass) && l.n > 1 ? 1 : 0, n = l.n - first;
  if (pol->alpha >= 1 || n <= 1) {
    *out = l.a[first + (n > 1 ? (int)tk_rng_below(r, (uint32_t)n) : 0)];
    return;
  }
  dmcl_pos p;
  if (pol->md.learner == DMCL_AP) dmcl_pos_of_game_core(g, &p);
  else dmcl_pos_of_game(g, &p);
  *out = l.a[first + dmcl_pick(pol, &p, l.a + first, n, r)];
}
