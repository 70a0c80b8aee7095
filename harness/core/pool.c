/* harness/core/pool.c — the parent side of the worker pool: hands out chunks of units to forked
 * worker processes (harness/core/worker.c, protocol in worker.h), puts their records back in unit
 * order, and survives agents that crash, exit, hang, or run past the memory limit.
 *
 * Each worker shares a tk_watch with the parent (an anonymous shared mapping) saying which
 * agent, seat and entry point is being called, since when, and the decision it was asked. The
 * parent kills (the process group of) a worker whose call passes the per-call or per-game limit
 * or whose resident size passes the memory limit; a worker that dies is buried: the unit it was
 * playing is played again from its start by a new worker with the game's fallback in the
 * faulted seat and the fault recorded there (tk_cmd), the rest of its chunk is handed out
 * again, and the new worker takes its place. Results depend only on the unit, never on which
 * worker played it, so the output is identical for any -j. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"
#include "pool.h"
#include "worker.h"

volatile sig_atomic_t tk_run_stop_signal;

static const int32_t NO_STATUS = -1; /* a worker not yet reaped */

enum { FLUSH_SLICE = 16 }; /* units handed to the sink between two looks at the pipes */

/* ------------------------------------------------------------------ policy and figures */

uint64_t tk_pool_chunk(uint64_t left, int jobs) {
  if (!left) return 0;
  if (jobs < 1) jobs = 1;
  uint64_t n = left / ((uint64_t)jobs * TK_POOL_CHUNK_SHARE);
  if (n < 1) n = 1;
  return n > TK_POOL_CHUNK_MAX ? TK_POOL_CHUNK_MAX : n;
}

int64_t tk_pool_model(const int64_t *t, uint64_t n, int jobs, int64_t parent_ns) {
  if (!n) return 0;
  if (jobs < 1) jobs = 1;
  if ((uint64_t)jobs > n) jobs = (int)n;
  int64_t *free_at = calloc((size_t)jobs, sizeof *free_at);
  if (!free_at) return -1;
  for (uint64_t next = 0; next < n;) {
    int w = 0; /* the worker idle first (the lowest index on a tie) takes the next chunk */
    for (int i = 1; i < jobs; i++)
      if (free_at[i] < free_at[w]) w = i;
    uint64_t end = next + tk_pool_chunk(n - next, jobs);
    for (; next < end; next++) free_at[w] += t[next] + parent_ns;
  }
  int64_t span = (int64_t)n * parent_ns;
  for (int i = 0; i < jobs; i++)
    if (free_at[i] > span) span = free_at[i];
  free(free_at);
  return span;
}

static tk_pool_stats last_stats;
static int64_t *keep_cpu;
static uint64_t keep_cap;

void tk_pool_last_stats(tk_pool_stats *out) { *out = last_stats; }

void tk_pool_keep_unit_cpu(int64_t *cpu_ns, uint64_t cap) {
  keep_cpu = cpu_ns;
  keep_cap = cpu_ns ? cap : 0;
}

static int64_t self_cpu_ns(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru)) return 0;
  return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
         ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

/* ------------------------------------------------------------------ parent side */

typedef struct worker {
  pid_t pid;
  int cmd_fd, res_fd;
  tk_watch *watch;
  int busy;
  uint64_t next, end;  /* units of the current chunk not yet received: [next, end) */
  char *rbuf;          /* partial messages */
  size_t rlen, rcap;
  int killed;          /* the parent killed it; kill_fault says why */
  uint64_t kill_unit;  /* the unit it was playing then */
  tk_fault kill_fault;
  tk_watch_meter meter; /* the parent's look at its call in progress (time limits) */
  int status;          /* its wait status once reaped early, else NO_STATUS */
  /* a replay (a chunk of one unit): the seats played by the fallback and their faults */
  unsigned fallback;
  tk_fault faults[TK_MAX_SEATS];
} worker;

typedef struct replay {
  uint64_t unit;
  unsigned fallback;
  tk_fault faults[TK_MAX_SEATS];
} replay;

typedef struct range {
  uint64_t first, end;
} range;

/* Fed units (tk_pool_feed): positions [pos, pos + n) are units [unit, unit + n). */
typedef struct span {
  uint64_t pos, unit, n;
} span;

