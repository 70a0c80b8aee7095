/* harness/stats/summary.h — a run's results: summary.json from its tally, and the same as
 * Markdown (report.md) and as the one-screen table `taikai run` prints. */
#ifndef TAIKAI_HARNESS_SUMMARY_H
#define TAIKAI_HARNESS_SUMMARY_H

#include <stdio.h>

#include "run.h"
#include "tally.h"

/* summary.json as a new object: per agent label, plugin, games, faults and every metric as
 * {"value", "ci": [lo, hi]}; per pair of agents the paired differences with p-values. */
json_t *tk_summary_json(const tk_run *r, const tk_tally *t, tk_error *err);
/* Writes the tables of `summary` as Markdown (report.md) to `f`. */
void tk_summary_markdown(const tk_run *r, json_t *summary, FILE *f);
/* Writes the one-screen table of `summary` to `f`. */
void tk_summary_table(const tk_run *r, json_t *summary, FILE *f);

/* What the units of summary `sum` hold when a unit is more than one game (a daifugo block):
 * " (blocks of 100 games: 40,000 games)", the game's name for its units and the games counted
 * from the agents' games; "" when every unit is one game. For the line that says "N walls, M
 * units", so that a reader sees what a wall and a unit are. */
void tk_summary_units_words(const tk_game *g, json_t *sum, char *buf, size_t cap);
#endif
