/* tests/referee/test_ref_spec.c — spec validation: accepted specs get their defaults, and every
 * refusal names the file, the field and the offending value. */
#define _DEFAULT_SOURCE 1 /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <regex.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "spec.h"
#include "watch.h"
#include "unit.h"

static void test_defaults(void) {
  tk_spec s;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_spec_parse("{\"game\": \"solo\", \"agents\": [{\"plugin\": \"greedy\"}, "
                         "{\"plugin\": \"x/y/tsumogiri.so\", \"params\": {\"a\": 1}}]}",
                         "dir/my-spec.json", &s, &e);
  if (rc) TK_FAILF("refused: %s", e.msg);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  CU_ASSERT_STRING_EQUAL(s.game, "solo");
  CU_ASSERT_EQUAL(s.seed, 1);
  CU_ASSERT_EQUAL(s.walls, 1000);
  CU_ASSERT_EQUAL(s.format, TK_FORMAT_FIELD);
  CU_ASSERT_EQUAL(s.nagents, 2);
  CU_ASSERT_STRING_EQUAL(s.agents[0].label, "greedy");
  CU_ASSERT_STRING_EQUAL(s.agents[1].label, "tsumogiri");
  CU_ASSERT_EQUAL(json_integer_value(json_object_get(s.agents[1].params, "a")), 1);
  CU_ASSERT_STRING_EQUAL(s.output, "runs/my-spec");
  CU_ASSERT_DOUBLE_EQUAL(s.confidence, 0.95, 1e-12);
  CU_ASSERT_EQUAL(s.proportion, TK_INTERVAL_WILSON);
  CU_ASSERT_EQUAL(s.time_limit_ms, 10000);
  CU_ASSERT_EQUAL(s.game_time_limit_ms, 0);
  CU_ASSERT_EQUAL(s.memory_limit_mb, 0);
  CU_ASSERT_EQUAL(s.fault_policy, TK_POLICY_FORFEIT);
  CU_ASSERT_EQUAL(s.illegal_policy, TK_ILLEGAL_FORFEIT);
  /* the resolved form parses back to the same spec */
  json_t *j = tk_spec_to_json(&s);
  char *text = json_dumps(j, 0);
  tk_spec s2;
  CU_ASSERT_EQUAL(tk_spec_parse(text, "again.json", &s2, &e), 0);
  CU_ASSERT_EQUAL(s2.walls, s.walls);
  CU_ASSERT_STRING_EQUAL(s2.output, s.output);
  tk_spec_free(&s2);
  /* the fault fields, and their resolved form */
  tk_spec s3;
  rc = tk_spec_parse("{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\"}], \"time_limit_ms\": 0, "
                     "\"game_time_limit_ms\": 5000, \"memory_limit_mb\": 512, \"fault_policy\": "
                     "\"skip\", \"illegal_policy\": \"substitute\"}", "f.json", &s3, &e);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  CU_ASSERT_EQUAL(s3.time_limit_ms, 0);
  CU_ASSERT_EQUAL(s3.game_time_limit_ms, 5000);
  CU_ASSERT_EQUAL(s3.memory_limit_mb, 512);
  CU_ASSERT_EQUAL(s3.fault_policy, TK_POLICY_SKIP);
  CU_ASSERT_EQUAL(s3.illegal_policy, TK_ILLEGAL_SUBSTITUTE);
  json_t *j3 = tk_spec_to_json(&s3);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j3, "fault_policy")), "skip");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j3, "illegal_policy")), "substitute");
  CU_ASSERT_EQUAL(json_integer_value(json_object_get(j3, "memory_limit_mb")), 512);
  json_decref(j3);
  tk_spec_free(&s3);
  CU_ASSERT_EQUAL(tk_spec_parse("{\"game\": \"solo\", \"fault_policy\": \"abort\", \"agents\": "
                                "[{\"plugin\": \"g\"}]}", "a.json", &s3, &e), 0);
  CU_ASSERT_EQUAL(s3.fault_policy, TK_POLICY_ABORT);
  tk_spec_free(&s3);
  free(text);
  json_decref(j);
  tk_spec_free(&s);
  tk_spec_free(NULL);
}

typedef struct bad_case {
  const char *json;
  const char *needles[3]; /* substrings the message must hold (besides the file name) */
} bad_case;

