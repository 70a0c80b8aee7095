/* tests/referee/test_ref_loader.c — plugin loading: the built-in agents load and play, and each
 * fixture broken on purpose is refused with a message naming the file and the reason. */
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
      {"failing_create", test_failing_create},
      {"params", test_params},
      {"play", test_play},
      {"find", test_find},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee loader", tests);
}
