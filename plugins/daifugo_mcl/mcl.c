/* plugins/daifugo_mcl/mcl.c — daifugo agent "daifugo_mcl", paper 001's proposal [P §3-6]: the
 * plain Monte Carlo decision of daifugo_mc (plugins/daifugo_mc/dmc.h: UCB1 at the root, N
 * playouts, the biased dealing, the exchange by the same machinery) whose playouts draw every
 * player's every move from a learned ranking h (policy.h): the legal moves (the pass included
 * unless the table is new) sorted by h, the i-th drawn with probability ∝ α^(i-1).
 *
 * Parameters: those of daifugo_mc, and
 *   "alpha"   the rank decay, 0..1 [0.6] (0 plays h's argmax, 1 is uniform over the moves);
 *   "learner" "ap" [ap] or "nn";
 *   "weights" a weights file ("" = daifugo_mcl_ap_mc.tkw beside this plugin, the MC teacher's
 *             AP, the strongest shipped ranking that reproduces at the current commit; the
 *             greedy teacher's, paper 001's first, is daifugo_mcl_ap.tkw; the referee passes
 *             the path it resolved and hashed);
 *   "hidden"  the NN's hidden units, which its weights file must have [16];
 *   "playout_pass" whether the playouts' rankings include the pass when the table is not new
 *             [true, the paper's proposal]; false passes only when forced, like plain MC's
 *             playouts, so that α 1 is plain MC exactly (the paper's §5.2 says it is).
 * Randomness: re-seeded from tk_daifugo_info.head.seed by begin_game (once per block). */
#include <stdlib.h>
#include <string.h>

#include "dmc.h"
#include "policy.h"
#include "setup.h"
#include "taikai/agent.h"
#include "taikai/weights.h"

#define DEFAULT_WEIGHTS "daifugo_mcl_ap_mc.tkw"

typedef struct agent {
  dmc_params p;
  dmcl_policy pol;
  tk_weights w;
  tk_rng rng;
  dmc_stats st; /* the last decision's (too large for the stack of every call) */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  dmc_params p;
  if (dmc_params_parse_for("daifugo_mcl", params_json, dmcl_setup_names, &p, err)) return NULL;
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "daifugo_mcl: out of memory");
    return NULL;
  }
  if (dmcl_setup("daifugo_mcl", params_json, DEFAULT_WEIGHTS, (const void *)create, &a->pol,
                 &a->w, err)) {
    free(a);
    return NULL;
  }
  a->p = p;
  tk_rng_seed(&a->rng, seed);
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  dmcl_setup_free(&a->pol, &a->w);
  free(a);
}

static int begin_game(tk_agent_instance *self, const void *info) {
  agent *a = self;
  dmc_begin_game(&a->p, &a->rng, info);
  return 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_daifugo_legal *l = legal;
  int k = dmc_decide(&a->p, view, l, dmcl_policy_move, &a->pol, &a->rng, &a->st);
  if (k < 0) return l->n == 0 ? TK_ESTATE : TK_EINVAL;
  *(tk_daifugo_move *)action = l->a[k];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "daifugo_mcl",
    .version = "1.2.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo: Monte Carlo with learned playouts (paper 001: moves ranked by an "
                   "averaged perceptron or a network, drawn with probability alpha^rank; default "
                   "weights: the MC teacher's AP)",
    .params_json = "{\"playouts\": 1500, \"c\": 4.0, \"exchange_playouts\": 1500, "
                   "\"win_shortcut\": true, \"bias\": true, \"bias_self\": \"skip_share\", "
                   "\"bias_order\": \"normal\", \"bias_overflow\": \"cap\", "
                   "\"exchange_pair\": \"top2\", \"alpha\": 0.6, \"learner\": \"ap\", "
                   "\"weights\": \"\", \"hidden\": 16, \"playout_pass\": true}",
    .weights = DEFAULT_WEIGHTS,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(daifugo_mcl) { return &descriptor; }
