/* plugins/daifugo_pass/pass.c — daifugo agent "daifugo_pass", for soak tests: passes whenever the
 * table holds a play, leads its lowest single on a new table, gives its lowest cards: exactly the
 * referee's fallback (tk_daifugo_fallback). Deterministic: it keeps no state. */
#include "taikai/agent.h"
#include "taikai/daifugo.h"

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  static char instance; /* stateless: one shared non-NULL handle */
  return &instance;
}
static void destroy(tk_agent_instance *self) {}
static int begin_game(tk_agent_instance *self, const void *info) { return 0; }
static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const tk_daifugo_legal *l = legal;
  if (l->n == 0) return TK_ESTATE;
  *(tk_daifugo_move *)action = tk_daifugo_fallback(l);
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "daifugo_pass",
    .version = "1.0.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo: passes whenever it may, leads its lowest single, gives its lowest cards",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(daifugo_pass) { return &descriptor; }
