/* tests/test_cli_hand.c — end-to-end runs of `taikai hand`: the JSON object field by field,
 * the text output, and bad input refused with a message naming the flag and the value. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "taikai/mahjong.h"
#include "unit.h"

static char tmpdir[64];
static char out[65536], err[65536];

static void slurp(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
  buf[n] = '\0';
  if (f) fclose(f);
}

/* Runs `taikai ARGS` (ARGS are shell words); stdout and stderr land in out/err. */
static int run(const char *args) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' %s >%s/out 2>%s/err", TK_TAIKAI_BIN, args, tmpdir, tmpdir);
  int st = system(cmd);
  char p[128];
  snprintf(p, sizeof p, "%s/out", tmpdir);
  slurp(p, out, sizeof out);
  snprintf(p, sizeof p, "%s/err", tmpdir);
  slurp(p, err, sizeof err);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static json_t *run_json(const char *args) {
  char a[1024];
  snprintf(a, sizeof a, "%s --json", args);
  if (run(a) != 0) {
    TK_FAILF("taikai %s failed: %s", a, err);
    return NULL;
  }
  json_error_t je;
  json_t *o = json_loads(out, 0, &je);
  if (!o) TK_FAILF("taikai %s: output is not JSON (%s): %s", a, je.text, out);
  return o;
}

static long jint(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (!json_is_integer(v)) {
    TK_FAILF("field '%s' missing or not an integer", key);
    return -99999;
  }
  return (long)json_integer_value(v);
}

static const char *jstr(json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  if (!s) TK_FAILF("field '%s' missing or not a string", key);
  return s ? s : "";
}

static void test_json_complete(void) {
  /* riichi pinfu tanyao ron with dora 8m (indicator 7m: none held) and ura 4p (indicator 3p):
   * 4p held once -> ura 1. 30 fu 4 han non-dealer ron = 1920*4 = 7680 -> 7700. */
  json_t *o = run_json("hand 234567m34588p678s --win 8s --ron --riichi --dora 7m --ura 3p");
  if (!o) return;
  TK_EQ(jint(o, "shanten"), -1, "shanten");
  TK_EQ(jint(o, "han"), 4, "han");
  TK_EQ(jint(o, "fu"), 30, "fu");
  TK_EQ(jint(o, "yakuman"), 0, "yakuman");
  CU_ASSERT_STRING_EQUAL(jstr(o, "limit"), "none");
  CU_ASSERT_STRING_EQUAL(jstr(o, "result"), "win");
  json_t *pay = json_object_get(o, "payment");
  TK_EQ(jint(pay, "ron"), 7700, "payment.ron");
  TK_EQ(json_object_size(pay), 1, "payment has only ron");
  TK_EQ(jint(o, "total"), 7700, "total");
  json_t *y = json_object_get(o, "yaku");
  CU_ASSERT_FATAL(json_is_array(y));
  const char *names[] = {"riichi", "pinfu", "tanyao", "ura_dora"};
  TK_EQ(json_array_size(y), 4, "yaku count");
  for (size_t i = 0; i < 4 && i < json_array_size(y); i++) {
    int found = 0;
    for (size_t j = 0; j < json_array_size(y); j++)
      found |= !strcmp(jstr(json_array_get(y, j), "name"), names[i]) && jint(json_array_get(y, j), "han") == 1;
    if (!found) TK_FAILF("yaku %s:1 missing", names[i]);
  }
  /* the waits of the hand before the winning tile: 5s and 8s */
  json_t *w = json_object_get(o, "waits");
  TK_EQ(json_array_size(w), 2, "waits");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(w, 0)), "5s");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(w, 1)), "8s");
  json_t *u = json_object_get(o, "ukeire");
  /* 5s: 4 - 0 held = 4 ; 8s: 4 - 1 held (the 678s before the win holds 6s 7s only) = 4 ... the
   * pre-win hand is 234567m34588p67s: 5s 4 unseen, 8s 4 unseen */
  TK_EQ(jint(u, "count"), 8, "ukeire count");
  json_decref(o);
}

