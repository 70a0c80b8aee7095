/* tests/referee/test_ref_ratings.c — end to end: `taikai ratings` on tiny real tournaments.
 * Riichi greedy against three tsumogiri on 8 walls (32 games), and the same spec again in a
 * second folder (one agent is one row; its walls are the same deals); a one-player run of
 * greedy, tsumogiri and random (a ranking per wall); then refusals: two games mixed, a line
 * changed after the run (games.chain), bad options, each naming the file, field or value. */
#include <math.h>

#include "e2e_util.h"

static void runs_once(void) {
  static int done;
  if (done) return;
  done = 1;
  const char *r1[] = {"run", TK_SOURCE_DIR "/arenas/riichi/greedy-vs-tsumogiri.json", "--walls", "8",
                      "--out", W("riichi1"), "--quiet", NULL};
  TK_EQ(taikai(r1), 0, err_buf);
  const char *r2[] = {"run", TK_SOURCE_DIR "/arenas/riichi/greedy-vs-tsumogiri.json", "--walls", "8",
                      "--out", W("riichi2"), "--quiet", NULL};
  TK_EQ(taikai(r2), 0, err_buf);
  const char *g[] = {"run", TK_SOURCE_DIR "/arenas/riichi/ci-gate.json", "--walls", "8",
                     "--out", W("gate"), "--quiet", NULL};
  TK_EQ(taikai(g), 0, err_buf);
  const char *s[] = {"run", TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json", "--walls", "300",
                     "--out", W("solo"), "--quiet", NULL};
  TK_EQ(taikai(s), 0, err_buf);
}

static json_t *agent_row(json_t *o, const char *label) {
  size_t i;
  json_t *a;
  json_array_foreach(json_object_get(o, "agents"), i, a)
    if (!strcmp(json_string_value(json_object_get(a, "label")), label)) return a;
  return NULL;
}

static double num(json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }

/* riichi_greedy against its copy without ukeire, with a field of riichi_greedy: the field
 * and "greedy" are one agent (same plugin, version, params), so two rows. */
