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
  tk_opt t[TK_RUN_NOPTS];
  tk_run_args_table(&a, t, TK_RUN_NOPTS);
  const char *pos[2];
  int npos = 0;
  if (tk_opts_parse("run", t, argc, argv, pos, 2, &npos)) return 2;
  if (npos > 1) {
    fprintf(stderr, "taikai run: one spec at a time (got '%s' and '%s')\n", pos[0], pos[1]);
    return 2;
  }
  a.spec_path = npos ? pos[0] : NULL;
  if (!a.spec_path) {
    usage(stderr);
    return 2;
  }
  return tk_run_tournament(&a, "run", NULL, NULL);
}
