/* tests/referee/test_ref_cpuclock.c — the CPU clock of a process tree and the idle backstop
 * (harness/core/cpuclock.h, watch.h's tk_span): a process that waits for a CPU is never idle,
 * whatever the run-queue sum of its schedstat says while it waits, and one that sleeps is. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../harness/core/cpuclock.h"
#include "../../harness/core/watch.h"
#include "unit.h"

static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};
  while (nanosleep(&t, &t)) {
  }
}

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The first CPU this process may run on. */
static int first_cpu(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set)) return 0;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET(c, &set)) return c;
  return 0;
}

/* A child that spins (nice `nice`, on CPU `cpu` when >= 0) or sleeps; killed by the caller. */
static pid_t child(int spin, int nice_, int cpu) {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(60); /* never outlives a broken test */
    if (cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      sched_setaffinity(0, sizeof set, &set);
    }
    if (nice_) setpriority(PRIO_PROCESS, 0, nice_);
    if (spin)
      for (volatile unsigned long x = 0;; x++) {
      }
    for (;;) pause();
  }
  return pid;
}

/* Waits until `pid` sleeps (state S in /proc/PID/stat): a child just forked is runnable until
 * it first runs and reaches pause(), which on a loaded machine can take long. A bound of 30 s
 * keeps a broken test from hanging. */
static void wait_sleeping(pid_t pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  for (int t = 0; t < 30000; t += 2) {
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = '\0';
    const char *close = strrchr(buf, ')'); /* the state follows the command's ")" */
    if (close && close[1] == ' ' && close[2] == 'S') return;
    sleep_ms(2);
  }
}

static void end(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
}

/* A sleeping child is not runnable; a spinning one is; this process, its calling thread left
 * out, is not, and is when a child of it spins. */
static void test_runnable(void) {
  pid_t s = child(0, 0, -1);
  wait_sleeping(s);
  TK_EQ(tk_cpu_tree_runnable(s), 0, "a sleeping child");
  TK_EQ(tk_cpu_tree_runnable(0), 0, "this process, a sleeping child");
  pid_t b = child(1, 0, -1);
  sleep_ms(50);
  TK_EQ(tk_cpu_tree_runnable(b), 1, "a spinning child");
  TK_EQ(tk_cpu_tree_runnable(0), 1, "this process, a spinning child");
  end(b);
  end(s);
  TK_EQ(tk_cpu_tree_runnable(0), 0, "this process alone");
}

/* A child starved of CPU: pinned to one CPU beside a spinning process, at nice 19, so it waits
 * in the run queue most of the time. Its idle time as the sums say (wall - CPU - recorded
 * run-queue wait) grows while it waits, since the kernel adds a wait only when it ends; the
 * span must never call it idle. A sleeping child, beside it, is idle past the limit. */
static void test_waiting_is_not_idle(void) {
  int cpu = first_cpu();
  pid_t hog = child(1, 0, cpu);
  pid_t starved = child(1, 19, cpu);
  pid_t sleeper = child(0, 0, -1);
  wait_sleeping(sleeper);
  sleep_ms(50);
  tk_span a, z;
  tk_span_start(&a, starved, 0);
  tk_span_start(&z, sleeper, 0);
  const int64_t limit = 20000000; /* 20 ms of idle time */
  int idle_verdicts = 0, naive_over = 0, samples = 0;
  int64_t t0 = now_ns();
  while (now_ns() - t0 < 1500000000LL) {
    sleep_ms(5);
    samples++;
    if (tk_span_over(&a, 0, limit) == TK_LIMIT_IDLE + 1) idle_verdicts++;
    int64_t wait = 0, used = tk_cpu_tree_ns(starved, &wait);
    int64_t naive = (now_ns() - a.wall0) - (used - a.cpu0) - (wait - a.wait0);
    if (naive > limit) naive_over++;
  }
  TK_EQ(idle_verdicts, 0, "a child waiting for a CPU judged idle");
  if (!naive_over) /* the situation the check guards was not met: say so, do not pass blind */
    TK_FAILF("the starved child never looked idle by the sums in %d samples: no test", samples);
  TK_EQ(tk_span_over(&z, 0, limit), TK_LIMIT_IDLE + 1, "a sleeping child past the limit");
  end(starved);
  end(hog);
  end(sleeper);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"runnable: sleeping, spinning, this process", test_runnable},
      {"waiting for a CPU is not idle; sleeping is", test_waiting_is_not_idle},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("cpuclock", tests);
}
