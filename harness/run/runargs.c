/* harness/run/runargs.c — `taikai run`'s options as a table (runargs.h), shared by every
 * command that runs a tournament: `taikai run`, `taikai gate`, `taikai serve`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runargs.h"
#include "shard.h"

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

