/* harness/report/html.h — report.html: a run folder's results as one self-contained page (inline
 * CSS and SVG; no script, font or image fetched from anywhere), written by `taikai run`,
 * `taikai gate`, `taikai report` and any command that produces a run folder. */
#ifndef TAIKAI_HARNESS_HTML_H
#define TAIKAI_HARNESS_HTML_H

#include "taikai/common.h"

typedef struct tk_html_opts {
  const char *out;       /* the file to write; NULL: <run_dir>/report.html */
  const char *reference; /* a reference table (taikai report --reference; format at the top of
                          * harness/cmd/report.c), already validated; NULL: none */
  const char *base;      /* the agent the paired differences are taken against (an agent of
                          * the summary, else TK_EINVAL); NULL: the gate's baseline when the
                          * folder holds gate.json, else the first agent of summary.json (a
                          * duplicate run's baseline) */
  const char *title;     /* the page's title; NULL: the reference's, else the folder's name */
  const char *summary;   /* the summary to show; NULL: <run_dir>/summary.json */
  const char *folder;    /* the folder the title names; NULL: run_dir (`taikai merge` writes
                          * into OUT.merging and names OUT) */
} tk_html_opts;

/* Writes the page for the run in `run_dir` from its summary.json (or o->summary), with the metric against walls
 * played from games.jsonl (or games.jsonl.gz) when the folder has one, and the sequential test
 * from gate.json when it has one. `o` may be NULL (every default). The same folder gives the
 * same bytes (no date, no path beyond the folder's name). The file is written atomically.
 * Returns 0, or a TK_E code with `err` naming the file and what is wrong in it. */
int tk_html_report(const char *run_dir, const tk_html_opts *o, tk_error *err);

/* The pages' style sheet (report.html and the ratings leaderboard share it). */
extern const char tk_html_css[];

#endif