static void test_json_tsumo_payments(void) {
  json_t *o = run_json("hand 234567m34588p678s --win 8s --honba 2 --sticks 1");
  if (!o) return;
  /* menzen_tsumo pinfu tanyao, 20 fu 3 han: base 640; dealer 1300, others 700 */
  json_t *pay = json_object_get(o, "payment");
  TK_EQ(jint(pay, "dealer"), 1300, "dealer pays");
  TK_EQ(jint(pay, "non_dealer"), 700, "non-dealer pays");
  TK_EQ(jint(o, "total"), 2700 + 600 + 1000, "total with honba and a stick");
  json_decref(o);
  o = run_json("hand 234567m34588p678s --win 8s --seat E");
  if (!o) return;
  TK_EQ(jint(json_object_get(o, "payment"), "all"), 1300, "dealer tsumo: 640*2 -> 1300 each");
  TK_EQ(jint(o, "total"), 3900, "dealer tsumo total");
  json_decref(o);
  o = run_json("hand 123m456p789s12345z --ruleset solo");
  if (!o) return;
  CU_ASSERT_STRING_EQUAL(jstr(o, "result"), "incomplete");
  json_decref(o);
  o = run_json("hand 123456789m11p22z2z --ruleset solo");
  if (!o) return;
  /* ittsu 2 + menzen_tsumo 1 + seat_wind? no: 222z is South, not East -> 3 han;
   * fu 20 + 2 tsumo + 8 (closed honor triplet) = 30; 30 fu 3 han = 6*30*32 = 5760 -> 5800 */
  TK_EQ(jint(json_object_get(o, "payment"), "points"), 5800, "solo points");
  TK_EQ(jint(o, "han"), 3, "solo han");
  TK_EQ(jint(o, "fu"), 30, "solo fu");
  json_decref(o);
}

static void test_json_incomplete(void) {
  json_t *o = run_json("hand 123m456p789s1122z");
  if (!o) return;
  TK_EQ(jint(o, "shanten"), 0, "tenpai");
  CU_ASSERT_STRING_EQUAL(jstr(o, "result"), "incomplete");
  TK_EQ(json_array_size(json_object_get(o, "waits")), 2, "shanpon waits");
  TK_EQ(jint(json_object_get(o, "ukeire"), "count"), 4, "ukeire");
  json_decref(o);
  o = run_json("hand 123m456p789s11z468s");
  if (!o) return;
  TK_EQ(jint(o, "shanten"), 0, "14 tiles, one discard from tenpai");
  json_t *d = json_object_get(o, "discards");
  CU_ASSERT_FATAL(json_is_array(d) && json_array_size(d) == 12);
  /* best discards first: 4s or 8s leave a tenpai hand waiting on 7s; 6s does not */
  TK_EQ(jint(json_array_get(d, 0), "shanten"), 0, "best discard keeps tenpai");
  TK_EQ(jint(json_array_get(d, 1), "shanten"), 0, "second best keeps tenpai");
  TK_EQ(jint(json_array_get(d, 2), "shanten"), 1, "third is 1-shanten");
  json_decref(o);
  o = run_json("hand 123m456p789s11222z --ron");
  if (!o) return;
  /* closed ron on the South triplet as seat wind: seat_wind 1; shanpon ron makes it open:
   * 20 + 10 closed ron + 4 (open honor triplet) + 2 (East pair, round wind) = 36 -> 40 */
  TK_EQ(jint(o, "han"), 1, "seat wind only");
  TK_EQ(jint(o, "fu"), 40, "fu");
  json_decref(o);
  o = run_json("hand 123m456p789s22m687s --win 7s --ron");
  if (!o) return;
  CU_ASSERT_STRING_EQUAL(jstr(o, "result"), "no_yaku");
  json_decref(o);
}

static void test_text(void) {
  TK_EQ(run("hand 19m19p19s1234567z"), 0, "kokushi tenpai");
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "shanten   0 (tenpai)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "waits     1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z"));
  TK_EQ(run("hand 19m19p19s12345677z --seat E"), 0, "kokushi tsumo");
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "kokushi 1"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "tsumo 16000 all"));
  TK_EQ(run("hand --help"), 0, "help");
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: taikai hand TILES"));
  TK_EQ(run("--help"), 0, "top help");
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "hand"));
}

