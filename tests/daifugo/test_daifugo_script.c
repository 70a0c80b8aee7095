/* tests/daifugo/test_daifugo_script.c — daifugo_script end to end: a run whose five agents
 * follow the game logs of another run of the same spec plays the same games (games.jsonl the
 * same bytes, no fault) and writes the same records.tkr, byte for byte, from per-block gzipped
 * logs joined with `cat`, and from the one-file log of --logs=run,gz; a replay under another
 * seed is charged faults whose message names the block, game and action; bad parameters, a
 * missing, empty or foreign log, a log holding a block twice (two runs' logs joined) and a
 * name the log does not hold are refused before the run with the path, the line or the
 * name. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORK TK_WORK_DIR "-script"
#include "e2e_util.h"

static const char *const labels[5] = {"greedy", "rand1", "mc", "rand2", "mcl"};

/* The original: five different players, two blocks of 10 games. */
static void original_spec(const char *path, int seed) {
  char text[4096];
  snprintf(text, sizeof text,
           "{\"game\": \"daifugo\", \"seed\": %d, \"walls\": 2, \"format\": \"seated\",\n"
           " \"rules\": {\"block_games\": 10},\n"
           " \"agents\": [{\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"},\n"
           "   {\"plugin\": \"daifugo_random\", \"label\": \"rand1\"},\n"
           "   {\"plugin\": \"daifugo_mc\", \"label\": \"mc\", \"params\": {\"playouts\": 20, "
           "\"exchange_playouts\": 20}},\n"
           "   {\"plugin\": \"daifugo_random\", \"label\": \"rand2\"},\n"
           "   {\"plugin\": \"daifugo_mcl\", \"label\": \"mcl\", \"params\": {\"playouts\": 20, "
           "\"exchange_playouts\": 20}}]}\n",
           seed);
  write_file(path, text);
}

/* The replay: each label follows itself in `log`. */
static void replay_spec(const char *path, int seed, const char *log) {
  char text[8192];
  int n = snprintf(text, sizeof text,
                   "{\"game\": \"daifugo\", \"seed\": %d, \"walls\": 2, \"format\": \"seated\",\n"
                   " \"rules\": {\"block_games\": 10}, \"agents\": [",
                   seed);
  for (int i = 0; i < 5; i++)
    n += snprintf(text + n, sizeof text - (size_t)n,
                  "%s{\"plugin\": \"daifugo_script\", \"label\": \"%s\", \"params\": {\"log\": "
                  "\"%s\", \"name\": \"%s\"}}",
                  i ? ",\n   " : "", labels[i], log, labels[i]);
  snprintf(text + n, sizeof text - (size_t)n, "]}\n");
  write_file(path, text);
}

/* Appends the bytes of file `from` to `to`. */
static void append_file(const char *to, const char *from) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "ab");
  if (!in || !out) TK_FAILF("cannot open %s or %s", from, to);
  char buf[1 << 14];
  size_t got;
  while (in && out && (got = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, got, out);
  if (in) fclose(in);
  if (out) fclose(out);
}

static long long total_faults(const char *run) {
  char path[1600];
  snprintf(path, sizeof path, "%s/summary.json", run);
  json_t *sum = json_load_file(path, 0, NULL);
  if (!sum) {
    TK_FAILF("%s: no summary", path);
    return -1;
  }
  long long n = 0;
  for (int i = 0; i < 5; i++) n += agent_int(sum, i, "faults");
  json_decref(sum);
  return n;
}

/* Per-block gzipped logs joined with cat: the same games and records. */
static void test_replay_from_block_logs(void) {
  original_spec(W("orig.json"), 61);
  const char *a[] = {"run", W("orig.json"), "--out", W("orig"), "--logs=gz", "--records",
                     "--quiet", "-j", "2", NULL};
  TK_EQ(taikai(a), 0, "the original run");
  /* the units' logs in unit order, as `cat orig/logs/unit-*.jsonl.gz` joins them */
  int joined = 0;
  for (int u = 0; u < 2; u++) {
    char name[64];
    snprintf(name, sizeof name, "orig/logs/unit-%08d.jsonl.gz", u);
    if (!exists(W(name))) TK_FAILF("%s: missing", W(name));
    append_file(W("joined.jsonl.gz"), W(name));
    joined++;
  }
  TK_EQ(joined, 2, "logs joined");
  replay_spec(W("replay.json"), 61, W("joined.jsonl.gz"));
  const char *b[] = {"run", W("replay.json"), "--out", W("replay"), "--records", "--quiet",
                     "-j", "2", NULL};
  TK_EQ(taikai(b), 0, "the replay");
  TK_EQ(total_faults(W("replay")), 0, "faults in the replay");
  same_in(W("orig"), W("replay"), "games.jsonl");
  same_in(W("orig"), W("replay"), "records.tkr");
}

