/* harness/core/cpuclock.c — CPU time of a process tree (cpuclock.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpuclock.h"

enum { MAX_PROCS = 64, MAX_DEPTH = 4 };

static int64_t ts_ns(const struct timespec *t) {
  return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* The whole file (small, from /proc) into buf; returns its length or -1. */
static ssize_t slurp(const char *path, char *buf, size_t cap) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = 0, got;
  while ((size_t)n < cap - 1 && (got = read(fd, buf + n, cap - 1 - (size_t)n)) > 0) n += got;
  close(fd);
  buf[n < 0 ? 0 : n] = '\0';
  return n;
}

static int64_t proc_cpu(pid_t pid) {
  struct timespec t;
  clockid_t c;
  if (pid == 0) {
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)) return -1;
  } else if (clock_getcpuclockid(pid, &c) || clock_gettime(c, &t)) {
    return -1;
  }
  return ts_ns(&t);
}

/* This process's own schedstat stays open (one pread a reading, not three system calls); it is
 * reopened in a forked child, whose /proc/self is another file. */
static ssize_t self_schedstat(char *buf, size_t cap) {
  static int fd = -1;
  static pid_t owner;
  pid_t me = getpid();
  if (fd >= 0 && owner != me) fd = -1; /* the parent's: never closed here (a forked worker
                                          * closes what it inherited; the number may be
                                          * another file by now) */
  if (fd < 0) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)me);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) return -1;
    owner = me;
  }
  ssize_t n = pread(fd, buf, cap - 1, 0);
  buf[n > 0 ? n : 0] = '\0';
  return n;
}

static int64_t proc_wait(pid_t pid) {
  char path[64], buf[128];
  snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
  if ((pid ? slurp(path, buf, sizeof buf) : self_schedstat(buf, sizeof buf)) <= 0) return 0;
  long long run = 0, wait = 0;
  if (sscanf(buf, "%lld %lld", &run, &wait) != 2) return 0;
  return (int64_t)wait;
}

static int64_t tick_ns(void) {
  static int64_t ns;
  if (!ns) {
    long hz = sysconf(_SC_CLK_TCK);
    ns = 1000000000 / (hz > 0 ? hz : 100);
  }
  return ns;
}

/* What process `pid` (0: this one) has reaped: its children's CPU time in ns (*cpu, in whole
 * clock ticks as /proc/PID/stat's cutime and cstime give it) and their page faults (*faults:
 * every process that ran made some). This process's own from getrusage (no file to format and
 * parse: the worker reads it around calls), truncated to the same ticks, so that the parent's
 * reading of the worker's stat gives the same numbers. Returns 0, or -1 when they cannot be
 * read (the process is gone). */
static int proc_reaped(pid_t pid, int64_t *cpu, uint64_t *faults) {
  int64_t tick = tick_ns();
  if (pid == 0) {
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru)) return -1;
    int64_t u = (int64_t)ru.ru_utime.tv_sec * 1000000000 + (int64_t)ru.ru_utime.tv_usec * 1000;
    int64_t s = (int64_t)ru.ru_stime.tv_sec * 1000000000 + (int64_t)ru.ru_stime.tv_usec * 1000;
    *cpu = (u / tick + s / tick) * tick;
    *faults = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
    return 0;
  }
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  if (slurp(path, buf, sizeof buf) <= 0) return -1;
  const char *p = strrchr(buf, ')'); /* after the command, which may hold ')' */
  if (!p) return -1;
  /* after ")": state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime
   * stime cutime cstime */
  unsigned long long v[15];
  char state;
  if (sscanf(p + 1, " %c %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
             &state, &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10],
             &v[11], &v[12], &v[13], &v[14]) != 15)
    return -1;
  *cpu = (int64_t)(v[13] + v[14]) * tick;
  *faults = v[8] + v[10];
  return 0;
}

/* Mixes a 64-bit value (splitmix64's finalizer): a pid's share of a tree's shape. */
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* Appends the children of every thread of `pid` to list[*n]. */
static void children_of(pid_t pid, pid_t *list, int *n) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
  DIR *d = opendir(path);
  if (!d) return;
  struct dirent *e;
  while (*n < MAX_PROCS && (e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char cpath[300], buf[1024];
    snprintf(cpath, sizeof cpath, "/proc/%d/task/%s/children", (int)pid, e->d_name);
    if (slurp(cpath, buf, sizeof buf) <= 0) continue;
    for (char *p = buf, *end; *n < MAX_PROCS; p = end) {
      long v = strtol(p, &end, 10);
      if (end == p) break;
      if (v > 0) list[(*n)++] = (pid_t)v;
    }
  }
  closedir(d);
}