static void riichi_json(void) {
  runs_once();
  const char *args[] = {"ratings", W("gate"), "--json", "--resamples", "200", NULL};
  TK_EQ(taikai(args), 0, err_buf);
  json_t *o = json_loads(out_buf, 0, NULL);
  if (!o) {
    TK_FAILF("not JSON: %s", out_buf);
    return;
  }
  TK_EQ(strcmp(json_string_value(json_object_get(o, "game")), "riichi"), 0, "game");
  TK_EQ(json_integer_value(json_object_get(o, "walls")), 8, "walls");
  long long games = json_integer_value(json_object_get(o, "games"));
  TK_EQ(json_array_size(json_object_get(o, "agents")), 2, "two agents: field = greedy");
  json_t *g = agent_row(o, "field"), *t = agent_row(o, "greedy-no-ukeire");
  if (!g || !t) {
    TK_FAILF("rows: %s", out_buf);
    json_decref(o);
    return;
  }
  TK_EQ(json_integer_value(json_object_get(g, "games")), games, "the field plays every game");
  TK_EQ(json_integer_value(json_object_get(g, "runs")), 1, "one run (two labels)");
  for (int k = 0; k < 2; k++) {
    json_t *a = k ? t : g;
    double r = num(a, "rating"), lo = json_number_value(json_array_get(json_object_get(a, "ci"), 0)),
           hi = json_number_value(json_array_get(json_object_get(a, "ci"), 1));
    if (!(lo <= r && r <= hi && lo < hi)) TK_FAILF("%d: %g [%g, %g]", k, r, lo, hi);
  }
  if (fabs(num(g, "rating") + num(t, "rating")) > 1e-6)
    TK_FAILF("ratings not centred: %g %g", num(g, "rating"), num(t, "rating"));
  json_t *first = json_array_get(json_object_get(o, "agents"), 0),
         *second = json_array_get(json_object_get(o, "agents"), 1);
  double p = num(first, "p_above_next");
  if (!(p >= 0 && p <= 1)) TK_FAILF("P(above next) = %g", p);
  TK_EQ(json_is_null(json_object_get(second, "p_above_next")), 1, "none for the last");
  double e01 = json_number_value(json_array_get(json_array_get(json_object_get(o, "expected"), 0), 1));
  double want = 1 / (1 + pow(10, -(num(first, "rating") - num(second, "rating")) / 400));
  if (fabs(e01 - want) > 1e-9) TK_FAILF("expected score %g, from the ratings %g", e01, want);
  TK_EQ(strstr(err_buf, "games.chain") == NULL, 1, "a folder with a chain: no note");
  json_decref(o);
  /* the same seed: the same bytes; the table by default */
  const char *md[] = {"ratings", W("gate"), "--resamples", "200", "--seed", "7", NULL};
  TK_EQ(taikai(md), 0, err_buf);
  static char before[1 << 16];
  memcpy(before, out_buf, sizeof before);
  TK_EQ(taikai(md), 0, err_buf);
  TK_EQ(strcmp(before, out_buf), 0, "same seed, same output");
  TK_EQ(strstr(out_buf, "| riichi_greedy 1.") != NULL, 1, "the table's rows");
  TK_EQ(strstr(out_buf, "Expected score of the row") != NULL, 1, "the head-to-head matrix");
  /* anchored on greedy-no-ukeire */
  const char *an[] = {"ratings", W("gate"), "--json", "--anchor", "greedy-no-ukeire", "--resamples", "50", NULL};
  TK_EQ(taikai(an), 0, err_buf);
  o = json_loads(out_buf, 0, NULL);
  t = agent_row(o, "greedy-no-ukeire");
  if (!t || num(t, "rating") != 0 ||
      json_number_value(json_array_get(json_object_get(t, "ci"), 0)) != 0)
    TK_FAILF("anchor: %s", out_buf);
  else CU_PASS("anchored");
  json_decref(o);
  /* greedy first in every game against tsumogiri: the resamples cannot vary, and say so */
  const char *ts[] = {"ratings", W("riichi1"), "--json", "--resamples", "50", NULL};
  TK_EQ(taikai(ts), 0, err_buf);
  o = json_loads(out_buf, 0, NULL);
  TK_EQ(json_integer_value(json_object_get(o, "games")), 32, "8 walls x 4 games");
  TK_EQ(json_integer_value(json_object_get(agent_row(o, "greedy"), "rank")), 1, "greedy first");
  TK_EQ(strstr(err_buf, "'greedy' has the same rating in every resample") != NULL, 1, err_buf);
  json_decref(o);
}

/* Two folders of one spec: each agent one row, with both folders' games, on the same 8 walls. */
static void two_runs(void) {
  runs_once();
  const char *args[] = {"ratings", W("riichi1"), W("riichi2"), "--json", "--resamples", "50", NULL};
  TK_EQ(taikai(args), 0, err_buf);
  json_t *o = json_loads(out_buf, 0, NULL);
  TK_EQ(json_array_size(json_object_get(o, "agents")), 2, "still two agents");
  TK_EQ(json_integer_value(json_object_get(o, "games")), 64, "both folders' games");
  TK_EQ(json_integer_value(json_object_get(o, "walls")), 8, "the same deals: 8 walls");
  TK_EQ(json_integer_value(json_object_get(agent_row(o, "greedy"), "runs")), 2, "greedy in 2 runs");
  json_decref(o);
}

