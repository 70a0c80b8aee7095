/* harness/cmd/handargs.h — the arguments of `taikai hand`, parsed into kernel types. Shared by the
 * command and by the scoring tests, which feed it the same argument lines a user types. */
#ifndef TAIKAI_HARNESS_HANDARGS_H
#define TAIKAI_HARNESS_HANDARGS_H

#include "taikai/mahjong.h"

typedef struct tk_hand_args {
  tk_tile tiles[14];  /* concealed tiles, winning tile included, in the given order */
  int ntiles;
  tk_call calls[4];
  int ncalls;
  tk_tile call_tiles[4][4]; /* the tiles of each call as given */
  int call_ntiles[4];
  uint8_t seen[TK_KINDS]; /* copies visible outside the concealed hand (melds, indicators, --seen) */
  tk_win_ctx ctx;
  int win_given;      /* --win was given */
  int json;           /* --json */
  int help;           /* --help was asked for */
  int solve;          /* --solve: every discard's win probability and expected points */
  int draws;          /* --draws N: draws left after the decision (default 17) */
  int objective;      /* --objective win|points: enum tk_solve_objective */
  long max_states;    /* --max-states N: the search's state cap per mode (0: the default) */
  int detours;        /* --detours N: the detour mode with N detours (-1: not given; exact first) */
} tk_hand_args;

/* Parses argv[1..argc-1] (argv[0] is the command name). The list flags (--meld, --dora, --ura,
 * --seen) accumulate when repeated; any other flag given twice (or with its alias: --haitei and
 * --houtei, --tenhou and --chiihou, --ron and --tsumo) is refused. Returns 0, or a negative TK_E
 * code with `err->msg` naming the flag and the offending value. */
int tk_hand_args_parse(int argc, char **argv, tk_hand_args *a, tk_error *err);

/* The usage text of `taikai hand`. */
extern const char tk_hand_usage[];

#endif
