/* plugins/riichi_mcp/riichi_mcp.c — riichi agents "riichi_mcp" and "riichi_bcp": paper 000's
 * han predictors MCP and BCP as players, in two modes.
 *
 * "mode": "target" (default): table 5's target mode (§5.3). Every decision, calls included,
 *   plays the candidate that maximises the predicted probability of winning this hand with at
 *   least `target` han; wins are taken and riichi declared whenever legal (target.h, mct_decide,
 *   states the candidates and the ties). Deterministic, no state between decisions.
 * "mode": "efr": tables 6-7's program (§5.4-5.5; docs/riichi-table-6-7.md). riichi_mc (paper
 *   000's previous program, plugins/riichi_mc/rmc.h) with its opening replaced: until one of the
 *   five opening conditions holds (the same as riichi_mc's, judged on the one-player policy's
 *   move), the move minimising Score(x) over the han model (efr_mode.h), or with "plies" >= 2 the
 *   one-player search with Score at its leaves; after the opening, riichi_mc's Monte Carlo.
 *
 * The same source builds both plugins: RIICHI_BCP selects BCP's four logistic regressions, else
 * MCP's 5-class softmax.
 *
 * Parameters:
 *   "mode": "target" or "efr"
 *   "weights": the han model (riichi_mcp_train's file for this plugin's model; "" = the default,
 *       riichi_mcp.tkw / riichi_bcp.tkw beside the plugin)
 *   "target": 1..4 (target mode: the han to reach; default 1, any win)
 * efr mode only (a value other than its default in target mode is refused):
 *   "penalty": "none", "self-play", "teacher" or "human" (default): Penalty(z)'s table,
 *       riichi_penalty_<name>.tkw beside the plugin; "none" is the naive penalty (score.h)
 *   "penalty_file": a table to use instead ("" = by "penalty")
 *   "bcp": "clamped" (default) or "literal": BCP's class probabilities (riichi_bcp only)
 *   "plies": 1 (default) .. 4: own discards on each line of the opening's search (1: none)
 *   "search_width": discards expanded at each choice of the search (3)
 *   "policy", "efr", "opp": the one-player policy, EFR model and opponent models ("" = the
 *       defaults beside the plugin, as riichi_mc's "weights", "efr", "opp")
 *   and every parameter of riichi_mc (playouts, width, safe, fold_shanten, playout_filter,
 *   opening, opening_dealin, opening_defr, opening_tiles, model_dealin, sampler), with its
 *   defaults.
 * The model is held dense, K × 8,442,547 doubles (338 MB for MCP, 270 MB for BCP) per instance;
 * pages of features no weight file row touches stay untouched. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "efr_mode.h"
#include "rmc.h"
#include "rsamp.h"
#include "riichi_oneplayer/weights_io.h"
#include "taikai/agent.h"
#include "taikai/weights.h"
#include "target.h"

#ifdef RIICHI_BCP
#define NAME "riichi_bcp"
#define KIND MCM_BCP
#define DESCRIPTION                                                                               \
  "paper 000's BCP: target mode (table 5: P(win with >= target han) from four logistic "        \
  "regressions) or efr mode (tables 6-7: Score(x) opening, then riichi_mc)"
#else
#define NAME "riichi_mcp"
#define KIND MCM_MCP
#define DESCRIPTION                                                                               \
  "paper 000's MCP: target mode (table 5: P(win with >= target han) from a 5-class softmax) "   \
  "or efr mode (tables 6-7: Score(x) opening, then riichi_mc)"
#endif
#define DEFAULT_WEIGHTS NAME ".tkw"
#define DEFAULT_POLICY "riichi_oneplayer.tkw"

/* Every parameter with its default; the keys after "target" belong to the efr mode. */
#define PARAMS                                                                                    \
  "{\"mode\": \"target\", \"weights\": \"\", \"target\": 1, \"penalty\": \"human\", "           \
  "\"penalty_file\": \"\", \"bcp\": \"clamped\", \"plies\": 1, \"search_width\": 3, "            \
  "\"policy\": \"\", \"efr\": \"\", \"opp\": \"\", \"playouts\": 1000, \"width\": 5, "           \
  "\"safe\": 2, \"fold_shanten\": 2, \"playout_filter\": true, \"opening\": true, "             \
  "\"opening_dealin\": 0.02, \"opening_defr\": 0.01, \"opening_tiles\": 16, "                   \
  "\"model_dealin\": true, \"sampler\": \"tenpai\", \"sampler_options\": {}, "            \
  "\"sampler_file\": \"\"}"

typedef struct agent {
  mcm_model m;
  int target, efr_mode;
  /* efr mode */
  rmc_params rp;
  rs_sampler *sampler;
  double *policy;
  rm_efr *efr;
  rm_opp *opp;
  rs_penalty pen;
  int has_pen;
  mce_ctx ce;
  char policy_path[4096], efr_path[4096], opp_path[4096], pen_path[4096];
  rmc_player pl; /* the game's seed, the opening's state in the current hand */
} agent;

