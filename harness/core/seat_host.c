/* harness/core/seat_host.c — a plugin seat of `taikai serve` in a process of its own (see
 * seat_host.h). The confinement and the watch are the pool's workers' (tk_worker_spawn,
 * harness/core/worker.h; watch.h); the faults read from a host's death follow the pool's rules
 * (harness/core/pool.c). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "confine.h"
#include "seat_host.h"
#include "worker.h"

enum { DETAIL_LEN = 130, SLICE_MS = 20 };

/* ------------------------------------------------------------------ the host process */

/* Writes the parts as one write where they fit in a buffer (one system call a message: a pipe
 * round trip costs a few of them). Returns 0 or -1. */
static int write_parts(int fd, const void *a, size_t alen, const void *b, size_t blen,
                       const void *c, size_t clen) {
  static char buf[1 << 16];
  if (alen + blen + clen > sizeof buf)
    return tk_write_all(fd, a, alen) || (blen && tk_write_all(fd, b, blen)) ||
                   (clen && tk_write_all(fd, c, clen))
               ? -1
               : 0;
  memcpy(buf, a, alen);
  if (blen) memcpy(buf + alen, b, blen);
  if (clen) memcpy(buf + alen + blen, c, clen);
  return tk_write_all(fd, buf, alen + blen + clen);
}

static void host_reply(int fd, int32_t rc, const void *more, size_t len) {
  if (write_parts(fd, &rc, sizeof rc, more, len, NULL, 0)) _exit(TK_WORKER_EXIT_PIPE);
}

static void host_reply_more(int fd, const void *more, size_t len) {
  if (tk_write_all(fd, more, len)) _exit(TK_WORKER_EXIT_PIPE);
}

/* The agent's own account of its failed call (its optional last_error), within the call. */
static void last_error(const tk_agent_descriptor *d, tk_agent_instance *inst, tk_error *msg) {
  tk_error_clear(msg);
  if (d->last_error) d->last_error(inst, msg);
  msg->msg[TK_FAULT_MESSAGE_MAX - 1] = '\0';
}

/* The host: creates the agent, then answers calls until destroy or the end of its pipe. */
static void host_main(const tk_run *r, int agent, int seat, int req_fd, int rep_fd,
                      tk_watch *w) {
  const tk_game *g = r->game;
  const tk_agent_descriptor *d = r->plugins[agent].desc;
  size_t a_size = g->info_size;
  if (g->view_size > a_size) a_size = g->view_size;
  if (g->result_size > a_size) a_size = g->result_size;
  void *a = malloc(a_size), *legal = malloc(g->legal_size), *action = malloc(g->action_size);
  if (!a || !legal || !action) _exit(TK_WORKER_EXIT_NOMEM);
  tk_error e, msg;
  tk_error_clear(&e);
  tk_confine_seat(); /* before any of the agent's code */
  tk_watch_call(w, seat, agent, TK_ENTRY_CREATE);
  tk_agent_instance *inst =
      d->create(r->params_text[agent], tk_game_seed(r->spec.seed, UINT64_MAX, -1, agent), &e);
  tk_watch_leave(w);
  char detail[DETAIL_LEN];
  memset(detail, 0, sizeof detail);
  if (!inst) snprintf(detail, sizeof detail, "%.120s", e.msg[0] ? e.msg : "(no reason)");
  host_reply(rep_fd, inst ? 0 : -1, detail, sizeof detail);
  if (!inst) _exit(0);
  for (;;) {
    int32_t entry;
    if (tk_read_all(req_fd, &entry, sizeof entry)) break;
    int32_t rc = 0;
    if (entry == TK_ENTRY_BEGIN) {
      if (tk_read_all(req_fd, a, g->info_size)) break;
      tk_watch_call(w, seat, agent, TK_ENTRY_BEGIN);
      rc = d->begin_game ? d->begin_game(inst, a) : 0;
      if (rc < 0) last_error(d, inst, &msg);
      tk_watch_leave(w);
      host_reply(rep_fd, rc, NULL, 0);
      if (rc < 0) host_reply_more(rep_fd, msg.msg, TK_FAULT_MESSAGE_MAX);
    } else if (entry == TK_ENTRY_ACT) {
      if (tk_read_all(req_fd, a, g->view_size) || tk_read_all(req_fd, legal, g->legal_size))
        break;
      memset(action, 0xff, g->action_size); /* an action the agent does not write is illegal */
      tk_watch_decision(w, a, g->view_size);
      tk_watch_call(w, seat, agent, TK_ENTRY_ACT);
      rc = d->act(inst, a, legal, action);
      if (rc < 0) last_error(d, inst, &msg);
      tk_watch_leave(w);
      host_reply(rep_fd, rc, action, g->action_size);
      if (rc < 0) host_reply_more(rep_fd, msg.msg, TK_FAULT_MESSAGE_MAX);
    } else if (entry == TK_ENTRY_END) {
      if (tk_read_all(req_fd, a, g->result_size)) break;
      tk_watch_call(w, seat, agent, TK_ENTRY_END);
      if (d->end_game) d->end_game(inst, a);
      tk_watch_leave(w);
      host_reply(rep_fd, 0, NULL, 0);
    } else {
      break; /* destroy */
    }
  }
  tk_watch_call(w, seat, agent, TK_ENTRY_DESTROY);
  d->destroy(inst);
  tk_watch_leave(w);
  _exit(0);
}

