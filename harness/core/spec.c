/* harness/core/spec.c — tournament spec parsing and validation (see spec.h and spec.schema.json).
 * Unknown fields are errors, so a misspelt option never silently falls back to a default. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/file.h"
#include "game.h"
#include "spec.h"

const char *tk_format_name(tk_format f) {
  switch (f) {
    case TK_FORMAT_FIELD: return "field";
    case TK_FORMAT_ROUND_ROBIN: return "round-robin";
    case TK_FORMAT_DUPLICATE: return "duplicate";
    case TK_FORMAT_SEATED: return "seated";
  }
  return "?";
}

const char *tk_interval_name(tk_interval i) {
  return i == TK_INTERVAL_CLOPPER_PEARSON ? "clopper-pearson" : "wilson";
}

const char *tk_fault_policy_name(tk_fault_policy p) {
  return p == TK_POLICY_SKIP ? "skip" : p == TK_POLICY_ABORT ? "abort" : "forfeit";
}

const char *tk_illegal_policy_name(tk_illegal_policy p) {
  return p == TK_ILLEGAL_SUBSTITUTE ? "substitute" : "forfeit";
}

static int bad(tk_error *err, const char *path, const char *field, const json_t *v,
               const char *problem) {
  char val[96];
  tk_json_brief(v, val, sizeof val);
  return tk_error_set(err, TK_EINVAL, -1, "%s: field '%s': %s, got %s", path, field, problem, val);
}

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static int label_ok(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n >= TK_LABEL_MAX) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          strchr("_.:+=-", *s)))
      return 0;
  return 1;
}

/* The file name of `p` without folders and without a trailing ".so". */
static void stem(const char *p, char *out, size_t cap) {
  const char *b = strrchr(p, '/');
  b = b ? b + 1 : p;
  size_t n = strlen(b);
  if (n > 3 && !strcmp(b + n - 3, ".so")) n -= 3;
  if (n >= cap) n = cap - 1;
  memcpy(out, b, n);
  out[n] = '\0';
}

static int get_uint(json_t *root, const char *key, const char *path, uint64_t min, uint64_t max,
                    uint64_t *out, tk_error *err) {
  json_t *v = json_object_get(root, key);
  if (!v) return 0;
  if (!json_is_integer(v) || json_integer_value(v) < 0 ||
      (uint64_t)json_integer_value(v) < min || (uint64_t)json_integer_value(v) > max) {
    char problem[96];
    snprintf(problem, sizeof problem, "expected an integer from %llu to %llu",
             (unsigned long long)min, (unsigned long long)max);
    return bad(err, path, key, v, problem);
  }
  *out = (uint64_t)json_integer_value(v);
  return 0;
}

