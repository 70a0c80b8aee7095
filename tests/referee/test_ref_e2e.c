/* tests/referee/test_ref_e2e.c — end-to-end runs of the `taikai` binary: a tiny tournament's
 * summary.json checked field by field against figures recomputed here from games.jsonl;
 * byte-identical outputs for -j 1, 2 and 3; every bad spec and bad plugin refused before the
 * run with its message; crashing, hanging and cheating agents recorded as faults. Each run is a
 * child process with a time limit. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "unit.h"

#define WORK TK_WORK_DIR
#define NEAR(x, want, tol)                                                          \
  do {                                                                              \
    double x_ = (x), w_ = (want);                                                   \
    if (!(fabs(x_ - w_) <= (tol))) TK_FAILF("%s = %.12g, expected %.12g", #x, x_, w_); \
    else CU_PASS(#x);                                                               \
  } while (0)

#include "e2e_util.h"

static const char *TINY =
    "{\"game\": \"solo\", \"seed\": 7, \"walls\": 60, \"format\": \"field\",\n"
    " \"agents\": [{\"plugin\": \"greedy\"}, {\"plugin\": \"tsumogiri\"},\n"
    "             {\"plugin\": \"random\", \"label\": \"rnd\"}],\n"
    " \"output\": \"" WORK "/tiny-default\"}\n";

/* Recomputes the figures from games.jsonl and compares them with summary.json. */
static void test_tiny_summary(void) {
  write_file(WORK "/tiny.json", TINY);
  const char *args[] = {"run", WORK "/tiny.json", "-j", "1", "--out", WORK "/tiny1", NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("taikai run failed (%d): %s", rc, err_buf);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "greedy"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "paired differences"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "180/180 games"));

  /* games.jsonl: 3 agents x 60 walls in unit order */
  double wins[3] = {0}, pts[3] = {0}, turns[3] = {0}, pts_w[3][60], win_w[3][60];
  FILE *f = fopen(WORK "/tiny1/games.jsonl", "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    json_t *j = json_loads(line, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    TK_EQ(json_integer_value(json_object_get(j, "unit")), n, "unit order");
    TK_EQ(json_integer_value(json_object_get(j, "wall")), n / 3, "wall-major order");
    json_t *s = json_array_get(json_object_get(j, "seats"), 0);
    int a = (int)json_integer_value(json_object_get(s, "agent"));
    TK_EQ(a, n % 3, "agent");
    int won = json_is_true(json_object_get(s, "won"));
    double p = (double)json_integer_value(json_object_get(s, "points"));
    wins[a] += won;
    pts[a] += p;
    turns[a] += won ? (double)json_integer_value(json_object_get(s, "turn")) : 0;
    pts_w[a][n / 3] = p;
    win_w[a][n / 3] = won;
    CU_ASSERT_PTR_NULL(json_object_get(s, "fault"));
    json_decref(j);
    n++;
  }
  fclose(f);
  TK_EQ(n, 180, "games.jsonl lines");
  CU_ASSERT(wins[0] >= 3); /* greedy wins about 18 % */

  json_t *sum = json_load_file(WORK "/tiny1/summary.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(sum, "game")), "solo");
  /* one game per agent per wall: the rates' intervals are Wilson's, and the labels say so */
  json_t *iv = json_object_get(sum, "intervals");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(iv, "rates")), "wilson");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
                             json_object_get(json_object_get(iv, "metrics"), "points_per_game"), "method")),
                         "logit-t");
  TK_EQ(json_integer_value(json_object_get(sum, "walls")), 60, "walls");
  TK_EQ(json_integer_value(json_object_get(sum, "seed")), 7, "seed");
  json_t *agents = json_object_get(sum, "agents");
  TK_EQ(json_array_size(agents), 3, "agents");
  const char *labels[3] = {"greedy", "tsumogiri", "rnd"}, *plugins[3] = {"greedy", "tsumogiri", "random"};
  const double z = 1.959963984540054, t59 = 2.00099537808826771;
  for (int a = 0; a < 3; a++) {
    json_t *o = json_array_get(agents, (size_t)a);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(o, "label")), labels[a]);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(o, "plugin")), plugins[a]);
    TK_EQ(json_integer_value(json_object_get(o, "games")), 60, "games");
    TK_EQ(json_integer_value(json_object_get(o, "faults")), 0, "faults");
    /* win_rate with the Wilson interval */
    json_t *wr = json_object_get(o, "win_rate");
    double p = wins[a] / 60, den = 1 + z * z / 60;
    double c = (p + z * z / 120) / den, h = z * sqrt(p * (1 - p) / 60 + z * z / 14400) / den;
    NEAR(json_number_value(json_object_get(wr, "value")), p, 1e-12);
    NEAR(json_number_value(json_array_get(json_object_get(wr, "ci"), 0)), fmax(0, c - h), 1e-9);
    NEAR(json_number_value(json_array_get(json_object_get(wr, "ci"), 1)), c + h, 1e-9);
    /* points_per_game (range [0, 48000]): the Student-t interval over walls on the logit of
     * mean / 48000, mapped back; no points at all: [0, 48000 z^2 / (60 + z^2)] */
    json_t *ppg = json_object_get(o, "points_per_game");
    double mean = pts[a] / 60, ss = 0;
    for (int w = 0; w < 60; w++) ss += (pts_w[a][w] - mean) * (pts_w[a][w] - mean);
    double u = mean / 48000, half = t59 * sqrt(ss / 59 / 60) / 48000 / (u * (1 - u));
    double want_lo = 48000 / (1 + exp(-(log(u / (1 - u)) - half)));
    double want_hi = 48000 / (1 + exp(-(log(u / (1 - u)) + half)));
    if (pts[a] == 0) want_lo = 0, want_hi = 48000 * z * z / (60 + z * z);
    NEAR(json_number_value(json_object_get(ppg, "value")), mean, 1e-6);
    NEAR(json_number_value(json_array_get(json_object_get(ppg, "ci"), 0)), want_lo, 1e-6);
    NEAR(json_number_value(json_array_get(json_object_get(ppg, "ci"), 1)), want_hi, 1e-6);
    json_t *ppw = json_object_get(json_object_get(o, "points_per_win"), "value");
    json_t *mwt = json_object_get(json_object_get(o, "mean_win_turn"), "value");
    if (wins[a] > 0) {
      NEAR(json_number_value(ppw), pts[a] / wins[a], 1e-6);
      NEAR(json_number_value(mwt), turns[a] / wins[a], 1e-9);
      double lo = json_number_value(json_array_get(json_object_get(json_object_get(o, "mean_win_turn"), "ci"), 0));
      CU_ASSERT(lo <= turns[a] / wins[a]);
    } else {
      CU_ASSERT(json_is_null(ppw));
      CU_ASSERT(json_is_null(mwt));
    }
  }
  /* paired differences: (greedy, tsumogiri), (greedy, rnd), (tsumogiri, rnd) */
  json_t *pairs = json_object_get(sum, "paired");
  TK_EQ(json_array_size(pairs), 3, "pairs");
  json_t *p0 = json_array_get(pairs, 0);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p0, "a")), "greedy");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p0, "b")), "tsumogiri");
  json_t *d = json_object_get(p0, "win_rate");
  NEAR(json_number_value(json_object_get(d, "value")), (wins[0] - wins[1]) / 60, 1e-12);
  double md = (wins[0] - wins[1]) / 60, ss = 0;
  for (int w = 0; w < 60; w++) {
    double x = win_w[0][w] - win_w[1][w] - md;
    ss += x * x;
  }
  NEAR(json_number_value(json_array_get(json_object_get(d, "ci"), 1)), md + t59 * sqrt(ss / 59 / 60),
       1e-9);
  double p = json_number_value(json_object_get(d, "p"));
  CU_ASSERT(p >= 0 && p < 0.05);
  json_decref(sum);

  /* spec.json: resolved, with versions */
  json_t *spec = json_load_file(WORK "/tiny1/spec.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(spec);
  CU_ASSERT_PTR_NOT_NULL(json_object_get(spec, "taikai_version"));
  json_t *a0 = json_array_get(json_object_get(spec, "agents"), 0);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(a0, "name")), "greedy");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(a0, "version")), "1.0.0");
  CU_ASSERT_STRING_EQUAL(
      json_string_value(json_object_get(json_object_get(a0, "params"), "tie_break")), "first");
  TK_EQ(json_integer_value(json_object_get(json_object_get(spec, "rules"), "draws")), 18, "draws");
  json_decref(spec);
  CU_ASSERT(exists(WORK "/tiny1/report.md"));
  static char report[1 << 16];
  slurp(WORK "/tiny1/report.md", report, sizeof report);
  CU_ASSERT_PTR_NOT_NULL(strstr(report, "\nIntervals (walls are the independent unit; each stays "
                                        "inside its metric's range): win_rate wilson, "
                                        "points_per_game logit-t"));
}

