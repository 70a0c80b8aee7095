/* plugins/daifugo_mcl/mcl.c — daifugo agent "daifugo_mcl", paper 001's proposal [P §3-6]: the
 * plain Monte Carlo decision of daifugo_mc (plugins/daifugo_mc/dmc.h: UCB1 at the root, N
 * playouts, the biased dealing, the exchange by the same machinery) whose playouts draw every
 * player's every move from a learned ranking h (policy.h): the legal moves (the pass included
 * unless the table is new) sorted by h, the i-th drawn with probability ∝ α^(i-1).
 *
 * Parameters: those of daifugo_mc, and
 *   "alpha"   the rank decay, 0..1 [0.6] (0 plays h's argmax, 1 is uniform over the moves);
 *   "learner" "ap" [ap] or "nn";
 *   "weights" a weights file ("" = daifugo_mcl_ap.tkw beside this plugin, the greedy teacher's
 *             AP; the referee passes the path it resolved and hashed);
 *   "hidden"  the NN's hidden units, which its weights file must have [16];
 *   "playout_pass" whether the playouts' rankings include the pass when the table is not new
 *             [true, the paper's proposal]; false passes only when forced, like plain MC's
 *             playouts, so that α 1 is plain MC exactly (the paper's §5.2 says it is).
 * Randomness: re-seeded from tk_daifugo_info.head.seed by begin_game (once per block). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "dmc.h"
#include "policy.h"
#include "taikai/agent.h"
#include "taikai/weights.h"

#define DEFAULT_WEIGHTS "daifugo_mcl_ap.tkw"

typedef struct agent {
  dmc_params p;
  dmcl_policy pol;
  tk_weights w;
  tk_rng rng;
  dmc_stats st; /* the last decision's (too large for the stack of every call) */
} agent;

static const char *const extra[] = {"alpha", "learner", "weights", "hidden", "playout_pass",
                                    NULL};

/* The value as JSON for an error message, cut to fit `buf`. */
static const char *shown(const json_t *v, char *buf, size_t cap) {
  char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  snprintf(buf, cap, "%s", t ? t : "?");
  free(t);
  return buf;
}

