/* tests/riichi/test_riichi_run.c — end to end: `taikai run` of a small riichi tournament in the
 * duplicate and round-robin formats, with mjai logs. Checks summary.json's per-agent metrics,
 * the game counts of each format, the independence of the results from -j, that every log
 * replays through the log reader to the scores in games.jsonl, and that bad rules are refused
 * before any game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
  char spec[600], out1[600], out2[600], logs[700];
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

static void round_robin(void) {
  char spec[600], out[600];
  snprintf(spec, sizeof spec, "%s/rr.json", work);
  snprintf(out, sizeof out, "%s/rr", work);
  write_spec(spec, "round-robin",
             "{\"plugin\": \"riichi_tsumogiri\", \"label\": \"t\"}, {\"plugin\": \"riichi_random\", \"label\": \"r\"},"
             " {\"plugin\": \"riichi_greedy\", \"label\": \"g\"}, {\"plugin\": \"riichi_greedy\", \"label\": \"g2\"},"
             " {\"plugin\": \"riichi_random\", \"label\": \"r2\"}",
             "");
  TK_EQ(sh(TK_TAIKAI_BIN " run %s --out %s -j 2 --quiet > /dev/null", spec, out), 0, "run");
  json_t *s = load(out, "summary.json");
  json_t *agents = json_object_get(s, "agents");
  TK_EQ(json_array_size(agents), 5, "five agents");
  /* C(5,4) = 5 tables x 4 seatings per game index; each agent sits at 4 tables */
  for (int a = 0; a < 5; a++)
    TK_EQ(json_integer_value(json_object_get(json_array_get(agents, (size_t)a), "games")), 6 * 16, "games");
  TK_EQ(json_array_size(json_object_get(s, "paired")), 10, "every pair");
  json_decref(s);
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
