/* harness/core/confine.h — what keeps an isolated seat's code (`"isolation": "process"`, and
 * every plugin seat of `taikai serve`) away from the referee's processes, beyond running in a
 * process of its own (seat_host.h). Linux only; no root needed.
 *
 * Two measures, each for one way in:
 * - the referee's processes (the referee, its workers, `taikai serve`) are made non-dumpable
 *   while a run has an isolated seat, so that a process of the same user cannot open their
 *   memory (/proc/PID/mem) or attach to them; /proc/PID/stat, schedstat and children, which the
 *   CPU clocks read, stay readable;
 * - a seat host installs a seccomp filter before the agent's code runs, inherited by every
 *   process the agent starts: ptrace, process_vm_readv and process_vm_writev are refused
 *   (EPERM; ptrace is let through in AddressSanitizer builds, whose leak checker needs it), and
 *   so are signals (kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo,
 *   pidfd_open) and setpgid aimed at the host's parent or grandparent or at their process groups,
 *   and kill(-1, ...). The agent's own processes, and programs it runs (riichi_mjai's bots), are
 *   untouched.
 *
 * What stays open: a user's root processes can do anything (root may open any /proc/PID/mem);
 * run taikai as an ordinary user where agents are not trusted. */
#ifndef TAIKAI_HARNESS_CONFINE_H
#define TAIKAI_HARNESS_CONFINE_H

#include "spec.h"

/* In a referee's process (the referee, a worker, the server) that will start seat hosts: makes
 * it non-dumpable (children forked later inherit it; a seat host undoes it for itself) when a
 * seat of `sp` is isolated, or always when `sp` is NULL (`taikai serve`, whose plugin seats all
 * are). */
void tk_confine_referee(const tk_spec *sp);

/* In a seat host, before the agent's code runs: dumpable again (so the agent's own crash can
 * dump core) and the seccomp filter above. Returns 0, or -1 when the kernel refuses the filter
 * (the host goes on confined by its process alone). */
int tk_confine_seat(void);

#endif
