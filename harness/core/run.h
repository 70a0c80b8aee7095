/* harness/core/run.h — a prepared tournament: the validated spec, its game driver and rules, the
 * loaded and checked plugins with their resolved parameters, and the schedule; then running it
 * (harness/core/pool.c) and writing its outputs (harness/stats/summary.c).
 *
 * Everything that can be refused is refused by tk_run_prepare, before any game is played. */
#ifndef TAIKAI_HARNESS_RUN_H
#define TAIKAI_HARNESS_RUN_H

#include <signal.h>
#include <stdio.h>

#include "game.h"
#include "loader.h"
#include "schedule.h"
#include "spec.h"
#include "watch.h"

#ifndef TAIKAI_VERSION
#define TAIKAI_VERSION "0.1.0"
#endif

/* A file besides an agent's plugin that makes the agent what it is (its weights): part of the
 * run's identity in spec.json, like the plugin file's hash. */
typedef struct tk_run_file {
  int agent;                  /* index in spec.agents */
  char role[32];              /* "weights", ...: [a-z0-9_-], unique per agent, never "plugin" */
  char path[TK_PATH_MAX];     /* as given to tk_run_add_file */
  char sha256[TK_SHA256_HEX]; /* of its bytes when added */
} tk_run_file;

typedef struct tk_run {
  tk_spec spec;                /* owned */
  const tk_game *game;
  void *rules;                 /* owned: the driver's parsed rules */
  json_t *rules_resolved;      /* owned */
  tk_plugin *plugins;          /* owned: one per agent, loaded */
  json_t **params;             /* owned: resolved params per agent */
  char **params_text;          /* owned: the same as compact JSON text, as create gets it (a
                                * learned agent's "weights" resolved to a path) */
  char **weights;              /* owned: per agent, its weights file, or NULL (no weights) */
  tk_schedule sched;
  char *logs_dir;              /* owned: `taikai run --logs`: each unit's game log here, else NULL
                                * (with logs_run, a folder the parent empties unit by unit) */
  int logs_gzip;               /* `--logs=gz`: the logs gzip-compressed */
  char *logs_run;              /* owned: `--logs=run`: the run's one log file (<out>/logs/run.jsonl
                                * or run.jsonl.gz), appended in unit order, else NULL */
  int records;                 /* `taikai run --records`: keep every decision (records.tkr) */
  tk_run_file *files;          /* owned: tk_run_add_file's files, in the order added */
  int nfiles;
  uint32_t shard_index;        /* `taikai run --shard K/N`: K, from 1 to N (harness/core/shard.h) */
  uint32_t shard_count;        /* N; 0: not a shard, the run plays every unit */
} tk_run;

/* Takes ownership of `spec` (even on failure), finds the driver, parses the rules, loads every
 * plugin (relative paths also tried against `spec_dir`, may be NULL), resolves parameters and
 * trial-creates each agent, and builds the schedule. An external agent gets no plugin: its
 * plugins[] entry holds only a placeholder descriptor (name "external"). Returns 0 or a negative TK_E code with the
 * reason in `err`. */
int tk_run_prepare(tk_run *r, tk_spec *spec, const char *spec_dir, tk_error *err);
void tk_run_free(tk_run *r);
/* 1 if an agent of the spec is external (a client of `taikai serve`; its plugin descriptor is a
 * placeholder whose entry points are NULL: never hand such a run to the worker pool). */
int tk_run_has_external(const tk_run *r);

/* Makes the file at `path` part of agent `agent`'s identity under `role` (e.g. the weights a
 * plugin loads): hashes it now, and the resolved spec lists it beside the plugin file, so that
 * a resume with other bytes there is refused. Call after tk_run_prepare and before the output
 * folder is checked. Returns 0, TK_EINVAL (no such agent; a role not 1 to 31 characters among
 * a-z 0-9 _ -, "plugin", or already given for this agent) or TK_EIO (unreadable; the message
 * names the agent, the role and the path). */
int tk_run_add_file(tk_run *r, int agent, const char *role, const char *path, tk_error *err);

/* The units the run plays: all of the schedule's, or its shard's (harness/core/shard.c). */
void tk_run_units(const tk_run *r, uint64_t *first, uint64_t *end);

/* The resolved spec for <out>/spec.json (new reference): the spec with every default, the
 * resolved rules and params, each agent's plugin name and version, and its "files": the
 * plugin file first ({"role": "plugin", "path", "sha256"}), then tk_run_add_file's; and for a
 * shard its "shard" (tk_shard_json). */
json_t *tk_run_resolved_spec(const tk_run *r);

/* Receives each unit's record in unit order (the sink may change it: it is the pool's copy,
 * dropped after the call), with its packed decision records (records_len bytes; 0 without
 * --records). Returns 0, or a negative code to stop the run. */
typedef int (*tk_sink_fn)(void *ctx, tk_unit_rec *rec, const void *records,
                          size_t records_len);
/* Reports progress: units done (of `total`) since the run started. */
typedef void (*tk_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* Plays units [first, first + count) in `jobs` forked worker processes and hands every line to
 * `sink` in unit order. Crashes, exits, time-outs (spec.time_limit_ms per call,
 * spec.game_time_limit_ms per game) and memory faults (spec.memory_limit_mb) are recorded as
 * faults of the agent concerned, its worker is replaced and the run goes on. Stops early when
 * the sink returns non-zero or tk_run_stop_signal is set (TK_ESTATE). Returns 0 or a negative
 * TK_E code. */
int tk_pool_run(const tk_run *r, uint64_t first, uint64_t count, int jobs, tk_sink_fn sink,
                void *sink_ctx, tk_progress_fn progress, void *progress_ctx, tk_error *err);

/* A source of units for tk_pool_feed: returns 1 with the next range [*first, *first + *count)
 * (ranges disjoint, each above the ones before), 0 if none is there yet (only when `wait` is
 * 0: the pool has units in play and asks again), TK_FEED_END when no more will come, or a
 * negative code to stop the run. */
enum { TK_FEED_END = 2 };
typedef int (*tk_feed_fn)(void *ctx, int wait, uint64_t *first, uint64_t *count);

/* tk_pool_run over the units `feed` hands out, one worker pool for them all (`taikai run --mpi`
 * on the ranks that play); the sink gets them in the order fed. No progress is reported. */
int tk_pool_feed(const tk_run *r, tk_feed_fn feed, void *feed_ctx, int jobs, tk_sink_fn sink,
                 void *sink_ctx, tk_error *err);

/* Set (to the signal number) by a SIGINT/SIGTERM handler: the pool stops at once. */
extern volatile sig_atomic_t tk_run_stop_signal;

#endif
