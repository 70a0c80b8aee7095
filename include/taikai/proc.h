/* taikai/proc.h — the one owner of the processes taikai starts and ends: the referee's workers,
 * trial creates and seat hosts, and the programs a plugin runs (riichi_mjai's bots).
 *
 * tk_proc_spawn is the only fork of the referee and of riichi_mjai: every child starts with
 * default signal dispositions and an empty mask (tk_proc_child_defaults), holds only the
 * descriptors it is given, and may lead its own process group, die with its parent and be the
 * subreaper of its tree. tk_proc_end is the one way a started process is ended cleanly: its
 * stdin closed, a grace period, then its whole group or tree signalled and reaped. */
#ifndef TAIKAI_PROC_H
#define TAIKAI_PROC_H

#include <sys/types.h>

#include "taikai/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a child started with a function runs; its return value is the child's exit status. */
typedef int (*tk_proc_fn)(void *arg);

/* How to start a child (designated initialisers: every field left out is 0). In the child, in
 * this order: default signals and an empty mask; its own process group (new_group); map[i]
 * onto descriptor i; keep[i] onto descriptor 3 + i; every other descriptor closed; the parent
 * death signal; the subreaper flag; then fn(arg) or the program. */
typedef struct tk_proc_opts {
  tk_proc_fn fn;         /* run in the child, which then exits with its return value; or NULL */
  void *arg;             /* fn's argument */
  char *const *argv;     /* without fn: the program (found through PATH when argv[0] has no '/')
                          * and its arguments, NULL-terminated */
  int map[3];            /* descriptor duplicated onto 0, 1, 2; a negative one: left as it is.
                          * Give -1 explicitly: 0 maps descriptor 0 onto itself */
  const int *keep;       /* descriptors kept, as 3, 4, ... in this order; the rest are closed */
  int nkeep;             /* at most TK_PROC_KEEP_MAX */
  int new_group;         /* lead a process group of its own (set on both sides of the fork, so
                          * a kill of the group never misses) */
  int pdeath_signal;     /* sent to the child when its parent dies (Linux PR_SET_PDEATHSIG); 0:
                          * none. A child whose parent died before it was set exits at once */
  int subreaper;         /* the child is the subreaper of its tree (PR_SET_CHILD_SUBREAPER).
                          * With argv, it becomes the program's keeper: see tk_proc_spawn */
  int fail_exit;         /* the child's exit status when its set-up fails; 0: 127 */
} tk_proc_opts;

enum { TK_PROC_KEEP_MAX = 16 };

/* Starts a child as `o` says; its pid goes to *pid. With argv, returns once the program runs
 * (its exec succeeded): a program that cannot be run is an error here, its child reaped. With
 * argv and subreaper, *pid is a keeper: a process that runs the program as its own child, is
 * the subreaper of its tree (a daemon the program leaves behind, `setsid` or not, becomes the
 * keeper's child), holds neither the program's stdin nor its stdout, and when the program
 * exits or the keeper gets SIGTERM (give SIGTERM as pdeath_signal so that its parent's death
 * does too), kills every process of the tree, reaps them and exits with the program's exit
 * status (128 + its signal if it was killed). Returns 0, or TK_EINVAL (bad options) or TK_EIO
 * (pipe, fork, exec) with the reason in `err`. */
TK_API int tk_proc_spawn(const tk_proc_opts *o, pid_t *pid, tk_error *err);

/* One process for tk_proc_end. */
typedef struct tk_proc_ending {
  pid_t pid;        /* a child of the caller, best leading its own group (else only it is
                     * signalled); 0: skipped. Set to 0 once reaped */
  int stdin_fd;     /* the caller's end of its stdin, closed first (-1: none) */
  int status;       /* out: its wait status (0 if it was reaped elsewhere) */
  int signalled;    /* out: 0 if it ended within the grace, else 1 */
} tk_proc_ending;

/* Ends the processes p[0..n-1] together: closes their stdin_fd, gives them grace_ms to exit
 * (negative: waits as long as it takes), then sends the group of each one left SIGTERM and
 * gives them term_ms more (0: no SIGTERM), then SIGKILL (group and process); reaps each and
 * kills what is left of its group. A keeper (tk_proc_spawn) ends its whole tree on SIGTERM.
 * When it returns, none of them runs. */
TK_API void tk_proc_end(tk_proc_ending *p, int n, int grace_ms, int term_ms);

/* In a freshly forked child: every signal's disposition back to SIG_DFL and the signal mask
 * emptied. Only async-signal-safe calls (sigaction, sigprocmask); cannot fail. tk_proc_spawn
 * calls it first thing in every child. */
TK_API void tk_proc_child_defaults(void);

/* Sends `sig` to every process whose parent is `parent` (found in /proc). Returns how many
 * were signalled, or -1 when /proc cannot be read. In a subreaper (PR_SET_CHILD_SUBREAPER) that
 * repeats this with SIGKILL and reaps until no child is left, every descendant ends, daemons
 * that left their session included: each becomes its child when its own parent dies. */
TK_API int tk_proc_signal_children(pid_t parent, int sig);

/* The parent process of `pid` (from /proc/PID/stat), or -1 when it cannot be read. */
TK_API pid_t tk_proc_parent(pid_t pid);

#ifdef __cplusplus
}
#endif

#endif
