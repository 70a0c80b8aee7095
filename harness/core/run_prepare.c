/* harness/core/run_prepare.c — turning a validated spec into a runnable tournament: every refusal
 * (unknown game, bad rules, plugin not found or rejected, unknown params, a create that fails,
 * crashes, exits or hangs in a trial process, a format the game cannot play) happens here,
 * before a single game; and the resolved spec, with the hashes of the files that make each
 * agent what it is (its plugin, its weights). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "shard.h"
#include "worker.h"
#include "taikai/rng.h"

void tk_run_free(tk_run *r) {
  if (!r) return;
  for (int i = 0; i < r->spec.nagents; i++) {
    if (r->plugins) tk_plugin_close(&r->plugins[i]);
    if (r->params) json_decref(r->params[i]);
    if (r->params_text) free(r->params_text[i]);
  }
  free(r->plugins);
  free(r->params);
  free(r->params_text);
  free(r->rules);
  json_decref(r->rules_resolved);
  tk_schedule_free(&r->sched);
  free(r->logs_dir);
  free(r->logs_run);
  if (r->weights)
    for (int i = 0; i < r->spec.nagents; i++) free(r->weights[i]);
  free(r->weights);
  free(r->files);
  tk_spec_free(&r->spec);
  memset(r, 0, sizeof *r);
}

/* A learned agent's weights file: the "weights" parameter when given (as a path, or relative
 * to the spec's folder), else the descriptor's default beside the plugin's shared object. The
 * file must be readable; its path (what create gets as "weights") goes to r->weights[i]. */
static int resolve_weights(tk_run *r, int i, const char *spec_dir, tk_error *err) {
  const tk_plugin *p = &r->plugins[i];
  const char *given = json_string_value(json_object_get(r->params[i], "weights"));
  if (!p->desc->weights) return 0;
  if (!given)
    return tk_error_set(err, TK_EABI, -1, "%s: declares default weights '%s' but has no string "
                        "parameter 'weights'", p->path, p->desc->weights);
  char path[TK_PATH_MAX];
  if (given[0]) {
    snprintf(path, sizeof path, "%s", given);
    if (given[0] != '/' && access(path, R_OK) && spec_dir)
      snprintf(path, sizeof path, "%s/%s", spec_dir, given);
  } else {
    const char *slash = strrchr(p->path, '/');
    int dirlen = slash ? (int)(slash - p->path) : 1;
    snprintf(path, sizeof path, "%.*s/%s", dirlen, slash ? p->path : ".", p->desc->weights);
  }
  if (access(path, R_OK))
    return tk_error_set(err, TK_EINVAL, -1, "weights '%s': %s%s", path, strerror(errno),
                        given[0] ? " (field 'params.weights')" : " (the plugin's default weights)");
  if (!(r->weights[i] = strdup(path))) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  return 0;
}

/* What an external agent's seat (spec.h, "external": true) shows where a plugin's descriptor is
 * read (summary.json's "plugin" and "version"): the seat is a client of `taikai serve` speaking
 * the UECda protocol (number 20070); no entry point is ever called. */
static const tk_agent_descriptor external_desc = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "external",
    .version = "uecda-20070",
    .description = "a client of taikai serve (UECda protocol 20070)",
    .params_json = "{}",
};

int tk_run_has_external(const tk_run *r) {
  for (int i = 0; i < r->spec.nagents; i++)
    if (r->spec.agents[i].external) return 1;
  return 0;
}

/* Rounds every real number of `v` (recursively) to the 12 significant digits that spec.json
 * keeps (run_output.c writes it with JSON_REAL_PRECISION(12)), so that an agent gets the same
 * params in the run, in its resume and in a merge of its shards, which read them back from
 * spec.json: a param of 1/6 is 0.166666666667 in all three. */
static void round_reals(json_t *v) {
  if (json_is_real(v)) {
    char text[40];
    snprintf(text, sizeof text, "%.12g", json_real_value(v));
    json_real_set(v, strtod(text, NULL));
  } else if (json_is_object(v)) {
    const char *key;
    json_t *x;
    json_object_foreach(v, key, x) round_reals(x);
  } else if (json_is_array(v)) {
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x) round_reals(x);
  }
}

