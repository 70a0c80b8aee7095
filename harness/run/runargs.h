/* harness/run/runargs.h — `taikai run`'s options and body, shared with the commands that run a
 * tournament with a stopping rule (`taikai gate`, `taikai run --sprt`). */
#ifndef TAIKAI_HARNESS_RUNARGS_H
#define TAIKAI_HARNESS_RUNARGS_H

#include <stdint.h>

#include "opts.h"
#include "output.h"

typedef struct tk_run_args {
  const char *spec_path, *out;
  uint64_t jobs, walls, seed;
  int have_seed, quiet, resume, logs, records, no_html;
  int logs_run;   /* --logs=run[,gz]: one log file for the run (logs: 1 plain, 2 gzip) */
  int mpi;        /* --mpi: under mpirun, rank 0 hands out units to the other ranks (mpi.c) */
  uint32_t shard_k, shard_n; /* --shard K/N (harness/core/shard.h); 0/0: the whole run */
  /* `taikai serve`: the spec's external agents are its clients (its hook sets o->play to play
   * them), and `edit` (may be NULL) changes the loaded spec before the run is prepared (its
   * --games), called with the hook's context; non-zero refuses the run with `err`. */
  int external_ok;
  int (*edit)(void *ctx, tk_spec *spec, tk_error *err);
} tk_run_args;

/* The most entries tk_run_args_table writes, its terminator included. */
enum { TK_RUN_NOPTS = 13 };

/* Writes `taikai run`'s options into t[0..cap-1] (NULL-terminated), their values going to `a`:
 * the number of entries before the terminator, or -1 when cap is too small. A command that
 * takes run's options and its own appends its own after them. */
int tk_run_args_table(tk_run_args *a, tk_opt *t, int cap);

/* A caller's hook into tk_run_tournament, called twice: with dir NULL once the run is prepared
 * (to check its arguments against the run and set o->rule), then with the output folder once it
 * is accepted and locked (to check or write the caller's own files there). Non-zero refuses the
 * run (the hook prints why): tk_run_tournament then returns 2. */
typedef int (*tk_run_hook)(void *ctx, tk_run *r, const char *dir, tk_run_opts *o);

/* `taikai run`'s body: loads the spec, applies the options, prepares the run, decides the output
 * folder (new, continue, extend, or refuse), plays, prints the table. Returns the exit status of
 * `taikai run` (0 also when the hook's stopping rule stopped the run: the caller reports it). */
int tk_run_tournament(const tk_run_args *a, const char *cmd, tk_run_hook hook, void *hook_ctx);

/* tk_run_tournament under mpirun (`--mpi`, harness/run/mpi.c): rank 0 runs the command and
 * writes its outputs, the other ranks play its units and end their process there (never
 * return). Without MPI in the build: an error (2). */
int tk_run_mpi(const tk_run_args *a, const char *cmd, tk_run_hook hook, void *hook_ctx);

/* `taikai gate` (harness/cmd/gate.c); `taikai run --sprt` is the same command. */
int tk_gate_main(int argc, char **argv, const char *cmd);

#endif
