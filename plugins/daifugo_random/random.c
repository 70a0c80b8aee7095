/* plugins/daifugo_random/random.c — daifugo agent "daifugo_random": a uniformly random legal
 * action, the pass included except on a new table (where it always plays); in the exchange a
 * uniformly random card. Re-seeds from the game's seed in begin_game, so each game replays
 * exactly. */
#include <stdlib.h>

#include "taikai/agent.h"
#include "taikai/daifugo.h"
#include "taikai/rng.h"

typedef struct agent {
  tk_rng rng; /* re-seeded at every begin_game */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  agent *a = malloc(sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "daifugo_random: out of memory");
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
  const tk_daifugo_legal *l = legal;
  tk_rng *r = &((agent *)self)->rng;
  if (l->n == 0) return TK_ESTATE;
  int k;
  if (l->decision == TK_DAIFUGO_DECIDE_PLAY && l->lead && l->n > 1)
    k = 1 + (int)tk_rng_below(r, (uint32_t)l->n - 1); /* a[0] is the pass */
  else
    k = (int)tk_rng_below(r, l->n);
  *(tk_daifugo_move *)action = l->a[k];
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "daifugo_random",
    .version = "1.0.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo: a uniformly random legal action (no pass on a new table)",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(daifugo_random) { return &descriptor; }
