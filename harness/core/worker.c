/* harness/core/worker.c — the processes that run agent code: pool workers and trial creates (see
 * worker.h). A worker keeps one instance per agent, created when a unit first needs it, and
 * records every agent call in its shared tk_watch so that the parent can attribute a crash or
 * stop a call that runs past its limit. Results depend only on the unit, never on the worker. */
#define _DEFAULT_SOURCE 1 /* sigaltstack, MAP_ANONYMOUS */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loop.h"
#include "taikai/proc.h"
#include "worker.h"

#if defined(__SANITIZE_ADDRESS__)
#define TK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TK_ASAN 1
#endif
#endif

#ifdef TK_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

enum { WBUF = 1 << 16 };

int tk_write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    c += w;
    n -= (size_t)w;
  }
  return 0;
}

int tk_read_all(int fd, void *p, size_t n) {
  char *c = p;
  while (n) {
    ssize_t r = read(fd, c, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    c += r;
    n -= (size_t)r;
  }
  return 0;
}

int tk_worker_rlimit_ok(void) {
#ifdef TK_ASAN
  return 0;
#else
  return 1;
#endif
}

/* First number of /proc/<pid or self>/statm at `field` (0 size, 1 resident), in bytes. Only
 * async-signal-safe calls: the crash handler uses it. */
static int64_t statm(const char *path, int field) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  char buf[128];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  const char *p = buf;
  for (int i = 0; i < field; i++) {
    while (*p && *p != ' ') p++;
    while (*p == ' ') p++;
  }
  int64_t pages = 0;
  for (; *p >= '0' && *p <= '9'; p++) pages = pages * 10 + (*p - '0');
  return pages * 4096; /* statm counts pages; 4 KiB on every Linux this runs on */
}

int64_t tk_proc_rss(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
  return statm(path, 1);
}

/* ------------------------------------------------------------------ confinement */

static tk_watch *volatile crash_watch;

static void crash_handler(int sig) {
  int saved = errno;
  tk_watch *w = crash_watch;
  if (w) {
    w->crash_errno = saved;
    w->crash_vm = statm("/proc/self/statm", 0);
    w->crash_signal = sig;
  }
  /* SA_RESETHAND restored the default action: die of the same signal */
  raise(sig);
}

#ifdef TK_ASAN
/* The sanitizer ends a crashing worker with its own exit status (after its report): say so. */
static void sanitizer_death(void) {
  tk_watch *w = crash_watch;
  if (w) w->crash_signal = -1;
}
#endif

/* SIGINT and SIGTERM in a worker: nothing (the referee stops its workers itself). A handler, not
 * SIG_IGN: exec resets a handler to the default, so a program an agent runs can be stopped. */
static void stop_signal_ignored(int sig) { (void)sig; }

/* In the child of tk_worker_spawn, once tk_proc_spawn has set its signals, group, descriptors
 * and parent death: the referee's own confinement (stop signals, memory limit, crash record). */
static void guard(const tk_run *r, tk_watch *watch) {
#ifdef TK_ASAN
  crash_watch = watch;
  __sanitizer_set_death_callback(sanitizer_death);
#endif
  struct sigaction stop;
  memset(&stop, 0, sizeof stop);
  stop.sa_handler = stop_signal_ignored;
  stop.sa_flags = SA_RESTART;
  sigemptyset(&stop.sa_mask);
  sigaction(SIGINT, &stop, NULL);
  sigaction(SIGTERM, &stop, NULL);
  if (r->spec.memory_limit_mb > 0 && tk_worker_rlimit_ok()) {
    rlim_t lim = (rlim_t)r->spec.memory_limit_mb << 20;
    struct rlimit rl = {lim, lim};
    setrlimit(RLIMIT_AS, &rl);
    /* record how a crash happened: a failed allocation usually ends in SIGSEGV or SIGABRT */
    static char altstack[1 << 16];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    sigaltstack(&ss, NULL);
    crash_watch = watch;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = crash_handler;
    sa.sa_flags = (int)(SA_RESETHAND | SA_ONSTACK | SA_NODEFER);
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
  }
}

