/* harness/core/worker.h — the worker side of the pool (harness/core/worker.c) and what the parent
 * (harness/core/pool.c) shares with it: the pipe protocol, the confinement of a process that runs
 * agent code (its stdout, signals, memory limit, death with the referee), and the trial create
 * that vets each agent in a throw-away process before the run.
 *
 * Protocol: parent -> worker, on its command pipe: {uint64 first, uint64 count, uint64 fallback}
 * (count 0: exit; fallback: bit s = seat s is played by the game's fallback agent, for the
 * replay of a unit whose agent in seat s crashed; 0 for ordinary chunks).
 * Worker -> parent, on its result pipe, per unit: a tk_msg_head and `len` bytes of JSON line. */
#ifndef TAIKAI_HARNESS_WORKER_H
#define TAIKAI_HARNESS_WORKER_H

#include <sys/types.h>

#include "run.h"

typedef struct tk_msg_head {
  uint64_t unit;
  int32_t status; /* 0, or the TK_E code of a referee failure (no line) */
  uint32_t len;
} tk_msg_head;

/* Exit statuses of a worker that fails outside any agent call (a referee failure, not a
 * fault); an agent calling exit() inside a call is a fault whatever its status. */
enum { TK_WORKER_EXIT_NOMEM = 101, TK_WORKER_EXIT_PIPE = 102 };
enum { TK_CMD_WORDS = 3 }; /* uint64 words of a command */

int tk_write_all(int fd, const void *p, size_t n);
int tk_read_all(int fd, void *p, size_t n);

/* In a freshly forked child that will run agent code: dies with the referee (Linux
 * PR_SET_PDEATHSIG), ignores SIGINT/SIGTERM (the referee stops its workers itself), reads
 * /dev/null and writes its stdout to stderr (so an agent's prints never mix with the referee's
 * output), and applies the spec's memory limit (RLIMIT_AS, with a handler that records in
 * `watch`, which may be NULL, the signal, errno and address space of a crash). */
void tk_worker_guard(const tk_run *r, tk_watch *watch);

/* The worker process: creates agents when a unit first needs them, plays the units it is sent
 * and writes their lines; destroys its agents and exits on a count of 0. Never returns. */
void tk_worker_main(const tk_run *r, int cmd_fd, int res_fd, tk_watch *watch);

/* Creates and destroys agent `agent` in a throw-away child process (confined as a worker, with
 * the per-call time limit), so that a create that fails, crashes, exits or hangs refuses the
 * run before it starts without harming the referee. Returns 0 or TK_EINVAL with the reason. */
int tk_worker_trial(const tk_run *r, int agent, tk_error *err);

/* 1 if the memory limit is an address-space limit (RLIMIT_AS); 0 in AddressSanitizer builds,
 * whose shadow memory rules RLIMIT_AS out: there the parent watches the resident size. */
int tk_worker_rlimit_ok(void);

/* Resident set size of process `pid` in bytes (/proc/PID/statm), or -1. */
int64_t tk_proc_rss(pid_t pid);

#endif