static int parse_agents(json_t *arr, tk_spec *s, tk_error *err) {
  const char *path = s->path;
  if (!json_is_array(arr) || json_array_size(arr) == 0 ||
      json_array_size(arr) > TK_SPEC_MAX_AGENTS)
    return bad(err, path, "agents", arr, "expected an array of 1 to 64 agent objects");
  s->nagents = (int)json_array_size(arr);
  s->agents = calloc((size_t)s->nagents, sizeof *s->agents);
  if (!s->agents) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  for (int i = 0; i < s->nagents; i++) {
    json_t *a = json_array_get(arr, (size_t)i);
    tk_spec_agent *ag = &s->agents[i];
    char field[64];
    snprintf(field, sizeof field, "agents[%d]", i);
    if (!json_is_object(a)) return bad(err, path, field, a, "expected an object");
    const char *key;
    json_t *v;
    json_object_foreach(a, key, v) {
      if (strcmp(key, "plugin") && strcmp(key, "label") && strcmp(key, "params") &&
          strcmp(key, "external") && strcmp(key, "isolation")) {
        snprintf(field, sizeof field, "agents[%d].%s", i, key);
        return bad(err, path, field, v,
                   "unknown field (expected plugin, label, params, isolation, external)");
      }
    }
    v = json_object_get(a, "external");
    snprintf(field, sizeof field, "agents[%d].external", i);
    if (v && !json_is_boolean(v)) return bad(err, path, field, v, "expected true or false");
    ag->external = json_is_true(v);
    if (ag->external) {
      /* a client of `taikai serve` plays this seat: nothing to load, a label to name it */
      if (json_object_get(a, "plugin") || json_object_get(a, "params"))
        return bad(err, path, field, v, "an external agent has no plugin and no params");
      v = json_object_get(a, "label");
      snprintf(field, sizeof field, "agents[%d].label", i);
      if (!v) return bad(err, path, field, v, "required for an external agent");
    } else {
      v = json_object_get(a, "plugin");
      snprintf(field, sizeof field, "agents[%d].plugin", i);
      if (!json_is_string(v) || !json_string_length(v))
        return bad(err, path, field, v, "expected a plugin name or path");
      ag->plugin = dupstr(json_string_value(v));
    }
    v = json_object_get(a, "label");
    snprintf(field, sizeof field, "agents[%d].label", i);
    if (v) {
      if (!json_is_string(v) || !label_ok(json_string_value(v)))
        return bad(err, path, field, v,
                   "expected 1 to 63 characters among letters, digits and _.:+=-");
      snprintf(ag->label, sizeof ag->label, "%s", json_string_value(v));
    } else {
      stem(ag->plugin, ag->label, sizeof ag->label);
      if (!label_ok(ag->label))
        return bad(err, path, field, json_object_get(a, "plugin"),
                   "cannot derive a label from this plugin; set \"label\"");
    }
    for (int j = 0; j < i; j++)
      if (!strcmp(s->agents[j].label, ag->label)) {
        json_t *lv = json_string(ag->label);
        bad(err, path, field, lv, "labels must be unique (set \"label\" to tell agents apart)");
        json_decref(lv);
        return TK_EINVAL;
      }
    v = json_object_get(a, "params");
    snprintf(field, sizeof field, "agents[%d].params", i);
    if (v && !json_is_object(v)) return bad(err, path, field, v, "expected an object");
    ag->params = v ? json_incref(v) : json_object();
    v = json_object_get(a, "isolation");
    snprintf(field, sizeof field, "agents[%d].isolation", i);
    if (v) {
      const char *iso = json_string_value(v);
      if (!iso || (strcmp(iso, "worker") && strcmp(iso, "process")))
        return bad(err, path, field, v, "expected \"worker\" (the plugin called in the worker's "
                   "process, the default) or \"process\" (in a process of its own)");
      if (ag->external) return bad(err, path, field, v, "an external agent has no isolation");
      ag->isolated = !strcmp(iso, "process");
    }
  }
  return 0;
}

