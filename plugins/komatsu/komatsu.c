/* plugins/komatsu/komatsu.c — Komatsu et al. 2012 as the thesis's Algorithm 4 (Kaizu 2015):
 * N playouts, each sampling as many future tiles as there are draws left from the unseen
 * tiles; the highest-scoring complete hand reachable from the 14 held tiles plus that sample
 * (solo ruleset: yaku, fu, the dora, points); its points are added to every held kind it does
 * not use; discard the argmax. Ties between hands of equal points: more held tiles kept, then
 * the order of plugins/solo_search/best_hand.h; ties between kinds: the lowest (parameter
 * "tie_break"). The agent is plugins/solo_search/bh_agent.c with alpha fixed at 1, so the
 * alpha plugin with alpha = 1 plays exactly as this one.
 * Our reading of "the hand built from the held tiles and the future tiles": a complete 14-tile
 * hand h <= held + sample per kind; it keeps U = sum min(h, held) held tiles and draws the
 * other 14 - U (<= the draws left, since the sample has exactly that many tiles); its winning
 * tile is any drawn kind it needs (h[k] > held[k]) — the sample is a multiset, the order of the
 * draws is not modelled. Details and the other readings: docs/solo-agents.md. */
#include "../solo_search/bh_agent.h"

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  return tk__bh_agent_create("komatsu", 1000, params_json, seed, err);
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "komatsu",
    .version = "1.2.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "thesis Algorithm 4 (Komatsu et al.): playouts reward the tiles the "
                   "highest-scoring reachable hand discards",
    .params_json = "{\"playouts\": 1000, \"tie_break\": \"first\", \"sample_from\": \"unseen\", "
                   "\"extra_draws\": 0}",
    .create = create,
    .destroy = tk__bh_agent_destroy,
    .begin_game = tk__bh_agent_begin,
    .act = tk__bh_agent_act,
    .end_game = tk__bh_agent_end,
};

TK_AGENT_ENTRY(komatsu) { return &descriptor; }
