/* tests/referee/test_ref_kill_riichi.c — end to end: a four-player riichi run with every
 * output a run can write (--logs=run,gz --records) is killed with SIGKILL at random moments,
 * each time resumed by the same command with -j 1 or -j 2, and its files are then those of an
 * uninterrupted run byte for byte: games.jsonl, games.chain, summary.json, report.md,
 * records.tkr, logs/run.jsonl.gz and logs/run.index.
 *
 * The kill schedule is seeded: TK_KILL_SEED (default 20261127) and TK_KILLS (default 8; the
 * closing evidence of the issue used 40) replay it; both are printed. Each kill lands after a
 * command's start-up, within 2/K of the playing time, so that the K kills span the run. What is asserted holds
 * whatever the machine's speed: a slower machine only moves the kills to other units. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORK TK_WORK_DIR "-kill-riichi"
#include "e2e_util.h"

static const char *const FILES[] = {"games.jsonl",  "games.chain",      "summary.json",
                                    "report.md",    "records.tkr",      "logs/run.jsonl.gz",
                                    "logs/run.index", NULL};

/* The complete lines of a file (0 when it is absent). */
static int lines_of(const char *path) {
  FILE *f = fopen(path, "r");
  int n = 0, c;
  if (!f) return 0;
  while ((c = fgetc(f)) != EOF) n += c == '\n';
  fclose(f);
  return n;
}

static void killed_and_resumed(void) {
  write_file(W("riichi.json"),
             "{\"game\": \"riichi\", \"seed\": 17, \"walls\": 30, \"format\": \"duplicate\",\n"
             " \"agents\": [{\"plugin\": \"riichi_tsumogiri\", \"label\": \"tsumogiri\"},\n"
             "             {\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}],\n"
             " \"rules\": {\"length\": \"east\"}}\n");
  char spec[1600], full_out[1600], out[1600]; /* W's buffers rotate: these stay */
  snprintf(spec, sizeof spec, "%s", W("riichi.json"));
  snprintf(full_out, sizeof full_out, "%s", W("full"));
  snprintf(out, sizeof out, "%s", W("kill"));
  const char *full[] = {"run", spec, "--out", full_out, "--logs=run,gz", "--records", "-j", "2",
                        "--quiet", NULL};
  int64_t t0 = now_ms();
  if (taikai(full)) {
    TK_FAILF("the uninterrupted run: %s", err_buf);
    return;
  }
  int64_t T = now_ms() - t0;
  /* what a command costs before it plays (loading, the trial, reading the folder): the same
   * command on the finished folder */
  t0 = now_ms();
  if (taikai(full)) TK_FAILF("the finished run again: %s", err_buf);
  int64_t T0 = now_ms() - t0;
  unsigned seed = getenv("TK_KILL_SEED") ? (unsigned)strtoul(getenv("TK_KILL_SEED"), NULL, 10)
                                         : 20261127u;
  int kills = getenv("TK_KILLS") ? atoi(getenv("TK_KILLS")) : 8;
  srand(seed);
  /* each kill lands after the start-up, within a share of the playing time such that the
   * kills together span about the whole run: most land while units are played */
  int64_t span = kills > 0 ? 2 * (T > T0 ? T - T0 : 1) / kills : 1;
  if (span < 10) span = 10;
  printf("\n  uninterrupted %lld ms (start-up %lld ms); %d kills, seed %u (TK_KILL_SEED, "
         "TK_KILLS to replay):", (long long)T, (long long)T0, kills, seed);
  const char *jobs[2] = {"1", "2"};
  const char *args[] = {"run", spec, "--out", out, "--logs=run,gz", "--records", "-j", "2",
                        "--quiet", NULL};
  int killed = 0;
  for (int k = 0; k < kills; k++) {
    int delay = (int)(T0 + rand() % span);
    args[7] = jobs[rand() % 2];
    pid_t pid = taikai_start(args);
    sleep_ms(delay);
    kill(pid, SIGKILL);
    int rc = taikai_wait(pid);
    char games[1700];
    snprintf(games, sizeof games, "%s/games.jsonl", out);
    printf(" %d ms -j %s (%s, %d lines)", delay, args[7],
           rc == -SIGKILL ? "killed" : "had finished", lines_of(games));
    killed += rc == -SIGKILL;
    if (rc != -SIGKILL && rc != 0) TK_FAILF("run %d ended with %d: %s", k, rc, err_buf);
  }
  printf("; %d killed\n", killed);
  int rc = taikai(args);
  if (rc) TK_FAILF("final resume: exit %d: %s", rc, err_buf);
  for (const char *const *f = FILES; *f; f++) {
    char a[1700], b[1700];
    snprintf(a, sizeof a, "%s/%s", out, *f);
    snprintf(b, sizeof b, "%s/%s", full_out, *f);
    if (!same_bytes(a, b)) TK_FAILF("%s differs from the uninterrupted run's", *f);
  }
  const char *rp[] = {"replay", "--quiet", out, NULL};
  TK_EQ(taikai(rp), 0, "replay of the killed and resumed run's log");
  const char *rec[] = {"records", W("kill/records.tkr"), NULL};
  TK_EQ(taikai(rec), 0, "taikai records of the killed and resumed run");
}

