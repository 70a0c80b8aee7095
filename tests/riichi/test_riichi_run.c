/* tests/riichi/test_riichi_run.c — end to end: `taikai run` of a small riichi tournament in the
 * duplicate and round-robin formats, with mjai logs. Checks summary.json's per-agent metrics,
 * the game counts of each format, the independence of the results from -j, that every log
 * replays through the log reader to the scores in games.jsonl, and that bad rules are refused
 * before any game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <jansson.h>

#include "riichi_log.h"
#include "unit.h"

static char work[512];

static int sh(const char *fmt, const char *a, const char *b) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, fmt, a, b);
  return system(cmd);
}

static void write_spec(const char *path, const char *format, const char *agents, const char *extra) {
  FILE *f = fopen(path, "w");
  fprintf(f,
          "{\"game\": \"riichi\", \"seed\": 7, \"walls\": 6, \"format\": \"%s\", \"agents\": [%s],"
          " \"rules\": {\"length\": \"east\"%s}}\n",
          format, agents, extra);
  fclose(f);
}

static json_t *load(const char *dir, const char *file) {
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", dir, file);
  return json_load_file(p, 0, NULL);
}

static void duplicate(void) {
  char spec[600], out1[600], out2[600], logs[700], p0path[700];
  snprintf(spec, sizeof spec, "%s/dup.json", work);
  snprintf(out1, sizeof out1, "%s/dup1", work);
  snprintf(out2, sizeof out2, "%s/dup2", work);
  snprintf(logs, sizeof logs, "%s/logs", out1);
  write_spec(spec, "duplicate",
             "{\"plugin\": \"riichi_tsumogiri\", \"label\": \"base\"},"
             " {\"plugin\": \"riichi_greedy\", \"label\": \"cand\"}",
             "");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 2 --logs --quiet > /dev/null", spec, out1), 0, "run -j 2 --logs");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 1 --quiet > /dev/null", spec, out2), 0, "run -j 1");
  json_t *s1 = load(out1, "summary.json"), *s2 = load(out2, "summary.json");
  TK_EQ(s1 && s2 && json_equal(s1, s2), 1, "summary independent of -j");
  json_t *agents = json_object_get(s1, "agents");
  TK_EQ(json_array_size(agents), 2, "two agents");
  json_t *cand = json_array_get(agents, 1), *base = json_array_get(agents, 0);
  TK_EQ(json_integer_value(json_object_get(cand, "games")), 6 * 4, "candidate: once per seat");
  TK_EQ(json_integer_value(json_object_get(base, "games")), 6 * 4 * 3, "baseline: three seats");
  static const char *const keys[] = {"rank_1_rate", "rank_2_rate", "rank_3_rate", "rank_4_rate",
                                     "mean_rank", "mean_final_points", "win_rate", "deal_in_rate",
                                     "riichi_rate", "call_rate", "mean_win_points"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    json_t *m = json_object_get(cand, keys[i]);
    TK_EQ(m && json_object_get(m, "value") && json_array_size(json_object_get(m, "ci")) == 2, 1, keys[i]);
  }
  double r = 0;
  for (int k = 0; k < 4; k++) {
    char key[32];
    snprintf(key, sizeof key, "rank_%d_rate", k + 1);
    r += json_number_value(json_object_get(json_object_get(cand, key), "value"));
  }
  TK_EQ(r > 0.999 && r < 1.001, 1, "rank rates sum to 1");
  TK_EQ(json_array_size(json_object_get(s1, "paired")), 1, "one paired comparison");
  json_t *rr = json_object_get(cand, "rank_rates");
  TK_EQ(json_array_size(rr), 4, "rank_rates has four places");
  TK_EQ(json_equal(json_array_get(rr, 0), json_object_get(cand, "rank_1_rate")), 1, "rank_rates[0] is 1st place");
  /* several games per agent per game index: rates take the design effect over game indices
   * (not Wilson's on games), and summary.json and report.md say so */
  json_t *iv = json_object_get(s1, "intervals");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(iv, "rates")), "wilson-deff");
  json_t *ivm = json_object_get(iv, "metrics");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(ivm, "mean_rank"), "method")), "logit-t");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(ivm, "mean_win_points"), "method")), "log-t");
  /* every interval lies in its metric's range and has width, even the baseline's 0 % riichi
   * and call rates (tsumogiri never declares or calls) */
  for (size_t a = 0; a < 2; a++)
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
      json_t *m = json_object_get(json_array_get(agents, a), keys[i]);
      json_t *range = json_object_get(json_object_get(ivm, keys[i]), "range");
      double v = json_number_value(json_object_get(m, "value"));
      double lo = json_number_value(json_array_get(json_object_get(m, "ci"), 0));
      double hi = json_number_value(json_array_get(json_object_get(m, "ci"), 1));
      double rlo = json_is_number(json_array_get(range, 0)) ? json_number_value(json_array_get(range, 0)) : -1e300;
      double rhi = json_is_number(json_array_get(range, 1)) ? json_number_value(json_array_get(range, 1)) : 1e300;
      if (!json_is_number(json_object_get(m, "value"))) continue; /* e.g. no wins: no points per win */
      char what[128];
      snprintf(what, sizeof what, "%s %s: %g in [%g, %g] within [%g, %g], width > 0",
               a ? "cand" : "base", keys[i], v, lo, hi, rlo, rhi);
      TK_EQ(rlo <= lo && lo <= v && v <= hi && hi <= rhi && lo < hi, 1, what);
    }
  json_t *rr0 = json_object_get(base, "riichi_rate");
  TK_EQ(json_number_value(json_object_get(rr0, "value")) == 0 &&
            json_number_value(json_array_get(json_object_get(rr0, "ci"), 1)) > 0, 1,
        "a 0 % rate has an upper bound above 0");
  char md[1 << 14] = "";
  snprintf(p0path, sizeof p0path, "%s/report.md", out1);
  FILE *mdf = fopen(p0path, "r");
  if (mdf) md[fread(md, 1, sizeof md - 1, mdf)] = '\0', fclose(mdf);
  CU_ASSERT_PTR_NOT_NULL(strstr(md, "\nIntervals (walls are the independent unit"));
  CU_ASSERT_PTR_NOT_NULL(strstr(md, "- `wilson-deff`: "));
  json_t *p0 = json_array_get(json_object_get(s1, "paired"), 0);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p0, "a")), "cand");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p0, "b")), "base");
  json_decref(s1);
  json_decref(s2);

  /* every unit's log replays to the points in games.jsonl */
  char p[1024];
  snprintf(p, sizeof p, "%s/games.jsonl", out1);
  FILE *g = fopen(p, "r");
  char line[8192];
  int units = 0;
  while (g && fgets(line, sizeof line, g)) {
    json_t *o = json_loads(line, 0, NULL);
    int u = (int)json_integer_value(json_object_get(o, "unit"));
    snprintf(p, sizeof p, "%s/unit-%08d.jsonl", logs, u);
    FILE *f = fopen(p, "r");
    TK_EQ(f != NULL, 1, p);
    if (f) {
      tk_riichi_replay rp;
      tk_error err;
      tk_error_clear(&err);
      TK_EQ(tk_riichi_log_replay(f, &rp, &err), 0, err.msg);
      json_t *seats = json_object_get(o, "seats");
      for (int s = 0; s < 4; s++)
        TK_EQ(rp.scores[s], json_integer_value(json_object_get(json_array_get(seats, s), "points")),
              "log scores = games.jsonl points");
      fclose(f);
    }
    units++;
    json_decref(o);
  }
  if (g) fclose(g);
  TK_EQ(units, 24, "24 units");
}

