/* arenas/common/proc.c — default signals for new processes, and signalling a process's children
 * (taikai/proc.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "taikai/proc.h"

#ifdef __linux__
/* The kernel's own sigaction (x86-64, arm64 and most Linux ports): glibc's refuses the signals
 * it keeps for itself (32, 33: thread cancellation, setxid), which a parent may still have left
 * ignored, and an ignored signal survives exec. SIG_DFL needs no restorer. */
struct k_sigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)(void);
  unsigned long mask;
};
#endif

void tk_proc_child_defaults(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (int sig = 1; sig < NSIG; sig++) {
    if (sig == SIGKILL || sig == SIGSTOP || !sigaction(sig, &sa, NULL)) continue;
#ifdef __linux__
    struct k_sigaction k;
    memset(&k, 0, sizeof k);
    k.handler = SIG_DFL;
    syscall(SYS_rt_sigaction, sig, &k, NULL, sizeof k.mask);
#endif
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
}

/* The parent of process `pid` (/proc/PID/stat: "pid (comm) state ppid ..."; comm may hold
 * blanks and parentheses, so it is read after the last ')'), or -1. */
static pid_t parent_of(const char *pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%s/stat", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char *p = strrchr(buf, ')');
  if (!p || !p[1] || !p[2]) return -1;
  char state;
  int ppid;
  return sscanf(p + 2, "%c %d", &state, &ppid) == 2 ? (pid_t)ppid : -1;
}

int tk_proc_signal_children(pid_t parent, int sig) {
  DIR *d = opendir("/proc");
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    if (parent_of(e->d_name) == parent && kill((pid_t)atoi(e->d_name), sig) == 0) n++;
  }
  closedir(d);
  return n;
}