static const bad_case bad[] = {
    {"{\"game\": \"solo\", \"walls\": -3, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'walls'", "got -3", "integer"}},
    {"{\"game\": \"solo\", \"walls\": \"many\", \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'walls'", "got \"many\"", NULL}},
    {"{\"game\": \"solo\", \"agents\": []}", {"field 'agents'", "got []", NULL}},
    {"{\"game\": \"solo\"}", {"field 'agents'", "required", NULL}},
    {"{\"agents\": [{\"plugin\": \"g\"}]}", {"field 'game'", NULL, NULL}},
    {"{\"game\": \"solo\", \"wals\": 10, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'wals'", "unknown field", "got 10"}},
    {"{\"game\": \"solo\", \"format\": \"swiss\", \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'format'", "got \"swiss\"", NULL}},
    {"{\"game\": \"solo\", \"seed\": 1.5, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'seed'", "got 1.5", NULL}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\"}, {\"plugin\": \"g\"}]}",
     {"field 'agents[1].label'", "unique", "got \"g\""}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\", \"label\": \"a b\"}]}",
     {"field 'agents[0].label'", "got \"a b\"", NULL}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": 7}]}",
     {"field 'agents[0].plugin'", "got 7", NULL}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\", \"param\": {}}]}",
     {"field 'agents[0].param'", "unknown field", NULL}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\", \"params\": [1]}]}",
     {"field 'agents[0].params'", "got [1]", NULL}},
    {"{\"game\": \"solo\", \"confidence\": 95, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'confidence'", "got 95", NULL}},
    {"{\"game\": \"solo\", \"rules\": 3, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'rules'", "got 3", NULL}},
    {"{\"game\": \"solo\", \"time_limit_ms\": -1, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'time_limit_ms'", "got -1", "from 0"}},
    {"{\"game\": \"solo\", \"game_time_limit_ms\": \"1s\", \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'game_time_limit_ms'", "got \"1s\"", NULL}},
    {"{\"game\": \"solo\", \"memory_limit_mb\": 8, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'memory_limit_mb'", "got 8", "32"}},
    {"{\"game\": \"solo\", \"memory_limit_mb\": 1.5, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'memory_limit_mb'", "got 1.5", NULL}},
    {"{\"game\": \"solo\", \"fault_policy\": \"ignore\", \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'fault_policy'", "got \"ignore\"", "forfeit"}},
    {"{\"game\": \"solo\", \"illegal_policy\": true, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'illegal_policy'", "got true", "substitute"}},
    /* labels go into tables, file names and JSON keys unescaped: only [A-Za-z0-9_.:+=-] */
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\", \"label\": \"a|b\"}]}",
     {"field 'agents[0].label'", "got \"a|b\"", "letters, digits and _.:+=-"}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\", \"label\": \"a\\\"b\"}]}",
     {"field 'agents[0].label'", "got \"a\\\"b\"", NULL}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\", \"label\": \"a\\nb\"}]}",
     {"field 'agents[0].label'", "got \"a\\nb\"", NULL}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\", \"label\": \"caf\\u00e9\"}]}",
     {"field 'agents[0].label'", NULL, NULL}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\", \"label\": "
     "\"0123456789012345678901234567890123456789012345678901234567890123\"}]}",
     {"field 'agents[0].label'", "1 to 63 characters", NULL}},
    {"{\"game\": \"solo\", \"agents\": [{\"plugin\": \"x/a|b.so\"}]}",
     {"field 'agents[0].label'", "cannot derive a label", "got \"x/a|b.so\""}},
    /* confidence: the statistics' intervals stay finite from 0.5 to 0.999 */
    {"{\"game\": \"solo\", \"confidence\": 0.4999, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'confidence'", "got 0.4999", "from 0.5 to 0.999"}},
    {"{\"game\": \"solo\", \"confidence\": 0.99951171875, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'confidence'", "got 0.99951171875", NULL}},
    {"{\"game\": \"solo\", \"confidence\": 0.9999999999999999, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'confidence'", NULL, NULL}},
    {"{\"game\": \"solo\", \"confidence\": 1, \"agents\": [{\"plugin\": \"g\"}]}",
     {"field 'confidence'", "got 1", NULL}},
    {"[1, 2]", {"top level", "got [1,2]", NULL}},
    {"{\"game\": \"solo\",, }", {"invalid JSON", "bad.json:1:", NULL}},
    {NULL, {NULL}},
};

