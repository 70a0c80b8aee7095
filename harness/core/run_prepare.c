/* harness/core/run_prepare.c — turning a validated spec into a runnable tournament: every refusal
 * (unknown game, bad rules, plugin not found or rejected, unknown params, a create that fails,
 * crashes, exits or hangs in a trial process, a format the game cannot play) happens here,
 * before a single game. */
#include <stdlib.h>
#include <string.h>

#include "run.h"
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
  tk_spec_free(&r->spec);
  memset(r, 0, sizeof *r);
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
  if (!r->rules || !r->plugins || !r->params || !r->params_text) {
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
    if ((rc = tk_plugin_find(a->plugin, spec_dir, path, sizeof path, &e)) ||
        (rc = tk_plugin_open(&r->plugins[i], path, s->game, &e)) ||
        (rc = tk_plugin_params(&r->plugins[i], a->label, a->params, &r->params[i], &e))) {
      tk_error_set(err, rc, -1, "%s: agent '%s' (agents[%d]): %s", s->path, a->label, i, e.msg);
      goto fail;
    }
    r->params_text[i] = json_dumps(r->params[i], JSON_COMPACT | JSON_SORT_KEYS);
    if (!r->params_text[i]) {
      rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
      goto fail;
    }
    if ((rc = tk_worker_trial(r, i, &e))) {
      tk_error_set(err, rc, -1, "%s: agent '%s' (agents[%d]): %s", s->path, a->label, i, e.msg);
      goto fail;
    }
  }
  if (r->game->warm_up) r->game->warm_up();
  return 0;
fail:
  tk_run_free(r);
  return rc;
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
    json_object_set(a, "params", r->params[i]);
    json_object_set_new(a, "name", json_string(d->name));
    json_object_set_new(a, "version", json_string(d->version));
  }
  json_object_set_new(o, "units", json_integer((json_int_t)tk_schedule_units(&r->sched)));
  return o;
}
