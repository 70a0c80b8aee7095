/* tests/test_proc.c — starting and ending processes (taikai/proc.h): a child starts with default
 * signals and an empty mask whatever its parent ignores or blocks; it holds only the
 * descriptors it is given; a program that cannot be run is an error of the start; the ending
 * returns the wait status of an exit, a crash or the signal that ended it; and a keeper's tree,
 * a `setsid` daemon included, is gone after the ending. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "taikai/proc.h"
#include "unit.h"

/* "SigIgn:" or "SigBlk:" of /proc/PID/status, as hex; -1 when unreadable. */
static long long sig_field(pid_t pid, const char *field) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long long v = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, field, strlen(field))) v = strtoll(line + strlen(field), NULL, 16);
  fclose(f);
  return v;
}

/* The child's check: SIGTERM and SIGINT at their defaults, nothing blocked. Exit 0 if so. */
static int check_defaults(void *arg) {
  (void)arg;
  struct sigaction sa;
  sigset_t mask;
  if (sigaction(SIGTERM, NULL, &sa) || sa.sa_handler != SIG_DFL) return 1;
  if (sigaction(SIGINT, NULL, &sa) || sa.sa_handler != SIG_DFL) return 2;
  if (sigprocmask(SIG_SETMASK, NULL, &mask) || sigismember(&mask, SIGUSR1)) return 3;
  return 0;
}

static void test_default_signals(void) {
  struct sigaction ign, old_term, old_int;
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGTERM, &ign, &old_term);
  sigaction(SIGINT, &ign, &old_int);
  sigset_t block, old_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  sigprocmask(SIG_BLOCK, &block, &old_mask);

  tk_error err;
  tk_error_clear(&err);
  pid_t pid = 0;
  tk_proc_opts fn = {.fn = check_defaults, .map = {-1, -1, -1}};
  TK_EQ(tk_proc_spawn(&fn, &pid, &err), 0, err.msg);
  tk_proc_ending e = {.pid = pid, .stdin_fd = -1};
  tk_proc_end(&e, 1, -1, 0);
  TK_EQ(WIFEXITED(e.status) ? WEXITSTATUS(e.status) : 100, 0, "function child's signals");

  /* a program: its ignored and blocked sets, read from /proc once it runs */
  char *argv[] = {"sleep", "30", NULL};
  tk_proc_opts prog = {.argv = argv, .map = {-1, -1, -1}, .new_group = 1};
  TK_EQ(tk_proc_spawn(&prog, &pid, &err), 0, err.msg);
  TK_EQ(sig_field(pid, "SigIgn:"), 0, "program's ignored signals");
  TK_EQ(sig_field(pid, "SigBlk:"), 0, "program's blocked signals");
  e = (tk_proc_ending){.pid = pid, .stdin_fd = -1};
  tk_proc_end(&e, 1, 0, 2000);
  TK_EQ(WIFSIGNALED(e.status) ? WTERMSIG(e.status) : 0, SIGTERM, "sleep ended by SIGTERM");
  TK_EQ(e.signalled, 1, "signalled");

  sigprocmask(SIG_SETMASK, &old_mask, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  sigaction(SIGINT, &old_int, NULL);
}

/* The child's check: descriptor 3 is the kept pipe (it writes "k" there) and 1 the mapped one
 * ("m"); nothing else above 2 is open. Returns the number of other descriptors open. */
static int check_fds(void *arg) {
  (void)arg;
  if (write(3, "k", 1) != 1) return 50;
  if (write(1, "m", 1) != 1) return 51;
  DIR *d = opendir("/proc/self/fd");
  if (!d) return 52;
  int others = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    int fd = atoi(de->d_name);
    if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && fd > 3 && fd != dirfd(d)) others++;
  }
  closedir(d);
  return others;
}

