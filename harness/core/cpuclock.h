/* harness/core/cpuclock.h — the clock agents' time limits are charged in: the CPU time (user +
 * system, every thread) of the process that runs an agent and of every process it started
 * (an external bot and its children), read by the process itself or by whoever watches it.
 * Unlike wall-clock time it does not grow while the machine is busy with other work, so a
 * verdict does not depend on the load (docs/referee.md, "Time limits"). */
#ifndef TAIKAI_HARNESS_CPUCLOCK_H
#define TAIKAI_HARNESS_CPUCLOCK_H

#include <stdint.h>
#include <sys/types.h>

/* The CPU time, in ns, of process `pid` (0: this process) and its descendants (at most 64
 * processes, 4 generations deep, found through /proc/PID/task/TID/children); with `wait` not
 * NULL, also the time their main threads spent runnable but waiting for a CPU
 * (/proc/PID/schedstat, second field). A process that ends between two readings takes its
 * time with it: compare readings of one call, and clamp differences at 0. Returns -1 when
 * `pid` is gone. */
int64_t tk_cpu_tree_ns(pid_t pid, int64_t *wait);

/* 1 when a thread of process `pid` (0: this process, the calling thread left out) or of a
 * process it started is runnable now: running, or waiting for a CPU (state R in
 * /proc/PID/task/TID/stat); else 0. The wait of a task still in the run queue is not yet in its
 * schedstat (the kernel adds it when the task gets the CPU), so an idle time computed from
 * tk_cpu_tree_ns's `wait` while a task waits counts that wait as idle: a tree with a runnable
 * thread is not idle, whatever that sum says. */
int tk_cpu_tree_runnable(pid_t pid);

#endif