/* 1 when this process has (or may have) a child; 0 when it has none. */
static int has_children(void) {
  siginfo_t si;
  memset(&si, 0, sizeof si);
  return !(waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD);
}

/* 1 when a thread of `pid` other than `skip` is in state R. */
static int threads_runnable(pid_t pid, pid_t skip) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
  DIR *d = opendir(path);
  if (!d) return 0;
  struct dirent *e;
  int r = 0;
  while (!r && (e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    if (skip && atoi(e->d_name) == (int)skip) continue;
    char spath[300], buf[512];
    snprintf(spath, sizeof spath, "/proc/%d/task/%s/stat", (int)pid, e->d_name);
    if (slurp(spath, buf, sizeof buf) <= 0) continue;
    const char *paren = strrchr(buf, ')'); /* after the command, which may hold ')' */
    r = paren && paren[1] == ' ' && paren[2] == 'R';
  }
  closedir(d);
  return r;
}

/* The descendants of `root` (at most MAX_PROCS, MAX_DEPTH - 1 generations below it) into
 * list; returns how many. */
static int descendants(pid_t root, pid_t *list) {
  int n = 0, done = 0;
  children_of(root, list, &n);
  for (int depth = 1; depth < MAX_DEPTH - 1 && done < n; depth++) {
    int end = n;
    for (; done < end; done++) children_of(list[done], list, &n);
  }
  return n;
}

int tk_cpu_tree_runnable(pid_t pid) {
  pid_t self = pid ? pid : getpid();
  if (threads_runnable(self, pid ? 0 : (pid_t)gettid())) return 1;
  pid_t list[MAX_PROCS];
  int n = descendants(self, list);
  for (int i = 0; i < n; i++)
    if (threads_runnable(list[i], 0)) return 1;
  return 0;
}

static int64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return ts_ns(&t);
}

int tk_cpu_tree_read(pid_t pid, tk_tree_clock *c) {
  c->wall_lo = mono_ns();
  int64_t cpu = proc_cpu(pid), reaped = 0;
  if (cpu < 0) return -1;
  uint64_t faults = 0, set = 0;
  c->wait_ns = proc_wait(pid);
  proc_reaped(pid, &reaped, &faults);
  cpu += reaped;
  if (pid != 0 || has_children()) { /* else the common case: no descendants to look for */
    pid_t list[MAX_PROCS];
    int n = descendants(pid ? pid : getpid(), list);
    for (int i = 0; i < n; i++) {
      set += mix((uint64_t)list[i]); /* a sum: the order of the children files does not count */
      int64_t t = proc_cpu(list[i]), r = 0;
      uint64_t f = 0;
      if (t < 0 || proc_reaped(list[i], &r, &f)) continue; /* ended since it was listed */
      cpu += t + r;
      faults += f;
      c->wait_ns += proc_wait(list[i]);
    }
  }
  c->cpu_ns = cpu;
  c->shape = set ^ mix(faults);
  c->wall_hi = mono_ns();
  return 0;
}

int tk_cpu_tree_settled(pid_t pid, tk_tree_clock *c) {
  for (int try = 0; try < 3; try++) {
    int64_t lo = mono_ns();
    int runnable = tk_cpu_tree_runnable(pid);
    if (tk_cpu_tree_read(pid, c)) return -1;
    c->wall_lo = lo; /* the look belongs to the reading */
    if (runnable) return 0;
    if (c->wall_hi - lo < TK_SETTLE_NS) return 1;
  }
  return 0;
}

int64_t tk_tree_idle(const tk_tree_clock *a, const tk_tree_clock *b) {
  int64_t cpu = b->cpu_ns - a->cpu_ns, wait = b->wait_ns - a->wait_ns;
  int64_t idle = (b->wall_lo - a->wall_hi) - (cpu > 0 ? cpu : 0) - (wait > 0 ? wait : 0);
  return a->shape != b->shape && idle > 0 ? 0 : idle;
}
