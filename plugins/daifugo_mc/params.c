/* plugins/daifugo_mc/params.c — the Monte Carlo core's parameters: defaults and the JSON parser
 * shared by daifugo_mc and daifugo_mcl (dmc.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "dmc.h"

/* The messages below spell the limits out. */
_Static_assert(DMC_MAX_PLAYOUTS == 10000000, "update the limits in dmc_params_parse's messages");

dmc_params dmc_default_params(void) {
  return (dmc_params){.playouts = 1500,
                      .c = 4.0,
                      .exchange_playouts = 1500,
                      .win_shortcut = 1,
                      .bias = 1,
                      .bias_self = DMC_SELF_SKIP_SHARE,
                      .bias_order = DMC_ORDER_NORMAL,
                      .bias_overflow = DMC_OVERFLOW_CAP,
                      .exchange_pair = DMC_PAIR_TOP2,
                      .sennichite = 20};
}

/* One of two words: sets *out to 0 for `a`, 1 for `b`; returns 0, or -1 if `v` is neither. */
static int two_words(json_t *v, const char *a, const char *b, int *out) {
  const char *s = json_string_value(v);
  if (s && !strcmp(s, a)) return *out = 0, 0;
  if (s && !strcmp(s, b)) return *out = 1, 0;
  return -1;
}

static int playouts_value(json_t *v, int *out) {
  if (!json_is_integer(v) || json_integer_value(v) < 1 ||
      json_integer_value(v) > DMC_MAX_PLAYOUTS)
    return -1;
  *out = (int)json_integer_value(v);
  return 0;
}

int dmc_params_parse_for(const char *who, const char *params_json, const char *const *extra,
                         dmc_params *p, tk_error *err) {
  json_error_t jerr;
  json_t *root = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!root) return tk_error_set(err, TK_EPARSE, jerr.position, "%s: params: %s", who, jerr.text);
  int rc = 0;
  *p = dmc_default_params();
  if (!json_is_object(root)) {
    rc = tk_error_set(err, TK_EINVAL, -1, "%s: params must be a JSON object", who);
    goto done;
  }
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    const char *want = NULL; /* what `key` must be, when `v` is not that */
    if (!strcmp(key, "playouts")) {
      if (playouts_value(v, &p->playouts)) want = "an integer from 1 to 10000000";
    } else if (!strcmp(key, "exchange_playouts")) {
      if (playouts_value(v, &p->exchange_playouts)) want = "an integer from 1 to 10000000";
    } else if (!strcmp(key, "c")) {
      double x = json_number_value(v);
      if (!json_is_number(v) || !(x >= 0 && x <= 1000)) want = "a number from 0 to 1000";
      else p->c = x;
    } else if (!strcmp(key, "win_shortcut")) {
      if (!json_is_boolean(v)) want = "true or false";
      else p->win_shortcut = json_is_true(v);
    } else if (!strcmp(key, "bias")) {
      if (!json_is_boolean(v)) want = "true or false";
      else p->bias = json_is_true(v);
    } else if (!strcmp(key, "bias_self")) {
      if (two_words(v, "skip_share", "skip_all", &p->bias_self))
        want = "\"skip_share\" or \"skip_all\"";
    } else if (!strcmp(key, "bias_order")) {
      if (two_words(v, "normal", "current", &p->bias_order)) want = "\"normal\" or \"current\"";
    } else if (!strcmp(key, "bias_overflow")) {
      if (two_words(v, "cap", "spill", &p->bias_overflow)) want = "\"cap\" or \"spill\"";
    } else if (!strcmp(key, "exchange_pair")) {
      if (two_words(v, "top2", "sequential", &p->exchange_pair))
        want = "\"top2\" or \"sequential\"";
    } else {
      int known = 0;
      for (const char *const *e = extra; e && *e && !known; e++) known = !strcmp(*e, key);
      if (!known) {
        rc = tk_error_set(err, TK_EINVAL, -1, "%s: unknown parameter '%s'", who, key);
        goto done;
      }
    }
    if (want) {
      char *got = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
      rc = tk_error_set(err, TK_EINVAL, -1, "%s: params: %s must be %s, got %.60s", who, key,
                        want, got ? got : "?");
      free(got);
      goto done;
    }
  }
done:
  json_decref(root);
  return rc;
}

int dmc_params_parse(const char *params_json, dmc_params *p, tk_error *err) {
  return dmc_params_parse_for("daifugo_mc", params_json, NULL, p, err);
}

void dmc_begin_game(dmc_params *p, tk_rng *r, const tk_daifugo_info *in) {
  tk_rng_seed(r, in->head.seed);
  if (in->sennichite >= 2 && in->sennichite <= 255) p->sennichite = (int)in->sennichite;
}