static void test_refusals(void) {
  for (const bad_case *c = bad; c->json; c++) {
    tk_spec s;
    tk_error e;
    tk_error_clear(&e);
    int rc = tk_spec_parse(c->json, "bad.json", &s, &e);
    if (rc == 0) {
      TK_FAILF("accepted: %s", c->json);
      tk_spec_free(&s);
      continue;
    }
    if (strncmp(e.msg, "bad.json", 8)) TK_FAILF("message does not name the file: %s", e.msg);
    for (int i = 0; i < 3 && c->needles[i]; i++)
      if (!strstr(e.msg, c->needles[i]))
        TK_FAILF("message for %s lacks \"%s\": %s", c->json, c->needles[i], e.msg);
    CU_PASS(c->json);
  }
}

/* The edges of confidence are accepted, and the schema states the same range as the parser. */
static void test_confidence_edges(void) {
  const double edges[2] = {TK_CONFIDENCE_MIN, TK_CONFIDENCE_MAX};
  for (int i = 0; i < 2; i++) {
    char text[256];
    snprintf(text, sizeof text, "{\"game\": \"solo\", \"confidence\": %.17g, \"agents\": "
             "[{\"plugin\": \"g\"}]}", edges[i]);
    tk_spec s;
    tk_error e;
    tk_error_clear(&e);
    int rc = tk_spec_parse(text, "edge.json", &s, &e);
    if (rc) TK_FAILF("confidence %.17g refused: %s", edges[i], e.msg);
    else CU_ASSERT_DOUBLE_EQUAL(s.confidence, edges[i], 0);
    tk_spec_free(&s);
  }
  CU_ASSERT_DOUBLE_EQUAL(TK_CONFIDENCE_MIN, 0.5, 0);
  CU_ASSERT_DOUBLE_EQUAL(TK_CONFIDENCE_MAX, 0.999, 0);
  json_t *schema = json_load_file(TK_SOURCE_DIR "/harness/spec.schema.json", 0, NULL);
  json_t *c = json_object_get(json_object_get(schema, "properties"), "confidence");
  CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(c, "minimum")), TK_CONFIDENCE_MIN, 0);
  CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(c, "maximum")), TK_CONFIDENCE_MAX, 0);
  json_decref(schema);
}

/* Writes `n` bytes to `path`: a valid spec padded with spaces (n >= its length). */
static void write_padded(const char *path, size_t n) {
  static const char head[] = "{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\"}]}";
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(head, f);
  for (size_t i = sizeof head - 1; i < n; i++) fputc(' ', f);
  fclose(f);
}

/* A spec is read with a bound: 1 MiB loads, one byte more is refused naming the file and the
 * bound, and so are /dev/zero (without reading it all), a NUL byte and a folder. */
static void test_load_bounds(void) {
  char dir[] = "/tmp/tk-spec-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char path[64];
  snprintf(path, sizeof path, "%s/big.json", dir);
  tk_spec s;
  tk_error e;
  tk_error_clear(&e);
  write_padded(path, TK_SPEC_MAX_BYTES);
  int rc = tk_spec_load(path, &s, &e);
  if (rc) TK_FAILF("a spec of exactly 1 MiB refused: %s", e.msg);
  else tk_spec_free(&s);
  write_padded(path, TK_SPEC_MAX_BYTES + 1);
  TK_EQ(tk_spec_load(path, &s, &e), TK_ERANGE, "1 MiB + 1");
  if (!strstr(e.msg, path) || !strstr(e.msg, "larger than 1048576 bytes (1 MiB)"))
    TK_FAILF("message: %s", e.msg);
  tk_error_clear(&e);
  TK_EQ(tk_spec_load("/dev/zero", &s, &e), TK_EINVAL, "/dev/zero");
  if (strcmp(e.msg, "/dev/zero: is a character device, not a regular file; taikai reads only "
                    "regular files"))
    TK_FAILF("message: %s", e.msg);
  tk_error_clear(&e);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fwrite("{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\"}]}\0{", 1, 47, f);
  fclose(f);
  TK_EQ(tk_spec_load(path, &s, &e), TK_EPARSE, "NUL byte");
  if (!strstr(e.msg, "a NUL byte at offset 45")) TK_FAILF("message: %s", e.msg);
  tk_error_clear(&e);
  TK_EQ(tk_spec_load(dir, &s, &e), TK_EINVAL, "a folder");
  if (!strstr(e.msg, dir) || !strstr(e.msg, "is a folder, not a regular file"))
    TK_FAILF("message: %s", e.msg);
  remove(path);
  rmdir(dir);
}

