/* harness/output.h — running a prepared tournament with its output files (run_output.c). */
#ifndef TAIKAI_HARNESS_OUTPUT_H
#define TAIKAI_HARNESS_OUTPUT_H

#include "progress.h"
#include "run.h"

typedef struct tk_run_opts {
  int jobs;            /* worker processes */
  const char *out_dir; /* NULL: write no files */
  int progress;        /* as tk_progress_init's mode */
  double *rate;        /* if not NULL, receives games/s */
  int resume;          /* 1: keep the units already in <out_dir>/games.jsonl (same spec) */
} tk_run_opts;

/* Plays every unit of `r`; with an output folder writes spec.json, games.jsonl, summary.json
 * and report.md there (creating the folder). With `resume`, a games.jsonl left by an
 * interrupted run of the same resolved spec is kept up to its last complete line and only the
 * remaining units are played; the outputs are then byte-identical to an uninterrupted run. Returns 0 with `*summary` the summary (caller
 * owns), or a negative TK_E code. */
int tk_run_execute(const tk_run *r, const tk_run_opts *o, json_t **summary, tk_error *err);

/* mkdir -p. */
int tk_mkdirs(const char *path, tk_error *err);

#endif
