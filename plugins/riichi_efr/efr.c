/* plugins/riichi_efr/efr.c — the EFR model of efr.h: its features (efr_internal.h), its weights
 * file (format 1 dense, model "riichi_efr", shape [EFR_FEATURES, 4]) and its evaluation, which
 * allocates nothing and sums EFR_ACTIVE rows of four weights before a softmax. */
#include "efr_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/weights.h"

struct rm_efr {
  double *w; /* EFR_FEATURES × 4, feature-major */
};

const char *const efr_group_name[EFR_GROUPS] = {"diff", "phase",  "pooled", "bias", "sticks",
                                                "honba", "rank", "own",    "top"};

int efr_group_of(uint32_t f) {
  static const uint32_t start[EFR_GROUPS + 1] = {
      EFR_OFF_DIFF,  EFR_OFF_PHASE, EFR_OFF_POOLED, EFR_OFF_BIAS, EFR_OFF_STICKS,
      EFR_OFF_HONBA, EFR_OFF_RANK,  EFR_OFF_OWN,    EFR_OFF_TOP,  EFR_FEATURES};
  for (int g = 0; g < EFR_GROUPS; g++)
    if (f < start[g + 1]) return g;
  return -1;
}

void efr_features(const rm_efr_state *s, int seat, uint32_t f[EFR_ACTIVE]) {
  int dealer = s->round & 3, rel = (seat - dealer) & 3;
  uint32_t cell = (uint32_t)(efr_round_class(s->round) * 4 + rel);
  uint32_t phase = (uint32_t)((s->round >= 3) * 4 + rel);
  int32_t own = s->scores[seat];
  int rank = 0, top = 0;
  for (int j = 1; j <= 3; j++) {
    int o = (seat + j) & 3;
    int32_t opp = s->scores[o];
    uint32_t bin = (uint32_t)efr_diff_bin(own - opp), jj = (uint32_t)(j - 1);
    f[jj] = EFR_OFF_DIFF + (cell * 3 + jj) * EFR_BINS + bin;
    f[3 + jj] = EFR_OFF_PHASE + (phase * 3 + jj) * EFR_BINS + bin;
    f[6 + jj] = EFR_OFF_POOLED + ((uint32_t)rel * 3 + jj) * EFR_BINS + bin;
    rank += opp > own || (opp == own && o < seat); /* tk_riichi_ranks' tie rule */
    top |= opp >= 30000;
  }
  int own_bin = own < 0 ? 0 : own / 2500;
  if (own_bin >= EFR_OWN) own_bin = EFR_OWN - 1;
  int sticks = s->sticks < EFR_CAP ? s->sticks : EFR_CAP - 1;
  int honba = s->honba < EFR_CAP ? s->honba : EFR_CAP - 1;
  f[9] = EFR_OFF_BIAS + cell;
  f[10] = EFR_OFF_STICKS + cell * EFR_CAP + (uint32_t)sticks;
  f[11] = EFR_OFF_HONBA + cell * EFR_CAP + (uint32_t)honba;
  f[12] = EFR_OFF_RANK + cell * 4 + (uint32_t)rank;
  f[13] = EFR_OFF_OWN + cell * EFR_OWN + (uint32_t)own_bin;
  f[14] = EFR_OFF_TOP + cell * 2 + (uint32_t)top;
}

void efr_probs_of(const double *w, const uint32_t f[EFR_ACTIVE], double p[4]) {
  double z[4] = {0, 0, 0, 0};
  for (int k = 0; k < EFR_ACTIVE; k++) {
    const double *r = w + (size_t)f[k] * 4;
    z[0] += r[0], z[1] += r[1], z[2] += r[2], z[3] += r[3];
  }
  double m = z[0];
  for (int r = 1; r < 4; r++)
    if (z[r] > m) m = z[r];
  double sum = 0;
  for (int r = 0; r < 4; r++) sum += p[r] = exp(z[r] - m);
  for (int r = 0; r < 4; r++) p[r] /= sum;
}

int efr_from_values(const double *w, rm_efr **out, tk_error *err) {
  *out = NULL;
  rm_efr *m = malloc(sizeof *m);
  double *c = malloc((size_t)EFR_FEATURES * 4 * sizeof *c);
  if (!m || !c) {
    free(m), free(c);
    return tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
  }
  memcpy(c, w, (size_t)EFR_FEATURES * 4 * sizeof *c);
  m->w = c;
  *out = m;
  return 0;
}

const double *efr_values(const rm_efr *m) { return m->w; }

int rm_efr_load(const char *path, rm_efr **out, tk_error *err) {
  *out = NULL;
  const uint32_t shape[2] = {EFR_FEATURES, 4};
  tk_weights w;
  int rc = tk_weights_load(path, EFR_MODEL, EFR_FEATURE_VERSION, 2, shape, &w, err);
  if (rc) return rc;
  rm_efr *m = malloc(sizeof *m);
  if (!m) {
    tk_weights_free(&w);
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  }
  m->w = w.values; /* taken over from `w` */
  *out = m;
  return 0;
}

