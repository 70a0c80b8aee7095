/* tests/referee/test_ref_loader.c — plugin loading: the built-in agents load and play, each
 * fixture broken on purpose is refused with a message naming the file and the reason, metadata
 * a report could not show is refused, and a loaded plugin carries its file's SHA-256. */
#define _DEFAULT_SOURCE 1 /* mkstemps */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "taikai/solo.h"
#include "unit.h"

#define FX(name) TK_FIXTURE_DIR "/" name ".so"
#define PLUGIN(name) TK_PLUGIN_DIR "/" name ".so"

static void expect_refusal(const char *path, int code, const char *needle) {
  tk_plugin p;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_plugin_open(&p, path, "solo", &e);
  if (rc != code) TK_FAILF("%s: rc %d, expected %d (%s)", path, rc, code, e.msg);
  if (!strstr(e.msg, path)) TK_FAILF("message does not name the file: %s", e.msg);
  if (!strstr(e.msg, needle)) TK_FAILF("message lacks \"%s\": %s", needle, e.msg);
  CU_ASSERT_PTR_NULL(p.handle);
  tk_plugin_close(&p);
}

static void test_refusals(void) {
  expect_refusal(FX("bad_abi"), TK_EABI, "ABI version 999");
  expect_refusal(FX("bad_size"), TK_EABI, "descriptor size 16");
  expect_refusal(FX("abi_v1"), TK_EABI, "ABI version 1, this taikai supports version 2");
  expect_refusal(FX("bad_types"), TK_EABI,
                 "built against solo types version 1, this taikai has version 2");
  expect_refusal(FX("no_entry"), TK_ENOTFOUND, "no symbol 'taikai_agent_entry'");
  expect_refusal(FX("wrong_game"), TK_EINVAL, "plays game 'daifugo'");
  expect_refusal(TK_FIXTURE_DIR "/missing.so", TK_EIO, "cannot load");
}

/* Names outside [a-z0-9_-]+, and versions or descriptions that are not UTF-8 or hold control
 * characters: refused at load with the field, the value (escaped) and the reason. */
static void test_metadata(void) {
  expect_refusal(FX("meta_name_upper"), TK_EINVAL, "field 'name' is \"Greedy\": expected 1 to 63 "
                 "characters among a-z, 0-9, _ and -");
  expect_refusal(FX("meta_name_pipe"), TK_EINVAL, "field 'name' is \"greedy|x\"");
  expect_refusal(FX("meta_name_quote_nl"), TK_EINVAL, "field 'name' is \"gr\\\"eedy\\x0ax\"");
  expect_refusal(FX("meta_name_empty"), TK_EINVAL, "field 'name' is \"\"");
  expect_refusal(FX("meta_version_utf8"), TK_EINVAL,
                 "field 'version' is \"1.0\\xff\": byte 0xff at offset 3 is not UTF-8");
  expect_refusal(FX("meta_version_ctrl"), TK_EINVAL,
                 "field 'version' is \"1.0\\x1b[2J\": control character U+001B at offset 3");
  expect_refusal(FX("meta_version_pipe"), TK_EINVAL, "field 'version' is \"1.0|x\": expected 1 to "
                 "63 bytes without '|'");
  expect_refusal(FX("meta_description_utf8"), TK_EINVAL,
                 "field 'description' (\"caf\\xe9 au lait\"...): byte 0xe9 at offset 3 is not UTF-8");
  expect_refusal(FX("meta_description_ctrl"), TK_EINVAL,
                 "control character U+000D at offset 3");
  /* valid non-ASCII UTF-8 is accepted */
  tk_plugin p;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_plugin_open(&p, FX("meta_ok"), "solo", &e);
  if (rc) TK_FAILF("meta_ok refused: %s", e.msg);
  else CU_ASSERT_STRING_EQUAL(p.desc->version, "1.0.0-\xce\xb2");
  tk_plugin_close(&p);
}