static void test_jobs_identical(void) {
  const char *outs[3] = {WORK "/tiny-j1", WORK "/tiny-j2", WORK "/tiny-j3"};
  const char *jobs[3] = {"1", "2", "3"};
  write_file(WORK "/tiny.json", TINY);
  for (int i = 0; i < 3; i++) {
    const char *args[] = {"run", WORK "/tiny.json", "-j", jobs[i], "--walls", "150", "--out",
                          outs[i], "--quiet", NULL};
    int rc = taikai(args);
    if (rc) TK_FAILF("-j %s failed: %s", jobs[i], err_buf);
  }
  CU_ASSERT(same_bytes(WORK "/tiny-j1/summary.json", WORK "/tiny-j2/summary.json"));
  CU_ASSERT(same_bytes(WORK "/tiny-j1/games.jsonl", WORK "/tiny-j2/games.jsonl"));
  CU_ASSERT(same_bytes(WORK "/tiny-j1/summary.json", WORK "/tiny-j3/summary.json"));
  CU_ASSERT(same_bytes(WORK "/tiny-j1/games.jsonl", WORK "/tiny-j3/games.jsonl"));
  CU_ASSERT(same_bytes(WORK "/tiny-j1/report.md", WORK "/tiny-j2/report.md"));
}

typedef struct refusal {
  const char *agents; /* JSON array text */
  const char *extra;  /* extra top-level fields, or "" */
  const char *needles[3];
} refusal;