typedef struct host_start {
  const tk_run *r;
  int agent, seat;
  tk_watch *watch;
  void *unmap;
  size_t unmap_len;
} host_start;

/* The host's child (tk_worker_spawn): its request pipe is descriptor 3, its reply pipe 4. */
static int host_child(void *arg) {
  const host_start *s = arg;
  if (s->unmap) munmap(s->unmap, s->unmap_len); /* the worker's watches: not the agent's */
  host_main(s->r, s->agent, s->seat, 3, 4, s->watch);
  return 0; /* not reached */
}

/* ------------------------------------------------------------------ the server's side */

static void describe_decision(const tk_run *r, const tk_watch *w, int entry, char *buf,
                              size_t cap) {
  buf[0] = '\0';
  if (entry == TK_ENTRY_ACT && w->snap_len == (int32_t)r->game->view_size)
    r->game->describe((const void *)w->snap, buf, cap);
}

/* Ends the host within `grace_ms` (0: killed at once with its group, the agent's processes
 * included) and closes its pipes. */
static void end_host(tk_seat_host *h, int grace_ms) {
  tk_proc_ending end = {.pid = h->pid, .stdin_fd = -1};
  tk_proc_end(&end, 1, grace_ms, 0);
  close(h->req_fd);
  close(h->rep_fd);
  h->pid = 0;
}

void tk_seat_host_kill(tk_seat_host *h) {
  if (h->pid) end_host(h, 0);
}

void tk_seat_host_free(tk_seat_host *h) {
  if (h->watch) munmap(h->watch, sizeof *h->watch);
  h->watch = NULL;
}

/* The fault of a host that died on its own (tk_worker_death, as for a worker); an agent that
 * closed the host's pipe outside a call is an error. */
static void death_fault(const tk_run *r, const tk_seat_host *h, int status, tk_fault *f) {
  int code = tk_worker_death(&r->spec, h->watch, status, f);
  if (f->kind == TK_FAULT_EXIT && code == TK_WORKER_EXIT_PIPE && !(h->watch->seq & 1)) {
    f->kind = TK_FAULT_ERROR;
    f->exit_status = 0;
    snprintf(f->detail, sizeof f->detail, "closed the referee's pipe");
  }
}

/* The host's pipe ended or failed during `entry`: a host that died is given a moment (200 ms)
 * to be seen dead and its death read; one still alive had its pipe closed by the agent. */
