/* tests/riichi/test_riichi_replay.c — end to end: `taikai run --logs` on a small riichi
 * tournament, then `taikai replay` on its logs: every log replays (exit 0, the counts, the final
 * scores of games.jsonl); a copy with one hora delta changed is caught (exit 1, naming the file
 * and the line); a missing file, an empty folder, a run without logs and bad flags are refused
 * (exit 2, naming the path). The binary runs as a child process with a time limit
 * (tests/referee/e2e_util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "referee/e2e_util.h"

#define UNITS 12 /* 3 game indices x 4 seats of the candidate */

static const char *SPEC =
    "{\"game\": \"riichi\", \"seed\": 11, \"walls\": 3, \"format\": \"duplicate\",\n"
    " \"agents\": [{\"plugin\": \"riichi_tsumogiri\", \"label\": \"base\"},\n"
    "             {\"plugin\": \"riichi_greedy\", \"label\": \"cand\"}],\n"
    " \"rules\": {\"length\": \"east\"}}\n";

static int count_lines(const char *text, const char *prefix) {
  int n = 0;
  size_t len = strlen(prefix);
  for (const char *p = text; *p;) {
    if (!strncmp(p, prefix, len)) n++;
    const char *e = strchr(p, '\n');
    if (!e) break;
    p = e + 1;
  }
  return n;
}

static int ran; /* the run succeeded: the other tests have logs to work on */

static void run_and_replay(void) {
  write_file(W("spec.json"), SPEC);
  const char *run[] = {"run", W("spec.json"), "--out", W("run"), "--logs", "-j", "2", "--quiet", NULL};
  int rc = taikai(run);
  if (rc) TK_FAILF("taikai run --logs: exit %d: %s", rc, err_buf);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  ran = 1;

  /* the run folder stands for its logs/ */
  const char *all[] = {"replay", W("run"), NULL};
  TK_EQ(taikai(all), 0, "replay of the run folder");
  char want[128];
  snprintf(want, sizeof want, "%d logs, %d games replayed, 0 mismatches\n", UNITS, UNITS);
  if (!strstr(out_buf, want)) TK_FAILF("expected '%s' in:\n%s", want, out_buf);
  TK_EQ(count_lines(out_buf, "OK "), UNITS, "one OK line per log");
  TK_EQ(count_lines(out_buf, "MISMATCH"), 0, "no mismatch");

  /* each log's final scores are games.jsonl's points */
  json_t *lines[UNITS + 1];
  int n = load_lines(W("run/games.jsonl"), lines, UNITS + 1);
  TK_EQ(n, UNITS, "games.jsonl lines");
  for (int i = 0; i < n; i++) {
    json_t *seats = json_object_get(lines[i], "seats");
    char line[256];
    snprintf(line, sizeof line, "unit-%08d.jsonl: ", (int)json_integer_value(json_object_get(lines[i], "unit")));
    const char *at = strstr(out_buf, line);
    const char *fs = at ? strstr(at, "final scores ") : NULL;
    long long pts[4] = {0};
    for (int s = 0; s < 4; s++)
      pts[s] = (long long)json_integer_value(json_object_get(json_array_get(seats, (size_t)s), "points"));
    char scores[128];
    snprintf(scores, sizeof scores, "final scores %lld %lld %lld %lld\n", pts[0], pts[1], pts[2], pts[3]);
    if (!fs || strncmp(fs, scores, strlen(scores))) TK_FAILF("%s: expected '%s'", line, scores);
  }
  free_lines(lines, n > 0 ? n : 0);

  /* the logs/ folder itself, and one file, with --quiet */
  const char *dir[] = {"replay", "--quiet", W("run/logs"), W("run/logs/unit-00000000.jsonl"), NULL};
  TK_EQ(taikai(dir), 0, "replay of logs/ and a file");
  snprintf(want, sizeof want, "%d logs, %d games replayed, 0 mismatches\n", UNITS + 1, UNITS + 1);
  if (strcmp(out_buf, want)) TK_FAILF("--quiet: expected only '%s', got:\n%s", want, out_buf);
}