static void test_descriptors(void) {
  int kept[2], mapped[2], other[2];
  if (pipe(kept) || pipe(mapped) || pipe(other)) {
    TK_FAILF("pipe: %s", strerror(errno));
    return;
  }
  int nul = open("/dev/null", O_RDONLY); /* not close-on-exec: must still not reach the child */
  tk_error err;
  tk_error_clear(&err);
  pid_t pid;
  tk_proc_opts o = {.fn = check_fds, .map = {-1, mapped[1], -1}, .keep = &kept[1], .nkeep = 1};
  TK_EQ(tk_proc_spawn(&o, &pid, &err), 0, err.msg);
  tk_proc_ending e = {.pid = pid, .stdin_fd = -1};
  tk_proc_end(&e, 1, -1, 0);
  TK_EQ(WIFEXITED(e.status) ? WEXITSTATUS(e.status) : 100, 0, "descriptors open in the child");
  char c = 0;
  close(kept[1]);
  close(mapped[1]);
  TK_EQ(read(kept[0], &c, 1) == 1 ? c : 0, 'k', "kept pipe written as descriptor 3");
  TK_EQ(read(mapped[0], &c, 1) == 1 ? c : 0, 'm', "mapped pipe written as descriptor 1");
  close(kept[0]), close(mapped[0]), close(other[0]), close(other[1]), close(nul);

  /* too many descriptors to keep: refused before any fork */
  int many[TK_PROC_KEEP_MAX + 1] = {0};
  tk_proc_opts bad = {.fn = check_fds, .map = {-1, -1, -1}, .keep = many,
                      .nkeep = TK_PROC_KEEP_MAX + 1};
  tk_error_clear(&err);
  TK_EQ(tk_proc_spawn(&bad, &pid, &err), TK_EINVAL, "17 descriptors to keep");
}

static void test_exec_failure(void) {
  char *argv[] = {"/nonexistent/taikai-no-such-program", "x", NULL};
  for (int keeper = 0; keeper < 2; keeper++) {
    tk_error err;
    tk_error_clear(&err);
    pid_t pid = -1;
    tk_proc_opts o = {.argv = argv, .map = {-1, -1, -1}, .new_group = 1, .subreaper = keeper,
                      .pdeath_signal = keeper ? SIGTERM : 0};
    TK_EQ(tk_proc_spawn(&o, &pid, &err), TK_EIO, keeper ? "keeper" : "plain");
    if (!strstr(err.msg, "cannot run /nonexistent/taikai-no-such-program") ||
        !strstr(err.msg, strerror(ENOENT)))
      TK_FAILF("%s: message \"%s\"", keeper ? "keeper" : "plain", err.msg);
    TK_EQ(waitpid(-1, NULL, WNOHANG), -1, "no child left to reap"); /* reaped by the start */
  }
}

static int exit_7(void *arg) {
  (void)arg;
  return 7;
}

static int crash(void *arg) {
  (void)arg;
  raise(SIGSEGV);
  return 0;
}

/* Ignores SIGTERM, says so on its stdout, and waits: only SIGKILL ends it. */
static int stubborn(void *arg) {
  (void)arg;
  signal(SIGTERM, SIG_IGN);
  if (write(1, "i", 1) != 1) return 1;
  for (;;) pause();
  return 0;
}

