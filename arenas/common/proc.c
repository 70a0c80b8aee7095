/* arenas/common/proc.c — starting and ending processes (taikai/proc.h): the one fork of the
 * referee and of riichi_mjai, a child's set-up (signals, descriptors, group, parent death,
 * subreaper), the keeper that owns a program's tree, and the clean end of a process. Between a
 * fork and an exec or a function's start the child makes only async-signal-safe calls: the
 * parent may have threads. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

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
  snprintf(path, sizeof path, "/proc/%.20s/stat", pid);
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

pid_t tk_proc_parent(pid_t pid) {
  char name[24];
  snprintf(name, sizeof name, "%d", (int)pid);
  return parent_of(name);
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

/* ------------------------------------------------------------------ the child's set-up */

/* Where a child's set-up failed, sent to the parent with errno on the report pipe. */
enum { STAGE_EXEC = 1, STAGE_FDS, STAGE_PARENT, STAGE_KEEPER };

enum { HIGH_FD = 64 }; /* copies made out of the way of 0..2 + TK_PROC_KEEP_MAX */

/* Closes every descriptor >= `from` except `spare` (-1: none). Reads /proc/self/fd with
 * getdents64 (no allocation), falling back on closing every number below the limit. */
static void close_from(int from, int spare) {
#ifdef SYS_getdents64
  int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    for (;;) { /* a pass collects, then closes: until a pass finds none */
      int fds[256], n = 0, more = 0;
      char buf[4096];
      lseek(dir, 0, SEEK_SET);
      long got;
      while ((got = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
        for (long off = 0; off < got;) {
          unsigned short reclen;
          memcpy(&reclen, buf + off + 16, sizeof reclen); /* d_ino 8, d_off 8, d_reclen */
          const char *name = buf + off + 19;
          off += reclen;
          if (name[0] < '0' || name[0] > '9') continue;
          int fd = 0;
          for (const char *c = name; *c >= '0' && *c <= '9'; c++) fd = fd * 10 + (*c - '0');
          if (fd < from || fd == spare || fd == dir) continue;
          if (n < 256) fds[n++] = fd;
          else more = 1;
        }
      }
      for (int i = 0; i < n; i++) close(fds[i]);
      if (!more) break;
    }
    close(dir);
    return;
  }
#endif
  long max = sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (int fd = from; fd < max; fd++)
    if (fd != spare) close(fd);
}

/* The child's descriptors as `o` says: map[i] onto i, keep[i] onto 3 + i, every other closed
 * but `report`, which is moved out of their way first (written back). Returns 0 or -1 (errno
 * set). */
static int set_fds(const tk_proc_opts *o, int *report) {
  if (*report >= 0) {
    int hi = fcntl(*report, F_DUPFD_CLOEXEC, HIGH_FD);
    if (hi < 0) return -1;
    close(*report);
    *report = hi;
  }
  int map_hi[3], keep_hi[TK_PROC_KEEP_MAX];
  for (int i = 0; i < 3; i++) { /* first copies out of the way: a source may be a target */
    map_hi[i] = -1;
    if (o->map[i] >= 0 && (map_hi[i] = fcntl(o->map[i], F_DUPFD_CLOEXEC, HIGH_FD)) < 0)
      return -1;
  }
  for (int i = 0; i < o->nkeep; i++)
    if ((keep_hi[i] = fcntl(o->keep[i], F_DUPFD_CLOEXEC, HIGH_FD)) < 0) return -1;
  for (int i = 0; i < 3; i++) /* dup2 clears close-on-exec on the copy */
    if (map_hi[i] >= 0 && dup2(map_hi[i], i) < 0) return -1;
  for (int i = 0; i < o->nkeep; i++)
    if (dup2(keep_hi[i], 3 + i) < 0) return -1;
  close_from(3 + o->nkeep, *report); /* the copies above among them */
  return 0;
}

/* Reports a failed set-up or exec (stage and errno) on `report` and exits. */
static void fail(const tk_proc_opts *o, int report, int stage, int error) {
  if (report >= 0) {
    int why[2] = {stage, error};
    ssize_t w = write(report, why, sizeof why);
    (void)w;
  }
  _exit(o->fail_exit ? o->fail_exit : 127);
}

