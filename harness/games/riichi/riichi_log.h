/* harness/games/riichi/riichi_log.h — mjai-style JSON-lines logs of riichi games: a writer (an engine sink
 * that prints one line per event, to a plain or gzipped file) and a reader that replays a log
 * (taikai's or another mjai writer's) through the engine.
 *
 * Lines are those of tk_riichi_event_json (arenas/riichi/mjai.c), except start_game, which the
 * writer extends with the rules the game was played under:
 *   {"type":"start_game","names":[...],"kyoku_first":4,"aka_flag":true,
 *    "taikai_rules":{"length":1,"red_fives":true,"kyuushu":true,"agariyame":true,
 *    "extension":true,"start_points":25000,"return_points":30000,
 *    "uma":[20000,10000,-10000,-20000]}}
 * (kyoku_first 0 = hanchan, 4 = east-only, as mjai-family tools read it). Readers ignore the
 * fields they do not know; the replay's rules come from taikai_rules, else kyoku_first and
 * aka_flag, else the length is inferred (tk_riichi_replay.rules_note). tk_riichi_log_games
 * reads the games of log files, folders and run folders one at a time, for trainers. */
#ifndef TAIKAI_HARNESS_RIICHI_LOG_H
#define TAIKAI_HARNESS_RIICHI_LOG_H

#include <stdio.h>

#include "taikai/riichi.h"

typedef struct tk_riichi_log {
  FILE *f;                 /* borrowed (owned after tk_riichi_log_open) */
  void *gz;                /* gzFile after tk_riichi_log_open of a *.gz path, else NULL */
  const char *names[4];    /* borrowed, may be NULL */
  tk_riichi_rules rules;
  int error;               /* set once a write failed */
} tk_riichi_log;

/* Prepares `log` to write to `f`; returns the sink to pass to the engine (its ctx is `log`).
 * Several games may be written one after the other through the same sink (each starts with
 * its start_game line; set log->names between games): `taikai replay` reads such a file as
 * that many games. */
tk_riichi_sink tk_riichi_log_sink(tk_riichi_log *log, FILE *f, const char *const names[4],
                                  const tk_riichi_rules *rules);

/* Creates the log file `path` and prepares `log` and `*sink` to write to it: gzip-compressed
 * when `path` ends in ".gz" (e.g. unit-00000001.jsonl.gz), plain JSON lines otherwise. The
 * file is owned by `log` until tk_riichi_log_close. Returns 0, or TK_EIO naming the path. */
int tk_riichi_log_open(tk_riichi_log *log, const char *path, const char *const names[4],
                       const tk_riichi_rules *rules, tk_riichi_sink *sink, tk_error *err);
/* Flushes and closes the file of tk_riichi_log_open. Returns 0, or TK_EIO when any write or
 * the close failed (the file is then incomplete). */
int tk_riichi_log_close(tk_riichi_log *log, tk_error *err);

/* The start_game line as a new JSON object (names NULL or entries NULL: "player0".. ), with
 * the rules under "taikai_rules"; the one writer of that line (the log sink and `taikai
 * import` use it). Returns NULL when out of memory. */
struct json_t;
struct json_t *tk_riichi_log_start_game(const char *const names[4], const tk_riichi_rules *r);

enum { TK_RIICHI_REPLAY_TEXT = 2048 };

typedef struct tk_riichi_replay {
  int lines;          /* lines read */
  int kyoku;          /* hands replayed */
  int events_checked; /* engine events compared with the log's lines */
  int32_t scores[4];  /* final scores (end_game) */
  int rules_declared; /* start_game declares the game length (taikai_rules or kyoku_first) */
  char rules_note[200]; /* when it does not: the length inferred and why; else "" */
  /* When the replay fails: where the log and the engine part. */
  int bad_line;                          /* the log's line (1-based); 0 if none */
  char bad_event[32];                    /* that line's "type" (the engine's event's when the
                                            log has ended); "" if unknown */
  char bad_what[320];                    /* what went wrong, e.g. "differs in deltas" */
  char bad_field[32];                    /* the first field that differs; "" if none */
  char expected[TK_RIICHI_REPLAY_TEXT];  /* the engine's value of bad_field, else its whole
                                            event as JSON; "" if none */
  char logged[TK_RIICHI_REPLAY_TEXT];    /* the log's value of bad_field, else its whole line;
                                            "" if none (end of log) */
} tk_riichi_replay;