/* A killed run keeps its finished units: once games.jsonl shows L complete lines, a SIGKILL
 * leaves a folder whose resume keeps at least L - 1 of them (the kill may fall between a line
 * and its digest), and the resumed run is the uninterrupted one byte for byte. Nothing here
 * depends on the machine's speed: the kill waits for the lines, however long they take. Uses
 * the spec and the uninterrupted run that killed_and_resumed writes. */
static void killed_keeps_its_units(void) {
  char spec[1600], full_out[1600], out[1600], games[1700];
  snprintf(spec, sizeof spec, "%s", W("riichi.json"));
  snprintf(full_out, sizeof full_out, "%s", W("full"));
  snprintf(out, sizeof out, "%s", W("kept"));
  snprintf(games, sizeof games, "%s/games.jsonl", out);
  const char *args[] = {"run", spec, "--out", out, "--logs=run,gz", "--records", "-j", "1",
                        "--quiet", NULL};
  pid_t pid = taikai_start(args);
  int lines = 0;
  while (!taikai_exited(pid) && (lines = lines_of(games)) < 3) sleep_ms(5);
  kill(pid, SIGKILL);
  int rc = taikai_wait(pid);
  if (rc != -SIGKILL) {
    TK_FAILF("the run ended (%d) before it was killed with 3 lines written: %s", rc, err_buf);
    return;
  }
  lines = lines_of(games);
  args[8] = NULL; /* not --quiet: the resume says how many units it kept */
  rc = taikai(args);
  if (rc) {
    TK_FAILF("the resume: exit %d: %s", rc, err_buf);
    return;
  }
  const char *said = strstr(err_buf, "continued a run of this tournament (");
  unsigned long long kept = 0;
  if (!said || sscanf(said, "continued a run of this tournament (%llu of", &kept) != 1) {
    TK_FAILF("the resume does not say what it kept: %s", err_buf);
    return;
  }
  printf("\n  killed with %d complete lines; the resume kept %llu units\n", lines, kept);
  if ((long long)kept < lines - 1)
    TK_FAILF("games.jsonl held %d complete lines when the run was killed, and the resume kept "
             "only %llu units", lines, kept);
  for (const char *const *f = FILES; *f; f++) {
    char a[1700], b[1700];
    snprintf(a, sizeof a, "%s/%s", out, *f);
    snprintf(b, sizeof b, "%s/%s", full_out, *f);
    if (!same_bytes(a, b)) TK_FAILF("%s differs from the uninterrupted run's", *f);
  }
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"riichi --logs=run,gz --records: killed and resumed, the same bytes", killed_and_resumed},
      {"a killed run keeps the units it wrote", killed_keeps_its_units},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi kill and resume", tests);
}