/* The UTF-8 and control-character check on its own, at the edges of each rule. */
static void test_text_check(void) {
  static const struct {
    const char *s;
    const char *why; /* NULL: accepted */
  } cases[] = {
      {"", NULL},
      {"plain ASCII ~", NULL},
      {"\xc2\xa0 U+00A0", NULL},                 /* first code point after the C1 controls */
      {"\xe5\xa4\xa7\xe4\xbc\x9a", NULL},         /* 大会 */
      {"\xf4\x8f\xbf\xbf", NULL},                 /* U+10FFFF, the last code point */
      {"\xef\xbf\xbd", NULL},                     /* U+FFFD */
      {"a\tb", "control character U+0009 at offset 1"},
      {"a\x7f", "control character U+007F at offset 1"},
      {"\xc2\x85", "control character U+0085 at offset 0"}, /* NEL, a C1 control */
      {"\xc2\x9f", "control character U+009F at offset 0"},
      {"ab\x80", "byte 0x80 at offset 2 is not UTF-8"},     /* a lone continuation byte */
      {"\xc0\xaf", "byte 0xc0 at offset 0 is not UTF-8"},  /* overlong '/' */
      {"\xe0\x80\xaf", "byte 0xe0 at offset 0 is not UTF-8"}, /* overlong, 3 bytes */
      {"\xed\xa0\x80", "byte 0xed at offset 0 is not UTF-8"}, /* a surrogate, U+D800 */
      {"\xf4\x90\x80\x80", "byte 0xf4 at offset 0 is not UTF-8"}, /* U+110000 */
      {"x\xe5\xa4", "byte 0xe5 at offset 1 is not UTF-8"},   /* truncated at the end */
      {"\xe5\xa4z", "byte 0xe5 at offset 0 is not UTF-8"},   /* truncated before ASCII */
      {"\xf8\x88\x80\x80\x80", "byte 0xf8 at offset 0 is not UTF-8"}, /* 5-byte form */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char why[128] = "";
    int rc = tk_plugin_text_check(cases[i].s, why, sizeof why);
    if (!cases[i].why) {
      if (rc) TK_FAILF("case %zu refused: %s", i, why);
    } else if (!rc || strcmp(why, cases[i].why)) {
      TK_FAILF("case %zu: rc %d \"%s\", expected \"%s\"", i, rc, why, cases[i].why);
    }
    CU_PASS("text");
  }
}

/* A loaded plugin carries the SHA-256 of its file: the same as hashing the file, different for
 * a copy with one more byte, which still loads. */
static void test_sha256(void) {
  tk_plugin p;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_plugin_open(&p, PLUGIN("greedy"), "solo", &e), 0);
  char want[TK_SHA256_HEX];
  CU_ASSERT_EQUAL(tk_sha256_file(PLUGIN("greedy"), want, &e), 0);
  CU_ASSERT_STRING_EQUAL(p.sha256, want);
  CU_ASSERT_EQUAL(strlen(p.sha256), 64);
  tk_plugin_close(&p);
  char copy[] = "/tmp/tk-loader-XXXXXX.so";
  int fd = mkstemps(copy, 3);
  CU_ASSERT_FATAL(fd >= 0);
  FILE *in = fopen(PLUGIN("greedy"), "rb"), *out = fdopen(fd, "wb");
  CU_ASSERT_FATAL(in && out);
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, in)) > 0;) fwrite(buf, 1, n, out);
  fputc(0, out);
  fclose(in);
  fclose(out);
  tk_error_clear(&e);
  int rc = tk_plugin_open(&p, copy, "solo", &e);
  if (rc) TK_FAILF("the copy with one more byte does not load: %s", e.msg);
  else if (!strcmp(p.sha256, want)) TK_FAILF("the copy has the same hash %s", want);
  tk_plugin_close(&p);
  remove(copy);
}

static void test_failing_create(void) {
  tk_plugin p;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_plugin_open(&p, FX("fail_create"), "solo", &e), 0);
  CU_ASSERT_EQUAL(tk_plugin_try_create(&p, "{}", 1, &e), TK_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "fail_create.so: create failed: this fixture always fails"));
  tk_plugin_close(&p);
}

static void test_params(void) {
  tk_plugin p;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_plugin_open(&p, PLUGIN("greedy"), "solo", &e), 0);
  CU_ASSERT_STRING_EQUAL(p.desc->name, "greedy");
  json_t *res = NULL, *user = json_pack("{s:s}", "tie_break", "last");
  CU_ASSERT_EQUAL(tk_plugin_params(&p, "g", user, &res, &e), 0);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res, "tie_break")), "last");
  json_decref(res);
  json_decref(user);
  user = json_pack("{s:i}", "depth", 3);
  CU_ASSERT_EQUAL(tk_plugin_params(&p, "g", user, &res, &e), TK_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "unknown parameter 'depth'"));
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "greedy.so"));
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "tie_break"));
  json_decref(user);
  tk_error_clear(&e);
  user = json_pack("{s:i}", "tie_break", 3);
  CU_ASSERT_EQUAL(tk_plugin_params(&p, "g", user, &res, &e), TK_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "must be a string, got 3"));
  json_decref(user);
  /* a value the plugin itself rejects fails its create */
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_plugin_try_create(&p, "{\"tie_break\": \"middle\"}", 1, &e), TK_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "tie_break must be"));
  tk_plugin_close(&p);
}

