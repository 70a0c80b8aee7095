/* harness/stats/tally.h — per-agent, per-wall sums of a game's per-game quantities, accumulated from
 * games.jsonl lines; the statistics are computed from these (walls are the independent unit). */
#ifndef TAIKAI_HARNESS_TALLY_H
#define TAIKAI_HARNESS_TALLY_H

#include "game.h"
#include "stats.h"

typedef struct tk_tally {
  int nagents, nq;
  uint64_t walls;
  double *sums;     /* owned: [agent][wall][q], units not skipped */
  uint64_t *games;  /* owned: games per agent in units not skipped (quantity 0 of each unit) */
  uint64_t *faults; /* owned: units in which the agent faulted (forfeited or skipped) */
  uint32_t *played;       /* owned: [agent][wall] games counted in sums */
  uint64_t *kinds;        /* owned: [agent][TK_FAULT_KINDS] faults by kind */
  uint64_t *illegal;      /* owned: illegal actions per agent (substituted or forfeited) */
  uint64_t *skipped;      /* owned: skipped units per agent (any seat of the unit) */
  uint64_t units;         /* units added */
  uint64_t units_skipped; /* of which skipped */
  /* The duplicate format (tk_tally_duplicate): the baseline's sums and games at the tables of
   * each candidate, [candidate][wall][q] and [candidate][wall]; NULL otherwise. */
  int baseline;
  double *base_at;
  uint32_t *base_played;
} tk_tally;

int tk_tally_init(tk_tally *t, int nagents, int nq, uint64_t walls);
/* The tally of a prepared run: its agents, quantities and walls, and under the duplicate
 * format with more than one candidate, agents[0]'s results at each candidate's tables kept
 * apart (tk_tally_duplicate). 0 or TK_ENOMEM. */
struct tk_run;
int tk_tally_for_run(tk_tally *t, const struct tk_run *r);
void tk_tally_free(tk_tally *t);
/* Adds one unit's results (a skipped unit only to the fault counts); TK_ERANGE if its wall or
 * an agent index is out of range. */
int tk_tally_add(tk_tally *t, const tk_unit_result *r);
/* Pointer to the nq sums of (agent, wall). */
static inline double *tk_tally_at(const tk_tally *t, int agent, uint64_t wall) {
  return t->sums + ((uint64_t)agent * t->walls + wall) * (uint64_t)t->nq;
}

/* Games agent `agent` has on `wall` (0: none, e.g. skipped). */
static inline uint32_t tk_tally_played(const tk_tally *t, int agent, uint64_t wall) {
  return t->played[(uint64_t)agent * t->walls + wall];
}

/* For the duplicate format (each unit one candidate among copies of agent `baseline`): keeps
 * the baseline's results at each candidate's tables apart, so that a paired comparison of a
 * candidate with the baseline (tk_tally_columns) sets the candidate against the copies it sat
 * with, not against every copy of the run (with several candidates, the copies at a strong
 * candidate's tables do worse than those at a weak one's). Call before the first add. 0 or
 * TK_ENOMEM. */
int tk_tally_duplicate(tk_tally *t, int baseline);

/* The per-wall sums of quantities qn and qd of agent `a`, in wall order, over the walls on
 * which `a` has games and, when b >= 0, agent `b` has games too (the walls of a paired
 * comparison: entry i of a's and of b's columns is then the same wall). Fills num and den
 * (room for t->walls each); returns the number of walls. Under tk_tally_duplicate, the
 * baseline's column against a candidate (a the baseline and b a candidate, or the reverse for
 * the candidate's own column's walls) holds only the baseline's results at that candidate's
 * tables. */
size_t tk_tally_columns(const tk_tally *t, int a, int b, int qn, int qd, double *num, double *den);

/* The interval design (stats.h) of metric `mt`: its range, whether it is a rate, whether each
 * wall gives at most one trial, and the rates' method (1: Clopper–Pearson, 0: Wilson). */
tk_design tk_metric_design(const tk_metric *mt, int one_per_wall, int clopper_pearson);

#endif