/* Inside the pool units are numbered by position: the order in which they reach the sink. For
 * tk_pool_run a position is the unit itself; for tk_pool_feed, the spans map positions to the
 * units fed, and units are translated only where they cross to and from the workers. */
typedef struct pool {
  const tk_run *r;
  uint64_t first, end;   /* positions to play (fed: known so far) */
  span *spans;           /* fed: in feeding order (increasing positions and units), else NULL */
  int nspans, capspans;
  tk_feed_fn feed;       /* fed: the source of units, else NULL */
  void *feed_ctx;
  int fed_all;           /* no more units will come */
  uint64_t next_new;     /* next never-assigned unit */
  range *requeue;        /* ranges handed back by dead workers */
  int nrequeue, caprequeue;
  replay *replays;       /* units to play again with more fallback seats */
  int nreplays, capreplays;
  char **ring;           /* messages waiting for earlier units: slot (u - first) % cap */
  uint64_t ring_cap;
  uint64_t next_write;   /* next unit to hand to the sink */
  tk_sink_fn sink;
  void *sink_ctx;
  tk_error *err;
  worker *ws;            /* all workers */
  int jobs;
  tk_pool_stats stats;   /* becomes tk_pool_last_stats as the run returns */
} pool;

/* The span holding position `pos` (fed pools). */
static const span *span_at(const pool *p, uint64_t pos) {
  int lo = 0, hi = p->nspans - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (p->spans[mid].pos <= pos) lo = mid;
    else hi = mid - 1;
  }
  return &p->spans[lo];
}

/* The unit at position `pos`. */
static uint64_t unit_of(const pool *p, uint64_t pos) {
  if (!p->feed) return pos;
  const span *s = span_at(p, pos);
  return s->unit + (pos - s->pos);
}

/* The position of unit `unit` into *pos; -1 if it is none of the pool's. */
static int pos_of(const pool *p, uint64_t unit, uint64_t *pos) {
  if (!p->feed) {
    *pos = unit;
    return unit >= p->first && unit < p->end ? 0 : -1;
  }
  int lo = 0, hi = p->nspans - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (p->spans[mid].unit <= unit) lo = mid;
    else hi = mid - 1;
  }
  const span *s = &p->spans[lo];
  if (unit < s->unit || unit >= s->unit + s->n) return -1;
  *pos = s->pos + (unit - s->unit);
  return 0;
}

/* The end of the span holding position `pos`: a chunk of units never crosses it. */
static uint64_t span_end(const pool *p, uint64_t pos) {
  if (!p->feed) return p->end;
  const span *s = span_at(p, pos);
  return s->pos + s->n;
}

/* Asks the feed for more units (waiting for them if `wait`). Returns 0 or a negative code. */
static int feed_more(pool *p, int wait) {
  uint64_t unit = 0, n = 0;
  int k = p->feed(p->feed_ctx, wait, &unit, &n);
  if (k < 0) return k;
  if (k == TK_FEED_END) {
    p->fed_all = 1;
    return 0;
  }
  if (k != 1 || !n) return 0;
  if (p->nspans && unit < p->spans[p->nspans - 1].unit + p->spans[p->nspans - 1].n)
    return tk_error_set(p->err, TK_EINVAL, -1, "units %llu.. fed after higher ones",
                        (unsigned long long)unit);
  if (p->nspans == p->capspans) {
    int cap = p->capspans ? 2 * p->capspans : 16;
    span *ns = realloc(p->spans, (size_t)cap * sizeof *ns);
    if (!ns) return tk_error_set(p->err, TK_ENOMEM, -1, "out of memory");
    p->spans = ns;
    p->capspans = cap;
  }
  p->spans[p->nspans++] = (span){p->end, unit, n};
  p->end += n;
  return 0;
}

/* Hands a range back for another worker. Returns 0 or TK_ENOMEM. */
static int push_range(pool *p, uint64_t first, uint64_t end) {
  if (first >= end) return 0;
  if (p->nrequeue == p->caprequeue) {
    int cap = p->caprequeue ? 2 * p->caprequeue : 16;
    range *nr = realloc(p->requeue, (size_t)cap * sizeof *nr);
    if (!nr) return tk_error_set(p->err, TK_ENOMEM, -1, "out of memory");
    p->requeue = nr;
    p->caprequeue = cap;
  }
  p->requeue[p->nrequeue++] = (range){first, end};
  return 0;
}

