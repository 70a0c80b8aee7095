/* plugins/mc/mc.c — flat Monte Carlo, the thesis's Algorithm 3 (Kaizu 2015): for each held kind
 * (copies of a kind share one value), N playouts: discard it, then for each draw left draw a
 * uniform tile from the tiles not yet seen (without replacement within the playout: the unseen
 * tiles of the view, sampled by a partial Fisher-Yates); if the 14 tiles are complete the
 * playout ends and its reward is the win's solo points with the game's dora; otherwise discard
 * a uniform one of the 14 tiles (so a kind held twice is twice as likely). The value of a kind
 * is its total reward; discard the argmax. Ties (common: most playouts never win) go to the
 * lowest kind, as the thesis's argmax over its sorted hand, or with "tie_break": "random"
 * uniformly among the tied kinds. With no draw left every value is 0. Parameters: "playouts"
 * (default 1000), "tie_break", "sample_from", "extra_draws" (mc_common.h). Randomness: re-seeded from tk_solo_info.head.seed by begin_game. */
#include <stdlib.h>
#include <string.h>

#include "../solo_search/mc_common.h"
#include "taikai/agent.h"
#include "taikai/mahjong.h"

typedef struct agent {
  int playouts;
  int tie_break;
  int sample_from; /* TK__SAMPLE_* */
  int extra_draws; /* future draws imagined beyond the draws left (mc_common.h) */
  tk_rng rng;
  int64_t value[TK_KINDS]; /* the last decision's total reward per kind */
  long playouts_run;       /* since create (statistics) */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  tk__mc_params p;
  if (tk__mc_parse("mc", params_json, 0, &p, err)) return NULL;
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "mc: out of memory");
    return NULL;
  }
  a->playouts = p.playouts;
  a->tie_break = p.tie_break;
  a->sample_from = p.sample_from;
  a->extra_draws = p.extra_draws;
  tk_rng_seed(&a->rng, seed);
  return a;
}

static void destroy(tk_agent_instance *self) { free(self); }

static int begin_game(tk_agent_instance *self, const void *info) {
  tk_rng_seed(&((agent *)self)->rng, ((const tk_solo_info *)info)->head.seed);
  return 0;
}

static const uint8_t YAOCHU_KINDS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

/* A necessary condition for 14 tiles to be complete, much cheaper than tk_is_complete: unless
 * all thirteen terminal and honor kinds are held (thirteen orphans), no honor is held once or
 * four times and no numbered tile is held once with no tile within two of it in its suit. */
static int may_be_complete(const uint8_t *c) {
  int yao = 0;
  for (int i = 0; i < 13; i++) yao += c[YAOCHU_KINDS[i]] > 0;
  if (yao == 13) return 1;
  for (int k = 27; k < TK_KINDS; k++)
    if (c[k] == 1 || c[k] == 4) return 0;
  for (int su = 0; su < 27; su += 9)
    for (int i = 0; i < 9; i++) {
      if (c[su + i] != 1) continue;
      int near = 0;
      for (int j = i - 2; j <= i + 2; j++)
        if (j != i && j >= 0 && j < 9) near += c[su + j];
      if (!near) return 0;
    }
  return 1;
}

/* One playout after discarding kind `k` from `v->hand`: the points won, or 0. */
static int playout(agent *a, const tk_solo_view *v, int k, uint8_t *unseen, int n, int d) {
  uint8_t c[TK_KINDS], list[14];
  memcpy(c, v->hand, TK_KINDS);
  c[k]--;
  int m = 0;
  for (int j = 0; j < TK_KINDS; j++)
    for (int i = 0; i < c[j]; i++) list[m++] = (uint8_t)j;
  for (int step = 0; step < d; step++) {
    int j = step + (int)tk_rng_below(&a->rng, (uint32_t)(n - step));
    uint8_t t = unseen[j];
    unseen[j] = unseen[step];
    unseen[step] = t;
    c[t]++;
    list[13] = t;
    if (may_be_complete(c) && tk_is_complete(c)) {
      int p = tk_solo_score(c, t, v->dora_indicator, NULL);
      return p > 0 ? p : 0;
    }
    if (step + 1 == d) break;
    int x = (int)tk_rng_below(&a->rng, 14);
    c[list[x]]--;
    list[x] = list[13];
  }
  return 0;
}

/* Fills a->value and returns the kind to discard. */
static int decide(agent *a, const tk_solo_view *v, const tk_solo_legal *legal) {
  memset(a->value, 0, sizeof a->value);
  uint8_t unseen[TK_SOLO_WALL_TILES];
  int n = tk__mc_unseen_tiles(v, a->sample_from, unseen);
  int d = tk__mc_future_draws(v, a->extra_draws, n);
  if (d > 0 && legal->n > 1)
    for (int i = 0; i < legal->n; i++) {
      int k = legal->kinds[i];
      for (int j = 0; j < a->playouts; j++) a->value[k] += playout(a, v, k, unseen, n, d);
      a->playouts_run += a->playouts;
    }
  return tk__mc_argmax(a->value, legal, a->tie_break, &a->rng);
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  int k = decide(self, view, legal);
  if (k < 0) return TK_ESTATE;
  ((tk_solo_action *)action)->discard = (uint8_t)k;
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "mc",
    .version = "1.2.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "thesis Algorithm 3: flat Monte Carlo, random draws and random discards",
    .params_json = "{\"playouts\": 1000, \"tie_break\": \"first\", \"sample_from\": \"unseen\", "
                   "\"extra_draws\": 0}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(mc) { return &descriptor; }
