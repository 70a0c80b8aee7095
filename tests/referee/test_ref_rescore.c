/* tests/referee/test_ref_rescore.c — end to end: `taikai rescore`, a one-player run's wins
 * scored again under other conventions, and its log audited against the engine. A greedy /
 * tsumogiri / random run on 2,000 walls: the "as logged" column must equal summary.json's
 * points per win and per game; the best winning tile can only add points and the dora only
 * adds han; a log whose points or discards were altered is caught (exit 1, the line named);
 * bad input is refused with the file, field and value. */
#include <math.h>

#include "e2e_util.h"

static void run_once(void) {
  static int done;
  if (done) return;
  done = 1;
  const char *args[] = {"run", TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json", "--walls", "2000",
                        "--out", W("run"), "--quiet", NULL};
  TK_EQ(taikai(args), 0, err_buf);
}

/* The row of `label` in the Markdown table: its cells after the label, as numbers
 * (value, lo, hi for each estimate). Returns the count of numbers read. */
static int row_numbers(const char *md, const char *label, double *v, int max) {
  char head[80];
  snprintf(head, sizeof head, "\n| %s |", label);
  const char *p = strstr(md, head);
  if (!p) return -1;
  p += strlen(head);
  int n = 0;
  while (*p && *p != '\n' && n < max) {
    char *end;
    double x = strtod(p, &end);
    if (end != p) {
      v[n++] = x;
      p = end;
    } else {
      p++;
    }
  }
  return n;
}

static double summary_value(json_t *s, int agent, const char *metric, int which) {
  json_t *m = json_object_get(json_array_get(json_object_get(s, "agents"), (size_t)agent), metric);
  if (which == 0) return json_number_value(json_object_get(m, "value"));
  return json_number_value(json_array_get(json_object_get(m, "ci"), (size_t)which - 1));
}

static void columns(void) {
  run_once();
  const char *args[] = {"rescore", W("run"), "--out", W("rescore.md"), NULL};
  TK_EQ(taikai(args), 0, err_buf);
  static char md[1 << 16];
  slurp(W("rescore.md"), md, sizeof md);
  TK_EQ(strstr(md, "| agent | games | wins | points/win, as logged |") != NULL, 1, md);
  json_t *s = json_load_file(W("run/summary.json"), 0, NULL);
  TK_EQ(s != NULL, 1, "summary.json");
  /* every agent: games, wins, then 3 x (v, lo, hi) points/win (absent without a win) and
   * 3 x points/game; the "as logged" estimates are summary.json's (to the printed 0.1) */
  const char *labels[] = {"greedy", "tsumogiri", "random"};
  for (int a = 0; a < 3; a++) {
    double v[32];
    long long wins = (long long)(summary_value(s, a, "win_rate", 0) * 2000 + 0.5);
    int n = row_numbers(md, labels[a], v, 32);
    TK_EQ(n, wins ? 20 : 11, labels[a]);
    TK_EQ(v[0], 2000, "games");
    TK_EQ((long long)v[1], wins, "wins");
    int g = wins ? 11 : 2; /* first points/game number */
    for (int k = 0; k < 3; k++) {
      char what[80];
      snprintf(what, sizeof what, "%s: points/game as logged [%d] = summary.json", labels[a], k);
      TK_EQ(fabs(v[g + k] - summary_value(s, a, "points_per_game", k)) <= 0.0501, 1, what);
      if (!wins) continue;
      snprintf(what, sizeof what, "%s: points/win as logged [%d] = summary.json", labels[a], k);
      TK_EQ(fabs(v[2 + k] - summary_value(s, a, "points_per_win", k)) <= 0.0501, 1, what);
    }
    if (a) continue;
    /* greedy's ~370 wins: the best winning tile never pays less than the drawn one and here
     * pays more on some hand; without dora never more, and less on some hand */
    TK_EQ(v[5] > v[2], 1, "best winning tile > as logged (points/win)");
    TK_EQ(v[8] < v[2], 1, "no dora < as logged (points/win)");
    TK_EQ(v[14] > v[11], 1, "best winning tile > as logged (points/game)");
  }
  json_decref(s);

  /* --labels keeps only those rows */
  const char *a2[] = {"rescore", W("run"), "--labels", "random", NULL};
  TK_EQ(taikai(a2), 0, err_buf);
  TK_EQ(strstr(out_buf, "| random |") != NULL, 1, out_buf);
  TK_EQ(strstr(out_buf, "| greedy |") == NULL, 1, out_buf);
}

/* Copies run/spec.json and run/games.jsonl to `dir`, changing line `target` (1-based; the
 * first line with "won":true when 0) with `edit`. Returns the line number changed. */