static int keeper(const tk_proc_opts *o, int report);

/* The child, from the fork to fn's return or the exec. Never returns. */
static void child(const tk_proc_opts *o, pid_t parent, int report) {
  tk_proc_child_defaults();
  if (o->new_group) setpgid(0, 0);
  if (set_fds(o, &report)) fail(o, report, STAGE_FDS, errno);
#ifdef __linux__
  if (o->pdeath_signal) {
    prctl(PR_SET_PDEATHSIG, o->pdeath_signal);
    if (getppid() != parent) fail(o, report, STAGE_PARENT, 0); /* it died meanwhile */
  }
  if (o->subreaper) prctl(PR_SET_CHILD_SUBREAPER, 1);
#else
  (void)parent;
#endif
  if (o->fn) _exit(o->fn(o->arg));
  if (o->subreaper) _exit(keeper(o, report));
  execvp(o->argv[0], o->argv);
  fail(o, report, STAGE_EXEC, errno);
}

/* Forks a child as `o` says. Returns 0 with *pid, or -1 with why[] = {stage, errno} (stage 0:
 * the parent's pipe or fork). With argv, waits until the program runs or fails. */
static int spawn(const tk_proc_opts *o, pid_t *pid, int why[2]) {
  int rep[2] = {-1, -1};
  why[0] = why[1] = 0;
  if (!o->fn && pipe2(rep, O_CLOEXEC)) {
    why[1] = errno;
    return -1;
  }
  pid_t parent = getpid();
  fflush(NULL);
  pid_t p = fork();
  if (p < 0) {
    why[1] = errno;
    if (rep[0] >= 0) close(rep[0]), close(rep[1]);
    return -1;
  }
  if (p == 0) {
    if (rep[0] >= 0) close(rep[0]);
    child(o, parent, rep[1]);
  }
  if (o->new_group) setpgid(p, p); /* also here, so that a kill of the group never misses */
  *pid = p;
  if (rep[0] < 0) return 0;
  close(rep[1]);
  int got[2];
  ssize_t n;
  while ((n = read(rep[0], got, sizeof got)) < 0 && errno == EINTR) {
  }
  close(rep[0]);
  if (n <= 0) return 0; /* closed on exec: the program runs */
  if (n == (ssize_t)sizeof got) why[0] = got[0], why[1] = got[1];
  else why[0] = STAGE_EXEC;
  while (waitpid(p, NULL, 0) < 0 && errno == EINTR) {
  }
  return -1;
}

int tk_proc_spawn(const tk_proc_opts *o, pid_t *pid, tk_error *err) {
  if (!o->fn && (!o->argv || !o->argv[0]))
    return tk_error_set(err, TK_EINVAL, -1, "starting a process: neither a function nor a "
                        "program to run");
  if (o->nkeep < 0 || o->nkeep > TK_PROC_KEEP_MAX || (o->nkeep && !o->keep))
    return tk_error_set(err, TK_EINVAL, -1, "starting a process: %d descriptors to keep (at "
                        "most %d)", o->nkeep, TK_PROC_KEEP_MAX);
  int why[2];
  if (!spawn(o, pid, why)) return 0;
  const char *what = o->fn ? "a process" : o->argv[0];
  switch (why[0]) {
  case 0:
    return tk_error_set(err, TK_EIO, -1, "cannot start %s: %s", what, strerror(why[1]));
  case STAGE_EXEC:
    return tk_error_set(err, TK_EIO, -1, "cannot run %s: %s", what, strerror(why[1]));
  case STAGE_FDS:
    return tk_error_set(err, TK_EIO, -1, "cannot start %s: its descriptors: %s", what,
                        strerror(why[1]));
  case STAGE_PARENT:
    return tk_error_set(err, TK_EIO, -1, "cannot start %s: its parent died", what);
  default:
    return tk_error_set(err, TK_EIO, -1, "cannot start %s: its keeper: %s", what,
                        strerror(why[1]));
  }
}

/* ------------------------------------------------------------------ the keeper */

static volatile sig_atomic_t keeper_stop;
static void keeper_on_term(int sig) { (void)sig; keeper_stop = 1; }
static void keeper_on_child(int sig) { (void)sig; }

