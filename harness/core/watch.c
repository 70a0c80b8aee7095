/* harness/core/watch.c — the shared record of the agent call in progress (see watch.h). */
#include <string.h>
#include <time.h>

#include "watch.h"

int64_t tk_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void tk_watch_call(tk_watch *w, int seat, int agent, int entry) {
  if (!w) return;
  w->seq++; /* odd: inside a call */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  w->seat = seat;
  w->last_seat = seat;
  w->agent = agent;
  w->entry = entry;
  w->since_ns = tk_now_ns();
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void tk_watch_leave(tk_watch *w) {
  if (!w) return;
  int64_t now = tk_now_ns();
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  int64_t since = w->since_ns;
  w->last_ns = since ? now - since : 0;
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

int tk_watch_over(const tk_watch *w, int seat, int entry, tk_fault *f) {
  if (!w) return 0;
  int call = w->call_limit_ns && w->last_ns > w->call_limit_ns;
  int game = !call && w->game_limit_ns && seat >= 0 && seat < TK_WATCH_SEATS &&
             w->used_ns[seat] > w->game_limit_ns;
  if (!call && !game) return 0;
  memset(f, 0, sizeof *f);
  f->kind = TK_FAULT_TIMEOUT;
  f->entry = entry;
  f->seat = seat;
  f->game_limit = game;
  f->limit_ms = (int)((game ? w->game_limit_ns : w->call_limit_ns) / 1000000);
  return 1;
}
