/* plugins/riichi_oneplayer/riichi_oneplayer.c — riichi agent "riichi_oneplayer": paper 000's
 * one-player mahjong policy. Every candidate move of a decision is scored w·φ(hand after it)
 * with the features of tables 2 and 3 (features.c) and the best is played; wins are taken and
 * riichi declared whenever legal (policy.c, rop_decide, states the candidates and the ties).
 * After a chi or pon the discards compete again at the next decision, so the planned discard is
 * played. It ignores the opponents. Deterministic: no randomness, no state between decisions.
 *
 * Parameters: "weights": a weights file (weights_io.h: the nonzero weights as (index, value)
 * rows); "" = the default, riichi_oneplayer.tkw beside this plugin (the referee passes the path
 * it resolved and hashed). The file is loaded into a dense vector of ROF_FEATURES doubles
 * (67 MB) once per instance; the referee makes one instance per agent and process. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "policy.h"
#include "taikai/agent.h"
#include "taikai/weights.h"
#include "weights_io.h"

#define DEFAULT_WEIGHTS "riichi_oneplayer.tkw"

typedef struct agent {
  double *w; /* ROF_FEATURES weights */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  (void)seed;
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p || !json_is_object(p)) {
    tk_error_set(err, TK_EPARSE, -1, "riichi_oneplayer: params: %s",
                 p ? "expected an object" : jerr.text);
    json_decref(p);
    return NULL;
  }
  const char *key;
  json_t *v;
  json_object_foreach(p, key, v) {
    if (!strcmp(key, "weights") && json_is_string(v)) continue;
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (strcmp(key, "weights"))
      tk_error_set(err, TK_EINVAL, -1, "riichi_oneplayer: params: unknown field \"%s\" = %s "
                   "(known: weights)", key, s ? s : "?");
    else
      tk_error_set(err, TK_EINVAL, -1, "riichi_oneplayer: params: \"weights\" must be a file "
                   "name (a string), got %s", s ? s : "?");
    free(s);
    json_decref(p);
    return NULL;
  }
  char path[4096];
  const char *given = json_string_value(json_object_get(p, "weights"));
  if (given && given[0]) {
    snprintf(path, sizeof path, "%s", given);
  } else if (tk_weights_beside((const void *)create, DEFAULT_WEIGHTS, path, sizeof path)) {
    tk_error_set(err, TK_ENOTFOUND, -1, "riichi_oneplayer: cannot locate %s beside the plugin",
                 DEFAULT_WEIGHTS);
    json_decref(p);
    return NULL;
  }
  json_decref(p);
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "riichi_oneplayer: out of memory");
    return NULL;
  }
  if (rop_weights_load(path, &a->w, NULL, err)) {
    free(a);
    return NULL;
  }
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  free(a->w);
  free(a);
}

static int begin_game(tk_agent_instance *self, const void *info) {
  (void)self, (void)info;
  return 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const agent *a = self;
  const tk_riichi_legal *l = legal;
  rop_choice c;
  if (rop_decide(view, l, a->w, &c, NULL) || c.action < 0 || c.action >= l->n) return TK_ESTATE;
  *(tk_riichi_action *)action = l->a[c.action];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) { (void)self, (void)result; }

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "riichi_oneplayer",
    .version = "1.0.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "paper 000's one-player policy: candidates scored by a linear model over the "
                   "features of tables 2 and 3 (averaged perceptron on a teacher's records); "
                   "wins and riichi whenever legal",
    .params_json = "{\"weights\": \"\"}",
    .weights = DEFAULT_WEIGHTS,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(riichi_oneplayer) { return &descriptor; }
