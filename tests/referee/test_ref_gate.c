/* tests/referee/test_ref_gate.c — `taikai gate` and `taikai run --sprt` end to end, on one-player
 * mahjong: komatsu (100 playouts) against greedy on points per win passes, a deliberately
 * weakened komatsu (3 playouts) fails; the decision and every output byte are the same with 1 and
 * 2 workers, after an interruption, and when a gate that ran out of walls is extended; bad
 * arguments are refused naming what is wrong; a plain run extended with more walls equals a run
 * made with them from the start. A decided gate is reported as stopped by its test, never as an
 * incomplete run; a folder holding another test is refused naming each field that differs. */
#include "e2e_util.h"

static const char *STRONG = "{\"plugin\": \"komatsu\", \"label\": \"komatsu\", "
                            "\"params\": {\"playouts\": 100}}";
static const char *WEAK = "{\"plugin\": \"komatsu\", \"label\": \"komatsu\", "
                          "\"params\": {\"playouts\": 3}}";

static void write_spec(const char *path, const char *candidate, int walls) {
  char text[1024];
  snprintf(text, sizeof text,
           "{\"game\": \"solo\", \"seed\": 20261124, \"walls\": %d, \"format\": \"field\",\n"
           " \"agents\": [{\"plugin\": \"greedy\", \"label\": \"greedy\"}, %s],\n"
           " \"rules\": {\"draws\": 18, \"dora\": true}}\n", walls, candidate);
  write_file(path, text);
}

static int gate(const char *spec, const char *out, const char *jobs, const char *max_walls) {
  const char *args[] = {"gate", spec, "--candidate", "komatsu", "--baseline", "greedy",
                        "--metric", "points_per_win", "--bounds", "0,0.2", "-j", jobs, "--out",
                        out, "--quiet", max_walls ? "--max-walls" : NULL, max_walls, NULL};
  return taikai(args);
}

static json_t *load(const char *path) { return json_load_file(path, 0, NULL); }

/* Two spec.json files equal but for "output" (where each run lives). */
static int same_spec(const char *a, const char *b) {
  json_t *x = load(a), *y = load(b);
  int same = x && y;
  if (same) {
    json_object_del(x, "output");
    json_object_del(y, "output");
    same = json_equal(x, y);
  }
  json_decref(x);
  json_decref(y);
  return same;
}

static long long lines_of(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long long n = 0;
  for (int c; (c = fgetc(f)) != EOF;) n += c == '\n';
  fclose(f);
  return n;
}

/* A gate decided after `walls` of 1000 is reported as stopped by its test, not as an incomplete
 * run: on stdout (out_buf, the command just run), in report.md and in report.html. */
static void expect_decided(const char *dir, long long walls, const char *h) {
  char want[160], path[4096], text[1 << 17];
  snprintf(want, sizeof want, "Run stopped by the sequential test after %lld of 1000 walls (%s "
           "accepted): %lld of 2000 units played.", walls, h, 2 * walls);
  if (!strstr(out_buf, want)) TK_FAILF("stdout lacks '%s':\n%s", want, out_buf);
  CU_ASSERT(strstr(out_buf, "INCOMPLETE") == NULL);
  snprintf(path, sizeof path, "%s/report.md", dir);
  slurp(path, text, sizeof text);
  snprintf(want, sizeof want, "**Run stopped by the sequential test after %lld of 1000 walls (%s "
           "accepted)**", walls, h);
  if (!strstr(text, want)) TK_FAILF("%s lacks '%s'", path, want);
  CU_ASSERT(strstr(text, "Incomplete run") == NULL);
  snprintf(path, sizeof path, "%s/report.html", dir);
  slurp(path, text, sizeof text);
  snprintf(want, sizeof want, "units played, stopped by the sequential test after %lld of 1000 "
           "walls (%s accepted);", walls, h);
  if (!strstr(text, want)) TK_FAILF("%s lacks '%s'", path, want);
  CU_ASSERT(strstr(text, "incomplete run") == NULL);
}

