/* harness/cmd/run.c — `taikai run SPEC [-j N] [--walls N] [--seed S] [--out DIR] [--resume]
 *   [--logs[=gz|run|run,gz]] [--records] [--shard K/N] [--mpi]`:
 * options, the output folder decision (new run, continue the same tournament, or refuse), the
 * run, and its exit status. */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
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
          "              DIR/logs/unit-NNNNNNNN.jsonl (riichi: mjai-style, readable by mjai\n"
          "              tools; daifugo: one block per file, docs/daifugo.md); checked by\n"
          "              taikai replay\n"
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

/* How many of the units [first, first + n) have no log in `logs_dir` (unit-NNNNNNNN.jsonl or
 * .jsonl.gz, whichever the run that played them wrote): the units a continued or extended run
 * kept from a run without --logs. */
static uint64_t units_without_log(const char *logs_dir, uint64_t first, uint64_t n) {
  uint64_t missing = 0;
  char path[TK_PATH_MAX + 40];
  for (uint64_t u = first; u < first + n; u++) {
    snprintf(path, sizeof path, "%s/unit-%08llu.jsonl", logs_dir, (unsigned long long)u);
    if (access(path, F_OK)) {
      strcat(path, ".gz");
      if (access(path, F_OK)) missing++;
    }
  }
  return missing;
}

/* --logs[=FORM], FORM plain, gz, run, run,gz (or gz,run): one or the other of plain and gzip,
 * of a file per unit and a file for the run, however often given. */
static int logs_option(void *dest, const char *spelling, const char *form, tk_error *err) {
  tk_run_args *a = dest;
  int gz = !strcmp(spelling, "--logs-gzip");
  if (gz && form)
    return tk_error_set(err, TK_EINVAL, -1, "--logs-gzip takes no value (got '%s')", form);
  if (!form) form = gz ? "gz" : "";
  gz = !strcmp(form, "gz") || !strcmp(form, "run,gz") || !strcmp(form, "gz,run");
  int per_run = !strcmp(form, "run") || !strcmp(form, "run,gz") || !strcmp(form, "gz,run");
  if (*form && !gz && !per_run && strcmp(form, "plain"))
    return tk_error_set(err, TK_EINVAL, -1, "--logs= expects gz, plain, run or run,gz, got '%s'",
                        form);
  if (a->logs && a->logs != 1 + gz)
    return tk_error_set(err, TK_EINVAL, -1, "%s: the logs are either plain or gzip-compressed, "
                        "not both", spelling);
  if (a->logs && a->logs_run != per_run)
    return tk_error_set(err, TK_EINVAL, -1, "%s: the logs are either one file per unit or one "
                        "file for the run (--logs=run), not both", spelling);
  a->logs = 1 + gz;
  a->logs_run = per_run;
  return 0;
}

/* --shard K/N (harness/core/shard.h). */
static int shard_option(void *dest, const char *spelling, const char *v, tk_error *err) {
  tk_run_args *a = dest;
  (void)spelling;
  if (tk_shard_parse(v, &a->shard_k, &a->shard_n))
    return tk_error_set(err, TK_EINVAL, -1, "--shard expects K/N with 1 <= K <= N <= %d (shard K "
                        "of N), got '%s'", TK_SHARD_MAX, v);
  return 0;
}

int tk_run_args_table(tk_run_args *a, tk_opt *t, int cap) {
  const tk_opt run[] = {
      {.name = "jobs", .short_name = 'j', .kind = TK_OPT_U64, .dest = &a->jobs, .once = 1,
       .value = "N", .min = 1, .max = 1024, .help = "worker processes"},
      {.name = "walls", .kind = TK_OPT_U64, .dest = &a->walls, .once = 1, .value = "N", .min = 1,
       .max = 1000000000, .help = "number of walls (overrides \"walls\")"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &a->seed, .given = &a->have_seed, .once = 1,
       .value = "S", .max = INT64_MAX, .help = "tournament seed (overrides \"seed\")"},
      {.name = "out", .kind = TK_OPT_STRING, .dest = &a->out, .once = 1, .value = "DIR",
       .help = "output folder (overrides \"output\")"},
      {.name = "resume", .kind = TK_OPT_FLAG, .dest = &a->resume, .once = 1,
       .help = "continue the interrupted run in the output folder"},
      {.name = "logs", .kind = TK_OPT_CALL, .dest = a, .call = logs_option, .optional = 1,
       .value = "[=FORM]", .help = "every game as JSON lines (FORM: plain, gz, run, run,gz)"},
      {.name = "logs-gzip", .kind = TK_OPT_CALL, .dest = a, .call = logs_option, .optional = 1,
       .once = 1, .help = "--logs=gz"},
      {.name = "records", .kind = TK_OPT_FLAG, .dest = &a->records, .once = 1,
       .help = "every agent decision into DIR/records.tkr"},
      {.name = "shard", .kind = TK_OPT_CALL, .dest = a, .call = shard_option, .once = 1,
       .value = "K/N", .help = "play only shard K of N"},
      {.name = "quiet", .short_name = 'q', .kind = TK_OPT_FLAG, .dest = &a->quiet,
       .help = "no progress on stderr"},
      {.name = "no-html", .kind = TK_OPT_FLAG, .dest = &a->no_html, .once = 1,
       .help = "no report.html"},
      {.name = "mpi", .kind = TK_OPT_FLAG, .dest = &a->mpi, .once = 1,
       .help = "under mpirun: rank 0 hands out units"},
  };
  int n = (int)(sizeof run / sizeof run[0]);
  if (n >= cap) return -1;
  memcpy(t, run, sizeof run);
  t[n] = (tk_opt){.name = NULL};
  return n;
}

