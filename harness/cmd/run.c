/* harness/cmd/run.c — `taikai run SPEC [-j N] [--walls N] [--seed S] [--out DIR] [--resume]
 *   [--logs[=gz|run|run,gz]] [--records] [--shard K/N] [--mpi]`: its options and usage; the
 * tournament itself is tk_run_tournament (harness/run/tournament.c). */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "summary.h"
#include "runargs.h"
#include "shard.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai run SPEC [-j N] [--walls N] [--seed S] [--out DIR] [--resume]\n"
          "                      [--logs[=gz|run|run,gz]] [--records] [--shard K/N] [--quiet]\n"
          "                      [--no-html]\n"
          "                      [--sprt ...] [--mpi]\n"
          "\n"
          "Plays the tournament described by the JSON file SPEC (schema: harness/spec.schema.json)\n"
          "and writes spec.json, games.jsonl, summary.json, report.md and report.html (one\n"
          "self-contained page of tables and charts) into its output folder, then prints a\n"
          "table of every agent's metrics with confidence intervals and the paired\n"
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
          "              DIR/logs/unit-NNNNNNNN.jsonl in the game's format (riichi: mjai,\n"
          "              readable by mjai tools; docs/GAME.md); checked by taikai replay\n"
          "  --logs=gz   the same, gzip-compressed: DIR/logs/unit-NNNNNNNN.jsonl.gz (also\n"
          "              --logs-gzip; taikai replay reads either)\n"
          "  --logs=run  the same lines in one file for the run, unit after unit in unit\n"
          "              order: DIR/logs/run.jsonl (its unit boundaries in DIR/logs/run.index,\n"
          "              for --resume); the same bytes whatever -j, and after a resume\n"
          "  --logs=run,gz  the same, gzip-compressed (one gzip member per unit):\n"
          "              DIR/logs/run.jsonl.gz\n"
          "  --records   also write every agent decision (view, legal actions, action) and each\n"
          "              unit's outcome to DIR/records.tkr, for training (taikai records DIR)\n"
          "  --shard K/N play only shard K of N (1 <= K <= N <= the walls): walls\n"
          "              [(K-1)W/N, KW/N) of the W, rounded down, into the output folder\n"
          "              \"<output>-shard-K-of-N\" (--out: that folder instead); spec.json and\n"
          "              summary.json record the shard; a shard resumes like a run, and\n"
          "              `taikai merge` joins the shards into the whole run's files\n"
          "              (docs/cluster.md: Slurm job arrays, GNU parallel)\n"
          "  --quiet     no progress on stderr\n"
          "  --no-html   no report.html\n"
          "  --sprt      stop by a sequential test (taikai gate --help: the same options)\n"
          "  --mpi       under mpirun (mpirun -n P taikai run SPEC --mpi): rank 0 hands out\n"
          "              units and writes every output, each other rank plays them with -j\n"
          "              workers; the same files as a local run (docs/mpi.md; a build with\n"
          "              -DTAIKAI_MPI=ON)\n"
          "\n"
          "An output folder that already holds a run of the same tournament (same resolved spec,\n"
          "plugin versions and taikai version, and the same bytes in every plugin file and\n"
          "weights file: spec.json records their SHA-256) is continued, with or without\n"
          "--resume: the units in its games.jsonl are kept and only the others are played, so a\n"
          "run killed at any moment finishes with the same summary.json as an uninterrupted one.\n"
          "A folder holding another tournament's run, or a run of a plugin since rebuilt, is\n"
          "refused, never overwritten. The same tournament with fewer walls is extended: its\n"
          "units are kept and the new walls played, as if the run had had them from the start.\n"
          "A spec file may hold at most 1 MiB.\n"
          "\n"
          "Plugins named without a path are looked up in $TAIKAI_PLUGIN_PATH, then in plugins/\n"
          "beside the taikai executable, then in the installed agents' ../lib/taikai/plugins\n"
          "from the executable's folder (when it exists; `taikai plugins` lists the folders).\n"
          "SIGINT or SIGTERM stops the run: finished units are kept and a partial summary is\n"
          "written.\n"
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

/* Parses one of `taikai run`'s options at argv[*i] into `a`; returns 1 if it was one, 0 if
 * not (the caller's own option, or an argument), or -2 (usage error, printed with `cmd`). */