static void solo_html(void) {
  runs_once();
  const char *args[] = {"ratings", W("solo"), "--json", "--resamples", "100", "--html", W("board.html"), NULL};
  TK_EQ(taikai(args), 0, err_buf);
  json_t *o = json_loads(out_buf, 0, NULL);
  TK_EQ(json_integer_value(json_object_get(o, "games")), 300, "one ranking per wall");
  TK_EQ(json_integer_value(json_object_get(o, "units")), 900, "three units per wall");
  json_t *g = agent_row(o, "greedy");
  TK_EQ(json_integer_value(json_object_get(g, "rank")), 1, "greedy is first");
  /* tsumogiri and random never win: tied on every wall, equal ratings */
  double a = num(agent_row(o, "tsumogiri"), "rating"), b = num(agent_row(o, "random"), "rating");
  if (fabs(a - b) > 1e-6) TK_FAILF("tsumogiri %g, random %g", a, b);
  json_decref(o);
  char html[1 << 16];
  slurp(W("board.html"), html, sizeof html);
  TK_EQ(strstr(html, "<svg") != NULL, 1, "a plot");
  TK_EQ(strstr(html, "Expected head-to-head scores") != NULL, 1, "the matrix");
  TK_EQ(strstr(html, "<td>greedy</td>") != NULL, 1, "a row");
}

static void refusals(void) {
  runs_once();
  const char *mix[] = {"ratings", W("riichi1"), W("solo"), NULL};
  TK_EQ(taikai(mix), 2, "two games");
  TK_EQ(strstr(err_buf, "solo/spec.json: field 'game': 'solo'") != NULL, 1, err_buf);
  const char *none[] = {"ratings", W("nothing-here"), NULL};
  TK_EQ(taikai(none), 2, "no folder");
  TK_EQ(strstr(err_buf, "nothing-here/spec.json") != NULL, 1, err_buf);
  const char *badres[] = {"ratings", W("riichi1"), "--resamples", "lots", NULL};
  TK_EQ(taikai(badres), 2, "bad --resamples");
  TK_EQ(strstr(err_buf, "taikai ratings: --resamples: 'lots' is not a whole number (see taikai ratings --help)") != NULL, 1, err_buf);
  const char *badlvl[] = {"ratings", W("riichi1"), "--level", "95", NULL};
  TK_EQ(taikai(badlvl), 2, "bad --level");
  TK_EQ(strstr(err_buf, "--level: '95' is not a number between 0 and 1") != NULL, 1, err_buf);
  const char *anc[] = {"ratings", W("riichi1"), "--anchor", "nobody", NULL};
  TK_EQ(taikai(anc), 2, "no such anchor");
  TK_EQ(strstr(err_buf, "no agent labelled 'nobody' (agents: tsumogiri, greedy)") != NULL, 1, err_buf);
  const char *key[] = {"ratings", W("riichi1"), "--key", "nosuch", NULL};
  TK_EQ(taikai(key), 2, "no such field");
  TK_EQ(strstr(err_buf, "'nosuch' is not a result field of game 'riichi'") != NULL, 1, err_buf);
  const char *help[] = {"ratings", "--help", NULL};
  TK_EQ(taikai(help), 0, "--help");
  TK_EQ(strstr(out_buf, "Plackett-Luce") != NULL, 1, "help text");
  /* a line changed after the run: games.chain no longer vouches for it */
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s' && sed -i '3s/\"rank\":1/\"rank\":9/' '%s/games.jsonl'"
           " && sed -i '3s/\"rank\":2/\"rank\":1/; 3s/\"rank\":9/\"rank\":2/' '%s/games.jsonl'",
           W("forged"), W("riichi1"), W("forged"), W("forged"), W("forged"));
  TK_EQ(system(cmd), 0, cmd);
  const char *forged[] = {"ratings", W("forged"), NULL};
  TK_EQ(taikai(forged), 2, "a forged line");
  TK_EQ(strstr(err_buf, "unit 2") != NULL, 1, err_buf);
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR "-ratings")) return 1;
  CU_TestInfo tests[] = {
      {"riichi: JSON, table, seed, anchor", riichi_json},
      {"two runs of one spec: one row per agent, shared walls", two_runs},
      {"solo: a ranking per wall, the HTML page", solo_html},
      {"refusals name the file, field and value", refusals},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("ref_ratings", tests);
}
