/* harness/tally.c — accumulating unit results (see tally.h). */
#include <stdlib.h>
#include <string.h>

#include "tally.h"

int tk_tally_init(tk_tally *t, int nagents, int nq, uint64_t walls) {
  memset(t, 0, sizeof *t);
  t->nagents = nagents;
  t->nq = nq;
  t->walls = walls;
  t->sums = calloc((size_t)nagents * walls * (size_t)nq, sizeof *t->sums);
  t->games = calloc((size_t)nagents, sizeof *t->games);
  t->faults = calloc((size_t)nagents, sizeof *t->faults);
  if (!t->sums || !t->games || !t->faults) {
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
  t->sums = NULL;
  t->games = t->faults = NULL;
}

int tk_tally_add(tk_tally *t, const tk_unit_result *r) {
  if (r->wall >= t->walls) return TK_ERANGE;
  for (int s = 0; s < r->nseats; s++)
    if (r->agent[s] < 0 || r->agent[s] >= t->nagents) return TK_ERANGE;
  for (int s = 0; s < r->nseats; s++) {
    double *x = tk_tally_at(t, r->agent[s], r->wall);
    for (int q = 0; q < t->nq; q++) x[q] += r->q[s][q];
    t->games[r->agent[s]]++;
    t->faults[r->agent[s]] += r->fault[s] ? 1 : 0;
  }
  t->units++;
  return 0;
}
