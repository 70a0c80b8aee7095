/* harness/core/shard.h — shards of a tournament (`taikai run --shard K/N`), and a run folder's
 * tournament read back from its spec.json without loading a plugin (`taikai merge`).
 *
 * Shard K of N (K from 1) holds the whole walls [floor((K-1)W/N), floor(KW/N)) of a W-wall
 * tournament, and so the units [first, end) = those walls times the seatings per wall:
 * - every unit of a wall (all its seatings) is in one shard, so a shard's paired differences
 *   are those of its walls and its summary.json is a valid summary of what it holds;
 * - the units are one contiguous range (units are numbered wall-major): the worker pool plays
 *   it as it plays a resumed run's remainder, and its games.jsonl is a whole run's cut at two
 *   unit boundaries, so the merge of all shards is their lines in shard order;
 * - shards differ by at most one wall.
 * Units cost about the same whichever wall they play, so contiguous ranges balance as well as
 * an interleaving would. */
#ifndef TAIKAI_HARNESS_SHARD_H
#define TAIKAI_HARNESS_SHARD_H

#include "run.h"

enum { TK_SHARD_MAX = 1000000 }; /* N */

/* Parses "K/N" (decimal, 1 <= K <= N <= TK_SHARD_MAX). Returns 0, or -1. */
int tk_shard_parse(const char *text, uint32_t *k, uint32_t *n);

/* The walls [*lo, *hi) of shard k of n of a tournament of `walls` walls. */
void tk_shard_walls(uint64_t walls, uint32_t k, uint32_t n, uint64_t *lo, uint64_t *hi);

/* The "shard" member of a shard's spec.json and summary.json (new reference): {"index": K,
 * "count": N, "walls": [lo, hi], "units": [first, end], "spec": the spec file as given}
 * (ranges half-open); NULL when `r` is not a shard. */
json_t *tk_shard_json(const tk_run *r);

/* A tournament read back from a run folder's spec.json, no plugin loaded: what writing its
 * outputs again needs (the resolved spec, the rules, the schedule, each agent's plugin name,
 * version, params and files as recorded). Its run must never be handed to the worker pool. */
typedef struct tk_folder_run {
  tk_run run;                 /* plugins[i].desc points into descs; no handle */
  tk_agent_descriptor *descs; /* owned: name and version as recorded */
  json_t *resolved;           /* owned: the spec.json read (descs' strings live here) */
} tk_folder_run;

/* The spec a run folder's spec.json `resolved` was played from (what taikai adds to a spec
 * removed: its version, units, shard, and each agent's plugin name, version and files), parsed
 * into `spec` (caller frees). Refuses a spec.json of another taikai version. Returns 0, or
 * TK_EINVAL / TK_ENOMEM with a message naming `dir`'s spec.json and the field. */
int tk_folder_spec(const json_t *resolved, const char *dir, tk_spec *spec, tk_error *err);

/* Builds `f` from spec.json object `resolved` (new reference taken) of folder `dir`, without
 * its "shard"; `spec_path` is the spec file the run was played from (report.md's title). Checks
 * that writing it back gives the same spec.json (but "shard"): a spec.json this taikai would
 * not write is refused. Returns 0, or TK_EINVAL / TK_ENOMEM with a message naming `dir`'s
 * spec.json and the field. */
int tk_folder_run_load(tk_folder_run *f, json_t *resolved, const char *dir, const char *spec_path,
                       tk_error *err);
void tk_folder_run_free(tk_folder_run *f);

#endif