/* Prepares a watch before its worker is forked. */
static void watch_reset(const tk_run *r, tk_watch *wt) {
  memset((void *)wt, 0, sizeof *wt);
  wt->seat = wt->last_seat = wt->agent = -1;
  wt->call_limit_ns = (int64_t)r->spec.time_limit_ms * 1000000;
  wt->game_limit_ns = (int64_t)r->spec.game_time_limit_ms * 1000000;
  wt->idle_limit_ns = (int64_t)r->spec.idle_limit_ms * 1000000;
  wt->wall_clock = r->spec.wall_clock;
}

typedef struct worker_start {
  const tk_run *r;
  tk_watch *watch;
} worker_start;

/* The worker's child: its command pipe is descriptor 3, its result pipe 4 (tk_worker_spawn). */
static int worker_main(void *arg) {
  const worker_start *s = arg;
  tk_worker_main(s->r, 3, 4, s->watch);
  return 0; /* not reached */
}

static int spawn(pool *p, worker *w) {
  int cmd[2], res[2];
  if (pipe(cmd)) return TK_EIO;
  if (pipe(res)) {
    close(cmd[0]);
    close(cmd[1]);
    return TK_EIO;
  }
  watch_reset(p->r, w->watch); /* a killed worker may have left it inside a call */
  memset(&w->meter, 0, sizeof w->meter);
  int keep[2] = {cmd[0], res[1]}; /* every other descriptor is closed in the worker */
  worker_start start = {p->r, w->watch};
  pid_t pid;
  int rc = tk_worker_spawn(p->r, w->watch, keep, 2, worker_main, &start, &pid, NULL);
  if (rc) {
    close(cmd[0]), close(cmd[1]), close(res[0]), close(res[1]);
    return rc;
  }
  close(cmd[0]);
  close(res[1]);
  w->pid = pid;
  w->status = NO_STATUS;
  w->cmd_fd = cmd[1];
  w->res_fd = res[0];
  w->busy = 0;
  w->rlen = 0;
  w->killed = 0;
  w->fallback = 0;
  return 0;
}

/* The decision recorded in a watch (the game's view at an act call), described by the game. */
static void watch_decision(const tk_run *r, const tk_watch *wt, int entry, char *buf, size_t cap) {
  buf[0] = '\0';
  if (entry == TK_ENTRY_ACT && wt->snap_len == (int32_t)r->game->view_size)
    r->game->describe((const void *)wt->snap, buf, cap);
}

/* Stores the message of unit u (a tk_msg_head and its payload, `len` bytes) in the reorder
 * ring until flush() hands it to the sink. */
static int deliver(pool *p, uint64_t u, const char *msg, size_t len) {
  uint64_t slot = (u - p->first) % p->ring_cap;
  if (p->ring[slot]) return 0; /* already have it */
  p->ring[slot] = malloc(len);
  if (!p->ring[slot]) return tk_error_set(p->err, TK_ENOMEM, -1, "out of memory");
  memcpy(p->ring[slot], msg, len);
  return 0;
}

/* Hands up to `max` contiguous finished units in the ring to the sink; *more says whether the
 * next one is there too. The pool calls it after giving idle workers their next chunk, and a
 * slice at a time (FLUSH_SLICE units, then the pipes again), so that writing a burst of lines
 * (the units that waited for an earlier one) never keeps a finished worker waiting long. */
static int flush(pool *p, int max, int *more) {
  *more = 0;
  for (int done = 0;; done++) {
    uint64_t s = (p->next_write - p->first) % p->ring_cap;
    if (p->next_write >= p->end || !p->ring[s]) break;
    if (done == max) {
      *more = 1;
      break;
    }
    tk_msg_head h;
    memcpy(&h, p->ring[s], sizeof h);
    tk_unit_rec rec;
    memcpy(&rec, p->ring[s] + sizeof h, h.rec_len);
    if (keep_cpu && p->stats.units < keep_cap) keep_cpu[p->stats.units] = h.cpu_ns;
    p->stats.units++;
    p->stats.unit_cpu_ns += h.cpu_ns;
    if (h.cpu_ns > p->stats.unit_cpu_max_ns) p->stats.unit_cpu_max_ns = h.cpu_ns;
    int rc = p->sink(p->sink_ctx, &rec, p->ring[s] + sizeof h + h.rec_len, h.records_len);
    free(p->ring[s]);
    p->ring[s] = NULL;
    p->next_write++;
    if (rc) return rc;
  }
  return 0;
}

