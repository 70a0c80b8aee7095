/* tests/referee/test_ref_verify.c — end to end: `taikai verify`. A small solo (with records), a
 * riichi (with per-unit logs) and a daifugo run (with the run log) verified --all and by a
 * sample; a forged line whose chain is recomputed (so only playing it again can tell) caught,
 * naming the unit and the field; a forged log caught; a rebuilt plugin refused with both
 * hashes, then verified with --ignore-hashes (a warning); a missing plugin refused; an
 * external seat refused; a shard folder and a merged folder verified; verify.json written.
 * The binary runs as a child process (e2e_util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "taikai/sha256.h"

#ifndef TAIKAI_VERSION
#define TAIKAI_VERSION "0.1.0"
#endif

#define WORK TK_WORK_DIR "-verify" /* not inside test_ref_e2e's folder, which it removes */
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

/* Runs taikai; a failure prints its stdout and stderr. */
static int run(const char *const *args, int want, const char *what) {
  int rc = taikai(args);
  if (rc != want)
    TK_FAILF("%s: exit %d, expected %d; stdout: %.600s; stderr: %.600s", what, rc, want, out_buf,
             err_buf);
  return rc == want;
}

static void expect(const char *buf, const char *what, const char *text) {
  if (!strstr(buf, text)) TK_FAILF("%s: lacks \"%s\": %.900s", what, text, buf);
}

