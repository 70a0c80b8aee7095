/* tests/referee/test_ref_spec.c — spec validation: accepted specs get their defaults, and every
 * refusal names the file, the field and the offending value. */
#define _DEFAULT_SOURCE 1 /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec.h"
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
  TK_EQ(tk_spec_load("/dev/zero", &s, &e), TK_ERANGE, "/dev/zero");
  if (strncmp(e.msg, "/dev/zero: larger than", 22)) TK_FAILF("message: %s", e.msg);
  tk_error_clear(&e);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fwrite("{\"game\": \"solo\", \"agents\": [{\"plugin\": \"g\"}]}\0{", 1, 47, f);
  fclose(f);
  TK_EQ(tk_spec_load(path, &s, &e), TK_EPARSE, "NUL byte");
  if (!strstr(e.msg, "a NUL byte at offset 45")) TK_FAILF("message: %s", e.msg);
  tk_error_clear(&e);
  TK_EQ(tk_spec_load(dir, &s, &e), TK_EIO, "a folder");
  if (!strstr(e.msg, dir) || !strstr(e.msg, "cannot read")) TK_FAILF("message: %s", e.msg);
  remove(path);
  rmdir(dir);
}

static void test_load_missing(void) {
  tk_spec s;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_spec_load("/nonexistent/spec.json", &s, &e), TK_EIO);
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

int main(void) {
  CU_TestInfo tests[] = {
      {"defaults", test_defaults},
      {"refusals", test_refusals},
      {"load_missing", test_load_missing},
      {"confidence_edges", test_confidence_edges},
      {"load_bounds", test_load_bounds},
      {"preset_and_schema", test_preset_and_schema},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee spec", tests);
}
