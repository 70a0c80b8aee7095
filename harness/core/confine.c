/* harness/core/confine.c — see confine.h. The filter is classic BPF over struct seccomp_data,
 * written out here (no libseccomp: a dozen instructions). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine.h"
#include "taikai/proc.h"

/* Under AddressSanitizer the filter lets ptrace through: LeakSanitizer's tracer attaches to the
 * threads of a process that calls exit() (an agent may), and would die of EPERM. */
#if defined(__SANITIZE_ADDRESS__)
#define TK_PTRACE_NR 0xffffffffu /* no system call: the rule never matches */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TK_PTRACE_NR 0xffffffffu
#endif
#endif
#ifndef TK_PTRACE_NR
#define TK_PTRACE_NR __NR_ptrace
#endif

#if defined(__x86_64__)
#define TK_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TK_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

void tk_confine_referee(const tk_spec *sp) {
  int isolated = !sp;
  for (int i = 0; sp && i < sp->nagents; i++) isolated |= sp->agents[i].isolated;
  if (isolated) prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int tk_confine_seat(void) {
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
#ifndef TK_AUDIT_ARCH
  return -1;
#else
  pid_t parent = getppid(), grand = tk_proc_parent(parent);
  pid_t pg = getpgid(parent), gpg = grand > 0 ? getpgid(grand) : -1;
  if (gpg <= 0) gpg = pg;
  if (grand <= 0) grand = parent;
  /* the values a targeted call's argument must not take (as 32-bit: pid_t) */
  uint32_t bad[9] = {(uint32_t)parent, (uint32_t)-parent, (uint32_t)grand, (uint32_t)-grand,
                     (uint32_t)pg,     (uint32_t)-pg,     (uint32_t)gpg,   (uint32_t)-gpg,
                     (uint32_t)-1};
#define DENY BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define NR(n, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (n), (skip), 0)
#define BAD(i) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, bad[i], 10 - (i), 0) /* to the last DENY */
  struct sock_filter prog[] = {
      /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TK_AUDIT_ARCH, 1, 0),
      /* 2 */ DENY, /* another architecture's calls (x32, i386 on x86-64): not ours */
      /* 3 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      /* 4 */ NR(TK_PTRACE_NR, 11),
      /* 5 */ NR(__NR_process_vm_readv, 10),
      /* 6 */ NR(__NR_process_vm_writev, 9),
      /* 7 */ NR(__NR_kill, 9),
      /* 8 */ NR(__NR_tkill, 8),
      /* 9 */ NR(__NR_tgkill, 7),
      /* 10 */ NR(__NR_rt_sigqueueinfo, 6),
      /* 11 */ NR(__NR_rt_tgsigqueueinfo, 5),
      /* 12 */ NR(__NR_pidfd_open, 4),
      /* 13 */ NR(__NR_setpgid, 5),
      /* 14 */ ALLOW,
      /* 15 */ DENY, /* ptrace, process_vm_* */
      /* 16 */ DENY,
      /* 17: a signal: its first argument, the target */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
      /* 18 */ BPF_JUMP(BPF_JMP | BPF_JA, 2, 0, 0),
      /* 19: setpgid: its second argument, the group to join */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
      /* 20 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 10, 0), /* (x, 0): a group of its own */
      /* 21-29 */ BAD(0), BAD(1), BAD(2), BAD(3), BAD(4), BAD(5), BAD(6), BAD(7), BAD(8),
      /* 30 */ ALLOW,
      /* 31 */ ALLOW,
      /* 32 */ DENY,
  };
#undef DENY
#undef ALLOW
#undef NR
#undef BAD
  struct sock_fprog fp = {.len = (unsigned short)(sizeof prog / sizeof prog[0]), .filter = prog};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) ? -1 : 0;
#endif
}
