/* tests/referee/test_ref_port.c — the referee's agent-call loop reproduces the games of the
 * drivers it replaced: the solo preset (500 walls) and the riichi duplicate preset (20 game
 * indices) give byte for byte the games.jsonl that taikai wrote before the loop existed (its
 * SHA-256 recorded in tests/data/golden/port.json, with every agent's metric values from the
 * summary.json of that run), whatever -j. */
#include <math.h>

#define WORK TK_WORK_DIR "-port" /* not inside test_ref_e2e's folder, which it removes */
#include "e2e_util.h"

/* sha256sum's digest of a file (coreutils), or "" */
static void sha256_of(const char *path, char out[65]) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "sha256sum '%s'", path);
  out[0] = '\0';
  FILE *p = popen(cmd, "r");
  if (!p) return;
  if (fscanf(p, "%64s", out) != 1) out[0] = '\0';
  pclose(p);
}

static void check(const char *game, const char *preset, const char *walls, const char *jobs) {
  json_t *golden = json_load_file(TK_SOURCE_DIR "/tests/data/golden/port.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(golden);
  json_t *g = json_object_get(golden, game);
  char out[1200], path[1300];
  snprintf(out, sizeof out, "%s/%s-j%s", WORK, game, jobs);
  const char *args[] = {"run", preset, "--walls", walls, "-j", jobs, "--out", out, "--quiet", NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("%s: exit %d: %s", game, rc, err_buf);
  char hex[65];
  snprintf(path, sizeof path, "%s/games.jsonl", out);
  sha256_of(path, hex);
  const char *want = json_string_value(json_object_get(g, "games_sha256"));
  if (strcmp(hex, want)) TK_FAILF("%s -j %s: games.jsonl sha256 %s, before the port %s", game, jobs, hex, want);
  else CU_PASS("games.jsonl identical");
  snprintf(path, sizeof path, "%s/summary.json", out);
  json_t *sum = json_load_file(path, 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  json_t *agents = json_object_get(sum, "agents"), *vals = json_object_get(g, "values");
  TK_EQ((long long)json_array_size(agents), (long long)json_object_size(vals), "agents");
  int compared = 0;
  for (size_t i = 0; i < json_array_size(agents); i++) {
    json_t *a = json_array_get(agents, i);
    json_t *v = json_object_get(vals, json_string_value(json_object_get(a, "label")));
    const char *metric;
    json_t *x;
    json_object_foreach(v, metric, x) {
      double now = json_number_value(json_object_get(json_object_get(a, metric), "value"));
      double was = json_number_value(x);
      if (!(fabs(now - was) <= 1e-9 * (1 + fabs(was))))
        TK_FAILF("%s: %s %s = %.12g, before the port %.12g", game,
                 json_string_value(json_object_get(a, "label")), metric, now, was);
      compared++;
    }
  }
  CU_ASSERT(compared >= 12);
  json_decref(sum);
  json_decref(golden);
}

static void test_solo(void) {
  check("solo", TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json", "500", "1");
  check("solo", TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json", "500", "2");
}

static void test_riichi(void) {
  check("riichi", TK_SOURCE_DIR "/arenas/riichi/greedy-vs-tsumogiri.json", "20", "2");
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"solo_preset", test_solo},
      {"riichi_preset", test_riichi},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("the loop reproduces the drivers' games", tests);
}