static void test_wait_status(void) {
  struct {
    tk_proc_fn fn;
    int grace, term, exited, code, sig, signalled;
  } cases[] = {
      {exit_7, -1, 0, 1, 7, 0, 0},
      {crash, -1, 0, 0, 0, SIGSEGV, 0},
      {stubborn, 0, 100, 0, 0, SIGKILL, 1},
      {stubborn, 0, 0, 0, 0, SIGKILL, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char ctx[64];
    snprintf(ctx, sizeof ctx, "case %zu", i);
    tk_error err;
    tk_error_clear(&err);
    pid_t pid;
    int ready[2];
    if (pipe(ready)) return;
    tk_proc_opts o = {.fn = cases[i].fn, .map = {-1, ready[1], -1}, .new_group = 1,
                      .pdeath_signal = SIGKILL}; /* none left behind if the test fails */
    TK_EQ(tk_proc_spawn(&o, &pid, &err), 0, err.msg);
    close(ready[1]);
    char c;
    if (cases[i].fn == stubborn) TK_EQ(read(ready[0], &c, 1), 1, "SIGTERM ignored");
    close(ready[0]);
    tk_proc_ending e = {.pid = pid, .stdin_fd = -1};
    tk_proc_end(&e, 1, cases[i].grace, cases[i].term);
    TK_EQ(e.pid, 0, ctx);
    TK_EQ(WIFEXITED(e.status), cases[i].exited, ctx);
    if (cases[i].exited) TK_EQ(WEXITSTATUS(e.status), cases[i].code, ctx);
    else TK_EQ(WIFSIGNALED(e.status) ? WTERMSIG(e.status) : 0, cases[i].sig, ctx);
    TK_EQ(e.signalled, cases[i].signalled, ctx);
  }

  /* a program that exits once its stdin is closed: within the grace, exit status 0 */
  int in[2];
  if (pipe(in)) return;
  char *cat[] = {"cat", NULL};
  int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
  tk_error err;
  tk_error_clear(&err);
  pid_t pid;
  tk_proc_opts o = {.argv = cat, .map = {in[0], nul, -1}, .new_group = 1};
  TK_EQ(tk_proc_spawn(&o, &pid, &err), 0, err.msg);
  close(in[0]);
  close(nul);
  tk_proc_ending e = {.pid = pid, .stdin_fd = in[1]};
  tk_proc_end(&e, 1, 5000, 1000);
  TK_EQ(WIFEXITED(e.status) ? WEXITSTATUS(e.status) : 100, 0, "cat at the end of its input");
  TK_EQ(e.signalled, 0, "cat ended within the grace");

  /* a keeper exits with its program's status */
  char *five[] = {"/bin/sh", "-c", "exit 5", NULL};
  tk_proc_opts k = {.argv = five, .map = {-1, -1, -1}, .new_group = 1, .subreaper = 1,
                    .pdeath_signal = SIGTERM};
  TK_EQ(tk_proc_spawn(&k, &pid, &err), 0, err.msg);
  e = (tk_proc_ending){.pid = pid, .stdin_fd = -1};
  tk_proc_end(&e, 1, 5000, 1000);
  TK_EQ(WIFEXITED(e.status) ? WEXITSTATUS(e.status) : 100, 5, "keeper of `exit 5`");
}

/* A program that starts a daemon in a session of its own and prints its pid, then runs on:
 * after the ending its keeper has killed the daemon too. */
static void test_daemon_gone(void) {
  int out[2];
  if (pipe(out)) return;
  char *argv[] = {"/bin/sh", "-c",
                  "setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $!; exec sleep 60", NULL};
  tk_error err;
  tk_error_clear(&err);
  pid_t pid;
  tk_proc_opts o = {.argv = argv, .map = {-1, out[1], -1}, .new_group = 1, .subreaper = 1,
                    .pdeath_signal = SIGTERM};
  TK_EQ(tk_proc_spawn(&o, &pid, &err), 0, err.msg);
  close(out[1]);
  char buf[32] = "";
  ssize_t n = read(out[0], buf, sizeof buf - 1);
  close(out[0]);
  pid_t daemon = n > 0 ? (pid_t)atoi(buf) : 0;
  if (daemon <= 0) {
    TK_FAILF("no daemon pid read (\"%s\")", buf);
    tk_proc_ending e = {.pid = pid, .stdin_fd = -1};
    tk_proc_end(&e, 1, 0, 1000);
    return;
  }
  /* wait until setsid has run: the daemon leads a session of its own */
  for (int i = 0; i < 2000 && getsid(daemon) != daemon; i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  TK_EQ(getsid(daemon), daemon, "the daemon left the session");
  tk_proc_ending e = {.pid = pid, .stdin_fd = -1};
  tk_proc_end(&e, 1, 50, 2000);
  TK_EQ(e.signalled, 1, "the program ran past the grace");
  int alive = kill(daemon, 0) == 0;
  TK_EQ(alive, 0, "the daemon is gone after the ending");
  if (alive) kill(daemon, SIGKILL);
}

int main(void) {
  static CU_TestInfo tests[] = {
      {"a child starts with default signals and an empty mask", test_default_signals},
      {"a child holds only the descriptors it is given", test_descriptors},
      {"a program that cannot be run is an error of the start", test_exec_failure},
      {"the ending returns the wait status", test_wait_status},
      {"a keeper's setsid daemon is gone after the ending", test_daemon_gone},
      CU_TEST_INFO_NULL,
  };
  alarm(120); /* an ending that never returns fails the test instead of hanging it */
  return tk_unit_run("proc", tests);
}
