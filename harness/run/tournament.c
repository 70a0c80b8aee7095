/* harness/run/tournament.c — tk_run_tournament (runargs.h), the body of `taikai run`, `taikai
 * gate` and `taikai serve`: the spec loaded and the options applied, the run prepared, the output
 * folder decided (a new run, the same tournament continued or extended, or a refusal), the
 * units played, the table printed, and the exit status. */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "runargs.h"
#include "shard.h"
#include "summary.h"

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

/* Loads a->spec_path into *spec with the command's overrides (walls, seed, jobs, output folder,
 * shard) and the caller's edit, and checks the shard against it. Returns 0, or the exit status
 * after printing why (*spec freed then). */
static int load_spec(const tk_run_args *a, const char *cmd, void *hook_ctx, int has_hook,
                     tk_spec *spec, tk_error *err) {
  if (tk_spec_load(a->spec_path, spec, err)) {
    fprintf(stderr, "taikai %s: %s\n", cmd, err->msg);
    return 2;
  }
  if (a->walls) spec->walls = a->walls;
  if (a->have_seed) spec->seed = a->seed;
  if (a->jobs) spec->jobs = (int)a->jobs;
  if (a->shard_n && a->shard_n > spec->walls) {
    fprintf(stderr, "taikai %s: --shard %u/%u: %s plays %llu walls, and a shard holds whole "
            "walls: at most %llu shards\n", cmd, a->shard_k, a->shard_n, a->spec_path,
            (unsigned long long)spec->walls, (unsigned long long)spec->walls);
    tk_spec_free(spec);
    return 2;
  }
  if (a->shard_n && has_hook) {
    fprintf(stderr, "taikai %s: --shard: only a plain `taikai run` plays a shard (a sequential "
            "test decides on the walls in the order they are played; taikai serve plays the "
            "whole tournament)\n", cmd);
    tk_spec_free(spec);
    return 2;
  }
  if (a->out) {
    free(spec->output);
    spec->output = strdup(a->out);
  } else if (a->shard_n) { /* each shard its own folder beside the whole run's */
    size_t len = strlen(spec->output) + 48;
    char *o = malloc(len);
    if (o) snprintf(o, len, "%s-shard-%u-of-%u", spec->output, a->shard_k, a->shard_n);
    free(spec->output);
    spec->output = o;
  }
  if (!spec->output) {
    fprintf(stderr, "taikai %s: out of memory\n", cmd);
    tk_spec_free(spec);
    return 1;
  }
  if (a->edit && a->edit(hook_ctx, spec, err)) {
    fprintf(stderr, "taikai %s: %s\n", cmd, err->msg);
    tk_spec_free(spec);
    return 2;
  }
  return 0;
}

/* Whether the prepared `run` is refused for this command: an external seat outside `taikai
 * serve`, or --logs for a game without logs. Returns 0, or 2 after printing why. */
static int run_refused(const tk_run_args *a, const char *cmd, const tk_run *run) {
  if (!a->external_ok && tk_run_has_external(run)) {
    for (int i = 0; i < run->spec.nagents; i++)
      if (run->spec.agents[i].external) {
        fprintf(stderr, "taikai %s: refused: %s: agent '%s' (agents[%d]) is external: only "
                "`taikai serve` plays external seats\n", cmd, run->spec.path,
                run->spec.agents[i].label, i);
        break;
      }
    return 2;
  }
  if (a->logs && !run->game->logs) {
    char have[256] = "";
    size_t n = 0;
    for (const tk_game *const *g = tk_game_all(); *g; g++)
      if ((*g)->logs && n < sizeof have)
        n += (size_t)snprintf(have + n, sizeof have - n, "%s%s", n ? ", " : "", (*g)->name);
    fprintf(stderr, "taikai %s: --logs: game '%s' has no game logs (games with logs: %s)\n", cmd,
            run->spec.game, have);
    return 2;
  }
  return 0;
}

/* `--logs`: sets run->logs_dir (<output>/logs, or logs/.units beside the run's one file
 * run->logs_run with --logs=run) and creates it. Returns 0, or the exit status after printing
 * why (the run is the caller's to free). */
static int open_logs(const tk_run_args *a, const char *cmd, tk_run *run, tk_error *err) {
  size_t len = strlen(run->spec.output) + sizeof "/logs";
  if (!(run->logs_dir = malloc(len))) {
    fprintf(stderr, "taikai %s: out of memory\n", cmd);
    return 1;
  }
  snprintf(run->logs_dir, len, "%s/logs", run->spec.output);
  run->logs_gzip = a->logs == 2;
  if (a->logs_run) { /* the workers' unit logs go to logs/.units, the run's file beside it */
    size_t rl = len + sizeof "/run.jsonl.gz", ul = len + sizeof "/.units";
    char *units = malloc(ul);
    if (!units || !(run->logs_run = malloc(rl))) {
      free(units);
      fprintf(stderr, "taikai %s: out of memory\n", cmd);
      return 1;
    }
    snprintf(run->logs_run, rl, "%s/run.jsonl%s", run->logs_dir, run->logs_gzip ? ".gz" : "");
    snprintf(units, ul, "%s/.units", run->logs_dir);
    free(run->logs_dir);
    run->logs_dir = units;
  }
  if (tk_mkdirs(run->logs_dir, err)) {
    fprintf(stderr, "taikai %s: refused: --logs: %s\n", cmd, err->msg);
    return 2;
  }
  return 0;
}

/* Prints what a finished (or cleanly stopped) run did: the units kept from an earlier command,
 * those without a log, the summary's table and the files written. */
static void print_run(const tk_run_args *a, const char *cmd, const tk_run *run, json_t *sum,
                      const tk_run_outcome *outcome, int existing) {
  uint64_t first, end;
  tk_run_units(run, &first, &end);
  uint64_t units = end - first;
  if (existing && !a->quiet)
    fprintf(stderr, "taikai %s: %s: %s a run of this tournament (%llu of %llu units were "
            "already done)\n", cmd, run->spec.output, existing == 2 ? "extended" : "continued",
            (unsigned long long)outcome->resumed, (unsigned long long)units);
  uint64_t unlogged = existing && a->logs && !a->logs_run
                          ? units_without_log(run->logs_dir, first, outcome->resumed) : 0;
  if (unlogged)
    fprintf(stderr, "taikai %s: --logs: %llu of the %llu units played before this command have "
            "no log in %s (played without --logs)\n", cmd, (unsigned long long)unlogged,
            (unsigned long long)outcome->resumed, run->logs_dir);
  tk_summary_table(run, sum, stdout);
  printf("\nwrote %s/{spec.json,games.jsonl,summary.json,report.md%s%s%s}\n", run->spec.output,
         a->no_html ? "" : ",report.html", a->records ? ",records.tkr" : "",
         a->logs_run ? (a->logs == 2 ? ",logs/run.jsonl.gz" : ",logs/run.jsonl")
                     : a->logs ? ",logs/" : "");
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
  int status = load_spec(a, cmd, hook_ctx, hook != NULL, &spec, &err);
  if (status) return status;
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
  if ((status = run_refused(a, cmd, &run))) {
    tk_run_free(&run);
    return status;
  }
  run.records = a->records;
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
  if (a->logs && (status = open_logs(a, cmd, &run, &err))) {
    tk_run_free(&run);
    return status;
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
  print_run(a, cmd, &run, sum, &outcome, existing);
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
