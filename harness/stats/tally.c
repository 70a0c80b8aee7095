/* harness/stats/tally.c — accumulating unit results (see tally.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "run.h"
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
  free(t->base_at);
  free(t->base_played);
  t->sums = t->base_at = NULL;
  t->games = t->faults = t->kinds = t->illegal = t->skipped = NULL;
  t->played = t->base_played = NULL;
}

int tk_tally_for_run(tk_tally *t, const tk_run *r) {
  int rc = tk_tally_init(t, r->spec.nagents, r->game->nq, r->spec.walls);
  if (!rc && r->spec.format == TK_FORMAT_DUPLICATE && r->spec.nagents > 2 &&
      (rc = tk_tally_duplicate(t, 0)))
    tk_tally_free(t);
  return rc;
}

int tk_tally_duplicate(tk_tally *t, int baseline) {
  t->baseline = baseline;
  t->base_at = calloc((size_t)t->nagents * t->walls * (size_t)t->nq, sizeof *t->base_at);
  t->base_played = calloc((size_t)t->nagents * t->walls, sizeof *t->base_played);
  return t->base_at && t->base_played ? 0 : TK_ENOMEM;
}

/* Under tk_tally_duplicate: the baseline's seats of a unit not skipped, added at the unit's
 * candidate (its one seat held by another agent; none: a table of copies only, kept nowhere). */
static void add_baseline_at(tk_tally *t, const tk_unit_result *r) {
  int cand = -1;
  for (int s = 0; s < r->nseats; s++)
    if (r->agent[s] != t->baseline) cand = r->agent[s];
  if (cand < 0 || r->skipped) return;
  uint64_t at = (uint64_t)cand * t->walls + r->wall;
  for (int s = 0; s < r->nseats; s++) {
    if (r->agent[s] != t->baseline) continue;
    double *x = t->base_at + at * (uint64_t)t->nq;
    for (int q = 0; q < t->nq; q++) x[q] += r->q[s][q];
    t->base_played[at] += r->q[s][0] > 0 ? (uint32_t)r->q[s][0] : 0;
  }
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
  if (t->base_at) add_baseline_at(t, r);
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
  /* the duplicate baseline against one candidate: its results at that candidate's tables */
  int at = -1;
  if (t->base_at && b >= 0 && a != b && (a == t->baseline) != (b == t->baseline))
    at = a == t->baseline ? b : a;
  size_t n = 0;
  for (uint64_t w = 0; w < t->walls; w++) {
    uint32_t pa = at >= 0 && a == t->baseline ? t->base_played[(uint64_t)at * t->walls + w]
                                              : tk_tally_played(t, a, w);
    uint32_t pb = b < 0 ? 1
                  : at >= 0 && b == t->baseline ? t->base_played[(uint64_t)at * t->walls + w]
                                                : tk_tally_played(t, b, w);
    if (!pa || !pb) continue;
    const double *x = at >= 0 && a == t->baseline
                          ? t->base_at + ((uint64_t)at * t->walls + w) * (uint64_t)t->nq
                          : tk_tally_at(t, a, w);
    num[n] = x[qn];
    den[n] = x[qd];
    n++;
  }
  return n;
}
