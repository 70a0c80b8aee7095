/* tests/daifugo/test_serve.c — `taikai serve` as `taikai run`: without external seats its
 * games.jsonl, summary.json, records.tkr and game logs are the bytes `taikai run` writes (and
 * the logs replay; `--logs=run` writes them as one file, block after block); a plugin seat
 * that hangs, crashes, exits or fails is stopped, charged with the fault `taikai run` charges
 * it with, and the server plays on; a served run killed (SIGTERM,
 * then SIGKILL) and continued by the same command, its client connecting again, ends with the
 * bytes of an uninterrupted one; a folder of another tournament is refused. */
#include <dirent.h>
#include <math.h>

#define WORK TK_WORK_DIR "-serve"
#include "e2e_util.h"
#include "serve_util.h"

#define FX TK_FIXTURE_DIR

/* Five seats; `seat0` is agents[0]'s object. Blocks of 10 games. */
static void spec_file(const char *path, const char *seat0, int seed, int walls, int limit_ms) {
  char text[4096];
  snprintf(text, sizeof text,
           "{\"game\": \"daifugo\", \"seed\": %d, \"walls\": %d, \"format\": \"seated\",\n"
           " \"rules\": {\"block_games\": 10}, \"time_limit_ms\": %d,\n"
           " \"agents\": [%s,\n"
           "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g1\"},\n"
           "   {\"plugin\": \"daifugo_random\", \"label\": \"r2\"},\n"
           "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g3\"},\n"
           "   {\"plugin\": \"daifugo_random\", \"label\": \"r4\"}]}\n",
           seed, walls, limit_ms, seat0);
  write_file(path, text);
}

/* The files of folder a/logs and b/logs: the same names and bytes; returns the count. */
static int same_logs(const char *a, const char *b) {
  char da[1200], db[1200];
  snprintf(da, sizeof da, "%s/logs", a);
  snprintf(db, sizeof db, "%s/logs", b);
  DIR *d = opendir(da);
  if (!d) {
    TK_FAILF("%s: no logs folder", da);
    return 0;
  }
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char pa[1600], pb[1600];
    snprintf(pa, sizeof pa, "%s/%s", da, e->d_name);
    snprintf(pb, sizeof pb, "%s/%s", db, e->d_name);
    if (!same_bytes(pa, pb)) TK_FAILF("%s and %s differ", pa, pb);
    n++;
  }
  closedir(d);
  return n;
}

/* summary.json's totals over the run: each agent's "points_total" / "paper_points_total" is the
 * sum of its "points" / "paper_points" over the lines of games.jsonl (seated: agent i is seat i),
 * and its interval the per-game interval times its games. */