static int parse_root(json_t *root, tk_spec *s, tk_error *err) {
  const char *path = s->path;
  if (!json_is_object(root)) return bad(err, path, "(top level)", root, "expected an object");
  static const char *known[] = {"game",   "seed",       "walls",  "format",
                                "agents", "rules",      "output", "confidence",
                                "proportion_interval", "time_limit_ms", "jobs", "$schema",
                                "description", "game_time_limit_ms", "memory_limit_mb",
                                "fault_policy", "illegal_policy", "clock", "idle_limit_ms",
                                NULL};
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    int ok = 0;
    for (const char **k = known; *k; k++) ok |= !strcmp(*k, key);
    if (!ok) return bad(err, path, key, v, "unknown field");
  }
  v = json_object_get(root, "game");
  if (!json_is_string(v) || !json_string_length(v))
    return bad(err, path, "game", v, "expected the name of a game (\"solo\")");
  s->game = dupstr(json_string_value(v));

  s->seed = 1;
  s->walls = 1000;
  s->confidence = 0.95;
  s->time_limit_ms = 10000;
  s->jobs = 1;
  int rc;
  if ((rc = get_uint(root, "seed", path, 0, INT64_MAX, &s->seed, err))) return rc;
  if ((rc = get_uint(root, "walls", path, 1, 1000000000, &s->walls, err))) return rc;
  uint64_t u = 10000;
  if ((rc = get_uint(root, "time_limit_ms", path, 0, 3600000, &u, err))) return rc;
  s->time_limit_ms = (int)u;
  u = 0;
  if ((rc = get_uint(root, "game_time_limit_ms", path, 0, 86400000, &u, err))) return rc;
  s->game_time_limit_ms = (int)u;
  v = json_object_get(root, "clock");
  if (v) {
    const char *c = json_string_value(v);
    if (!c || (strcmp(c, "cpu") && strcmp(c, "wall")))
      return bad(err, path, "clock", v, "expected \"cpu\" (limits in CPU time, the default) or "
                 "\"wall\" (in wall-clock time)");
    s->wall_clock = !strcmp(c, "wall");
  }
  u = (uint64_t)s->time_limit_ms;
  if ((rc = get_uint(root, "idle_limit_ms", path, 0, 3600000, &u, err))) return rc;
  if (s->wall_clock && json_object_get(root, "idle_limit_ms"))
    return bad(err, path, "idle_limit_ms", json_object_get(root, "idle_limit_ms"),
               "only with \"clock\": \"cpu\" (a wall clock counts idle time already)");
  s->idle_limit_ms = s->wall_clock ? 0 : (int)u;
  v = json_object_get(root, "memory_limit_mb");
  if (v) {
    json_int_t m = json_integer_value(v);
    if (!json_is_integer(v) || (m != 0 && (m < 32 || m > 1048576)))
      return bad(err, path, "memory_limit_mb", v,
                 "expected 0 (no limit) or megabytes from 32 to 1048576");
    s->memory_limit_mb = (int)m;
  }
  v = json_object_get(root, "fault_policy");
  if (v) {
    const char *f = json_string_value(v);
    if (f && !strcmp(f, "forfeit")) s->fault_policy = TK_POLICY_FORFEIT;
    else if (f && !strcmp(f, "skip")) s->fault_policy = TK_POLICY_SKIP;
    else if (f && !strcmp(f, "abort")) s->fault_policy = TK_POLICY_ABORT;
    else return bad(err, path, "fault_policy", v, "expected \"forfeit\", \"skip\" or \"abort\"");
  }
  v = json_object_get(root, "illegal_policy");
  if (v) {
    const char *f = json_string_value(v);
    if (f && !strcmp(f, "forfeit")) s->illegal_policy = TK_ILLEGAL_FORFEIT;
    else if (f && !strcmp(f, "substitute")) s->illegal_policy = TK_ILLEGAL_SUBSTITUTE;
    else return bad(err, path, "illegal_policy", v, "expected \"forfeit\" or \"substitute\"");
  }
  u = 1;
  if ((rc = get_uint(root, "jobs", path, 1, 1024, &u, err))) return rc;
  s->jobs = (int)u;

  v = json_object_get(root, "format");
  s->format = TK_FORMAT_FIELD;
  if (v) {
    const char *f = json_string_value(v);
    if (f && !strcmp(f, "field")) s->format = TK_FORMAT_FIELD;
    else if (f && !strcmp(f, "round-robin")) s->format = TK_FORMAT_ROUND_ROBIN;
    else if (f && !strcmp(f, "duplicate")) s->format = TK_FORMAT_DUPLICATE;
    else if (f && !strcmp(f, "seated")) s->format = TK_FORMAT_SEATED;
    else return bad(err, path, "format", v,
                    "expected \"field\", \"round-robin\", \"duplicate\" or \"seated\"");
  }
  v = json_object_get(root, "confidence");
  if (v) {
    double c = json_number_value(v);
    if (!json_is_number(v) || !(c >= TK_CONFIDENCE_MIN && c <= TK_CONFIDENCE_MAX)) {
      char problem[96];
      snprintf(problem, sizeof problem, "expected a number from %g to %g (e.g. 0.95)",
               TK_CONFIDENCE_MIN, TK_CONFIDENCE_MAX);
      return bad(err, path, "confidence", v, problem);
    }
    s->confidence = c;
  }
  v = json_object_get(root, "proportion_interval");
  if (v) {
    const char *f = json_string_value(v);
    if (f && !strcmp(f, "wilson")) s->proportion = TK_INTERVAL_WILSON;
    else if (f && !strcmp(f, "clopper-pearson")) s->proportion = TK_INTERVAL_CLOPPER_PEARSON;
    else return bad(err, path, "proportion_interval", v, "expected \"wilson\" or \"clopper-pearson\"");
  }
  v = json_object_get(root, "rules");
  if (v && !json_is_object(v)) return bad(err, path, "rules", v, "expected an object");
  s->rules = v ? json_incref(v) : json_object();

  v = json_object_get(root, "output");
  if (v) {
    if (!json_is_string(v) || !json_string_length(v))
      return bad(err, path, "output", v, "expected a folder name");
    s->output = dupstr(json_string_value(v));
  } else {
    char st[256], buf[300];
    stem(path, st, sizeof st);
    size_t n = strlen(st);
    if (n > 5 && !strcmp(st + n - 5, ".json")) st[n - 5] = '\0';
    snprintf(buf, sizeof buf, "runs/%s", st);
    s->output = dupstr(buf);
  }
  v = json_object_get(root, "agents");
  if (!v) return bad(err, path, "agents", v, "required: the agents to play");
  return parse_agents(v, s, err);
}

