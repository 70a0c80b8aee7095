/* plugins/random/random.c — discards one of its 14 tiles uniformly at random (so a kind held
 * twice is twice as likely), the playout policy of the thesis's Monte Carlo agent. Re-seeds
 * from the game's seed in begin_game, so each game replays exactly. */
#include <stdlib.h>

#include "taikai/agent.h"
#include "taikai/rng.h"
#include "taikai/solo.h"

typedef struct agent {
  tk_rng rng; /* re-seeded at every begin_game */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  agent *a = malloc(sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "random: out of memory");
    return NULL;
  }
  tk_rng_seed(&a->rng, seed);
  return a;
}
static void destroy(tk_agent_instance *self) { free(self); }
static int begin_game(tk_agent_instance *self, const void *info) {
  tk_rng_seed(&((agent *)self)->rng, ((const tk_solo_info *)info)->head.seed);
  return 0;
}
static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const tk_solo_view *v = view;
  int n = (int)tk_rng_below(&((agent *)self)->rng, TK_SOLO_HAND_TILES + 1);
  for (int k = 0; k < TK_KINDS; k++) {
    if (n < v->hand[k]) {
      ((tk_solo_action *)action)->discard = (uint8_t)k;
      return 0;
    }
    n -= v->hand[k];
  }
  return TK_ESTATE; /* the view did not hold 14 tiles */
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "random",
    .version = "1.0.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "discards one of its 14 tiles uniformly at random",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(random) { return &descriptor; }
