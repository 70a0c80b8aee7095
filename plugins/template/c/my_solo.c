/* my_solo.c — the smallest useful one-player mahjong agent (game "solo", taikai/solo.h): it
 * discards the tile that leaves the lowest shanten (tk_shanten_discards, from libtaikai), the
 * lowest kind on ties; with probability `explore` percent it discards a random held kind instead.
 *
 * Copy this file to start an agent. What the referee asks of it (docs/sdk.md, "Write an agent"):
 * - one exported symbol, taikai_agent_entry, defined by TK_AGENT_ENTRY below;
 * - create() parses the parameters (a JSON object holding every parameter of params_json,
 *   defaults merged with the spec's) and returns an instance, or NULL with a reason in `err`;
 * - begin_game() re-seeds the generator from the game's seed, so a game replays exactly
 *   whatever the worker process or the games it played before;
 * - act() writes one of the legal actions; a negative return is a fault of the agent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/rng.h"
#include "taikai/solo.h"

typedef struct agent {
  tk_rng rng;  /* re-seeded at every begin_game */
  int explore; /* percent of random discards, 0..100 */
} agent;

/* The integer value of "name" in the referee's JSON object `json`, or `def`. The referee passes
 * a flat object of every parameter; an agent with many or nested parameters would use a JSON
 * library (e.g. Jansson: pkg-config jansson). */
static long param_int(const char *json, const char *name, long def) {
  char key[64];
  snprintf(key, sizeof key, "\"%s\"", name);
  const char *p = strstr(json, key);
  if (!p || !(p = strchr(p + strlen(key), ':'))) return def;
  return strtol(p + 1, NULL, 10);
}

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  long explore = param_int(params_json, "explore", 0);
  if (explore < 0 || explore > 100) {
    tk_error_set(err, TK_ERANGE, -1, "my_solo: params.explore %ld is not in 0..100", explore);
    return NULL;
  }
  agent *a = malloc(sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "my_solo: out of memory");
    return NULL;
  }
  a->explore = (int)explore;
  tk_rng_seed(&a->rng, seed);
  return a;
}

static void destroy(tk_agent_instance *self) { free(self); }

static int begin_game(tk_agent_instance *self, const void *info) {
  tk_rng_seed(&((agent *)self)->rng, ((const tk_solo_info *)info)->head.seed);
  return 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_solo_view *v = view;
  const tk_solo_legal *l = legal;
  if (l->n == 0) return TK_ESTATE;
  int choice = l->kinds[0];
  if (a->explore && (int)tk_rng_below(&a->rng, 100) < a->explore) {
    choice = l->kinds[tk_rng_below(&a->rng, l->n)];
  } else {
    int after[TK_KINDS];
    if (tk_shanten_discards(v->hand, after) < 0) return TK_ESTATE;
    for (int i = 1; i < l->n; i++)
      if (after[l->kinds[i]] < after[choice]) choice = l->kinds[i];
  }
  ((tk_solo_action *)action)->discard = (uint8_t)choice;
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {
  (void)self;
  (void)result;
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "my_solo",
    .version = "0.1.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "template: discards for the lowest shanten (explore: % random discards)",
    .params_json = "{\"explore\": 0}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(my_solo) { return &descriptor; }