static int send_cmd(worker *w, const tk_cmd *c) { return tk_write_all(w->cmd_fd, c, sizeof *c); }

static int assign(pool *p, worker *w, int jobs) {
  tk_cmd c;
  memset(&c, 0, sizeof c);
  if (p->nreplays) { /* first: the reorder ring waits for them */
    replay *x = &p->replays[--p->nreplays];
    c.first = unit_of(p, x->unit);
    c.count = 1;
    c.fallback = x->fallback;
    memcpy(c.faults, x->faults, sizeof c.faults);
    if (send_cmd(w, &c)) {
      p->nreplays++; /* the worker died before taking it: the EOF path respawns it */
      return 0;
    }
    p->stats.commands++;
    w->busy = 1;
    w->next = x->unit;
    w->end = x->unit + 1;
    w->fallback = x->fallback;
    memcpy(w->faults, x->faults, sizeof w->faults);
    return 0;
  }
  range g = {0, 0};
  if (p->nrequeue) {
    g = p->requeue[--p->nrequeue];
  } else if (p->next_new < p->end) {
    uint64_t n = tk_pool_chunk(p->end - p->next_new, jobs);
    /* never run ahead of the reorder ring */
    uint64_t limit = p->next_write + p->ring_cap;
    if (p->next_new + n > limit) n = limit > p->next_new ? limit - p->next_new : 0;
    if (p->next_new + n > span_end(p, p->next_new)) n = span_end(p, p->next_new) - p->next_new;
    if (!n) return 0;
    g.first = p->next_new;
    g.end = p->next_new + n;
    p->next_new = g.end;
  } else {
    return 0;
  }
  c.first = unit_of(p, g.first);
  c.count = g.end - g.first;
  if (send_cmd(w, &c)) /* the worker died before taking it: the EOF path respawns it */
    return push_range(p, g.first, g.end);
  p->stats.commands++;
  w->busy = 1;
  w->next = g.first;
  w->end = g.end;
  w->fallback = 0;
  return 0;
}

/* Parses complete messages in w->rbuf. */
static int drain(pool *p, worker *w) {
  size_t off = 0;
  size_t rec_max = tk_unit_rec_size(p->r->game->nseats);
  while (w->rlen - off >= sizeof(tk_msg_head)) {
    tk_msg_head h;
    memcpy(&h, w->rbuf + off, sizeof h);
    size_t len = sizeof h + (size_t)h.rec_len + h.records_len + h.text_len;
    uint64_t pos = 0;
    if (h.rec_len > rec_max || h.text_len > TK_ERROR_MSG_MAX || pos_of(p, h.unit, &pos))
      return tk_error_set(p->err, TK_EPARSE, -1, "a worker sent a malformed message");
    if (w->rlen - off < len) break;
    if (h.status) {
      const char *text = w->rbuf + off + sizeof h;
      return tk_error_set(p->err, h.status, -1, "unit %llu failed in the referee: %.*s",
                          (unsigned long long)h.unit, (int)h.text_len, text);
    }
    if (h.rec_len != rec_max)
      return tk_error_set(p->err, TK_EPARSE, -1, "a worker sent a malformed message");
    int rc = deliver(p, pos, w->rbuf + off, len);
    if (rc) return rc;
    off += len;
    if (w->busy && pos == w->next) w->next++;
    if (w->busy && w->next >= w->end) w->busy = 0;
  }
  memmove(w->rbuf, w->rbuf + off, w->rlen - off);
  w->rlen -= off;
  return 0;
}

/* Kills a busy worker whose current call passes a time limit or whose resident size passes
 * the memory limit, remembering the fault for bury(). */