int tk_spec_parse(const char *text, const char *path, tk_spec *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  out->path = dupstr(path ? path : "<spec>");
  json_error_t jerr;
  json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
  if (!root) {
    tk_error_set(err, TK_EPARSE, jerr.position, "%s:%d:%d: invalid JSON: %s", out->path,
                 jerr.line, jerr.column, jerr.text);
    tk_spec_free(out);
    return TK_EPARSE;
  }
  int rc = parse_root(root, out, err);
  json_decref(root);
  if (rc) tk_spec_free(out);
  return rc;
}

int tk_spec_load(const char *path, tk_spec *out, tk_error *err) {
  memset(out, 0, sizeof *out);
  /* the size is checked below, as it is read, with the spec's own message */
  FILE *f;
  int frc = tk_file_fopen(path, "rb", TK_FILE_ANY_SIZE, &f, err);
  if (frc) return frc;
  /* one byte more than the bound tells a file at the bound from a larger one */
  char *buf = malloc((size_t)TK_SPEC_MAX_BYTES + 2);
  if (!buf) {
    fclose(f);
    return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  }
  size_t n = 0;
  for (size_t r; n <= TK_SPEC_MAX_BYTES &&
                 (r = fread(buf + n, 1, (size_t)TK_SPEC_MAX_BYTES + 1 - n, f)) > 0;)
    n += r;
  int failed = ferror(f), e = errno;
  fclose(f);
  int rc = 0;
  char *nul = memchr(buf, '\0', n);
  if (failed)
    rc = tk_error_set(err, TK_EIO, -1, "%s: cannot read: %s", path, strerror(e));
  else if (n > TK_SPEC_MAX_BYTES)
    rc = tk_error_set(err, TK_ERANGE, -1, "%s: larger than %d bytes (1 MiB), the most a spec may "
                      "hold", path, TK_SPEC_MAX_BYTES);
  else if (nul)
    rc = tk_error_set(err, TK_EPARSE, (int)(nul - buf), "%s: a NUL byte at offset %td: not a "
                      "JSON text", path, nul - buf);
  if (rc) {
    free(buf);
    return rc;
  }
  buf[n] = '\0';
  rc = tk_spec_parse(buf, path, out, err);
  free(buf);
  return rc;
}

