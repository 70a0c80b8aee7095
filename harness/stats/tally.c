/* harness/stats/tally.c — accumulating unit results (see tally.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "tally.h"

int tk_tally_init(tk_tally *t, int nagents, int nq, uint64_t walls) {
  memset(t, 0, sizeof *t);
  t->nagents = nagents;
  t->nq = nq;
  t->walls = walls;
  t->sums = calloc((size_t)nagents * walls * (size_t)nq, sizeof *t->sums);
  t->games = calloc((size_t)nagents, sizeof *t->games);
  t->faults = calloc((size_t)nagents, sizeof *t->faults);
  t->played = calloc((size_t)nagents * walls, sizeof *t->played);
  t->kinds = calloc((size_t)nagents * TK_FAULT_KINDS, sizeof *t->kinds);
  t->illegal = calloc((size_t)nagents, sizeof *t->illegal);
  t->skipped = calloc((size_t)nagents, sizeof *t->skipped);
  if (!t->sums || !t->games || !t->faults || !t->played || !t->kinds || !t->illegal ||
      !t->skipped) {
    tk_tally_free(t);
    return TK_ENOMEM;
  }
  return 0;
}

void tk_tally_free(tk_tally *t) {
  if (!t) return;
  free(t->sums);
  free(t->games);
  free(t->faults);
  free(t->played);
  free(t->kinds);
  free(t->illegal);
  free(t->skipped);
  t->sums = NULL;
  t->games = t->faults = t->kinds = t->illegal = t->skipped = NULL;
  t->played = NULL;
}

int tk_tally_add(tk_tally *t, const tk_unit_result *r) {
  if (r->wall >= t->walls) return TK_ERANGE;
  for (int s = 0; s < r->nseats; s++)
    if (r->agent[s] < 0 || r->agent[s] >= t->nagents) return TK_ERANGE;
  for (int s = 0; s < r->nseats; s++) {
    int a = r->agent[s];
    t->faults[a] += r->fault[s] ? 1 : 0;
    if (r->fault[s]) {
      int k = r->fault_kind[s] > 0 && r->fault_kind[s] < TK_FAULT_KINDS ? r->fault_kind[s]
                                                                        : TK_FAULT_ERROR;
      t->kinds[(size_t)a * TK_FAULT_KINDS + (size_t)k]++;
    }
    t->illegal[a] += r->illegal[s] > 0 ? (uint64_t)r->illegal[s] : 0;
    if (r->skipped) {
      t->skipped[a]++;
      continue;
    }
    double *x = tk_tally_at(t, a, r->wall);
    for (int q = 0; q < t->nq; q++) x[q] += r->q[s][q];
    /* quantity 0 counts the unit's games (one for most games, a block of them in daifugo) */
    uint32_t games = r->q[s][0] > 0 ? (uint32_t)r->q[s][0] : 0;
    t->played[(uint64_t)a * t->walls + r->wall] += games;
    t->games[a] += games;
  }
  t->units++;
  t->units_skipped += r->skipped ? 1 : 0;
  return 0;
}

tk_design tk_metric_design(const tk_metric *mt, int one_per_wall, int clopper_pearson) {
  tk_design d = {
      .lo = mt->bounded & TK_BOUND_LO ? mt->lo : -INFINITY,
      .hi = mt->bounded & TK_BOUND_HI ? mt->hi : INFINITY,
      .proportion = mt->proportion,
      .one_per_wall = one_per_wall,
      .clopper_pearson = clopper_pearson,
  };
  return d;
}

size_t tk_tally_columns(const tk_tally *t, int a, int b, int qn, int qd, double *num, double *den) {
  size_t n = 0;
  for (uint64_t w = 0; w < t->walls; w++) {
    if (!tk_tally_played(t, a, w) || (b >= 0 && !tk_tally_played(t, b, w))) continue;
    const double *x = tk_tally_at(t, a, w);
    num[n] = x[qn];
    den[n] = x[qd];
    n++;
  }
  return n;
}
