/* harness/tally.h — per-agent, per-wall sums of a game's per-game quantities, accumulated from
 * games.jsonl lines; the statistics are computed from these (walls are the independent unit). */
#ifndef TAIKAI_HARNESS_TALLY_H
#define TAIKAI_HARNESS_TALLY_H

#include "game.h"

typedef struct tk_tally {
  int nagents, nq;
  uint64_t walls;
  double *sums;     /* owned: [agent][wall][q] */
  uint64_t *games;  /* owned: games per agent */
  uint64_t *faults; /* owned: forfeited games per agent */
  uint64_t units;   /* units added */
} tk_tally;

int tk_tally_init(tk_tally *t, int nagents, int nq, uint64_t walls);
void tk_tally_free(tk_tally *t);
/* Adds one unit's results; TK_ERANGE if its wall or an agent index is out of range. */
int tk_tally_add(tk_tally *t, const tk_unit_result *r);
/* Pointer to the nq sums of (agent, wall). */
static inline double *tk_tally_at(const tk_tally *t, int agent, uint64_t wall) {
  return t->sums + ((uint64_t)agent * t->walls + wall) * (uint64_t)t->nq;
}

#endif
