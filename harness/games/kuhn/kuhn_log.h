/* harness/games/kuhn/kuhn_log.h — JSON-lines logs of Kuhn poker hands (docs/kuhn.md, "Logs"): the
 * writer the adapter calls (`taikai run --logs`) and the replay through the engine
 * (`taikai replay`, through tk_game_kuhn.replay).
 *
 * One hand (a unit) is four to six lines:
 *   {"type":"start_kuhn","game":"kuhn","format":1,"seed":S,"wall":W,"names":["a","b"]}
 *   {"type":"deal","cards":["Q","K"]}
 *   {"type":"move","seat":0,"move":"check"}            one line per move
 *   {"type":"end_hand","chips":[-1,1],"winner":1,"showdown":true}
 * The deal is a pure function of (seed, wall); the replay deals again, applies every move for
 * its seat, and compares each line with the engine's. */
#ifndef TAIKAI_HARNESS_KUHN_LOG_H
#define TAIKAI_HARNESS_KUHN_LOG_H

#include <stdio.h>

#include "taikai/kuhn.h"

enum { TK_KUHN_LOG_FORMAT = 1 }; /* start_kuhn's "format" */

/* The writer: lines to a FILE the loop opened (borrowed). */
typedef struct tk_kuhn_log {
  FILE *f;   /* NULL: no log */
  int error; /* set once a write failed */
} tk_kuhn_log;

/* Writes the start_kuhn and deal lines of the hand `g` just dealt from (seed, wall); `names`
 * (or its entries) may be NULL: "player0", "player1". */
void tk_kuhn_log_begin(tk_kuhn_log *log, FILE *f, uint64_t seed, uint64_t wall,
                       const tk_kuhn_game *g, const char *const *names);
/* Writes the move line of `seat`'s move just applied to `g`, and end_hand if it ended the hand. */
void tk_kuhn_log_move(tk_kuhn_log *log, const tk_kuhn_game *g, int seat, int move);

/* Replays one hand's log (tk_game.replay's contract): prints "OK name: ..." unless `quiet`, or
 * "MISMATCH path:line: ..." with the engine's and the log's values; returns 0, 1 (a mismatch,
 * a line that is not JSON, a log that ends early or goes on) or 2 (out of memory). */
int tk_kuhn_log_replay(FILE *log, const char *path, const char *name, int first_line, int quiet);

#endif