static void check_limits(pool *p, worker *w, int64_t now) {
  if (!w->busy || w->killed) return;
  const tk_spec *sp = &p->r->spec;
  tk_watch *wt = w->watch;
  uint64_t unit = wt->unit;
  tk_fault f;
  if (!tk_watch_judge(wt, w->pid, &w->meter, now, &f)) {
    int seat = wt->last_seat;
    if (seat < 0 || sp->memory_limit_mb <= 0 ||
        tk_proc_rss(w->pid) <= ((int64_t)sp->memory_limit_mb << 20))
      return;
    memset(&f, 0, sizeof f);
    f.kind = TK_FAULT_MEMORY;
    f.limit_mb = sp->memory_limit_mb;
    f.seat = seat;
    f.entry = wt->entry;
  }
  watch_decision(p->r, wt, f.entry, f.decision, sizeof f.decision);
  /* a plain SIGKILL of the group, not tk_proc_end: the call is over its limit now, so no grace
   * and no wait here; bury() reaps it once its pipe ends */
  kill(-w->pid, SIGKILL);
  kill(w->pid, SIGKILL);
  w->killed = 1;
  w->kill_unit = unit;
  w->kill_fault = f;
}

/* The result pipe of a busy worker ended. A worker that crashed or exited closes its pipe as it
 * dies, so it is given a moment (200 ms) to be seen dead; one still alive after that had its
 * pipe closed by an agent: the call in progress (or the last one) is charged, and the worker
 * killed. */