typedef struct bad {
  const char *args;
  const char *needle; /* the message must contain this */
} bad;

/* --seen, --dora and --ura accumulate when repeated; other flags given twice are refused. */
static void test_repeated_flags(void) {
  /* 123m456p789s1122z waits on 1z and 2z: 2 + 2 unseen; seeing both other 1z leaves 2 */
  json_t *o = run_json("hand 123m456p789s1122z --seen 1z --seen 1z");
  if (!o) return;
  TK_EQ(jint(json_object_get(o, "ukeire"), "count"), 2, "two --seen flags both count");
  json_decref(o);
  o = run_json("hand 123m456p789s1122z --seen 1z --seen 2z1z");
  if (!o) return;
  TK_EQ(jint(json_object_get(o, "ukeire"), "count"), 1, "three seen tiles over two flags");
  json_decref(o);
  /* dora accumulate: indicators 9m and 9m make 1m dora twice (123m holds one 1m) */
  o = run_json("hand 123m456p789s11222z --dora 9m --dora 9m");
  if (!o) return;
  json_t *y = json_object_get(o, "yaku");
  int dora = -1;
  for (size_t i = 0; i < json_array_size(y); i++)
    if (!strcmp(jstr(json_array_get(y, i), "name"), "dora")) dora = (int)jint(json_array_get(y, i), "han");
  TK_EQ(dora, 2, "two --dora flags");
  json_decref(o);
  static const bad TWICE[] = {
      {"hand 123m456p789s1122z --win 1z --win 2z", "--win given twice"},
      {"hand 123m456p789s1122z --ron --ron", "--ron given twice"},
      {"hand 123m456p789s1122z --ron --tsumo", "--ron and --tsumo both given"},
      {"hand 123m456p789s1122z --haitei --houtei", "--haitei and --houtei both given"},
      {"hand 123m456p789s1122z --round E --round S", "--round given twice"},
      {"hand 123m456p789s1122z --ruleset solo --ruleset tenhou", "--ruleset given twice"},
      {"hand 123m456p789s1122z --json --json", "--json given twice"},
      {"hand 123m456p789s1122z --solve --draws 3 --draws 4", "--draws given twice"},
  };
  for (size_t i = 0; i < sizeof TWICE / sizeof TWICE[0]; i++) {
    int rc = run(TWICE[i].args);
    if (rc != 2) TK_FAILF("taikai %s: exit %d, expected 2", TWICE[i].args, rc);
    if (!strstr(err, TWICE[i].needle)) TK_FAILF("taikai %s: stderr '%s' lacks '%s'", TWICE[i].args, err, TWICE[i].needle);
  }
}

/* The notation of counts c (for --seen). */
static void notation(const uint8_t *c, char *buf, size_t cap) {
  size_t len = 0;
  for (int s = 0; s < 4; s++) {
    int any = 0;
    for (int k = 9 * s; k < 9 * s + (s < 3 ? 9 : 7); k++)
      for (int j = 0; j < c[k] && len + 3 < cap; j++) {
        buf[len++] = (char)('1' + k - 9 * s);
        any = 1;
      }
    if (any && len + 2 < cap) buf[len++] = "mpsz"[s];
  }
  buf[len] = '\0';
}

static const json_t *choice(json_t *solve, const char *discard) {
  json_t *a = json_object_get(solve, "choices");
  for (size_t i = 0; i < json_array_size(a); i++) {
    const char *d = json_string_value(json_object_get(json_array_get(a, i), "discard"));
    if (d && !strcmp(d, discard)) return json_array_get(a, i);
  }
  TK_FAILF("no choice for discard %s", discard);
  return NULL;
}

static double jreal(const json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (!json_is_number(v)) TK_FAILF("field '%s' missing or not a number", key);
  return json_number_value(v);
}

/* `--solve` on the hand-checked case of tests/test_solve.c: 123m456p789s1112z with a 5z drawn,
 * only 2z (3 copies) and 5z (2) unseen, two draws: discard 5z 21/25, 2z 19/25, 1z 2/5. */
