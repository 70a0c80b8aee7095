/* plugins/daifugo_search/exchange.c — the learned exchange policy (exchange.h): the features of a
 * card to give, the linear score, the choice and the weights file. */
#include "exchange.h"

#include <string.h>

#include "taikai/weights.h"

#define COLS_MASK UINT64_C(0x0001000100010001) /* column 0 of each row */

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* Cards of column `col` (1..13) in `hand`. */
static int in_column(uint64_t hand, int col) { return popcount64(hand >> col & COLS_MASK); }

/* The run of `col` in the suit lane `lane` (bits 1..13): its lowest and highest column, or
 * lo > hi when `col` is not in the lane. */
static void run_of(uint32_t lane, int col, int *lo, int *hi) {
  *lo = col, *hi = col - 1;
  if (!(lane >> col & 1)) return;
  *hi = col;
  while (*lo > 1 && lane >> (*lo - 1) & 1) (*lo)--;
  while (*hi < 13 && lane >> (*hi + 1) & 1) (*hi)++;
}

static uint32_t lane_of(uint64_t hand, int row) {
  return (uint32_t)(hand >> (16 * row) & TK_DAIFUGO_SUIT_LANE);
}

/* Singles of `hand`: real cards alone in their column and in no run of 3+ of their suit. */
static int singles(uint64_t hand) {
  int n = 0;
  for (uint64_t h = hand & TK_DAIFUGO_REAL; h; h &= h - 1) {
    int bit = __builtin_ctzll(h), row = bit / 16, col = bit % 16, lo, hi;
    if (in_column(hand, col) != 1) continue;
    run_of(lane_of(hand, row), col, &lo, &hi);
    n += hi - lo + 1 < 3;
  }
  return n;
}

int dsx_features(uint64_t hand, uint64_t card, int *idx, double *val) {
  int k = 0;
#define PUT(i, x) (idx[k] = (i), val[k] = (x), k++)
  uint64_t after = hand & ~card;
  uint64_t cols = (hand | hand >> 16 | hand >> 32 | hand >> 48) & TK_DAIFUGO_SUIT_LANE;
  if (card == TK_DAIFUGO_JOKER) {
    PUT(DSX_F_COL + 13, 1);
    int ds = singles(after) - singles(hand);
    if (ds) PUT(DSX_F_SINGLES, ds);
    PUT(DSX_F_ORDER + 3, 1);
    return k;
  }
  int bit = __builtin_ctzll(card), row = bit / 16, col = bit % 16;
  int n = in_column(hand, col);
  int lo, hi;
  run_of(lane_of(hand, row), col, &lo, &hi);
  int run = hi - lo + 1;
  int below = popcount64(cols & ((UINT32_C(1) << col) - 1));
  PUT(DSX_F_COL + col - 1, 1);
  PUT(DSX_F_COL_N + 4 * (col - 1) + (n - 1), 1);
  PUT(DSX_F_N + n - 1, 1);
  PUT(DSX_F_RUN + (run < 5 ? run : 5) - 1, 1);
  if (run >= 3) {
    int left = col - lo, right = hi - col; /* the pieces left of it in A */
    PUT(left >= 3 || right >= 3 ? DSX_F_SHORTENS_SEQ : DSX_F_BREAKS_SEQ, 1);
  }
  int ds = singles(after) - singles(hand);
  if (ds) PUT(DSX_F_SINGLES, ds);
  if (after & TK_DAIFUGO_JOKER) PUT(DSX_F_N_JOKER + n - 1, 1);
  if (card == TK_DAIFUGO_CARD(0, 1)) PUT(DSX_F_S3, 1);
  if (card == TK_DAIFUGO_CARD(2, 1)) PUT(DSX_F_D3, 1);
  PUT(DSX_F_ORDER + (below < 3 ? below : 3), 1);
#undef PUT
  return k;
}

int dsx_role(const tk_daifugo_view *v) {
  if (v->player >= TK_DAIFUGO_PLAYERS || v->to_give == 0) return -1;
  int cls = v->cls[v->player];
  if (cls == 0) return v->to_give >= 2 ? DSX_ROLE_DAIFUGO_FIRST : DSX_ROLE_DAIFUGO_SECOND;
  return cls == 1 ? DSX_ROLE_FUGO : -1;
}

double dsx_score(const dsx_model *m, int role, uint64_t hand, uint64_t card) {
  int idx[DSX_MAX_ACTIVE];
  double val[DSX_MAX_ACTIVE];
  int n = dsx_features(hand, card, idx, val);
  const double *w = m->w + role * DSX_FEATURES;
  double s = 0;
  for (int i = 0; i < n; i++) s += w[idx[i]] * val[i];
  return s;
}

int dsx_weakness(uint64_t card) {
  if (card == TK_DAIFUGO_JOKER) return 4 * 14;
  int bit = __builtin_ctzll(card);
  return 4 * (bit % 16) + (3 - bit / 16);
}

int dsx_choose(const dsx_model *m, const tk_daifugo_view *v, const tk_daifugo_legal *l) {
  int role = dsx_role(v);
  if (role < 0 || l->n == 0 || l->decision != TK_DAIFUGO_DECIDE_EXCHANGE) return -1;
  int best = -1;
  double bs = 0;
  for (int i = 0; i < l->n; i++) {
    uint64_t c = l->a[i].cards;
    if (l->a[i].kind != TK_DAIFUGO_GIVE || popcount64(c) != 1 || !(v->hand & c)) continue;
    double s = dsx_score(m, role, v->hand, c);
    if (best < 0 || s > bs || (s == bs && dsx_weakness(c) < dsx_weakness(l->a[best].cards)))
      best = i, bs = s;
  }
  return best;
}

int dsx_load(const char *path, dsx_model *m, tk_error *err) {
  static const uint32_t shape[2] = {DSX_ROLES, DSX_FEATURES};
  tk_weights w;
  int rc = tk_weights_load(path, DSX_MODEL, DSX_FEATURE_VERSION, 2, shape, &w, err);
  if (rc) return rc;
  memcpy(m->w, w.values, sizeof m->w);
  tk_weights_free(&w);
  return 0;
}

int dsx_save(const char *path, const dsx_model *m, tk_error *err) {
  tk_weights w;
  memset(&w, 0, sizeof w);
  strncpy(w.model, DSX_MODEL, sizeof w.model - 1);
  w.feature_version = DSX_FEATURE_VERSION;
  w.ndims = 2;
  w.shape[0] = DSX_ROLES;
  w.shape[1] = DSX_FEATURES;
  w.count = DSX_ROLES * DSX_FEATURES;
  w.values = (double *)m->w;
  return tk_weights_save(path, &w, err);
}
