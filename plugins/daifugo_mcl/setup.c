/* plugins/daifugo_mcl/setup.c — dmcl_setup (setup.h). */
#include "setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

const char *const dmcl_setup_names[] = {"alpha", "learner", "weights", "hidden", "playout_pass",
                                        NULL};

/* The value as JSON for an error message, cut to fit `buf`. */
static const char *shown(const json_t *v, char *buf, size_t cap) {
  char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  snprintf(buf, cap, "%s", t ? t : "?");
  free(t);
  return buf;
}

static int own_params(const char *who, const char *params_json, double *alpha, int *learner,
                      int *hidden, int *no_pass, char *path, size_t cap, tk_error *err) {
  json_error_t jerr;
  json_t *o = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!o) return tk_error_set(err, TK_EPARSE, jerr.position, "%s: params: %s", who, jerr.text);
  int rc = 0;
  json_t *v;
  path[0] = 0;
  char got[48];
  if ((v = json_object_get(o, "alpha"))) {
    double x = json_number_value(v);
    if (!json_is_number(v) || !(x >= 0 && x <= 1))
      rc = tk_error_set(err, TK_EINVAL, -1, "%s: params: alpha must be a number from 0 to 1, "
                        "got %s", who, shown(v, got, sizeof got));
    else *alpha = x;
  }
  if (!rc && (v = json_object_get(o, "learner"))) {
    const char *s = json_string_value(v);
    if (s && !strcmp(s, "ap")) *learner = DMCL_AP;
    else if (s && !strcmp(s, "nn")) *learner = DMCL_NN;
    else rc = tk_error_set(err, TK_EINVAL, -1, "%s: params: learner must be \"ap\" or \"nn\", "
                           "got %s", who, shown(v, got, sizeof got));
  }
  if (!rc && (v = json_object_get(o, "hidden"))) {
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        json_integer_value(v) > DMCL_MAX_HIDDEN)
      rc = tk_error_set(err, TK_EINVAL, -1, "%s: params: hidden must be an integer from 1 to "
                        "%d, got %s", who, DMCL_MAX_HIDDEN, shown(v, got, sizeof got));
    else *hidden = (int)json_integer_value(v);
  }
  if (!rc && (v = json_object_get(o, "playout_pass"))) {
    if (!json_is_boolean(v))
      rc = tk_error_set(err, TK_EINVAL, -1, "%s: params: playout_pass must be true or false, "
                        "got %s", who, shown(v, got, sizeof got));
    else *no_pass = !json_is_true(v);
  }
  if (!rc && (v = json_object_get(o, "weights"))) {
    if (!json_is_string(v))
      rc = tk_error_set(err, TK_EINVAL, -1, "%s: params: weights must be a path (a string), "
                        "got %s", who, shown(v, got, sizeof got));
    else snprintf(path, cap, "%s", json_string_value(v));
  }
  json_decref(o);
  return rc;
}

int dmcl_setup(const char *who, const char *params_json, const char *default_weights,
               const void *anchor, dmcl_policy *pol, tk_weights *w, tk_error *err) {
  double alpha = 0.6;
  int learner = DMCL_AP, hidden = DMCL_DEFAULT_HIDDEN, no_pass = 0;
  char path[4096];
  memset(pol, 0, sizeof *pol);
  memset(w, 0, sizeof *w);
  int rc = own_params(who, params_json, &alpha, &learner, &hidden, &no_pass, path, sizeof path,
                      err);
  if (rc) return rc;
  if (!path[0] && tk_weights_beside(anchor, default_weights, path, sizeof path))
    return tk_error_set(err, TK_ENOTFOUND, -1, "%s: cannot locate %s beside the plugin", who,
                        default_weights);
  uint32_t shape[2] = {DMCL_BP, DMCL_CP};
  if (learner == DMCL_NN) shape[0] = (uint32_t)hidden, shape[1] = DMCL_NN_ROW;
  rc = tk_weights_load(path, learner == DMCL_AP ? DMCL_MODEL_AP : DMCL_MODEL_NN,
                       DMCL_FEATURE_VERSION, 2, shape, w, err);
  if (rc) { /* the loader's message names the file and the field; this names the agent */
    if (!err) return rc;
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    tk_error_clear(err); /* tk_error_set keeps a first error */
    return tk_error_set(err, rc, -1, "%s: %s", who, msg);
  }
  if (dmcl_model_init(&pol->md, learner, hidden, w->values)) {
    tk_weights_free(w);
    return tk_error_set(err, TK_EINVAL, -1, "%s: weights %s: a weight is not a finite number, "
                        "or out of memory", who, path);
  }
  pol->alpha = alpha;
  pol->no_pass = no_pass;
  return 0;
}

int dmcl_setup_program(const char *who, const char *path, const char *default_weights,
                       const char *option, dmcl_policy *pol, tk_weights *w, tk_error *err) {
  char def[4096], json[8400];
  memset(pol, 0, sizeof *pol);
  memset(w, 0, sizeof *w);
  if (!path || !path[0]) {
    ssize_t n = readlink("/proc/self/exe", def, sizeof def - 1);
    if (n <= 0)
      return tk_error_set(err, TK_ENOTFOUND, -1, "%s: cannot locate this program to find "
                          "plugins/%s; give %s", who, default_weights, option);
    def[n] = 0;
    char *slash = strrchr(def, '/');
    snprintf(slash ? slash + 1 : def, sizeof def - (size_t)(slash ? slash + 1 - def : 0),
             "plugins/%s", default_weights);
    path = def;
  }
  size_t k = (size_t)snprintf(json, sizeof json, "{\"weights\": \"");
  for (const char *q = path; *q && k < sizeof json - 8; q++) {
    if (*q == '"' || *q == '\\') json[k++] = '\\';
    json[k++] = *q;
  }
  snprintf(json + k, sizeof json - k, "\"}");
  return dmcl_setup(who, json, default_weights, (const void *)dmcl_setup_program, pol, w, err);
}

void dmcl_setup_free(dmcl_policy *pol, tk_weights *w) {
  dmcl_model_free(&pol->md);
  tk_weights_free(w);
}
