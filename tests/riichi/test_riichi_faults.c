/* tests/riichi/test_riichi_faults.c — end to end: faults in a four-player game (the referee's
 * policies in the riichi driver). A fixture broken on purpose (riichi_misbehave: the referee's
 * fallback agent until its 5th decision of every even game index, where it aborts (SIGABRT,
 * which sanitizer builds also leave to the signal), hangs,
 * returns an error or plays an illegal action) sits in a duplicate tournament against
 * riichi_greedy. Each run is compared line by line with the same tournament in which the
 * fixture is replaced by riichi_tsumogiri, which plays exactly the fallback:
 *   - units without a fault are byte-identical;
 *   - in a faulted unit the other three seats have exactly the points and ranks they have when
 *     the fallback played that seat from the start (the replay), the faulted seat ranks 4th
 *     with the game's lowest points, and its fault names the kind, the entry and the decision;
 *   - with illegal_policy "substitute" the game is the fallback's game and the seat counts
 *     one illegal action, not a fault;
 *   - games.jsonl is the same with -j 1 and -j 2, and the logs (--logs) replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "riichi_log.h"
#include "unit.h"

static char work[512];

enum { WALLS = 4, UNITS = WALLS * 4 };

static int run(const char *name, const char *bad_plugin, const char *bad_params,
               const char *extra, const char *flags) {
  char spec[700], out[700], cmd[3000];
  snprintf(spec, sizeof spec, "%s/%s.json", work, name);
  snprintf(out, sizeof out, "%s/%s", work, name);
  FILE *f = fopen(spec, "w");
  if (!f) return -1;
  fprintf(f,
          "{\"game\": \"riichi\", \"seed\": 11, \"walls\": %d, \"format\": \"duplicate\",%s"
          " \"agents\": [{\"plugin\": \"riichi_greedy\", \"label\": \"base\"},"
          " {\"plugin\": \"%s\", \"label\": \"bad\", \"params\": %s}]}\n",
          WALLS, extra, bad_plugin, bad_params);
  fclose(f);
  snprintf(cmd, sizeof cmd, "rm -rf %s && " TK_TAIKAI_BIN " run %s --out %s --quiet %s > /dev/null 2> %s.err",
           out, spec, out, flags, out);
  return system(cmd);
}

/* The lines of <work>/<name>/games.jsonl (UNITS of them), parsed; NULL-padded. */
static void load_lines(const char *name, json_t **lines) {
  char p[800];
  snprintf(p, sizeof p, "%s/%s/games.jsonl", work, name);
  FILE *f = fopen(p, "r");
  char buf[16384];
  int n = 0;
  memset(lines, 0, UNITS * sizeof *lines);
  while (f && n < UNITS && fgets(buf, sizeof buf, f)) lines[n++] = json_loads(buf, 0, NULL);
  if (f) fclose(f);
  TK_EQ(n, UNITS, "lines in games.jsonl");
}

static void free_lines(json_t **lines) {
  for (int i = 0; i < UNITS; i++) json_decref(lines[i]);
}

static json_t *seat(json_t *line, int s) { return json_array_get(json_object_get(line, "seats"), (size_t)s); }
static long long num(json_t *o, const char *k) { return (long long)json_integer_value(json_object_get(o, k)); }

/* The seat of agent 1 ("bad") in a duplicate unit (the candidate sits alone). */
static int bad_seat(json_t *line) {
  for (int s = 0; s < 4; s++)
    if (num(seat(line, s), "agent") == 1) return s;
  return -1;
}

/* Compares run `name` with the reference run `ref` (the fixture replaced by the fallback): the
 * faulted units are those of even game index; `kind` is the fault expected there, NULL for
 * illegal_policy substitute. */
