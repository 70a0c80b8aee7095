/* harness/cmd/commands.h — the taikai subcommands. Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit status:
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
int tk_cmd_rescore(int argc, char **argv); /* harness/cmd/rescore.c */
int tk_cmd_replay(int argc, char **argv);  /* harness/cmd/replay.c */
int tk_cmd_records(int argc, char **argv); /* harness/cmd/records.c */
int tk_cmd_import(int argc, char **argv);  /* harness/cmd/import.c */
int tk_cmd_export(int argc, char **argv);  /* harness/cmd/export.c */
int tk_cmd_gate(int argc, char **argv);    /* harness/cmd/gate.c */
int tk_cmd_merge(int argc, char **argv);   /* harness/cmd/merge.c */
int tk_cmd_verify(int argc, char **argv);  /* harness/cmd/verify.c */
int tk_cmd_serve(int argc, char **argv);   /* harness/cmd/serve.c */
int tk_cmd_client(int argc, char **argv);  /* harness/cmd/uecda_client.c */

/* The command table, terminated by a NULL name (harness/cmd/cli.c). */
extern const tk_command tk_commands[];

/* Benchmarks, dispatched by `taikai bench NAME` (harness/cmd/bench.c). */
typedef struct tk_bench {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the bench name */
} tk_bench;
extern const tk_bench tk_benches[];

int tk_bench_shanten(int argc, char **argv);
int tk_bench_score(int argc, char **argv);
int tk_bench_solo(int argc, char **argv); /* harness/cmd/bench_solo.c */
int tk_bench_riichi(int argc, char **argv); /* harness/cmd/bench_riichi.c */
int tk_bench_mcagents(int argc, char **argv); /* harness/cmd/bench_mcagents.c */
int tk_bench_daifugo(int argc, char **argv); /* harness/cmd/bench_daifugo.c */
int tk_bench_solve(int argc, char **argv); /* harness/cmd/bench_solve.c */
int tk_bench_daifugo_mc(int argc, char **argv); /* harness/cmd/bench_daifugo_mc.c */
int tk_bench_pool(int argc, char **argv); /* harness/cmd/bench_pool.c */

#endif