void tk_spec_free(tk_spec *s) {
  if (!s) return;
  for (int i = 0; i < s->nagents && s->agents; i++) {
    free(s->agents[i].plugin);
    json_decref(s->agents[i].params);
  }
  free(s->agents);
  json_decref(s->rules);
  free(s->path);
  free(s->game);
  free(s->output);
  memset(s, 0, sizeof *s);
}

json_t *tk_spec_to_json(const tk_spec *s) {
  json_t *o = json_object();
  json_object_set_new(o, "game", json_string(s->game));
  json_object_set_new(o, "seed", json_integer((json_int_t)s->seed));
  json_object_set_new(o, "walls", json_integer((json_int_t)s->walls));
  json_object_set_new(o, "format", json_string(tk_format_name(s->format)));
  json_t *arr = json_array();
  for (int i = 0; i < s->nagents; i++) {
    json_t *a = json_object();
    if (s->agents[i].external) {
      json_object_set_new(a, "external", json_true());
      json_object_set_new(a, "label", json_string(s->agents[i].label));
    } else {
      json_object_set_new(a, "plugin", json_string(s->agents[i].plugin));
      json_object_set_new(a, "label", json_string(s->agents[i].label));
      json_object_set(a, "params", s->agents[i].params);
      json_object_set_new(a, "isolation", json_string(s->agents[i].isolated ? "process"
                                                                              : "worker"));
    }
    json_array_append_new(arr, a);
  }
  json_object_set_new(o, "agents", arr);
  json_object_set(o, "rules", s->rules);
  json_object_set_new(o, "output", json_string(s->output));
  json_object_set_new(o, "confidence", json_real(s->confidence));
  json_object_set_new(o, "proportion_interval", json_string(tk_interval_name(s->proportion)));
  json_object_set_new(o, "time_limit_ms", json_integer(s->time_limit_ms));
  json_object_set_new(o, "game_time_limit_ms", json_integer(s->game_time_limit_ms));
  json_object_set_new(o, "clock", json_string(s->wall_clock ? "wall" : "cpu"));
  json_object_set_new(o, "idle_limit_ms", json_integer(s->idle_limit_ms));
  json_object_set_new(o, "memory_limit_mb", json_integer(s->memory_limit_mb));
  json_object_set_new(o, "fault_policy", json_string(tk_fault_policy_name(s->fault_policy)));
  json_object_set_new(o, "illegal_policy", json_string(tk_illegal_policy_name(s->illegal_policy)));
  return o;
}

/* core/spec.schema.base.json, the fields every spec shares (taikai_embed_text) */
extern const char tk_spec_schema_base[];

json_t *tk_spec_schema(tk_error *err) {
  json_error_t je;
  json_t *s = json_loads(tk_spec_schema_base, JSON_PRESERVE_ORDER, &je);
  if (!s) {
    tk_error_set(err, TK_EPARSE, -1, "the referee's schema is not JSON (line %d): %s", je.line,
                 je.text);
    return NULL;
  }
  json_t *names = json_array(), *all = json_array();
  json_object_set_new(json_object_get(json_object_get(s, "properties"), "game"), "enum", names);
  json_object_set_new(s, "allOf", all);
  for (const tk_game *const *g = tk_game_all(); *g; g++) {
    json_array_append_new(names, json_string((*g)->name));
    if (!(*g)->rules_schema) continue;
    json_t *rules = json_loads((*g)->rules_schema, JSON_PRESERVE_ORDER, &je);
    if (!rules) {
      tk_error_set(err, TK_EPARSE, -1, "the rules schema of %s is not JSON (line %d): %s",
                   (*g)->name, je.line, je.text);
      json_decref(s);
      return NULL;
    }
    json_array_append_new(
        all, json_pack("{s:{s:{s:{s:s}}}, s:{s:{s:o}}}", "if", "properties", "game", "const",
                       (*g)->name, "then", "properties", "rules", rules));
  }
  return s;
}

