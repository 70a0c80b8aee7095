/* plugins/solo_search/mc_common.c — parameters, argmax and unseen tiles shared by the Monte
 * Carlo plugins (mc_common.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "mc_common.h"

/* The messages below spell the limits out. */
_Static_assert(TK__MC_MAX_PLAYOUTS == 10000000 && TK__MC_MAX_EXTRA_DRAWS == 4,
               "update the limits in tk__mc_parse's messages");

int tk__mc_parse(const char *name, const char *params_json, int with_alpha, tk__mc_params *out,
                 tk_error *err) {
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p) return tk_error_set(err, TK_EPARSE, jerr.position, "%s: params: %s", name, jerr.text);
  int rc = 0;
  *out = (tk__mc_params){.playouts = 1000, .tie_break = TK__TIE_FIRST,
                         .sample_from = TK__SAMPLE_UNSEEN, .alpha_milli = 800};
  if (!json_is_object(p)) {
    rc = tk_error_set(err, TK_EINVAL, -1, "%s: params must be a JSON object", name);
    goto done;
  }
  const char *key;
  json_t *v;
  json_object_foreach(p, key, v) {
    const char *want = NULL; /* what `key` must be, when `v` is not that */
    if (!strcmp(key, "playouts")) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 ||
          json_integer_value(v) > TK__MC_MAX_PLAYOUTS)
        want = "an integer from 1 to 10000000";
      else out->playouts = (int)json_integer_value(v);
    } else if (!strcmp(key, "tie_break")) {
      const char *s = json_string_value(v);
      if (s && !strcmp(s, "first")) out->tie_break = TK__TIE_FIRST;
      else if (s && !strcmp(s, "random")) out->tie_break = TK__TIE_RANDOM;
      else want = "\"first\" or \"random\"";
    } else if (!strcmp(key, "sample_from")) {
      const char *s = json_string_value(v);
      if (s && !strcmp(s, "unseen")) out->sample_from = TK__SAMPLE_UNSEEN;
      else if (s && !strcmp(s, "not_held")) out->sample_from = TK__SAMPLE_NOT_HELD;
      else want = "\"unseen\" or \"not_held\"";
    } else if (!strcmp(key, "extra_draws")) {
      if (!json_is_integer(v) || json_integer_value(v) < 0 ||
          json_integer_value(v) > TK__MC_MAX_EXTRA_DRAWS)
        want = "an integer from 0 to 4";
      else out->extra_draws = (int)json_integer_value(v);
    } else if (with_alpha && !strcmp(key, "alpha")) {
      double x = json_number_value(v);
      double m = x * 1000;
      if (!json_is_number(v) || !(x >= 0 && x <= 1) || fabs(m - floor(m + 0.5)) > 1e-6)
        want = "a number from 0 to 1 in steps of 0.001";
      else out->alpha_milli = (int)floor(m + 0.5);
    } else if (with_alpha && !strcmp(key, "prefer_points")) {
      if (!json_is_boolean(v)) want = "true or false";
      else out->prefer_points = json_is_true(v);
    } else {
      rc = tk_error_set(err, TK_EINVAL, -1, "%s: unknown parameter '%s'", name, key);
      goto done;
    }
    if (want) {
      char *got = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
      rc = tk_error_set(err, TK_EINVAL, -1, "%s: %s must be %s, got %.60s", name, key, want,
                        got ? got : "?");
      free(got);
      goto done;
    }
  }
done:
  json_decref(p);
  return rc;
}

int tk__mc_argmax(const int64_t *value, const tk_solo_legal *legal, int tie_break, tk_rng *rng) {
  int best = -1, ntied = 0;
  uint8_t tied[TK_KINDS];
  for (int i = 0; i < legal->n; i++) {
    int k = legal->kinds[i];
    if (best < 0 || value[k] > value[best]) {
      best = k;
      ntied = 0;
    }
    if (value[k] == value[best]) tied[ntied++] = (uint8_t)k;
  }
  if (tie_break == TK__TIE_RANDOM && ntied > 1) best = tied[tk_rng_below(rng, (uint32_t)ntied)];
  return best;
}

int tk__mc_unseen_tiles(const tk_solo_view *v, int sample_from, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++) {
    int m = sample_from == TK__SAMPLE_NOT_HELD ? 4 - v->hand[k] : v->unseen[k];
    for (int i = 0; i < m && n < TK_SOLO_WALL_TILES; i++) out[n++] = (uint8_t)k;
  }
  return n;
}