typedef struct guarded {
  const tk_run *r;
  tk_watch *watch;
  tk_proc_fn fn;
  void *arg;
} guarded;

static int guarded_main(void *arg) {
  guarded *g = arg;
  guard(g->r, g->watch);
  return g->fn(g->arg);
}

int tk_worker_spawn(const tk_run *r, tk_watch *watch, const int *keep, int nkeep, tk_proc_fn fn,
                    void *arg, pid_t *pid, tk_error *err) {
  guarded g = {r, watch, fn, arg};
  int nul = open("/dev/null", O_RDONLY | O_CLOEXEC); /* on failure stdin stays as it is */
  tk_proc_opts o = {
      .fn = guarded_main,
      .arg = &g,
      .map = {nul, 2, -1}, /* an agent's prints go to stderr, never into the referee's stdout */
      .keep = keep,
      .nkeep = nkeep,
      .new_group = 1,
      .pdeath_signal = SIGKILL,
      .fail_exit = TK_WORKER_EXIT_PIPE, /* a descriptor lost, or the referee died meanwhile */
  };
  int rc = tk_proc_spawn(&o, pid, err);
  if (nul >= 0) close(nul);
  return rc;
}

/* ------------------------------------------------------------------ worker */

/* Results waiting to be written: flushed when full, at the end of a command, and at least
 * every 100 ms (so progress and crash recovery stay current with slow agents). */
typedef struct outbuf {
  int fd;
  char *buf;
  size_t used;
  int64_t flushed;
} outbuf;

static void out_flush(outbuf *o) {
  if (o->used && tk_write_all(o->fd, o->buf, o->used)) _exit(TK_WORKER_EXIT_PIPE);
  o->used = 0;
  o->flushed = tk_now_ns();
}

static void out_add(outbuf *o, const void *p, size_t n) {
  if (o->used + n > WBUF) out_flush(o);
  if (n > WBUF) { /* a large unit (many decisions recorded): straight through */
    if (tk_write_all(o->fd, p, n)) _exit(TK_WORKER_EXIT_PIPE);
    return;
  }
  memcpy(o->buf + o->used, p, n);
  o->used += n;
}

/* This process's CPU time (every thread), in ns. */
static int64_t process_cpu_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) return 0;
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *shared_map;
static size_t shared_len;

void tk_worker_set_shared(void *base, size_t len) {
  shared_map = base;
  shared_len = len;
}

void tk_worker_main(const tk_run *r, int cmd_fd, int res_fd, tk_watch *watch) {
  int n = r->spec.nagents;
  const tk_game *g = r->game;
  tk_seat_agent *agents = calloc((size_t)n, sizeof *agents);
  tk_unit_rec *rec = malloc(sizeof *rec);
  outbuf o = {res_fd, malloc(WBUF), 0, tk_now_ns()};
  tk_loop loop;
  if (!agents || !rec || !o.buf || tk_loop_init(&loop, g)) _exit(TK_WORKER_EXIT_NOMEM);
  for (int i = 0; i < n; i++) {
    agents[i].desc = r->plugins[i].desc;
    agents[i].index = i;
    agents[i].label = r->spec.agents[i].label;
    agents[i].params = r->params_text[i];
    agents[i].isolated = r->spec.agents[i].isolated;
  }
  loop.run = r;
  loop.shared = shared_map;
  loop.shared_len = shared_len;
  loop.rules = r->rules;
  loop.seed = r->spec.seed;
  loop.illegal_policy = (int)r->spec.illegal_policy;
  loop.watch = watch;
  loop.agents = agents;
  loop.logs_dir = r->logs_dir;
  loop.logs_gzip = r->logs_gzip;
  loop.records = r->records;
  loop.pipe_fd = res_fd;
  for (;;) {
    tk_cmd cmd;
    if (tk_read_all(cmd_fd, &cmd, sizeof cmd) || cmd.count == 0) break;
    for (uint64_t u = cmd.first; u < cmd.first + cmd.count; u++) {
      uint64_t wall;
      const int *seating = tk_schedule_unit(&r->sched, u, &wall);
      tk_error err;
      tk_error_clear(&err);
      int64_t cpu0 = process_cpu_ns();
      int rc = tk_loop_play(&loop, u, wall, seating, cmd.fallback, cmd.faults, rec, &err);
      tk_msg_head h = {.unit = u, .status = rc, .cpu_ns = process_cpu_ns() - cpu0};
      if (rc) {
        h.text_len = (uint32_t)strlen(err.msg);
      } else {
        h.rec_len = (uint32_t)tk_unit_rec_size(g->nseats);
        h.records_len = r->records ? (uint32_t)loop.rb.packed_len : 0;
      }
      out_add(&o, &h, sizeof h);
      if (rc) out_add(&o, err.msg, h.text_len);
      else out_add(&o, rec, h.rec_len);
      if (h.records_len) out_add(&o, loop.rb.packed, h.records_len);
      if (tk_now_ns() - o.flushed > 100000000) out_flush(&o);
    }
    out_flush(&o);
  }
  tk_loop_destroy_agents(&loop, n);
  tk_loop_free(&loop);
  free(agents);
  free(rec);
  free(o.buf);
  _exit(0);
}

