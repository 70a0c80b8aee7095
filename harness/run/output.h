/* harness/run/output.h — running a prepared tournament with its output files (run_output.c) and
 * the output folder rules (run_dir.c). */
#ifndef TAIKAI_HARNESS_OUTPUT_H
#define TAIKAI_HARNESS_OUTPUT_H

#include "progress.h"
#include "readfile.h"
#include "run.h"

/* How a run ended, when it wrote its outputs (tk_run_execute returned 0). */
typedef struct tk_run_outcome {
  int stopped;       /* 0: complete; TK_STOP_ABORT; or the signal (SIGINT, SIGTERM) */
  char why[512];     /* what stopped it, as in summary.json's "stopped" */
  uint64_t resumed;  /* units found already done in the folder */
  int refused;       /* tk_run_execute failed before playing a unit: the folder's files were
                      * refused (a changed line, a chain of another run) or could not be set up */
} tk_run_outcome;

enum { TK_STOP_ABORT = -1, TK_STOP_RULE = -2 };

/* A stopping rule (`taikai gate`, `taikai run --sprt`): called with every unit's result in unit
 * order, the units kept from an interrupted run first, then each new unit once its line is
 * written. A non-zero return stops the run after that unit (no later unit is played; lines
 * already in the folder are kept) with outcome TK_STOP_RULE and the rule's `why`. */
typedef int (*tk_stop_rule_fn)(void *ctx, const tk_unit_result *res, char *why, size_t cap);

typedef struct tk_run_opts {
  int jobs;            /* worker processes */
  const char *out_dir; /* NULL: write no files */
  int progress;        /* as tk_progress_init's mode */
  double *rate;        /* if not NULL, receives games/s */
  int resume;          /* 1: keep the units already in <out_dir>/games.jsonl (same spec) */
  tk_run_outcome *outcome; /* may be NULL; receives how the run ended */
  tk_stop_rule_fn rule;    /* may be NULL */
  void *rule_ctx;
  int extend;          /* with resume: the folder's run has fewer walls (tk_outdir_check said
                        * 2); spec.json is rewritten with this run's */
  /* Who plays the units: NULL for the worker pool (tk_pool_run); `taikai serve` plays them in
   * its own process, its clients on sockets. Same contract as tk_pool_run: every record to
   * `sink` in unit order; stop when the sink returns non-zero or on tk_run_stop_signal. */
  int (*play)(void *play_ctx, const tk_run *r, uint64_t first, uint64_t count, tk_sink_fn sink,
              void *sink_ctx, tk_progress_fn progress, void *progress_ctx, tk_error *err);
  void *play_ctx;
  const char *cmd;     /* the command its notices on stderr name; NULL: "taikai run" */
  int no_html;         /* 1: no report.html (`--no-html`) */
  const char *html_folder; /* the folder report.html's title names; NULL: out_dir */
} tk_run_opts;

/* Plays every unit of `r`; with an output folder writes spec.json, games.jsonl, summary.json,
 * report.md and (unless o->no_html) report.html there (creating the folder; whole files are written atomically). With
 * `resume`, a games.jsonl left by an interrupted run of the same resolved spec is kept up to
 * its last complete line (a torn last line is dropped) and only the remaining units are
 * played; the outputs are then byte-identical to an uninterrupted run. The spec's fault
 * policy is applied to each unit in unit order. SIGINT and SIGTERM stop the run: in-flight
 * units are abandoned, everything finished is flushed and a partial summary (marked
 * "complete": false, with "stopped") is written; the fault policy abort does the same at the
 * first faulted unit. Returns 0 with `*summary` the summary (caller owns) and `o->outcome`
 * saying whether it is partial, or a negative TK_E code. */
int tk_run_execute(const tk_run *r, const tk_run_opts *o, json_t **summary, tk_error *err);

/* The fault policy's mark on a unit's record before its line is written: under "skip", a unit
 * with a faulted seat gets "skipped" (every writer of a games.jsonl line calls this first). */
void tk_run_apply_policy(const tk_run *r, tk_unit_rec *rec);

/* Decides whether output folder `dir` may take the run `r`, before anything is written:
 * absent or without a run: 0 with *existing = 0; holding a run of the same resolved spec
 * (the same game, seed, walls, agents, params, plugin versions, taikai version, limits and
 * policies; only "output" may differ) whose agents' files (plugin, weights) have the same
 * SHA-256: 0 with *existing = 1 (to be continued); the same but with fewer walls than `r`:
 * 0 with *existing = 2 (to be extended: units are numbered wall-major and every unit depends
 * only on the seed, its wall and its seating, so the first walls' units are those of `r`);
 * otherwise TK_EINVAL with a message listing
 * what differs, or naming the agent, the file and both hashes, or saying that the folder's
 * spec.json records no hashes (never overwrite). `resume` (--resume) makes a folder without a
 * run an error. */
int tk_outdir_check(const tk_run *r, const char *dir, int resume, int *existing, tk_error *err);

/* The differences between resolved specs (spec.json objects) `there` and `here` in what makes
 * the tournament: every member but "output" and the agents' "files" (tk_spec_files_diff
 * compares those). Writes up to three "<field>: <value> <there_word>, <value> <here_word>",
 * joined by "; ", into `what` (cap bytes, cut if longer) and returns how many differ. */
int tk_spec_diff(const json_t *there, const json_t *here, const char *there_word,
                 const char *here_word, char *what, size_t cap);

enum { TK_FILES_SAME = 0, TK_FILES_UNHASHED, TK_FILES_CHANGED, TK_FILES_ADDED, TK_FILES_REMOVED };

/* The first difference between the files of the agents (plugin, weights) of resolved specs
 * `there` and `here`, compared by role and SHA-256 (paths only inform). */
typedef struct tk_file_diff {
  int kind;          /* TK_FILES_SAME; UNHASHED: `there` records no hash for the agent;
                      * CHANGED: other bytes; ADDED: only `here` has the file; REMOVED: only
                      * `there` has it */
  int agent;         /* its index, and the rest borrowed from the specs: */
  const char *label, *role, *path; /* path: here's (there's for REMOVED) */
  const char *there, *here;        /* the hashes (NULL where absent) */
} tk_file_diff;
void tk_spec_files_diff(const json_t *there, const json_t *here, tk_file_diff *d);

/* Takes an exclusive lock on <dir>/.taikai.lock, held until the process ends (or the returned
 * descriptor is closed), so that two runs never write into one folder. Returns the descriptor,
 * or TK_EINVAL (another run holds it) / TK_EIO. */
int tk_outdir_lock(const char *dir, tk_error *err);

#endif
