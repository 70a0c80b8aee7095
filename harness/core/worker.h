/* harness/core/worker.h — the worker side of the pool (harness/core/worker.c) and what the parent
 * (harness/core/pool.c) shares with it: the pipe protocol, the confinement of a process that runs
 * agent code (its stdout, signals, memory limit, death with the referee), and the trial create
 * that vets each agent in a throw-away process before the run.
 *
 * Protocol: parent -> worker, on its command pipe: a tk_cmd (count 0: exit). Worker -> parent,
 * on its result pipe, per unit: a tk_msg_head, then `rec_len` bytes of tk_unit_rec (its first
 * nseats seats), `records_len` bytes of packed decision records, and `text_len` bytes of error
 * text (a referee failure, status < 0: no record). */
#ifndef TAIKAI_HARNESS_WORKER_H
#define TAIKAI_HARNESS_WORKER_H

#include <sys/types.h>

#include "loop.h"
#include "run.h"
#include "taikai/proc.h"

typedef struct tk_cmd {
  uint64_t first, count;           /* units [first, first + count) */
  uint32_t fallback;               /* bit s: seat s played by the fallback (a replay) */
  uint32_t reserved;
  tk_fault faults[TK_MAX_SEATS];   /* the faults of the fallback seats, from earlier tries */
} tk_cmd;

typedef struct tk_msg_head {
  uint64_t unit;
  int32_t status;       /* 0, or the TK_E code of a referee failure */
  uint32_t rec_len, records_len, text_len;
  int64_t cpu_ns;       /* the worker process's CPU time playing the unit (agents isolated in
                         * seat hosts not counted): a figure for tk_pool_stats, never a result */
} tk_msg_head;

/* Exit statuses of a worker that fails outside any agent call; an agent calling exit() inside
 * a call is a fault whatever its status. TK_WORKER_EXIT_PIPE: the result pipe failed, which
 * while the referee lives means an agent closed it. */
enum { TK_WORKER_EXIT_NOMEM = 101, TK_WORKER_EXIT_PIPE = TK_LOOP_EXIT_PIPE };

int tk_write_all(int fd, const void *p, size_t n);
int tk_read_all(int fd, void *p, size_t n);

/* Starts a child that will run agent code (tk_proc_spawn) and runs fn(arg) in it, confined:
 * default signals and an empty mask, a process group of its own (the parent kills the group,
 * so a process an agent forks cannot outlive its worker), only the descriptors
 * `keep[0..nkeep-1]` besides 0-2 (as 3, 4, ... in the child: an agent cannot write into the
 * referee's files, its lock or a sibling's pipes), death with the referee (Linux
 * PR_SET_PDEATHSIG), nothing done on SIGINT/SIGTERM (the referee stops its workers itself; a
 * handler that does nothing, which exec resets, so a program an agent runs starts with every
 * signal at its default), stdin from /dev/null and stdout to stderr (so an agent's prints never
 * mix with the referee's output), and the spec's memory limit (RLIMIT_AS, with a handler that
 * records in `watch`, which may be NULL, the signal, errno and address space of a crash).
 * Returns 0 with *pid, or TK_EIO with `err`. */
int tk_worker_spawn(const tk_run *r, tk_watch *watch, const int *keep, int nkeep, tk_proc_fn fn,
                    void *arg, pid_t *pid, tk_error *err);

/* The worker process: creates agents when a unit first needs them, plays the units it is sent
 * and writes their lines; destroys its agents and exits on a count of 0. Never returns. */
void tk_worker_main(const tk_run *r, int cmd_fd, int res_fd, tk_watch *watch);

/* How a process started by tk_worker_spawn (a worker, a seat host) died, from its wait status
 * and its watch: a signal is a crash, or a memory fault when the memory limit explains it
 * (errno ENOMEM, or the address space within an eighth of the limit, at the crash); the
 * sanitizer's exit after its report is a crash; any other exit is an exit with its status.
 * Sets f->kind and its members (not seat, entry or decision). Returns the exit status (-1 for
 * a signal), for the caller's own exit codes (TK_WORKER_EXIT_PIPE, TK_WORKER_EXIT_NOMEM). */
int tk_worker_death(const tk_spec *sp, const tk_watch *w, int status, tk_fault *f);

/* The shared memory every worker inherits (the pool's watches): a worker's isolated agents'
 * hosts unmap it, so an agent's code never sees a watch record. Set before forking. */
void tk_worker_set_shared(void *base, size_t len);

/* The files an agent's instance names through its descriptor's optional `file` entry. */
typedef struct tk_trial_files {
  int n;
  char role[TK_AGENT_MAX_FILES][32];
  char path[TK_AGENT_MAX_FILES][TK_PATH_MAX];
} tk_trial_files;

/* Creates and destroys agent `agent` in a throw-away child process (confined as a worker, with
 * the per-call time limit), so that a create that fails, crashes, exits or hangs refuses the
 * run before it starts without harming the referee; between the two, asks the instance for
 * its files (`file`), returned in *files. Returns 0 or TK_EINVAL with the reason. */
int tk_worker_trial(const tk_run *r, int agent, tk_trial_files *files, tk_error *err);

/* 1 if the memory limit is an address-space limit (RLIMIT_AS); 0 in AddressSanitizer builds,
 * whose shadow memory rules RLIMIT_AS out: there the parent watches the resident size. */
int tk_worker_rlimit_ok(void);

/* Resident set size of process `pid` in bytes (/proc/PID/statm), or -1. */
int64_t tk_proc_rss(pid_t pid);

#endif
