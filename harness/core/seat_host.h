/* harness/core/seat_host.h — one plugin seat of `taikai serve` played in a process of its own.
 *
 * The server holds its clients' sockets, so it plays its units in its own process; a plugin
 * called there could hang the server or take it down. Each plugin seat therefore gets a host:
 * a child forked from the server once the plugins are loaded, confined as the pool's workers
 * are (tk_worker_spawn: its own process group, only its two pipes, stdout to stderr, the memory
 * limit, death with the server), which creates the agent and answers the server's calls of its
 * entry points one at a time over a pipe. The agent works on the host's copies of the view,
 * legal actions, info and result, so nothing it writes reaches the server. Every call is
 * watched through a tk_watch in shared memory, as in the workers: the server stops a call past
 * the spec's per-call or per-game time limit, or (where RLIMIT_AS cannot be used) past the
 * memory limit, by killing the host's process group, and reads a host's death (a signal, an
 * exit, a closed pipe) as a fault of the seat's agent, with the same kinds and members as
 * `taikai run` writes.
 *
 * Protocol on the pipes (both ends are this program, so structs cross as bytes): the server
 * writes an int32 entry (tk_entry) and the entry's structs (begin_game: the info; act: the view
 * and the legal actions; end_game: the result; destroy: nothing, then the host exits); the host
 * answers an int32 (the entry's return value; 0 for end_game), for act the action, and after a
 * begin_game or act that returned an error the agent's last_error (TK_FAULT_MESSAGE_MAX bytes,
 * NUL-terminated). Create is made once at the start, answered the same way. */
#ifndef TAIKAI_HARNESS_SEAT_HOST_H
#define TAIKAI_HARNESS_SEAT_HOST_H

#include <stdint.h>
#include <sys/types.h>

#include "run.h"

typedef struct tk_seat_host {
  pid_t pid;      /* 0: no host running */
  int req_fd;     /* server -> host */
  int rep_fd;     /* host -> server */
  int agent;      /* spec index */
  int seat;
  tk_watch *watch; /* shared with the host (mmap) */
  void *unmap;    /* set by the caller before start: shared memory the host must not see (a
                   * worker's watches), unmapped in the host; NULL: none */
  size_t unmap_len;
  char last_error[TK_FAULT_MESSAGE_MAX]; /* the agent's last_error after a call that returned
                                          * an error ("" if it gave none) */
} tk_seat_host;

/* Forks the host of agent `agent` in seat `seat` and creates the agent there (within the
 * per-call limit). Returns 1 when it runs; 0 when create faulted (*f says how; no host left);
 * or a negative TK_E code (fork, pipe, memory: the server's failure) with `err`. */
int tk_seat_host_start(tk_seat_host *h, const tk_run *r, int agent, int seat, tk_fault *f,
                       tk_error *err);

/* A new unit: the per-game clocks start again. */
void tk_seat_host_unit(tk_seat_host *h, uint64_t unit);

/* Calls `entry` (TK_ENTRY_BEGIN with `a` the info; TK_ENTRY_ACT with `a` the view, `b` the
 * legal actions and `action` receiving the action; TK_ENTRY_END with `a` the result) in the
 * host. Returns 1 with *ret the entry's return value; 0 when the call faulted (a time limit, a
 * crash, an exit, the memory limit, a closed pipe: *f, with the decision described for act;
 * the host is gone); or a negative TK_E code: TK_ESTATE when tk_run_stop_signal interrupted the
 * wait (the host is gone), another for the server's own failure. */
int tk_seat_host_call(tk_seat_host *h, const tk_run *r, int entry, const void *a, const void *b,
                      void *action, int *ret, tk_fault *f, tk_error *err);

/* Asks the host to destroy its agent and exit, waits for it within the per-call limit (1 s
 * without one), then kills what is left of its process group. Idempotent. */
void tk_seat_host_stop(tk_seat_host *h, const tk_run *r);

/* Kills the host at once (after a fault, or when the run stops). Idempotent. */
void tk_seat_host_kill(tk_seat_host *h);

/* Releases the shared watch (after stop or kill). */
void tk_seat_host_free(tk_seat_host *h);

#endif
