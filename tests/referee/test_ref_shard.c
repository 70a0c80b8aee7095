/* tests/referee/test_ref_shard.c — end to end: `taikai run --shard K/N` and `taikai merge`. A
 * one-player, a riichi and a daifugo spec are run whole and as 3 shards with different -j;
 * the merge holds the whole run's games.jsonl, summary.json and report.md byte for byte (and
 * records.tkr, logs/), also from shards of mixed N (1/2, 3/4, 4/4). A shard's folder records
 * its shard and summarises only its units. Refusals, each naming the folder and the field:
 * shards of another spec, overlapping shards, a missing shard, an unfinished shard (then
 * resumed and merged), a shard of a rebuilt plugin, a shard folder continued as another
 * shard, bad --shard values. `--partial` merges up to the first missing unit and `taikai run`
 * finishes the merged folder to the whole run's bytes. The binary runs as a child process
 * (e2e_util.h), in a folder beside test_ref_e2e's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define WORK TK_WORK_DIR "-shard" /* not inside test_ref_e2e's folder, which it removes */
#include "e2e_util.h"

#define PLUGIN(name) TK_PLUGIN_DIR "/" name ".so"

static const char *spec_file(const char *name, const char *text) {
  static char path[16][1200];
  static int next;
  char *p = path[next++ % 16];
  snprintf(p, sizeof path[0], "%s/%s.json", WORK, name);
  write_file(p, text);
  return p;
}

/* Runs taikai; a failure prints its stderr. */
static int run(const char *const *args, int want, const char *what) {
  int rc = taikai(args);
  if (rc != want) TK_FAILF("%s: exit %d, expected %d; stderr: %.600s", what, rc, want, err_buf);
  return rc == want;
}

/* The files of `a` and `b` named in `names` (NULL-terminated) hold the same bytes. */
static void same_files(const char *a, const char *b, const char *const *names) {
  for (; *names; names++) {
    char pa[1400], pb[1400];
    snprintf(pa, sizeof pa, "%s/%s", a, *names);
    snprintf(pb, sizeof pb, "%s/%s", b, *names);
    if (!exists(pa) || !same_bytes(pa, pb)) TK_FAILF("%s and %s differ (or are absent)", pa, pb);
  }
}

