/* plugins/solo_linear/solo_linear.c — a linear discard scorer for one-player mahjong, learned by
 * averaged perceptron from the decisions of a teacher (greedy by default; train.c). Each legal
 * discard is scored by the weights of its features (features.c); the best is played (ties: the
 * lowest kind). Deterministic: no randomness at all.
 *
 * Parameters: "weights": a weights file ("" = the default, solo_linear.tkw beside this plugin;
 * the referee passes the path it resolved and hashed). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "features.h"
#include "taikai/agent.h"
#include "taikai/weights.h"

#define DEFAULT_WEIGHTS "solo_linear.tkw"

typedef struct agent {
  tk_weights w;
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p) {
    tk_error_set(err, TK_EPARSE, jerr.position, "solo_linear: params: %s", jerr.text);
    return NULL;
  }
  char path[4096];
  const char *given = json_string_value(json_object_get(p, "weights"));
  if (given && given[0]) {
    snprintf(path, sizeof path, "%s", given);
  } else if (tk_weights_beside((const void *)create, DEFAULT_WEIGHTS, path, sizeof path)) {
    tk_error_set(err, TK_ENOTFOUND, -1, "solo_linear: cannot locate %s beside the plugin",
                 DEFAULT_WEIGHTS);
    json_decref(p);
    return NULL;
  }
  json_decref(p);
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "solo_linear: out of memory");
    return NULL;
  }
  const uint32_t shape[1] = {SL_FEATURES};
  if (tk_weights_load(path, SL_MODEL, SL_FEATURE_VERSION, 1, shape, &a->w, err)) {
    free(a);
    return NULL;
  }
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  tk_weights_free(&a->w);
  free(a);
}

static int begin_game(tk_agent_instance *self, const void *info) { return 0; }

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const agent *a = self;
  int k = sl_best(a->w.values, view, legal);
  if (k < 0) return TK_ESTATE;
  ((tk_solo_action *)action)->discard = (uint8_t)k;
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "solo_linear",
    .version = "1.0.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "linear discard scorer learned by averaged perceptron from a teacher's "
                   "records (default weights: greedy's)",
    .params_json = "{\"weights\": \"\"}",
    .weights = DEFAULT_WEIGHTS,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(solo_linear) { return &descriptor; }