void rm_efr_free(rm_efr *m) {
  if (!m) return;
  free(m->w);
  free(m);
}

int efr_save(const char *path, const double *w, tk_error *err) {
  tk_weights tw;
  memset(&tw, 0, sizeof tw);
  snprintf(tw.model, sizeof tw.model, "%s", EFR_MODEL);
  tw.feature_version = EFR_FEATURE_VERSION;
  tw.ndims = 2;
  tw.shape[0] = EFR_FEATURES;
  tw.shape[1] = 4;
  tw.count = (size_t)EFR_FEATURES * 4;
  tw.values = (double *)w;
  return tk_weights_save(path, &tw, err);
}

void rm_efr_probs(const rm_efr *m, const rm_efr_state *s, int seat, double p[4]) {
  uint32_t f[EFR_ACTIVE];
  efr_features(s, seat & 3, f);
  efr_probs_of(m->w, f, p);
}

double rm_efr_value(const rm_efr *m, const rm_efr_state *s, int seat) {
  double p[4];
  rm_efr_probs(m, s, seat, p);
  return p[0] + 2 * p[1] + 3 * p[2] + 4 * p[3];
}

/* The end rules mirror the engine's end_hand (arenas/riichi/game.c) for the default rules:
 * east-only, return points 30,000, extension and agari-yame on. */
enum { LAST = 3, FINAL = 7, RETURN = 30000 };

int rm_efr_apply(rm_efr_state *s, const efr_hand *h) {
  int dealer = s->round & 3;
  for (int k = 0; k < 4; k++) s->scores[(dealer + k) & 3] += h->d[k];
  int win = h->kind == EFR_RON || h->kind == EFR_TSUMO;
  if (win) {
    int w = (dealer + h->winner) & 3;
    s->scores[w] += 1000 * s->sticks + 300 * s->honba;
    if (h->payer != 0xff) s->scores[(dealer + h->payer) & 3] -= 300 * s->honba;
    else
      for (int o = 0; o < 4; o++)
        if (o != w) s->scores[o] -= 100 * s->honba;
    s->sticks = 0;
  } else {
    s->sticks = (uint8_t)(s->sticks + h->nriichi);
  }
  uint8_t rank[4];
  tk_riichi_ranks(s->scores, rank);
  int bust = 0, reached = 0;
  for (int i = 0; i < 4; i++) {
    bust |= s->scores[i] < 0;
    reached |= s->scores[i] >= RETURN;
  }
  int over = bust;
  if (!over && s->round >= LAST) {
    if (h->renchan) over = h->yame && rank[dealer] == 1 && s->scores[dealer] >= RETURN;
    else over = reached || s->round >= FINAL;
  }
  if (over) {
    for (int i = 0; i < 4; i++)
      if (rank[i] == 1) s->scores[i] += 1000 * s->sticks;
    s->sticks = 0;
    return 1;
  }
  if (h->renchan) {
    s->honba++;
  } else {
    s->round++;
    s->honba = win ? 0 : (uint8_t)(s->honba + 1);
  }
  return 0;
}

static int32_t ceil100(int32_t x) { return (x + 99) / 100 * 100; }

efr_hand rm_efr_win(int han, int fu, int winner, int from) {
  int32_t base;
  if (han >= 13) base = 8000;
  else if (han >= 11) base = 6000;
  else if (han >= 8) base = 4000;
  else if (han >= 6) base = 3000;
  else if (han >= 5) base = 2000;
  else {
    base = fu << (han + 2);
    if (base > 2000) base = 2000;
  }
  efr_hand h;
  memset(&h, 0, sizeof h);
  h.winner = (uint8_t)winner;
  h.renchan = h.yame = winner == 0;
  if (from == winner) {
    h.kind = EFR_TSUMO;
    h.payer = 0xff;
    for (int k = 0; k < 4; k++)
      if (k != winner) {
        int32_t pay = ceil100(winner == 0 || k == 0 ? 2 * base : base);
        h.d[k] = -pay;
        h.d[winner] += pay;
      }
  } else {
    h.kind = EFR_RON;
    h.payer = (uint8_t)from;
    int32_t pay = ceil100((winner == 0 ? 6 : 4) * base);
    h.d[from] = -pay;
    h.d[winner] = pay;
  }
  return h;
}

double rm_efr_after(const rm_efr *m, const rm_efr_state *s, const efr_hand *h, int seat) {
  rm_efr_state x = *s;
  if (rm_efr_apply(&x, h)) {
    uint8_t rank[4];
    tk_riichi_ranks(x.scores, rank);
    return rank[seat & 3];
  }
  return rm_efr_value(m, &x, seat);
}

double rm_efr_game(const rm_efr *m, const tk_riichi_game *g, int seat) {
  if (g->phase == TK_RIICHI_PHASE_OVER) {
    tk_riichi_result r;
    tk_riichi_result_of(g, &r);
    return r.rank[seat & 3];
  }
  rm_efr_state s;
  memcpy(s.scores, g->scores, sizeof s.scores);
  s.round = g->round;
  s.honba = g->honba;
  s.sticks = g->sticks;
  return rm_efr_value(m, &s, seat);
}
