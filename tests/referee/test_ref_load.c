/* tests/referee/test_ref_load.c — end to end: a verdict does not depend on the machine's load.
 * The same tournaments are played on a quiet machine and again beside a CPU hog (8 spinning
 * processes per core), and their games.jsonl, summary.json and records.tkr must be the same
 * bytes:
 *   - one-player mahjong: komatsu with 2,000 playouts a decision (about 25 ms of CPU) under a
 *     60 ms limit (600 ms in the sanitizers' build), which it meets in CPU time but not,
 *     beside the hog, in wall-clock time;
 *   - four-player riichi: the Python mjai bot (tests/riichi/mjai_bot.py, through riichi_mjai)
 *     against riichi_greedy, under a 2 s limit (skipped without python3), started through
 *     tests/referee/launcher.sh: like pyenv's shim, it first runs short helper processes,
 *     which beside the hog wait long for a CPU and take that wait with them when they exit;
 *     it must not count as idle time;
 *   - daifugo: the Monte Carlo player (200 playouts) against greedy, under the same limit.
 * Informative only (printed, not asserted, since it depends on the load it measures): the
 * one-player run with "clock": "wall" beside the hog, and its time-outs (or the trial's
 * refusal of the agent, a wall clock's verdict too). The test runs alone
 * (RUN_SERIAL): the hog would slow the other tests down. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define WORK TK_WORK_DIR "-load"
#include "e2e_util.h"

enum { MAX_HOG = 256 };

/* The solo and daifugo agents' per-call limit: a few times what a decision costs in CPU time,
 * which the sanitizers' build multiplies (komatsu's 2,000 playouts take about 25 ms of CPU
 * optimised, several times that under AddressSanitizer) */
#ifdef TK_SANITIZED
#define LIMIT_MS "600"
#else
#define LIMIT_MS "60"
#endif
static pid_t hog[MAX_HOG];
static int nhog;

static void hog_start(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int n = (int)(cores > 0 ? cores : 1) * 8;
  if (n > MAX_HOG) n = MAX_HOG;
  fflush(NULL);
  for (nhog = 0; nhog < n; nhog++) {
    pid_t p = fork();
    if (p == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives the test */
      for (volatile unsigned long spin = 0;; spin++) {
      }
    }
    if (p < 0) break;
    hog[nhog] = p;
  }
  printf("\n  a CPU hog of %d spinning processes (%ld cores)\n", nhog, cores);
}

static void hog_stop(void) {
  for (int i = 0; i < nhog; i++) kill(hog[i], SIGKILL);
  for (int i = 0; i < nhog; i++) waitpid(hog[i], NULL, 0);
  nhog = 0;
}

static double loadavg(void) {
  double l = -1;
  FILE *f = fopen("/proc/loadavg", "r");
  if (f) {
    if (fscanf(f, "%lf", &l) != 1) l = -1;
    fclose(f);
  }
  return l;
}

typedef struct game_case {
  const char *name, *spec;
  int needs_python;
} game_case;

static char specs[3][2048];
static game_case cases[3];
static int have_python;

/* The Python interpreter itself: the bot is started through tests/referee/launcher.sh, whose
 * helper processes exit during the bot's first call (as pyenv's shim does), and a second
 * launcher (a shim) would add more of the same but nothing the test does not already have. */
static char python[1024] = "python3";

static void find_python(void) {
  FILE *p = popen("python3 -c 'import sys; print(sys.executable)' 2>/dev/null", "r");
  char line[1024];
  if (p && fgets(line, sizeof line, p) && line[0] == '/') {
    line[strcspn(line, "\n")] = 0;
    snprintf(python, sizeof python, "%s", line);
  }
  if (p) pclose(p);
}

static void make_specs(void) {
  find_python();
  snprintf(specs[0], sizeof specs[0],
           "{\"game\": \"solo\", \"seed\": 3, \"walls\": 3, \"time_limit_ms\": " LIMIT_MS
           ", \"agents\": "
           "[{\"plugin\": \"komatsu\", \"params\": {\"playouts\": 2000}}, "
           "{\"plugin\": \"greedy\"}]%s}\n", "");
  snprintf(specs[1], sizeof specs[1],
           "{\"game\": \"riichi\", \"seed\": 4, \"walls\": 1, \"format\": \"duplicate\", "
           "\"time_limit_ms\": 2000, \"rules\": {\"length\": \"east\"}, \"agents\": "
           "[{\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}, {\"plugin\": "
           "\"riichi_mjai\", \"label\": \"bot\", \"params\": {\"command\": \"sh %s %s %s\"}}]}\n",
           TK_SOURCE_DIR "/tests/referee/launcher.sh", python,
           TK_SOURCE_DIR "/tests/riichi/mjai_bot.py");
  snprintf(specs[2], sizeof specs[2],
           "{\"game\": \"daifugo\", \"seed\": 5, \"walls\": 1, \"format\": \"duplicate\", "
           "\"time_limit_ms\": " LIMIT_MS ", \"rules\": {\"block_games\": 4}, \"agents\": "
           "[{\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}, {\"plugin\": "
           "\"daifugo_mc\", \"label\": \"mc\", \"params\": {\"playouts\": 200, "
           "\"exchange_playouts\": 200}}]}\n");
  cases[0] = (game_case){"solo", specs[0], 0};
  cases[1] = (game_case){"riichi", specs[1], 1};
  cases[2] = (game_case){"daifugo", specs[2], 0};
}