/* One hora delta changed in a copy of the logs: that log fails at that line, the others pass. */
static void tampered(void) {
  if (!ran) return;
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", W("tampered"), W("run/logs"), W("tampered"));
  TK_EQ(system(cmd), 0, "copy the logs");
  char path[1600] = "";
  int at = 0, horas = 0;
  for (int u = 0; u < UNITS && !at; u++) {
    char name[64];
    snprintf(name, sizeof name, "tampered/unit-%08d.jsonl", u);
    snprintf(path, sizeof path, "%s", W(name));
    json_t *l[4096];
    int n = load_lines(path, l, 4096);
    for (int i = 0; i < n && !at; i++) {
      const char *type = json_string_value(json_object_get(l[i], "type"));
      if (!type || strcmp(type, "hora")) continue;
      horas++;
      /* the winner is paid 1000 more than the kernel's score gives */
      json_t *deltas = json_object_get(l[i], "deltas");
      size_t winner = (size_t)json_integer_value(json_object_get(l[i], "actor"));
      json_int_t d = json_integer_value(json_array_get(deltas, winner));
      json_array_set_new(deltas, winner, json_integer(d + 1000));
      at = i + 1;
    }
    if (at) {
      FILE *f = fopen(path, "w");
      for (int i = 0; f && i < n; i++) {
        char *s = json_dumps(l[i], JSON_COMPACT | JSON_PRESERVE_ORDER);
        fprintf(f, "%s\n", s);
        free(s);
      }
      if (f) fclose(f);
    }
    free_lines(l, n > 0 ? n : 0);
  }
  TK_EQ(horas, 1, "a log with a win");
  CU_ASSERT_FATAL(at > 0);

  const char *args[] = {"replay", W("tampered"), NULL};
  TK_EQ(taikai(args), 1, "tampered: exit 1");
  char want[2000];
  snprintf(want, sizeof want, "MISMATCH %s:%d: hora: differs in deltas\n  expected: [", path, at);
  if (!strstr(out_buf, want)) TK_FAILF("expected '%s' in:\n%s", want, out_buf);
  snprintf(want, sizeof want, "%d logs, %d games replayed, 1 mismatch\n", UNITS, UNITS - 1);
  if (!strstr(out_buf, want)) TK_FAILF("expected '%s' in:\n%s", want, out_buf);
  TK_EQ(count_lines(out_buf, "OK "), UNITS - 1, "the other logs still replay");

  const char *one[] = {"replay", path, NULL};
  TK_EQ(taikai(one), 1, "the tampered file alone: exit 1");
  if (!strstr(out_buf, "1 log, 0 games replayed, 1 mismatch\n")) TK_FAILF("got:\n%s", out_buf);
}

/* What cannot be read is refused with exit 2 and its name. */
static void refusals(void) {
  const char *missing[] = {"replay", W("run/logs/unit-00000000.jsonl"), W("no-such-log.jsonl"), NULL};
  TK_EQ(taikai(missing), 2, "missing file: exit 2");
  char want[1800];
  snprintf(want, sizeof want, "taikai replay: %s: No such file or directory", W("no-such-log.jsonl"));
  if (!strstr(err_buf, want)) TK_FAILF("expected '%s' in:\n%s", want, err_buf);
  TK_EQ(out_buf[0], '\0', "nothing replayed");

  mkdir(W("empty"), 0777);
  const char *empty[] = {"replay", W("empty"), NULL};
  TK_EQ(taikai(empty), 2, "a folder without logs: exit 2");
  if (!strstr(err_buf, "no *.jsonl log in this folder")) TK_FAILF("got: %s", err_buf);

  if (ran) { /* a run folder without logs/ */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cp '%s' '%s/'", W("nologs"),
             W("nologs"), W("run/spec.json"), W("nologs"));
    TK_EQ(system(cmd), 0, "a run folder without logs");
    const char *nologs[] = {"replay", W("nologs"), NULL};
    TK_EQ(taikai(nologs), 2, "a run without --logs: exit 2");
    if (!strstr(err_buf, "a run folder without logs/")) TK_FAILF("got: %s", err_buf);
  }

  const char *none[] = {"replay", NULL};
  TK_EQ(taikai(none), 2, "no argument: exit 2");
  if (!strstr(err_buf, "usage: taikai replay")) TK_FAILF("got: %s", err_buf);
  const char *bad[] = {"replay", "--bogus", W("run"), NULL};
  TK_EQ(taikai(bad), 2, "unknown flag: exit 2");
  if (!strstr(err_buf, "unknown option '--bogus'")) TK_FAILF("got: %s", err_buf);
  const char *help[] = {"replay", "--help", NULL};
  TK_EQ(taikai(help), 0, "--help");
  if (!strstr(out_buf, "Exit status")) TK_FAILF("got: %s", out_buf);
  const char *top[] = {"--help", NULL};
  TK_EQ(taikai(top), 0, "taikai --help");
  if (!strstr(out_buf, "  replay ")) TK_FAILF("taikai --help does not list replay:\n%s", out_buf);
}

int main(void) {
  snprintf(work_dir, sizeof work_dir, "%s", TK_WORK_DIR_REPLAY);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", work_dir);
  if (system(cmd)) return 1;
  mkdir(work_dir, 0777);
  CU_TestInfo tests[] = {
      {"taikai run --logs, then taikai replay: every log replays", run_and_replay},
      {"a tampered hora delta is caught at its line", tampered},
      {"missing files, empty folders and bad flags are refused", refusals},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_replay", tests);
}
