/* plugins/solo_search/bh_agent.c — the komatsu / alpha agent (bh_agent.h).
 *
 * One decision at turn t (t draws taken, 14 tiles held, d = draws - t draws left, plus
 * "extra_draws"): N playouts, each a uniform sample without replacement of d of the unseen
 * tiles as the future draws, then
 * the best reachable hand for (held tiles, sample) and its reward R; R is added to the value of
 * every held kind of which the hand keeps fewer copies than are held (copies of a kind share
 * one value). Discard the legal kind of greatest value (tie-break: mc_common.h). With no draw
 * left, or fewer draws left than the hand's shanten + 1, no reachable hand exists: every value
 * is 0 and no playout is run. */
#include <stdlib.h>
#include <string.h>

#include "bh_agent.h"

tk_agent_instance *tk__bh_agent_create(const char *name, int fixed_a, const char *params_json,
                                       uint64_t seed, tk_error *err) {
  tk__mc_params p;
  if (tk__mc_parse(name, params_json, fixed_a < 0, &p, err)) return NULL;
  tk__bh_agent *ag = calloc(1, sizeof *ag);
  if (!ag) {
    tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", name);
    return NULL;
  }
  ag->name = name;
  ag->a = fixed_a >= 0 ? fixed_a : p.alpha_milli;
  ag->playouts = p.playouts;
  ag->tie_break = p.tie_break;
  ag->prefer_points = fixed_a >= 0 ? 0 : p.prefer_points;
  ag->sample_from = p.sample_from;
  ag->extra_draws = p.extra_draws;
  tk_rng_seed(&ag->rng, seed);
  return ag;
}

void tk__bh_agent_destroy(tk_agent_instance *self) { free(self); }

int tk__bh_agent_begin(tk_agent_instance *self, const void *info) {
  tk_rng_seed(&((tk__bh_agent *)self)->rng, ((const tk_solo_info *)info)->head.seed);
  return 0;
}

int tk__bh_agent_decide(tk__bh_agent *ag, const tk_solo_view *v, const tk_solo_legal *legal) {
  memset(ag->value, 0, sizeof ag->value);
  tk__bh_ctx ctx;
  tk__bh_prepare(&ctx, v->hand, v->dora_indicator, ag->a, ag->prefer_points);
  uint8_t unseen[TK_SOLO_WALL_TILES];
  int n = tk__mc_unseen_tiles(v, ag->sample_from, unseen);
  int d = tk__mc_future_draws(v, ag->extra_draws, n);
  if (d >= ctx.min_draws && legal->n > 1) {
    for (int i = 0; i < ag->playouts; i++) {
      tk__mc_sample(unseen, n, d, &ag->rng);
      uint8_t fut[TK_KINDS] = {0};
      for (int j = 0; j < d; j++) fut[unseen[j]]++;
      tk__bh_best b;
      tk__bh_search(&ctx, fut, &b);
      ag->searches++;
      ag->nodes += b.nodes;
      if (!b.found) continue;
      for (int k = 0; k < TK_KINDS; k++)
        if (v->hand[k] > b.hand[k]) ag->value[k] += b.reward;
    }
  }
  return tk__mc_argmax(ag->value, legal, ag->tie_break, &ag->rng);
}

int tk__bh_agent_act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  int k = tk__bh_agent_decide(self, view, legal);
  if (k < 0) return TK_ESTATE;
  ((tk_solo_action *)action)->discard = (uint8_t)k;
  return 0;
}

void tk__bh_agent_end(tk_agent_instance *self, const void *result) {}