/* Plays case `c` into WORK/NAME-TAG; with `informative`, a failure is printed, not asserted
 * (a wall clock's verdict depends on the load: the trial before the run may refuse the agent). */
static int play_as(const game_case *c, const char *tag, const char *extra_arg, int informative) {
  char spec[1200], out[1200];
  snprintf(spec, sizeof spec, "%s/%s.json", work_dir, c->name);
  snprintf(out, sizeof out, "%s/%s-%s", work_dir, c->name, tag);
  write_file(spec, c->spec);
  const char *args[] = {"run", spec, "--out", out, "--records", "-j", "2", "--quiet",
                        extra_arg, NULL};
  int rc = taikai(args);
  if (rc && informative)
    printf("  %s (%s): exit %d: %.300s\n", c->name, tag, rc, err_buf);
  else if (rc)
    TK_FAILF("%s (%s): exit %d: %.600s", c->name, tag, rc, err_buf);
  return rc;
}

static int play(const game_case *c, const char *tag, const char *extra_arg) {
  return play_as(c, tag, extra_arg, 0);
}

static void same_outputs(void) {
  make_specs();
  have_python = system("python3 -c pass 2>/dev/null") == 0;
  for (int i = 0; i < 3; i++)
    if (!cases[i].needs_python || have_python) play(&cases[i], "quiet", NULL);
  hog_start();
  int64_t t0 = now_ms();
  for (int i = 0; i < 3; i++)
    if (!cases[i].needs_python || have_python) play(&cases[i], "hog", NULL);
  /* what a wall clock would have said, for the record */
  char wall_spec[2048];
  snprintf(wall_spec, sizeof wall_spec, "%.*s, \"clock\": \"wall\"}\n",
           (int)(strrchr(specs[0], '}') - specs[0]), specs[0]);
  game_case wall = {"solo-wall", wall_spec, 0};
  int wall_rc = play_as(&wall, "hog", NULL, 1);
  printf("  beside the hog: %.1f s, load average %.1f\n", (double)(now_ms() - t0) / 1000,
         loadavg());
  hog_stop();
  char path[1400];
  snprintf(path, sizeof path, "%s/solo-wall-hog/summary.json", work_dir);
  json_t *sum = wall_rc ? NULL : json_load_file(path, 0, NULL);
  json_t *a0 = json_array_get(json_object_get(sum, "agents"), 0);
  if (sum)
    printf("  the same one-player run with \"clock\": \"wall\" beside the hog: %lld time-outs "
           "(none in CPU time)\n", (long long)json_integer_value(json_object_get(a0, "timeouts")));
  json_decref(sum);
  static const char *const files[] = {"games.jsonl", "games.chain", "summary.json",
                                      "records.tkr"};
  for (int i = 0; i < 3; i++) {
    if (cases[i].needs_python && !have_python) {
      printf("  SKIP %s: no python3\n", cases[i].name);
      continue;
    }
    for (int f = 0; f < 4; f++) {
      char a[1400], b[1400];
      snprintf(a, sizeof a, "%s/%s-quiet/%s", work_dir, cases[i].name, files[f]);
      snprintf(b, sizeof b, "%s/%s-hog/%s", work_dir, cases[i].name, files[f]);
      if (!same_bytes(a, b)) TK_FAILF("%s: %s differs beside the hog", cases[i].name, files[f]);
    }
    /* and no fault at all: the limits are met in CPU time */
    snprintf(path, sizeof path, "%s/%s-quiet/summary.json", work_dir, cases[i].name);
    sum = json_load_file(path, 0, NULL);
    size_t k;
    json_t *a;
    json_array_foreach(json_object_get(sum, "agents"), k, a)
      TK_EQ(json_integer_value(json_object_get(a, "faults")), 0, cases[i].name);
    json_decref(sum);
  }
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"the same bytes quietly and beside a CPU hog", same_outputs},
      CU_TEST_INFO_NULL,
  };
  int rc = tk_unit_run("verdicts independent of the load", tests);
  hog_stop();
  return rc;
}