static long tampered(const char *dir, long target, void (*edit)(json_t *seat)) {
  mkdir(W(dir), 0777);
  char path[1600], text[1 << 14];
  snprintf(path, sizeof path, "%s/spec.json", W(dir));
  static char spec[1 << 16];
  slurp(W("run/spec.json"), spec, sizeof spec);
  write_file(path, spec);
  FILE *in = fopen(W("run/games.jsonl"), "r");
  snprintf(path, sizeof path, "%s/games.jsonl", W(dir));
  FILE *out = fopen(path, "w");
  long n = 0, changed = 0;
  while (in && out && fgets(text, sizeof text, in)) {
    n++;
    if (!changed && (n == target || (target == 0 && strstr(text, "\"won\":true")))) {
      json_t *j = json_loads(text, 0, NULL);
      edit(json_array_get(json_object_get(j, "seats"), 0));
      char *s = json_dumps(j, JSON_COMPACT);
      fprintf(out, "%s\n", s);
      free(s);
      json_decref(j);
      changed = n;
    } else {
      fputs(text, out);
    }
  }
  if (in) fclose(in);
  if (out) fclose(out);
  return changed;
}

static void more_points(json_t *seat) {
  json_object_set_new(seat, "points", json_integer(json_integer_value(json_object_get(seat, "points")) + 100));
}

/* a won game's first discard replaced by a kind it cannot have held five of */
static void other_discards(json_t *seat) {
  const char *d = json_string_value(json_object_get(seat, "discards"));
  char s[64];
  snprintf(s, sizeof s, "%s", d);
  /* five copies of one kind cannot all be discarded */
  char five[80];
  snprintf(five, sizeof five, "11111z%s", strlen(s) > 5 ? s + 5 : "");
  json_object_set_new(seat, "discards", json_string(five));
}

static void lost(json_t *seat) { json_object_set_new(seat, "won", json_false()); }

static void audit(void) {
  run_once();
  long line = tampered("t1", 0, more_points);
  TK_EQ(line > 0, 1, "a won line");
  const char *a1[] = {"rescore", W("t1"), NULL};
  TK_EQ(taikai(a1), 1, err_buf);
  char where[64];
  snprintf(where, sizeof where, "games.jsonl:%ld (agent greedy, wall ", line);
  TK_EQ(strstr(err_buf, where) != NULL, 1, err_buf);
  TK_EQ(strstr(err_buf, "the engine scores the rebuilt hand") != NULL, 1, err_buf);
  TK_EQ(strstr(err_buf, "1 games disagree with the engine") != NULL, 1, err_buf);
  TK_EQ(strstr(out_buf, "| greedy |") != NULL, 1, "the table is still written");

  tampered("t2", 0, other_discards);
  const char *a2[] = {"rescore", W("t2"), NULL};
  TK_EQ(taikai(a2), 1, err_buf);
  TK_EQ(strstr(err_buf, "is not in the hand rebuilt from the wall") != NULL ||
            strstr(err_buf, "follows") != NULL, 1, err_buf);

  tampered("t3", 0, lost);
  const char *a3[] = {"rescore", W("t3"), NULL};
  TK_EQ(taikai(a3), 1, err_buf);
  TK_EQ(strstr(err_buf, "a game without a win ends after 18 draws") != NULL, 1, err_buf);
}

static void refused(const char *what, const char *const *args, const char *needle) {
  TK_EQ(taikai(args), 2, what);
  if (!strstr(err_buf, needle)) TK_FAILF("%s: stderr lacks \"%s\": %s", what, needle, err_buf);
}

static void bad_input(void) {
  run_once();
  const char *a1[] = {"rescore", W("nope"), NULL};
  refused("no run folder", a1, "nope/spec.json");
  mkdir(W("riichi"), 0777);
  write_file(W("riichi/spec.json"),
             "{\"game\": \"riichi\", \"format\": \"duplicate\", \"agents\": [{\"plugin\": "
             "\"riichi_greedy\"}, {\"plugin\": \"riichi_tsumogiri\"}]}\n");
  const char *a2[] = {"rescore", W("riichi"), NULL};
  refused("a riichi run", a2, "field 'game': rescoring is for one-player mahjong runs (solo), got \"riichi\"");
  const char *a3[] = {"rescore", W("run"), "--labels", "greedy,gready", NULL};
  refused("an unknown label", a3, "--labels: no agent 'gready'");
  const char *a4[] = {"rescore", W("run"), "--bogus", NULL};
  refused("an unknown flag", a4, "unknown option '--bogus'");
  const char *a5[] = {"rescore", NULL};
  refused("no folder", a5, "usage: taikai rescore");
  mkdir(W("broken"), 0777);
  static char spec[1 << 16];
  slurp(W("run/spec.json"), spec, sizeof spec);
  write_file(W("broken/spec.json"), spec);
  write_file(W("broken/games.jsonl"), "{\"unit\": 0, \"wall\": 0, \"seats\": [{\"agent\": 0}]}\nnot json\n");
  const char *a6[] = {"rescore", W("broken"), NULL};
  refused("a malformed line", a6, "games.jsonl:1: not a solo games.jsonl line");
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR "-rescore")) return 1; /* beside test_ref_e2e's folder, which it removes */
  CU_TestInfo tests[] = {
      {"columns: as logged = summary.json, best tile >, no dora <", columns},
      {"a tampered log is caught, with the line named", audit},
      {"bad input is refused with file, field and value", bad_input},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("ref_rescore", tests);
}