static void pipe_closed(pool *p, worker *w) {
  if (!w->busy || w->killed || w->status != NO_STATUS) return;
  for (int i = 0; i < 200; i++) {
    int st;
    pid_t got = waitpid(w->pid, &st, WNOHANG);
    if (got == w->pid) {
      w->status = st;
      return;
    }
    if (got < 0 && errno != EINTR) return;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  tk_watch *wt = w->watch;
  tk_fault f;
  memset(&f, 0, sizeof f);
  f.kind = TK_FAULT_ERROR;
  f.seat = wt->last_seat >= 0 ? wt->last_seat : 0;
  f.entry = wt->entry;
  snprintf(f.detail, sizeof f.detail, "closed the referee's result pipe");
  watch_decision(p->r, wt, f.entry, f.decision, sizeof f.decision);
  w->killed = 1;
  w->kill_unit = wt->unit;
  w->kill_fault = f;
  kill(-w->pid, SIGKILL); /* at once, as in check_limits: bury() reaps it */
  kill(w->pid, SIGKILL);
}

/* The fault of a worker that died on its own, from its exit status and its watch. Returns 0,
 * or 1 if it failed outside any agent call for a reason of its own (a referee failure). */
static int death_fault(pool *p, worker *w, int status, tk_fault *f) {
  const tk_spec *sp = &p->r->spec;
  tk_watch *wt = w->watch;
  int in_call = (wt->seq & 1) != 0;
  memset(f, 0, sizeof *f);
  f->seat = wt->last_seat >= 0 ? wt->last_seat : 0;
  f->entry = wt->entry;
  watch_decision(p->r, wt, f->entry, f->decision, sizeof f->decision);
  int code = tk_worker_death(sp, wt, status, f);
  if (f->kind != TK_FAULT_EXIT || in_call) return 0;
  if (code == TK_WORKER_EXIT_NOMEM) return 1;
  if (code == TK_WORKER_EXIT_PIPE) { /* the referee lives: an agent closed it */
    f->kind = TK_FAULT_ERROR;
    f->exit_status = 0;
    snprintf(f->detail, sizeof f->detail, "closed the referee's result pipe");
  }
  return 0;
}

/* Queues unit u to be played with the fallback in the seats of `fallback` (the faults of those
 * seats copied from `faults`, if any). Returns the entry, or NULL when out of memory. */
static replay *push_replay(pool *p, uint64_t u, unsigned fallback, const tk_fault *faults) {
  if (p->nreplays == p->capreplays) {
    int cap = p->capreplays ? 2 * p->capreplays : 8;
    replay *nr = realloc(p->replays, (size_t)cap * sizeof *nr);
    if (!nr) return NULL;
    p->replays = nr;
    p->capreplays = cap;
  }
  replay *x = &p->replays[p->nreplays++];
  memset(x, 0, sizeof *x);
  x->unit = u;
  x->fallback = fallback;
  if (fallback) memcpy(x->faults, faults, sizeof x->faults);
  return x;
}

/* Reaps worker w (unless reaped already) and kills what is left of its process group. */
static int reap(worker *w) {
  int status = w->status;
  if (status == NO_STATUS) { /* its pipe ended: it is dead or dying */
    tk_proc_ending end = {.pid = w->pid, .stdin_fd = -1};
    tk_proc_end(&end, 1, -1, 0);
    status = end.status;
  } else {
    kill(-w->pid, SIGKILL); /* processes an agent forked */
  }
  w->status = NO_STATUS;
  return status;
}

/* A worker's result pipe closed: record the fault of the unit it was playing (to be played
 * again with the fallback in the faulted seat), hand the rest of its chunk back, and start a
 * new worker. */
static int bury(pool *p, worker *w) {
  close(w->cmd_fd);
  close(w->res_fd);
  int status = reap(w);
  if (!w->busy) {
    if (WIFEXITED(status) && WEXITSTATUS(status) == TK_WORKER_EXIT_NOMEM)
      return tk_error_set(p->err, TK_EFAULT, -1, "a worker process ran out of memory outside "
                          "any agent call (exit status %d)", WEXITSTATUS(status));
    return spawn(p, w);
  }
  /* the unit it was playing: lines of earlier units of the chunk may still have been in its
   * buffer, unsent; those are played again */
  uint64_t u;
  if (pos_of(p, w->killed ? w->kill_unit : w->watch->unit, &u)) u = UINT64_MAX;
  tk_fault f;
  int rc;
  if (u < w->next || u >= w->end) {
    if (w->killed) { /* its record arrived before the kill landed: not at fault */
      if (w->fallback && w->next < w->end) { /* a replay: handed back as one */
        if (!push_replay(p, w->next, w->fallback, w->faults))
          return tk_error_set(p->err, TK_ENOMEM, -1, "out of memory");
      } else if ((rc = push_range(p, w->next, w->end))) {
        return rc;
      }
      w->busy = 0;
      return spawn(p, w);
    }
    u = w->next; /* died between units */
  }
  if (w->killed) {
    f = w->kill_fault;
  } else if (death_fault(p, w, status, &f)) {
    return tk_error_set(p->err, TK_EFAULT, -1, "a worker process failed outside any agent call "
                        "(exit status %d)", WEXITSTATUS(status));
  }
  if ((rc = push_range(p, w->next, u))) return rc;
  if (f.seat < 0 || f.seat >= p->r->game->nseats) f.seat = 0;
  unsigned earlier = w->fallback && u == w->next ? w->fallback : 0;
  if (earlier >> f.seat & 1)
    return tk_error_set(p->err, TK_EFAULT, -1, "unit %llu: the worker died in seat %d, played "
                        "by the fallback", (unsigned long long)unit_of(p, u), f.seat);
  /* play the unit again from its start with the fallback agent in the faulter's seat */
  replay *x = push_replay(p, u, earlier, w->faults);
  if (!x) return tk_error_set(p->err, TK_ENOMEM, -1, "out of memory");
  x->fallback |= 1u << f.seat;
  x->faults[f.seat] = f;
  if ((rc = push_range(p, u + 1, w->end))) return rc;
  w->busy = 0;
  w->fallback = 0;
  return spawn(p, w);
}

/* Asks every worker to finish (or kills them all after a failure), waits for them, and warns
 * about agents that crashed or hung in destroy: results are complete by then, so these are
 * warnings, not faults. */
static void shutdown_workers(pool *p, int spawned, int failed) {
  const tk_run *r = p->r;
  tk_cmd stop;
  memset(&stop, 0, sizeof stop);
  for (int i = 0; i < spawned; i++) {
    if (failed) kill(-p->ws[i].pid, SIGKILL), kill(p->ws[i].pid, SIGKILL);
    else send_cmd(&p->ws[i], &stop);
    close(p->ws[i].cmd_fd);
    close(p->ws[i].res_fd);
  }
  int64_t limit = r->spec.time_limit_ms ? (int64_t)r->spec.time_limit_ms * 1000000 : 60000000000LL;
  int64_t deadline = tk_now_ns() + limit;
  for (int i = 0; i < spawned; i++) {
    worker *w = &p->ws[i];
    /* within what is left of the limit (none after a failure), then killed with its group */
    int64_t left = failed ? 0 : deadline - tk_now_ns();
    tk_proc_ending end = {.pid = w->pid, .stdin_fd = -1};
    tk_proc_end(&end, 1, left > 0 ? (int)(left / 1000000) : 0, 0);
    int status = end.status, hung = end.signalled;
    if (failed) continue;
    tk_watch *wt = w->watch;
    int agent = wt->agent;
    if (wt->entry != TK_ENTRY_DESTROY || agent < 0 || agent >= r->spec.nagents) continue;
    const char *label = r->spec.agents[agent].label;
    if (hung)
      fprintf(stderr, "taikai run: warning: agent '%s': destroy did not return within %lld ms; "
              "its worker was killed (results are not affected)\n", label,
              (long long)(limit / 1000000));
    else if (WIFSIGNALED(status))
      fprintf(stderr, "taikai run: warning: agent '%s': crash in destroy: killed by signal %d "
              "(%s) as its worker retired (results are not affected)\n", label,
              WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
      fprintf(stderr, "taikai run: warning: agent '%s': exit status %d in destroy as its worker "
              "retired (results are not affected)\n", label, WEXITSTATUS(status));
  }
}

/* tk_pool_run (feed NULL: units [first, first + count)) and tk_pool_feed (first 0, count 0). */
static int pool_run(const tk_run *r, uint64_t first, uint64_t count, tk_feed_fn feed,
                    void *feed_ctx, int jobs, tk_sink_fn sink, void *sink_ctx,
                    tk_progress_fn progress, void *progress_ctx, tk_error *err) {
  if (count == 0 && !feed) return 0;
  if (tk_run_has_external(r)) /* no plugin to call: only `taikai serve` plays these seats */
    return tk_error_set(err, TK_EINVAL, -1, "the spec has external agents: only `taikai serve` "
                        "plays them");
  if (jobs < 1) jobs = 1;
  if (!feed && (uint64_t)jobs > count) jobs = (int)count;
  pool p;
  memset(&p, 0, sizeof p);
  p.r = r;
  p.feed = feed;
  p.feed_ctx = feed_ctx;
  p.fed_all = !feed;
  p.first = first;
  p.end = first + count;
  p.next_new = first;
  p.next_write = first;
  p.sink = sink;
  p.sink_ctx = sink_ctx;
  p.err = err;
  p.ring_cap = (uint64_t)jobs * TK_POOL_CHUNK_MAX * 8;
  p.stats.jobs = jobs;
  int64_t wall0 = tk_now_ns(), cpu0 = self_cpu_ns();
  p.ring = calloc(p.ring_cap, sizeof *p.ring);
  worker *ws = calloc((size_t)jobs, sizeof *ws);
  p.ws = ws;
  p.jobs = jobs;
  tk_watch *watches = mmap(NULL, sizeof(tk_watch) * (size_t)jobs, PROT_READ | PROT_WRITE,
                           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  int rc = 0;
  if (!p.ring || !ws || watches == MAP_FAILED) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    goto done;
  }
  tk_worker_set_shared(watches, sizeof(tk_watch) * (size_t)jobs);
  void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
  int spawned = 0;
  for (int i = 0; i < jobs; i++) {
    ws[i].watch = &watches[i];
    ws[i].rcap = 1 << 16;
    ws[i].rbuf = malloc(ws[i].rcap);
    if (!ws[i].rbuf || (rc = spawn(&p, &ws[i]))) {
      rc = tk_error_set(err, rc ? rc : TK_ENOMEM, -1, "cannot start worker processes");
      break;
    }
    spawned++;
  }
  struct pollfd *pfd = calloc((size_t)jobs, sizeof *pfd);
  if (!rc && !pfd) rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  /* how often limits are checked: a tenth of the smallest time limit, within 5..100 ms */
  int tick = 100;
  int lims[3] = {r->spec.time_limit_ms, r->spec.game_time_limit_ms, r->spec.idle_limit_ms};
  for (int i = 0; i < 3; i++)
    if (lims[i] > 0 && lims[i] / 10 < tick) tick = lims[i] / 10 < 5 ? 5 : lims[i] / 10;
  if (r->spec.memory_limit_mb > 0 && tick > 20) tick = 20;
  uint64_t reported = (uint64_t)-1;
  int more = 0; /* finished units wait for the sink: look at the pipes without waiting */
  while (!rc && (p.next_write < p.end || !p.fed_all)) {
    if (tk_run_stop_signal) {
      rc = tk_error_set(err, TK_ESTATE, -1, "interrupted by signal %d",
                        (int)tk_run_stop_signal);
      break;
    }
    if (!p.fed_all && p.next_new == p.end && !p.nreplays && !p.nrequeue) {
      int idle = 1; /* nothing to wait for but the feed: wait for it */
      for (int i = 0; i < jobs; i++) idle &= !ws[i].busy;
      if ((rc = feed_more(&p, idle && p.next_write == p.end))) break;
      if (p.fed_all && p.next_write == p.end) break;
    }
    for (int i = 0; i < jobs && !rc; i++)
      if (!ws[i].busy) rc = assign(&p, &ws[i], jobs);
    if (rc) break;
    for (int i = 0; i < jobs; i++) {
      pfd[i].fd = ws[i].res_fd;
      pfd[i].events = POLLIN;
      pfd[i].revents = 0;
    }
    int nready = poll(pfd, (nfds_t)jobs, more ? 0 : tick);
    if (nready < 0 && errno != EINTR) {
      rc = tk_error_set(err, TK_EIO, -1, "poll: %s", strerror(errno));
      break;
    }
    for (int i = 0; i < jobs && !rc; i++) {
      worker *w = &ws[i];
      if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        if (w->rcap - w->rlen < 1 << 14) {
          char *nb = realloc(w->rbuf, w->rcap * 2);
          if (!nb) {
            rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
            break;
          }
          w->rbuf = nb;
          w->rcap *= 2;
        }
        ssize_t got = read(w->res_fd, w->rbuf + w->rlen, w->rcap - w->rlen);
        if (got > 0) {
          w->rlen += (size_t)got;
          rc = drain(&p, w);
          if (!rc && !w->busy) rc = assign(&p, w, jobs); /* before the sink's work below */
        } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
          rc = drain(&p, w);
          if (!rc) pipe_closed(&p, w);
          if (!rc) rc = bury(&p, w);
        }
      }
      if (!rc) check_limits(&p, w, tk_now_ns());
      /* a worker that died while a process it forked holds its pipe open: reap it now, and
       * kill the group, so the pipe ends and the death is attributed as it happened */
      int st;
      if (!rc && w->status == NO_STATUS && waitpid(w->pid, &st, WNOHANG) == w->pid) {
        w->status = st;
        kill(-w->pid, SIGKILL);
      }
    }
    if (!rc) rc = flush(&p, FLUSH_SLICE, &more);
    if (progress && p.next_write - first != reported) {
      reported = p.next_write - first;
      progress(progress_ctx, reported, count);
    }
  }
  free(pfd);
  shutdown_workers(&p, spawned, rc != 0);
  signal(SIGPIPE, old_pipe);
  p.stats.wall_ns = tk_now_ns() - wall0;
  p.stats.parent_cpu_ns = self_cpu_ns() - cpu0;
done:
  last_stats = p.stats;
  if (ws)
    for (int i = 0; i < jobs; i++) free(ws[i].rbuf);
  free(ws);
  if (p.ring)
    for (uint64_t i = 0; i < p.ring_cap; i++) free(p.ring[i]);
  free(p.ring);
  free(p.requeue);
  free(p.replays);
  free(p.spans);
  if (watches != MAP_FAILED) munmap(watches, sizeof(tk_watch) * (size_t)jobs);
  return rc;
}

int tk_pool_run(const tk_run *r, uint64_t first, uint64_t count, int jobs, tk_sink_fn sink,
                void *sink_ctx, tk_progress_fn progress, void *progress_ctx, tk_error *err) {
  return pool_run(r, first, count, NULL, NULL, jobs, sink, sink_ctx, progress, progress_ctx, err);
}

int tk_pool_feed(const tk_run *r, tk_feed_fn feed, void *feed_ctx, int jobs, tk_sink_fn sink,
                 void *sink_ctx, tk_error *err) {
  return pool_run(r, 0, 0, feed, feed_ctx, jobs, sink, sink_ctx, NULL, NULL, err);
}
