/* plugins/riichi_tsumogiri/tsumogiri.c — riichi agent "riichi_tsumogiri": always discards the
 * tile it drew; never calls, declares riichi or wins (paper 000's simplest opponent). In a
 * reaction it passes. Deterministic: it keeps no state. */
#include <stdlib.h>

#include "taikai/agent.h"
#include "taikai/riichi.h"

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  static char instance; /* stateless: one shared non-NULL handle */
  return &instance;
}
static void destroy(tk_agent_instance *self) {}
static int begin_game(tk_agent_instance *self, const void *info) { return 0; }

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const tk_riichi_legal *l = legal;
  int pick = tk_riichi_fallback(l); /* the referee's fallback is exactly this agent */
  if (pick < 0) return TK_ESTATE;
  *(tk_riichi_action *)action = l->a[pick];
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "riichi_tsumogiri",
    .version = "1.0.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "riichi: always discards the drawn tile; never calls, riichis or wins",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(riichi_tsumogiri) { return &descriptor; }
