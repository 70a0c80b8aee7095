/* plugins/riichi_random/random.c — riichi agent "riichi_random": a uniformly random legal action
 * at every decision (each listed action equally likely), for soak tests. Re-seeds from the
 * game's seed in begin_game, so each game replays exactly. */
#include <stdlib.h>

#include "taikai/agent.h"
#include "taikai/riichi.h"
#include "taikai/rng.h"

typedef struct agent {
  tk_rng rng; /* re-seeded at every begin_game */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  agent *a = malloc(sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "riichi_random: out of memory");
    return NULL;
  }
  tk_rng_seed(&a->rng, seed);
  return a;
}
static void destroy(tk_agent_instance *self) { free(self); }
static int begin_game(tk_agent_instance *self, const void *info) {
  tk_rng_seed(&((agent *)self)->rng, ((const tk_riichi_info *)info)->head.seed);
  return 0;
}
static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const tk_riichi_legal *l = legal;
  if (l->n == 0) return TK_ESTATE;
  *(tk_riichi_action *)action = l->a[tk_rng_below(&((agent *)self)->rng, l->n)];
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "riichi_random",
    .version = "1.0.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "riichi: a uniformly random legal action at every decision",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(riichi_random) { return &descriptor; }
