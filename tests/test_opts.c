/* tests/test_opts.c — the option parser of every command (harness/records/opts.c): known answers
 * for each kind of option, each error's wording, `--`, the `=` and attached forms, the `once`
 * rule and its groups, and a choice among named values. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "opts.h"
#include "unit.h"

static const char *const MODES[] = {"exact", "forward", "direct", NULL};

typedef struct vals {
  int mode, flag, quiet, given_n, haitei, ron_side, i;
  const char *s, *call_v;
  uint64_t n;
  double d;
  int calls;
} vals;

static int shard_call(void *dest, const char *spelling, const char *v, tk_error *err) {
  vals *x = dest;
  x->calls++;
  x->call_v = v;
  if (v && strcmp(v, "ok") && strcmp(v, "gz"))
    return tk_error_set(err, TK_EINVAL, -1, "%s expects ok or gz, got '%s'", spelling, v);
  return 0;
}

static vals V;
static const char *POS[4];
static int NPOS;

/* Parses the space-separated `line` (argv[0] "cmd") against the test table; returns what
 * tk_opts_parse_err returns, with its message in *msg. */
static int parse(const char *line, char *msg, size_t cap) {
  const tk_opt table[] = {
      {.name = "flag", .short_name = 'f', .kind = TK_OPT_FLAG, .dest = &V.flag, .once = 1},
      {.name = "quiet", .short_name = 'q', .kind = TK_OPT_FLAG, .dest = &V.quiet},
      {.name = "out", .short_name = 'o', .kind = TK_OPT_STRING, .dest = &V.s, .once = 1},
      {.name = "walls", .short_name = 'j', .kind = TK_OPT_U64, .dest = &V.n, .once = 1,
       .min = 1, .max = 1000, .given = &V.given_n},
      {.name = "big", .kind = TK_OPT_U64, .dest = &V.n},
      {.name = "int", .kind = TK_OPT_INT, .dest = &V.i, .min = -5, .max = 5},
      {.name = "anyint", .kind = TK_OPT_INT, .dest = &V.i},
      {.name = "level", .kind = TK_OPT_DOUBLE, .dest = &V.d, .lo = 0, .hi = 1, .open = 1},
      {.name = "alpha", .kind = TK_OPT_DOUBLE, .dest = &V.d},
      {.name = "prior", .kind = TK_OPT_DOUBLE, .dest = &V.d, .lo = 0, .hi = 10},
      {.name = "eta", .kind = TK_OPT_DOUBLE, .dest = &V.d, .lo = 0, .hi = INFINITY, .open = 1},
      {.name = "logs", .kind = TK_OPT_CALL, .dest = &V, .call = shard_call, .optional = 1},
      {.name = "shard", .kind = TK_OPT_CALL, .dest = &V, .call = shard_call},
      {.name = "haitei", .kind = TK_OPT_FLAG, .dest = &V.haitei, .once = 1, .group = 1},
      {.name = "houtei", .kind = TK_OPT_FLAG, .dest = &V.haitei, .once = 1, .group = 1},
      {.name = "ron", .kind = TK_OPT_FLAG, .dest = &V.ron_side, .once = 1, .group = 2},
      {.name = "tsumo", .kind = TK_OPT_FLAG, .once = 1, .group = 2},
      {.name = "mode", .kind = TK_OPT_CHOICE, .dest = &V.mode, .choices = MODES},
      {.name = NULL},
  };
  char buf[512], *argv[32];
  int argc = 0;
  snprintf(buf, sizeof buf, "cmd %s", line);
  for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
    argv[argc++] = strcmp(t, "''") ? t : t + 2; /* '' stands for an empty argument */
  argv[argc] = NULL;
  memset(&V, 0, sizeof V);
  NPOS = -1;
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_opts_parse_err("cmd", table, argc, argv, POS, 2, &NPOS, &err);
  snprintf(msg, cap, "%s", rc < 0 ? err.msg : "");
  /* the values borrow buf: copy what the tests read */
  static char s_copy[64], v_copy[64];
  if (V.s) V.s = strcpy(s_copy, V.s);
  if (V.call_v) V.call_v = strcpy(v_copy, V.call_v);
  static char pos_copy[4][64];
  for (int k = 0; k < NPOS && k < 2; k++) POS[k] = strcpy(pos_copy[k], POS[k]);
  return rc;
}

