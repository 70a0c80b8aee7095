/* tests/kuhn/test_kuhn_e2e.c — Kuhn poker end to end through the taikai binary, on the presets
 * of arenas/kuhn: the equilibrium's value inside the run's interval, nash ahead of random, logs
 * that replay (and a corrupted one that does not), the report against the reference tables,
 * the gate, shards merged into the whole run's bytes, and the same bytes at -j 1 and -j 2. */
#include <math.h>

#include "e2e_util.h"
#include "taikai/kuhn.h"

#define ARENA TK_SOURCE_DIR "/arenas/kuhn/"

/* summary.json's agent labelled `label`: metric `m`'s value and interval; 0 or -1. */
static int estimate(const char *dir, const char *label, const char *m, double *v, double *lo,
                    double *hi) {
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  json_t *s = json_load_file(path, 0, NULL);
  size_t i;
  json_t *a;
  int rc = -1;
  json_array_foreach(json_object_get(s, "agents"), i, a) {
    if (strcmp(json_string_value(json_object_get(a, "label")), label)) continue;
    json_t *e = json_object_get(a, m), *ci = json_object_get(e, "ci");
    *v = json_number_value(json_object_get(e, "value"));
    *lo = json_number_value(json_array_get(ci, 0));
    *hi = json_number_value(json_array_get(ci, 1));
    rc = json_is_number(json_object_get(e, "value")) && json_is_array(ci) ? 0 : -1;
  }
  json_decref(s);
  return rc;
}

/* The paired difference a - b of metric `m`; 0 or -1. */
static int paired(const char *dir, const char *a, const char *b, const char *m, double *v,
                  double *lo, double *hi) {
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  json_t *s = json_load_file(path, 0, NULL);
  size_t i;
  json_t *p;
  int rc = -1;
  json_array_foreach(json_object_get(s, "paired"), i, p) {
    const char *pa = json_string_value(json_object_get(p, "a"));
    const char *pb = json_string_value(json_object_get(p, "b"));
    int sign = !strcmp(pa, a) && !strcmp(pb, b) ? 1 : !strcmp(pa, b) && !strcmp(pb, a) ? -1 : 0;
    if (!sign) continue;
    json_t *e = json_object_get(p, m), *ci = json_object_get(e, "ci");
    double x = json_number_value(json_object_get(e, "value"));
    double l = json_number_value(json_array_get(ci, 0)), h = json_number_value(json_array_get(ci, 1));
    *v = sign * x;
    *lo = sign > 0 ? l : -h;
    *hi = sign > 0 ? h : -l;
    rc = 0;
  }
  json_decref(s);
  return rc;
}

