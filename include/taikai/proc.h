/* taikai/proc.h — what every process taikai starts gets, and how a process tree is ended.
 *
 * Every fork of the referee (workers, trial creates, seat hosts) and of a plugin that starts
 * programs (riichi_mjai's bots) calls tk_proc_child_defaults() first thing in the child, so a
 * program it runs never inherits the referee's ignored or blocked signals (a bot started with
 * SIGTERM ignored leaves daemons that a plain `kill` cannot stop). */
#ifndef TAIKAI_PROC_H
#define TAIKAI_PROC_H

#include <sys/types.h>

#include "taikai/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* In a freshly forked child: every signal's disposition back to SIG_DFL and the signal mask
 * emptied. Only async-signal-safe calls (sigaction, sigprocmask); cannot fail. */
TK_API void tk_proc_child_defaults(void);

/* Sends `sig` to every process whose parent is `parent` (found in /proc). Returns how many
 * were signalled, or -1 when /proc cannot be read. In a subreaper (PR_SET_CHILD_SUBREAPER) that
 * repeats this with SIGKILL and reaps until no child is left, every descendant ends, daemons
 * that left their session included: each becomes its child when its own parent dies. */
TK_API int tk_proc_signal_children(pid_t parent, int sig);

#ifdef __cplusplus
}
#endif

#endif
