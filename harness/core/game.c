/* harness/core/game.c — the table of game drivers and helpers shared by them. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fault.h"
#include "game.h"
#include "taikai/rng.h"

extern const tk_game_driver tk_game_solo;
extern const tk_game_driver tk_game_riichi; /* harness/games/riichi.c (issue 6) */

static const tk_game_driver *const drivers[] = {&tk_game_solo, &tk_game_riichi, NULL};

const tk_game_driver *tk_game_find(const char *name) {
  for (int i = 0; drivers[i]; i++)
    if (!strcmp(drivers[i]->name, name)) return drivers[i];
  return NULL;
}

const char *tk_game_names(void) { return "solo, riichi"; }

uint64_t tk_game_seed(uint64_t seed, uint64_t wall, int seat, int agent) {
  uint64_t x = tk_mix64(seed ^ 0x7461696b61690000ULL); /* "taikai" */
  x = tk_mix64(x ^ wall);
  return tk_mix64(x ^ ((uint64_t)(uint32_t)agent << 32 | (uint32_t)seat));
}

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

void tk_watch_enter(tk_watch *w, int seat) { tk_watch_call(w, seat, -1, TK_ENTRY_ACT); }

void tk_watch_leave(tk_watch *w) {
  if (!w) return;
  int64_t now = tk_now_ns();
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  int64_t since = w->since_ns;
  w->last_ns = since ? now - since : 0;
  /* a game's clock counts its calls, not the one-off create of a worker's instance */
  if (w->seat >= 0 && w->seat < TK_MAX_SEATS && w->entry != TK_ENTRY_CREATE &&
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
  for (int s = 0; s < TK_MAX_SEATS; s++) w->used_ns[s] = 0;
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
  int game = !call && w->game_limit_ns && seat >= 0 && seat < TK_MAX_SEATS &&
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

int tk_json_quote(const char *s, char *buf, size_t cap) {
  size_t n = 0;
#define PUT(c) \
  do {                        \
    if (n + 1 < cap) buf[n] = (c); \
    n++;                      \
  } while (0)
  PUT('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      PUT('\\');
      PUT((char)*p);
    } else if (*p < 0x20) {
      char esc[8];
      snprintf(esc, sizeof esc, "\\u%04x", *p);
      for (char *e = esc; *e; e++) PUT(*e);
    } else {
      PUT((char)*p);
    }
  }
  PUT('"');
#undef PUT
  if (cap) buf[n < cap ? n : cap - 1] = '\0';
  return (int)n;
}
