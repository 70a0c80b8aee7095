/* harness/cmd/commands.h — the taikai subcommands every game shares (a game's own commands and
 * benchmarks are members of its tk_game: harness/core/game.h). Each takes the arguments after
 * its name (argv[0] is the subcommand name) and returns the process exit status:
 * 0 success, 1 a failure of the work itself, 2 bad usage or bad input. */
#ifndef TAIKAI_HARNESS_COMMANDS_H
#define TAIKAI_HARNESS_COMMANDS_H

typedef struct tk_command {
  const char *name;
  const char *summary; /* one line for `taikai --help` */
  int (*main)(int argc, char **argv);
} tk_command;

int tk_cmd_hand(int argc, char **argv);
int tk_cmd_bench(int argc, char **argv);
int tk_cmd_run(int argc, char **argv);     /* harness/cmd/run.c */
int tk_cmd_plugins(int argc, char **argv); /* harness/cmd/plugins.c */
int tk_cmd_report(int argc, char **argv);  /* harness/cmd/report.c */
int tk_cmd_ratings(int argc, char **argv); /* harness/cmd/ratings.c */
int tk_cmd_replay(int argc, char **argv);  /* harness/cmd/replay.c */
int tk_cmd_schema(int argc, char **argv);  /* harness/cmd/schema.c */
int tk_cmd_records(int argc, char **argv); /* harness/cmd/records.c */
int tk_cmd_gate(int argc, char **argv);    /* harness/cmd/gate.c */
int tk_cmd_merge(int argc, char **argv);   /* harness/cmd/merge.c */
int tk_cmd_verify(int argc, char **argv);  /* harness/cmd/verify.c */

/* The command table, terminated by a NULL name (harness/cmd/cli.c); the games' commands follow
 * it in `taikai --help`. */
extern const tk_command tk_commands[];

/* Benchmarks, dispatched by `taikai bench NAME` (harness/cmd/bench.c); the games' follow. */
typedef struct tk_bench {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the bench name */
} tk_bench;
extern const tk_bench tk_benches[];

int tk_bench_shanten(int argc, char **argv);
int tk_bench_score(int argc, char **argv);
int tk_bench_pool(int argc, char **argv); /* harness/cmd/bench_pool.c */

#endif