static void agent_free(agent *a) {
  if (!a) return;
  mcm_free(&a->m);
  free(a->policy);
  rm_efr_free(a->efr);
  rm_opp_free(a->opp);
  rs_penalty_free(&a->pen);
  rs_sampler_close(a->sampler);
  free(a);
}

static int bad(json_t *p, tk_error *err, const char *field, json_t *v, const char *want) {
  char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  tk_error_set(err, TK_EINVAL, -1, NAME ": params: \"%s\" = %.60s: %s", field, s ? s : "?", want);
  free(s);
  json_decref(p);
  return TK_EINVAL;
}

/* `given`, else `def` beside the plugin. */
static int file_of(const char *given, const char *def, char *out, size_t cap, tk_error *err) {
  if (given && given[0]) {
    snprintf(out, cap, "%s", given);
    return 0;
  }
  if (tk_weights_beside((const void *)file_of, def, out, cap))
    return tk_error_set(err, TK_ENOTFOUND, -1, NAME ": cannot locate %s beside the plugin", def);
  return 0;
}

static int parse(agent *a, const char *params_json, char *weights, size_t cap, tk_error *err) {
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p || !json_is_object(p)) {
    tk_error_set(err, TK_EPARSE, -1, NAME ": params: %s", p ? "expected an object" : jerr.text);
    json_decref(p);
    return TK_EPARSE;
  }
  json_t *defaults = json_loads(PARAMS, 0, NULL);
  json_t *mode = json_object_get(p, "mode");
  if (mode && (!json_is_string(mode) || (strcmp(json_string_value(mode), "target") &&
                                         strcmp(json_string_value(mode), "efr")))) {
    json_decref(defaults);
    return bad(p, err, "mode", mode, "must be \"target\" or \"efr\"");
  }
  a->efr_mode = mode && !strcmp(json_string_value(mode), "efr");
  a->target = 1;
  a->rp = rmc_default_params();
  a->ce.p = (mce_params){.kind = KIND == MCM_MCP ? RS_MCP : RS_BCP_CLAMPED, .plies = 1,
                         .width = 3, .fu = 30};
  const char *penalty = "human", *files[5] = {NULL, NULL, NULL, NULL, NULL};
  const char *key;
  json_t *v;
  json_object_foreach(p, key, v) {
    /* a key of the other mode set away from its default */
    json_t *d = json_object_get(defaults, key);
    int shared = !strcmp(key, "mode") || !strcmp(key, "weights");
    int efr_key = strcmp(key, "target") != 0;
    if (d && !shared && !json_equal(d, v) && efr_key != a->efr_mode) {
      json_decref(defaults);
      return bad(p, err, key, v,
                 a->efr_mode ? "applies to the target mode only (\"mode\": \"target\")"
                             : "applies to the efr mode only (set \"mode\": \"efr\")");
    }
    char why[160];
    int rc = rmc_param(&a->rp, key, v, why, sizeof why);
    if (rc < 0) {
      json_decref(defaults);
      return bad(p, err, key, v, why);
    }
    if (rc == 0 || !strcmp(key, "mode")) continue;
    const char *bad_why = NULL;
    if (!strcmp(key, "target")) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 4)
        bad_why = "must be a whole number of han, 1 to 4 (4: four or more)";
      else a->target = (int)json_integer_value(v);
    } else if (!strcmp(key, "penalty")) {
      const char *s = json_is_string(v) ? json_string_value(v) : "";
      if (strcmp(s, "none") && strcmp(s, "self-play") && strcmp(s, "teacher") && strcmp(s, "human"))
        bad_why = "must be \"none\", \"self-play\", \"teacher\" or \"human\"";
      else penalty = s;
    } else if (!strcmp(key, "bcp")) {
      const char *s = json_is_string(v) ? json_string_value(v) : "";
      if (KIND != MCM_BCP && json_is_string(v) && !strcmp(s, "clamped")) continue;
      if (KIND != MCM_BCP) bad_why = "applies to riichi_bcp only";
      else if (!strcmp(s, "clamped")) a->ce.p.kind = RS_BCP_CLAMPED;
      else if (!strcmp(s, "literal")) a->ce.p.kind = RS_BCP_LITERAL;
      else bad_why = "must be \"clamped\" or \"literal\"";
    } else if (!strcmp(key, "plies")) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 4)
        bad_why = "must be a whole number of own discards, 1 to 4";
      else a->ce.p.plies = (int)json_integer_value(v);
    } else if (!strcmp(key, "search_width")) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 14)
        bad_why = "must be a whole number of discards, 1 to 14";
      else a->ce.p.width = (int)json_integer_value(v);
    } else if (!strcmp(key, "weights") || !strcmp(key, "policy") || !strcmp(key, "efr") ||
               !strcmp(key, "opp") || !strcmp(key, "penalty_file")) {
      if (!json_is_string(v)) bad_why = "must be a file name (a string)";
      else files[!strcmp(key, "weights") ? 0 : !strcmp(key, "policy") ? 1
                 : !strcmp(key, "efr")   ? 2 : !strcmp(key, "opp") ? 3 : 4] = json_string_value(v);
    } else {
      bad_why = "unknown field (known: mode, weights, target, penalty, penalty_file, bcp, plies, "
                "search_width, policy, efr, opp, " RMC_PARAM_NAMES ")";
    }
    if (bad_why) {
      json_decref(defaults);
      return bad(p, err, key, v, bad_why);
    }
  }
  json_decref(defaults);
  int e = file_of(files[0], DEFAULT_WEIGHTS, weights, cap, err);
  if (!e && a->efr_mode) {
    e = file_of(files[1], DEFAULT_POLICY, a->policy_path, sizeof a->policy_path, err);
    if (!e) e = file_of(files[2], RM_EFR_DEFAULT_FILE, a->efr_path, sizeof a->efr_path, err);
    if (!e) e = file_of(files[3], RM_OPP_DEFAULT_FILE, a->opp_path, sizeof a->opp_path, err);
    a->has_pen = (files[4] && files[4][0]) || strcmp(penalty, "none");
    if (!e && a->has_pen) {
      char def[64];
      snprintf(def, sizeof def, "riichi_penalty_%s.tkw", penalty);
      e = file_of(files[4], def, a->pen_path, sizeof a->pen_path, err);
    }
  }
  json_decref(p);
  return e;
}