/* Reads mcl's own parameters (dmc_params_parse_for checked the rest). */
static int own_params(const char *params_json, double *alpha, int *learner, int *hidden,
                      int *no_pass, char *path, size_t cap, tk_error *err) {
  json_error_t jerr;
  json_t *o = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!o) return tk_error_set(err, TK_EPARSE, jerr.position, "daifugo_mcl: params: %s", jerr.text);
  int rc = 0;
  json_t *v;
  path[0] = 0;
  char got[48];
  if ((v = json_object_get(o, "alpha"))) {
    double x = json_number_value(v);
    if (!json_is_number(v) || !(x >= 0 && x <= 1))
      rc = tk_error_set(err, TK_EINVAL, -1, "daifugo_mcl: params: alpha must be a number from "
                        "0 to 1, got %s", shown(v, got, sizeof got));
    else *alpha = x;
  }
  if (!rc && (v = json_object_get(o, "learner"))) {
    const char *s = json_string_value(v);
    if (s && !strcmp(s, "ap")) *learner = DMCL_AP;
    else if (s && !strcmp(s, "nn")) *learner = DMCL_NN;
    else rc = tk_error_set(err, TK_EINVAL, -1, "daifugo_mcl: params: learner must be \"ap\" or "
                           "\"nn\", got %s", shown(v, got, sizeof got));
  }
  if (!rc && (v = json_object_get(o, "hidden"))) {
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        json_integer_value(v) > DMCL_MAX_HIDDEN)
      rc = tk_error_set(err, TK_EINVAL, -1, "daifugo_mcl: params: hidden must be an integer "
                        "from 1 to %d, got %s", DMCL_MAX_HIDDEN, shown(v, got, sizeof got));
    else *hidden = (int)json_integer_value(v);
  }
  if (!rc && (v = json_object_get(o, "playout_pass"))) {
    if (!json_is_boolean(v))
      rc = tk_error_set(err, TK_EINVAL, -1, "daifugo_mcl: params: playout_pass must be true or "
                        "false, got %s", shown(v, got, sizeof got));
    else *no_pass = !json_is_true(v);
  }
  if (!rc && (v = json_object_get(o, "weights"))) {
    if (!json_is_string(v))
      rc = tk_error_set(err, TK_EINVAL, -1, "daifugo_mcl: params: weights must be a path (a "
                        "string), got %s", shown(v, got, sizeof got));
    else snprintf(path, cap, "%s", json_string_value(v));
  }
  json_decref(o);
  return rc;
}

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  dmc_params p;
  if (dmc_params_parse_for("daifugo_mcl", params_json, extra, &p, err)) return NULL;
  double alpha = 0.6;
  int learner = DMCL_AP, hidden = DMCL_DEFAULT_HIDDEN, no_pass = 0;
  char path[4096];
  if (own_params(params_json, &alpha, &learner, &hidden, &no_pass, path, sizeof path, err))
    return NULL;
  if (!path[0] && tk_weights_beside((const void *)create, DEFAULT_WEIGHTS, path, sizeof path)) {
    tk_error_set(err, TK_ENOTFOUND, -1, "daifugo_mcl: cannot locate %s beside the plugin",
                 DEFAULT_WEIGHTS);
    return NULL;
  }
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "daifugo_mcl: out of memory");
    return NULL;
  }
  uint32_t shape[2] = {DMCL_BP, DMCL_CP};
  if (learner == DMCL_NN) shape[0] = (uint32_t)hidden, shape[1] = DMCL_NN_ROW;
  if (tk_weights_load(path, learner == DMCL_AP ? DMCL_MODEL_AP : DMCL_MODEL_NN,
                      DMCL_FEATURE_VERSION, 2, shape, &a->w, err)) {
    free(a);
    return NULL;
  }
  if (dmcl_model_init(&a->pol.md, learner, hidden, a->w.values)) {
    tk_error_set(err, TK_EINVAL, -1, "daifugo_mcl: weights %s: a weight is not a finite number, "
                 "or out of memory", path);
    tk_weights_free(&a->w);
    free(a);
    return NULL;
  }
  a->p = p;
  a->pol.alpha = alpha;
  a->pol.no_pass = no_pass;
  tk_rng_seed(&a->rng, seed);
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  dmcl_model_free(&a->pol.md);
  tk_weights_free(&a->w);
  free(a);
}

static int begin_game(tk_agent_instance *self, const void *info) {
  agent *a = self;
  const tk_daifugo_info *in = info;
  tk_rng_seed(&a->rng, in->head.seed);
  if (in->sennichite >= 2 && in->sennichite <= 255) a->p.sennichite = (int)in->sennichite;
  return 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_daifugo_legal *l = legal;
  int k = dmc_decide(&a->p, view, l, dmcl_policy_move, &a->pol, &a->rng, &a->st);
  if (k < 0) return l->n == 0 ? TK_ESTATE : TK_EINVAL;
  *(tk_daifugo_move *)action = l->a[k];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "daifugo_mcl",
    .version = "1.1.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo: Monte Carlo with learned playouts (paper 001: moves ranked by an "
                   "averaged perceptron or a network, drawn with probability alpha^rank; default "
                   "weights: the greedy teacher's AP)",
    .params_json = "{\"playouts\": 1500, \"c\": 4, \"exchange_playouts\": 1500, "
                   "\"win_shortcut\": true, \"bias\": true, \"bias_self\": \"skip_share\", "
                   "\"bias_order\": \"normal\", \"bias_overflow\": \"cap\", "
                   "\"exchange_pair\": \"top2\", \"alpha\": 0.6, \"learner\": \"ap\", "
                   "\"weights\": \"\", \"hidden\": 16, \"playout_pass\": true}",
    .weights = DEFAULT_WEIGHTS,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(daifugo_mcl) { return &descriptor; }
