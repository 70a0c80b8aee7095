/* harness/records/logtext.h — reading game-log files (JSON lines, gzip-compressed or not) as
 * text, and splitting a file into its games: `taikai replay`, `taikai export` and the trainers
 * that learn from logs read them this way; and JSON values in messages. Part of the data library
 * (taikai_data). */
#ifndef TAIKAI_RECORDS_LOGTEXT_H
#define TAIKAI_RECORDS_LOGTEXT_H

#include <stddef.h>

#include <jansson.h>

#include "taikai/common.h"

/* Reads a whole file, gzip-compressed or not, into a malloc'd NUL-terminated buffer (*text,
 * *len). Returns 0, or TK_EIO with the path and the reason in `err`. */
int tk_read_maybe_gz(const char *path, char **text, size_t *len, tk_error *err);

/* The games of a log file's text (text[0 .. len), NUL-terminated at len): game k is
 * text[starts[k] .. starts[k + 1]) (the last one up to len), and its first line is the file's
 * line firstline[k] (1-based). A game starts at the top of the text, whatever its first line,
 * and at every later line holding `marker` ("\"start_game\"", daifugo's "\"start_block\"") and
 * "\"type\"". `taikai replay` splits files with it (tk_riichi_log_games, streaming, splits
 * them alike). Returns the number of games (at least 1), with *starts and *firstline malloc'd,
 * or -1 when out of memory. */
int tk_log_games(char *text, size_t len, const char *marker, size_t **starts, int **firstline);

/* A compact rendering of `v` (keys in their order) into `buf`, at most `cap` bytes, cut with
 * "..." when longer; "(nothing)" for NULL. */
void tk_json_brief(const json_t *v, char *buf, size_t cap);
/* The same with "" for NULL: for messages that print a missing value as nothing. */
void tk_json_cut(const json_t *v, char *buf, size_t cap);

/* Prints a replay's first mismatch the way `taikai replay` shows every game's:
 *   MISMATCH PATH:LINE: EVENT: WHAT
 *     expected: EXPECTED        (when EXPECTED is not empty)
 *     logged:   LOGGED          (when either is not empty; `none` when LOGGED is empty)
 *     note:     NOTE            (when NOTE is given and not empty)
 * `event` may be empty (no "EVENT: "). To stdout. */
void tk_replay_mismatch(const char *path, int line, const char *event, const char *what,
                        const char *expected, const char *logged, const char *none,
                        const char *note);
#endif
