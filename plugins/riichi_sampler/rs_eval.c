/* plugins/riichi_sampler/rs_eval.c — the metrics of rs_eval.h: truths, predictions counted from
 * samples, the shanten error, reliability tables, cross-fitted Platt scaling. No I/O. */
#include "rs_eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rsamp.h"
#include "taikai/mahjong.h"

int rs_hand_answer(const uint8_t c[TK_KINDS], int *shanten, uint64_t *waits) {
  int n = tk_counts_total(c);
  if (n % 3 != 1 || n > 13) return TK_EINVAL;
  int s = tk_shanten(c); /* every form; 7 pairs and 13 orphans only at 13 tiles (mahjong.h) */
  if (s < 0) return TK_EINVAL;
  *shanten = s < RS_SHANTEN_N - 1 ? s : RS_SHANTEN_N - 1;
  *waits = s == 0 ? tk_waits(c) : 0;
  return 0;
}

int rs_truth_of(const tk_riichi_game *g, int viewer, rs_truth *out) {
  for (int o = 0; o < 3; o++) {
    int s = rs_seat_of(viewer, o + 1);
    if (rs_hand_answer(g->p[s].hand, &out->shanten[o], &out->waits[o])) return TK_EINVAL;
  }
  return 0;
}

int rs_pred_from_games(const tk_riichi_game *games, int k, int viewer, rs_pred *out,
                       tk_error *err) {
  memset(out, 0, sizeof *out);
  if (k <= 0) return tk_error_set(err, TK_EINVAL, -1, "no sample");
  double w = 1.0 / k;
  for (int i = 0; i < k; i++)
    for (int o = 0; o < 3; o++) {
      int s = rs_seat_of(viewer, o + 1), sh;
      uint64_t wt;
      if (rs_hand_answer(games[i].p[s].hand, &sh, &wt))
        return tk_error_set(err, TK_EINVAL, -1, "sample %d: seat %d holds %d concealed tiles, "
                            "not 3k+1", i, s, tk_counts_total(games[i].p[s].hand));
      out->shanten[o][sh] += w;
      for (; wt; wt &= wt - 1) out->wait[o][__builtin_ctzll(wt)] += w;
    }
  return 0;
}

double rs_shanten_rms(const double p[RS_SHANTEN_N], int truth) {
  double m = 0;
  for (int s = 0; s < RS_SHANTEN_N; s++) m += p[s] * (double)(s - truth) * (s - truth);
  return sqrt(m);
}

static int push_pair(rs_eval_acc *a, double p, int y, int fold) {
  if (a->npairs == a->cap) {
    size_t c = a->cap ? 2 * a->cap : 1 << 14;
    rs_calib_pair *q = realloc(a->pairs, c * sizeof *q);
    if (!q) return TK_ENOMEM;
    a->pairs = q, a->cap = c;
  }
  a->pairs[a->npairs++] = (rs_calib_pair){(float)p, (uint8_t)y, (uint8_t)fold};
  return 0;
}

int rs_eval_add(rs_eval_acc *a, const rs_pred *p, const rs_truth *t, int turn, int fold) {
  int b = turn < 1 ? 0 : turn > RS_TURNS ? RS_TURNS - 1 : turn - 1;
  for (int o = 0; o < 3; o++) {
    double e = rs_shanten_rms(p->shanten[o], t->shanten[o]);
    for (int j = 0; j < 2; j++) {
      int i = j ? 3 : o; /* the opponent's own entry and the pooled one */
      a->sum_e[i] += e, a->sum_e2[i] += e * e, a->npos[i]++;
    }
    a->tenpai_pred[o] += p->shanten[o][0];
    a->tenpai_true[o] += t->shanten[o] == 0;
    for (int s = 0; s < RS_SHANTEN_N; s++)
      a->turn_pred[b][s < RS_TURN_CLASSES ? s : RS_TURN_CLASSES - 1] += p->shanten[o][s];
    a->turn_true[b][t->shanten[o] < RS_TURN_CLASSES ? t->shanten[o] : RS_TURN_CLASSES - 1] += 1;
    a->turn_n[b]++;
    for (int k = 0; k < TK_KINDS; k++)
      if (push_pair(a, p->wait[o][k], (int)(t->waits[o] >> k & 1), fold)) return TK_ENOMEM;
  }
  a->positions++;
  return 0;
}

void rs_eval_free(rs_eval_acc *a) {
  free(a->pairs);
  memset(a, 0, sizeof *a);
}

void rs_reliability_of(const double *p, const uint8_t *y, size_t n, rs_reliability *out) {
  memset(out, 0, sizeof *out);
  double sp[RS_BINS] = {0}, sy[RS_BINS] = {0}, brier = 0, ll = 0;
  for (size_t i = 0; i < n; i++) {
    int b = (int)(p[i] * RS_BINS);
    b = b < 0 ? 0 : b >= RS_BINS ? RS_BINS - 1 : b; /* p = 1 falls in the last bin */
    out->n[b]++, sp[b] += p[i], sy[b] += y[i];
    brier += (p[i] - y[i]) * (p[i] - y[i]);
    double q = p[i] < RS_CLIP ? RS_CLIP : p[i] > 1 - RS_CLIP ? 1 - RS_CLIP : p[i];
    ll -= y[i] ? log(q) : log1p(-q);
  }
  out->total = n;
  for (int b = 0; b < RS_BINS; b++) {
    if (!out->n[b]) continue;
    out->mean_p[b] = sp[b] / (double)out->n[b];
    out->freq[b] = sy[b] / (double)out->n[b];
    out->ece += (double)out->n[b] / (double)n * fabs(out->mean_p[b] - out->freq[b]);
  }
  out->brier = n ? brier / (double)n : 0;
  out->logloss = n ? ll / (double)n : 0;
}

