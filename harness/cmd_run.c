/* harness/cmd_run.c — `taikai run SPEC [-j N] [--walls N] [--seed S] [--out DIR]`. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai run SPEC [-j N] [--walls N] [--seed S] [--out DIR] [--resume] [--quiet]\n"
          "\n"
          "Plays the tournament described by the JSON file SPEC (schema: harness/spec.schema.json)\n"
          "and writes spec.json, games.jsonl, summary.json and report.md into its output folder,\n"
          "then prints a table of every agent's metrics with confidence intervals and the paired\n"
          "differences between agents on the same walls.\n"
          "\n"
          "  -j N        worker processes (default: the spec's \"jobs\", else 1); results do not\n"
          "              depend on N\n"
          "  --walls N   number of walls (overrides \"walls\")\n"
          "  --seed S    tournament seed (overrides \"seed\")\n"
          "  --out DIR   output folder (overrides \"output\")\n"
          "  --resume    continue an interrupted run in the output folder: keep the units\n"
          "              already in its games.jsonl (same resolved spec required)\n"
          "  --quiet     no progress on stderr\n"
          "\n"
          "Plugins named without a path are looked up in $TAIKAI_PLUGIN_PATH, then in plugins/\n"
          "beside the taikai executable. Exit status: 0 done, 1 the run failed, 2 bad usage or\n"
          "a spec or plugin refused before the run.\n");
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out) {
  char *end;
  errno = 0;
  if (!s || !*s || *s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v > max) return -1;
  *out = v;
  return 0;
}

int tk_cmd_run(int argc, char **argv) {
  const char *spec_path = NULL, *out = NULL;
  uint64_t jobs = 0, walls = 0, seed = 0;
  int have_seed = 0, quiet = 0, resume = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
      if (parse_u64(v, 1024, &jobs) || !jobs) {
        fprintf(stderr, "taikai run: -j expects a number of workers from 1 to 1024\n");
        return 2;
      }
      i++;
    } else if (!strncmp(a, "-j", 2) && a[2]) {
      if (parse_u64(a + 2, 1024, &jobs) || !jobs) {
        fprintf(stderr, "taikai run: -j expects a number of workers from 1 to 1024\n");
        return 2;
      }
    } else if (!strcmp(a, "--walls")) {
      if (parse_u64(v, 1000000000, &walls) || !walls) {
        fprintf(stderr, "taikai run: --walls expects a number from 1 to 1000000000\n");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--seed")) {
      if (parse_u64(v, INT64_MAX, &seed)) {
        fprintf(stderr, "taikai run: --seed expects a non-negative integer\n");
        return 2;
      }
      have_seed = 1;
      i++;
    } else if (!strcmp(a, "--out")) {
      if (!v) {
        fprintf(stderr, "taikai run: --out expects a folder\n");
        return 2;
      }
      out = v;
      i++;
    } else if (!strcmp(a, "--resume")) {
      resume = 1;
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
      quiet = 1;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "taikai run: unknown option '%s' (see taikai run --help)\n", a);
      return 2;
    } else if (!spec_path) {
      spec_path = a;
    } else {
      fprintf(stderr, "taikai run: one spec at a time (got '%s' and '%s')\n", spec_path, a);
      return 2;
    }
  }
  if (!spec_path) {
    usage(stderr);
    return 2;
  }
  tk_error err;
  tk_error_clear(&err);
  tk_spec spec;
  if (tk_spec_load(spec_path, &spec, &err)) {
    fprintf(stderr, "taikai run: %s\n", err.msg);
    return 2;
  }
  if (walls) spec.walls = walls;
  if (have_seed) spec.seed = seed;
  if (jobs) spec.jobs = (int)jobs;
  if (out) {
    free(spec.output);
    spec.output = strdup(out);
  }
  char dirbuf[TK_PATH_MAX];
  snprintf(dirbuf, sizeof dirbuf, "%s", spec_path);
  const char *spec_dir = dirname(dirbuf);
  tk_run run;
  if (tk_run_prepare(&run, &spec, spec_dir, &err)) {
    fprintf(stderr, "taikai run: refused: %s\n", err.msg);
    return 2;
  }
  tk_run_opts o = {run.spec.jobs, run.spec.output, quiet ? 0 : -1, NULL, resume};
  json_t *sum = NULL;
  int rc = tk_run_execute(&run, &o, &sum, &err);
  if (rc) {
    fprintf(stderr, "taikai run: %s\n", err.msg);
    tk_run_free(&run);
    return 1;
  }
  tk_summary_table(&run, sum, stdout);
  printf("\nwrote %s/{spec.json,games.jsonl,summary.json,report.md}\n", run.spec.output);
  json_decref(sum);
  tk_run_free(&run);
  return 0;
}