static void compare(const char *name, const char *ref, const char *kind) {
  json_t *a[UNITS], *b[UNITS];
  load_lines(name, a);
  load_lines(ref, b);
  int faulted = 0;
  for (int u = 0; u < UNITS && a[u] && b[u]; u++) {
    int wall = (int)num(a[u], "wall"), bs = bad_seat(a[u]);
    char ctx[128];
    snprintf(ctx, sizeof ctx, "%s: unit %d (game index %d)", name, u, wall);
    TK_EQ(bs >= 0 && bs == bad_seat(b[u]), 1, ctx);
    if (bs < 0) continue;
    if (wall % 2) { /* no fault: the same game */
      TK_EQ(json_equal(a[u], b[u]), 1, ctx);
      continue;
    }
    json_t *x = seat(a[u], bs);
    if (!kind) { /* substitute: the fallback's game, one illegal action, no fault */
      TK_EQ(num(x, "illegal"), 1, ctx);
      TK_EQ(json_object_get(x, "fault") == NULL, 1, ctx);
      CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(x, "illegal_first")), "not legal"));
      json_object_del(x, "illegal");
      json_object_del(x, "illegal_first");
      TK_EQ(json_equal(a[u], b[u]), 1, ctx);
      continue;
    }
    faulted++;
    json_t *info = json_object_get(x, "fault_info");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "kind")), kind);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "entry")), "act");
    TK_EQ(num(info, "seat"), bs, ctx);
    const char *decision = json_string_value(json_object_get(info, "decision"));
    TK_EQ(decision && strstr(decision, "East 1, honba 0, seat") && strstr(decision, "hand "), 1,
          decision ? decision : "no decision");
    long long low = num(seat(b[u], 0), "points");
    for (int s = 1; s < 4; s++)
      if (num(seat(b[u], s), "points") < low) low = num(seat(b[u], s), "points");
    TK_EQ(num(x, "rank"), 4, ctx);
    TK_EQ(num(x, "points"), low, ctx);
    TK_EQ(num(x, "wins") + num(x, "deal_ins") + num(x, "riichi") + num(x, "calls"), 0, ctx);
    TK_EQ(num(x, "hands"), num(seat(b[u], bs), "hands"), ctx);
    /* the others: the replayed game, ranked among themselves */
    for (int s = 0; s < 4; s++) {
      if (s == bs) continue;
      json_t *y = seat(a[u], s), *z = seat(b[u], s);
      TK_EQ(num(y, "points"), num(z, "points"), ctx);
      TK_EQ(num(y, "wins"), num(z, "wins"), ctx);
      TK_EQ(num(y, "deal_ins"), num(z, "deal_ins"), ctx);
      int rank = 1;
      for (int o = 0; o < 4; o++)
        if (o != s && o != bs &&
            (num(seat(b[u], o), "points") > num(z, "points") ||
             (num(seat(b[u], o), "points") == num(z, "points") && o < s)))
          rank++;
      TK_EQ(num(y, "rank"), rank, ctx);
    }
  }
  if (kind) TK_EQ(faulted, UNITS / 2, "faulted units");
  free_lines(a);
  free_lines(b);
}

static json_t *bad_summary(const char *name) {
  char p[800];
  snprintf(p, sizeof p, "%s/%s/summary.json", work, name);
  json_t *s = json_load_file(p, 0, NULL);
  json_t *bad = json_incref(json_array_get(json_object_get(s, "agents"), 1));
  json_decref(s);
  return bad;
}

static const char *ref_run(void) {
  static int done;
  if (!done) {
    TK_EQ(run("ref", "riichi_tsumogiri", "{}", "", "-j 2"), 0, "reference run");
    done = 1;
  }
  return "ref";
}

#define PARAMS(how) "{\"how\": \"" how "\", \"turn\": 5, \"walls_mod\": 2}"