static int opening(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                   int policy_action, int *action, tk_error *err) {
  (void)policy_action;
  return mce_decide(ctx, v, l, action, NULL, err);
}

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, NAME ": out of memory");
    return NULL;
  }
  a->pl.seed = seed;
  char path[4096];
  if (parse(a, params_json, path, sizeof path, err) || mcm_load(path, KIND, &a->m, err)) {
    agent_free(a);
    return NULL;
  }
  if (a->efr_mode) {
    if (rop_weights_load(a->policy_path, &a->policy, NULL, err) ||
        rm_efr_load(a->efr_path, &a->efr, err) || rm_opp_load(a->opp_path, &a->opp, err) ||
        (a->has_pen && rs_penalty_load(a->pen_path, &a->pen, err)) ||
        rmc_sampler_open(&a->rp, NAME, &a->sampler, err)) {
      agent_free(a);
      return NULL;
    }
    a->ce.han = &a->m;
    a->ce.efr = a->efr;
    a->ce.pen = a->has_pen ? &a->pen : NULL;
    a->rp.opening_move = opening;
    a->rp.opening_ctx = &a->ce;
  }
  return a;
}

static void destroy(tk_agent_instance *self) { agent_free(self); }

static int begin_game(tk_agent_instance *self, const void *info) {
  agent *a = self;
  const tk_riichi_info *in = info;
  rmc_player_begin(&a->pl, in->head.seed);
  return 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_riichi_view *v = view;
  const tk_riichi_legal *l = legal;
  if (!a->efr_mode) {
    rop_choice c;
    if (mct_decide(v, l, &a->m, a->target, &c, NULL) || c.action < 0 || c.action >= l->n)
      return TK_ESTATE;
    *(tk_riichi_action *)action = l->a[c.action];
    return 0;
  }
  rmc_models m = {a->policy, a->efr, a->opp};
  int i = rmc_player_act(&a->pl, &a->rp, &m, v, l, NULL);
  if (i < 0) return TK_ESTATE;
  *(tk_riichi_action *)action = l->a[i];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) { (void)self, (void)result; }

static const char *file(tk_agent_instance *self, int i, const char **role) {
  agent *a = self;
  if (!a->efr_mode) return NULL;
  const char *roles[5] = {"policy", "efr", "opp"}, *paths[5] = {a->policy_path, a->efr_path,
                                                                a->opp_path};
  int n = 3;
  if (a->has_pen) roles[n] = "penalty", paths[n++] = a->pen_path;
  if (a->sampler && a->sampler->file[0]) roles[n] = "sampler", paths[n++] = a->sampler->file;
  if (i < 0 || i >= n) return NULL;
  *role = roles[i];
  return paths[i];
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = NAME,
    .version = "1.1.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = DESCRIPTION,
    .params_json = PARAMS,
    .weights = DEFAULT_WEIGHTS,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
    .file = file,
};

#ifdef RIICHI_BCP
TK_AGENT_ENTRY(riichi_bcp) { return &descriptor; }
#else
TK_AGENT_ENTRY(riichi_mcp) { return &descriptor; }
#endif