static void test_solve(void) {
  uint8_t h[TK_KINDS] = {0}, seen[TK_KINDS];
  tk_tile t[14];
  int n = tk_tiles_parse("123m456p789s1112z5z", t, 14, NULL);
  for (int i = 0; i < n; i++) h[tk_tile_kind(t[i])]++;
  for (int k = 0; k < TK_KINDS; k++) seen[k] = (uint8_t)(4 - h[k]);
  seen[28] = 0;
  seen[31] = 1;
  char s[200], args[400];
  notation(seen, s, sizeof s);
  snprintf(args, sizeof args, "hand 123m456p789s1112z5z --ruleset solo --solve --draws 2 --seen %s", s);
  json_t *o = run_json(args);
  if (!o) return;
  json_t *so = json_object_get(o, "solve");
  CU_ASSERT_FATAL(json_is_object(so));
  CU_ASSERT_STRING_EQUAL(jstr(so, "mode"), "exact");
  CU_ASSERT_STRING_EQUAL(jstr(so, "objective"), "win");
  const json_t *first = json_array_get(json_object_get(so, "choices"), 0);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(first, "discard")), "5z");
  CU_ASSERT_DOUBLE_EQUAL(jreal(choice(so, "5z"), "win"), 21.0 / 25, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(jreal(choice(so, "2z"), "win"), 19.0 / 25, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(jreal(choice(so, "1z"), "win"), 2.0 / 5, 1e-9);
  json_decref(o);
  /* points: East triplet (seat and round) + tsumo, 40 fu 3 han = 7700 per win */
  snprintf(args, sizeof args, "hand 123m456p789s1112z5z --ruleset solo --solve --draws 2 --objective points --seen %s", s);
  o = run_json(args);
  if (!o) return;
  so = json_object_get(o, "solve");
  CU_ASSERT_DOUBLE_EQUAL(jreal(choice(so, "5z"), "points"), 21.0 / 25 * 7700, 1e-6);
  json_decref(o);
  /* Tenhou rules (the default): the four-player scorer. As East dealer in the East round the
   * same hand wins riichi, tsumo and double East: 4 han 40 fu (fu 20 + 2 tsumo + 8 closed honor
   * triplet + 2 tanki, the haku pair +2: 34 -> 40), a dealer's mangan, 12,000 on every path. */
  snprintf(args, sizeof args, "hand 123m456p789s1112z5z --seat E --solve --draws 2 --objective points --seen %s", s);
  o = run_json(args);
  if (!o) return;
  so = json_object_get(o, "solve");
  CU_ASSERT_STRING_EQUAL(jstr(so, "points_rules"), "tenhou");
  CU_ASSERT_DOUBLE_EQUAL(jreal(choice(so, "5z"), "points"), 21.0 / 25 * 12000, 1e-6);
  json_decref(o);
  /* An open hand: 123m456p789s1z + pon 222z (the seat wind, South) waits on 1z alone; one draw
   * among 123 unseen tiles, 3 of them 1z. The win: South 1 han, fu 20 + 2 tsumo + 4 open honor
   * triplet + 2 tanki + 2 for the round wind's pair = 30; a non-dealer's 1 han 30 fu tsumo,
   * 300 + 300 + 500 = 1,100. */
  o = run_json("hand 123m456p789s1z --meld pon:222z --solve --draws 1 --objective points");
  if (!o) return;
  so = json_object_get(o, "solve");
  const json_t *only = json_array_get(json_object_get(so, "choices"), 0);
  CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(only, "win")), 3.0 / 123, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(only, "points")), 3.0 / 123 * 1100, 1e-9);
  json_decref(o);
  /* a cap of one state: the fallback answers and says so */
  snprintf(args, sizeof args, "hand 123m456p789s1112z5z --solve --draws 2 --max-states 1 --seen %s", s);
  TK_EQ(run(args), 0, "capped solve");
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "direct search"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "the state cap fired"));
  /* --detours: the detour search; without a detour a drawn 2z is thrown back (2z: 16/25), with
     one it may be kept (19/25, the exact value) */
  for (int dt = 0; dt <= 1; dt++) {
    snprintf(args, sizeof args, "hand 123m456p789s1112z5z --ruleset solo --solve --draws 2 --detours %d --seen %s", dt, s);
    o = run_json(args);
    if (!o) return;
    so = json_object_get(o, "solve");
    CU_ASSERT_STRING_EQUAL(jstr(so, "mode"), "detour");
    TK_EQ(json_integer_value(json_object_get(so, "detours")), dt, "detours reported");
    CU_ASSERT_DOUBLE_EQUAL(jreal(choice(so, "2z"), "win"), dt ? 19.0 / 25 : 16.0 / 25, 1e-9);
    json_decref(o);
  }
  snprintf(args, sizeof args, "hand 123m456p789s1112z5z --solve --draws 2 --detours 1 --seen %s", s);
  TK_EQ(run(args), 0, "detour solve");
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "detour search"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "(1 detour: a lower bound)"));
  static const bad BAD[] = {
      {"hand 123m456p789s1122z --detours 1", "--detours: only with --solve"},
      {"hand 123m456p789s1122z --solve --detours 50", "--detours: '50' is not a whole number from 0 to 49"},
      {"hand 123m456p789s1122z --solve --draws 30", "--draws: '30' is more than 24"},
      {"hand 123m456p789s1122z --solve --objective speed", "--objective: 'speed'"},
      {"hand 123m456p789s1122z --draws 3", "--draws: only with --solve"},
      {"hand 123m456p789s1122z --ruleset solo --solve --dora 1m2m", "one dora indicator"},
  };
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    int rc = run(BAD[i].args);
    if (rc != 2) TK_FAILF("taikai %s: exit %d, expected 2", BAD[i].args, rc);
    if (!strstr(err, BAD[i].needle)) TK_FAILF("taikai %s: stderr '%s' lacks '%s'", BAD[i].args, err, BAD[i].needle);
  }
}

