/* tests/referee/e2e_util.h — helpers for end-to-end tests that run the `taikai` binary as a
 * child process (with a time limit) and look at its exit status, its stdout and stderr and the
 * files it writes. Set `work_dir` (a folder of its own) before running anything; W("x") is
 * the path of x in it. Functions are `static inline` so a test may use only some of them. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "unit.h"

static char out_buf[1 << 16], err_buf[1 << 16];
static char work_dir[1024];

/* Starts a test program's work folder afresh (outputs of an earlier run would be continued):
 * removes `dir`, creates it and its parent, and makes it work_dir. Returns 0 or -1. */
static inline int e2e_begin(const char *dir) {
  char cmd[1200], parent[1024];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) return -1;
  snprintf(parent, sizeof parent, "%s", dir);
  char *slash = strrchr(parent, '/');
  if (slash && slash != parent) {
    *slash = '\0';
    mkdir(parent, 0777);
  }
  if (mkdir(dir, 0777)) return -1;
  snprintf(work_dir, sizeof work_dir, "%s", dir);
  return 0;
}

/* The path of `name` in work_dir (one of 16 rotating buffers). */
static inline const char *W(const char *name) {
  static char bufs[16][1600];
  static int next;
  char *b = bufs[next++ % 16];
  snprintf(b, sizeof bufs[0], "%s/%s", work_dir, name);
  return b;
}

static inline void slurp(const char *path, char *buf, size_t cap) {
  buf[0] = '\0';
  FILE *f = fopen(path, "rb");
  if (!f) return;
  size_t n = fread(buf, 1, cap - 1, f);
  buf[n] = '\0';
  fclose(f);
}

/* The wall-clock bound on one taikai started by a test, in seconds: a guard that turns a hang
 * into a failure, never a measure of speed. Generous, since a test starved of CPU (nice 19
 * beside nice-0 work, about 1.5% of a core) stretches a run of a few seconds to minutes;
 * TAIKAI_TEST_HANG_S overrides it for machines starved worse than that. */
static inline unsigned e2e_hang_s(void) {
  const char *v = getenv("TAIKAI_TEST_HANG_S");
  long s = v ? strtol(v, NULL, 10) : 0;
  return s > 0 ? (unsigned)s : 900;
}

/* Starts taikai with `args` (NULL-terminated, without argv[0]), stdout and stderr going to
 * W("stdout.txt") and W("stderr.txt"). Returns its pid. */
static inline pid_t taikai_start(const char *const *args) {
  const char *argv[48];
  int n = 0;
  argv[n++] = TK_TAIKAI_BIN;
  for (; *args && n < 47; args++) argv[n++] = *args;
  argv[n] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(W("stdout.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(W("stderr.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    setenv("TAIKAI_PLUGIN_PATH", TK_PLUGIN_DIR, 1);
    alarm(e2e_hang_s());
    execv(TK_TAIKAI_BIN, (char *const *)argv);
    _exit(127);
  }
  return pid;
}

/* Waits for a taikai started by taikai_start; returns its exit status, or -signal. */
static inline int taikai_wait(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  slurp(W("stdout.txt"), out_buf, sizeof out_buf);
  slurp(W("stderr.txt"), err_buf, sizeof err_buf);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

/* 1 when the process started by taikai_start has ended (it is left to taikai_wait to reap). */
static inline int taikai_exited(pid_t pid) {
  siginfo_t si;
  memset(&si, 0, sizeof si);
  return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/* Runs taikai with `args` to the end. */
static int taikai(const char *const *args) { return taikai_wait(taikai_start(args)); }

/* Runs program `bin` (a tool the build made: a trainer, a fitter) with `args`, a shell word
 * list, through the shell; its stdout and stderr in out_buf and err_buf (by way of
 * W("program.out") and W("program.err")). Returns its exit status, or -1 when it did not
 * exit. */
static inline int run_program(const char *bin, const char *args) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' %s > '%s' 2> '%s'", bin, args, W("program.out"),
           W("program.err"));
  int status = system(cmd);
  slurp(W("program.out"), out_buf, sizeof out_buf);
  slurp(W("program.err"), err_buf, sizeof err_buf);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static inline void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) {
    TK_FAILF("cannot write %s", path);
    return;
  }
  fputs(text, f);
  fclose(f);
}

static inline int same_bytes(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int same = fa && fb;
  while (same) {
    int ca = fgetc(fa), cb = fgetc(fb);
    if (ca != cb) same = 0;
    if (ca == EOF || cb == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

/* Fails the test unless file `name` is the same bytes in folders a and b. */
static inline void same_in(const char *a, const char *b, const char *name) {
  char pa[1600], pb[1600];
  snprintf(pa, sizeof pa, "%s/%s", a, name);
  snprintf(pb, sizeof pb, "%s/%s", b, name);
  if (!same_bytes(pa, pb)) TK_FAILF("%s and %s differ", pa, pb);
}

static inline int exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static inline void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts)) {
  }
}

static inline int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Lines of a file (at most max), each a new JSON value (NULL if it does not parse). */
static inline int load_lines(const char *path, json_t **out, int max) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  static char line[1 << 14];
  int n = 0;
  while (n < max && fgets(line, sizeof line, f)) out[n++] = json_loads(line, 0, NULL);
  fclose(f);
  return n;
}

static inline void free_lines(json_t **l, int n) {
  for (int i = 0; i < n; i++) json_decref(l[i]);
}

/* summary.json's agent `i` field `key` as an integer. */
static inline long long agent_int(json_t *sum, int i, const char *key) {
  return (long long)json_integer_value(
      json_object_get(json_array_get(json_object_get(sum, "agents"), (size_t)i), key));
}

static inline long long agent_kind(json_t *sum, int i, const char *kind) {
  json_t *a = json_array_get(json_object_get(sum, "agents"), (size_t)i);
  return (long long)json_integer_value(json_object_get(json_object_get(a, "fault_kinds"), kind));
}