static const refusal refusals[] = {
    {"[{\"plugin\": \"" TK_FIXTURE_DIR "/bad_abi.so\"}]", "", {"bad_abi.so", "ABI version 999", NULL}},
    {"[{\"plugin\": \"" TK_FIXTURE_DIR "/bad_size.so\"}]", "", {"bad_size.so", "descriptor size", NULL}},
    {"[{\"plugin\": \"" TK_FIXTURE_DIR "/no_entry.so\"}]", "", {"no_entry.so", "taikai_agent_entry", NULL}},
    {"[{\"plugin\": \"" TK_FIXTURE_DIR "/fail_create.so\"}]", "", {"fail_create.so", "create failed", "always fails"}},
    {"[{\"plugin\": \"" TK_FIXTURE_DIR "/wrong_game.so\"}]", "", {"wrong_game.so", "plays game 'daifugo'", NULL}},
    {"[{\"plugin\": \"greedy\", \"params\": {\"depth\": 2}}]", "", {"greedy.so", "unknown parameter 'depth'", NULL}},
    {"[{\"plugin\": \"greedy\", \"params\": {\"tie_break\": \"middle\"}}]", "", {"greedy.so", "create failed", "tie_break"}},
    {"[{\"plugin\": \"nosuchagent\"}]", "", {"nosuchagent", "not found", NULL}},
    {"[{\"plugin\": \"greedy\"}]", ", \"format\": \"duplicate\"", {"field 'format'", "use field", NULL}},
    {"[{\"plugin\": \"greedy\"}]", ", \"rules\": {\"draws\": 40}", {"rules.draws", "got 40", NULL}},
    {"[{\"plugin\": \"greedy\"}]", ", \"rules\": {\"redfives\": true}", {"rules.redfives", "unknown rule", NULL}},
    {"[{\"plugin\": \"greedy\"}]", ", \"seed\": -5", {"field 'seed'", "got -5", NULL}},
    {NULL, NULL, {NULL}},
};

