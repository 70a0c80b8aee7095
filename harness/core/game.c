/* harness/core/game.c — the table of games (a game is registered by its name in TAIKAI_GAMES,
 * CMakeLists.txt) and the helpers every game shares. */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "taikai/rng.h"

/* The registered games, NULL-terminated: generated from TAIKAI_GAMES (CMakeLists.txt) into
 * the build folder (build/harness/embed/games_table.c). */
extern const tk_game *const tk_game_table[];

const tk_game *const *tk_game_all(void) { return tk_game_table; }

const tk_game *tk_game_find(const char *name) {
  for (int i = 0; name && tk_game_table[i]; i++)
    if (!strcmp(tk_game_table[i]->name, name)) return tk_game_table[i];
  return NULL;
}

const char *tk_game_names(void) {
  static char names[256];
  if (!names[0]) {
    size_t n = 0;
    for (int i = 0; tk_game_table[i]; i++)
      n += (size_t)snprintf(names + n, n < sizeof names ? sizeof names - n : 0, "%s%s",
                            i ? ", " : "", tk_game_table[i]->name);
  }
  return names;
}

uint64_t tk_game_seed(uint64_t seed, uint64_t wall, int seat, int agent) {
  uint64_t x = tk_mix64(seed ^ 0x7461696b61690000ULL); /* "taikai" */
  x = tk_mix64(x ^ wall);
  return tk_mix64(x ^ ((uint64_t)(uint32_t)agent << 32 | (uint32_t)seat));
}

void tk_unit_result_of(const tk_game *g, const tk_unit_rec *rec, tk_unit_result *out) {
  memset(out, 0, sizeof *out);
  out->unit = rec->unit;
  out->wall = rec->wall;
  out->nseats = rec->nseats;
  out->skipped = rec->skipped;
  for (int s = 0; s < rec->nseats; s++) {
    const tk_seat_rec *x = &rec->seat[s];
    out->agent[s] = x->agent;
    out->fault[s] = x->fault.kind != TK_FAULT_NONE;
    out->fault_kind[s] = x->fault.kind;
    out->illegal[s] = x->illegal;
  }
  g->quantities(rec, out->q);
}

int tk_json_quote(const char *s, char *buf, size_t cap) {
  size_t n = 0;
#define PUT(c)                     \
  do {                             \
    if (n + 1 < cap) buf[n] = (c); \
    n++;                           \
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
