/* harness/games/daifugo/daifugo_cmd.h — daifugo's own commands and benchmarks (serve.c, uecda_client.c, bench_daifugo.c, bench_daifugo_mc.c), reached
 * through tk_game_daifugo's commands and benches (commands.h says what they return). */
#ifndef TAIKAI_HARNESS_DAIFUGO_CMD_H
#define TAIKAI_HARNESS_DAIFUGO_CMD_H

int tk_cmd_serve(int argc, char **argv);
int tk_cmd_client(int argc, char **argv);
int tk_bench_daifugo(int argc, char **argv);
int tk_bench_daifugo_mc(int argc, char **argv);

#endif
