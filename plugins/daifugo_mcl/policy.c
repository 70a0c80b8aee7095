/* plugins/daifugo_mcl/policy.c — h (AP and NN) by the full feature list and by the per-position
 * scorer, and the rank-based draw of the playout policy (policy.h). */
#include "policy.h"

#include <math.h>
#include <string.h>

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

void dmcl_scorer_init(dmcl_scorer *s, const dmcl_model *md, const dmcl_pos *p) {
  s->md = md;
  s->p = p;
  s->have = 0;
  dmcl_hand_units(p->hand, DMCL_C_AFTER, s->before);
  if (md->learner == DMCL_NN) {
    for (int j = 0; j < md->hidden; j++) {
      const double *row = md->w + (size_t)j * DMCL_NN_ROW;
      double z = row[0];
      for (int i = 0; i < p->nfixed; i++) z += row[36 + p->fixed[i]];
      for (int i = 0; i < 14; i++) z += row[36 + s->before[i]];
      s->base[j] = z;
    }
  }
}

/* The columns 1..13 the move takes cards from (bit col), and whether it takes the joker. */
static uint32_t taken_cols(uint64_t cards) {
  uint64_t c = cards | cards >> 16 | cards >> 32 | cards >> 48;
  return (uint32_t)(c & TK_DAIFUGO_SUIT_LANE);
}

static int col_count(uint64_t hand, int col) {
  return (int)(hand >> col & 1) + (int)(hand >> (16 + col) & 1) + (int)(hand >> (32 + col) & 1) +
         (int)(hand >> (48 + col) & 1);
}

/* The C' unit of column col (1..13) for `hand`, at DMCL_C_AFTER. */
static int after_unit(uint64_t hand, int col) {
  int k = col_count(hand, col);
  return DMCL_C_AFTER + 3 * (col - 1) + (k > 2 ? 2 : k);
}

/* AP: base[b] for every B' unit b in `need` not yet computed. Each row's sum is taken in the one
 * order dmcl_scorer_rank_key uses (the fixed units, then the hand before), so the values are the
 * same bits; four rows at a time run as independent chains, which the processor overlaps. */
static void ap_bases(dmcl_scorer *s, uint64_t need) {
  need &= ~s->have;
  if (!need) return;
  const dmcl_pos *p = s->p;
  const double *w = s->md->w;
  uint8_t u[DMCL_MAX_FIXED + 14];
  int nu = 0;
  for (int k = 0; k < p->nfixed; k++) u[nu++] = p->fixed[k];
  for (int k = 0; k < 14; k++) u[nu++] = s->before[k];
  s->have |= need;
  int rows[DMCL_BP + 3], nr = 0;
  while (need) {
    rows[nr++] = __builtin_ctzll(need);
    need &= need - 1;
  }
  /* a short last group repeats its last row: the same value written twice */
  for (int i = nr; i % 4; i++) rows[i] = rows[nr - 1];
  for (int i = 0; i < nr; i += 4) {
    const double *r0 = w + rows[i] * DMCL_CP, *r1 = w + rows[i + 1] * DMCL_CP,
                 *r2 = w + rows[i + 2] * DMCL_CP, *r3 = w + rows[i + 3] * DMCL_CP;
    double z0 = 0, z1 = 0, z2 = 0, z3 = 0;
    for (int k = 0; k < nu; k++) {
      z0 += r0[u[k]];
      z1 += r1[u[k]];
      z2 += r2[u[k]];
      z3 += r3[u[k]];
    }
    s->base[rows[i]] = z0;
    s->base[rows[i + 1]] = z1;
    s->base[rows[i + 2]] = z2;
    s->base[rows[i + 3]] = z3;
  }
}

/* The key of a move whose B' units are b[0..nb), once the bases it needs are computed (AP) or
 * from s->base (NN). */
