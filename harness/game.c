/* harness/game.c — the table of game drivers and helpers shared by them. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "game.h"
#include "taikai/rng.h"

extern const tk_game_driver tk_game_solo;
extern const tk_game_driver tk_game_riichi; /* harness/game_riichi.c (issue 6) */

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

void tk_watch_enter(tk_watch *w, int seat) {
  if (!w) return;
  w->seat = seat;
  w->since_ns = tk_now_ns();
}

void tk_watch_leave(tk_watch *w) {
  if (!w) return;
  w->since_ns = 0;
  w->seat = -1;
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
