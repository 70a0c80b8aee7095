/* plugins/daifugo_mc/mc.c — daifugo agent "daifugo_mc", the paper's plain Monte Carlo player
 * [P §2.2]: every decision (plays and the exchange) is dmc_decide with the plain playout policy
 * (uniform over the non-pass plays, the pass only when forced). Parameters: those of dmc.h
 * ("playouts", "c", "exchange_playouts", "win_shortcut", "bias", "bias_self", "bias_order",
 * "bias_overflow", "exchange_pair"); docs/daifugo-agents.md. Randomness: re-seeded from
 * tk_daifugo_info.head.seed by begin_game (once per block), so a block replays exactly. */
#include <stdlib.h>

#include "dmc.h"
#include "taikai/agent.h"

typedef struct agent {
  dmc_params p;
  tk_rng rng;
  dmc_stats st; /* the last decision's (kept here: too large for the stack of every call) */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  dmc_params p;
  if (dmc_params_parse(params_json, &p, err)) return NULL;
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "daifugo_mc: out of memory");
    return NULL;
  }
  a->p = p;
  tk_rng_seed(&a->rng, seed);
  return a;
}

static void destroy(tk_agent_instance *self) { free(self); }

static int begin_game(tk_agent_instance *self, const void *info) {
  agent *a = self;
  dmc_begin_game(&a->p, &a->rng, info);
  return 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_daifugo_legal *l = legal;
  int k = dmc_decide(&a->p, view, l, NULL, NULL, &a->rng, &a->st);
  if (k < 0) return l->n == 0 ? TK_ESTATE : TK_EINVAL;
  *(tk_daifugo_move *)action = l->a[k];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "daifugo_mc",
    .version = "1.0.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo: the paper's plain Monte Carlo (UCB1 over the candidates, 1500 random "
                   "playouts per decision, exchange-biased dealing)",
    .params_json = "{\"playouts\": 1500, \"c\": 4.0, \"exchange_playouts\": 1500, "
                   "\"win_shortcut\": true, \"bias\": true, \"bias_self\": \"skip_share\", "
                   "\"bias_order\": \"normal\", \"bias_overflow\": \"cap\", "
                   "\"exchange_pair\": \"top2\"}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(daifugo_mc) { return &descriptor; }
