/* plugins/riichi_score/score.c — Score(x) and Penalty(z) (score.h). */
#include "score.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/rng.h"
#include "taikai/weights.h"

static int same_outcome(const efr_hand *a, const efr_hand *b) {
  return !memcmp(a->d, b->d, sizeof a->d) && a->kind == b->kind && a->winner == b->winner &&
         a->payer == b->payer && a->nriichi == b->nriichi && a->renchan == b->renchan &&
         a->yame == b->yame;
}

/* The outcome with round and game cleared and the fields a kind does not use normalised. */
static efr_hand key_of(const efr_hand *h) {
  efr_hand k;
  memset(&k, 0, sizeof k);
  memcpy(k.d, h->d, sizeof k.d);
  k.kind = h->kind;
  int win = h->kind == EFR_RON || h->kind == EFR_TSUMO;
  k.winner = win ? h->winner : 0;
  k.payer = win ? h->payer : 0;
  k.nriichi = h->nriichi;
  k.renchan = h->renchan;
  k.yame = h->yame;
  return k;
}

int rs_penalty_build(const efr_hand *hands, size_t n, rs_penalty *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  out->h = malloc((n ? n : 1) * sizeof *out->h);
  out->count = malloc((n ? n : 1) * sizeof *out->count);
  size_t cap = 1;
  while (cap < 2 * n + 2) cap <<= 1;
  int64_t *slot = malloc(cap * sizeof *slot); /* open addressing over the distinct outcomes */
  if (!out->h || !out->count || !slot) {
    free(slot);
    rs_penalty_free(out);
    return tk_error_set(err, TK_ENOMEM, -1, "penalty table: out of memory");
  }
  for (size_t i = 0; i < cap; i++) slot[i] = -1;
  for (size_t i = 0; i < n; i++) {
    efr_hand k = key_of(&hands[i]);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int j = 0; j < 4; j++) x = tk_mix64(x ^ (uint32_t)k.d[j]);
    x = tk_mix64(x ^ ((uint64_t)k.kind << 32 | (uint64_t)k.winner << 24 | (uint64_t)k.payer << 16 |
                      (uint64_t)k.nriichi << 8 | (uint64_t)(k.renchan * 2 + k.yame)));
    size_t s = x & (cap - 1);
    while (slot[s] >= 0 && !same_outcome(&out->h[slot[s]], &k)) s = (s + 1) & (cap - 1);
    if (slot[s] < 0) {
      slot[s] = (int64_t)out->n;
      out->h[out->n] = k;
      out->count[out->n++] = 0;
    }
    out->count[slot[s]]++;
    out->total++;
  }
  free(slot);
  return 0;
}

void rs_penalty_free(rs_penalty *p) {
  if (!p) return;
  free(p->h);
  free(p->count);
  memset(p, 0, sizeof *p);
}

int rs_penalty_save(const char *path, const rs_penalty *p, tk_error *err) {
  tk_weights w;
  memset(&w, 0, sizeof w);
  snprintf(w.model, sizeof w.model, "%s", RS_PENALTY_MODEL);
  w.feature_version = RS_PENALTY_VERSION;
  w.ndims = 2;
  w.shape[0] = (uint32_t)p->n;
  w.shape[1] = RS_PENALTY_COLS;
  w.count = p->n * RS_PENALTY_COLS;
  w.values = malloc((w.count ? w.count : 1) * sizeof *w.values);
  if (!w.values) return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  for (size_t i = 0; i < p->n; i++) {
    double *r = w.values + i * RS_PENALTY_COLS;
    const efr_hand *h = &p->h[i];
    for (int j = 0; j < 4; j++) r[j] = h->d[j];
    r[4] = h->kind, r[5] = h->winner, r[6] = h->payer, r[7] = h->nriichi;
    r[8] = h->renchan, r[9] = h->yame, r[10] = p->count[i];
  }
  int rc = tk_weights_save(path, &w, err);
  free(w.values);
  return rc;
}

