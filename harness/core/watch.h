/* harness/core/watch.h — what a worker tells its parent about the agent call in progress, in
 * memory shared between the two: which agent, seat and entry point, since when, and the
 * decision it was asked. The parent reads it to stop a call past its time limit and to
 * attribute a crash; the worker's loop (loop.c) reads it to charge time to each seat.
 * `seq` changes at the start and the end of every call, so the parent can tell a consistent
 * reading from one taken while it changed. */
#ifndef TAIKAI_HARNESS_WATCH_H
#define TAIKAI_HARNESS_WATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cpuclock.h"
#include "fault.h"

enum { TK_WATCH_SEATS = 8, TK_WATCH_SNAP = 4096 };

typedef struct tk_watch {
  volatile int64_t since_ns;  /* CLOCK_MONOTONIC time the current call began, 0 if none */
  volatile int32_t seat;      /* seat of the agent being called, -1 if none */
  volatile uint64_t unit;     /* unit being played */
  volatile uint32_t seq;      /* odd while inside a call */
  volatile int32_t entry;     /* tk_entry of the current or last call */
  volatile int32_t last_seat; /* seat of the current or last call (kept after it returns) */
  volatile int32_t agent;     /* spec index of the agent of the current or last call, -1 */
  volatile int64_t last_ns;   /* duration of the last finished call */
  volatile int64_t used_ns[TK_WATCH_SEATS]; /* each seat's call time in the unit (not create) */
  int64_t call_limit_ns;      /* per-call limit, 0 none (set by the parent before forking) */
  int64_t game_limit_ns;      /* per-game limit per agent, 0 none */
  int64_t idle_limit_ns;      /* per call: time neither running nor waiting to run, 0 none */
  int32_t wall_clock;         /* 1: limits in wall-clock time; 0: in CPU time (cpuclock.h) */
  /* CPU time and run-queue wait of the worker and its descendants (cpuclock.h) with the wall
   * clock: the last exact reading (taken by the worker at most every TK_WATCH_SAMPLE_NS of wall
   * time, and after every call that lasted longer), and the reading the current call is
   * charged from (the last one before it began); the parent reads the same clocks */
  volatile int64_t cpu_ref_ns, wait_ref_ns, wall_ref_ns;
  volatile int64_t cpu_since_ns, wait_since_ns, wall_since_ns;
  volatile uint64_t shape_ref, shape_since; /* the tree's shape with each (tk_tree_clock) */
  volatile int64_t last_idle_ns; /* the last finished call's idle time (CPU clock) */
  volatile int32_t snap_len;  /* bytes of the last decision asked (the game's view struct) */
  volatile int32_t crash_signal; /* set by the worker's crash handler (memory limit set) */
  volatile int32_t crash_errno;  /* errno when it crashed (ENOMEM: a failed allocation) */
  volatile int64_t crash_vm;     /* the worker's address space when it crashed, bytes */
  uint8_t snap[TK_WATCH_SNAP];
} tk_watch;

/* A call shorter than this (wall clock) is charged its wall-clock time, which bounds its CPU
 * time, without reading the CPU clock: the clock is read at most once per this much wall time
 * and after every longer call, so that fast agents pay no system call per decision. */
#define TK_WATCH_SAMPLE_NS 1000000

/* A call of entry point `entry` (tk_entry) of agent `agent` (spec index) in `seat`. */
void tk_watch_call(tk_watch *w, int seat, int agent, int entry);
/* The call returned: its duration (CPU time, or wall-clock time with wall_clock) goes to
 * last_ns and to the seat's used_ns. */
void tk_watch_leave(tk_watch *w);
/* A new unit (or a new try of one): resets the per-game clocks and the decision. */
void tk_watch_unit(tk_watch *w, uint64_t unit);
/* Records the decision about to be asked (`len` bytes, at most TK_WATCH_SNAP). */
void tk_watch_decision(tk_watch *w, const void *snap, size_t len);
/* After tk_watch_leave: 1 if that call passed the per-call limit or its idle limit, or the
 * seat's calls in this unit passed the per-game limit (filling `*fault` with a TK_FAULT_TIMEOUT for `seat` and
 * `entry`), else 0. w may be NULL (no limits). */
int tk_watch_over(const tk_watch *w, int seat, int entry, tk_fault *fault);
int64_t tk_now_ns(void);

/* The parent's look at the calls of one watched process (a worker, a seat host); all zero
 * before the first. */
typedef struct tk_watch_meter {
  int64_t next_ns;            /* no new reading of the CPU clock before this */
  uint32_t seq;               /* the call followed below: its watch seq ... */
  int64_t since_ns;           /* ... and its start (wall_since_ns) */
  int started;                /* 1 once a call is followed */
  tk_tree_clock last;         /* the last reading of that call */
  int64_t idle_ns;            /* the call's idle time up to it (a sum of tk_tree_idle) */
} tk_watch_meter;

/* Judges the call in progress in `w`, run by process `pid` (with its descendants), at `now`:
 * 1 with *f a TK_FAULT_TIMEOUT (limit, limit_ms, seat, entry) when it passed its per-call,
 * per-game or idle limit, else 0. With the CPU clock the process tree's clocks are read at
 * most every 10 ms per process, and only once the call has lasted 10 ms of wall time; the
 * call's idle time is the sum of tk_tree_idle over the intervals between those readings (an
 * interval in which a process left the tree counts as no idle time). */
int tk_watch_judge(const tk_watch *w, pid_t pid, tk_watch_meter *m, int64_t now, tk_fault *f);

/* A call of process `pid` timed from outside, without a watch record (the trial create before
 * a run, a seat host's call): started with tk_span_start, judged with tk_span_over. */
typedef struct tk_span {
  pid_t pid;
  int wall_clock;                 /* as tk_watch.wall_clock */
  int64_t wall0;                  /* at the start: wall time ... */
  tk_tree_clock start;            /* ... and the tree's clocks */
  tk_tree_clock last;             /* the last reading (tk_span_over) */
  int64_t idle_ns;                /* idle time up to it: a sum of tk_tree_idle */
} tk_span;
void tk_span_start(tk_span *s, pid_t pid, int wall_clock);
/* Reads the clocks: TK_LIMIT_CALL + 1 when the call passed `call_limit_ns` (0: none) of its
 * clock, TK_LIMIT_IDLE + 1 when it passed `idle_limit_ns` (0: none; CPU clock only) of idle
 * time (summed over the intervals between calls of this function, as tk_watch_judge does),
 * else 0. */
int tk_span_over(tk_span *s, int64_t call_limit_ns, int64_t idle_limit_ns);

#endif
