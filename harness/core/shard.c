/* harness/core/shard.c — the walls and units of a shard (see shard.h), the "shard" member of its
 * spec.json and summary.json, and a run folder's tournament rebuilt from its spec.json without
 * its plugins, for `taikai merge`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shard.h"

static int parse_u32(const char *s, size_t len, uint32_t max, uint32_t *out) {
  if (len == 0 || len > 10) return -1;
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (uint64_t)(s[i] - '0');
  }
  if (v > max) return -1;
  *out = (uint32_t)v;
  return 0;
}

int tk_shard_parse(const char *text, uint32_t *k, uint32_t *n) {
  const char *slash = text ? strchr(text, '/') : NULL;
  if (!slash) return -1;
  uint32_t a, b;
  if (parse_u32(text, (size_t)(slash - text), TK_SHARD_MAX, &a) ||
      parse_u32(slash + 1, strlen(slash + 1), TK_SHARD_MAX, &b) || a < 1 || a > b)
    return -1;
  *k = a;
  *n = b;
  return 0;
}

void tk_shard_walls(uint64_t walls, uint32_t k, uint32_t n, uint64_t *lo, uint64_t *hi) {
  /* walls <= 10^9 and n <= 10^6: the products stay below 2^64 */
  *lo = walls * (uint64_t)(k - 1) / n;
  *hi = walls * (uint64_t)k / n;
}

void tk_run_units(const tk_run *r, uint64_t *first, uint64_t *end) {
  if (!r->shard_count) {
    *first = 0;
    *end = tk_schedule_units(&r->sched);
    return;
  }
  uint64_t lo, hi;
  tk_shard_walls(r->sched.walls, r->shard_index, r->shard_count, &lo, &hi);
  *first = lo * r->sched.per_wall;
  *end = hi * r->sched.per_wall;
}

json_t *tk_shard_json(const tk_run *r) {
  if (!r->shard_count) return NULL;
  uint64_t lo, hi, first, end;
  tk_shard_walls(r->sched.walls, r->shard_index, r->shard_count, &lo, &hi);
  tk_run_units(r, &first, &end);
  return json_pack("{s:I, s:I, s:[I,I], s:[I,I], s:s}", "index", (json_int_t)r->shard_index,
                   "count", (json_int_t)r->shard_count, "walls", (json_int_t)lo, (json_int_t)hi,
                   "units", (json_int_t)first, (json_int_t)end, "spec", r->spec.path);
}

/* ------------------------------------------------------------------ a folder's tournament */

void tk_folder_run_free(tk_folder_run *f) {
  if (!f) return;
  tk_run_free(&f->run); /* closing a plugin without a handle only forgets its descriptor */
  free(f->descs);
  json_decref(f->resolved);
  memset(f, 0, sizeof *f);
}