static void kinds(void) {
  char m[1024];
  TK_EQ(parse("--flag -q --out dir --walls 12 a.json", m, sizeof m), 0, m);
  TK_EQ(V.flag, 1, "--flag");
  TK_EQ(V.quiet, 1, "-q");
  CU_ASSERT_STRING_EQUAL(V.s, "dir");
  TK_EQ(V.n, 12, "--walls 12");
  TK_EQ(V.given_n, 1, "given");
  TK_EQ(NPOS, 1, "one positional");
  CU_ASSERT_STRING_EQUAL(POS[0], "a.json");
  TK_EQ(parse("--walls 1000", m, sizeof m), 0, m); /* the bounds are inside the range */
  TK_EQ(V.n, 1000, "--walls 1000");
  TK_EQ(parse("--walls 1", m, sizeof m), 0, m);
  TK_EQ(parse("--int 5", m, sizeof m), 0, m);
  TK_EQ(V.i, 5, "--int 5");
  TK_EQ(parse("--big 18446744073709551615", m, sizeof m), 0, m);
  CU_ASSERT(V.n == UINT64_MAX);
  TK_EQ(parse("--int -5", m, sizeof m), 0, m);
  TK_EQ(V.i, -5, "--int -5");
  TK_EQ(parse("--anyint=+77", m, sizeof m), 0, m);
  TK_EQ(V.i, 77, "--anyint=+77");
  TK_EQ(parse("--level 0.95", m, sizeof m), 0, m);
  CU_ASSERT_DOUBLE_EQUAL(V.d, 0.95, 0);
  TK_EQ(parse("--alpha -1e-3", m, sizeof m), 0, m);
  CU_ASSERT_DOUBLE_EQUAL(V.d, -1e-3, 0);
  TK_EQ(parse("--prior 10", m, sizeof m), 0, m); /* a closed range holds its bounds */
  CU_ASSERT_DOUBLE_EQUAL(V.d, 10, 0);
  TK_EQ(parse("--shard ok", m, sizeof m), 0, m);
  CU_ASSERT_STRING_EQUAL(V.call_v, "ok");
  TK_EQ(parse("--logs", m, sizeof m), 0, m); /* optional value: none */
  TK_EQ(V.calls, 1, "--logs called");
  CU_ASSERT_PTR_NULL(V.call_v);
  TK_EQ(parse("--logs gz", m, sizeof m), 0, m); /* an optional value only with = */
  TK_EQ(NPOS, 1, "gz is positional");
  TK_EQ(parse("--logs=gz", m, sizeof m), 0, m);
  CU_ASSERT_STRING_EQUAL(V.call_v, "gz");
  TK_EQ(parse("--mode direct", m, sizeof m), 0, m);
  TK_EQ(V.mode, 2, "--mode direct is choice 2");
}

static void forms(void) {
  char m[1024];
  TK_EQ(parse("--walls=7 --out=a=b", m, sizeof m), 0, m);
  TK_EQ(V.n, 7, "--walls=7");
  CU_ASSERT_STRING_EQUAL(V.s, "a=b");
  TK_EQ(parse("-j9", m, sizeof m), 0, m);
  TK_EQ(V.n, 9, "-j9");
  TK_EQ(parse("-j 3 -o x", m, sizeof m), 0, m);
  TK_EQ(V.n, 3, "-j 3");
  CU_ASSERT_STRING_EQUAL(V.s, "x");
  TK_EQ(parse("a -- --flag -", m, sizeof m), 0, m);
  TK_EQ(V.flag, 0, "--flag after --");
  TK_EQ(NPOS, 3, "three positionals");
  CU_ASSERT_STRING_EQUAL(POS[1], "--flag");
  TK_EQ(parse("- --out --", m, sizeof m), 0, m); /* a value may look like an option */
  CU_ASSERT_STRING_EQUAL(V.s, "--");
  CU_ASSERT_STRING_EQUAL(POS[0], "-");
  TK_EQ(parse("--walls x --help", m, sizeof m), 1, "help wins");
  TK_EQ(parse("-h", m, sizeof m), 1, "-h");
  TK_EQ(parse("-- --help", m, sizeof m), 0, "--help after -- is an argument");
  TK_EQ(parse("-q -q --quiet", m, sizeof m), 0, m); /* not `once`: may repeat */
}

/* `line` is refused with exactly `want` as the message. */
static void refused(const char *line, const char *want) {
  char m[1024];
  int rc = parse(line, m, sizeof m);
  if (rc >= 0) TK_FAILF("'%s' accepted (rc %d)", line, rc);
  else if (strcmp(m, want)) TK_FAILF("'%s': got \"%s\", expected \"%s\"", line, m, want);
  else CU_PASS(line);
}

