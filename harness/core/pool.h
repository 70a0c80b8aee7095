/* harness/core/pool.h — the worker pool's dispatch policy (how many units a worker is sent at
 * once, and in which order units go out), the figures of its last run (the parent's CPU per
 * unit, each unit's CPU), and a model of its schedule on many cores. The pool itself is
 * tk_pool_run / tk_pool_feed (run.h, pool.c). The dispatch order never changes an output: the
 * sink gets every record in unit order whatever order the units were played in. */
#ifndef TAIKAI_HARNESS_POOL_H
#define TAIKAI_HARNESS_POOL_H

#include <stdint.h>

/* The units sent to a worker at once when `left` units remain to be handed out among `jobs`
 * workers: guided self-scheduling, left / (TK_POOL_CHUNK_SHARE * jobs), within
 * [1, TK_POOL_CHUNK_MAX]; 0 when left is 0. A large chunk costs the parent one command and one
 * wake-up for many units; near the end of the run chunks shrink to one unit, so that no
 * worker is left with a long chunk while the others are idle. */
enum { TK_POOL_CHUNK_MAX = 64, TK_POOL_CHUNK_SHARE = 4 };
uint64_t tk_pool_chunk(uint64_t left, int jobs);

/* The figures of the last tk_pool_run / tk_pool_feed in this process (set as it returns; one
 * pool at a time). */
typedef struct tk_pool_stats {
  int jobs;                  /* workers */
  uint64_t units;            /* records handed to the sink */
  uint64_t commands;         /* chunks and replays sent to workers */
  int64_t wall_ns;           /* from the first worker's start to the last one's end */
  int64_t parent_cpu_ns;     /* the parent's own CPU (user + system, workers not counted) over
                              * the same span: pipes, reordering, the sink (lines, games.chain,
                              * tallies, progress), watching the workers */
  int64_t unit_cpu_ns;       /* the units' CPU in their workers, summed (tk_msg_head.cpu_ns) */
  int64_t unit_cpu_max_ns;   /* the longest unit's */
} tk_pool_stats;
void tk_pool_last_stats(tk_pool_stats *out);

/* Asks the next pool run in this process to store the CPU time of the unit it hands to the
 * sink i-th into cpu_ns[i], for i < cap (the caller owns the array; NULL stops it). */
void tk_pool_keep_unit_cpu(int64_t *cpu_ns, uint64_t cap);

/* A model of the pool on a machine with a core per worker: `n` units of CPU times t[0..n)
 * (in unit order) handed out by tk_pool_chunk in unit order to `jobs` workers, each taking the
 * next chunk the moment it is idle, the parent's `parent_ns` per unit taken from the same cores
 * (each unit costs its worker t[i] + parent_ns) and bounded below by the parent's own serial
 * work (n * parent_ns). Returns the modelled run time in ns (0 when n is 0); the projected
 * speed-up at `jobs` workers is (sum of t) / that. Every input is an integer: the same inputs
 * give the same answer on every machine. */
int64_t tk_pool_model(const int64_t *t, uint64_t n, int jobs, int64_t parent_ns);

#endif
