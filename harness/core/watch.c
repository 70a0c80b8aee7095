/* harness/core/watch.c — the shared record of the agent call in progress (see watch.h). */
#include <string.h>
#include <time.h>

#include "cpuclock.h"
#include "watch.h"

int64_t tk_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* An exact reading of the clocks into *c and the watch's reference. The reference is only ever
 * the start of an interval, so its wall time is the reading's wall_hi (cpuclock.h). */
static void sample(tk_watch *w, tk_tree_clock *c) {
  memset(c, 0, sizeof *c);
  tk_cpu_tree_read(0, c);
  w->cpu_ref_ns = c->cpu_ns;
  w->wait_ref_ns = c->wait_ns;
  w->shape_ref = c->shape;
  w->wall_ref_ns = c->wall_hi;
}

/* The reading a call is charged from, as the worker recorded it in the watch. */
static tk_tree_clock since_clock(int64_t cpu, int64_t wait, uint64_t shape, int64_t wall) {
  return (tk_tree_clock){.cpu_ns = cpu, .wait_ns = wait, .shape = shape, .wall_lo = wall,
                         .wall_hi = wall};
}

/* A call whose idle sum passed its limit is judged on a settled reading only (cpuclock.h): a
 * process of the tree may wait for a CPU, its wait not in the sum yet. Takes that reading of
 * pid's tree, adds the interval since *last to *idle_ns and makes it *last. Returns
 * tk_cpu_tree_settled's answer: 1 settled, 0 not (judge nothing), -1 the tree is gone (judged
 * by its exit). */
static int settle_idle(pid_t pid, tk_tree_clock *last, int64_t *idle_ns) {
  tk_tree_clock c;
  int settled = tk_cpu_tree_settled(pid, &c);
  if (settled < 0) return settled;
  *idle_ns += tk_tree_idle(last, &c);
  *last = c;
  return settled;
}

