/* harness/cmd/run.c — `taikai run SPEC [-j N] [--walls N] [--seed S] [--out DIR] [--resume]
 *   [--logs[=gz]] [--records]`:
 * options, the output folder decision (new run, continue the same tournament, or refuse), the
 * run, and its exit status. */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai run SPEC [-j N] [--walls N] [--seed S] [--out DIR] [--resume]\n"
          "                      [--logs[=gz]] [--records] [--quiet]\n"
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
          "  --resume    continue the interrupted run in the output folder; an error if the\n"
          "              folder holds no run\n"
          "  --logs      also write every game as JSON lines, one file per unit:\n"
          "              DIR/logs/unit-NNNNNNNN.jsonl (riichi: mjai-style, readable by mjai\n"
          "              tools; daifugo: one block per file, docs/daifugo.md); checked by\n"
          "              taikai replay\n"
          "  --logs=gz   the same, gzip-compressed: DIR/logs/unit-NNNNNNNN.jsonl.gz (also\n"
          "              --logs-gzip; taikai replay reads either)\n"
          "  --records   also write every agent decision (view, legal actions, action) and each\n"
          "              unit's outcome to DIR/records.tkr, for training (taikai records DIR)\n"
          "  --quiet     no progress on stderr\n"
          "\n"
          "An output folder that already holds a run of the same tournament (same resolved spec,\n"
          "plugin versions and taikai version, and the same bytes in every plugin file and\n"
          "weights file: spec.json records their SHA-256) is continued, with or without\n"
          "--resume: the units in its games.jsonl are kept and only the others are played, so a\n"
          "run killed at any moment finishes with the same summary.json as an uninterrupted one.\n"
          "A folder holding another tournament's run, or a run of a plugin since rebuilt, is\n"
          "refused, never overwritten. A spec file may hold at most 1 MiB.\n"
          "\n"
          "Plugins named without a path are looked up in $TAIKAI_PLUGIN_PATH, then in plugins/\n"
          "beside the taikai executable. SIGINT or SIGTERM stops the run: finished units are\n"
          "kept and a partial summary is written.\n"
          "\n"
          "Exit status: 0 done; 1 the run failed; 2 bad usage, or a spec, plugin or output\n"
          "folder refused before the run; 3 stopped by the fault policy \"abort\"; 130 / 143\n"
          "stopped by SIGINT / SIGTERM (3, 130, 143: partial results saved, run the same\n"
          "command again to finish).\n");
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
  const char *spec_path = NULL, *out = NULL, *seen_flag[8] = {0};
  int nseen = 0;
  uint64_t jobs = 0, walls = 0, seed = 0;
  int have_seed = 0, quiet = 0, resume = 0, logs = 0, records = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (a[0] == '-' && a[1] == '-' && strcmp(a, "--help") && strcmp(a, "--quiet")) {
      for (int k = 0; k < nseen; k++)
        if (!strcmp(seen_flag[k], a)) {
          fprintf(stderr, "taikai run: %s given twice\n", a);
          return 2;
        }
      if (nseen < 8) seen_flag[nseen++] = a;
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
      if (parse_u64(v, 1024, &jobs) || !jobs) {
        fprintf(stderr, "taikai run: -j expects a number of workers from 1 to 1024, got '%s'\n",
                v ? v : "(nothing)");
        return 2;
      }
      i++;
    } else if (!strncmp(a, "-j", 2) && a[2]) {
      if (parse_u64(a + 2, 1024, &jobs) || !jobs) {
        fprintf(stderr, "taikai run: -j expects a number of workers from 1 to 1024, got '%s'\n",
                a + 2);
        return 2;
      }
    } else if (!strcmp(a, "--walls")) {
      if (parse_u64(v, 1000000000, &walls) || !walls) {
        fprintf(stderr, "taikai run: --walls expects a number from 1 to 1000000000, got '%s'\n",
                v ? v : "(nothing)");
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--seed")) {
      if (parse_u64(v, INT64_MAX, &seed)) {
        fprintf(stderr, "taikai run: --seed expects an integer from 0 to 2^63-1, got '%s'\n",
                v ? v : "(nothing)");
        return 2;
      }
      have_seed = 1;
      i++;
    } else if (!strcmp(a, "--out")) {
      if (!v || !*v) {
        fprintf(stderr, "taikai run: --out expects a folder name, got '%s'\n", v ? v : "(nothing)");
        return 2;
      }
      out = v;
      i++;
    } else if (!strcmp(a, "--resume")) {
      resume = 1;
    } else if (!strcmp(a, "--logs") || !strcmp(a, "--logs=plain") || !strcmp(a, "--logs=gz") ||
               !strcmp(a, "--logs-gzip")) {
      int gz = !strcmp(a, "--logs=gz") || !strcmp(a, "--logs-gzip");
      if (logs && logs != 1 + gz) {
        fprintf(stderr, "taikai run: %s: the logs are either plain or gzip-compressed, not both\n",
                a);
        return 2;
      }
      logs = 1 + gz;
    } else if (!strncmp(a, "--logs=", 7)) {
      fprintf(stderr, "taikai run: --logs= expects gz or plain, got '%s'\n", a + 7);
      return 2;
    } else if (!strcmp(a, "--records")) {
      records = 1;
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
  run.records = records;
  if (logs && !run.game->logs) {
    fprintf(stderr, "taikai run: --logs: game '%s' has no game logs (riichi and daifugo have)\n",
            run.spec.game);
    tk_run_free(&run);
    return 2;
  }
  /* the output folder: new, the same tournament to continue, or refused */
  int existing = 0, lock = -1;
  if (tk_outdir_check(&run, run.spec.output, resume, &existing, &err) ||
      tk_mkdirs(run.spec.output, &err) || (lock = tk_outdir_lock(run.spec.output, &err)) < 0 ||
      tk_outdir_check(&run, run.spec.output, resume, &existing, &err)) { /* again, locked */
    fprintf(stderr, "taikai run: refused: %s\n", err.msg);
    tk_run_free(&run);
    return 2;
  }
  if (logs) {
    size_t len = strlen(run.spec.output) + sizeof "/logs";
    if (!(run.logs_dir = malloc(len))) {
      fprintf(stderr, "taikai run: out of memory\n");
      tk_run_free(&run);
      return 1;
    }
    snprintf(run.logs_dir, len, "%s/logs", run.spec.output);
    run.logs_gzip = logs == 2;
    if (tk_mkdirs(run.logs_dir, &err)) {
      fprintf(stderr, "taikai run: refused: --logs: %s\n", err.msg);
      tk_run_free(&run);
      return 2;
    }
  }
  tk_run_outcome outcome;
  tk_run_opts o = {run.spec.jobs, run.spec.output, quiet ? 0 : -1, NULL, existing, &outcome};
  json_t *sum = NULL;
  int rc = tk_run_execute(&run, &o, &sum, &err);
  if (rc) {
    fprintf(stderr, "taikai run: %s\n", err.msg);
    tk_run_free(&run);
    return 1;
  }
  uint64_t units = tk_schedule_units(&run.sched);
  if (existing && !quiet)
    fprintf(stderr, "taikai run: %s: continued a run of this tournament (%llu of %llu units were "
            "already done)\n", run.spec.output, (unsigned long long)outcome.resumed,
            (unsigned long long)units);
  if (existing && logs && outcome.resumed)
    fprintf(stderr, "taikai run: --logs: the %llu units played before this command have logs "
            "only if that run had --logs\n", (unsigned long long)outcome.resumed);
  tk_summary_table(&run, sum, stdout);
  printf("\nwrote %s/{spec.json,games.jsonl,summary.json,report.md%s%s}\n", run.spec.output,
         records ? ",records.tkr" : "", logs ? ",logs/" : "");
  json_decref(sum);
  tk_run_free(&run);
  if (outcome.stopped) {
    fprintf(stderr, "taikai run: stopped: %s; the results so far are saved (summary.json says "
            "\"complete\": false); run the same command again to finish\n", outcome.why);
    return outcome.stopped == TK_STOP_ABORT ? 3 : 128 + outcome.stopped;
  }
  return 0;
}