static void test_bad_input(void) {
  static const bad BAD[] = {
      {"hand 123x", "'x' at position 4"},
      {"hand", "no TILES"},
      {"hand 123m456p", "has 6 tiles"},
      {"hand 123m456p789s1122z --win 5m", "--win '5m'"},
      {"hand 123m456p789s1122z --seat X", "--seat: 'X'"},
      {"hand 123m456p789s1122z --honba -1", "--honba: '-1'"},
      {"hand 123m456p789s1122z --dora 9x", "--dora '9x'"},
      {"hand 123m456p789s1122z --meld pon:123m", "--meld 'pon:123m'"},
      {"hand 123m456p789s1122z --meld foo:123m", "--meld 'foo:123m'"},
      {"hand 123m456p789s1122z --bogus", "unknown option '--bogus'"},
      {"hand 11111m456p789s12z", "5 copies of 1m"},
      {"hand 00m456p789s1122z11m", "2 red fives"},
      {"hand 123m456p789s11222z --ura 1m", "--ura"},
      {"hand 123m456p789s11222z --ruleset solo --ron", "--ron: not part of the solo ruleset"},
      {"hand 123m456p789s11222z --ruleset mahjongsoul", "--ruleset: 'mahjongsoul'"},
      {"hand 123m456p789s11222z --dora", "--dora needs a value"},
      {"bogus", "unknown command 'bogus'"},
  };
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    int rc = run(BAD[i].args);
    if (rc != 2) TK_FAILF("taikai %s: exit %d, expected 2", BAD[i].args, rc);
    if (!strstr(err, BAD[i].needle)) TK_FAILF("taikai %s: stderr '%s' lacks '%s'", BAD[i].args, err, BAD[i].needle);
    if (out[0]) TK_FAILF("taikai %s: printed to stdout on error: %s", BAD[i].args, out);
  }
  CU_PASS("bad input");
}

static CU_TestInfo tests[] = {
    {"JSON of a complete hand", test_json_complete},
    {"JSON payments", test_json_tsumo_payments},
    {"JSON of incomplete hands", test_json_incomplete},
    {"text output", test_text},
    {"bad input", test_bad_input},
    {"repeated flags", test_repeated_flags},
    {"--solve", test_solve},
    CU_TEST_INFO_NULL,
};

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/taikai-cli-XXXXXX");
  if (!mkdtemp(tmpdir)) return 2;
  int rc = tk_unit_run("cli_hand", tests);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0) return rc ? rc : 1;
  return rc;
}
