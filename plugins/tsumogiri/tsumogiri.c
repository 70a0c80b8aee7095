/* plugins/tsumogiri/tsumogiri.c — the baseline that always discards the tile it just drew
 * (tsumogiri, ツモ切り): it keeps its dealt 13 tiles and wins only if they were already
 * tenpai and the draws bring a winning tile. Stateless. */
#include "taikai/agent.h"
#include "taikai/solo.h"

static int instance_token;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  return &instance_token;
}
static void destroy(tk_agent_instance *self) {}
static int begin_game(tk_agent_instance *self, const void *info) { return 0; }
static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  ((tk_solo_action *)action)->discard = ((const tk_solo_view *)view)->drawn;
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "tsumogiri",
    .version = "1.0.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "discards the tile it just drew (baseline)",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(tsumogiri) { return &descriptor; }