static double key_of(dmcl_scorer *s, const tk_daifugo_move *m, const uint8_t *b, int nb) {
  const dmcl_model *md = s->md;
  const dmcl_pos *p = s->p;
  uint64_t after = p->hand & ~m->cards;
  /* the C' units that change from the hand before to the hand after: (old, new) pairs */
  int old_u[14], new_u[14], nd = 0;
  uint32_t cols = taken_cols(m->cards & TK_DAIFUGO_REAL);
  while (cols) {
    int col = __builtin_ctz(cols);
    cols &= cols - 1;
    int o = s->before[col - 1], n = after_unit(after, col);
    if (o != n) old_u[nd] = o, new_u[nd++] = n;
  }
  if (m->cards & TK_DAIFUGO_JOKER) old_u[nd] = DMCL_C_AFTER + 40, new_u[nd++] = DMCL_C_AFTER + 39;
  if (md->learner == DMCL_AP) {
    double h = 0;
    for (int i = 0; i < nb; i++) {
      const double *row = md->w + b[i] * DMCL_CP;
      h += s->base[b[i]];
      for (int k = 0; k < nd; k++) h += row[new_u[k]] - row[old_u[k]];
    }
    return h;
  }
  double out = 0;
  for (int j = 0; j < md->hidden; j++) {
    const double *row = md->w + (size_t)j * DMCL_NN_ROW;
    double z = s->base[j];
    for (int i = 0; i < nb; i++) z += row[1 + b[i]];
    for (int k = 0; k < nd; k++) z += row[36 + new_u[k]] - row[36 + old_u[k]];
    out += row[DMCL_FEATURES] * sigmoid(z);
  }
  return out;
}

double dmcl_scorer_rank_key(dmcl_scorer *s, const tk_daifugo_move *m) {
  uint8_t b[DMCL_MAX_B];
  int nb = dmcl_move_b(s->p, m, b);
  if (s->md->learner == DMCL_AP) {
    uint64_t need = 0;
    for (int i = 0; i < nb; i++) need |= UINT64_C(1) << b[i];
    ap_bases(s, need);
  }
  return key_of(s, m, b, nb);
}

void dmcl_scorer_keys(dmcl_scorer *s, const tk_daifugo_move *m, int n, double *key) {
  uint8_t b[TK_DAIFUGO_MAX_LEGAL][DMCL_MAX_B];
  int nb[TK_DAIFUGO_MAX_LEGAL];
  uint64_t need = 0;
  for (int i = 0; i < n; i++) {
    nb[i] = dmcl_move_b(s->p, &m[i], b[i]);
    for (int k = 0; k < nb[i]; k++) need |= UINT64_C(1) << b[i][k];
  }
  if (s->md->learner == DMCL_AP) ap_bases(s, need);
  for (int i = 0; i < n; i++) key[i] = key_of(s, &m[i], b[i], nb[i]);
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

int dmcl_pick(const dmcl_policy *pol, const dmcl_pos *p, const tk_daifugo_move *m, int n,
              tk_rng *r) {
  if (n <= 1) return 0;
  if (pol->alpha >= 1) return (int)tk_rng_below(r, (uint32_t)n);
  int rank = dmcl_draw_rank(pol->alpha, n, r);
  double h[TK_DAIFUGO_MAX_LEGAL];
  dmcl_scorer s;
  dmcl_scorer_init(&s, &pol->md, p);
  dmcl_scorer_keys(&s, m, n, h);
  /* the value at position `rank` of the descending order: walk the distinct values down */
  double above = INFINITY;
  int pos = 0;
  for (;;) {
    double v = -INFINITY;
    int ties = 0;
    for (int i = 0; i < n; i++)
      if (h[i] < above) {
        if (h[i] > v) v = h[i], ties = 1;
        else if (h[i] == v) ties++;
      }
    if (ties == 0) return 0; /* not reached: rank < n */
    if (pos + ties > rank) {
      /* ties are ordered at random, so the move at `rank` is uniform among them */
      int t = ties > 1 ? (int)tk_rng_below(r, (uint32_t)ties) : 0;
      for (int i = 0; i < n; i++)
        if (h[i] == v && t-- == 0) return i;
    }
    pos += ties;
    above = v;
  }
}

void dmcl_policy_move(void *ctx, const tk_daifugo_game *g, tk_rng *r, tk_daifugo_move *out) {
  const dmcl_policy *pol = ctx;
  tk_daifugo_legal l;
  tk_daifugo_game_legal(g, &l);
  /* a[0] is the pass: left out on a new table (where something else is always legal), and with
   * no_pass whenever something else is legal */
  int first = (g->top.kind == TK_DAIFUGO_PASS || pol->no_pass) && l.n > 1 ? 1 : 0, n = l.n - first;
  if (pol->alpha >= 1 || n <= 1) {
    *out = l.a[first + (n > 1 ? (int)tk_rng_below(r, (uint32_t)n) : 0)];
    return;
  }
  dmcl_pos p;
  dmcl_pos_of_game(g, &p);
  *out = l.a[first + dmcl_pick(pol, &p, l.a + first, n, r)];
}