static void test_load_missing(void) {
  tk_spec s;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_spec_load("/nonexistent/spec.json", &s, &e), TK_ENOTFOUND);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent/spec.json"));
}

/* The preset loads, and the JSON Schema names exactly the fields the parser accepts. */
static void test_preset_and_schema(void) {
  tk_spec s;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_spec_load(TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json", &s, &e);
  if (rc) TK_FAILF("preset refused: %s", e.msg);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  CU_ASSERT_STRING_EQUAL(s.agents[0].plugin, "greedy");
  tk_spec_free(&s);
  json_t *schema = json_load_file(TK_SOURCE_DIR "/harness/spec.schema.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(schema);
  json_t *props = json_object_get(schema, "properties");
  const char *key;
  json_t *v;
  json_object_foreach(props, key, v) {
    /* a spec holding only this field (plus the required ones) must not be refused as unknown */
    char text[512];
    json_t *ex = json_object_get(v, "default");
    char *val = ex ? json_dumps(ex, JSON_ENCODE_ANY) : NULL;
    snprintf(text, sizeof text, "{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\"}], \"%s\": %s}",
             key, val ? val : "\"x\"");
    free(val);
    if (!strcmp(key, "game") || !strcmp(key, "agents")) continue;
    tk_error_clear(&e);
    if (tk_spec_parse(text, "schema.json", &s, &e) == 0) tk_spec_free(&s);
    if (strstr(e.msg, "unknown field")) TK_FAILF("schema field '%s' unknown to the parser", key);
  }
  json_decref(schema);
}

/* ------------------------------------------------------------------ the schema, checked */

/* A validator for the part of JSON Schema that spec.schema.json uses: type, enum, const,
 * properties, additionalProperties (false), required, minimum, maximum, exclusiveMinimum,
 * exclusiveMaximum, multipleOf, minLength, pattern, items, minItems, maxItems, allOf, if/then.
 * Appends the first violation's path to `why`; returns 1 if `v` is valid. */
static int type_is(const char *t, json_t *v) {
  if (!strcmp(t, "object")) return json_is_object(v);
  if (!strcmp(t, "array")) return json_is_array(v);
  if (!strcmp(t, "string")) return json_is_string(v);
  if (!strcmp(t, "integer")) return json_is_integer(v);
  if (!strcmp(t, "number")) return json_is_number(v);
  if (!strcmp(t, "boolean")) return json_is_boolean(v);
  return 0;
}

static int valid(json_t *schema, json_t *v, const char *path, char *why, size_t cap) {
#define BAD(...) (snprintf(why, cap, __VA_ARGS__), 0)
  json_t *x;
  if ((x = json_object_get(schema, "type")) && !type_is(json_string_value(x), v))
    return BAD("%s: not of type %s", path, json_string_value(x));
  if ((x = json_object_get(schema, "const")) && !json_equal(x, v)) return BAD("%s: not the const", path);
  if ((x = json_object_get(schema, "enum"))) {
    int ok = 0;
    for (size_t i = 0; i < json_array_size(x); i++) ok |= json_equal(json_array_get(x, i), v);
    if (!ok) return BAD("%s: not in the enum", path);
  }
  if (json_is_number(v)) {
    double d = json_number_value(v);
    if ((x = json_object_get(schema, "minimum")) && d < json_number_value(x)) return BAD("%s: below minimum", path);
    if ((x = json_object_get(schema, "maximum")) && d > json_number_value(x)) return BAD("%s: above maximum", path);
    if ((x = json_object_get(schema, "exclusiveMinimum")) && d <= json_number_value(x)) return BAD("%s: <= exclusiveMinimum", path);
    if ((x = json_object_get(schema, "exclusiveMaximum")) && d >= json_number_value(x)) return BAD("%s: >= exclusiveMaximum", path);
    if ((x = json_object_get(schema, "multipleOf")) && json_is_integer(v) &&
        json_integer_value(v) % json_integer_value(x))
      return BAD("%s: not a multiple", path);
  }
  if (json_is_string(v)) {
    if ((x = json_object_get(schema, "minLength")) && strlen(json_string_value(v)) < (size_t)json_integer_value(x))
      return BAD("%s: too short", path);
    if ((x = json_object_get(schema, "pattern"))) {
      regex_t re;
      if (regcomp(&re, json_string_value(x), REG_EXTENDED | REG_NOSUB)) return BAD("%s: bad pattern", path);
      int m = regexec(&re, json_string_value(v), 0, NULL, 0);
      regfree(&re);
      if (m) return BAD("%s: does not match %s", path, json_string_value(x));
    }
  }
  if (json_is_array(v)) {
    if ((x = json_object_get(schema, "minItems")) && json_array_size(v) < (size_t)json_integer_value(x)) return BAD("%s: too few items", path);
    if ((x = json_object_get(schema, "maxItems")) && json_array_size(v) > (size_t)json_integer_value(x)) return BAD("%s: too many items", path);
    if ((x = json_object_get(schema, "items")))
      for (size_t i = 0; i < json_array_size(v); i++) {
        char sub[256];
        snprintf(sub, sizeof sub, "%s[%zu]", path, i);
        if (!valid(x, json_array_get(v, i), sub, why, cap)) return 0;
      }
  }
  if (json_is_object(v)) {
    json_t *props = json_object_get(schema, "properties");
    if ((x = json_object_get(schema, "required")))
      for (size_t i = 0; i < json_array_size(x); i++)
        if (!json_object_get(v, json_string_value(json_array_get(x, i))))
          return BAD("%s: lacks %s", path, json_string_value(json_array_get(x, i)));
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val) {
      char sub[256];
      snprintf(sub, sizeof sub, "%s.%s", path, key);
      json_t *ps = json_object_get(props, key);
      if (ps) {
        if (!valid(ps, val, sub, why, cap)) return 0;
      } else if (json_is_false(json_object_get(schema, "additionalProperties"))) {
        return BAD("%s: not allowed", sub);
      }
    }
  }
  if ((x = json_object_get(schema, "allOf")))
    for (size_t i = 0; i < json_array_size(x); i++) {
      json_t *sub = json_array_get(x, i), *cond = json_object_get(sub, "if");
      char scratch[256];
      if (cond && !valid(cond, v, path, scratch, sizeof scratch)) continue;
      if (!valid(cond ? json_object_get(sub, "then") : sub, v, path, why, cap)) return 0;
    }
  return 1;
#undef BAD
}

static json_t *load_schema(void) {
  json_t *schema = json_load_file(TK_SOURCE_DIR "/harness/spec.schema.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL(schema);
  return schema;
}

/* Every preset in the tree validates; specs the parser refuses for a rule the schema knows
 * about are refused by the schema too. */
static void test_presets_validate(void) {
  json_t *schema = load_schema();
  if (!schema) return;
  FILE *p = popen("cd '" TK_SOURCE_DIR "' && git ls-files 'arenas/*.json' 'plugins/*.json' 2>/dev/null || "
                  "find arenas plugins -name '*.json'", "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  char rel[512];
  int specs = 0;
  while (fgets(rel, sizeof rel, p)) {
    rel[strcspn(rel, "\n")] = '\0';
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TK_SOURCE_DIR, rel);
    json_t *j = json_load_file(path, 0, NULL);
    if (!json_is_object(j) || !json_object_get(j, "game") || !json_object_get(j, "agents")) {
      json_decref(j); /* a reference table, not a spec */
      continue;
    }
    char why[512] = "";
    if (!valid(schema, j, rel, why, sizeof why)) TK_FAILF("%s", why);
    specs++;
    json_decref(j);
  }
  pclose(p);
  CU_ASSERT(specs >= 10);
  /* the validator can fail: a solo rule under riichi, an unknown rule, a bad value */
  const char *refused[] = {
      "{\"game\": \"riichi\", \"agents\": [{\"plugin\": \"x\"}], \"rules\": {\"draws\": 3}}",
      "{\"game\": \"solo\", \"agents\": [{\"plugin\": \"x\"}], \"rules\": {\"length\": \"east\"}}",
      "{\"game\": \"daifugo\", \"agents\": [{\"plugin\": \"x\"}], \"rules\": {\"sennichite\": 1}}",
      "{\"game\": \"riichi\", \"agents\": [{\"plugin\": \"x\"}], \"rules\": {\"uma\": [1, 2, 3]}}",
      "{\"game\": \"chess\", \"agents\": [{\"plugin\": \"x\"}]}",
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    json_t *j = json_loads(refused[i], 0, NULL);
    char why[512];
    if (valid(schema, j, "spec", why, sizeof why)) TK_FAILF("schema accepts %s", refused[i]);
    json_decref(j);
  }
  json_decref(schema);
}

/* The schema's games are the registered games, and each game's rule options in the schema are
 * exactly the ones its parser resolves, with the same defaults. */
/* harness/spec.schema.json is what `taikai schema` assembles from the referee's part and the
 * registered games' fragments (regenerate: taikai schema > harness/spec.schema.json). */
static void test_schema_file_current(void) {
  json_t *file = load_schema();
  if (!file) return;
  tk_error e;
  tk_error_clear(&e);
  json_t *built = tk_spec_schema(&e);
  if (!built) TK_FAILF("tk_spec_schema: %s", e.msg);
  CU_ASSERT_PTR_NOT_NULL_FATAL(built);
  if (!json_equal(file, built))
    TK_FAILF("harness/spec.schema.json is not the schema of this build: regenerate it with %s",
             "`taikai schema > harness/spec.schema.json`");
  for (const tk_game *const *g = tk_game_all(); *g; g++)
    if (!(*g)->rules_schema) TK_FAILF("game '%s' has no rules schema", (*g)->name);
  json_decref(built);
  json_decref(file);
}

static void test_schema_matches_games(void) {
  json_t *schema = load_schema();
  if (!schema) return;
  json_t *names = json_object_get(json_object_get(json_object_get(schema, "properties"), "game"), "enum");
  int n = 0;
  for (const tk_game *const *g = tk_game_all(); *g; g++, n++) {
    int listed = 0;
    for (size_t i = 0; i < json_array_size(names); i++)
      listed |= !strcmp(json_string_value(json_array_get(names, i)), (*g)->name);
    if (!listed) TK_FAILF("game '%s' is not in the schema's enum", (*g)->name);
    json_t *rules = NULL, *all = json_object_get(schema, "allOf");
    for (size_t i = 0; i < json_array_size(all); i++) {
      json_t *c = json_object_get(json_object_get(json_object_get(json_object_get(json_array_get(all, i), "if"), "properties"), "game"), "const");
      if (c && !strcmp(json_string_value(c), (*g)->name))
        rules = json_object_get(json_object_get(json_object_get(json_object_get(json_array_get(all, i), "then"), "properties"), "rules"), "properties");
    }
    if (!rules) {
      TK_FAILF("no rules for game '%s' in the schema", (*g)->name);
      continue;
    }
    if ((*g)->view_size > TK_WATCH_SNAP) TK_FAILF("%s: a view of %zu bytes does not fit the watch", (*g)->name, (*g)->view_size);
    void *parsed = calloc(1, (*g)->rules_size);
    json_t *empty = json_object(), *resolved = NULL;
    tk_error e;
    tk_error_clear(&e);
    CU_ASSERT_EQUAL_FATAL((*g)->parse_rules(empty, parsed, &resolved, "t", &e), 0);
    TK_EQ((long long)json_object_size(rules), (long long)json_object_size(resolved), (*g)->name);
    const char *key;
    json_t *val;
    json_object_foreach(resolved, key, val) {
      json_t *def = json_object_get(json_object_get(rules, key), "default");
      if (!def || !json_equal(def, val)) TK_FAILF("%s: rules.%s: the schema's default differs from the parser's", (*g)->name, key);
    }
    json_decref(resolved);
    json_decref(empty);
    free(parsed);
  }
  TK_EQ((long long)json_array_size(names), n, "as many games in the schema as registered");
  json_decref(schema);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"defaults", test_defaults},
      {"refusals", test_refusals},
      {"load_missing", test_load_missing},
      {"confidence_edges", test_confidence_edges},
      {"load_bounds", test_load_bounds},
      {"preset_and_schema", test_preset_and_schema},
      {"presets_validate", test_presets_validate},
      {"schema_matches_games", test_schema_matches_games},
      {"schema_file_current", test_schema_file_current},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee spec", tests);
}