/* ------------------------------------------------------------------ trial create */

typedef struct trial {
  const tk_run *r;
  int agent;
} trial;

/* The trial's child: creates the agent, names its files, destroys it, and says how each went
 * on descriptor 3. */
static int trial_main(void *arg) {
  const trial *t = arg;
  const tk_run *r = t->r;
  const tk_plugin *p = &r->plugins[t->agent];
  enum { OUT = 3 };
  tk_error e;
  tk_error_clear(&e);
  tk_agent_instance *inst = p->desc->create(
      r->params_text[t->agent], tk_game_seed(r->spec.seed, UINT64_MAX, -1, t->agent), &e);
  char status = inst ? 'C' : 'F'; /* created / failed */
  tk_write_all(OUT, &status, 1);
  if (!inst) {
    tk_write_all(OUT, e.msg[0] ? e.msg : "(no reason given)",
                 strlen(e.msg[0] ? e.msg : "(no reason given)"));
    return 1;
  }
  for (int i = 0; p->desc->file && i < TK_AGENT_MAX_FILES; i++) {
    const char *role = NULL, *path = p->desc->file(inst, i, &role);
    if (!path) break;
    if (!role) role = "";
    char tag = 'P'; /* a file: its role and path, each NUL-terminated */
    tk_write_all(OUT, &tag, 1);
    tk_write_all(OUT, role, strnlen(role, 31));
    tk_write_all(OUT, "", 1);
    tk_write_all(OUT, path, strnlen(path, TK_PATH_MAX - 1));
    tk_write_all(OUT, "", 1);
  }
  p->desc->destroy(inst);
  status = 'D'; /* destroyed */
  tk_write_all(OUT, &status, 1);
  return 0;
}