/* The one-file log of --logs=run,gz, and the replay of another seed: faults that say why. */
static void test_replay_from_run_log(void) {
  original_spec(W("orig2.json"), 62);
  const char *a[] = {"run", W("orig2.json"), "--out", W("orig2"), "--logs=run,gz", "--records",
                     "--quiet", NULL};
  TK_EQ(taikai(a), 0, "the original run");
  replay_spec(W("replay2.json"), 62, W("orig2/logs/run.jsonl.gz"));
  const char *b[] = {"run", W("replay2.json"), "--out", W("replay2"), "--records", "--quiet",
                     NULL};
  TK_EQ(taikai(b), 0, "the replay");
  TK_EQ(total_faults(W("replay2")), 0, "faults in the replay");
  same_in(W("orig2"), W("replay2"), "games.jsonl");
  same_in(W("orig2"), W("replay2"), "records.tkr");

  replay_spec(W("wrong.json"), 63, W("orig2/logs/run.jsonl.gz"));
  const char *c[] = {"run", W("wrong.json"), "--out", W("wrong"), "--quiet", NULL};
  TK_EQ(taikai(c), 0, "a replay of other deals runs, with faults");
  if (total_faults(W("wrong")) <= 0) TK_FAILF("a replay under another seed had no fault");
  char games[1600];
  snprintf(games, sizeof games, "%s", W("wrong/games.jsonl"));
  slurp(games, out_buf, sizeof out_buf);
  if (!strstr(out_buf, "daifugo_script: block 0, game 0: the log's next action of"))
    TK_FAILF("no fault message naming the block, game and action: %.400s", out_buf);
}

/* Refused before the run, with the parameter, the path or the name. */
static void test_bad_parameters(void) {
  original_spec(W("orig3.json"), 64);
  const char *a[] = {"run", W("orig3.json"), "--out", W("orig3"), "--logs=run,gz", "--quiet",
                     NULL};
  TK_EQ(taikai(a), 0, "the original run");
  /* an empty file, and the run's log twice over (two runs' logs joined by mistake) */
  write_file(W("empty.jsonl"), "");
  append_file(W("twice.jsonl.gz"), W("orig3/logs/run.jsonl.gz"));
  append_file(W("twice.jsonl.gz"), W("orig3/logs/run.jsonl.gz"));
  struct {
    const char *params, *file, *expect; /* file: NULL for the run's log */
  } cases[] = {
      {"{\"log\": \"%s\"}", NULL, "\"name\""},
      {"{\"name\": \"greedy\"}", NULL, "\"log\""},
      {"{\"log\": \"%s\", \"name\": \"nobody\"}", NULL, "has no player named 'nobody'"},
      {"{\"log\": \"%s.missing\", \"name\": \"greedy\"}", NULL, "cannot open the log"},
      {"{\"log\": \"%s\", \"name\": \"greedy\"}", "orig3.json", "not a daifugo log line"},
      {"{\"log\": \"%s\", \"name\": \"greedy\"}", "empty.jsonl", "holds no daifugo log"},
      {"{\"log\": \"%s\", \"name\": \"greedy\"}", "twice.jsonl.gz",
       "begins block 0 a second time"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char log[1600], params[2048], text[4096];
    snprintf(log, sizeof log, "%s", cases[i].file ? W(cases[i].file) : W("orig3/logs/run.jsonl.gz"));
    snprintf(params, sizeof params, cases[i].params, log);
    snprintf(text, sizeof text,
             "{\"game\": \"daifugo\", \"seed\": 64, \"walls\": 1, \"format\": \"seated\",\n"
             " \"rules\": {\"block_games\": 10}, \"agents\": [\n"
             "   {\"plugin\": \"daifugo_script\", \"label\": \"s\", \"params\": %s},\n"
             "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g1\"},\n"
             "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g2\"},\n"
             "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g3\"},\n"
             "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g4\"}]}\n",
             params);
    write_file(W("bad.json"), text);
    const char *b[] = {"run", W("bad.json"), "--out", W("bad"), "--quiet", NULL};
    int rc = taikai(b);
    if (rc != 2 || !strstr(err_buf, cases[i].expect))
      TK_FAILF("case %zu (%s): exit %d, expected 2 and \"%s\": %.400s", i, params, rc,
               cases[i].expect, err_buf);
  }
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"the same games and records from per-block logs", test_replay_from_block_logs},
      {"from the run's one log; another seed is charged faults", test_replay_from_run_log},
      {"bad parameters refused with what is wrong", test_bad_parameters},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_script", tests);
}