/* Round-robin plays every distinct seating: each of the C(5,4) = 5 combinations in all 4! = 24
 * orders around the table on every game index (120 games per index). */
static void round_robin(void) {
  char spec[600], out[600], out1[600], old[600], p[4096];
  snprintf(spec, sizeof spec, "%s/rr.json", work);
  snprintf(out, sizeof out, "%s/rr", work);
  snprintf(out1, sizeof out1, "%s/rr1", work);
  snprintf(old, sizeof old, "%s/rr-old", work);
  write_spec(spec, "round-robin",
             "{\"plugin\": \"riichi_tsumogiri\", \"label\": \"t\"}, {\"plugin\": \"riichi_random\", \"label\": \"r\"},"
             " {\"plugin\": \"riichi_greedy\", \"label\": \"g\"}, {\"plugin\": \"riichi_greedy\", \"label\": \"g2\"},"
             " {\"plugin\": \"riichi_random\", \"label\": \"r2\"}",
             "");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 2 --quiet > /dev/null", spec, out), 0, "run -j 2");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 1 --quiet > /dev/null", spec, out1), 0, "run -j 1");
  static const char *const files[] = {"games.jsonl", "summary.json", "report.md"};
  for (int i = 0; i < 3; i++) {
    char a[700], b[700];
    snprintf(a, sizeof a, "%s/%s", out, files[i]);
    snprintf(b, sizeof b, "%s/%s", out1, files[i]);
    TK_EQ(sh("cmp -s %s %s", a, b), 0, files[i]); /* byte-identical for -j 1 and 2 */
  }
  json_t *s = load(out, "summary.json");
  json_t *agents = json_object_get(s, "agents");
  TK_EQ(json_array_size(agents), 5, "five agents");
  TK_EQ(json_integer_value(json_object_get(s, "units")), 6 * 120, "6 game indices x 120 seatings");
  /* each agent sits at C(4,3) = 4 of the 5 tables, in all 24 seatings of each */
  for (int a = 0; a < 5; a++)
    TK_EQ(json_integer_value(json_object_get(json_array_get(agents, (size_t)a), "games")), 6 * 4 * 24, "games");
  TK_EQ(json_array_size(json_object_get(s, "paired")), 10, "every pair");
  json_decref(s);

  /* games.jsonl: on every game index, every permutation of every combination exactly once */
  static unsigned char seen[6][5 * 5 * 5 * 5];
  memset(seen, 0, sizeof seen);
  int per_wall[6] = {0}, lines = 0;
  snprintf(p, sizeof p, "%s/games.jsonl", out);
  FILE *g = fopen(p, "r");
  TK_EQ(g != NULL, 1, p);
  char line[8192];
  while (g && fgets(line, sizeof line, g)) {
    json_t *o = json_loads(line, 0, NULL);
    int w = (int)json_integer_value(json_object_get(o, "wall"));
    json_t *seats = json_object_get(o, "seats");
    int code = 0, mask = 0, ok = w >= 0 && w < 6 && json_array_size(seats) == 4;
    for (int i = 0; i < 4 && ok; i++) {
      int a = (int)json_integer_value(json_object_get(json_array_get(seats, (size_t)i), "agent"));
      ok = a >= 0 && a < 5 && !(mask >> a & 1);
      mask |= 1 << a;
      code = code * 5 + a;
    }
    TK_EQ(ok, 1, "a seating of four distinct agents");
    if (ok) {
      TK_EQ(seen[w][code]++, 0, "each seating once per game index");
      per_wall[w]++;
    }
    lines++;
    json_decref(o);
  }
  if (g) fclose(g);
  TK_EQ(lines, 6 * 120, "games.jsonl lines");
  for (int w = 0; w < 6; w++) TK_EQ(per_wall[w], 120, "distinct seatings per game index");

  /* a folder holding a run of the former schedule (4 rotations per combination: 20 units per
   * game index) is another tournament: refused, not continued with the wrong seatings */
  snprintf(p, sizeof p, "mkdir -p %s && cp %s/spec.json %s/ && sed -i 's/\"units\": 720$/\"units\": 120/' %s/spec.json",
           old, out, old, old);
  TK_EQ(system(p), 0, "a spec.json of the former schedule");
  snprintf(p, sizeof p, TK_TAIKAI_BIN " run %s --out %s --quiet > /dev/null 2> %s/rr-old.err", spec, old, work);
  int st = system(p);
  TK_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 2, "resume of the former schedule refused");
  snprintf(p, sizeof p, "grep -q 'units: 120 there, 720 here' %s/rr-old.err", work);
  TK_EQ(system(p), 0, "refusal names the units");
}

