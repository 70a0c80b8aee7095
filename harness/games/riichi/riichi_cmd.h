/* harness/games/riichi/riichi_cmd.h — riichi's own commands and benchmarks (import.c, export.c, bench_riichi.c), reached
 * through tk_game_riichi's commands and benches (commands.h says what they return). */
#ifndef TAIKAI_HARNESS_RIICHI_CMD_H
#define TAIKAI_HARNESS_RIICHI_CMD_H

int tk_cmd_import(int argc, char **argv);
int tk_cmd_export(int argc, char **argv);
int tk_bench_riichi(int argc, char **argv);

#endif