static void test_refusals(void) {
  int i = 0;
  for (const refusal *r = refusals; r->agents; r++, i++) {
    char spec[1024], path[256], out[256];
    snprintf(out, sizeof out, WORK "/refused-%d", i);
    snprintf(path, sizeof path, WORK "/bad-%d.json", i);
    snprintf(spec, sizeof spec, "{\"game\": \"solo\", \"walls\": 3, \"agents\": %s, \"output\": \"%s\"%s}",
             r->agents, out, r->extra);
    write_file(path, spec);
    const char *args[] = {"run", path, NULL};
    int rc = taikai(args);
    if (rc != 2) TK_FAILF("%s: exit %d, expected 2 (%s)", spec, rc, err_buf);
    if (!strstr(err_buf, path)) TK_FAILF("message does not name the spec file %s: %s", path, err_buf);
    for (int k = 0; k < 3 && r->needles[k]; k++)
      if (!strstr(err_buf, r->needles[k]))
        TK_FAILF("message for %s lacks \"%s\": %s", spec, r->needles[k], err_buf);
    if (exists(out)) TK_FAILF("%s: output folder created although the spec was refused", out);
    CU_PASS(spec);
  }
  const char *nospec[] = {"run", WORK "/does-not-exist.json", NULL};
  CU_ASSERT_EQUAL(taikai(nospec), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "does-not-exist.json"));
  const char *badopt[] = {"run", WORK "/tiny.json", "-j", "zero", NULL};
  CU_ASSERT_EQUAL(taikai(badopt), 2);
}

/* A crash, a hang, an illegal action and an act that returns success without writing its action
 * (the referee clears the action before each call: a stale legal one must not pass) are each
 * recorded against the agent; the run goes on. */
static void test_faults(void) {
  const char *fx[4] = {"crash", "hang", "illegal", "silent"};
  /* the limit: long enough for a sanitizer's crash report (it symbolizes the stack before the
   * worker dies, and a crash reported after the limit would read as a hang) */
#ifdef TK_SANITIZED
#define LIMIT "3000"
#else
#define LIMIT "300"
#endif
  const char *why[4] = {"\"fault\":\"crash: ", "timeout: no decision within " LIMIT " ms",
                        "illegal action in act (turn 3: ",
                        "discard of no tile (255), not legal"};
  for (int i = 0; i < 4; i++) {
    char spec[1024], path[256], out[256], games[300];
    snprintf(path, sizeof path, WORK "/fault-%s.json", fx[i]);
    snprintf(out, sizeof out, WORK "/fault-%s", fx[i]);
    snprintf(spec, sizeof spec,
             "{\"game\": \"solo\", \"walls\": 3, \"time_limit_ms\": " LIMIT ", \"agents\": ["
             "{\"plugin\": \"" TK_FIXTURE_DIR "/%s.so\"}, {\"plugin\": \"greedy\"}], \"output\": \"%s\"}",
             fx[i], out);
    write_file(path, spec);
    const char *args[] = {"run", path, "-j", "2", "--quiet", NULL};
    int rc = taikai(args);
    if (rc) TK_FAILF("%s: exit %d: %s", fx[i], rc, err_buf);
    snprintf(games, sizeof games, "%s/summary.json", out);
    json_t *sum = json_load_file(games, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
    json_t *ag = json_object_get(sum, "agents");
    TK_EQ(json_integer_value(json_object_get(json_array_get(ag, 0), "faults")), 3, fx[i]);
    TK_EQ(json_integer_value(json_object_get(json_array_get(ag, 0), "games")), 3, fx[i]);
    TK_EQ(json_integer_value(json_object_get(json_array_get(ag, 1), "faults")), 0, fx[i]);
    TK_EQ(json_integer_value(json_object_get(json_array_get(ag, 1), "games")), 3, fx[i]);
    json_decref(sum);
    snprintf(games, sizeof games, "%s/games.jsonl", out);
    static char text[1 << 15];
    slurp(games, text, sizeof text);
    if (!strstr(text, why[i])) TK_FAILF("%s: games.jsonl lacks \"%s\":\n%s", fx[i], why[i], text);
  }
}

/* An interrupted run (games.jsonl cut mid-line) resumed with --resume gives the same bytes. */
static void test_resume(void) {
  write_file(WORK "/tiny.json", TINY);
  const char *full[] = {"run", WORK "/tiny.json", "--walls", "40", "--out", WORK "/res-full", "--quiet", NULL};
  const char *part[] = {"run", WORK "/tiny.json", "--walls", "40", "--out", WORK "/res-part", "--quiet", NULL};
  CU_ASSERT_EQUAL_FATAL(taikai(full), 0);
  CU_ASSERT_EQUAL_FATAL(taikai(part), 0);
  static char text[1 << 16];
  slurp(WORK "/res-part/games.jsonl", text, sizeof text);
  char *cut = text;
  for (int i = 0; i < 50 && cut; i++) cut = strchr(cut, '\n') + 1;
  CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
  cut[40] = '\0'; /* 50 complete lines and part of the 51st */
  write_file(WORK "/res-part/games.jsonl", text);
  remove(WORK "/res-part/summary.json");
  const char *resume[] = {"run", WORK "/tiny.json", "--walls", "40", "--out", WORK "/res-part", "--resume", "-j", "2", NULL};
  int rc = taikai(resume);
  if (rc) TK_FAILF("resume failed: %s", err_buf);
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "70/70 games"));
  CU_ASSERT(same_bytes(WORK "/res-full/games.jsonl", WORK "/res-part/games.jsonl"));
  CU_ASSERT(same_bytes(WORK "/res-full/summary.json", WORK "/res-part/summary.json"));
  /* a different spec is not resumed (fewer walls: more would extend the run) */
  const char *other[] = {"run", WORK "/tiny.json", "--walls", "39", "--out", WORK "/res-part", "--resume", NULL};
  CU_ASSERT_EQUAL(taikai(other), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "cannot resume"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "walls: 40 there, 39 here"));
}

