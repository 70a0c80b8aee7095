/* plugins/riichi_mc/riichi_mc.c — riichi agent "riichi_mc": paper 000's previous program (rmc.h,
 * docs/riichi-mc.md). The one-player policy plays the opening; after it, Monte Carlo over
 * determinisations with the opponent models' fold rule and the EFR reward.
 *
 * Parameters (all optional):
 *   "playouts": simulated hands per Monte Carlo decision (default 1000)
 *   "width", "safe": discard candidates: the policy's best `width` (5) and, against a riichi,
 *       the `safe` (2) least dangerous ones
 *   "fold_shanten": simulated seats facing a riichi fold at this shanten or worse (2)
 *   "playout_filter": true (default): simulated seats score only the moves of least shanten
 *   "opening": true (default): the policy plays until an opening condition holds; false: Monte
 *       Carlo from the first decision
 *   "opening_dealin" (0.02), "opening_defr" (0.01), "opening_tiles" (16): conditions 3, 4, 5
 *   "model_dealin": true (default): a candidate discard's immediate deal-in is valued by the
 *       opponent models; false: by the sampled hands alone
 *   "sampler": the determinisation sampler ("tenpai" by default; every name of rsamp.h:
 *       uniform, tenpai, constrained, weighted, diffusion, ...), "sampler_options" its options (a
 *       JSON object, docs/riichi-samplers.md), "sampler_file" a learned sampler's weights ("" =
 *       its default beside the plugin; the referee records the file's SHA-256 with the run)
 *   "weights": the one-player policy's weights (default riichi_oneplayer.tkw beside the plugin)
 *   "efr", "opp": the EFR model and the opponent models (default riichi_efr.tkw and
 *       riichi_opp.tkw beside the plugin); the referee records their SHA-256 with the run.
 * Determinism: each decision's determinisations come from a generator seeded by the game's seed
 * and the decision's place in the game (round, honba, the hand's plays, the phase), so the same
 * game gives the same moves whatever else the process did. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rmc.h"
#include "rsamp.h"
#include "taikai/agent.h"
#include "taikai/weights.h"
#include "riichi_oneplayer/weights_io.h"

#define DEFAULT_POLICY "riichi_oneplayer.tkw"

typedef struct agent {
  rmc_params p;
  double *policy;
  rm_efr *efr;
  rm_opp *opp;
  char efr_path[4096], opp_path[4096];
  rmc_player pl; /* the game's seed, the opening's state in the current hand */
  rs_sampler *sampler;
} agent;

static void agent_free(agent *a) {
  if (!a) return;
  free(a->policy);
  rm_efr_free(a->efr);
  rm_opp_free(a->opp);
  rs_sampler_close(a->sampler);
  free(a);
}

static int bad_param(json_t *p, tk_error *err, const char *key, json_t *v, const char *why) {
  char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  tk_error_set(err, TK_EINVAL, -1, "riichi_mc: params: \"%s\" = %.60s: %s", key, s ? s : "?", why);
  free(s);
  json_decref(p);
  return TK_EINVAL;
}

static int file_param(const char *given, const char *def, char *out, size_t cap, tk_error *err) {
  if (given && given[0]) {
    snprintf(out, cap, "%s", given);
    return 0;
  }
  if (tk_weights_beside((const void *)file_param, def, out, cap))
    return tk_error_set(err, TK_ENOTFOUND, -1, "riichi_mc: cannot locate %s beside the plugin", def);
  return 0;
}

/* Reads the parameters into a; the file names into the three paths. */
static int parse(agent *a, const char *params_json, char *policy, size_t cap, tk_error *err) {
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p || !json_is_object(p)) {
    tk_error_set(err, TK_EPARSE, -1, "riichi_mc: params: %s", p ? "expected an object" : jerr.text);
    json_decref(p);
    return TK_EPARSE;
  }
  rmc_params *r = &a->p;
  const char *key, *files[3] = {NULL, NULL, NULL};
  json_t *v;
  json_object_foreach(p, key, v) {
    char why[160];
    int rc = rmc_param(r, key, v, why, sizeof why);
    if (rc < 0) return bad_param(p, err, key, v, why);
    if (rc == 0) continue;
    if (!strcmp(key, "weights") || !strcmp(key, "efr") || !strcmp(key, "opp")) {
      if (!json_is_string(v)) return bad_param(p, err, key, v, "must be a file name (a string)");
      files[key[0] == 'w' ? 0 : key[0] == 'e' ? 1 : 2] = json_string_value(v);
    } else {
      return bad_param(p, err, key, v,
                       "unknown field (known: " RMC_PARAM_NAMES ", weights, efr, opp)");
    }
  }
  int e = file_param(files[0], DEFAULT_POLICY, policy, cap, err);
  if (!e) e = file_param(files[1], RM_EFR_DEFAULT_FILE, a->efr_path, sizeof a->efr_path, err);
  if (!e) e = file_param(files[2], RM_OPP_DEFAULT_FILE, a->opp_path, sizeof a->opp_path, err);
  json_decref(p);
  return e;
}

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "riichi_mc: out of memory");
    return NULL;
  }
  a->p = rmc_default_params();
  a->pl.seed = seed;
  char policy[4096];
  if (parse(a, params_json, policy, sizeof policy, err) ||
      rop_weights_load(policy, &a->policy, NULL, err) || rm_efr_load(a->efr_path, &a->efr, err) ||
      rm_opp_load(a->opp_path, &a->opp, err) ||
      rmc_sampler_open(&a->p, "riichi_mc", &a->sampler, err)) {
    agent_free(a);
    return NULL;
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
  rmc_models m = {a->policy, a->efr, a->opp};
  int i = rmc_player_act(&a->pl, &a->p, &m, v, l, NULL);
  if (i < 0) return TK_ESTATE;
  *(tk_riichi_action *)action = l->a[i];
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) { (void)self, (void)result; }

static const char *file(tk_agent_instance *self, int i, const char **role) {
  agent *a = self;
  if (i == 0) {
    *role = "efr";
    return a->efr_path;
  }
  if (i == 1) {
    *role = "opp";
    return a->opp_path;
  }
  if (i == 2 && a->sampler && a->sampler->file[0]) {
    *role = "sampler";
    return a->sampler->file;
  }
  return NULL;
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "riichi_mc",
    .version = "1.0.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "paper 000's previous program: the one-player policy's opening, then Monte "
                   "Carlo over determinisations with opponent models' folding and the expected "
                   "final rank as reward",
    .params_json = "{\"playouts\": 1000, \"width\": 5, \"safe\": 2, \"fold_shanten\": 2, "
                   "\"playout_filter\": true, \"opening\": true, \"opening_dealin\": 0.02, "
                   "\"opening_defr\": 0.01, "
                   "\"opening_tiles\": 16, \"model_dealin\": true, \"sampler\": \"tenpai\", "
                   "\"sampler_options\": {}, \"sampler_file\": \"\", \"weights\": \"\", \"efr\": \"\", \"opp\": \"\"}",
    .weights = DEFAULT_POLICY,
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
    .file = file,
};

TK_AGENT_ENTRY(riichi_mc) { return &descriptor; }