static void test_pass_and_fail(void) {
  write_spec(W("strong.json"), STRONG, 1000);
  write_spec(W("weak.json"), WEAK, 1000);
  int rc = gate(W("strong.json"), W("pass"), "2", NULL);
  TK_EQ(rc, 0, err_buf);
  CU_ASSERT(strstr(out_buf, "H1 accepted") && strstr(out_buf, "PASSES"));
  json_t *g = load(W("pass/gate.json"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(g, "decision")), "H1");
  long long walls = (long long)json_integer_value(json_object_get(g, "walls"));
  CU_ASSERT(walls >= 20 && walls < 1000 && walls % 10 == 0);
  /* the run stops at the deciding wall: every line up to it and none after (2 agents a wall) */
  TK_EQ(lines_of(W("pass/games.jsonl")), 2 * walls, "games.jsonl lines");
  CU_ASSERT(json_real_value(json_object_get(g, "llr")) >= 2.944);
  json_t *ci = json_object_get(json_object_get(g, "difference"), "ci");
  CU_ASSERT(json_array_size(ci) == 2);
  json_t *s = load(W("pass/summary.json"));
  CU_ASSERT(json_is_false(json_object_get(s, "complete")));
  CU_ASSERT(strstr(json_string_value(json_object_get(s, "stopped")), "H1 accepted") != NULL);
  json_decref(s);
  json_decref(g);
  expect_decided(W("pass"), walls, "H1");

  rc = gate(W("weak.json"), W("fail"), "2", NULL);
  TK_EQ(rc, 1, err_buf);
  CU_ASSERT(strstr(out_buf, "H0 accepted") && strstr(out_buf, "FAILS"));
  g = load(W("fail/gate.json"));
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(g, "decision")), "H0");
  TK_EQ(json_integer_value(json_object_get(g, "exit_status")), 1, "gate.json exit_status");
  walls = (long long)json_integer_value(json_object_get(g, "walls"));
  json_decref(g);
  expect_decided(W("fail"), walls, "H0");
}

static void test_same_bytes(void) {
  write_spec(W("strong.json"), STRONG, 1000);
  TK_EQ(gate(W("strong.json"), W("j1"), "1", NULL), 0, err_buf);
  TK_EQ(gate(W("strong.json"), W("j2"), "2", NULL), 0, err_buf);
  CU_ASSERT(same_bytes(W("j1/games.jsonl"), W("j2/games.jsonl")));
  CU_ASSERT(same_bytes(W("j1/gate.json"), W("j2/gate.json")));
  CU_ASSERT(same_bytes(W("j1/summary.json"), W("j2/summary.json")));

  /* `taikai run --sprt` is the same test */
  const char *args[] = {"run", W("strong.json"), "--sprt", "--candidate", "komatsu",
                        "--baseline", "greedy", "--metric", "points_per_win", "--bounds",
                        "0,0.2", "--out", W("viarun"), "--quiet", NULL};
  TK_EQ(taikai(args), 0, err_buf);
  CU_ASSERT(same_bytes(W("j1/games.jsonl"), W("viarun/games.jsonl")));
  CU_ASSERT(same_bytes(W("j1/gate.json"), W("viarun/gate.json")));

  /* interrupted: the folder cut back to its first 30 lines, no summary; the same command ends
   * with the same bytes */
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "head -n 30 '%s' > '%s.cut' && mv '%s.cut' '%s' && rm -f '%s' '%s'",
           W("j2/games.jsonl"), W("j2/games.jsonl"), W("j2/games.jsonl"), W("j2/games.jsonl"),
           W("j2/summary.json"), W("j2/gate.json"));
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  TK_EQ(gate(W("strong.json"), W("j2"), "2", NULL), 0, err_buf);
  CU_ASSERT(same_bytes(W("j1/games.jsonl"), W("j2/games.jsonl")));
  CU_ASSERT(same_bytes(W("j1/gate.json"), W("j2/gate.json")));

  /* a gate that ran out of walls, extended with a larger cap, decides as one run with that cap */
  int rc = gate(W("strong.json"), W("ext"), "2", "20");
  TK_EQ(rc, 3, out_buf);
  CU_ASSERT(strstr(out_buf, "no decision within 20 walls") != NULL);
  TK_EQ(gate(W("strong.json"), W("ext"), "2", "1000"), 0, err_buf);
  CU_ASSERT(same_bytes(W("j1/games.jsonl"), W("ext/games.jsonl")));
  CU_ASSERT(same_bytes(W("j1/gate.json"), W("ext/gate.json")));
  CU_ASSERT(same_spec(W("j1/spec.json"), W("ext/spec.json")));
  /* a decided gate run again decides again without playing */
  TK_EQ(gate(W("strong.json"), W("j1"), "2", NULL), 0, err_buf);
  CU_ASSERT(same_bytes(W("j1/games.jsonl"), W("ext/games.jsonl")));
}