static int run(const char *spec, const char *out, const char *extra1, const char *extra2) {
  const char *args[] = {"run", spec, "--out", out, "--quiet", "-j", "2", extra1, extra2, NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("taikai run %s --out %s: exit %d: %s", spec, out, rc, err_buf);
  return rc;
}

static void test_nash_value(void) {
  if (run(ARENA "nash-vs-nash.json", W("nn"), NULL, NULL)) return;
  double v, lo, hi;
  CU_ASSERT_EQUAL_FATAL(estimate(W("nn"), "nash-0", "chips_per_game", &v, &lo, &hi), 0);
  printf("\n  nash-0 (player 0) chips per hand %.4f [%.4f, %.4f], exact -1/18 = %.4f\n", v, lo,
         hi, -1.0 / 18);
  if (!(lo <= v && v <= hi)) TK_FAILF("mean %.5f outside its interval [%.5f, %.5f]", v, lo, hi);
  if (!(lo <= -1.0 / 18 && -1.0 / 18 <= hi))
    TK_FAILF("player 0's interval [%.5f, %.5f] does not hold -1/18", lo, hi);
  if (hi - lo > 0.02) TK_FAILF("interval [%.5f, %.5f] too wide to say anything", lo, hi);
  CU_ASSERT_EQUAL(estimate(W("nn"), "nash-1", "chips_per_game", &v, &lo, &hi), 0);
  if (!(lo <= 1.0 / 18 && 1.0 / 18 <= hi))
    TK_FAILF("player 1's interval [%.5f, %.5f] does not hold +1/18", lo, hi);
  /* the report against the reference table: every check holds */
  const char *rep[] = {"report", W("nn/summary.json"), "--reference",
                       ARENA "nash-vs-nash.reference.json", "--strict", "--no-html", "--out",
                       W("nn-report.md"), NULL};
  int rc = taikai(rep);
  if (rc) TK_FAILF("taikai report --strict nash-vs-nash: exit %d: %s", rc, err_buf);
  char md[1 << 14];
  slurp(W("nn-report.md"), md, sizeof md);
  if (!strstr(md, "| player 0's interval holds -1/18 | holds |"))
    TK_FAILF("report.md does not say the value holds:\n%s", md);
}

static void test_nash_vs_random(void) {
  if (run(ARENA "nash-vs-random.json", W("nr"), NULL, NULL)) return;
  double v, lo, hi;
  CU_ASSERT_EQUAL_FATAL(paired(W("nr"), "nash", "random", "chips_per_game", &v, &lo, &hi), 0);
  printf("\n  nash - random chips per hand %+.4f [%+.4f, %+.4f]\n", v, lo, hi);
  if (!(v > 0 && lo > 0)) TK_FAILF("nash - random %+.4f [%+.4f, %+.4f]: not above 0", v, lo, hi);
  const char *rep[] = {"report", W("nr/summary.json"), "--reference",
                       ARENA "nash-vs-random.reference.json", "--strict", "--no-html", "--out",
                       W("nr-report.md"), NULL};
  int rc = taikai(rep);
  if (rc) TK_FAILF("taikai report --strict nash-vs-random: exit %d: %s", rc, err_buf);
}

static void test_gate(void) {
  const char *g[] = {"gate", ARENA "nash-vs-random.json", "--candidate", "nash", "--baseline",
                     "random", "--metric", "chips_per_game", "--bounds", "0,0.2", "-j", "2",
                     "--out", W("gate"), "--quiet", NULL};
  int rc = taikai(g);
  if (rc != 0 || !strstr(out_buf, "'nash' PASSES against 'random'"))
    TK_FAILF("gate nash over random: exit %d (expected 0, H1):\n%s%s", rc, out_buf, err_buf);
  const char *r[] = {"gate", ARENA "nash-vs-random.json", "--candidate", "random", "--baseline",
                     "nash", "--metric", "chips_per_game", "--bounds", "0,0.2", "-j", "2",
                     "--out", W("gate-rev"), "--quiet", NULL};
  rc = taikai(r);
  if (rc != 1) TK_FAILF("gate random over nash: exit %d (expected 1, H0):\n%s", rc, out_buf);
}

/* Copies `from` to `to` with the first occurrence of `a` replaced by `b`; 0 or -1. */
static int corrupt(const char *from, const char *to, const char *a, const char *b) {
  static char text[1 << 14], out[1 << 14];
  slurp(from, text, sizeof text);
  char *p = strstr(text, a);
  if (!p) return -1;
  snprintf(out, sizeof out, "%.*s%s%s", (int)(p - text), text, b, p + strlen(a));
  write_file(to, out);
  return 0;
}

static void test_replay(void) {
  if (run(ARENA "nash-vs-random.json", W("logs"), "--walls", "300")) return;
  const char *again[] = {"run", ARENA "nash-vs-random.json", "--out", W("logs2"), "--quiet",
                         "--walls", "300", "--logs", NULL};
  int rc = taikai(again);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  const char *rp[] = {"replay", "--quiet", W("logs2"), NULL};
  rc = taikai(rp);
  if (rc != 0 || !strstr(out_buf, "600 logs, 600 games replayed, 0 mismatches"))
    TK_FAILF("replay of 600 hands: exit %d:\n%s%s", rc, out_buf, err_buf);
  const char *one[] = {"replay", W("logs2/logs/unit-00000000.jsonl"), NULL};
  rc = taikai(one);
  if (rc != 0 || strncmp(out_buf, "OK ", 3)) TK_FAILF("replay of one hand: %d:\n%s", rc, out_buf);
  /* corruptions: the deal, the winner, a move by the wrong seat, a line cut off */
  const struct {
    const char *a, *b, *what;
  } bad[] = {
      {"\"cards\":[\"", "\"cards\":[\"X", "cards"},
      {"\"winner\":", "\"winner\":1", "winner"},
      {"\"seat\":0,\"move\"", "\"seat\":1,\"move\"", "move"},
      {"\"type\":\"end_hand\"", "\"type\":\"end_hand\"}\n{\"type\":\"move\"", "end_hand"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char name[32];
    snprintf(name, sizeof name, "bad-%zu.jsonl", i);
    /* unit 0's winner: overwrite with a digit first so the value changes either way */
    const char *from = W("logs2/logs/unit-00000000.jsonl");
    if (i == 1) {
      static char text[4096];
      slurp(from, text, sizeof text);
      char *w = strstr(text, "\"winner\":");
      CU_ASSERT_PTR_NOT_NULL_FATAL(w);
      w[9] = w[9] == '0' ? '1' : '0';
      write_file(W(name), text);
    } else if (corrupt(from, W(name), bad[i].a, bad[i].b)) {
      TK_FAILF("corruption %zu: '%s' not in %s", i, bad[i].a, from);
      continue;
    }
    const char *r[] = {"replay", W(name), NULL};
    rc = taikai(r);
    if (rc != 1 || !strstr(out_buf, "MISMATCH") || !strstr(out_buf, bad[i].what))
      TK_FAILF("corrupted log %zu (%s): exit %d (expected 1 and a MISMATCH naming %s):\n%s%s", i,
               bad[i].b, rc, bad[i].what, out_buf, err_buf);
  }
  /* the logs say what games.jsonl says (a check independent of the writer's own functions,
   * which the replay shares): each unit's cards and chips by seat */
  json_t *lines[600];
  int n = load_lines(W("logs2/games.jsonl"), lines, 600);
  CU_ASSERT_EQUAL(n, 600);
  for (int u = 0; u < n; u++) {
    char path[64];
    snprintf(path, sizeof path, "logs2/logs/unit-%08d.jsonl", u);
    json_t *log[8];
    int k = load_lines(W(path), log, 8), ok = k >= 4;
    json_t *seats = json_object_get(lines[u], "seats"), *deal = ok ? log[1] : NULL;
    json_t *end = ok ? log[k - 1] : NULL;
    for (int p = 0; p < 2 && ok; p++) {
      json_t *seat = json_array_get(seats, (size_t)p);
      const char *card = json_string_value(json_array_get(json_object_get(deal, "cards"), p));
      int c = (int)json_integer_value(json_object_get(seat, "card"));
      ok = card && !strcmp(card, tk_kuhn_card_str(c)) &&
           json_integer_value(json_array_get(json_object_get(end, "chips"), p)) ==
               json_integer_value(json_object_get(seat, "chips"));
    }
    free_lines(log, k > 0 ? k : 0);
    if (!ok) {
      TK_FAILF("%s: its cards or chips differ from games.jsonl's unit %d", path, u);
      break;
    }
  }
  free_lines(lines, n > 0 ? n : 0);
  /* the logs change nothing else */
  CU_ASSERT(same_bytes(W("logs/games.jsonl"), W("logs2/games.jsonl")));
}

static void test_shards(void) {
  if (run(ARENA "nash-vs-random.json", W("whole"), "--walls", "1000")) return;
  const char *parts[] = {"1/3", "2/3", "3/3"};
  char out[3][64];
  for (int k = 0; k < 3; k++) {
    snprintf(out[k], sizeof out[k], "shard-%d", k + 1);
    const char *a[] = {"run", ARENA "nash-vs-random.json", "--walls", "1000", "--shard",
                       parts[k], "--out", W(out[k]), "--quiet", NULL};
    int rc = taikai(a);
    if (rc) {
      TK_FAILF("shard %s: exit %d: %s", parts[k], rc, err_buf);
      return;
    }
  }
  const char *m[] = {"merge", W(out[0]), W(out[1]), W(out[2]), "--out", W("merged"), "--quiet",
                     NULL};
  int rc = taikai(m);
  if (rc) {
    TK_FAILF("merge: exit %d: %s", rc, err_buf);
    return;
  }
  const char *files[] = {"games.jsonl", "games.chain", "summary.json", "report.md"};
  for (int i = 0; i < 4; i++) {
    char a[64], b[64];
    snprintf(a, sizeof a, "whole/%s", files[i]);
    snprintf(b, sizeof b, "merged/%s", files[i]);
    if (!same_bytes(W(a), W(b))) TK_FAILF("merged %s differs from the whole run's", files[i]);
  }
}

/* A real param with more digits than spec.json keeps (alpha 1/6): the run, its shards merged and
 * its resume all play the value spec.json records, so the merged run is the whole run's bytes. */
static void test_real_param(void) {
  write_file(W("sixth.json"), "{\"game\": \"kuhn\", \"walls\": 400, \"format\": \"duplicate\", "
                              "\"agents\": [{\"plugin\": \"kuhn_random\", \"label\": \"random\"}, "
                              "{\"plugin\": \"kuhn_nash\", \"label\": \"nash\", "
                              "\"params\": {\"alpha\": 0.16666666666666666}}]}\n");
  if (run(W("sixth.json"), W("sixth"), NULL, NULL)) return;
  const char *parts[] = {"1/2", "2/2"};
  const char *outs[] = {"sixth-1", "sixth-2"};
  for (int k = 0; k < 2; k++) {
    const char *a[] = {"run", W("sixth.json"), "--shard", parts[k], "--out", W(outs[k]),
                       "--quiet", NULL};
    if (taikai(a)) {
      TK_FAILF("shard %s: %s", parts[k], err_buf);
      return;
    }
  }
  const char *m[] = {"merge", W("sixth-1"), W("sixth-2"), "--out", W("sixth-m"), "--quiet", NULL};
  if (taikai(m)) {
    TK_FAILF("merge: %s", err_buf);
    return;
  }
  CU_ASSERT(same_bytes(W("sixth/games.jsonl"), W("sixth-m/games.jsonl")));
  CU_ASSERT(same_bytes(W("sixth/summary.json"), W("sixth-m/summary.json")));
  CU_ASSERT(same_bytes(W("sixth/report.md"), W("sixth-m/report.md")));
  static char text[1 << 16];
  slurp(W("sixth/spec.json"), text, sizeof text);
  if (!strstr(text, "0.166666666667")) TK_FAILF("spec.json does not record alpha 1/6: %s", text);
}

static void test_jobs(void) {
  const char *a[] = {"run", ARENA "nash-vs-random.json", "--walls", "1500", "-j", "1", "--out",
                     W("j1"), "--quiet", NULL};
  const char *b[] = {"run", ARENA "nash-vs-random.json", "--walls", "1500", "-j", "2", "--out",
                     W("j2"), "--quiet", NULL};
  const char *c[] = {"run", ARENA "nash-vs-random.json", "--walls", "1500", "--seed", "2",
                     "--out", W("s2"), "--quiet", NULL};
  CU_ASSERT_EQUAL_FATAL(taikai(a), 0);
  CU_ASSERT_EQUAL_FATAL(taikai(b), 0);
  CU_ASSERT_EQUAL_FATAL(taikai(c), 0);
  if (!same_bytes(W("j1/games.jsonl"), W("j2/games.jsonl")))
    TK_FAILF("games.jsonl differs between -j 1 and -j 2");
  if (!same_bytes(W("j1/summary.json"), W("j2/summary.json")))
    TK_FAILF("summary.json differs between -j 1 and -j 2");
  CU_ASSERT(!same_bytes(W("j1/games.jsonl"), W("s2/games.jsonl"))); /* the seed matters */
}

/* A spec with a rule is refused, naming the field and the value. */
static void test_rules_refused(void) {
  write_file(W("rules.json"), "{\"game\": \"kuhn\", \"walls\": 2, \"format\": \"seated\", "
                              "\"agents\": [{\"plugin\": \"kuhn_nash\"}, {\"plugin\": "
                              "\"kuhn_random\"}], \"rules\": {\"ante\": 2}}");
  const char *a[] = {"run", W("rules.json"), "--out", W("rules"), "--quiet", NULL};
  int rc = taikai(a);
  if (rc != 2 || !strstr(err_buf, "'rules.ante'") || !strstr(err_buf, "got 2"))
    TK_FAILF("a kuhn rule: exit %d: %s", rc, err_buf);
  write_file(W("alpha.json"), "{\"game\": \"kuhn\", \"walls\": 2, \"format\": \"seated\", "
                              "\"agents\": [{\"plugin\": \"kuhn_nash\", \"params\": {\"alpha\": "
                              "0.4}}, {\"plugin\": \"kuhn_random\"}]}");
  const char *b[] = {"run", W("alpha.json"), "--out", W("alpha"), "--quiet", NULL};
  rc = taikai(b);
  if (rc == 0 || !strstr(err_buf, "'alpha'") || !strstr(err_buf, "0.4"))
    TK_FAILF("alpha 0.4: exit %d: %s", rc, err_buf);
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR)) {
    fprintf(stderr, "cannot create %s\n", TK_WORK_DIR);
    return 1;
  }
  CU_TestInfo tests[] = {{"nash vs nash: -1/18 inside the interval, report", test_nash_value},
                         {"nash vs random: above 0, report", test_nash_vs_random},
                         {"gate: nash stronger than random", test_gate},
                         {"logs replay; corrupted logs do not", test_replay},
                         {"shards merged = the whole run", test_shards},
                         {"a real param: run, shards and merge play one value", test_real_param},
                         {"-j 1 = -j 2", test_jobs},
                         {"rules and params refused by name", test_rules_refused},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("kuhn end to end", tests);
}
