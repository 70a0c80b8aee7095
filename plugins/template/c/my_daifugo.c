/* my_daifugo.c — the smallest daifugo agent (game "daifugo", taikai/daifugo.h): it plays the
 * legal play that sheds the most cards, the lowest rank first (it never passes when it can
 * play), and in the exchange gives the first card listed. In daifugo one referee "game" is a
 * block of games (100 by default): begin_game and end_game come once per block, act at every
 * decision of every game in it (view->game says which). */
#include <stdlib.h>

#include "taikai/agent.h"
#include "taikai/daifugo.h"

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

/* The joker alone ranks above every single. */
static int rank_of(const tk_daifugo_move *m) { return m->kind == TK_DAIFUGO_JOKER1 ? 15 : m->rank; }

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  (void)self;
  (void)view;
  const tk_daifugo_legal *l = legal;
  if (l->n == 0) return TK_ESTATE;
  int best = 0; /* a[0]: the pass in a play decision, the first card in the exchange */
  if (l->decision == TK_DAIFUGO_DECIDE_PLAY) {
    for (int i = 1; i < l->n; i++) {
      const tk_daifugo_move *m = &l->a[i], *b = &l->a[best];
      if (best == 0 || m->n > b->n || (m->n == b->n && rank_of(m) < rank_of(b))) best = i;
    }
  }
  *(tk_daifugo_move *)action = l->a[best];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {
  (void)self;
  (void)result;
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "my_daifugo",
    .version = "0.1.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "template: sheds the most cards, lowest rank first",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(my_daifugo) { return &descriptor; }
