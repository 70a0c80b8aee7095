/* harness/riichi_log.h — mjai-style JSON-lines logs of riichi games: a writer (an engine sink
 * that prints one line per event) and a reader that replays a log through the engine.
 *
 * Lines are those of tk_riichi_event_json (arenas/riichi/mjai.c), except start_game, which the
 * writer extends with the rules the game was played under:
 *   {"type":"start_game","names":[...],"taikai_rules":{"length":1,"red_fives":true,
 *    "kyuushu":true,"agariyame":true,"extension":true,"start_points":25000,
 *    "return_points":30000,"uma":[20000,10000,-10000,-20000]}}
 * Readers of the mjai format ignore the extra field; without it the replay assumes
 * tk_riichi_default_rules(). */
#ifndef TAIKAI_HARNESS_RIICHI_LOG_H
#define TAIKAI_HARNESS_RIICHI_LOG_H

#include <stdio.h>

#include "taikai/riichi.h"

typedef struct tk_riichi_log {
  FILE *f;                 /* borrowed */
  const char *names[4];    /* borrowed, may be NULL */
  tk_riichi_rules rules;
  int error;               /* set once a write failed */
} tk_riichi_log;

/* Prepares `log` to write to `f`; returns the sink to pass to the engine (its ctx is `log`). */
tk_riichi_sink tk_riichi_log_sink(tk_riichi_log *log, FILE *f, const char *const names[4],
                                  const tk_riichi_rules *rules);

typedef struct tk_riichi_replay {
  int lines;          /* lines read */
  int kyoku;          /* hands replayed */
  int events_checked; /* engine events compared with the log's lines */
  int32_t scores[4];  /* final scores (end_game) */
} tk_riichi_replay;

/* Replays the log in `f`: each hand's wall is rebuilt from the log (start hands, draws,
 * replacement draws, dora and ura indicators; tiles the log never shows are filled in), the
 * players' decisions are taken from its lines, and every event the engine emits must match the
 * log's (type, actor, target, tile, consumed, tsumogiri, deltas, scores, reason, indicators).
 * Returns 0 with `out` filled, TK_EPARSE for a line that is not JSON, or TK_EINVAL with the
 * first mismatch (line number and both lines) in `err`. */
int tk_riichi_log_replay(FILE *f, tk_riichi_replay *out, tk_error *err);

#endif
