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
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "fault.h"
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

void tk_worker_guard(const tk_run *r, tk_watch *watch) {
#ifdef TK_ASAN
  crash_watch = watch;
  __sanitizer_set_death_callback(sanitizer_death);
#endif
#ifdef __linux__
  pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(TK_WORKER_EXIT_PIPE); /* the referee died meanwhile */
#endif
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  signal(SIGPIPE, SIG_DFL);
  int nul = open("/dev/null", O_RDONLY);
  if (nul >= 0) {
    dup2(nul, 0);
    if (nul != 0) close(nul);
  }
  dup2(2, 1); /* an agent's prints go to stderr, never into the referee's stdout */
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

/* ------------------------------------------------------------------ worker */

static tk_agent_instance *create_agent(const tk_run *r, int i, tk_watch *watch, int seat,
                                       tk_fault *f) {
  const tk_agent_descriptor *d = r->plugins[i].desc;
  tk_error e;
  tk_error_clear(&e);
  tk_watch_call(watch, seat, i, TK_ENTRY_CREATE);
  tk_agent_instance *inst =
      d->create(r->params_text[i], tk_game_seed(r->spec.seed, UINT64_MAX, -1, i), &e);
  tk_watch_leave(watch);
  if (tk_watch_over(watch, seat, TK_ENTRY_CREATE, f)) {
    if (inst) d->destroy(inst);
    return NULL;
  }
  if (!inst) {
    memset(f, 0, sizeof *f);
    f->kind = TK_FAULT_ERROR;
    f->entry = TK_ENTRY_CREATE;
    f->seat = seat;
    snprintf(f->detail, sizeof f->detail, "returned NULL: %.130s", e.msg[0] ? e.msg : "(no reason)");
  }
  return inst;
}

void tk_worker_main(const tk_run *r, int cmd_fd, int res_fd, tk_watch *watch) {
  int n = r->spec.nagents, nseats = r->game->nseats;
  tk_seat_agent *agents = calloc((size_t)n, sizeof *agents);
  char *wbuf = malloc(WBUF);
  char line[TK_LINE_MAX];
  if (!agents || !wbuf) _exit(TK_WORKER_EXIT_NOMEM);
  for (int i = 0; i < n; i++) {
    agents[i].desc = r->plugins[i].desc;
    agents[i].index = i;
    agents[i].label = r->spec.agents[i].label;
  }
  tk_play_ctx ctx = {r->spec.seed, r->rules, watch, (int)r->spec.illegal_policy, 0,
                     r->game->logs ? r->logs_dir : NULL};
  for (;;) {
    uint64_t cmd[TK_CMD_WORDS];
    if (tk_read_all(cmd_fd, cmd, sizeof cmd) || cmd[1] == 0) break;
    size_t used = 0;
    int64_t flushed = tk_now_ns();
    for (uint64_t u = cmd[0]; u < cmd[0] + cmd[1]; u++) {
      uint64_t wall;
      const int *seating = tk_schedule_unit(&r->sched, u, &wall);
      tk_watch_unit(watch, u);
      tk_fault f, created[TK_MAX_SEATS];
      memset(&f, 0, sizeof f);
      /* replays (the pool's cmd[2]): seats whose agents crashed in an earlier try of the unit */
      unsigned fallback = (unsigned)cmd[2], failed = 0;
      for (int s = 0; s < nseats && !f.kind; s++) {
        tk_seat_agent *a = &agents[seating[s]];
        if ((fallback >> s & 1) || a->inst) continue;
        a->inst = create_agent(r, seating[s], watch, s, &f);
        if (!a->inst && r->game->fallback) { /* played by the fallback, the fault stamped */
          created[s] = f;
          failed |= 1u << s;
          memset(&f, 0, sizeof f);
        }
      }
      int rc;
      if (f.kind) { /* an agent of this unit could not be created: the unit is its fault */
        char reason[512];
        tk_fault_reason(&f, reason, sizeof reason);
        rc = r->game->fault_line(u, wall, seating, agents, f.seat, reason, line, sizeof line);
        if (!rc) rc = tk_fault_stamp(line, sizeof line, &f);
      } else {
        ctx.fallback_seats = fallback | failed;
        rc = r->game->play(&ctx, u, wall, seating, agents, line, sizeof line);
        for (int s = 0; s < nseats && !rc; s++)
          if (failed >> s & 1) rc = tk_fault_stamp(line, sizeof line, &created[s]);
      }
      tk_msg_head h = {u, rc, rc ? 0 : (uint32_t)strlen(line)};
      if (used + sizeof h + h.len > WBUF) {
        if (tk_write_all(res_fd, wbuf, used)) _exit(TK_WORKER_EXIT_PIPE);
        used = 0;
      }
      memcpy(wbuf + used, &h, sizeof h);
      memcpy(wbuf + used + sizeof h, line, h.len);
      used += sizeof h + h.len;
      /* slow agents: pass results on at least every 100 ms, for progress and crash safety */
      if (tk_now_ns() - flushed > 100000000) {
        if (tk_write_all(res_fd, wbuf, used)) _exit(TK_WORKER_EXIT_PIPE);
        used = 0;
        flushed = tk_now_ns();
      }
    }
    if (used && tk_write_all(res_fd, wbuf, used)) _exit(TK_WORKER_EXIT_PIPE);
  }
  for (int i = 0; i < n; i++)
    if (agents[i].inst) {
      tk_watch_call(watch, -1, i, TK_ENTRY_DESTROY);
      agents[i].desc->destroy(agents[i].inst);
      tk_watch_leave(watch);
    }
  free(agents);
  free(wbuf);
  _exit(0);
}

/* ------------------------------------------------------------------ trial create */

int tk_worker_trial(const tk_run *r, int agent, tk_error *err) {
  const tk_plugin *p = &r->plugins[agent];
  int fds[2];
  if (pipe(fds)) return tk_error_set(err, TK_EIO, -1, "pipe: %s", strerror(errno));
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return tk_error_set(err, TK_EIO, -1, "fork: %s", strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    tk_worker_guard(r, NULL);
    tk_error e;
    tk_error_clear(&e);
    tk_agent_instance *inst = p->desc->create(
        r->params_text[agent], tk_game_seed(r->spec.seed, UINT64_MAX, -1, agent), &e);
    char status = inst ? 'C' : 'F'; /* created / failed */
    tk_write_all(fds[1], &status, 1);
    if (!inst) {
      tk_write_all(fds[1], e.msg[0] ? e.msg : "(no reason given)",
                   strlen(e.msg[0] ? e.msg : "(no reason given)"));
      _exit(1);
    }
    p->desc->destroy(inst);
    status = 'D'; /* destroyed */
    tk_write_all(fds[1], &status, 1);
    _exit(0);
  }
  close(fds[1]);
  char msg[TK_ERROR_MSG_MAX + 2];
  size_t len = 0;
  int64_t limit = (int64_t)r->spec.time_limit_ms * 1000000, start = tk_now_ns();
  int timed_out = 0;
  for (;;) {
    int wait_ms = -1;
    if (limit) {
      int64_t left = limit - (tk_now_ns() - start);
      if (left <= 0) {
        timed_out = 1;
        kill(pid, SIGKILL);
        break;
      }
      wait_ms = (int)(left / 1000000) + 1;
    }
    struct pollfd pfd = {fds[0], POLLIN, 0};
    int k = poll(&pfd, 1, wait_ms);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) continue;
    ssize_t got = read(fds[0], msg + len, sizeof msg - 1 - len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (!len && msg[0] == 'C') start = tk_now_ns(); /* destroy has its own limit */
    len += (size_t)got;
    if (len >= sizeof msg - 1) break;
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  msg[len] = '\0';
  const char *entry = len && msg[0] == 'C' ? "destroy" : "create";
  if (timed_out)
    return tk_error_set(err, TK_EINVAL, -1, "%s: %s did not return within %d ms (trial before "
                        "the run)", p->path, entry, r->spec.time_limit_ms);
  if (WIFSIGNALED(status))
    return tk_error_set(err, TK_EINVAL, -1, "%s: %s crashed: killed by signal %d (%s) (trial "
                        "before the run)", p->path, entry, WTERMSIG(status),
                        strsignal(WTERMSIG(status)));
  if (len && msg[0] == 'F')
    return tk_error_set(err, TK_EINVAL, -1, "%s: create failed: %s", p->path, msg + 1);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || len < 2 || msg[1] != 'D')
    return tk_error_set(err, TK_EINVAL, -1, "%s: %s ended its process with exit status %d "
                        "(trial before the run)", p->path, entry,
                        WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}