int tk_run_prepare(tk_run *r, tk_spec *spec, const char *spec_dir, tk_error *err) {
  memset(r, 0, sizeof *r);
  r->spec = *spec;
  memset(spec, 0, sizeof *spec);
  tk_spec *s = &r->spec;
  int rc;
  r->game = tk_game_find(s->game);
  if (!r->game) {
    rc = tk_error_set(err, TK_EINVAL, -1, "%s: field 'game': unknown game, got \"%s\" (known: %s)",
                      s->path, s->game, tk_game_names());
    goto fail;
  }
  r->rules = calloc(1, r->game->rules_size ? r->game->rules_size : 1);
  int n = s->nagents;
  r->plugins = calloc((size_t)n, sizeof *r->plugins);
  r->params = calloc((size_t)n, sizeof *r->params);
  r->params_text = calloc((size_t)n, sizeof *r->params_text);
  r->weights = calloc((size_t)n, sizeof *r->weights);
  if (!r->rules || !r->plugins || !r->params || !r->params_text || !r->weights) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    goto fail;
  }
  if ((rc = r->game->parse_rules(s->rules, r->rules, &r->rules_resolved, s->path, err))) goto fail;
  rc = tk_schedule_build(&r->sched, s->format, n, r->game->nseats, s->walls, err);
  if (rc) {
    tk_error e = *err;
    tk_error_clear(err);
    tk_error_set(err, rc, -1, "%s: field 'format': %s", s->path, e.msg);
    goto fail;
  }
  for (int i = 0; i < n; i++) {
    tk_spec_agent *a = &s->agents[i];
    char path[TK_PATH_MAX];
    tk_error e;
    tk_error_clear(&e);
    if (a->external) { /* nothing to load or try: `taikai serve` connects a client here */
      r->plugins[i].desc = &external_desc;
      r->params[i] = json_object();
      r->params_text[i] = r->params[i] ? strdup("{}") : NULL;
      if (!r->params_text[i]) {
        rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
        goto fail;
      }
      continue;
    }
    if ((rc = tk_plugin_find(a->plugin, spec_dir, path, sizeof path, &e)) ||
        (rc = tk_plugin_open(&r->plugins[i], path, s->game, &e)) ||
        (rc = tk_plugin_params(&r->plugins[i], a->label, a->params, &r->params[i], &e))) {
      tk_error_set(err, rc, -1, "%s: agent '%s' (agents[%d]): %s", s->path, a->label, i, e.msg);
      goto fail;
    }
    if ((rc = resolve_weights(r, i, spec_dir, &e)) ||
        (r->weights[i] && (rc = tk_run_add_file(r, i, "weights", r->weights[i], &e)))) {
      tk_error_set(err, rc, -1, "%s: agent '%s' (agents[%d]): %s", s->path, a->label, i, e.msg);
      goto fail;
    }
    round_reals(r->params[i]);
    json_t *given = json_deep_copy(r->params[i]);
    if (given && r->weights[i]) json_object_set_new(given, "weights", json_string(r->weights[i]));
    r->params_text[i] = given ? json_dumps(given, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(given);
    if (!r->params_text[i]) {
      rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
      goto fail;
    }
    tk_trial_files tf;
    if ((rc = tk_worker_trial(r, i, &tf, &e))) {
      tk_error_set(err, rc, -1, "%s: agent '%s' (agents[%d]): %s", s->path, a->label, i, e.msg);
      goto fail;
    }
    for (int k = 0; k < tf.n; k++) /* what the plugin names besides itself (an external bot) */
      if ((rc = tk_run_add_file(r, i, tf.role[k], tf.path[k], &e))) {
        tk_error_set(err, rc, -1, "%s: agent '%s' (agents[%d]): %s (a file the plugin names)",
                     s->path, a->label, i, e.msg);
        goto fail;
      }
  }
  if (r->game->warm_up) r->game->warm_up();
  return 0;
fail:
  tk_run_free(r);
  return rc;
}