/* The built-in agents play whole games through the ABI. */
/* An ABI 2 plugin built before the optional fields: loaded, its declared size kept, the fields
 * beyond it NULL, and it plays; a plugin with them has them. */
static void test_v2_base(void) {
  tk_plugin p;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_plugin_open(&p, FX("abi_v2_base"), "solo", &e);
  if (rc) {
    TK_FAILF("abi_v2_base refused: %s", e.msg);
    return;
  }
  TK_EQ(p.desc->struct_size, TK_AGENT_DESCRIPTOR_V2_BASE, "declared size");
  CU_ASSERT_PTR_NULL(p.desc->last_error);
  CU_ASSERT_PTR_NULL(p.desc->file);
  CU_ASSERT_STRING_EQUAL(p.desc->name, "abi_v2_base");
  void *inst = p.desc->create("{}", 1, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(inst);
  uint8_t wall[TK_SOLO_WALL_TILES];
  tk_solo_wall(5, 0, wall);
  tk_solo_game g;
  tk_solo_init(&g, wall, NULL, NULL);
  tk_solo_view v;
  tk_solo_legal l;
  tk_solo_view_of(&g, &v);
  tk_solo_legal_of(&g, &l);
  tk_solo_action a = {TK_TILE_NONE};
  TK_EQ(p.desc->act(inst, &v, &l, &a), 0, "act");
  TK_EQ(a.discard, v.drawn, "tsumogiri");
  p.desc->destroy(inst);
  tk_plugin_close(&p);
  TK_EQ(tk_plugin_open(&p, PLUGIN("tsumogiri"), "solo", &e), 0, "tsumogiri");
  TK_EQ(p.desc->struct_size, sizeof(tk_agent_descriptor), "a plugin built now: the whole size");
  tk_plugin_close(&p);
}

static void test_play(void) {
  const char *names[] = {PLUGIN("greedy"), PLUGIN("tsumogiri"), PLUGIN("random")};
  for (int i = 0; i < 3; i++) {
    tk_plugin p;
    tk_error e;
    tk_error_clear(&e);
    CU_ASSERT_EQUAL_FATAL(tk_plugin_open(&p, names[i], "solo", &e), 0);
    void *inst = p.desc->create(p.desc->params_json, 7, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(inst);
    int wins = 0;
    for (int w = 0; w < 300; w++) {
      uint8_t wall[TK_SOLO_WALL_TILES];
      tk_solo_wall(77, (uint64_t)w, wall);
      tk_solo_game g;
      tk_solo_init(&g, wall, NULL, NULL);
      tk_solo_info info = {.head = {.seed = (uint64_t)w, .wall = (uint64_t)w}, .draws = g.draws, .dora_indicator = g.dora_indicator};
      CU_ASSERT_EQUAL(p.desc->begin_game(inst, &info), 0);
      while (!tk_solo_is_over(&g)) {
        tk_solo_view v;
        tk_solo_legal l;
        tk_solo_view_of(&g, &v);
        tk_solo_legal_of(&g, &l);
        tk_solo_action a = {TK_TILE_NONE};
        CU_ASSERT_EQUAL_FATAL(p.desc->act(inst, &v, &l, &a), 0);
        CU_ASSERT_EQUAL_FATAL(tk_solo_apply(&g, &a, NULL), 0);
      }
      wins += g.won;
    }
    p.desc->destroy(inst);
    if (i == 0 && (wins < 25 || wins > 90)) TK_FAILF("greedy won %d of 300", wins);
    tk_plugin_close(&p);
  }
}

static void test_find(void) {
  char out[TK_PATH_MAX];
  tk_error e;
  tk_error_clear(&e);
  setenv("TAIKAI_PLUGIN_PATH", "/nonexistent:" TK_PLUGIN_DIR, 1);
  CU_ASSERT_EQUAL(tk_plugin_find("greedy", NULL, out, sizeof out, &e), 0);
  CU_ASSERT_STRING_EQUAL(out, PLUGIN("greedy"));
  CU_ASSERT_EQUAL(tk_plugin_find("nosuchagent", NULL, out, sizeof out, &e), TK_ENOTFOUND);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "nosuchagent"));
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_plugin_find("greedy.so", TK_PLUGIN_DIR, out, sizeof out, &e), 0);
  CU_ASSERT_EQUAL(tk_plugin_find("./nope.so", "/tmp", out, sizeof out, &e), TK_ENOTFOUND);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"refusals", test_refusals},
      {"metadata", test_metadata},
      {"text_check", test_text_check},
      {"sha256", test_sha256},
      {"failing_create", test_failing_create},
      {"params", test_params},
      {"play", test_play},
      {"abi 2 without the optional fields", test_v2_base},
      {"find", test_find},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee loader", tests);
}