static double logit_clipped(double p) {
  p = p < RS_CLIP ? RS_CLIP : p > 1 - RS_CLIP ? 1 - RS_CLIP : p;
  return log(p / (1 - p));
}

static double sigmoid(double z) { return z >= 0 ? 1 / (1 + exp(-z)) : exp(z) / (1 + exp(z)); }

double rs_platt_apply(double p, double a, double b) { return sigmoid(a * logit_clipped(p) + b); }

/* The penalised log-likelihood of (a, b). */
static double platt_ll(const rs_calib_pair *pairs, size_t n, int fold, double a, double b) {
  double ll = -0.5e-3 * (a * a + b * b);
  for (size_t i = 0; i < n; i++) {
    if (fold >= 0 && pairs[i].fold != fold) continue;
    double z = a * logit_clipped(pairs[i].p) + b;
    /* log sigmoid(z) = -log(1 + e^-z), written to stay finite for large |z| */
    double lz = z >= 0 ? -log1p(exp(-z)) : z - log1p(exp(z));
    ll += pairs[i].y ? lz : lz - z;
  }
  return ll;
}

size_t rs_platt_fit(const rs_calib_pair *pairs, size_t n, int fold, double *a, double *b) {
  *a = 1, *b = 0;
  size_t used = 0;
  for (size_t i = 0; i < n; i++) used += fold < 0 || pairs[i].fold == fold;
  if (!used) return 0;
  const double ridge = 1e-3;
  double ll = platt_ll(pairs, n, fold, *a, *b);
  for (int it = 0; it < 100; it++) {
    /* gradient g and the negated Hessian H of the penalised log-likelihood */
    double g0 = -ridge * *a, g1 = -ridge * *b, h00 = ridge, h01 = 0, h11 = ridge;
    for (size_t i = 0; i < n; i++) {
      if (fold >= 0 && pairs[i].fold != fold) continue;
      double x = logit_clipped(pairs[i].p), q = sigmoid(*a * x + *b), r = pairs[i].y - q,
             w = q * (1 - q);
      g0 += r * x, g1 += r;
      h00 += w * x * x, h01 += w * x, h11 += w;
    }
    double det = h00 * h11 - h01 * h01;
    if (!(det > 0)) break;
    double da = (h11 * g0 - h01 * g1) / det, db = (h00 * g1 - h01 * g0) / det;
    /* step halving keeps every step an ascent (Newton alone can overshoot far from the optimum) */
    double step = 1, nll = ll;
    for (int h = 0; h < 30; h++, step /= 2) {
      nll = platt_ll(pairs, n, fold, *a + step * da, *b + step * db);
      if (nll >= ll) break;
    }
    if (nll < ll) break;
    *a += step * da, *b += step * db;
    double gain = nll - ll;
    ll = nll;
    if (fabs(step * da) < 1e-10 && fabs(step * db) < 1e-10) break;
    if (gain < 1e-12 * (1 + fabs(ll))) break;
  }
  return used;
}

int rs_eval_summarize(const rs_eval_acc *a, rs_eval_summary *out) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < 4; i++) {
    size_t n = a->npos[i];
    out->npos[i] = n;
    if (!n) continue;
    out->err_mean[i] = a->sum_e[i] / (double)n;
    out->mse[i] = a->sum_e2[i] / (double)n;
    double var = n > 1 ? (a->sum_e2[i] - a->sum_e[i] * a->sum_e[i] / (double)n) / (double)(n - 1)
                       : 0;
    out->err_sd[i] = var > 0 ? sqrt(var) : 0;
  }
  for (int o = 0; o < 3; o++) {
    double n = (double)a->positions;
    out->tenpai_pred[o] = n ? a->tenpai_pred[o] / n : 0;
    out->tenpai_true[o] = n ? a->tenpai_true[o] / n : 0;
  }
  size_t n = a->npairs;
  double *p = calloc(n ? n : 1, sizeof *p);
  uint8_t *y = calloc(n ? n : 1, 1);
  if (!p || !y) {
    free(p), free(y);
    return TK_ENOMEM;
  }
  for (size_t i = 0; i < n; i++) p[i] = a->pairs[i].p, y[i] = a->pairs[i].y;
  rs_reliability_of(p, y, n, &out->raw);
  for (int f = 0; f < 2; f++) rs_platt_fit(a->pairs, n, f, &out->platt_a[f], &out->platt_b[f]);
  /* cross-fitting: a pair of fold f is scaled by the parameters fitted on fold 1 - f */
  for (size_t i = 0; i < n; i++) {
    int f = 1 - a->pairs[i].fold;
    p[i] = rs_platt_apply(a->pairs[i].p, out->platt_a[f], out->platt_b[f]);
  }
  rs_reliability_of(p, y, n, &out->platt);
  free(p), free(y);
  return 0;
}