static const char *str_at(const json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

/* Fills agent i of the run from its spec.json entry `a` (name, version, params, files). */
static int load_agent(tk_folder_run *f, int i, json_t *a, const char *dir, tk_error *err) {
  tk_run *r = &f->run;
  const char *name = str_at(a, "name"), *version = str_at(a, "version");
  if (!name || !version)
    return tk_error_set(err, TK_EINVAL, -1, "%s/spec.json: field 'agents[%d]': no plugin name "
                        "and version (not a spec.json written by taikai run)", dir, i);
  f->descs[i] = (tk_agent_descriptor){.abi_version = TK_AGENT_ABI_VERSION,
                                      .struct_size = sizeof(tk_agent_descriptor),
                                      .name = name, .version = version, .params_json = "{}"};
  r->plugins[i].desc = &f->descs[i];
  r->params[i] = r->spec.agents[i].external ? json_object()
                                            : json_deep_copy(r->spec.agents[i].params);
  if (!r->params[i]) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  json_t *files = json_object_get(a, "files");
  for (size_t k = 0; k < json_array_size(files); k++) {
    json_t *file = json_array_get(files, k);
    const char *role = str_at(file, "role"), *path = str_at(file, "path");
    const char *sha = str_at(file, "sha256");
    if (!role || !path || !sha || strlen(sha) != 64)
      return tk_error_set(err, TK_EINVAL, -1, "%s/spec.json: field 'agents[%d].files[%zu]': "
                          "expected {\"role\", \"path\", \"sha256\"} with a 64-digit hash", dir,
                          i, k);
    if (!strcmp(role, "plugin")) {
      snprintf(r->plugins[i].path, sizeof r->plugins[i].path, "%s", path);
      snprintf(r->plugins[i].sha256, sizeof r->plugins[i].sha256, "%s", sha);
      continue;
    }
    tk_run_file *nf = realloc(r->files, (size_t)(r->nfiles + 1) * sizeof *nf);
    if (!nf) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    r->files = nf;
    tk_run_file *x = &r->files[r->nfiles++];
    memset(x, 0, sizeof *x);
    x->agent = i;
    snprintf(x->role, sizeof x->role, "%s", role);
    snprintf(x->path, sizeof x->path, "%s", path);
    snprintf(x->sha256, sizeof x->sha256, "%s", sha);
    if (!strcmp(role, "weights") && !(r->weights[i] = strdup(path)))
      return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  }
  /* the params as create got them: report.md shows this text */
  json_t *given = json_deep_copy(r->params[i]);
  if (given && r->weights[i]) json_object_set_new(given, "weights", json_string(r->weights[i]));
  r->params_text[i] = given ? json_dumps(given, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(given);
  if (!r->params_text[i]) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  return 0;
}

int tk_folder_spec(const json_t *resolved, const char *dir, tk_spec *spec, tk_error *err) {
  if (!json_is_object(resolved) || !json_is_array(json_object_get(resolved, "agents")))
    return tk_error_set(err, TK_EINVAL, -1, "%s/spec.json: not a spec.json written by taikai run",
                        dir);
  const char *version = str_at(resolved, "taikai_version");
  if (!version || strcmp(version, TAIKAI_VERSION))
    return tk_error_set(err, TK_EINVAL, -1, "%s/spec.json: field 'taikai_version': the run was "
                        "played by taikai %s, this is taikai %s: use the taikai that played it",
                        dir, version ? version : "(absent)", TAIKAI_VERSION);
  /* the spec itself: what taikai adds to it removed, then parsed as a spec file is */
  json_t *bare = json_deep_copy(resolved);
  if (!bare) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  json_object_del(bare, "taikai_version");
  json_object_del(bare, "units");
  json_object_del(bare, "shard");
  json_t *agents = json_object_get(bare, "agents");
  for (size_t i = 0; i < json_array_size(agents); i++) {
    json_t *a = json_array_get(agents, i);
    json_object_del(a, "name");
    json_object_del(a, "version");
    json_object_del(a, "files");
  }
  char *text = json_dumps(bare, JSON_COMPACT);
  json_decref(bare);
  if (!text) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  char where[TK_PATH_MAX + 16];
  snprintf(where, sizeof where, "%s/spec.json", dir);
  int rc = tk_spec_parse(text, where, spec, err);
  free(text);
  return rc;
}

int tk_folder_run_load(tk_folder_run *f, json_t *resolved, const char *dir, const char *spec_path,
                       tk_error *err) {
  memset(f, 0, sizeof *f);
  f->resolved = resolved;
  tk_run *r = &f->run;
  int rc = 0;
  json_t *again = NULL;
  tk_spec spec;
  if ((rc = tk_folder_spec(resolved, dir, &spec, err))) goto done;
  char where[TK_PATH_MAX + 16];
  snprintf(where, sizeof where, "%s/spec.json", dir);
  r->spec = spec;
  free(r->spec.path);
  if (!(r->spec.path = strdup(spec_path))) goto oom;
  r->game = tk_game_find(r->spec.game);
  if (!r->game) {
    rc = tk_error_set(err, TK_EINVAL, -1, "%s: field 'game': unknown game \"%s\" (known: %s)",
                      where, r->spec.game, tk_game_names());
    goto done;
  }
  int n = r->spec.nagents;
  r->rules = calloc(1, r->game->rules_size ? r->game->rules_size : 1);
  r->plugins = calloc((size_t)n, sizeof *r->plugins);
  r->params = calloc((size_t)n, sizeof *r->params);
  r->params_text = calloc((size_t)n, sizeof *r->params_text);
  r->weights = calloc((size_t)n, sizeof *r->weights);
  f->descs = calloc((size_t)n, sizeof *f->descs);
  if (!r->rules || !r->plugins || !r->params || !r->params_text || !r->weights || !f->descs)
    goto oom;
  if ((rc = r->game->parse_rules(r->spec.rules, r->rules, &r->rules_resolved, where, err)))
    goto done;
  if ((rc = tk_schedule_build(&r->sched, r->spec.format, n, r->game->nseats, r->spec.walls,
                              err)))
    goto done;
  json_t *recorded = json_object_get(resolved, "agents");
  for (int i = 0; i < n && !rc; i++)
    rc = load_agent(f, i, json_array_get(recorded, (size_t)i), dir, err);
  if (rc) goto done;
  /* written back, it must be what the folder holds (but its shard) */
  again = tk_run_resolved_spec(r);
  json_t *want = json_deep_copy(resolved);
  if (!again || !want) {
    json_decref(want);
    goto oom;
  }
  json_object_del(want, "shard");
  int same = json_equal(again, want);
  json_decref(want);
  if (!same) {
    rc = tk_error_set(err, TK_EINVAL, -1, "%s: not as this taikai (%s) writes a spec.json: "
                      "written back from what it says, it differs (a spec.json edited by hand, "
                      "or from another taikai version?)", where, TAIKAI_VERSION);
    goto done;
  }
  goto done;
oom:
  rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
done:
  json_decref(again);
  if (rc) tk_folder_run_free(f);
  return rc;
}
