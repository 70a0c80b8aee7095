/* plugins/riichi_mcp/riichi_mcp.c — riichi agents "riichi_mcp" and "riichi_bcp": paper 000's
 * target mode (§5.3, table 5) over a han predictor. Every decision, calls included, plays the
 * candidate that maximises the predicted probability of winning this hand with at least `target`
 * han; wins are taken and riichi declared whenever legal (target.h, mct_decide, states the
 * candidates and the ties). The same source builds both plugins: RIICHI_BCP selects BCP's four
 * logistic regressions, else MCP's 5-class softmax. Deterministic: no randomness, no state
 * between decisions.
 *
 * Parameters: "target": 1..4 (default 1, any win); "weights": a weights file of riichi_mcp_train
 * for this plugin's model; "" = the default, riichi_mcp.tkw (riichi_bcp.tkw) beside the plugin.
 * The model is held dense, K × 8,442,547 doubles (338 MB for MCP, 270 MB for BCP) per instance;
 * pages of features no weight file row touches stay untouched. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "taikai/agent.h"
#include "taikai/weights.h"
#include "target.h"

#ifdef RIICHI_BCP
#define NAME "riichi_bcp"
#define KIND MCM_BCP
#define DESCRIPTION                                                                               \
  "paper 000's BCP target mode: each candidate scored by P(win with >= target han) from four "  \
  "logistic regressions over the one-player policy's features; wins and riichi whenever legal"
#else
#define NAME "riichi_mcp"
#define KIND MCM_MCP
#define DESCRIPTION                                                                               \
  "paper 000's MCP target mode: each candidate scored by P(win with >= target han) from a "     \
  "5-class softmax over the one-player policy's features; wins and riichi whenever legal"
#endif
#define DEFAULT_WEIGHTS NAME ".tkw"

typedef struct agent {
  mcm_model m;
  int target;
} agent;

static tk_agent_instance *fail(json_t *p, tk_error *err, const char *field, json_t *v,
                               const char *want) {
  char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  tk_error_set(err, TK_EINVAL, -1, NAME ": params: \"%s\" = %s: %s", field, s ? s : "?", want);
  free(s);
  json_decref(p);
  return NULL;
}

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  (void)seed;
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p || !json_is_object(p)) {
    tk_error_set(err, TK_EPARSE, -1, NAME ": params: %s", p ? "expected an object" : jerr.text);
    json_decref(p);
    return NULL;
  }
  int target = 1;
  const char *given = NULL;
  const char *key;
  json_t *v;
  json_object_foreach(p, key, v) {
    if (!strcmp(key, "weights")) {
      if (!json_is_string(v)) return fail(p, err, key, v, "must be a file name (a string)");
      given = json_string_value(v);
    } else if (!strcmp(key, "target")) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 4)
        return fail(p, err, key, v, "must be a whole number of han, 1 to 4 (4: four or more)");
      target = (int)json_integer_value(v);
    } else {
      return fail(p, err, key, v, "unknown field (known: target, weights)");
    }
  }
  char path[4096];
  if (given && given[0]) {
    snprintf(path, sizeof path, "%s", given);
  } else if (tk_weights_beside((const void *)create, DEFAULT_WEIGHTS, path, sizeof path)) {
    tk_error_set(err, TK_ENOTFOUND, -1, NAME ": cannot locate %s beside the plugin",
                 DEFAULT_WEIGHTS);
    json_decref(p);
    return NULL;
  }
  json_decref(p);
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, NAME ": out of memory");
    return NULL;
  }
  if (mcm_load(path, KIND, &a->m, err)) {
    free(a);
    return NULL;
  }
  a->target = target;
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  mcm_free(&a->m);
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
  if (mct_decide(view, l, &a->m, a->target, &c, NULL) || c.action < 0 || c.action >= l->n)
    return TK_ESTATE;
  *(tk_riichi_action *)action = l->a[c.action];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) { (void)self, (void)result; }

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = NAME,
    .version = "1.0.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = DESCRIPTION,
    .params_json = "{\"target\": 1, \"weights\": \"\"}",
    .weights = DEFAULT_WEIGHTS,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

#ifdef RIICHI_BCP
TK_AGENT_ENTRY(riichi_bcp) { return &descriptor; }
#else
TK_AGENT_ENTRY(riichi_mcp) { return &descriptor; }
#endif
