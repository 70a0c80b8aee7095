/* harness/core/schedule.h — the units of a tournament. A unit is (wall, seating); units are numbered
 * wall-major: unit u plays wall u / per_wall with seating u % per_wall, so every seating meets
 * every wall and all the units of one wall are adjacent in games.jsonl.
 *   field        one seat: every agent plays every wall alone (per_wall = agents)
 *   round-robin  every combination of `nseats` distinct agents, each in every distinct seating,
 *                i.e. every permutation of its agents over the seats (per_wall =
 *                C(agents, nseats) * nseats!: 24 seatings per combination of four). Order:
 *                combinations in lexicographic order of their spec indices, and within one
 *                combination its permutations in lexicographic order (the first has the
 *                agents in spec order from seat 0), so seating k is combination k / nseats!,
 *                permutation k % nseats!. E.g. agents 0-3: 0123, 0132, 0213, ..., 3210.
 *   duplicate    agents[0] is the baseline; each other agent in turn sits in each seat with
 *                baseline copies in the others (per_wall = (agents - 1) * nseats)
 *   seated       agents[i] in seat i of every wall (agents = nseats; per_wall = 1) */
#ifndef TAIKAI_HARNESS_SCHEDULE_H
#define TAIKAI_HARNESS_SCHEDULE_H

#include "game.h"
#include "spec.h"

typedef struct tk_schedule {
  tk_format format;
  int nagents, nseats;
  uint64_t walls;
  uint64_t per_wall;  /* seatings per wall (units per wall) */
  int *seatings;      /* owned: per_wall rows of nseats agent indices */
} tk_schedule;

enum { TK_SCHEDULE_MAX_PER_WALL = 1000000 }; /* seatings (units) per wall */

/* Builds the seatings. Returns 0, or TK_EINVAL with a message (e.g. a multi-seat format for a
 * one-seat game, or too few agents), or TK_ERANGE with a message giving the count if a wall
 * would need more than TK_SCHEDULE_MAX_PER_WALL seatings (round-robin with many agents). */
int tk_schedule_build(tk_schedule *s, tk_format format, int nagents, int nseats, uint64_t walls,
                      tk_error *err);
void tk_schedule_free(tk_schedule *s);
/* Total units. */
static inline uint64_t tk_schedule_units(const tk_schedule *s) { return s->walls * s->per_wall; }
/* Unit u: its wall, and its seating (borrowed row of nseats agent indices). */
static inline const int *tk_schedule_unit(const tk_schedule *s, uint64_t u, uint64_t *wall) {
  *wall = u / s->per_wall;
  return s->seatings + (u % s->per_wall) * (uint64_t)s->nseats;
}

#endif