/* spec.json of both folders is the same but for "output". */
static void same_spec(const char *a, const char *b) {
  char pa[1400], pb[1400];
  snprintf(pa, sizeof pa, "%s/spec.json", a);
  snprintf(pb, sizeof pb, "%s/spec.json", b);
  json_t *x = json_load_file(pa, 0, NULL), *y = json_load_file(pb, 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(x);
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  json_object_del(x, "output");
  json_object_del(y, "output");
  if (!json_equal(x, y)) TK_FAILF("%s and %s differ beyond \"output\"", pa, pb);
  json_decref(x);
  json_decref(y);
}

static const char *const RESULTS[] = {"games.jsonl", "games.chain", "summary.json", "report.md",
                                      NULL};

static int count_lines(const char *path) {
  FILE *f = fopen(path, "r");
  int n = 0, c;
  while (f && (c = fgetc(f)) != EOF) n += c == '\n';
  if (f) fclose(f);
  return n;
}

/* Keeps the first `keep` lines of a file. */
static void keep_lines(const char *path, int keep) {
  static char buf[1 << 20];
  slurp(path, buf, sizeof buf);
  char *p = buf;
  for (int i = 0; i < keep && p; i++) {
    p = strchr(p, '\n');
    if (p) p++;
  }
  if (p) *p = '\0';
  write_file(path, buf);
}

static void expect_err(const char *what, const char *text) {
  if (!strstr(err_buf, text)) TK_FAILF("%s: stderr lacks \"%s\": %.800s", what, text, err_buf);
}

/* ================================================================== byte for byte */

#define SOLO_SPEC                                                                          \
  "{\"game\": \"solo\", \"seed\": 5, \"walls\": 40, \"agents\": [{\"plugin\": \"greedy\"}, " \
  "{\"plugin\": \"tsumogiri\"}], \"output\": \"" WORK "/solo\"}\n"

static void test_solo(void) {
  const char *sp = spec_file("solo", SOLO_SPEC);
  const char *whole[] = {"run", sp, "-j", "1", "--records", "--quiet", NULL};
  if (!run(whole, 0, "the whole run")) return;
  const char *jobs[] = {"2", "1", "2"};
  for (int k = 1; k <= 3; k++) {
    char shard[16];
    snprintf(shard, sizeof shard, "%d/3", k);
    const char *a[] = {"run", sp, "--shard", shard, "-j", jobs[k - 1], "--records", "--quiet",
                       NULL};
    if (!run(a, 0, shard)) return;
  }
  /* the default folder, and what a shard's folder says: 40 walls of 2 units, shard 2 holds
   * walls 13 to 25 */
  json_t *spec = json_load_file(WORK "/solo-shard-2-of-3/spec.json", 0, NULL);
  json_t *sum = json_load_file(WORK "/solo-shard-2-of-3/summary.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(spec);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  json_t *sh = json_object_get(spec, "shard");
  TK_EQ(json_integer_value(json_object_get(sh, "index")), 2, "shard.index");
  TK_EQ(json_integer_value(json_object_get(sh, "count")), 3, "shard.count");
  TK_EQ(json_integer_value(json_array_get(json_object_get(sh, "walls"), 0)), 13, "walls from");
  TK_EQ(json_integer_value(json_array_get(json_object_get(sh, "walls"), 1)), 26, "walls to");
  TK_EQ(json_integer_value(json_array_get(json_object_get(sh, "units"), 0)), 26, "units from");
  TK_EQ(json_integer_value(json_array_get(json_object_get(sh, "units"), 1)), 52, "units to");
  CU_ASSERT(json_equal(sh, json_object_get(sum, "shard")));
  TK_EQ(json_integer_value(json_object_get(sum, "units")), 26, "summary units");
  TK_EQ(json_integer_value(json_object_get(sum, "units_total")), 26, "summary units_total");
  CU_ASSERT(json_is_true(json_object_get(sum, "complete")));
  TK_EQ(agent_int(sum, 0, "games"), 13, "greedy's games in shard 2 (one per wall)");
  json_decref(spec);
  json_decref(sum);
  TK_EQ(count_lines(WORK "/solo-shard-2-of-3/games.jsonl"), 26, "shard 2's lines");
  static char games[1 << 16];
  slurp(WORK "/solo-shard-2-of-3/games.jsonl", games, sizeof games);
  CU_ASSERT(!strncmp(games, "{\"unit\":26,\"wall\":13,", 21));

  /* a merge that fails half way (a unit's log in shard 3 is a folder, found when the logs
   * are copied after every other file is written) leaves no OUT behind, and the same merge
   * runs once the shard is whole */
  if (system("cp -r '" WORK "/solo-shard-3-of-3' '" WORK "/solo-bad3' && mkdir -p '" WORK
             "/solo-bad3/logs/unit-00000060.jsonl'"))
    TK_FAILF("cp");
  const char *mbad[] = {"merge", WORK "/solo-bad3", WORK "/solo-shard-1-of-3",
                        WORK "/solo-shard-2-of-3", "--out", WORK "/solo-merged", "--quiet", NULL};
  run(mbad, 1, "merge with a damaged records.tkr");
  CU_ASSERT(!exists(WORK "/solo-merged"));
  CU_ASSERT(!exists(WORK "/solo-merged.merging"));
  const char *m[] = {"merge", WORK "/solo-shard-3-of-3", WORK "/solo-shard-1-of-3",
                     WORK "/solo-shard-2-of-3", "--out", WORK "/solo-merged", "--quiet", NULL};
  if (!run(m, 0, "merge")) return;
  CU_ASSERT(!exists(WORK "/solo-merged.merging"));
  const char *with_records[] = {"games.jsonl", "games.chain", "summary.json", "report.md",
                                "records.tkr", NULL};
  same_files(WORK "/solo", WORK "/solo-merged", with_records);
  same_spec(WORK "/solo", WORK "/solo-merged");

  /* shards of different N, as long as they are disjoint and complete */
  const char *h1[] = {"run", sp, "--shard", "1/2", "-j", "2", "--quiet", NULL};
  const char *q3[] = {"run", sp, "--shard", "3/4", "--quiet", NULL};
  const char *q4[] = {"run", sp, "--shard", "4/4", "-j", "2", "--quiet", NULL};
  if (!run(h1, 0, "1/2") || !run(q3, 0, "3/4") || !run(q4, 0, "4/4")) return;
  const char *mm[] = {"merge", WORK "/solo-shard-1-of-2", WORK "/solo-shard-3-of-4",
                      WORK "/solo-shard-4-of-4", "--out", WORK "/solo-mixed", "--quiet", NULL};
  if (!run(mm, 0, "merge of mixed N")) return;
  same_files(WORK "/solo", WORK "/solo-mixed", RESULTS);
  CU_ASSERT(!exists(WORK "/solo-mixed/records.tkr")); /* the shards had none */
  CU_ASSERT(exists(WORK "/solo-mixed/report.html"));
  const char *nh[] = {"merge", WORK "/solo-shard-1-of-2", WORK "/solo-shard-3-of-4",
                      WORK "/solo-shard-4-of-4", "--out", WORK "/solo-nohtml", "--no-html",
                      "--quiet", NULL};
  if (!run(nh, 0, "merge --no-html")) return;
  same_files(WORK "/solo", WORK "/solo-nohtml", RESULTS);
  TK_EQ(exists(WORK "/solo-nohtml/report.html"), 0, "merge --no-html writes no report.html");
}

static void test_riichi(void) {
  const char *sp = spec_file("riichi",
      "{\"game\": \"riichi\", \"seed\": 3, \"walls\": 3, \"format\": \"duplicate\", \"agents\": "
      "[{\"plugin\": \"riichi_tsumogiri\"}, {\"plugin\": \"riichi_greedy\"}], \"rules\": "
      "{\"length\": \"east\"}, \"output\": \"" WORK "/riichi\"}\n");
  const char *whole[] = {"run", sp, "-j", "2", "--logs", "--quiet", NULL};
  if (!run(whole, 0, "the whole riichi run")) return;
  const char *jobs[] = {"1", "2", "1"};
  for (int k = 1; k <= 3; k++) {
    char shard[16];
    snprintf(shard, sizeof shard, "%d/3", k);
    const char *a[] = {"run", sp, "--shard", shard, "-j", jobs[k - 1], "--logs", "--quiet", NULL};
    if (!run(a, 0, shard)) return;
  }
  const char *m[] = {"merge", WORK "/riichi-shard-1-of-3", WORK "/riichi-shard-2-of-3",
                     WORK "/riichi-shard-3-of-3", "--out", WORK "/riichi-merged", "--quiet", NULL};
  if (!run(m, 0, "merge")) return;
  same_files(WORK "/riichi", WORK "/riichi-merged", RESULTS);
  TK_EQ(count_lines(WORK "/riichi-merged/games.jsonl"), 12, "3 walls x 4 seatings");
  for (int u = 0; u < 12; u++) { /* every unit's log, as the whole run wrote it */
    char name[64];
    snprintf(name, sizeof name, "logs/unit-%08d.jsonl", u);
    const char *names[] = {name, NULL};
    same_files(WORK "/riichi", WORK "/riichi-merged", names);
  }
}

static void test_daifugo(void) {
  const char *sp = spec_file("daifugo",
      "{\"game\": \"daifugo\", \"seed\": 31, \"walls\": 3, \"format\": \"duplicate\",\n"
      " \"agents\": [{\"plugin\": \"daifugo_random\", \"label\": \"random\"},\n"
      "             {\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}],\n"
      " \"rules\": {\"block_games\": 6}, \"output\": \"" WORK "/daifugo\"}\n");
  const char *whole[] = {"run", sp, "--quiet", NULL};
  if (!run(whole, 0, "the whole daifugo run")) return;
  const char *jobs[] = {"2", "1", "2"};
  for (int k = 1; k <= 3; k++) {
    char shard[16];
    snprintf(shard, sizeof shard, "%d/3", k);
    const char *a[] = {"run", sp, "--shard", shard, "-j", jobs[k - 1], "--quiet", NULL};
    if (!run(a, 0, shard)) return;
  }
  const char *m[] = {"merge", WORK "/daifugo-shard-2-of-3", WORK "/daifugo-shard-3-of-3",
                     WORK "/daifugo-shard-1-of-3", "--out", WORK "/daifugo-merged", "--quiet",
                     NULL};
  if (!run(m, 0, "merge")) return;
  same_files(WORK "/daifugo", WORK "/daifugo-merged", RESULTS);
  TK_EQ(count_lines(WORK "/daifugo-merged/games.jsonl"), 15, "3 blocks x 5 player ids");
}

/* ================================================================== refusals */

#define R_SPEC                                                                             \
  "{\"game\": \"solo\", \"seed\": 7, \"walls\": 12, \"agents\": [{\"plugin\": \"greedy\"}, " \
  "{\"plugin\": \"tsumogiri\"}], \"output\": \"" WORK "/r\"}\n"

static void test_refusals(void) {
  const char *sp = spec_file("r", R_SPEC);
  const char *whole[] = {"run", sp, "--quiet", NULL};
  if (!run(whole, 0, "the whole run")) return;
  for (int k = 1; k <= 3; k++) {
    char shard[16];
    snprintf(shard, sizeof shard, "%d/3", k);
    const char *a[] = {"run", sp, "--shard", shard, "--quiet", NULL};
    if (!run(a, 0, shard)) return;
  }
  /* a shard of another spec (another seed) */
  const char *other[] = {"run", sp, "--shard", "2/3", "--seed", "8", "--out", WORK "/r-seed8",
                         "--quiet", NULL};
  if (!run(other, 0, "shard of seed 8")) return;
  const char *m1[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-seed8", WORK "/r-shard-3-of-3",
                      "--out", WORK "/r-m1", NULL};
  run(m1, 2, "another spec");
  expect_err("another spec", WORK "/r-seed8 is not a shard of the tournament of");
  expect_err("another spec", "seed: 7 in " WORK "/r-shard-1-of-3, 8 in " WORK "/r-seed8");
  CU_ASSERT(!exists(WORK "/r-m1"));

  /* overlapping shards */
  const char *half[] = {"run", sp, "--shard", "1/2", "--quiet", NULL};
  if (!run(half, 0, "1/2")) return;
  const char *m2[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-shard-2-of-3",
                      WORK "/r-shard-3-of-3", WORK "/r-shard-1-of-2", "--out", WORK "/r-m2", NULL};
  run(m2, 2, "overlap");
  expect_err("overlap", "units 0 to 7 are in both " WORK "/r-shard-1-of-3 (shard 1/3) and " WORK
             "/r-shard-1-of-2 (shard 1/2)");
  CU_ASSERT(!exists(WORK "/r-m2"));
  const char *twice[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-shard-1-of-3/",
                         "--out", WORK "/r-m2", NULL};
  run(twice, 2, "a folder twice");
  expect_err("a folder twice", "are the same folder");

  /* a missing shard: refused, then merged partially and finished by taikai run */
  const char *m3[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-shard-3-of-3", "--out",
                      WORK "/r-m3", NULL};
  run(m3, 2, "missing shard");
  expect_err("missing shard", "units 8 to 15 (walls 4 to 7) are in none of the folders");
  CU_ASSERT(!exists(WORK "/r-m3"));
  const char *m3p[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-shard-3-of-3", "--out",
                       WORK "/r-m3", "--partial", "--quiet", NULL};
  if (!run(m3p, 0, "--partial")) return;
  TK_EQ(count_lines(WORK "/r-m3/games.jsonl"), 8, "the units before the gap");
  json_t *sum = json_load_file(WORK "/r-m3/summary.json", 0, NULL);
  CU_ASSERT(json_is_false(json_object_get(sum, "complete")));
  TK_EQ(json_integer_value(json_object_get(sum, "units_total")), 24, "units_total");
  json_decref(sum);
  expect_err("--partial", "r-m3 is an incomplete run");
  const char *finish[] = {"run", sp, "--out", WORK "/r-m3", "--quiet", NULL};
  if (!run(finish, 0, "finishing the partial merge")) return;
  same_files(WORK "/r", WORK "/r-m3", RESULTS);

  /* an unfinished shard (a run killed after 5 of its 8 units), then resumed */
  if (system("cp -r '" WORK "/r-shard-2-of-3' '" WORK "/r-cut'")) TK_FAILF("cp");
  keep_lines(WORK "/r-cut/games.jsonl", 5);
  const char *m4[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-cut", WORK "/r-shard-3-of-3",
                      "--out", WORK "/r-m4", NULL};
  run(m4, 2, "unfinished shard");
  expect_err("unfinished shard", WORK "/r-cut (shard 2/3) holds 5 of its 8 units: units 13 to "
             "15 are missing");
  const char *resume[] = {"run", sp, "--shard", "2/3", "--out", WORK "/r-cut", NULL};
  if (!run(resume, 0, "resuming the shard")) return;
  expect_err("resuming the shard", "continued a run of this tournament (5 of 8 units");
  const char *m4b[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-cut", WORK "/r-shard-3-of-3",
                       "--out", WORK "/r-m4", "--quiet", NULL};
  if (!run(m4b, 0, "merge after the resume")) return;
  same_files(WORK "/r", WORK "/r-m4", RESULTS);

  /* a line edited by hand */
  if (system("cp -r '" WORK "/r-shard-3-of-3' '" WORK "/r-edit'")) TK_FAILF("cp");
  if (system("sed -i '2s/\"turn\":/\"turn\": /' '" WORK "/r-edit/games.jsonl'")) TK_FAILF("sed");
  const char *m5[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-shard-2-of-3", WORK "/r-edit",
                      "--out", WORK "/r-m5", NULL};
  run(m5, 2, "edited line");
  expect_err("edited line", WORK "/r-edit/games.jsonl: unit 17 (line 2): the line differs from "
             "what taikai wrote");
  CU_ASSERT(!exists(WORK "/r-m5"));

  /* a forged line, well formed (a game's turn changed): refused by merge, resume and report,
   * each naming the unit */
  if (system("cp -r '" WORK "/r-shard-3-of-3' '" WORK "/r-forge'")) TK_FAILF("cp");
  if (system("sed -i -E '3s/\"turn\":([0-9]+)/\"turn\":1\\1/' '" WORK "/r-forge/games.jsonl'"))
    TK_FAILF("sed");
  const char *mf[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-shard-2-of-3", WORK "/r-forge",
                      "--out", WORK "/r-mf", NULL};
  run(mf, 2, "forged line: merge");
  expect_err("forged line: merge", WORK "/r-forge/games.jsonl: unit 18 (line 3): the line "
             "differs from what taikai wrote");
  const char *resf[] = {"run", sp, "--shard", "3/3", "--out", WORK "/r-forge", NULL};
  run(resf, 2, "forged line: resume");
  expect_err("forged line: resume", "unit 18 (line 3): the line differs");
  const char *repf[] = {"report", WORK "/r-forge/summary.json", NULL};
  run(repf, 2, "forged line: report");
  expect_err("forged line: report", "unit 18 (line 3): the line differs");
  /* ... and with the chain removed, refused as unchecked */
  if (system("rm '" WORK "/r-forge/games.chain'")) TK_FAILF("rm");
  run(mf, 2, "no chain: merge");
  expect_err("no chain: merge", "holds lines but no games.chain");
  run(resf, 2, "no chain: resume");
  expect_err("no chain: resume", "holds lines but no games.chain");
  /* a chain of another run is named as such */
  if (system("cp '" WORK "/r-seed8/games.chain' '" WORK "/r-forge/games.chain'")) TK_FAILF("cp");
  run(mf, 2, "another run's chain");
  expect_err("another run's chain", "the chain belongs to another tournament");

  /* a shard's folder is refused as another shard, like a run's */
  const char *as4[] = {"run", sp, "--shard", "1/4", "--out", WORK "/r-shard-1-of-3", NULL};
  run(as4, 2, "another shard in a shard's folder");
  expect_err("another shard in a shard's folder", "shard.count: 3 there, 4 here");
  const char *whole_there[] = {"run", sp, "--out", WORK "/r-shard-1-of-3", NULL};
  run(whole_there, 2, "the whole run in a shard's folder");
  expect_err("the whole run in a shard's folder", "shard: {");

  /* not a shard; a merge into a run's folder; bad --shard values */
  const char *m6[] = {"merge", WORK "/r", "--out", WORK "/r-m6", NULL};
  run(m6, 2, "a whole run's folder");
  expect_err("a whole run's folder", WORK "/r/spec.json: no field 'shard'");
  const char *m7[] = {"merge", WORK "/r-shard-1-of-3", WORK "/r-shard-2-of-3",
                      WORK "/r-shard-3-of-3", "--out", WORK "/r", NULL};
  run(m7, 2, "into a run's folder");
  expect_err("into a run's folder", "--out " WORK "/r: holds a run already");
  static const char *const bad[] = {"0/3", "4/3", "3", "1/0", "a/3", "1/3x", ""};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const char *a[] = {"run", sp, "--shard", bad[i], NULL};
    run(a, 2, bad[i]);
    expect_err(bad[i], "--shard expects K/N with 1 <= K <= N");
  }
  const char *many[] = {"run", sp, "--shard", "13/13", NULL};
  run(many, 2, "13 shards of 12 walls");
  expect_err("13 shards of 12 walls", "plays 12 walls, and a shard holds whole walls: at most 12");
}

/* Shards played by two builds of one plugin (the same name and version, other bytes). */
static void test_rebuilt_plugin(void) {
  static char text[2048];
  snprintf(text, sizeof text,
           "{\"game\": \"solo\", \"seed\": 2, \"walls\": 6, \"agents\": [{\"plugin\": "
           "\"tsumogiri\"}, {\"plugin\": \"%s/greedy-copy.so\", \"label\": \"greedy\"}], "
           "\"output\": \"%s/rb\"}\n", WORK, WORK);
  const char *sp = spec_file("rb", text);
  if (system("cp '" PLUGIN("greedy") "' '" WORK "/greedy-copy.so'")) TK_FAILF("cp");
  const char *s1[] = {"run", sp, "--shard", "1/3", "--quiet", NULL};
  const char *s2[] = {"run", sp, "--shard", "2/3", "--quiet", NULL};
  const char *s3[] = {"run", sp, "--shard", "3/3", "--quiet", NULL};
  if (!run(s1, 0, "1/3") || !run(s2, 0, "2/3")) return;
  /* rebuilt: other bytes (a trailing string does not change what the loader finds) */
  if (system("printf rebuilt >> '" WORK "/greedy-copy.so'")) TK_FAILF("append");
  if (!run(s3, 0, "3/3 with the rebuilt plugin")) return;
  const char *m[] = {"merge", WORK "/rb-shard-1-of-3", WORK "/rb-shard-2-of-3",
                     WORK "/rb-shard-3-of-3", "--out", WORK "/rb-merged", NULL};
  run(m, 2, "shards of two builds");
  expect_err("shards of two builds", WORK "/rb-shard-3-of-3 is not a shard of the tournament of "
             WORK "/rb-shard-1-of-3: agent 'greedy' (field 'agents[1].files'): plugin file");
  expect_err("shards of two builds", "the shards were played by different builds");
  CU_ASSERT(!exists(WORK "/rb-merged"));
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"solo", test_solo},
      {"riichi", test_riichi},
      {"daifugo", test_daifugo},
      {"refusals", test_refusals},
      {"rebuilt_plugin", test_rebuilt_plugin},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("shards and merge", tests);
}