static void crash(void) {
  const char *ref = ref_run();
  TK_EQ(run("crash2", "riichi_misbehave", PARAMS("abort"), "", "-j 2"), 0, "crash run -j 2");
  TK_EQ(run("crash1", "riichi_misbehave", PARAMS("abort"), "", "-j 1"), 0, "crash run -j 1");
  compare("crash2", ref, "crash");
  TK_EQ(system("cmp -s " TK_WORK_DIR_FAULTS "/crash1/games.jsonl " TK_WORK_DIR_FAULTS
               "/crash2/games.jsonl"), 0, "games.jsonl identical with -j 1 and -j 2");
  json_t *bad = bad_summary("crash2");
  TK_EQ(num(bad, "faults"), UNITS / 2, "faults in summary.json");
  TK_EQ(num(bad, "games"), UNITS, "a forfeited game still counts");
  TK_EQ(json_number_value(json_object_get(json_object_get(bad, "rank_4_rate"), "value")) >= 0.5, 1,
        "4th in every faulted game");
  json_decref(bad);
}

static void hang(void) {
  TK_EQ(run("hang", "riichi_misbehave", PARAMS("hang"), " \"time_limit_ms\": 300,", "-j 2"), 0,
        "hang run");
  compare("hang", ref_run(), "timeout");
}

static void error_return(void) {
  TK_EQ(run("error", "riichi_misbehave", PARAMS("error"), "", "-j 2"), 0, "error run");
  compare("error", ref_run(), "error");
}

static void illegal_forfeit(void) {
  TK_EQ(run("illegal", "riichi_misbehave", PARAMS("illegal"), "", "-j 2"), 0, "illegal run");
  compare("illegal", ref_run(), "illegal");
}

static void illegal_substitute(void) {
  TK_EQ(run("subst", "riichi_misbehave", PARAMS("illegal"), " \"illegal_policy\": \"substitute\",",
            "-j 2"), 0, "substitute run");
  compare("subst", ref_run(), NULL);
  json_t *bad = bad_summary("subst");
  TK_EQ(num(bad, "faults"), 0, "substituted actions are not faults");
  TK_EQ(num(bad, "illegal_actions"), UNITS / 2, "illegal actions counted");
  json_decref(bad);
}

/* --logs with faults: each unit's log is the game that was scored (the replay for faulted
 * units), so it replays to the points of every seat that did not fault. */
static void logs(void) {
  TK_EQ(run("logs", "riichi_misbehave", PARAMS("abort"), "", "-j 2 --logs"), 0, "run --logs");
  json_t *a[UNITS];
  load_lines("logs", a);
  for (int u = 0; u < UNITS && a[u]; u++) {
    char p[900];
    snprintf(p, sizeof p, "%s/logs/logs/unit-%08d.jsonl", work, u);
    FILE *f = fopen(p, "r");
    TK_EQ(f != NULL, 1, p);
    if (!f) continue;
    tk_riichi_replay rp;
    tk_error err;
    tk_error_clear(&err);
    TK_EQ(tk_riichi_log_replay(f, &rp, &err), 0, err.msg);
    fclose(f);
    for (int s = 0; s < 4; s++)
      if (!json_object_get(seat(a[u], s), "fault"))
        TK_EQ(rp.scores[s], num(seat(a[u], s), "points"), p);
  }
  free_lines(a);
  char p[900];
  snprintf(p, sizeof p, "%s/logs/logs/unit-%08d.jsonl.tmp", work, 0);
  struct stat st;
  TK_EQ(stat(p, &st), -1, "no temporary log left behind");
}

int main(int argc, char **argv) {
  snprintf(work, sizeof work, "%s", TK_WORK_DIR_FAULTS);
  mkdir(work, 0777);
  setenv("TAIKAI_PLUGIN_PATH", TK_PLUGIN_DIR ":" TK_FIXTURE_DIR, 1);
  CU_TestInfo tests[] = {
      {"crash: replayed with the fallback, faulter 4th, -j independent", crash},
      {"hang past time_limit_ms: killed, replayed", hang},
      {"error return: replayed in the worker", error_return},
      {"illegal action, forfeit", illegal_forfeit},
      {"illegal action, substitute: the fallback's action, counted", illegal_substitute},
      {"--logs: the scored game of every unit, faulted or not", logs},
      CU_TEST_INFO_NULL,
  };
  (void)argc;
  (void)argv;
  return tk_unit_run("riichi_faults", tests);
}
