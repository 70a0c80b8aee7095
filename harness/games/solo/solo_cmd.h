/* harness/games/solo/solo_cmd.h — solo's own commands and benchmarks (rescore.c, bench_solo.c, bench_mcagents.c, bench_solve.c), reached
 * through tk_game_solo's commands and benches (commands.h says what they return). */
#ifndef TAIKAI_HARNESS_SOLO_CMD_H
#define TAIKAI_HARNESS_SOLO_CMD_H

int tk_cmd_rescore(int argc, char **argv);
int tk_bench_solo(int argc, char **argv);
int tk_bench_mcagents(int argc, char **argv);
int tk_bench_solve(int argc, char **argv);

#endif