static void errors(void) {
  refused("--eta 0", "--eta: '0' is not a number > 0 (see taikai cmd --help)");
  refused("--mode fast", "--mode: 'fast' is not one of exact, forward, direct (see taikai cmd --help)");
  refused("--walls x", "--walls: 'x' is not a whole number (see taikai cmd --help)");
  refused("--walls -1", "--walls: '-1' is not a whole number (see taikai cmd --help)");
  refused("--walls 0", "--walls: '0' is not a whole number from 1 to 1000 (see taikai cmd --help)");
  refused("-j1001", "-j: '1001' is not a whole number from 1 to 1000 (see taikai cmd --help)");
  refused("--big 18446744073709551616",
          "--big: '18446744073709551616' is not a whole number (see taikai cmd --help)");
  refused("--walls ''", "--walls: '' is not a whole number (see taikai cmd --help)");
  refused("--walls 1x", "--walls: '1x' is not a whole number (see taikai cmd --help)");
  refused("--int 6", "--int: '6' is not a whole number from -5 to 5 (see taikai cmd --help)");
  refused("--anyint 2147483648",
          "--anyint: '2147483648' is not a whole number from -2147483648 to 2147483647 (see "
          "taikai cmd --help)");
  refused("--level 1", "--level: '1' is not a number between 0 and 1 (see taikai cmd --help)");
  refused("--level nan", "--level: 'nan' is not a number (see taikai cmd --help)");
  refused("--alpha inf", "--alpha: 'inf' is not a number (see taikai cmd --help)");
  refused("--alpha ''", "--alpha: '' is not a number (see taikai cmd --help)");
  refused("--prior -0.5", "--prior: '-0.5' is not a number from 0 to 10 (see taikai cmd --help)");
  refused("--out ''", "--out needs a value, got '' (see taikai cmd --help)");
  refused("--out", "--out needs a value (see taikai cmd --help)");
  refused("a --walls", "--walls needs a value (see taikai cmd --help)");
  refused("--frob", "unknown option '--frob' (see taikai cmd --help)");
  refused("-x", "unknown option '-x' (see taikai cmd --help)");
  refused("-qq", "unknown option '-qq' (see taikai cmd --help)");
  refused("--flag=1", "--flag takes no value (got '--flag=1') (see taikai cmd --help)");
  refused("--shard bad", "--shard expects ok or gz, got 'bad' (see taikai cmd --help)");
  refused("--logs=bad", "--logs expects ok or gz, got 'bad' (see taikai cmd --help)");
}

/* With npos the extra arguments are counted, not refused; without, they are refused. */
static void positionals(void) {
  char m[1024];
  TK_EQ(parse("a b c", m, sizeof m), 0, m);
  TK_EQ(NPOS, 3, "three counted");
  CU_ASSERT_STRING_EQUAL(POS[1], "b");
  char a0[] = "cmd", a1[] = "x", a2[] = "y";
  char *argv[] = {a0, a1, a2, NULL};
  const tk_opt none[] = {{.name = NULL}};
  const char *p[1];
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_opts_parse_err("cmd", none, 3, argv, p, 1, NULL, &err), TK_EINVAL, "x y");
  CU_ASSERT_STRING_EQUAL(err.msg, "at most 1 argument (got 'y' too) (see taikai cmd --help)");
  tk_error_clear(&err);
  TK_EQ(tk_opts_parse_err("cmd", none, 2, argv, NULL, 0, NULL, &err), TK_EINVAL, "x");
  CU_ASSERT_STRING_EQUAL(err.msg, "unexpected argument 'x' (see taikai cmd --help)");
}

static void once(void) {
  refused("--walls 1 --walls 2", "--walls given twice (see taikai cmd --help)");
  refused("-j 1 --walls=2", "-j and --walls both given: give one (see taikai cmd --help)");
  refused("--flag -f", "--flag and -f both given: give one (see taikai cmd --help)");
  refused("--haitei --houtei", "--haitei and --houtei both given: give one (see taikai cmd --help)");
  refused("--ron --tsumo", "--ron and --tsumo both given: give one (see taikai cmd --help)");
  refused("--tsumo --tsumo", "--tsumo given twice (see taikai cmd --help)");
  char m[1024];
  TK_EQ(parse("--haitei --ron", m, sizeof m), 0, m); /* different groups */
  TK_EQ(V.haitei, 1, "--haitei");
  TK_EQ(V.ron_side, 1, "--ron");
  TK_EQ(parse("--big 1 --big 2", m, sizeof m), 0, m); /* not `once`: the last one holds */
  TK_EQ(V.n, 2, "--big twice");
}

/* tk_opts_one carries the `once` rule from call to call and leaves other arguments alone. */
static void one_at_a_time(void) {
  uint64_t w = 0;
  const tk_opt t[] = {{.name = "walls", .kind = TK_OPT_U64, .dest = &w, .once = 1}, {.name = NULL}};
  char a0[] = "cmd", a1[] = "--walls", a2[] = "3", a3[] = "--other", a4[] = "--walls=4";
  char *argv[] = {a0, a1, a2, a3, a4, NULL};
  tk_opts_seen seen;
  memset(&seen, 0, sizeof seen);
  int i = 1;
  TK_EQ(tk_opts_one("cmd", t, &seen, 5, argv, &i), 1, "--walls 3");
  TK_EQ(i, 2, "past the value");
  TK_EQ(w, 3, "walls");
  i = 3;
  TK_EQ(tk_opts_one("cmd", t, &seen, 5, argv, &i), 0, "--other is not the table's");
  TK_EQ(i, 3, "nothing consumed");
  i = 4;
  TK_EQ(tk_opts_one("cmd", t, &seen, 5, argv, &i), -2, "--walls again");
}

int main(void) {
  CU_TestInfo tests[] = {{"each kind", kinds},
                         {"=, attached values and --", forms},
                         {"errors", errors},
                         {"given once", once},
                         {"positional arguments", positionals},
                         {"one option at a time", one_at_a_time},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("opts", tests);
}
