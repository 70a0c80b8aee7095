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
} tk_hand_args;

/* Parses argv[1..argc-1] (argv[0] is the command name). Returns 0, or a negative TK_E code
 * with `err->msg` naming the flag and the offending value. */
int tk_hand_args_parse(int argc, char **argv, tk_hand_args *a, tk_error *err);

/* The usage text of `taikai hand`. */
extern const char tk_hand_usage[];

#endif
