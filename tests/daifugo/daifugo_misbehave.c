/* tests/daifugo/daifugo_misbehave.c — a daifugo plugin broken on purpose in whatever way its
 * parameters say (the fault tests of `taikai serve`'s plugin seats), otherwise the referee's
 * fallback (daifugo_pass's play).
 *
 * params:
 *   "how":      "none" | "hang" (loops forever) | "abort" (a crash: SIGABRT) | "exit" (exit(7))
 *               | "error" (returns TK_ESTATE) | "leak" (allocates and touches 16 MiB at a time,
 *               without bound) | "sleep" (sleeps 5 ms, then plays)
 *   "entry":    "act" | "begin_game" | "end_game": where it misbehaves
 *   "wall":     the unit (block) in which it misbehaves; -1: every one
 *   "decision": act: its decision in that unit at which it misbehaves (1 = its first; 0 =
 *               every one)
 *
 * Deterministic: the same params misbehave at the same decision of the same block. */
#define _DEFAULT_SOURCE 1
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "taikai/agent.h"
#include "taikai/daifugo.h"

typedef struct mb {
  char how[16], entry[16];
  long long wall;
  int decision;
  int decisions; /* act calls in this unit */
  uint64_t unit_wall;
} mb;

/* "key": "string" or "key": integer, from the flat params object. */
static const char *find(const char *json, const char *key) {
  char pat[40];
  snprintf(pat, sizeof pat, "\"%s\"", key);
  const char *p = strstr(json, pat);
  if (!p) return NULL;
  p = strchr(p + strlen(pat), ':');
  if (!p) return NULL;
  p++;
  while (*p == ' ') p++;
  return p;
}

static void get_str(const char *json, const char *key, char *out, size_t cap) {
  const char *p = find(json, key);
  if (!p || *p != '"') return;
  p++;
  size_t n = 0;
  while (*p && *p != '"' && n + 1 < cap) out[n++] = *p++;
  out[n] = '\0';
}

static long long get_int(const char *json, const char *key, long long dflt) {
  const char *p = find(json, key);
  return p ? strtoll(p, NULL, 10) : dflt;
}

static tk_agent_instance *create(const char *params, uint64_t seed, tk_error *err) {
  mb *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  snprintf(m->how, sizeof m->how, "none");
  snprintf(m->entry, sizeof m->entry, "act");
  get_str(params, "how", m->how, sizeof m->how);
  get_str(params, "entry", m->entry, sizeof m->entry);
  m->wall = get_int(params, "wall", -1);
  m->decision = (int)get_int(params, "decision", 1);
  return (tk_agent_instance *)m;
}

static void destroy(tk_agent_instance *self) { free(self); }

/* Misbehaves as "how" says; returns TK_ESTATE for "error" and 0 for "none". */
static int misbehave(const mb *m) {
  if (!strcmp(m->how, "hang"))
    for (;;) pause();
  if (!strcmp(m->how, "abort")) abort();
  if (!strcmp(m->how, "exit")) exit(7);
  if (!strcmp(m->how, "leak"))
    for (;;) {
      char *p = malloc(16 << 20);
      if (p) memset(p, 1, 16 << 20);
    }
  if (!strcmp(m->how, "error")) return TK_ESTATE;
  if (!strcmp(m->how, "sleep")) usleep(5000);
  return 0;
}

static int here(const mb *m, const char *entry) {
  return !strcmp(m->entry, entry) && (m->wall < 0 || (uint64_t)m->wall == m->unit_wall);
}

static int begin_game(tk_agent_instance *self, const void *info) {
  mb *m = (mb *)self;
  m->unit_wall = ((const tk_game_head *)info)->wall;
  m->decisions = 0;
  return here(m, "begin_game") ? misbehave(m) : 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  mb *m = (mb *)self;
  m->decisions++;
  if (here(m, "act") && (!m->decision || m->decisions == m->decision)) {
    int rc = misbehave(m);
    if (rc) return rc;
  }
  *(tk_daifugo_move *)action = tk_daifugo_fallback(legal);
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {
  mb *m = (mb *)self;
  if (here(m, "end_game")) misbehave(m);
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "daifugo_misbehave",
    .version = "1.0.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo test fixture: hangs, crashes, exits or fails where its params say",
    .params_json = "{\"how\": \"none\", \"entry\": \"act\", \"wall\": -1, \"decision\": 1}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(daifugo_misbehave) { return &descriptor; }