int tk_run_add_file(tk_run *r, int agent, const char *role, const char *path, tk_error *err) {
  if (agent < 0 || agent >= r->spec.nagents)
    return tk_error_set(err, TK_EINVAL, -1, "file %s: no agent %d (the spec has %d)", path, agent,
                        r->spec.nagents);
  const char *label = r->spec.agents[agent].label;
  size_t n = strlen(role);
  if (n == 0 || n >= sizeof r->files->role || strspn(role, "abcdefghijklmnopqrstuvwxyz0123456789_-") != n ||
      !strcmp(role, "plugin"))
    return tk_error_set(err, TK_EINVAL, -1, "agent '%s': file %s: role '%s' is not 1 to 31 "
                        "characters among a-z, 0-9, _ and -, other than 'plugin'", label, path,
                        role);
  for (int i = 0; i < r->nfiles; i++)
    if (r->files[i].agent == agent && !strcmp(r->files[i].role, role))
      return tk_error_set(err, TK_EINVAL, -1, "agent '%s': a %s file is already given (%s), "
                          "not %s too", label, role, r->files[i].path, path);
  tk_run_file f = {.agent = agent};
  snprintf(f.role, sizeof f.role, "%s", role);
  snprintf(f.path, sizeof f.path, "%s", path);
  tk_error e;
  tk_error_clear(&e);
  if (tk_sha256_file(path, f.sha256, &e))
    return tk_error_set(err, TK_EIO, -1, "agent '%s': %s file %s", label, role, e.msg);
  tk_run_file *nf = realloc(r->files, (size_t)(r->nfiles + 1) * sizeof *nf);
  if (!nf) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  r->files = nf;
  r->files[r->nfiles++] = f;
  return 0;
}

/* {"role", "path", "sha256"}; a path that is not UTF-8 (JSON cannot hold it) is recorded with
 * '?' for each byte above 0x7f: the path only informs, the hash is the identity. */
static json_t *file_json(const char *role, const char *path, const char *sha256) {
  json_t *p = json_string(path);
  if (!p) {
    char ascii[TK_PATH_MAX];
    size_t i = 0;
    for (; path[i] && i + 1 < sizeof ascii; i++) ascii[i] = (unsigned char)path[i] > 0x7f ? '?' : path[i];
    ascii[i] = '\0';
    p = json_string(ascii);
  }
  return json_pack("{s:s, s:o, s:s}", "role", role, "path", p, "sha256", sha256);
}

json_t *tk_run_resolved_spec(const tk_run *r) {
  json_t *o = json_object();
  json_object_set_new(o, "taikai_version", json_string(TAIKAI_VERSION));
  json_t *s = tk_spec_to_json(&r->spec);
  json_object_update(o, s);
  json_decref(s);
  json_object_set(o, "rules", r->rules_resolved);
  json_t *agents = json_object_get(o, "agents");
  for (int i = 0; i < r->spec.nagents; i++) {
    json_t *a = json_array_get(agents, (size_t)i);
    const tk_agent_descriptor *d = r->plugins[i].desc;
    json_object_set_new(a, "name", json_string(d->name));
    json_object_set_new(a, "version", json_string(d->version));
    if (r->spec.agents[i].external) continue; /* no params, no files */
    json_object_set(a, "params", r->params[i]);
    json_t *files = json_array();
    json_array_append_new(files, file_json("plugin", r->plugins[i].path, r->plugins[i].sha256));
    for (int k = 0; k < r->nfiles; k++)
      if (r->files[k].agent == i)
        json_array_append_new(files, file_json(r->files[k].role, r->files[k].path,
                                               r->files[k].sha256));
    json_object_set_new(a, "files", files);
  }
  json_object_set_new(o, "units", json_integer((json_int_t)tk_schedule_units(&r->sched)));
  json_t *shard = tk_shard_json(r); /* a shard's folder holds only its walls */
  if (shard) json_object_set_new(o, "shard", shard);
  return o;
}