static void test_overrides_and_plugins(void) {
  write_file(WORK "/tiny.json", TINY);
  const char *args[] = {"run", WORK "/tiny.json", "--walls", "4", "--seed", "99", "--out",
                        WORK "/over", "--quiet", NULL};
  CU_ASSERT_EQUAL_FATAL(taikai(args), 0);
  json_t *spec = json_load_file(WORK "/over/spec.json", 0, NULL);
  TK_EQ(json_integer_value(json_object_get(spec, "walls")), 4, "walls override");
  TK_EQ(json_integer_value(json_object_get(spec, "seed")), 99, "seed override");
  json_decref(spec);
  const char *list[] = {"plugins", TK_PLUGIN_DIR, NULL};
  CU_ASSERT_EQUAL(taikai(list), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "greedy 1.0.0  (game solo)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "params: {\"tie_break\": \"first\"}"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "tsumogiri"));
  const char *bad[] = {"plugins", TK_FIXTURE_DIR "/bad_abi.so", NULL};
  CU_ASSERT_EQUAL(taikai(bad), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "refused"));
  const char *help[] = {"run", "--help", NULL};
  CU_ASSERT_EQUAL(taikai(help), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "usage: taikai run SPEC"));
  const char *phelp[] = {"plugins", "--help", NULL};
  CU_ASSERT_EQUAL(taikai(phelp), 0);
}

int main(void) {
  if (system("rm -rf '" WORK "'")) return 1; /* outputs of an earlier run would be continued */
  mkdir(WORK, 0777);
  snprintf(work_dir, sizeof work_dir, "%s", WORK);
  CU_TestInfo tests[] = {
      {"tiny_summary", test_tiny_summary},
      {"jobs_identical", test_jobs_identical},
      {"refusals", test_refusals},
      {"faults", test_faults},
      {"resume", test_resume},
      {"overrides_and_plugins", test_overrides_and_plugins},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee end to end", tests);
}