/* `taikai verify DIR --all` exits 0 with every unit the same, and writes verify.json. */
static void verify_all(const char *dir, int units, const char *what) {
  const char *a[] = {"verify", dir, "--all", "-j", "2", NULL};
  if (!run(a, 0, what)) return;
  char summary[256];
  snprintf(summary, sizeof summary, "%d of %d units played again: %d same, 0 differ", units,
           units, units);
  expect(out_buf, what, summary);
  char p[1400];
  snprintf(p, sizeof p, "%s/verify.json", dir);
  json_t *v = json_load_file(p, 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  TK_EQ(strcmp(json_string_value(json_object_get(v, "result")), "same"), 0, "verify.json result");
  TK_EQ(json_integer_value(json_object_get(v, "units_checked")), units, "verify.json units");
  TK_EQ(strcmp(json_string_value(json_object_get(v, "chain")), "follows"), 0, "verify.json chain");
  json_decref(v);
}

/* Rewrites DIR/games.chain from DIR/games.jsonl as taikai writes it (harness/core/chain.h): the
 * 64-byte header kept (it holds the run's identity at bytes 16 to 47), then
 * d(u) = SHA-256(d(u-1) || line(u)), the first from the identity. */
static void rechain(const char *dir) {
  char gp[1400], cp[1400];
  snprintf(gp, sizeof gp, "%s/games.jsonl", dir);
  snprintf(cp, sizeof cp, "%s/games.chain", dir);
  unsigned char header[64];
  FILE *c = fopen(cp, "rb");
  CU_ASSERT_FATAL(c && fread(header, 1, 64, c) == 64);
  fclose(c);
  FILE *g = fopen(gp, "r");
  c = fopen(cp, "wb");
  CU_ASSERT_FATAL(g && c);
  fwrite(header, 1, 64, c);
  uint8_t d[TK_SHA256_BYTES];
  memcpy(d, header + 16, TK_SHA256_BYTES);
  static char line[1 << 16];
  while (fgets(line, sizeof line, g)) {
    tk_sha256 h;
    tk_sha256_init(&h);
    tk_sha256_update(&h, d, sizeof d);
    tk_sha256_update(&h, line, strlen(line) - 1);
    tk_sha256_final(&h, d);
    fwrite(d, 1, sizeof d, c);
  }
  fclose(g);
  fclose(c);
}

/* Replaces the first `from` in line `n` (from 1) of `path` by `to`. */
static void edit_line(const char *path, int n, const char *from, const char *to) {
  static char buf[1 << 20], out[1 << 20];
  slurp(path, buf, sizeof buf);
  char *p = buf;
  for (int i = 1; i < n && p; i++) p = strchr(p, '\n') + 1;
  char *at = strstr(p, from), *eol = strchr(p, '\n');
  CU_ASSERT_FATAL(at && at < eol);
  snprintf(out, sizeof out, "%.*s%s%s", (int)(at - buf), buf, to, at + strlen(from));
  write_file(path, out);
}

#define SOLO_SPEC                                                                          \
  "{\"game\": \"solo\", \"seed\": 5, \"walls\": 20, \"agents\": [{\"plugin\": \"greedy\"}, " \
  "{\"plugin\": \"" WORK "/tsumogiri-copy.so\", \"label\": \"tsumogiri\"}], \"output\": \"" \
  WORK "/solo\"}\n"

static void test_solo(void) {
  if (system("cp '" PLUGIN("tsumogiri") "' '" WORK "/tsumogiri-copy.so'")) TK_FAILF("cp");
  const char *sp = spec_file("solo", SOLO_SPEC);
  const char *a[] = {"run", sp, "--records", "--quiet", NULL};
  if (!run(a, 0, "the solo run")) return;
  verify_all(WORK "/solo", 40, "solo --all");
  expect(err_buf, "solo --all", "with their records.tkr blocks");
  /* a sample: 10 units (the default for 40), the first and the last among them */
  const char *s[] = {"verify", WORK "/solo", "--seed", "7", NULL};
  if (!run(s, 0, "solo sample")) return;
  expect(out_buf, "solo sample", "unit 0 (wall 0): same");
  expect(out_buf, "solo sample", "unit 39 (wall 19): same");
  expect(out_buf, "solo sample", "10 of 40 units played again: 10 same, 0 differ");
  json_t *v = json_load_file(WORK "/solo/verify.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  TK_EQ(json_array_size(json_object_get(v, "units")), 10, "verify.json lists the sample");
  TK_EQ(json_integer_value(json_object_get(v, "seed")), 7, "verify.json seed");
  json_decref(v);
  /* taikai report says so, and so does the report.html it writes */
  const char *r[] = {"report", WORK "/solo/summary.json", NULL};
  if (!run(r, 0, "taikai report")) return;
  expect(err_buf, "taikai report", "by taikai " TAIKAI_VERSION ": 10 of 40 units played again: the same");
  static char html[1 << 20];
  slurp(WORK "/solo/report.html", html, sizeof html);
  expect(html, "report.html", "<b>Verified</b> (<code>taikai verify</code>) on ");
  expect(html, "report.html", ": 10 of its 40 units played again, every one the same");
}

/* A line forged by hand with its chain recomputed: the chain follows, the replay does not. */
static void test_forged(void) {
  if (system("rm -rf '" WORK "/forged' && cp -r '" WORK "/solo' '" WORK "/forged'"))
    TK_FAILF("cp");
  /* unit 4 (line 5): greedy's points, and its won flag, as a winner's */
  edit_line(WORK "/forged/games.jsonl", 5, "\"points\":", "\"points\":8");
  rechain(WORK "/forged");
  const char *a[] = {"verify", WORK "/forged", "--all", NULL};
  if (!run(a, 1, "a forged line")) return;
  expect(out_buf, "a forged line", "unit 4 (wall 2): differs: seats[0].points: 8");
  expect(out_buf, "a forged line", "40 of 40 units played again: 39 same, 1 differ");
  if (strstr(out_buf, "chain: differs")) TK_FAILF("the recomputed chain follows: %s", out_buf);
  json_t *v = json_load_file(WORK "/forged/verify.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  TK_EQ(strcmp(json_string_value(json_object_get(v, "result")), "differs"), 0, "result");
  TK_EQ(json_integer_value(json_array_get(json_object_get(v, "differ"), 0)), 4, "differ[0]");
  json_decref(v);
  /* the same edit without a new chain: the chain names it too */
  edit_line(WORK "/forged/games.jsonl", 7, "\"turn\":", "\"turn\":1");
  const char *b[] = {"verify", WORK "/forged", "--all", "--quiet", NULL};
  if (!run(b, 1, "a forged line, chain kept")) return;
  expect(out_buf, "chain kept", "chain: differs: " WORK "/forged/games.jsonl: unit 6 (line 7)");
  expect(out_buf, "chain kept", "unit 6 (wall 3): differs: seats[0].turn: 1");
}

static void test_rebuilt_and_missing(void) {
  if (system("rm -rf '" WORK "/rebuilt' && cp -r '" WORK "/solo' '" WORK "/rebuilt' && rm '"
             WORK "/rebuilt/verify.json'"))
    TK_FAILF("cp");
  char before[TK_SHA256_HEX], after[TK_SHA256_HEX];
  CU_ASSERT_FATAL(!tk_sha256_file(WORK "/tsumogiri-copy.so", before, NULL));
  /* rebuilt: other bytes (a trailing string does not change what the loader finds) */
  if (system("printf rebuilt >> '" WORK "/tsumogiri-copy.so'")) TK_FAILF("append");
  CU_ASSERT_FATAL(!tk_sha256_file(WORK "/tsumogiri-copy.so", after, NULL));
  const char *a[] = {"verify", WORK "/rebuilt", "--units", "3", NULL};
  if (!run(a, 2, "a rebuilt plugin")) return;
  expect(err_buf, "a rebuilt plugin", "refused: agent 'tsumogiri': plugin file " WORK
         "/tsumogiri-copy.so has sha256");
  expect(err_buf, "a rebuilt plugin", before);
  expect(err_buf, "a rebuilt plugin", after);
  TK_EQ(exists(WORK "/rebuilt/verify.json"), 0, "a refused verify writes no verify.json");
  /* --ignore-hashes: this build's bytes, said so */
  const char *b[] = {"verify", WORK "/rebuilt", "--all", "--ignore-hashes", "--quiet", NULL};
  if (!run(b, 0, "--ignore-hashes")) return;
  expect(err_buf, "--ignore-hashes", "warning: --ignore-hashes: agent 'tsumogiri'");
  expect(out_buf, "--ignore-hashes", "40 same, 0 differ");
  /* missing: neither where the spec names it nor where spec.json recorded it */
  if (system("rm '" WORK "/tsumogiri-copy.so'")) TK_FAILF("rm");
  const char *c[] = {"verify", WORK "/rebuilt", NULL};
  if (!run(c, 2, "a missing plugin")) return;
  expect(err_buf, "a missing plugin", "refused:");
  expect(err_buf, "a missing plugin", "agent 'tsumogiri'");
  expect(err_buf, "a missing plugin", "tsumogiri-copy.so: plugin file not found");
}

static void test_riichi(void) {
  const char *sp = spec_file("riichi",
      "{\"game\": \"riichi\", \"seed\": 3, \"walls\": 2, \"format\": \"duplicate\", \"agents\": "
      "[{\"plugin\": \"riichi_tsumogiri\"}, {\"plugin\": \"riichi_greedy\"}], \"rules\": "
      "{\"length\": \"east\"}, \"output\": \"" WORK "/riichi\"}\n");
  const char *a[] = {"run", sp, "--logs", "--quiet", NULL};
  if (!run(a, 0, "the riichi run")) return;
  verify_all(WORK "/riichi", 8, "riichi --all");
  expect(err_buf, "riichi --all", "with their logs");
  /* a log changed by hand (the lines untouched): that unit differs */
  edit_line(WORK "/riichi/logs/unit-00000003.jsonl", 1, "\"", "\" ");
  const char *b[] = {"verify", WORK "/riichi", "--all", "--quiet", NULL};
  if (!run(b, 1, "a forged log")) return;
  expect(out_buf, "a forged log", "unit 3 (wall 0): differs: its log");
}

static void test_daifugo_and_shards(void) {
  const char *sp = spec_file("daifugo",
      "{\"game\": \"daifugo\", \"seed\": 31, \"walls\": 3, \"format\": \"duplicate\",\n"
      " \"agents\": [{\"plugin\": \"daifugo_random\", \"label\": \"random\"},\n"
      "             {\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}],\n"
      " \"rules\": {\"block_games\": 4}, \"output\": \"" WORK "/daifugo\"}\n");
  const char *a[] = {"run", sp, "--logs=run", "--quiet", NULL};
  if (!run(a, 0, "the daifugo run")) return;
  verify_all(WORK "/daifugo", 15, "daifugo --all");
  expect(err_buf, "daifugo --all", "with their logs");
  for (int k = 1; k <= 2; k++) {
    char shard[16];
    snprintf(shard, sizeof shard, "%d/2", k);
    const char *s[] = {"run", sp, "--shard", shard, "--quiet", NULL};
    if (!run(s, 0, shard)) return;
  }
  /* shard 2 of 2: walls 1 and 2, units 5 to 14 */
  verify_all(WORK "/daifugo-shard-2-of-2", 10, "a shard --all");
  expect(out_buf, "a shard --all", "unit 5 (wall 1): same");
  const char *m[] = {"merge", WORK "/daifugo-shard-1-of-2", WORK "/daifugo-shard-2-of-2",
                     "--out", WORK "/daifugo-merged", "--quiet", NULL};
  if (!run(m, 0, "merge")) return;
  verify_all(WORK "/daifugo-merged", 15, "a merged folder --all");
}

/* Faulted units under the fault policy "skip": played again, they are marked skipped as the
 * run's writer marked them. */
static void test_skip(void) {
  const char *sp = spec_file("skip",
      "{\"game\": \"solo\", \"seed\": 4, \"walls\": 6, \"fault_policy\": \"skip\", "
      "\"agents\": [{\"plugin\": \"" TK_FIXTURE_DIR "/misbehave.so\", \"label\": \"bad\", "
      "\"params\": {\"how\": \"segv\", \"walls_mod\": 2}}, {\"plugin\": \"tsumogiri\"}], "
      "\"output\": \"" WORK "/skip\"}\n");
  const char *a[] = {"run", sp, "--quiet", NULL};
  if (!run(a, 0, "the run with faults")) return;
  static char games[1 << 16];
  slurp(WORK "/skip/games.jsonl", games, sizeof games);
  expect(games, "the run with faults", "\"skipped\":true");
  verify_all(WORK "/skip", 12, "faulted units --all");
}

/* A run with an external seat (a client of taikai serve) cannot be played again. */
static void test_external(void) {
  json_t *s = json_load_file(WORK "/daifugo/spec.json", 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  json_t *ext = json_pack("{s:b, s:s, s:s, s:s}", "external", 1, "label", "client", "name",
                          "external", "version", "uecda-20070");
  json_array_set_new(json_object_get(s, "agents"), 1, ext);
  if (system("mkdir -p '" WORK "/external'")) TK_FAILF("mkdir");
  json_dump_file(s, WORK "/external/spec.json", JSON_INDENT(2));
  json_decref(s);
  const char *a[] = {"verify", WORK "/external", NULL};
  if (!run(a, 2, "an external seat")) return;
  expect(err_buf, "an external seat", "agent 'client' (agents[1]) is external");
  expect(err_buf, "an external seat", "cannot be played again");
}

static void test_usage(void) {
  const char *h[] = {"verify", "--help", NULL};
  if (run(h, 0, "--help")) expect(out_buf, "--help", "--ignore-hashes");
  const char *b[] = {"verify", WORK "/solo", "--all", "--units", "3", NULL};
  if (run(b, 2, "--all with --units")) expect(err_buf, "--all with --units", "--all");
  const char *c[] = {"verify", WORK "/nothing", NULL};
  if (run(c, 2, "no folder")) expect(err_buf, "no folder", WORK "/nothing/spec.json");
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"solo", test_solo},
      {"forged", test_forged},
      {"rebuilt_and_missing", test_rebuilt_and_missing},
      {"riichi", test_riichi},
      {"daifugo_and_shards", test_daifugo_and_shards},
      {"skip", test_skip},
      {"external", test_external},
      {"usage", test_usage},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("taikai verify", tests);
}