int tk_run_args_option(tk_run_args *a, const char *cmd, int argc, char **argv, int *i) {
  tk_opt t[TK_RUN_NOPTS];
  tk_run_args_table(a, t, TK_RUN_NOPTS);
  return tk_opts_one(cmd, t, &a->seen, argc, argv, i);
}

int tk_run_tournament(const tk_run_args *a, const char *cmd, tk_run_hook hook, void *hook_ctx) {
  if (a->mpi && a->shard_n) {
    /* a shard is one machine's share; MPI shares one run among ranks: one or the other */
    fprintf(stderr, "taikai %s: --shard and --mpi do not go together: under mpirun the ranks "
            "share the whole run (drop --shard), or run each shard without --mpi\n", cmd);
    return 2;
  }
  if (a->mpi) return tk_run_mpi(a, cmd, hook, hook_ctx);
  tk_error err;
  tk_error_clear(&err);
  tk_spec spec;
  if (tk_spec_load(a->spec_path, &spec, &err)) {
    fprintf(stderr, "taikai %s: %s\n", cmd, err.msg);
    return 2;
  }
  if (a->walls) spec.walls = a->walls;
  if (a->have_seed) spec.seed = a->seed;
  if (a->jobs) spec.jobs = (int)a->jobs;
  if (a->shard_n && a->shard_n > spec.walls) {
    fprintf(stderr, "taikai %s: --shard %u/%u: %s plays %llu walls, and a shard holds whole "
            "walls: at most %llu shards\n", cmd, a->shard_k, a->shard_n, a->spec_path,
            (unsigned long long)spec.walls, (unsigned long long)spec.walls);
    tk_spec_free(&spec);
    return 2;
  }
  if (a->shard_n && hook) {
    fprintf(stderr, "taikai %s: --shard: only a plain `taikai run` plays a shard (a sequential "
            "test decides on the walls in the order they are played; taikai serve plays the "
            "whole tournament)\n", cmd);
    tk_spec_free(&spec);
    return 2;
  }
  if (a->out) {
    free(spec.output);
    spec.output = strdup(a->out);
  } else if (a->shard_n) { /* each shard its own folder beside the whole run's */
    size_t len = strlen(spec.output) + 48;
    char *o = malloc(len);
    if (o) snprintf(o, len, "%s-shard-%u-of-%u", spec.output, a->shard_k, a->shard_n);
    free(spec.output);
    spec.output = o;
  }
  if (!spec.output) {
    fprintf(stderr, "taikai %s: out of memory\n", cmd);
    tk_spec_free(&spec);
    return 1;
  }
  if (a->edit && a->edit(hook_ctx, &spec, &err)) {
    fprintf(stderr, "taikai %s: %s\n", cmd, err.msg);
    tk_spec_free(&spec);
    return 2;
  }
  char dirbuf[TK_PATH_MAX];
  snprintf(dirbuf, sizeof dirbuf, "%s", a->spec_path);
  const char *spec_dir = dirname(dirbuf);
  tk_run run;
  if (tk_run_prepare(&run, &spec, spec_dir, &err)) {
    fprintf(stderr, "taikai %s: refused: %s\n", cmd, err.msg);
    return 2;
  }
  run.shard_index = a->shard_k;
  run.shard_count = a->shard_n;
  if (!a->external_ok && tk_run_has_external(&run)) {
    for (int i = 0; i < run.spec.nagents; i++)
      if (run.spec.agents[i].external) {
        fprintf(stderr, "taikai %s: refused: %s: agent '%s' (agents[%d]) is external: only "
                "`taikai serve` plays external seats\n", cmd, run.spec.path,
                run.spec.agents[i].label, i);
        break;
      }
    tk_run_free(&run);
    return 2;
  }
  run.records = a->records;
  if (a->logs && !run.game->logs) {
    fprintf(stderr, "taikai %s: --logs: game '%s' has no game logs (riichi and daifugo have)\n",
            cmd,
            run.spec.game);
    tk_run_free(&run);
    return 2;
  }
  char who[64];
  snprintf(who, sizeof who, "taikai %s", cmd);
  tk_run_opts o = {.jobs = run.spec.jobs, .out_dir = run.spec.output,
                   .progress = a->quiet ? 0 : -1, .cmd = who, .no_html = a->no_html};
  /* the caller's stopping rule, set up on the prepared run before the folder is touched */
  if (hook && hook(hook_ctx, &run, NULL, &o)) {
    tk_run_free(&run);
    return 2;
  }
  /* the output folder: new, the same tournament to continue or extend, or refused */
  int existing = 0, lock = -1;
  if (tk_outdir_check(&run, run.spec.output, a->resume, &existing, &err) ||
      tk_mkdirs(run.spec.output, &err) || (lock = tk_outdir_lock(run.spec.output, &err)) < 0 ||
      tk_outdir_check(&run, run.spec.output, a->resume, &existing, &err)) { /* again, locked */
    fprintf(stderr, "taikai %s: refused: %s\n", cmd, err.msg);
    tk_run_free(&run);
    return 2;
  }
  if (hook && hook(hook_ctx, &run, run.spec.output, &o)) { /* the folder is the rule's too */
    tk_run_free(&run);
    return 2;
  }
  if (a->logs) {
    size_t len = strlen(run.spec.output) + sizeof "/logs";
    if (!(run.logs_dir = malloc(len))) {
      fprintf(stderr, "taikai %s: out of memory\n", cmd);
      tk_run_free(&run);
      return 1;
    }
    snprintf(run.logs_dir, len, "%s/logs", run.spec.output);
    run.logs_gzip = a->logs == 2;
    if (a->logs_run) { /* the workers' unit logs go to logs/.units, the run's file beside it */
      size_t rl = len + sizeof "/run.jsonl.gz", ul = len + sizeof "/.units";
      char *units = malloc(ul);
      if (!units || !(run.logs_run = malloc(rl))) {
        free(units);
        fprintf(stderr, "taikai %s: out of memory\n", cmd);
        tk_run_free(&run);
        return 1;
      }
      snprintf(run.logs_run, rl, "%s/run.jsonl%s", run.logs_dir, run.logs_gzip ? ".gz" : "");
      snprintf(units, ul, "%s/.units", run.logs_dir);
      free(run.logs_dir);
      run.logs_dir = units;
    }
    if (tk_mkdirs(run.logs_dir, &err)) {
      fprintf(stderr, "taikai %s: refused: --logs: %s\n", cmd, err.msg);
      tk_run_free(&run);
      return 2;
    }
  }
  tk_run_outcome outcome;
  o.resume = existing != 0;
  o.extend = existing == 2;
  o.outcome = &outcome;
  json_t *sum = NULL;
  int rc = tk_run_execute(&run, &o, &sum, &err);
  if (rc) {
    fprintf(stderr, "taikai %s: %s%s\n", cmd, outcome.refused ? "refused: " : "", err.msg);
    tk_run_free(&run);
    return outcome.refused ? 2 : 1;
  }
  uint64_t first, end;
  tk_run_units(&run, &first, &end);
  uint64_t units = end - first;
  if (existing && !a->quiet)
    fprintf(stderr, "taikai %s: %s: %s a run of this tournament (%llu of %llu units were "
            "already done)\n", cmd, run.spec.output, existing == 2 ? "extended" : "continued",
            (unsigned long long)outcome.resumed, (unsigned long long)units);
  uint64_t unlogged = existing && a->logs && !a->logs_run
                          ? units_without_log(run.logs_dir, first, outcome.resumed) : 0;
  if (unlogged)
    fprintf(stderr, "taikai %s: --logs: %llu of the %llu units played before this command have "
            "no log in %s (played without --logs)\n", cmd, (unsigned long long)unlogged,
            (unsigned long long)outcome.resumed, run.logs_dir);
  tk_summary_table(&run, sum, stdout);
  printf("\nwrote %s/{spec.json,games.jsonl,summary.json,report.md%s%s%s}\n", run.spec.output,
         a->no_html ? "" : ",report.html", a->records ? ",records.tkr" : "",
         a->logs_run ? (a->logs == 2 ? ",logs/run.jsonl.gz" : ",logs/run.jsonl")
                     : a->logs ? ",logs/" : "");
  json_decref(sum);
  tk_run_free(&run);
  if (outcome.stopped == TK_STOP_RULE) return 0; /* the rule's caller reports its decision */
  if (outcome.stopped) {
    fprintf(stderr, "taikai %s: stopped: %s; the results so far are saved (summary.json says "
            "\"complete\": false); run the same command again to finish\n", cmd, outcome.why);
    return outcome.stopped == TK_STOP_ABORT ? 3 : 128 + outcome.stopped;
  }
  return 0;
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