int tk_worker_trial(const tk_run *r, int agent, tk_trial_files *files, tk_error *err) {
  const tk_plugin *p = &r->plugins[agent];
  memset(files, 0, sizeof *files);
  int fds[2];
  if (pipe(fds)) return tk_error_set(err, TK_EIO, -1, "pipe: %s", strerror(errno));
  trial t = {r, agent};
  pid_t pid;
  int rc = tk_worker_spawn(r, NULL, &fds[1], 1, trial_main, &t, &pid, err);
  if (rc) {
    close(fds[0]);
    close(fds[1]);
    return rc;
  }
  close(fds[1]);
  static char msg[TK_ERROR_MSG_MAX + TK_AGENT_MAX_FILES * (TK_PATH_MAX + 34) + 2];
  size_t len = 0;
  int64_t limit = (int64_t)r->spec.time_limit_ms * 1000000;
  int64_t idle_limit = (int64_t)r->spec.idle_limit_ms * 1000000;
  tk_span span;
  tk_span_start(&span, pid, r->spec.wall_clock);
  int timed_out = 0;
  for (;;) {
    int wait_ms = limit || idle_limit ? 10 : -1; /* the clocks are read every 10 ms */
    if ((timed_out = tk_span_over(&span, limit, idle_limit))) {
      kill(pid, SIGKILL); /* at once: the call is over its limit (the group goes below) */
      break;
    }
    struct pollfd pfd = {fds[0], POLLIN, 0};
    int k = poll(&pfd, 1, wait_ms);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) continue;
    ssize_t got = read(fds[0], msg + len, sizeof msg - 1 - len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (!len && msg[0] == 'C') tk_span_start(&span, pid, r->spec.wall_clock); /* destroy's own */
    len += (size_t)got;
    if (len >= sizeof msg - 1) break;
  }
  close(fds[0]);
  tk_proc_ending ending = {.pid = pid, .stdin_fd = -1};
  tk_proc_end(&ending, 1, -1, 0); /* reaped, and whatever the agent forked killed */
  int status = ending.status;
  msg[len] = '\0';
  const char *entry = !len || msg[0] != 'C' ? "create" : p->desc->file ? "file or destroy"
                                                                     : "destroy";
  if (timed_out == TK_LIMIT_IDLE + 1)
    return tk_error_set(err, TK_EINVAL, -1, "%s: %s was idle (neither running nor waiting to "
                        "run) for over %d ms (trial before the run)", p->path, entry,
                        r->spec.idle_limit_ms);
  if (timed_out)
    return tk_error_set(err, TK_EINVAL, -1, "%s: %s did not return within %d ms of %s time "
                        "(trial before the run)", p->path, entry, r->spec.time_limit_ms,
                        r->spec.wall_clock ? "wall-clock" : "CPU");
  if (WIFSIGNALED(status))
    return tk_error_set(err, TK_EINVAL, -1, "%s: %s crashed: killed by signal %d (%s) (trial "
                        "before the run)", p->path, entry, WTERMSIG(status),
                        strsignal(WTERMSIG(status)));
  if (len && msg[0] == 'F')
    return tk_error_set(err, TK_EINVAL, -1, "%s: create failed: %s", p->path, msg + 1);
  size_t at = 1; /* after 'C': the files, then 'D' */
  while (len && at < len && msg[at] == 'P' && files->n < TK_AGENT_MAX_FILES) {
    const char *role = msg + at + 1, *end = memchr(role, '\0', len - at - 1);
    const char *path = end ? end + 1 : NULL;
    const char *pend = path && path < msg + len ? memchr(path, '\0', (size_t)(msg + len - path))
                                                : NULL;
    if (!pend) break;
    snprintf(files->role[files->n], sizeof files->role[0], "%s", role);
    snprintf(files->path[files->n], sizeof files->path[0], "%s", path);
    files->n++;
    at = (size_t)(pend - msg) + 1;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || len < 2 || at != len - 1 ||
      msg[at] != 'D')
    return tk_error_set(err, TK_EINVAL, -1, "%s: %s ended its process with exit status %d "
                        "(trial before the run)", p->path, entry,
                        WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}

int tk_worker_death(const tk_spec *sp, const tk_watch *w, int status, tk_fault *f) {
  if (WIFSIGNALED(status)) {
    f->kind = TK_FAULT_CRASH;
    f->signal = WTERMSIG(status);
    if (sp->memory_limit_mb > 0 && w->crash_signal == f->signal) {
      /* under RLIMIT_AS a failed allocation ends in a crash: errno says ENOMEM, or the
       * address space is within an eighth of the limit */
      int64_t lim = (int64_t)sp->memory_limit_mb << 20;
      if (w->crash_errno == ENOMEM || w->crash_vm >= lim - lim / 8) {
        f->kind = TK_FAULT_MEMORY;
        f->limit_mb = sp->memory_limit_mb;
      }
    }
    return -1;
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (w->crash_signal == -1) { /* sanitizer builds: it reported the crash and exited */
    f->kind = TK_FAULT_CRASH;
    f->signal = 0;
    return code;
  }
  f->kind = TK_FAULT_EXIT;
  f->exit_status = code;
  return code;
}