static void bad_rules(void) {
  char spec[600], out[600];
  snprintf(spec, sizeof spec, "%s/bad.json", work);
  snprintf(out, sizeof out, "%s/bad", work);
  write_spec(spec, "duplicate",
             "{\"plugin\": \"riichi_tsumogiri\"}, {\"plugin\": \"riichi_greedy\"}",
             ", \"lenght\": 2");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s --quiet 2> /dev/null > /dev/null", spec, out) != 0, 1,
        "unknown rule refused");
  write_spec(spec, "field", "{\"plugin\": \"riichi_tsumogiri\"}", "");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s --quiet 2> /dev/null > /dev/null", spec, out) != 0, 1,
        "field format refused for a four-seat game");
  write_spec(spec, "duplicate", "{\"plugin\": \"greedy\"}, {\"plugin\": \"riichi_greedy\"}", "");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s --quiet 2> /dev/null > /dev/null", spec, out) != 0, 1,
        "a solo plugin refused");
}

int main(void) {
  snprintf(work, sizeof work, "%s", TK_WORK_DIR);
  sh("rm -rf %s%s", work, ""); /* no run folder of an earlier build: each test starts afresh */
  mkdir(work, 0777);
  setenv("TAIKAI_PLUGIN_PATH", TK_PLUGIN_DIR, 1);
  CU_TestInfo tests[] = {
      {"duplicate: metrics, -j independence, logs replay", duplicate},
      {"round-robin: every table, every seating", round_robin},
      {"bad rules and formats are refused", bad_rules},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_run", tests);
}
