/* harness/core/line.h — the one writer and the one reader of games.jsonl lines.
 *
 * A line is one unit:
 *   {"unit":U,"wall":W,"seats":[{"agent":I,"label":"L",<the game's fields, in its order>
 *    [,<the game's extra members>][,"illegal":N,"illegal_first":"..."]
 *    [,"fault":"<reason>","fault_info":{...}]}, ... one object per seat][,"skipped":true]}
 * (fault_info's members: fault.h). Every value is a pure function of what the agents did, so
 * lines are byte-identical whatever the number of workers. */
#ifndef TAIKAI_HARNESS_LINE_H
#define TAIKAI_HARNESS_LINE_H

#include "game.h"

/* Writes `rec` as one line (no newline) into buf; `labels[i]` is agent i's label. Returns the
 * length, or TK_ERANGE if it does not fit in `cap`. */
int tk_line_write(const tk_game *g, const tk_unit_rec *rec, const char *const *labels, char *buf,
                  size_t cap);

/* Reads a line of game `g` written by tk_line_write (`len` bytes, no newline needed) into
 * `rec`; agent indices must be below `nagents`. Returns 0, or TK_EPARSE with what is wrong in
 * `err` ("seat 2: field 'rank': expected an integer"). */
int tk_line_read(const tk_game *g, const char *line, size_t len, int nagents, tk_unit_rec *rec,
                 tk_error *err);

#endif