int tk_run_args_option(tk_run_args *a, const char *cmd, int argc, char **argv, int *i) {
  const char *arg = argv[*i];
  const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
  if (arg[0] == '-' && arg[1] == '-' && strcmp(arg, "--quiet")) {
    for (int k = 0; k < a->nseen; k++)
      if (!strcmp(a->seen[k], arg)) {
        fprintf(stderr, "taikai %s: %s given twice\n", cmd, arg);
        return -2;
      }
    if (a->nseen < (int)(sizeof a->seen / sizeof a->seen[0])) a->seen[a->nseen++] = arg;
  }
  if (!strcmp(arg, "-j") || !strcmp(arg, "--jobs")) {
    if (parse_u64(v, 1024, &a->jobs) || !a->jobs) {
      fprintf(stderr, "taikai %s: -j expects a number of workers from 1 to 1024, got '%s'\n", cmd,
              v ? v : "(nothing)");
      return -2;
    }
    (*i)++;
  } else if (!strncmp(arg, "-j", 2) && arg[2]) {
    if (parse_u64(arg + 2, 1024, &a->jobs) || !a->jobs) {
      fprintf(stderr, "taikai %s: -j expects a number of workers from 1 to 1024, got '%s'\n", cmd,
              arg + 2);
      return -2;
    }
  } else if (!strcmp(arg, "--walls")) {
    if (parse_u64(v, 1000000000, &a->walls) || !a->walls) {
      fprintf(stderr, "taikai %s: --walls expects a number from 1 to 1000000000, got '%s'\n", cmd,
              v ? v : "(nothing)");
      return -2;
    }
    (*i)++;
  } else if (!strcmp(arg, "--seed")) {
    if (parse_u64(v, INT64_MAX, &a->seed)) {
      fprintf(stderr, "taikai %s: --seed expects an integer from 0 to 2^63-1, got '%s'\n", cmd,
              v ? v : "(nothing)");
      return -2;
    }
    a->have_seed = 1;
    (*i)++;
  } else if (!strcmp(arg, "--out")) {
    if (!v || !*v) {
      fprintf(stderr, "taikai %s: --out expects a folder name, got '%s'\n", cmd,
              v ? v : "(nothing)");
      return -2;
    }
    a->out = v;
    (*i)++;
  } else if (!strcmp(arg, "--resume")) {
    a->resume = 1;
  } else if (!strcmp(arg, "--logs") || !strcmp(arg, "--logs-gzip") || !strncmp(arg, "--logs=", 7)) {
    /* --logs[=FORM] with FORM plain, gz, run, run,gz (or gz,run) */
    const char *form = arg[6] == '=' ? arg + 7 : "";
    int gz = !strcmp(arg, "--logs-gzip") || !strcmp(form, "gz") || !strcmp(form, "run,gz") ||
             !strcmp(form, "gz,run");
    int per_run = !strcmp(form, "run") || !strcmp(form, "run,gz") || !strcmp(form, "gz,run");
    if (arg[6] == '=' && !gz && !per_run && strcmp(form, "plain")) {
      fprintf(stderr, "taikai %s: --logs= expects gz, plain, run or run,gz, got '%s'\n", cmd,
              form);
      return -2;
    }
    if (a->logs && a->logs != 1 + gz) {
      fprintf(stderr, "taikai %s: %s: the logs are either plain or gzip-compressed, not both\n",
              cmd, arg);
      return -2;
    }
    if (a->logs && a->logs_run != per_run) {
      fprintf(stderr, "taikai %s: %s: the logs are either one file per unit or one file for the "
              "run (--logs=run), not both\n", cmd, arg);
      return -2;
    }
    a->logs = 1 + gz;
    a->logs_run = per_run;
  } else if (!strcmp(arg, "--records")) {
    a->records = 1;
  } else if (!strcmp(arg, "--mpi")) {
    a->mpi = 1;
  } else if (!strcmp(arg, "--shard")) {
    if (tk_shard_parse(v, &a->shard_k, &a->shard_n)) {
      fprintf(stderr, "taikai %s: --shard expects K/N with 1 <= K <= N <= %d (shard K of N), "
              "got '%s'\n", cmd, TK_SHARD_MAX, v ? v : "(nothing)");
      return -2;
    }
    (*i)++;
  } else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
    a->quiet = 1;
  } else if (!strcmp(arg, "--no-html")) {
    a->no_html = 1;
  } else {
    return 0;
  }
  return 1;
}

int tk_cmd_run(int argc, char **argv) {
  tk_run_args a;
  memset(&a, 0, sizeof a);
  int sprt = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--sprt")) sprt = 1;
  }
  /* a sequential test as the stopping rule: the gate's command with the gate's options */
  if (sprt) return tk_gate_main(argc, argv, "run");
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    int k = tk_run_args_option(&a, "run", argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "taikai run: unknown option '%s' (see taikai run --help)\n", arg);
      return 2;
    } else if (!a.spec_path) {
      a.spec_path = arg;
    } else {
      fprintf(stderr, "taikai run: one spec at a time (got '%s' and '%s')\n", a.spec_path, arg);
      return 2;
    }
  }
  if (!a.spec_path) {
    usage(stderr);
    return 2;
  }
  return tk_run_tournament(&a, "run", NULL, NULL);
}