static void check_totals(const char *dir) {
  char path[1200];
  snprintf(path, sizeof path, "%s/games.jsonl", dir);
  json_t *lines[16];
  int n = load_lines(path, lines, 16);
  snprintf(path, sizeof path, "%s/summary.json", dir);
  json_t *sum = json_load_file(path, 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  static const char *field[2] = {"points", "paper_points"};
  static const char *total[2] = {"points_total", "paper_points_total"};
  static const char *per[2] = {"points_per_game", "paper_points_per_game"};
  for (int a = 0; a < 5; a++) {
    json_t *ag = json_array_get(json_object_get(sum, "agents"), (size_t)a);
    long long games = json_integer_value(json_object_get(ag, "games"));
    for (int k = 0; k < 2; k++) {
      long long want = 0;
      for (int i = 0; i < n; i++)
        want += json_integer_value(
            json_object_get(json_array_get(json_object_get(lines[i], "seats"), (size_t)a), field[k]));
      json_t *t = json_object_get(ag, total[k]), *pg = json_object_get(ag, per[k]);
      double v = json_number_value(json_object_get(t, "value"));
      if (fabs(v - (double)want) > 1e-6)
        TK_FAILF("agent %d: %s %.6f, the lines sum to %lld", a, total[k], v, want);
      TK_EQ(json_integer_value(json_object_get(t, "games")), games, total[k]);
      for (int e = 0; e < 2; e++) {
        double lo = json_number_value(json_array_get(json_object_get(t, "ci"), (size_t)e));
        double pl = json_number_value(json_array_get(json_object_get(pg, "ci"), (size_t)e));
        if (fabs(lo - pl * (double)games) > 1e-6 * games)
          TK_FAILF("agent %d: %s ci[%d] %.6f, per game %.6f x %lld games", a, total[k], e, lo, pl,
                   games);
      }
    }
  }
  json_decref(sum);
  free_lines(lines, n);
}

/* Without external seats: the same bytes as `taikai run`, logs and records included. */
static void test_same_as_run(void) {
  spec_file(W("plain.json"), "{\"plugin\": \"daifugo_greedy\", \"label\": \"g0\"}", 3, 3, 0);
  const char *serve[] = {"serve", W("plain.json"), "--port", "0", "--out", W("plain-serve"),
                         "--quiet", "--logs", "--records", NULL};
  TK_EQ(taikai(serve), 0, err_buf);
  if (!strstr(out_buf, "records.tkr") || !strstr(out_buf, "logs/"))
    TK_FAILF("the table's last line names no records or logs: %s", out_buf);
  const char *run[] = {"run", W("plain.json"), "--out", W("plain-run"), "--quiet", "--logs",
                       "--records", NULL};
  TK_EQ(taikai(run), 0, err_buf);
  same_in(W("plain-serve"), W("plain-run"), "games.jsonl");
  same_in(W("plain-serve"), W("plain-run"), "summary.json");
  same_in(W("plain-serve"), W("plain-run"), "records.tkr");
  TK_EQ(same_logs(W("plain-serve"), W("plain-run")), 3, "one log per block");
  /* report.md says what a wall and a unit are: a block of 10 games here */
  static char md[1 << 16];
  slurp(W("plain-run/report.md"), md, sizeof md);
  if (!strstr(md, "3 walls, 3 units (blocks of 10 games: 30 games)"))
    TK_FAILF("report.md does not say the units are blocks of 10 games: %.300s", md);
  check_totals(W("plain-serve"));
  if (!strstr(out_buf, "points total") || !strstr(out_buf, "paper pts total"))
    TK_FAILF("the table shows no totals: %s", out_buf);
  /* the records are the same whatever -j (the views and lists are written whole) */
  const char *run2[] = {"run", W("plain.json"), "--out", W("plain-j2"), "--quiet", "--records",
                        "-j", "2", NULL};
  TK_EQ(taikai(run2), 0, err_buf);
  same_in(W("plain-j2"), W("plain-run"), "records.tkr");
  const char *replay[] = {"replay", W("plain-serve/logs"), NULL};
  TK_EQ(taikai(replay), 0, err_buf);
  const char *records[] = {"records", W("plain-serve"), NULL};
  TK_EQ(taikai(records), 0, err_buf);
  if (!strstr(out_buf, "units 3, decisions")) TK_FAILF("taikai records: %s", out_buf);
  /* compressed logs: the same games, replayable */
  const char *gz[] = {"serve", W("plain.json"), "--port", "0", "--out", W("plain-gz"), "--quiet",
                      "--logs=gz", NULL};
  TK_EQ(taikai(gz), 0, err_buf);
  same_in(W("plain-gz"), W("plain-run"), "games.jsonl");
  if (!exists(W("plain-gz/logs/unit-00000002.jsonl.gz"))) TK_FAILF("no compressed log");
  const char *replay_gz[] = {"replay", W("plain-gz/logs"), NULL};
  TK_EQ(taikai(replay_gz), 0, err_buf);
  /* one log file for the run: the blocks' logs of `taikai run --logs` one after the other */
  const char *one[] = {"serve", W("plain.json"), "--port", "0", "--out", W("plain-one"), "--quiet",
                       "--logs=run", NULL};
  TK_EQ(taikai(one), 0, err_buf);
  FILE *cat = fopen(W("plain-cat.jsonl"), "wb");
  for (int u = 0; u < 3 && cat; u++) {
    char unit[1300];
    snprintf(unit, sizeof unit, "%s/logs/unit-%08d.jsonl", W("plain-run"), u);
    FILE *f = fopen(unit, "rb");
    int ch;
    while (f && (ch = fgetc(f)) != EOF) fputc(ch, cat);
    if (f) fclose(f);
  }
  if (cat) fclose(cat);
  if (!same_bytes(W("plain-one/logs/run.jsonl"), W("plain-cat.jsonl")))
    TK_FAILF("serve --logs=run: run.jsonl is not the blocks' logs of taikai run concatenated");
  const char *replay_one[] = {"replay", W("plain-one"), NULL};
  TK_EQ(taikai(replay_one), 0, err_buf);
  if (!strstr(out_buf, "1 log, 3 games replayed, 0 mismatches")) TK_FAILF("replay: %s", out_buf);
}

/* The fault_info of seat 0 in line `unit` of dir/games.jsonl (a new reference), or NULL. */
static json_t *fault_info(const char *dir, int unit) {
  char path[1200];
  snprintf(path, sizeof path, "%s/games.jsonl", dir);
  json_t *lines[8];
  int n = load_lines(path, lines, 8);
  json_t *fi = NULL;
  if (unit < n) {
    json_t *seat = json_array_get(json_object_get(lines[unit], "seats"), 0);
    fi = json_object_get(seat, "fault_info");
    json_incref(fi);
  }
  free_lines(lines, n);
  return fi;
}

/* Line `unit` of a and b's games.jsonl are the same text. */
static int same_line(const char *a, const char *b, int unit) {
  char pa[1200], pb[1200];
  snprintf(pa, sizeof pa, "%s/games.jsonl", a);
  snprintf(pb, sizeof pb, "%s/games.jsonl", b);
  json_t *la[8], *lb[8];
  int na = load_lines(pa, la, 8), nb = load_lines(pb, lb, 8);
  int same = unit < na && unit < nb && json_equal(la[unit], lb[unit]);
  free_lines(la, na);
  free_lines(lb, nb);
  return same;
}

/* A plugin seat misbehaving in block 1 (`how` at `entry`): the server ends 0, the seat's fault
 * in unit 1 is the one `taikai run` records (kind, entry, signal or status, limit, decision),
 * blocks 0 and 2 are played as `taikai run` plays them (a new process for the seat after the
 * fault), and the kind is `kind`. */
static void plugin_fault(const char *name, const char *how, const char *entry, const char *kind) {
  char seat0[512], spec[256], out_s[256], out_r[256];
  snprintf(seat0, sizeof seat0,
           "{\"plugin\": \"" FX "/daifugo_misbehave.so\", \"label\": \"bad\", \"params\": "
           "{\"how\": \"%s\", \"entry\": \"%s\", \"wall\": 1, \"decision\": 4}}",
           how, entry);
  snprintf(spec, sizeof spec, "%s.json", name);
  snprintf(out_s, sizeof out_s, "%s-serve", name);
  snprintf(out_r, sizeof out_r, "%s-run", name);
  char spec_path[1200], serve_dir[1200], run_dir[1200];
  snprintf(spec_path, sizeof spec_path, "%s", W(spec));
  snprintf(serve_dir, sizeof serve_dir, "%s", W(out_s));
  snprintf(run_dir, sizeof run_dir, "%s", W(out_r));
  spec_file(spec_path, seat0, 9, 3, 1000);
  const char *serve[] = {"serve", spec_path, "--port", "0", "--out", serve_dir, "--quiet", NULL};
  TK_EQ(taikai(serve), 0, err_buf);
  if (!strstr(err_buf, "agent 'bad' (seat 0)")) TK_FAILF("%s: no fault notice: %s", name, err_buf);
  const char *run[] = {"run", spec_path, "--out", run_dir, "--quiet", NULL};
  TK_EQ(taikai(run), 0, err_buf);
  json_t *fs = fault_info(serve_dir, 1), *fr = fault_info(run_dir, 1);
  if (!fs || !fr) {
    TK_FAILF("%s: unit 1 has no fault (serve %p, run %p)", name, (void *)fs, (void *)fr);
  } else {
    const char *k = json_string_value(json_object_get(fs, "kind"));
    if (!k || strcmp(k, kind)) TK_FAILF("%s: kind %s, expected %s", name, k ? k : "?", kind);
    char *ts = json_dumps(fs, JSON_SORT_KEYS), *tr = json_dumps(fr, JSON_SORT_KEYS);
    if (!json_equal(fs, fr)) TK_FAILF("%s: serve's fault %s, run's %s", name, ts, tr);
    free(ts);
    free(tr);
  }
  json_decref(fs);
  json_decref(fr);
  json_t *f0 = fault_info(serve_dir, 0), *f2 = fault_info(serve_dir, 2);
  if (f0 || f2) TK_FAILF("%s: a fault outside unit 1", name);
  json_decref(f0);
  json_decref(f2);
  if (!same_line(serve_dir, run_dir, 0) || !same_line(serve_dir, run_dir, 2))
    TK_FAILF("%s: blocks 0 and 2 differ from taikai run's", name);
}

static void test_plugin_hang(void) { plugin_fault("hang", "hang", "act", "timeout"); }
static void test_plugin_crash(void) { plugin_fault("crash", "abort", "act", "crash"); }
static void test_plugin_exit(void) { plugin_fault("exit", "exit", "act", "exit"); }
static void test_plugin_error(void) { plugin_fault("error", "error", "begin_game", "error"); }
static void test_plugin_end_hang(void) { plugin_fault("endhang", "hang", "end_game", "timeout"); }

/* The lines of dir/games.jsonl (0 without the file). */
static int count_lines(const char *dir) {
  char path[1200], text[1 << 16];
  snprintf(path, sizeof path, "%s/games.jsonl", dir);
  slurp(path, text, sizeof text);
  int n = 0;
  for (const char *p = text; *p; p++) n += *p == '\n';
  return n;
}

/* Waits until dir/logs holds unit `unit`'s log (the unit is whole), at most 60 s. */
static int wait_log(const char *dir, int unit) {
  char path[1200];
  snprintf(path, sizeof path, "%s/logs/unit-%08d.jsonl", dir, unit);
  for (int i = 0; i < 6000; i++) {
    if (exists(path)) return 1;
    sleep_ms(10);
  }
  return 0;
}

/* One external seat played by our greedy through `taikai client`: killed by SIGTERM after
 * block 1, by SIGKILL after block 3, then finished, the run's outputs are those of an
 * uninterrupted run; the kept blocks are not played to the client again. */
static void test_resume(void) {
  /* seat 4 sleeps 5 ms a decision (and plays as daifugo_pass): a block takes long enough that
   * the signals land while blocks remain */
  write_file(W("ext.json"),
             "{\"game\": \"daifugo\", \"seed\": 21, \"walls\": 6, \"format\": \"seated\",\n"
             " \"rules\": {\"block_games\": 10}, \"time_limit_ms\": 5000,\n"
             " \"agents\": [{\"external\": true, \"label\": \"remote\"},\n"
             "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g1\"},\n"
             "   {\"plugin\": \"daifugo_random\", \"label\": \"r2\"},\n"
             "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g3\"},\n"
             "   {\"plugin\": \"" FX "/daifugo_misbehave.so\", \"label\": \"slow\",\n"
             "    \"params\": {\"how\": \"sleep\", \"wall\": -1, \"decision\": 0}}]}\n");
  /* W's buffers rotate: the command lines, used again later, keep their own copies */
  char spec[1200], whole_dir[1200], part_dir[1200];
  snprintf(spec, sizeof spec, "%s", W("ext.json"));
  snprintf(whole_dir, sizeof whole_dir, "%s", W("ext-whole"));
  snprintf(part_dir, sizeof part_dir, "%s", W("ext-part"));
  const char *whole[] = {"serve", spec, "--port", "0", "--out", whole_dir,
                         "--quiet", "--logs", "--records", NULL};
  int port;
  pid_t server = serve_start_args(whole, &port);
  if (!port) return;
  pid_t c = bridge(port, "daifugo_greedy", W("whole-client.txt"));
  TK_EQ(wait_status(c), 0, "the client of the whole run");
  TK_EQ(taikai_wait(server), 0, err_buf);

  const char *part[] = {"serve", spec, "--port", "0", "--out", part_dir,
                        "--quiet", "--logs", "--records", NULL};
  server = serve_start_args(part, &port);
  if (!port) return;
  c = bridge(port, "daifugo_greedy", W("part-client-1.txt"));
  if (!wait_log(W("ext-part"), 1)) TK_FAILF("block 1 never finished");
  kill(server, SIGTERM);
  TK_EQ(taikai_wait(server), 143, err_buf);
  wait_status(c); /* the connection closed under it */
  int kept = count_lines(W("ext-part"));
  if (kept < 2 || kept >= 6) TK_FAILF("SIGTERM kept %d blocks", kept);
  json_t *sum = json_load_file(W("ext-part/summary.json"), 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(json_is_false(json_object_get(sum, "complete")));
  json_decref(sum);

  server = serve_start_args(part, &port);
  if (!port) return;
  c = bridge(port, "daifugo_greedy", W("part-client-2.txt"));
  if (!wait_log(W("ext-part"), 3)) TK_FAILF("block 3 never finished");
  kill(server, SIGKILL);
  taikai_wait(server);
  wait_status(c);

  server = serve_start_args(part, &port);
  if (!port) return;
  c = bridge(port, "daifugo_greedy", W("part-client-3.txt"));
  TK_EQ(wait_status(c), 0, "the client of the last part");
  TK_EQ(taikai_wait(server), 0, err_buf);
  char text[4096];
  slurp(W("part-client-3.txt"), text, sizeof text);
  /* the last part's client played only the blocks not kept: fewer than the run's 60 games */
  const char *g = strstr(text, " games");
  int played = 0;
  if (g) {
    while (g > text && g[-1] >= '0' && g[-1] <= '9') g--;
    played = atoi(g);
  }
  if (played <= 0 || played >= 60 || played % 10)
    TK_FAILF("the last client played %d games: %s", played, text);
  same_in(W("ext-part"), W("ext-whole"), "games.jsonl");
  same_in(W("ext-part"), W("ext-whole"), "summary.json");
  same_in(W("ext-part"), W("ext-whole"), "records.tkr");
  TK_EQ(same_logs(W("ext-part"), W("ext-whole")), 6, "one log per block");
}

/* A folder of another tournament is refused, as by `taikai run`; so are -j and --games with
 * --walls. */
static void test_refusals(void) {
  spec_file(W("a.json"), "{\"plugin\": \"daifugo_pass\", \"label\": \"p0\"}", 1, 1, 0);
  spec_file(W("b.json"), "{\"plugin\": \"daifugo_pass\", \"label\": \"p0\"}", 2, 1, 0);
  const char *a[] = {"serve", W("a.json"), "--port", "0", "--out", W("ab"), "--quiet", NULL};
  TK_EQ(taikai(a), 0, err_buf);
  const char *b[] = {"serve", W("b.json"), "--port", "0", "--out", W("ab"), "--quiet", NULL};
  TK_EQ(taikai(b), 2, "another tournament's folder");
  if (!strstr(err_buf, "taikai serve: refused") || !strstr(err_buf, "seed"))
    TK_FAILF("%s", err_buf);
  const char *again[] = {"serve", W("a.json"), "--port", "0", "--out", W("ab"), NULL};
  TK_EQ(taikai(again), 0, "the same tournament, complete: nothing to play");
  if (!strstr(err_buf, "continued a run of this tournament (1 of 1 units"))
    TK_FAILF("%s", err_buf);
  const char *resume[] = {"serve", W("a.json"), "--port", "0", "--out", W("none"), "--resume",
                          NULL};
  TK_EQ(taikai(resume), 2, "--resume without a run");
  const char *j[] = {"serve", W("a.json"), "-j", "2", NULL};
  TK_EQ(taikai(j), 2, "-j");
  if (!strstr(err_buf, "it takes no -j")) TK_FAILF("%s", err_buf);
  const char *gw[] = {"serve", W("a.json"), "--games", "10", "--walls", "2", NULL};
  TK_EQ(taikai(gw), 2, "--games with --walls");
  if (!strstr(err_buf, "give one")) TK_FAILF("%s", err_buf);
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  static CU_TestInfo tests[] = {
      {"no external seat: taikai run's bytes, logs and records", test_same_as_run},
      {"a plugin seat that hangs in act", test_plugin_hang},
      {"a plugin seat that crashes", test_plugin_crash},
      {"a plugin seat that exits", test_plugin_exit},
      {"a plugin seat whose begin_game fails", test_plugin_error},
      {"a plugin seat that hangs in end_game", test_plugin_end_hang},
      {"killed twice and continued: the bytes of a whole run", test_resume},
      {"refusals", test_refusals},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("serve", tests);
}
