/* tests/referee/test_ref_cpuclock.c — the CPU clock of a process tree and the idle backstop
 * (harness/core/cpuclock.h, watch.h's tk_span): a process that waits for a CPU is never idle,
 * whatever the run-queue sum of its schedstat says while it waits, and one that sleeps is; a
 * helper that a process of the tree starts and reaps is charged its CPU time, and the
 * run-queue wait it takes with it when it ends is not counted as idle. */
#define _GNU_SOURCE
#include <sched.h>
#include <poll.h>
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
    tk_tree_clock c;
    tk_cpu_tree_read(starved, &c);
    int64_t naive = (now_ns() - a.wall0) - (c.cpu_ns - a.start.cpu_ns) -
                    (c.wait_ns - a.start.wait_ns);
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

/* Spins until this process has used `ms` of CPU time. */
static void burn_cpu_ms(int ms) {
  struct timespec t;
  do {
    for (volatile int i = 0; i < 100000; i++) {
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  } while ((int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
}

/* A "bot": a child (on CPU `cpu` when >= 0) that waits for a byte on `go`, then starts a helper
 * that computes for `ms` of CPU time and exits, reaps it (asleep in waitpid meanwhile), writes
 * the time (CLOCK_MONOTONIC, ns) on `done` and sleeps. */
static pid_t bot_with_helper(int ms, int cpu, int go, int done) {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(60);
    if (cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      sched_setaffinity(0, sizeof set, &set); /* the helper inherits it */
    }
    char b;
    if (read(go, &b, 1) != 1) _exit(1);
    pid_t h = fork();
    if (h == 0) {
      burn_cpu_ms(ms);
      _exit(0);
    }
    waitpid(h, NULL, 0);
    int64_t t = now_ns();
    if (write(done, &t, sizeof t) != sizeof t) _exit(1);
    for (;;) pause();
  }
  return pid;
}

/* A helper started and reaped by a process of the tree during a call is charged to the call:
 * its CPU time moves into its reaper's cutime + cstime when it ends. Without that, a bot could
 * compute in helpers and never reach its limit. */
static void test_reaped_helper_is_charged(void) {
  int go[2], done[2];
  if (pipe(go) || pipe(done)) TK_FAILF("pipe");
  pid_t bot = bot_with_helper(300, -1, go[0], done[1]);
  tk_span s;
  tk_span_start(&s, bot, 0);
  tk_tree_clock before, after;
  TK_EQ(tk_cpu_tree_read(bot, &before), 0, "reading a live tree");
  if (write(go[1], "g", 1) != 1) TK_FAILF("write");
  int64_t t;
  TK_EQ((int)read(done[0], &t, sizeof t), (int)sizeof t, "the bot's report");
  TK_EQ(tk_cpu_tree_read(bot, &after), 0, "reading a live tree");
  int64_t used_ms = (after.cpu_ns - before.cpu_ns) / 1000000;
  if (used_ms < 290) /* cutime counts in clock ticks: up to 10 ms lost */
    TK_FAILF("the tree's CPU time grew by %lld ms over a helper's 300 ms", (long long)used_ms);
  TK_EQ(tk_span_over(&s, 200000000, 0), TK_LIMIT_CALL + 1,
        "a call whose reaped helper computed 300 ms, under a 200 ms limit");
  if (before.shape == after.shape) TK_FAILF("the tree's shape did not change with a reap");
  end(bot);
  close(go[0]), close(go[1]), close(done[0]), close(done[1]);
}

/* This process's reading of itself (pid 0: getrusage for what it reaped) and a reading of it by
 * its pid (/proc/PID/stat, as the referee's parent reads a worker) agree: the same shape, and
 * the same CPU time up to what it spent between the two readings. */
static void test_self_two_ways(void) {
  pid_t c = fork();
  if (c == 0) {
    burn_cpu_ms(50);
    _exit(0);
  }
  waitpid(c, NULL, 0);
  tk_tree_clock self, by_pid;
  TK_EQ(tk_cpu_tree_read(0, &self), 0, "reading this process");
  TK_EQ(tk_cpu_tree_read(getpid(), &by_pid), 0, "reading this process by its pid");
  if (self.shape != by_pid.shape) TK_FAILF("the two readings' shapes differ");
  int64_t d = by_pid.cpu_ns - self.cpu_ns;
  if (d < 0 || d > 5000000)
    TK_FAILF("by pid %lld ns, by itself %lld ns", (long long)by_pid.cpu_ns, (long long)self.cpu_ns);
}

/* A helper pinned beside a spinning process waits in the run queue about as long as it
 * computes; the wait leaves the sums when it ends, so by the sums the call looks idle for that
 * long although no process of it ever slept while it had work. With `look` the span reads the
 * clocks every 5 ms, as the referee does every tick (the intervals' sum does not lose what a
 * process took with it); without, it reads them once at the end, as a worker does when a call
 * returns (one interval, in which the helper left: it counts no idle time). Either way the
 * idle time up to the reap must be far below the 200 ms the helper waited. The bot sleeps
 * after the reap until this test reads its clocks, which on a busy machine can be long: that
 * sleep is idle time, known from the bot's timestamp, and left out of the comparison. */
static void departed_wait(int look) {
  int cpu = first_cpu();
  pid_t hog = child(1, 0, cpu);
  int go[2], done[2];
  if (pipe(go) || pipe(done)) TK_FAILF("pipe");
  pid_t bot = bot_with_helper(200, cpu, go[0], done[1]);
  wait_sleeping(bot);
  tk_span s;
  tk_span_start(&s, bot, 0);
  if (write(go[1], "g", 1) != 1) TK_FAILF("write");
  struct pollfd p = {done[0], POLLIN, 0};
  while (poll(&p, 1, look ? 5 : -1) == 0) tk_span_over(&s, 0, 0);
  int64_t t_done;
  TK_EQ((int)read(done[0], &t_done, sizeof t_done), (int)sizeof t_done, "the bot's report");
  tk_span_over(&s, 0, 0);
  int64_t slept = s.last.wall_lo - t_done;
  int64_t idle_ms = (s.idle_ns - slept) / 1000000;
  int64_t wait_ms = (s.last.wait_ns - s.start.wait_ns) / 1000000;
  int64_t naive_ms = ((t_done - s.wall0) - (s.last.cpu_ns - s.start.cpu_ns)) / 1000000 - wait_ms;
  printf("\n  helper beside a spinner, %s: idle up to the reap %lld ms by intervals, %lld ms "
         "by the sums\n",
         look ? "clocks read every 5 ms" : "clocks read at the end", (long long)idle_ms,
         (long long)naive_ms);
  if (idle_ms >= 100)
    TK_FAILF("a call whose helper waited for a CPU and ended: %lld ms idle", (long long)idle_ms);
  if (naive_ms < 100) /* the situation the intervals guard was not met: say so */
    TK_FAILF("the helper's lost wait was only %lld ms by the sums: no test", (long long)naive_ms);
  end(bot);
  end(hog);
  close(go[0]), close(go[1]), close(done[0]), close(done[1]);
}

static void test_departed_wait_looked_at(void) { departed_wait(1); }
static void test_departed_wait_read_once(void) { departed_wait(0); }

/* A worker starved of CPU (pinned beside a spinning process, at nice 19: it waits about 100 ms
 * each time it is preempted) makes calls that do nothing, with an idle limit of 20 ms. Where a
 * preemption falls between a reading of the wall clock and of the CPU clocks, the wall time
 * and the clocks disagree by the whole wait: read that way, the call is idle for it (session
 * 26's load defect). No call may be judged idle; and the child must have been preempted
 * inside calls often enough for the check to mean something. The child reports on a pipe. */
static void test_starved_worker_not_idle(void) {
  int cpu = first_cpu();
  pid_t hog = child(1, 0, cpu);
  int fd[2];
  if (pipe(fd)) TK_FAILF("pipe");
  pid_t w = fork();
  if (w == 0) {
    alarm(120);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
    setpriority(PRIO_PROCESS, 0, 19);
    static tk_watch watch;
    watch.idle_limit_ns = 20000000;
    watch.last_seat = watch.seat = -1;
    int counts[3] = {0, 0, 0}; /* calls, preempted calls (over 50 ms), idle verdicts */
    int64_t t0 = now_ns();
    while (counts[1] < 20 && now_ns() - t0 < 60000000000LL) {
      int64_t a = now_ns();
      tk_watch_call(&watch, 0, 0, TK_ENTRY_ACT);
      tk_watch_leave(&watch);
      tk_fault f;
      if (tk_watch_over(&watch, 0, TK_ENTRY_ACT, &f) && f.game_limit == TK_LIMIT_IDLE)
        counts[2]++;
      counts[0]++;
      if (now_ns() - a > 50000000) counts[1]++;
    }
    _exit(write(fd[1], counts, sizeof counts) == sizeof counts ? 0 : 1);
  }
  int counts[3] = {0, 0, 0};
  TK_EQ((int)read(fd[0], counts, sizeof counts), (int)sizeof counts, "the worker's report");
  waitpid(w, NULL, 0);
  end(hog);
  close(fd[0]), close(fd[1]);
  printf("\n  starved worker: %d calls, %d preempted inside a call, %d judged idle\n", counts[0],
         counts[1], counts[2]);
  TK_EQ(counts[2], 0, "calls that did nothing judged idle");
  if (counts[1] < 20) /* the situation the check guards was not met: say so */
    TK_FAILF("only %d calls were preempted: no test", counts[1]);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"runnable: sleeping, spinning, this process", test_runnable},
      {"waiting for a CPU is not idle; sleeping is", test_waiting_is_not_idle},
      {"a reaped helper's CPU time is charged", test_reaped_helper_is_charged},
      {"this process read by itself and by its pid", test_self_two_ways},
      {"a departed helper's wait is not idle (read every 5 ms)", test_departed_wait_looked_at},
      {"a departed helper's wait is not idle (read at the end)", test_departed_wait_read_once},
      {"a worker starved inside its calls is not idle", test_starved_worker_not_idle},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("cpuclock", tests);
}