/* Replays the log in `f` (one game): each hand's wall is rebuilt from the log (start hands,
 * draws, replacement draws, dora and ura indicators; tiles the log never shows are filled in),
 * the players' decisions are taken from its lines, and every event the engine emits must match
 * the log's line (type, actor, target, tile, consumed, tsumogiri, deltas, scores, reason,
 * indicators, hands, tenpais; for wins the kernel's fu, han, yakuman, limit and points, and in
 * logs written by taikai (with taikai_rules) the yaku list). Fields absent from either side are
 * not compared. Returns 0 with `out` filled; TK_EPARSE for a line that is not JSON, or
 * TK_EINVAL for the first mismatch, both with the bad_* fields of `out` set and a one-line
 * summary (line number first) in `err`; TK_ENOMEM. */
int tk_riichi_log_replay(FILE *f, tk_riichi_replay *out, tk_error *err);

/* Observers of a replay's decisions (every member may be NULL). `begin` is called before each
 * pass over the log: a log that does not declare its length may be replayed twice (east-only,
 * then hanchan), and only the decisions of the last pass belong to the result. `decision` is
 * called at every decision the engine asks for (tk_riichi_to_act), with the game before the
 * move: the seat's view and legal actions (tk_riichi_view_of, tk_riichi_legal_of) are those
 * the referee gives an agent there, and `a` is the move the log records, already known to be
 * legal (the engine accepted it); `line` is its line in the log (1-based; 0 for a pass, which
 * the log does not write). */
typedef struct tk_riichi_replay_hooks {
  void (*begin)(void *ctx);
  void (*decision)(void *ctx, const tk_riichi_game *g, int seat, const tk_riichi_action *a,
                   int line);
  void *ctx;
} tk_riichi_replay_hooks;

/* tk_riichi_log_replay with `hooks` (may be NULL) told of every decision. */
int tk_riichi_log_replay_hooked(FILE *f, const tk_riichi_replay_hooks *hooks,
                                tk_riichi_replay *out, tk_error *err);

/* Replays one game of a log file as tk_riichi_log_games hands it to its callback (text[0 ..
 * len), from the file `path`'s line `first_line` on; len 0 is an empty game) with `hooks` (may
 * be NULL). `out` may be NULL when the caller needs no more than the hooks saw. Returns 0; or
 * the replay's error (TK_EPARSE, TK_EINVAL) with "PATH:LINE: EVENT: WHAT; the engine cannot
 * replay this game" in err (LINE counted in the file; `out`, when given, holds the bad_* fields
 * and rules_note); or TK_ENOMEM. The one replay step of every trainer and tool that learns from
 * mjai logs, so that they all name a bad game the same way. */
int tk_riichi_log_replay_game(const char *path, const char *text, size_t len, long first_line,
                              const tk_riichi_replay_hooks *hooks, tk_riichi_replay *out,
                              tk_error *err);

/* What follows tk_riichi_log_replay_game's message in a tool with --skip-bad-games: ", skipped
 * (--skip-bad-games)" when `skipped`, else " (--skip-bad-games skips such games)". */
const char *tk_riichi_log_skip_note(int skipped);

/* A game of a log file: text[0 .. len) (NUL-terminated at len, borrowed for the call) is its
 * lines, from the file `path`'s line `first_line` (1-based) on. Returns 0 to go on; any other
 * value stops tk_riichi_log_games, which returns it. */
typedef int (*tk_riichi_log_game_fn)(void *ctx, const char *path, const char *text, size_t len,
                                     long first_line);

/* Calls game(ctx, path, text, len, first_line) for every game of the mjai logs named by `arg`,
 * in order: a file (plain or gzipped, several gzip members one after the other allowed), a
 * folder (its *.jsonl and *.jsonl.gz files, not hidden ones, in name order), or a run folder
 * (one holding spec.json: its logs/ folder, e.g. the run.jsonl.gz of `--logs=run,gz` or the
 * unit-*.jsonl.gz files). A file holds one game or several one after the other: a game starts
 * at the top of the file, whatever its first line, and at every later line holding
 * "start_game" and "type", as tk_log_games splits files for `taikai replay`; a file's text is
 * at least one game (an empty file: one empty game, len 0). Files are streamed a line at a
 * time, so only one game is held in memory. Returns 0; the first non-zero value of `game`
 * (err as `game` left it); or, with a message naming the file (and the line) in `err`,
 * TK_ENOTFOUND (no such file, or a folder without logs), TK_EIO (a file or folder that cannot
 * be opened or read, a corrupt gzip stream), TK_ENOMEM. */
int tk_riichi_log_games(const char *arg, tk_riichi_log_game_fn game, void *ctx, tk_error *err);

#endif