int rs_penalty_load(const char *path, rs_penalty *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  static const char *const col[RS_PENALTY_COLS] = {"d0", "d1", "d2", "d3", "kind", "winner",
                                                   "payer", "nriichi", "renchan", "yame",
                                                   "count"};
  static const double lo[RS_PENALTY_COLS] = {-200000, -200000, -200000, -200000, 0, 0, 0, 0, 0,
                                             0, 1};
  static const double hi[RS_PENALTY_COLS] = {200000, 200000, 200000, 200000, 3, 3, 255, 4, 1, 1,
                                             4294967295.0};
  const uint32_t shape[2] = {TK_WEIGHTS_ANY, RS_PENALTY_COLS};
  tk_weights w;
  int rc = tk_weights_load(path, RS_PENALTY_MODEL, RS_PENALTY_VERSION, 2, shape, &w, err);
  if (rc) return rc;
  if (w.shape[0] == 0) {
    tk_weights_free(&w);
    return tk_error_set(err, TK_EPARSE, -1, "%s: the penalty table holds no outcome", path);
  }
  out->n = w.shape[0];
  out->h = calloc(out->n, sizeof *out->h);
  out->count = calloc(out->n, sizeof *out->count);
  if (!out->h || !out->count) {
    tk_weights_free(&w);
    rs_penalty_free(out);
    return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  }
  for (size_t i = 0; i < out->n; i++) {
    const double *r = w.values + i * RS_PENALTY_COLS;
    for (int j = 0; j < RS_PENALTY_COLS; j++) {
      int bad = r[j] != floor(r[j]) || r[j] < lo[j] || r[j] > hi[j];
      if (j == 6 && !bad) bad = r[j] > 3 && r[j] != 255;
      if (bad) {
        double v = r[j];
        tk_weights_free(&w);
        rs_penalty_free(out);
        return tk_error_set(err, TK_EPARSE, -1,
                            "%s: row %zu, column %s = %g: not a whole number in [%g, %g]%s", path,
                            i, col[j], v, lo[j], hi[j], j == 6 ? " (or 255: a tsumo)" : "");
      }
    }
    efr_hand *h = &out->h[i];
    for (int j = 0; j < 4; j++) h->d[j] = (int32_t)r[j];
    h->kind = (uint8_t)r[4], h->winner = (uint8_t)r[5], h->payer = (uint8_t)r[6];
    h->nriichi = (uint8_t)r[7], h->renchan = (uint8_t)r[8], h->yame = (uint8_t)r[9];
    out->count[i] = (uint32_t)r[10];
    out->total += out->count[i];
  }
  tk_weights_free(&w);
  return 0;
}

static int won_by(const efr_hand *h, int rel) {
  return (h->kind == EFR_RON || h->kind == EFR_TSUMO) && h->winner == rel;
}

double rs_penalty_value(const rs_penalty *p, const rm_efr *m, const rm_efr_state *z, int seat) {
  if (!p) {
    efr_hand none;
    memset(&none, 0, sizeof none);
    none.kind = EFR_DRAW;
    return rm_efr_after(m, z, &none, seat);
  }
  int rel = (seat - z->round) & 3;
  double sum = 0, n = 0;
  for (size_t i = 0; i < p->n; i++) {
    if (won_by(&p->h[i], rel)) continue;
    sum += p->count[i] * rm_efr_after(m, z, &p->h[i], seat);
    n += p->count[i];
  }
  return n > 0 ? sum / n : rs_penalty_value(NULL, m, z, seat);
}

void rs_penalty_stats_of(const rs_penalty *p, int rel, rs_penalty_stats *out) {
  memset(out, 0, sizeof *out);
  double n = 0;
  for (size_t i = 0; i < p->n; i++) {
    const efr_hand *h = &p->h[i];
    if (won_by(h, rel)) continue;
    double c = p->count[i];
    n += c;
    if (h->kind == EFR_TSUMO) out->opp_tsumo += c;
    else if (h->kind == EFR_RON && h->payer == rel) out->dealin += c;
    else if (h->kind == EFR_RON) out->opp_ron_other += c;
    else if (h->kind == EFR_DRAW) out->draw += c;
    else out->abort += c;
    out->mean_own += c * h->d[rel];
  }
  out->hands = (uint64_t)n;
  if (n > 0) {
    out->opp_tsumo /= n, out->dealin /= n, out->opp_ron_other /= n, out->draw /= n;
    out->abort /= n, out->mean_own /= n;
  }
}

void rs_situation_of(const rm_efr *m, const rs_penalty *p, const rm_efr_state *z, int seat,
                     int fu, rs_situation *out) {
  int rel = (seat - z->round) & 3;
  for (int han = 1; han <= 4; han++)
    for (int j = 0; j < 4; j++) {
      int from = j < 3 ? (rel + j + 1) & 3 : rel;
      efr_hand h = rm_efr_win(han, fu, rel, from);
      out->win[han - 1][j] = rm_efr_after(m, z, &h, seat);
    }
  out->penalty = rs_penalty_value(p, m, z, seat);
}

void rs_han_probs(int kind, const double o[5], double P[5]) {
  if (kind == RS_MCP) {
    memcpy(P, o, 5 * sizeof *P);
    return;
  }
  P[0] = 1 - o[1];
  for (int i = 1; i <= 4; i++) P[i] = o[i] - (i < 4 ? o[i + 1] : 0);
  if (kind == RS_BCP_CLAMPED) {
    double s = 0;
    for (int i = 0; i <= 4; i++) s += P[i] = P[i] > 0 ? P[i] : 0;
    for (int i = 0; i <= 4; i++) P[i] = s > 0 ? P[i] / s : (i == 0);
  }
}

double rs_score(const rs_situation *s, const double P[5]) {
  double v = P[0] * s->penalty;
  for (int i = 1; i <= 4; i++)
    v += P[i] * 0.25 * (s->win[i - 1][0] + s->win[i - 1][1] + s->win[i - 1][2] + s->win[i - 1][3]);
  return v;
}

void rs_state_of_view(const tk_riichi_view *v, rm_efr_state *z) {
  memcpy(z->scores, v->scores, sizeof z->scores);
  z->round = v->round;
  z->honba = v->honba;
  z->sticks = v->sticks;
}
