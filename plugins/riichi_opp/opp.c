/* plugins/riichi_opp/opp.c — the opponent models (opp.h): loading the file, the assessment of a
 * view, the deal-in probability of a discard. The assessment computes the view's part of the
 * features once (discard order, visible counts, dora) and each seat's summary once, then the
 * 1 + 34 + 1 linear predictors of each seat; no allocation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "taikai/weights.h"

double rm_opp_sigmoid(double z) { return 1.0 / (1.0 + exp(-z)); }

void rm_opp_from_values(rm_opp *m, const double *x) {
  memcpy(m->tenpai, x + RM_OPP_OFF_TENPAI, sizeof m->tenpai);
  memcpy(m->wait[1], x + RM_OPP_OFF_WAIT_RIICHI, sizeof m->wait[1]);
  memcpy(m->wait[0], x + RM_OPP_OFF_WAIT_DAMA, sizeof m->wait[0]);
  memcpy(m->loss, x + RM_OPP_OFF_LOSS, sizeof m->loss);
  m->smear = x[RM_OPP_OFF_SMEAR];
  rm_opp_prepare(m);
}

void rm_opp_prepare(rm_opp *m) {
  memset(m->waitf, 0, sizeof m->waitf);
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < RM_OPPF_NW; i++) m->waitf[r][i] = (float)m->wait[r][i];
}

void rm_opp_to_values(const rm_opp *m, double *x) {
  memcpy(x + RM_OPP_OFF_TENPAI, m->tenpai, sizeof m->tenpai);
  memcpy(x + RM_OPP_OFF_WAIT_RIICHI, m->wait[1], sizeof m->wait[1]);
  memcpy(x + RM_OPP_OFF_WAIT_DAMA, m->wait[0], sizeof m->wait[0]);
  memcpy(x + RM_OPP_OFF_LOSS, m->loss, sizeof m->loss);
  x[RM_OPP_OFF_SMEAR] = m->smear;
}

int rm_opp_save(const rm_opp *m, const char *path, tk_error *err) {
  double values[RM_OPP_NVALUES];
  rm_opp_to_values(m, values);
  tk_weights w;
  memset(&w, 0, sizeof w);
  strncpy(w.model, RM_OPP_MODEL, sizeof w.model - 1);
  w.feature_version = RM_OPPF_VERSION;
  w.ndims = 1;
  w.shape[0] = RM_OPP_NVALUES;
  w.count = RM_OPP_NVALUES;
  w.values = values;
  return tk_weights_save(path, &w, err);
}

int rm_opp_load(const char *path, rm_opp **out, tk_error *err) {
  *out = NULL;
  const uint32_t shape[1] = {RM_OPP_NVALUES};
  tk_weights w;
  int rc = tk_weights_load(path, RM_OPP_MODEL, RM_OPPF_VERSION, 1, shape, &w, err);
  if (rc) return rc;
  double smear = w.values[RM_OPP_OFF_SMEAR];
  if (!(smear > 0 && smear < 100)) {
    tk_weights_free(&w);
    return tk_error_set(err, TK_EPARSE, -1,
                        "weights %s: field 'values[%d]' (the loss's smearing factor): %g, not "
                        "in (0, 100)", path, RM_OPP_OFF_SMEAR, smear);
  }
  rm_opp *m = malloc(sizeof *m);
  if (!m) {
    tk_weights_free(&w);
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  }
  rm_opp_from_values(m, w.values);
  tk_weights_free(&w);
  *out = m;
  return 0;
}

void rm_opp_free(rm_opp *m) { free(m); }

/* w . x over RM_OPP_NW_PAD floats, in eight independent sums (the compiler vectorises it). */
static float dot_pad(const float *w, const float *x) {
  float a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < RM_OPP_NW_PAD; i += 8)
    for (int j = 0; j < 8; j++) a[j] += w[i + j] * x[i + j];
  return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

static double dot(const double *w, const float *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i];
  return s;
}

void rm_opp_assess(const rm_opp *m, const tk_riichi_view *v, rm_opp_threat out[4]) {
  rm_oppf_view pv;
  rm_oppf_view_init(v, &pv);
  for (int o = 0; o < 4; o++) {
    rm_opp_threat *t = &out[o];
    if (o == v->seat) {
      memset(t, 0, sizeof *t);
      continue;
    }
    rm_oppf_seat s;
    rm_oppf_seat_init(v, &pv, o, &s);
    float x[(int)RM_OPP_NW_PAD > (int)RM_OPPF_NT ? (int)RM_OPP_NW_PAD : (int)RM_OPPF_NT];
    memset(x, 0, sizeof x);
    int riichi = v->riichi[o] != 0;
    if (riichi) {
      t->tenpai = 1; /* the engine allows riichi only from tenpai, and the hand cannot change */
    } else {
      rm_oppf_tenpai(v, &pv, &s, x);
      t->tenpai = rm_opp_sigmoid(dot(m->tenpai, x, RM_OPPF_NT));
    }
    const float *w = m->waitf[riichi];
    for (int i = RM_OPPF_NW; i < RM_OPP_NW_PAD; i++) x[i] = 0;
    for (int k = 0; k < TK_KINDS; k++) {
      if (s.river >> k & 1) {
        t->wait[k] = 0;
        continue;
      }
      rm_oppf_wait(v, &pv, &s, k, x);
      t->wait[k] = 1.0f / (1.0f + expf(-dot_pad(w, x)));
    }
    float xl[RM_OPPF_NL];
    rm_oppf_loss(v, &pv, &s, xl);
    t->loss = exp(dot(m->loss, xl, RM_OPPF_NL)) * m->smear;
  }
}

double rm_opp_dealin(const rm_opp_threat t[4], int viewer, int k, double per_seat[4]) {
  double safe = 1;
  for (int o = 0; o < 4; o++) {
    double p = 0;
    if (o != viewer && k >= 0 && k < TK_KINDS) p = t[o].tenpai * t[o].wait[k];
    if (per_seat) per_seat[o] = p;
    safe *= 1 - p;
  }
  return 1 - safe;
}