static void gone(const tk_run *r, tk_seat_host *h, int entry, tk_fault *f) {
  memset(f, 0, sizeof *f);
  f->seat = h->seat;
  f->entry = entry;
  describe_decision(r, h->watch, entry, f->decision, sizeof f->decision);
  for (int i = 0; i < 200; i++) {
    int st;
    pid_t got = waitpid(h->pid, &st, WNOHANG);
    if (got == h->pid) {
      death_fault(r, h, st, f);
      kill(-h->pid, SIGKILL);
      close(h->req_fd);
      close(h->rep_fd);
      h->pid = 0;
      return;
    }
    if (got < 0 && errno != EINTR) break;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  f->kind = TK_FAULT_ERROR;
  snprintf(f->detail, sizeof f->detail, "closed the referee's pipe");
  tk_seat_host_kill(h);
}

/* Waits until the host's answer can be read, at most until the call's limits (per call, and
 * per game except for create), watching the memory limit where RLIMIT_AS is not used. Returns
 * 1 readable, 0 a limit passed (*f filled, the host killed), or TK_ESTATE on a stop signal. */
static int await(const tk_run *r, tk_seat_host *h, int entry, tk_fault *f, tk_error *err) {
  const tk_spec *sp = &r->spec;
  tk_watch *w = h->watch;
  tk_watch_meter meter = {0};
  int rss = sp->memory_limit_mb > 0 && !tk_worker_rlimit_ok();
  int timed = sp->time_limit_ms || sp->game_time_limit_ms || sp->idle_limit_ms;
  for (int looked = 0;; looked = 1) {
    /* the answer first: the common case costs one poll; limits and death between polls */
    int ms = !looked ? 0 : timed ? 10 : SLICE_MS; /* the clocks, the host's life: 10-20 ms */
    if (rss && ms > SLICE_MS) ms = SLICE_MS;
    struct pollfd p = {.fd = h->rep_fd, .events = POLLIN};
    int k = poll(&p, 1, ms);
    if (k > 0) return 1;
    if (k < 0 && errno != EINTR)
      return tk_error_set(err, TK_EIO, -1, "poll on a plugin seat's pipe: %s", strerror(errno));
    if (tk_run_stop_signal) {
      tk_seat_host_kill(h);
      return tk_error_set(err, TK_ESTATE, -1, "interrupted by signal %d",
                          (int)tk_run_stop_signal);
    }
    if (!looked) continue;
    memset(f, 0, sizeof *f);
    if (!tk_watch_judge(w, h->pid, &meter, tk_now_ns(), f) && rss &&
        tk_proc_rss(h->pid) > ((int64_t)sp->memory_limit_mb << 20)) {
      f->kind = TK_FAULT_MEMORY;
      f->limit_mb = sp->memory_limit_mb;
    }
    if (f->kind) {
      f->seat = h->seat;
      f->entry = entry;
      describe_decision(r, w, entry, f->decision, sizeof f->decision);
      tk_seat_host_kill(h);
      return 0;
    }
    int st;
    if (waitpid(h->pid, &st, WNOHANG) == h->pid) { /* dead, its pipe held open by a child */
      f->seat = h->seat;
      f->entry = entry;
      describe_decision(r, w, entry, f->decision, sizeof f->decision);
      death_fault(r, h, st, f);
      kill(-h->pid, SIGKILL);
      close(h->req_fd);
      close(h->rep_fd);
      h->pid = 0;
      return 0;
    }
  }
}

int tk_seat_host_start(tk_seat_host *h, const tk_run *r, int agent, int seat, tk_fault *f,
                       tk_error *err) {
  if (!h->watch) {
    void *m = mmap(NULL, sizeof *h->watch, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    if (m == MAP_FAILED)
      return tk_error_set(err, TK_ENOMEM, -1, "mmap of a plugin seat's watch: %s",
                          strerror(errno));
    h->watch = m;
  }
  tk_watch *w = h->watch;
  memset((void *)w, 0, sizeof *w);
  w->seat = w->last_seat = w->agent = -1;
  w->call_limit_ns = (int64_t)r->spec.time_limit_ms * 1000000;
  w->game_limit_ns = (int64_t)r->spec.game_time_limit_ms * 1000000;
  w->idle_limit_ns = (int64_t)r->spec.idle_limit_ms * 1000000;
  w->wall_clock = r->spec.wall_clock;
  h->agent = agent;
  h->seat = seat;
  int req[2], rep[2];
  if (pipe(req)) return tk_error_set(err, TK_EIO, -1, "pipe: %s", strerror(errno));
  if (pipe(rep)) {
    close(req[0]), close(req[1]);
    return tk_error_set(err, TK_EIO, -1, "pipe: %s", strerror(errno));
  }
  int keep[2] = {req[0], rep[1]}; /* every other descriptor is closed: sockets, files, lock */
  host_start start = {r, agent, seat, w, h->unmap, h->unmap_len};
  pid_t pid;
  int rc = tk_worker_spawn(r, w, keep, 2, host_child, &start, &pid, err);
  if (rc) {
    close(req[0]), close(req[1]), close(rep[0]), close(rep[1]);
    return rc;
  }
  close(req[0]);
  close(rep[1]);
  h->pid = pid;
  h->req_fd = req[1];
  h->rep_fd = rep[0];
  rc = await(r, h, TK_ENTRY_CREATE, f, err);
  if (rc <= 0) return rc;
  int32_t got;
  char detail[DETAIL_LEN];
  if (tk_read_all(h->rep_fd, &got, sizeof got) || tk_read_all(h->rep_fd, detail, sizeof detail)) {
    gone(r, h, TK_ENTRY_CREATE, f);
    return 0;
  }
  if (tk_watch_over(w, seat, TK_ENTRY_CREATE, f)) {
    tk_seat_host_kill(h);
    return 0;
  }
  if (got) {
    memset(f, 0, sizeof *f);
    f->kind = TK_FAULT_ERROR;
    f->entry = TK_ENTRY_CREATE;
    f->seat = seat;
    detail[DETAIL_LEN - 1] = '\0';
    snprintf(f->detail, sizeof f->detail, "returned NULL: %s", detail);
    tk_seat_host_kill(h);
    return 0;
  }
  return 1;
}

void tk_seat_host_unit(tk_seat_host *h, uint64_t unit) {
  if (h->watch) tk_watch_unit(h->watch, unit);
}

int tk_seat_host_call(tk_seat_host *h, const tk_run *r, int entry, const void *a, const void *b,
                      void *action, int *ret, tk_fault *f, tk_error *err) {
  const tk_game *g = r->game;
  int32_t e = entry;
  size_t alen = entry == TK_ENTRY_BEGIN ? g->info_size
                : entry == TK_ENTRY_ACT ? g->view_size
                                        : g->result_size;
  if (entry == TK_ENTRY_ACT) tk_watch_decision(h->watch, a, g->view_size);
  if (write_parts(h->req_fd, &e, sizeof e, a, alen, b, entry == TK_ENTRY_ACT ? g->legal_size : 0)) {
    gone(r, h, entry, f);
    return 0;
  }
  int rc = await(r, h, entry, f, err);
  if (rc <= 0) return rc;
  int32_t got;
  h->last_error[0] = '\0';
  if (tk_read_all(h->rep_fd, &got, sizeof got) ||
      (entry == TK_ENTRY_ACT && tk_read_all(h->rep_fd, action, g->action_size)) ||
      (got < 0 && (entry == TK_ENTRY_ACT || entry == TK_ENTRY_BEGIN) &&
       tk_read_all(h->rep_fd, h->last_error, sizeof h->last_error))) {
    gone(r, h, entry, f);
    return 0;
  }
  h->last_error[sizeof h->last_error - 1] = '\0';
  if (tk_watch_over(h->watch, h->seat, entry, f)) {
    describe_decision(r, h->watch, entry, f->decision, sizeof f->decision);
    tk_seat_host_kill(h);
    return 0;
  }
  *ret = got;
  return 1;
}

void tk_seat_host_stop(tk_seat_host *h, const tk_run *r) {
  if (!h->pid) return;
  int32_t e = TK_ENTRY_DESTROY;
  int sent = !tk_write_all(h->req_fd, &e, sizeof e);
  int grace_ms = r->spec.time_limit_ms ? r->spec.time_limit_ms : 1000;
  end_host(h, sent ? grace_ms : 0);
}