/* Kills every process of the keeper's tree: as its subreaper, each descendant becomes its
 * child when its own parent dies, so killing its children and reaping until none is left ends
 * them all, daemons included. */
static void keeper_kill_tree(void) {
  for (;;) {
    tk_proc_signal_children(getpid(), SIGKILL);
    if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD) return;
  }
}

/* The keeper (see tk_proc_spawn): runs o->argv as its child, reports on `report` whether it
 * runs, waits for it to exit or for SIGTERM, kills the tree. Returns the exit status. */
static int keeper(const tk_proc_opts *o, int report) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = keeper_on_term;
  sigaction(SIGTERM, &sa, NULL);
  sa.sa_handler = keeper_on_child;
  sigaction(SIGCHLD, &sa, NULL);
  sigset_t block, none;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGCHLD);
  sigprocmask(SIG_BLOCK, &block, &none);
  tk_proc_opts prog = {.argv = o->argv, .map = {-1, -1, -1}, .pdeath_signal = SIGKILL,
                       .fail_exit = o->fail_exit};
  pid_t pid;
  int why[2];
  if (spawn(&prog, &pid, why)) {
    fail(o, report, why[0] ? why[0] : STAGE_KEEPER, why[1]);
  }
  close(report); /* the program runs */
  /* the keeper holds neither its stdin nor its stdout: the program's ends are the only ones */
  int nul = open("/dev/null", O_RDWR);
  dup2(nul, 0);
  dup2(nul, 1);
  if (nul > 2) close(nul);
  int code = prog.fail_exit ? prog.fail_exit : 127;
  while (!keeper_stop) {
    int st;
    pid_t got;
    while ((got = waitpid(-1, &st, WNOHANG)) > 0)
      if (got == pid) break;
    if (got == pid) {
      code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      break;
    }
    if (!keeper_stop) sigsuspend(&none);
  }
  keeper_kill_tree();
  return code;
}

/* ------------------------------------------------------------------ ending */

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* p has ended (wait status st, or reaped elsewhere): what is left of its group is killed. */
static void ended(tk_proc_ending *p, int st) {
  kill(-p->pid, SIGKILL); /* processes it started that stayed in its group */
  p->status = st;
  p->pid = 0;
}

/* Reaps those of p[0..n-1] that end before `deadline` (ns; negative: none, blocking). Returns
 * how many are still running. */
static int reap_until(tk_proc_ending *p, int n, int64_t deadline) {
  for (;;) {
    int left = 0;
    for (int i = 0; i < n; i++) {
      if (p[i].pid <= 0) continue;
      int st = 0;
      pid_t got = waitpid(p[i].pid, &st, deadline < 0 ? 0 : WNOHANG);
      if (got == p[i].pid || (got < 0 && errno == ECHILD)) ended(&p[i], got < 0 ? 0 : st);
      else if (got < 0 && errno == EINTR) i--;
      else left++;
    }
    if (!left || (deadline >= 0 && now_ns() >= deadline)) return left;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

void tk_proc_end(tk_proc_ending *p, int n, int grace_ms, int term_ms) {
  for (int i = 0; i < n; i++) {
    if (p[i].stdin_fd >= 0) close(p[i].stdin_fd);
    p[i].stdin_fd = -1;
    p[i].signalled = 0;
  }
  int64_t t = now_ns();
  if (!reap_until(p, n, grace_ms < 0 ? -1 : t + (int64_t)grace_ms * 1000000)) return;
  if (term_ms > 0) {
    for (int i = 0; i < n; i++)
      if (p[i].pid > 0) {
        kill(-p[i].pid, SIGTERM);
        kill(p[i].pid, SIGTERM);
        p[i].signalled = 1;
      }
    if (!reap_until(p, n, now_ns() + (int64_t)term_ms * 1000000)) return;
  }
  for (int i = 0; i < n; i++)
    if (p[i].pid > 0) {
      kill(-p[i].pid, SIGKILL);
      kill(p[i].pid, SIGKILL);
      p[i].signalled = 1;
    }
  reap_until(p, n, -1);
}
