/* plugins/alpha/alpha.c — the thesis's proposal, Algorithm 5 (Kaizu 2015): as komatsu, but
 * each playout's best reachable hand maximises R = alpha*P/48000 + (1-alpha)*U/13 (P its
 * points, U the held tiles it keeps) and R is the reward of every held kind it does not use.
 * alpha (parameter, default 0.8) is taken in steps of 0.001 and R computed exactly in integers
 * (plugins/solo_search/best_hand.h), so alpha = 1 plays exactly as komatsu. Ties between hands
 * of equal R: more kept tiles (with "prefer_points": true, more points first — which changes
 * alpha = 0 only), then best_hand.h's order; between kinds: the lowest ("tie_break").
 * Readings: docs/solo-agents.md. */
#include "../solo_search/bh_agent.h"

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  return tk__bh_agent_create("alpha", -1, params_json, seed, err);
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "alpha",
    .version = "1.2.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "thesis Algorithm 5: komatsu with reward alpha*P/48000 + (1-alpha)*U/13",
    .params_json =
        "{\"alpha\": 0.8, \"playouts\": 1000, \"tie_break\": \"first\", \"prefer_points\": false, "
        "\"sample_from\": \"unseen\", \"extra_draws\": 0}",
    .create = create,
    .destroy = tk__bh_agent_destroy,
    .begin_game = tk__bh_agent_begin,
    .act = tk__bh_agent_act,
    .end_game = tk__bh_agent_end,
};

TK_AGENT_ENTRY(alpha) { return &descriptor; }
