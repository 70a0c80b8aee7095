/* my_riichi.c — the smallest four-player riichi agent (game "riichi", taikai/riichi.h): it
 * wins whenever a win is legal (tsumo or ron), never calls (passes on every reaction), and
 * otherwise discards the tile that leaves the lowest shanten (tk_shanten_discards), preferring
 * the drawn tile on ties. The view holds only what the seat may see (its hand, every river and
 * meld, the dora indicators, the scores); `legal` lists every action it may take, and the
 * answer must be a copy of one of them. */
#include <stdlib.h>

#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/riichi.h"

/* (void)x marks a parameter this agent does not need: the build stays warning-free with
 * -Wall -Wextra. */
static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  (void)params_json;
  (void)seed;
  (void)err;
  /* No state: any non-NULL pointer is an instance (destroy is a no-op). */
  static int instance;
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
  const tk_riichi_view *v = view;
  const tk_riichi_legal *l = legal;
  tk_riichi_action *out = action;
  if (l->n == 0) return TK_ESTATE;
  int best = -1, best_shanten = 99, pass = -1;
  int after[TK_KINDS];
  int have_after = v->phase == TK_RIICHI_PHASE_SELF && tk_shanten_discards(v->hand, after) > 0;
  for (int i = 0; i < l->n; i++) {
    const tk_riichi_action *x = &l->a[i];
    if (x->type == TK_RIICHI_TSUMO || x->type == TK_RIICHI_RON) {
      *out = *x;
      return 0;
    }
    if (x->type == TK_RIICHI_PASS) pass = i;
    if (x->type == TK_RIICHI_DISCARD && have_after) {
      int s = after[tk_tile_kind(x->tile)];
      if (s < best_shanten || (s == best_shanten && x->tsumogiri)) best = i, best_shanten = s;
    }
  }
  *out = l->a[best >= 0 ? best : pass >= 0 ? pass : 0];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {
  (void)self;
  (void)result;
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "my_riichi",
    .version = "0.1.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "template: wins when it can, never calls, discards for the lowest shanten",
    .params_json = "{}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(my_riichi) { return &descriptor; }
