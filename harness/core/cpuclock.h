/* harness/core/cpuclock.h — the clock agents' time limits are charged in: the CPU time (user +
 * system, every thread) of the process that runs an agent and of every process it started
 * (an external bot and its children), read by the process itself or by whoever watches it.
 * Unlike wall-clock time it does not grow while the machine is busy with other work, so a
 * verdict does not depend on the load (docs/referee.md, "Time limits"). */
#ifndef TAIKAI_HARNESS_CPUCLOCK_H
#define TAIKAI_HARNESS_CPUCLOCK_H

#include <stdint.h>
#include <sys/types.h>

/* A reading of the clocks of process `pid` (0: this process) and its descendants (at most 64
 * processes, 4 generations deep, found through /proc/PID/task/TID/children). */
typedef struct tk_tree_clock {
  /* CPU time, ns (user + system, every thread) of the processes, plus what the children they
   * reaped had used (cutime + cstime of /proc/PID/stat, in clock ticks): a helper that a
   * process of the tree started and reaped during a call is charged to the call */
  int64_t cpu_ns;
  /* the time the processes' main threads spent runnable but waiting for a CPU
   * (/proc/PID/schedstat, second field); a process that ends takes its wait with it */
  int64_t wait_ns;
  /* a digest of which processes the tree holds and of how many children they have reaped
   * (cminflt + cmajflt): it changes when a process joins or leaves the tree, so a reader can
   * tell the interval in which a process's run-queue wait was lost */
  uint64_t shape;
  /* CLOCK_MONOTONIC just before and just after the reading (tk_now_ns), which was taken at some
   * instant between the two. An interval's idle time runs from the first reading's wall_hi to
   * the second's wall_lo: a reader preempted between the wall clock and the clocks (on a
   * loaded machine, for hundreds of ms) would otherwise count its own wait, or the tree's run
   * in that time, as the tree's idle time. Within this pair the error can only shrink it. */
  int64_t wall_lo, wall_hi;
} tk_tree_clock;

/* Reads the clocks of `pid`'s tree into *c; returns 0, or -1 when `pid` is gone. Compare
 * readings of one call; tk_tree_idle judges the interval between two. */
int tk_cpu_tree_read(pid_t pid, tk_tree_clock *c);

/* The idle time of a tree between readings a and b, in ns: the wall time from a->wall_hi to
 * b->wall_lo less CPU time less run-queue wait (each difference clamped at 0); at most 0 where the
 * tree's shape changed, since a process that left took its run-queue wait (and, until reaped,
 * its CPU time) out of the sums, which would otherwise count that time as idle. May be
 * negative (a multi-threaded tree runs faster than the wall clock): callers sum intervals and
 * judge the sum. */
int64_t tk_tree_idle(const tk_tree_clock *a, const tk_tree_clock *b);

/* 1 when a thread of process `pid` (0: this process, the calling thread left out) or of a
 * process it started is runnable now: running, or waiting for a CPU (state R in
 * /proc/PID/task/TID/stat); else 0. The wait of a task still in the run queue is not yet in its
 * schedstat (the kernel adds it when the task gets the CPU), so an idle time computed from
 * tk_cpu_tree_ns's `wait` while a task waits counts that wait as idle: a tree with a runnable
 * thread is not idle, whatever that sum says. */
int tk_cpu_tree_runnable(pid_t pid);

/* A reading that may end a call for idleness: the clocks of `pid`'s tree (0: this process, the
 * calling thread left out of the look), read just after finding none of its threads runnable,
 * the whole within TK_SETTLE_NS of wall time (up to three tries). Returns 1 when it found none
 * runnable in such a reading: no thread waited for a CPU at the look, so every run-queue wait
 * begun before c->wall_lo had ended and is in c's sums, and one begun since is shorter than
 * TK_SETTLE_NS, so the idle time up to c is exact to that; 0 when a thread was runnable or no
 * try was quick enough (c is then a plain reading); -1 when `pid` is gone. */
#define TK_SETTLE_NS 2000000
int tk_cpu_tree_settled(pid_t pid, tk_tree_clock *c);

#endif