void tk_watch_call(tk_watch *w, int seat, int agent, int entry) {
  if (!w) return;
  w->seq++; /* odd: inside a call */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  w->seat = seat;
  w->last_seat = seat;
  w->agent = agent;
  w->entry = entry;
  int64_t now = tk_now_ns();
  if (!w->wall_clock) {
    tk_tree_clock c;
    if (!w->wall_ref_ns || now - w->wall_ref_ns >= TK_WATCH_SAMPLE_NS) sample(w, &c);
    /* charged from the last reading: the referee's work since then (< 1 ms) counts too */
    w->cpu_since_ns = w->cpu_ref_ns;
    w->wait_since_ns = w->wait_ref_ns;
    w->wall_since_ns = w->wall_ref_ns;
    w->shape_since = w->shape_ref;
  }
  w->since_ns = now;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void tk_watch_leave(tk_watch *w) {
  if (!w) return;
  int64_t now = tk_now_ns();
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  int64_t since = w->since_ns;
  int64_t wall = since ? now - since : 0;
  w->last_idle_ns = 0;
  if (w->wall_clock || !since) {
    w->last_ns = wall;
  } else if (wall < TK_WATCH_SAMPLE_NS && now - w->wall_ref_ns < TK_WATCH_SAMPLE_NS) {
    w->last_ns = wall; /* a short call: its wall-clock time bounds its CPU and idle time */
  } else {
    tk_tree_clock b;
    sample(w, &b);
    tk_tree_clock a = since_clock(w->cpu_since_ns, w->wait_since_ns, w->shape_since,
                                  w->wall_since_ns);
    int64_t cpu = b.cpu_ns - a.cpu_ns;
    w->last_ns = cpu > 0 ? cpu : 0;
    int64_t idle = tk_tree_idle(&a, &b);
    if (w->idle_limit_ns && idle > w->idle_limit_ns) {
      /* a process it started may wait for a CPU, its wait not in the sum yet: judged only on
       * a settled reading, and not at all when none can be had */
      tk_tree_clock c;
      idle = tk_cpu_tree_settled(0, &c) == 1 ? tk_tree_idle(&a, &c) : 0;
    }
    w->last_idle_ns = idle > 0 ? idle : 0;
  }
  /* a game's clock counts its calls, not the one-off create of a worker's instance */
  if (w->seat >= 0 && w->seat < TK_WATCH_SEATS && w->entry != TK_ENTRY_CREATE &&
      w->entry != TK_ENTRY_DESTROY)
    w->used_ns[w->seat] += w->last_ns;
  w->since_ns = 0;
  w->seat = -1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  w->seq++;
}

void tk_watch_unit(tk_watch *w, uint64_t unit) {
  if (!w) return;
  w->unit = unit;
  for (int s = 0; s < TK_WATCH_SEATS; s++) w->used_ns[s] = 0;
  w->snap_len = 0;
  w->last_seat = -1;
  w->agent = -1;
  w->entry = TK_ENTRY_NONE;
}

void tk_watch_decision(tk_watch *w, const void *snap, size_t len) {
  if (!w) return;
  if (len > TK_WATCH_SNAP) len = TK_WATCH_SNAP;
  memcpy(w->snap, snap, len);
  w->snap_len = (int32_t)len;
}

enum { LOOK_AFTER_NS = 10000000, LOOK_EVERY_NS = 10000000 };

int tk_watch_judge(const tk_watch *w, pid_t pid, tk_watch_meter *m, int64_t now, tk_fault *f) {
  uint32_t seq = w->seq;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  int64_t since = w->since_ns, cpu_since = w->cpu_since_ns, wait_since = w->wait_since_ns;
  int64_t wall_since = w->wall_since_ns;
  uint64_t shape_since = w->shape_since;
  int seat = w->last_seat, entry = w->entry;
  int64_t used = seat >= 0 && seat < TK_WATCH_SEATS ? w->used_ns[seat] : 0;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (seq != w->seq || seat < 0 || !(seq & 1) || !since) return 0; /* changing, or no call */
  int64_t spent, idle = 0;
  if (w->wall_clock) {
    spent = now - since;
  } else {
    if (now - since < LOOK_AFTER_NS || now < m->next_ns) return 0;
    m->next_ns = now + LOOK_EVERY_NS;
    tk_tree_clock c;
    if (tk_cpu_tree_read(pid, &c)) return 0; /* gone: its death is judged elsewhere */
    if (m->seq != seq || m->since_ns != wall_since || !m->started) { /* a new call */
      m->seq = seq;
      m->since_ns = wall_since;
      m->started = 1;
      m->last = since_clock(cpu_since, wait_since, shape_since, wall_since);
      m->idle_ns = 0;
    }
    m->idle_ns += tk_tree_idle(&m->last, &c);
    m->last = c;
    spent = c.cpu_ns > cpu_since ? c.cpu_ns - cpu_since : 0;
    idle = m->idle_ns;
    if (w->idle_limit_ns && idle > w->idle_limit_ns) { /* settled, and while the call lasts */
      int settled = settle_idle(pid, &m->last, &m->idle_ns);
      if (settled < 0) return 0;
      idle = settled && seq == w->seq ? m->idle_ns : 0;
    }
  }
  memset(f, 0, sizeof *f);
  if (w->call_limit_ns && spent > w->call_limit_ns) {
    f->game_limit = TK_LIMIT_CALL;
    f->limit_ms = (int)(w->call_limit_ns / 1000000);
  } else if (w->game_limit_ns && entry != TK_ENTRY_CREATE && entry != TK_ENTRY_DESTROY &&
             used + spent > w->game_limit_ns) {
    f->game_limit = TK_LIMIT_GAME;
    f->limit_ms = (int)(w->game_limit_ns / 1000000);
  } else if (w->idle_limit_ns && idle > w->idle_limit_ns) {
    f->game_limit = TK_LIMIT_IDLE;
    f->limit_ms = (int)(w->idle_limit_ns / 1000000);
  } else {
    return 0;
  }
  f->kind = TK_FAULT_TIMEOUT;
  f->seat = seat;
  f->entry = entry;
  return 1;
}

int tk_watch_over(const tk_watch *w, int seat, int entry, tk_fault *f) {
  if (!w) return 0;
  int call = w->call_limit_ns && w->last_ns > w->call_limit_ns;
  int game = !call && w->game_limit_ns && seat >= 0 && seat < TK_WATCH_SEATS &&
             w->used_ns[seat] > w->game_limit_ns;
  int idle = !call && !game && w->idle_limit_ns && w->last_idle_ns > w->idle_limit_ns;
  if (!call && !game && !idle) return 0;
  memset(f, 0, sizeof *f);
  f->kind = TK_FAULT_TIMEOUT;
  f->entry = entry;
  f->seat = seat;
  f->game_limit = game ? TK_LIMIT_GAME : idle ? TK_LIMIT_IDLE : TK_LIMIT_CALL;
  f->limit_ms = (int)((game ? w->game_limit_ns : idle ? w->idle_limit_ns : w->call_limit_ns) /
                      1000000);
  return 1;
}

void tk_span_start(tk_span *s, pid_t pid, int wall_clock) {
  memset(s, 0, sizeof *s);
  s->pid = pid;
  s->wall_clock = wall_clock;
  s->wall0 = tk_now_ns();
  if (!wall_clock) tk_cpu_tree_read(pid, &s->start);
  s->last = s->start;
}

int tk_span_over(tk_span *s, int64_t call_limit_ns, int64_t idle_limit_ns) {
  int64_t now = tk_now_ns();
  if (s->wall_clock)
    return call_limit_ns && now - s->wall0 > call_limit_ns ? TK_LIMIT_CALL + 1 : 0;
  tk_tree_clock c;
  if (tk_cpu_tree_read(s->pid, &c)) return 0; /* ended: judged by its exit */
  s->idle_ns += tk_tree_idle(&s->last, &c);
  s->last = c;
  int64_t spent = c.cpu_ns > s->start.cpu_ns ? c.cpu_ns - s->start.cpu_ns : 0;
  if (call_limit_ns && spent > call_limit_ns) return TK_LIMIT_CALL + 1;
  if (idle_limit_ns && s->idle_ns > idle_limit_ns &&
      settle_idle(s->pid, &s->last, &s->idle_ns) == 1 && s->idle_ns > idle_limit_ns)
    return TK_LIMIT_IDLE + 1;
  return 0;
}
