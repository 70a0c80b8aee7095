/* plugins/kuhn_random/random.c — Kuhn poker agent "kuhn_random": each of its two legal moves
 * with probability 1/2 (check or bet; fold or call). Re-seeds from the game's seed in begin_game,
 * so each hand replays exactly. */
#include <stdlib.h>

#include "taikai/agent.h"
#include "taikai/kuhn.h"
#include "taikai/rng.h"

typedef struct agent {
  tk_rng rng; /* re-seeded at every begin_game */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  agent *a = malloc(sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "kuhn_random: out of memory");
    return NULL;
  }
  tk_rng_seed(&a->rng, seed);
  return a;
}
static void destroy(tk_agent_instance *self) { free(self); }
static int begin_game(tk_agent_instance *self, const void *info) {
  tk_rng_seed(&((agent *)self)->rng, ((const tk_game_head *)info)->seed);
  return 0;
}
static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const tk_kuhn_legal *l = legal;
  if (l->n == 0 || l->n > 2) return TK_ESTATE;
  ((tk_kuhn_action *)action)->move = l->a[tk_rng_below(&((agent *)self)->rng, l->n)];
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "kuhn_random",
    .version = "1.0.0",
    .game = "kuhn",
    .types_version = TK_KUHN_TYPES_VERSION,
    .description = "kuhn: each legal move with probability 1/2",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(kuhn_random) { return &descriptor; }
