/* harness/report/leaderboard.h — the ratings leaderboard page of `taikai ratings --html`: one
 * self-contained page (report.html's style sheet, inline SVG) with the ratings and their
 * intervals as a table and a plot, and the matrix of expected head-to-head scores. */
#ifndef TAIKAI_HARNESS_LEADERBOARD_H
#define TAIKAI_HARNESS_LEADERBOARD_H

#include <stdint.h>

#include "taikai/common.h"

typedef struct tk_board_row {
  const char *label;   /* the agent's label (untrusted: escaped) */
  const char *plugin;  /* "plugin version" */
  const char *params;  /* the agent's params as JSON text */
  double rating, lo, hi; /* on the Elo-like scale; the interval */
  double p_next;       /* P(above the next row), NAN for the last */
  uint64_t games;
} tk_board_row;

typedef struct tk_board {
  const char *title;         /* the page's title and heading */
  const char *method;        /* what was fitted and how the intervals were made (HTML-escaped) */
  int nrows;
  const tk_board_row *rows;  /* in rank order */
  const double *expected;    /* nrows x nrows: row's expected score against column */
  int nruns;
  const char *const *runs;   /* the run folders, as given */
  double level;              /* the intervals' level (0.95) */
} tk_board;

/* Writes the page to `path` atomically. Returns 0 or a TK_E code with `err` naming the file. */
int tk_board_html(const tk_board *b, const char *path, tk_error *err);

#endif