/* A cap that is not a multiple of --batch: the looks come every batch and once more at the cap,
 * so the last partial batch is tested too (15 walls, batch 10: looks at 10 and 15; no decision
 * before the 20 walls the test needs). */
static void test_last_partial_batch(void) {
  write_spec(W("strong.json"), STRONG, 1000);
  const char *args[] = {"gate", W("strong.json"), "--candidate", "komatsu", "--baseline",
                        "greedy", "--metric", "points_per_win", "--bounds", "0,0.2", "-j", "2",
                        "--batch", "10", "--max-walls", "15", "--out", W("partial"), "--quiet",
                        NULL};
  TK_EQ(taikai(args), 3, out_buf);
  CU_ASSERT(strstr(out_buf, "no decision within 15 walls") != NULL);
  json_t *g = load(W("partial/gate.json"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  json_t *looks = json_object_get(g, "looks");
  TK_EQ(json_array_size(looks), 2, "looks");
  TK_EQ(json_integer_value(json_object_get(json_array_get(looks, 0), "walls")), 10, "first look");
  TK_EQ(json_integer_value(json_object_get(json_array_get(looks, 1), "walls")), 15,
        "the last look at the cap");
  TK_EQ(json_integer_value(json_object_get(g, "walls")), 15, "gate.json walls");
  json_decref(g);
}

static void test_refusals(void) {
  write_spec(W("strong.json"), STRONG, 100);
  const char *nolabel[] = {"gate", W("strong.json"), "--candidate", "komatsu2", "--baseline",
                           "greedy", "--metric", "win_rate", "--bounds", "0,0.2", "--out",
                           W("r1"), NULL};
  TK_EQ(taikai(nolabel), 2, "unknown label");
  CU_ASSERT(strstr(err_buf, "'komatsu2'") && strstr(err_buf, "'greedy', 'komatsu'"));
  const char *nometric[] = {"gate", W("strong.json"), "--candidate", "komatsu", "--baseline",
                            "greedy", "--metric", "wins", "--bounds", "0,0.2", "--out", W("r1"),
                            NULL};
  TK_EQ(taikai(nometric), 2, "unknown metric");
  CU_ASSERT(strstr(err_buf, "'wins'") && strstr(err_buf, "points_per_game"));
  const char *badbounds[] = {"gate", W("strong.json"), "--candidate", "komatsu", "--baseline",
                             "greedy", "--metric", "win_rate", "--bounds", "0.2,0.1", "--out",
                             W("r1"), NULL};
  TK_EQ(taikai(badbounds), 2, "d0 >= d1");
  CU_ASSERT(strstr(err_buf, "d0 < d1") != NULL);
  const char *notnum[] = {"gate", W("strong.json"), "--candidate", "komatsu", "--baseline",
                          "greedy", "--metric", "win_rate", "--bounds", "0;1", NULL};
  TK_EQ(taikai(notnum), 2, "bounds not two numbers");
  CU_ASSERT(strstr(err_buf, "'0;1'") != NULL);
  const char *same[] = {"gate", W("strong.json"), "--candidate", "greedy", "--baseline",
                        "greedy", "--metric", "win_rate", "--bounds", "0,0.1", NULL};
  TK_EQ(taikai(same), 2, "candidate = baseline");
  const char *missing[] = {"gate", W("strong.json"), "--candidate", "komatsu", NULL};
  TK_EQ(taikai(missing), 2, "missing options");
  CU_ASSERT(strstr(err_buf, "--baseline is required") != NULL);
  /* a folder holding another test: refused, nothing touched */
  int rc = gate(W("strong.json"), W("r2"), "2", NULL);
  CU_ASSERT(rc == 0 || rc == 3); /* 100 walls: decided or not, the folder now holds its test */
  CU_ASSERT(exists(W("r2/gate.json")));
  char before[1 << 14];
  slurp(W("r2/gate.json"), before, sizeof before);
  const char *other[] = {"gate", W("strong.json"), "--candidate", "komatsu", "--baseline",
                         "greedy", "--metric", "points_per_win", "--bounds", "0,0.3", "--out",
                         W("r2"), "--quiet", NULL};
  TK_EQ(taikai(other), 2, "another test in the folder");
  /* each field that differs, with the folder's value and this command's */
  CU_ASSERT(strstr(err_buf, "holds another test (bounds: 0,0.2 there, 0,0.3 here)") != NULL);
  const char *others[] = {"gate", W("strong.json"), "--candidate", "komatsu", "--baseline",
                          "greedy", "--metric", "win_rate", "--bounds", "0,0.2", "--alpha",
                          "0.1", "--out", W("r2"), "--quiet", NULL};
  TK_EQ(taikai(others), 2, "two fields differ");
  if (!strstr(err_buf, "metric: points_per_win there, win_rate here; alpha: 0.05 there, 0.1 here"))
    TK_FAILF("the refusal names both fields and their values: %s", err_buf);
  char after[1 << 14];
  slurp(W("r2/gate.json"), after, sizeof after);
  CU_ASSERT_STRING_EQUAL(before, after);
}

static void test_run_extended(void) {
  write_spec(W("plain.json"), STRONG, 40);
  const char *a10[] = {"run", W("plain.json"), "--walls", "10", "--out", W("grow"), "--quiet",
                       NULL};
  TK_EQ(taikai(a10), 0, err_buf);
  const char *a20[] = {"run", W("plain.json"), "--walls", "20", "--out", W("grow"), NULL};
  TK_EQ(taikai(a20), 0, err_buf);
  CU_ASSERT(strstr(err_buf, "extended a run of this tournament (20 of 40 units") != NULL);
  const char *fresh[] = {"run", W("plain.json"), "--walls", "20", "--out", W("fresh"), "--quiet",
                         NULL};
  TK_EQ(taikai(fresh), 0, err_buf);
  CU_ASSERT(same_bytes(W("grow/games.jsonl"), W("fresh/games.jsonl")));
  CU_ASSERT(same_bytes(W("grow/summary.json"), W("fresh/summary.json")));
  CU_ASSERT(same_spec(W("grow/spec.json"), W("fresh/spec.json")));
  /* fewer walls than the folder holds: another tournament, refused */
  const char *again10[] = {"run", W("plain.json"), "--walls", "10", "--out", W("grow"), NULL};
  TK_EQ(taikai(again10), 2, "fewer walls");
  CU_ASSERT(strstr(err_buf, "walls: 20 there, 10 here") != NULL);
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR "-gate")) return 1;
  CU_TestInfo tests[] = {
      {"a strong candidate passes, a weakened copy fails", test_pass_and_fail},
      {"the same bytes with 1 or 2 workers, resumed, extended, via run --sprt", test_same_bytes},
      {"a cap not a multiple of --batch: the last partial batch is looked at",
       test_last_partial_batch},
      {"bad arguments refused", test_refusals},
      {"a plain run extended with more walls", test_run_extended},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("gate", tests);
}
