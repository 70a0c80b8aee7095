/* harness/pool.c — forked worker processes playing units, and the parent that hands out chunks
 * of units, puts results back in unit order, and survives agents that crash or hang.
 *
 * Protocol: parent -> worker, on its command pipe: {uint64 first, uint64 count} (count 0: exit).
 * Worker -> parent, on its result pipe, per unit: {uint64 unit, int32 status, uint32 len} and
 * `len` bytes of JSON line. Each worker shares a tk_watch with the parent (an anonymous shared
 * mapping), saying which seat is being asked to act and since when. Results depend only on the
 * unit, never on which worker played it, so the output is identical for any number of jobs. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

typedef struct msg_head {
  uint64_t unit;
  int32_t status;
  uint32_t len;
} msg_head;

enum { CHUNK_MAX = 64, WBUF = 1 << 16 };

/* ------------------------------------------------------------------ worker side */

static int write_all(int fd, const void *p, size_t n) {
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

static int read_all(int fd, void *p, size_t n) {
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

static void worker_main(const tk_run *r, int cmd_fd, int res_fd, tk_watch *watch) {
  int n = r->spec.nagents;
  tk_seat_agent *agents = calloc((size_t)n, sizeof *agents);
  char *wbuf = malloc(WBUF);
  char line[TK_LINE_MAX];
  if (!agents || !wbuf) _exit(3);
  for (int i = 0; i < n; i++) {
    tk_error e;
    tk_error_clear(&e);
    agents[i].desc = r->plugins[i].desc;
    agents[i].index = i;
    agents[i].label = r->spec.agents[i].label;
    tk_watch_enter(watch, -1);
    agents[i].inst = agents[i].desc->create(r->params_text[i],
                                            tk_game_seed(r->spec.seed, UINT64_MAX, -1, i), &e);
    tk_watch_leave(watch);
    if (!agents[i].inst) {
      msg_head h = {0, TK_EINVAL, 0};
      write_all(res_fd, &h, sizeof h);
      _exit(4);
    }
  }
  tk_play_ctx ctx = {r->spec.seed, r->rules, watch};
  for (;;) {
    uint64_t cmd[2];
    if (read_all(cmd_fd, cmd, sizeof cmd) || cmd[1] == 0) break;
    size_t used = 0;
    int64_t flushed = tk_now_ns();
    for (uint64_t u = cmd[0]; u < cmd[0] + cmd[1]; u++) {
      uint64_t wall;
      const int *seating = tk_schedule_unit(&r->sched, u, &wall);
      watch->unit = u;
      int rc = r->game->play(&ctx, u, wall, seating, agents, line, sizeof line);
      msg_head h = {u, rc, rc ? 0 : (uint32_t)strlen(line)};
      if (used + sizeof h + h.len > WBUF) {
        if (write_all(res_fd, wbuf, used)) _exit(5);
        used = 0;
      }
      memcpy(wbuf + used, &h, sizeof h);
      memcpy(wbuf + used + sizeof h, line, h.len);
      used += sizeof h + h.len;
      /* slow agents: pass results on at least every 100 ms, for progress and crash safety */
      if (tk_now_ns() - flushed > 100000000) {
        if (write_all(res_fd, wbuf, used)) _exit(5);
        used = 0;
        flushed = tk_now_ns();
      }
    }
    if (used && write_all(res_fd, wbuf, used)) _exit(5);
  }
  for (int i = 0; i < n; i++) agents[i].desc->destroy(agents[i].inst);
  free(agents);
  free(wbuf);
  _exit(0);
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
  char kill_reason[160]; /* set when the parent killed it (timeout) */
} worker;

typedef struct range {
  uint64_t first, end;
} range;

typedef struct pool {
  const tk_run *r;
  uint64_t first, end;   /* units to play */
  uint64_t next_new;     /* next never-assigned unit */
  range *requeue;        /* ranges handed back by dead workers */
  int nrequeue, caprequeue;
  char **ring;           /* results waiting for earlier units: slot (u - first) % cap */
  uint32_t *ring_len;
  uint64_t ring_cap;
  uint64_t next_write;   /* next unit to hand to the sink */
  tk_sink_fn sink;
  void *sink_ctx;
  tk_error *err;
  worker *ws;            /* all workers, so a new one can close its siblings' pipes */
  int jobs;
} pool;

static int spawn(pool *p, worker *w) {
  int cmd[2], res[2];
  if (pipe(cmd)) return TK_EIO;
  if (pipe(res)) {
    close(cmd[0]);
    close(cmd[1]);
    return TK_EIO;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(cmd[0]), close(cmd[1]), close(res[0]), close(res[1]);
    return TK_EIO;
  }
  if (pid == 0) {
    close(cmd[1]);
    close(res[0]);
    for (int j = 0; j < p->jobs; j++)
      if (&p->ws[j] != w && p->ws[j].pid > 0) {
        close(p->ws[j].cmd_fd);
        close(p->ws[j].res_fd);
      }
    signal(SIGPIPE, SIG_DFL);
    worker_main(p->r, cmd[0], res[1], w->watch);
  }
  close(cmd[0]);
  close(res[1]);
  w->pid = pid;
  w->cmd_fd = cmd[1];
  w->res_fd = res[0];
  w->busy = 0;
  w->rlen = 0;
  w->kill_reason[0] = '\0';
  tk_watch_leave(w->watch);
  return 0;
}

/* Stores a result line for unit u; hands every contiguous finished line to the sink. */
static int deliver(pool *p, uint64_t u, const char *line, size_t len) {
  uint64_t slot = (u - p->first) % p->ring_cap;
  if (p->ring[slot]) return 0; /* already have it */
  p->ring[slot] = malloc(len + 1);
  if (!p->ring[slot]) return TK_ENOMEM;
  memcpy(p->ring[slot], line, len);
  p->ring[slot][len] = '\0';
  p->ring_len[slot] = (uint32_t)len;
  for (;;) {
    uint64_t s = (p->next_write - p->first) % p->ring_cap;
    if (p->next_write >= p->end || !p->ring[s]) break;
    int rc = p->sink(p->sink_ctx, p->next_write, p->ring[s], p->ring_len[s]);
    free(p->ring[s]);
    p->ring[s] = NULL;
    p->next_write++;
    if (rc) return rc;
  }
  return 0;
}

static int assign(pool *p, worker *w, int jobs) {
  range g = {0, 0};
  if (p->nrequeue) {
    g = p->requeue[--p->nrequeue];
  } else if (p->next_new < p->end) {
    uint64_t left = p->end - p->next_new;
    uint64_t n = left / (uint64_t)(jobs * 4);
    if (n < 1) n = 1;
    if (n > CHUNK_MAX) n = CHUNK_MAX;
    /* never run ahead of the reorder ring */
    uint64_t limit = p->next_write + p->ring_cap;
    if (p->next_new + n > limit) n = limit > p->next_new ? limit - p->next_new : 0;
    if (!n) return 0;
    g.first = p->next_new;
    g.end = p->next_new + n;
    p->next_new = g.end;
  } else {
    return 0;
  }
  uint64_t cmd[2] = {g.first, g.end - g.first};
  if (write_all(w->cmd_fd, cmd, sizeof cmd)) {
    /* the worker died before taking it: hand the range back, the EOF path respawns it */
    p->requeue[p->nrequeue++] = g;
    return 0;
  }
  w->busy = 1;
  w->next = g.first;
  w->end = g.end;
  return 0;
}

/* Parses complete messages in w->rbuf. */
static int drain(pool *p, worker *w) {
  size_t off = 0;
  while (w->rlen - off >= sizeof(msg_head)) {
    msg_head h;
    memcpy(&h, w->rbuf + off, sizeof h);
    if (w->rlen - off < sizeof h + h.len) break;
    if (h.status) {
      tk_error_set(p->err, h.status, -1, "worker: unit %llu failed: %s",
                   (unsigned long long)h.unit, tk_strerror(h.status));
      return h.status;
    }
    int rc = deliver(p, h.unit, w->rbuf + off + sizeof h, h.len);
    if (rc) return rc;
    off += sizeof h + h.len;
    if (w->busy && h.unit == w->next) w->next++;
    if (w->busy && w->next >= w->end) w->busy = 0;
  }
  memmove(w->rbuf, w->rbuf + off, w->rlen - off);
  w->rlen -= off;
  return 0;
}

/* A worker's result pipe closed: record the fault of the unit it was playing, hand the rest
 * of its chunk back, and start a new worker. */
static int bury(pool *p, worker *w) {
  int status = 0;
  close(w->cmd_fd);
  close(w->res_fd);
  waitpid(w->pid, &status, 0);
  char reason[200];
  if (w->kill_reason[0])
    snprintf(reason, sizeof reason, "%s", w->kill_reason);
  else if (WIFSIGNALED(status))
    snprintf(reason, sizeof reason, "crash: killed by signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  else
    snprintf(reason, sizeof reason, "crash: worker exited with status %d",
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  if (w->busy) {
    if (w->watch->seat == -1 && w->watch->since_ns != 0) {
      /* died inside create: not attributable to a game */
      return tk_error_set(p->err, TK_EFAULT, -1, "worker failed while creating agents: %s", reason);
    }
    uint64_t u = w->next, wall;
    const int *seating = tk_schedule_unit(&p->r->sched, u, &wall);
    int seat = w->watch->seat >= 0 ? w->watch->seat : 0;
    char line[TK_LINE_MAX];
    int n = p->r->spec.nagents;
    tk_seat_agent agents[TK_SPEC_MAX_AGENTS];
    for (int i = 0; i < n; i++) {
      agents[i].desc = p->r->plugins[i].desc;
      agents[i].inst = NULL;
      agents[i].index = i;
      agents[i].label = p->r->spec.agents[i].label;
    }
    int rc = p->r->game->fault_line(u, wall, seating, agents, seat, reason, line, sizeof line);
    if (rc) return tk_error_set(p->err, rc, -1, "cannot record fault of unit %llu",
                                (unsigned long long)u);
    if ((rc = deliver(p, u, line, strlen(line)))) return rc;
    if (u + 1 < w->end) p->requeue[p->nrequeue++] = (range){u + 1, w->end};
    w->busy = 0;
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (p->next_write < p->end && w->rlen == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 4)
      return tk_error_set(p->err, TK_EFAULT, -1, "a worker could not create its agents");
  }
  return spawn(p, w);
}

int tk_pool_run(const tk_run *r, uint64_t first, uint64_t count, int jobs, tk_sink_fn sink,
                void *sink_ctx, tk_progress_fn progress, void *progress_ctx, tk_error *err) {
  if (count == 0) return 0;
  if (jobs < 1) jobs = 1;
  if ((uint64_t)jobs > count) jobs = (int)count;
  pool p;
  memset(&p, 0, sizeof p);
  p.r = r;
  p.first = first;
  p.end = first + count;
  p.next_new = first;
  p.next_write = first;
  p.sink = sink;
  p.sink_ctx = sink_ctx;
  p.err = err;
  p.ring_cap = (uint64_t)jobs * CHUNK_MAX * 8;
  p.ring = calloc(p.ring_cap, sizeof *p.ring);
  p.ring_len = calloc(p.ring_cap, sizeof *p.ring_len);
  p.caprequeue = jobs * 2 + 4;
  p.requeue = calloc((size_t)p.caprequeue, sizeof *p.requeue);
  worker *ws = calloc((size_t)jobs, sizeof *ws);
  p.ws = ws;
  p.jobs = jobs;
  tk_watch *watches = mmap(NULL, sizeof(tk_watch) * (size_t)jobs, PROT_READ | PROT_WRITE,
                           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  int rc = 0;
  if (!p.ring || !p.ring_len || !p.requeue || !ws || watches == MAP_FAILED) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    goto done;
  }
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
  int64_t limit_ns = (int64_t)r->spec.time_limit_ms * 1000000;
  uint64_t reported = (uint64_t)-1;
  while (!rc && p.next_write < p.end) {
    for (int i = 0; i < jobs && !rc; i++)
      if (!ws[i].busy) rc = assign(&p, &ws[i], jobs);
    if (rc) break;
    for (int i = 0; i < jobs; i++) {
      pfd[i].fd = ws[i].res_fd;
      pfd[i].events = POLLIN;
      pfd[i].revents = 0;
    }
    int nready = poll(pfd, (nfds_t)jobs, 100);
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
        } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
          rc = drain(&p, w);
          if (!rc) rc = bury(&p, w);
        }
      }
      int64_t since = w->watch->since_ns;
      if (!rc && w->busy && since && tk_now_ns() - since > limit_ns && !w->kill_reason[0]) {
        snprintf(w->kill_reason, sizeof w->kill_reason,
                 "timeout: no decision within %d ms", r->spec.time_limit_ms);
        kill(w->pid, SIGKILL);
      }
    }
    if (progress && p.next_write - first != reported) {
      reported = p.next_write - first;
      progress(progress_ctx, reported, count);
    }
  }
  free(pfd);
  for (int i = 0; i < spawned; i++) {
    uint64_t cmd[2] = {0, 0};
    if (rc) kill(ws[i].pid, SIGKILL);
    else write_all(ws[i].cmd_fd, cmd, sizeof cmd);
    close(ws[i].cmd_fd);
    close(ws[i].res_fd);
    waitpid(ws[i].pid, NULL, 0);
  }
  signal(SIGPIPE, old_pipe);
done:
  if (ws)
    for (int i = 0; i < jobs; i++) free(ws[i].rbuf);
  free(ws);
  if (p.ring)
    for (uint64_t i = 0; i < p.ring_cap; i++) free(p.ring[i]);
  free(p.ring);
  free(p.ring_len);
  free(p.requeue);
  if (watches != MAP_FAILED) munmap(watches, sizeof(tk_watch) * (size_t)jobs);
  return rc;
}
