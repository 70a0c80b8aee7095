/* my_kuhn.c — the smallest agent, for the smallest game (Kuhn poker, game "kuhn",
 * taikai/kuhn.h; docs/agent-kuhn.md): it bets or calls with a K, bets a Q but folds it to a
 * bet, and checks or folds a J. A deterministic rule, so it needs no random numbers; against
 * the equilibrium (kuhn_nash) it loses chips: try to do better. */
#include "taikai/agent.h"
#include "taikai/kuhn.h"

/* (void)x marks a parameter this agent does not need: the build stays warning-free with
 * -Wall -Wextra. */
static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  (void)params_json;
  (void)seed;
  (void)err;
  static int instance; /* no state */
  return &instance;
}
static void destroy(tk_agent_instance *self) { (void)self; }
static int begin_game(tk_agent_instance *self, const void *info) {
  (void)self;
  (void)info;
  return 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  (void)self;
  const tk_kuhn_view *v = view;
  const tk_kuhn_legal *l = legal;
  if (l->n != 2) return TK_ESTATE;
  /* a[0] is the passive move (check, or fold facing a bet), a[1] the aggressive one */
  int aggressive = v->card == TK_KUHN_K || (v->card == TK_KUHN_Q && !v->to_call);
  ((tk_kuhn_action *)action)->move = l->a[aggressive ? 1 : 0];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {
  (void)self;
  (void)result;
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "my_kuhn",
    .version = "0.1.0",
    .game = "kuhn",
    .types_version = TK_KUHN_TYPES_VERSION,
    .description = "template: bets K and Q, calls only with K",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(my_kuhn) { return &descriptor; }
