/* plugins/riichi_nn002/riichi_nn002.c — riichi agent "riichi_nn002": paper 002's network as a
 * player, with the paper's fixed rules around it: a win whenever legal, riichi as soon as it is
 * legal (with the riichi-capable discard the network scores highest), never a call, a kan or
 * the nine-terminals draw; every other discard is the kind in hand the network scores highest
 * (nn.h), a plain five before a red one. Deterministic, no state between decisions.
 *
 * Parameters: "weights": a weights file of build/riichi_nn002_train ("" = the default,
 * riichi_nn002.tkw beside the plugin). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "nn.h"
#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/weights.h"

#define DEFAULT_WEIGHTS "riichi_nn002.tkw"

typedef struct agent {
  nn_model m;
  double *h;
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  (void)seed;
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p || !json_is_object(p)) {
    tk_error_set(err, TK_EPARSE, -1, "riichi_nn002: params: %s", p ? "expected an object" : jerr.text);
    json_decref(p);
    return NULL;
  }
  const char *key;
  json_t *v;
  const char *given = NULL;
  json_object_foreach(p, key, v) {
    if (strcmp(key, "weights") || !json_is_string(v)) {
      tk_error_set(err, TK_EINVAL, -1, "riichi_nn002: params: \"%s\": %s", key,
                   strcmp(key, "weights") ? "unknown field (known: weights)"
                                          : "must be a file name (a string)");
      json_decref(p);
      return NULL;
    }
    given = json_string_value(v);
  }
  char path[4096];
  if (given && given[0]) {
    snprintf(path, sizeof path, "%s", given);
  } else if (tk_weights_beside((const void *)create, DEFAULT_WEIGHTS, path, sizeof path)) {
    tk_error_set(err, TK_ENOTFOUND, -1, "riichi_nn002: cannot locate %s beside the plugin",
                 DEFAULT_WEIGHTS);
    json_decref(p);
    return NULL;
  }
  json_decref(p);
  agent *a = calloc(1, sizeof *a);
  if (!a || nn_load(path, &a->m, err)) {
    if (!a) tk_error_set(err, TK_ENOMEM, -1, "riichi_nn002: out of memory");
    free(a);
    return NULL;
  }
  a->h = malloc((size_t)a->m.hidden * sizeof *a->h);
  if (!a->h) {
    nn_free(&a->m);
    free(a);
    tk_error_set(err, TK_ENOMEM, -1, "riichi_nn002: out of memory");
    return NULL;
  }
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  nn_free(&a->m);
  free(a->h);
  free(a);
}

static int begin_game(tk_agent_instance *self, const void *info) {
  (void)self, (void)info;
  return 0;
}

/* The legal action of `type` discarding kind k, a plain tile before a red one; -1 if none. */
static int action_of(const tk_riichi_legal *l, int type, int k) {
  int red = -1;
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == type && tk_tile_kind(l->a[i].tile) == k) {
      if (!tk_tile_is_red(l->a[i].tile)) return i;
      if (red < 0) red = i;
    }
  return red;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_riichi_view *v = view;
  const tk_riichi_legal *l = legal;
  int pick = -1;
  for (int i = 0; i < l->n && pick < 0; i++)
    if (l->a[i].type == TK_RIICHI_TSUMO || l->a[i].type == TK_RIICHI_RON) pick = i;
  if (pick < 0) {
    uint8_t riichi[NN_KINDS] = {0}, discard[NN_KINDS] = {0};
    int any_riichi = 0, any_discard = 0;
    for (int i = 0; i < l->n; i++) {
      int k = tk_tile_kind(l->a[i].tile);
      if (l->a[i].type == TK_RIICHI_RIICHI && k < NN_KINDS) riichi[k] = 1, any_riichi = 1;
      if (l->a[i].type == TK_RIICHI_DISCARD && k < NN_KINDS) discard[k] = 1, any_discard = 1;
    }
    if (any_riichi || any_discard) {
      uint16_t x[NN_MAX_ACTIVE];
      double o[NN_KINDS];
      nn_forward(&a->m, x, nn_encode(v, x), a->h, o);
      int k = nn_pick(o, any_riichi ? riichi : discard);
      pick = action_of(l, any_riichi ? TK_RIICHI_RIICHI : TK_RIICHI_DISCARD, k);
    } else {
      for (int i = 0; i < l->n && pick < 0; i++)
        if (l->a[i].type == TK_RIICHI_PASS) pick = i;
    }
  }
  if (pick < 0) pick = tk_riichi_fallback(l);
  *(tk_riichi_action *)action = l->a[pick];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) { (void)self, (void)result; }

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "riichi_nn002",
    .version = "1.0.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "paper 002's 3-layer network discard selector (820 boolean inputs); wins and "
                   "riichi whenever legal, no calls",
    .params_json = "{\"weights\": \"\"}",
    .weights = DEFAULT_WEIGHTS,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(riichi_nn002) { return &descriptor; }
