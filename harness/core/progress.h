/* harness/core/progress.h — progress on stderr: a redrawn bar on a terminal, a line every few
 * seconds otherwise, each with games/s and the estimated time left. The bar's line never passes
 * TK_PROGRESS_COLS characters, so that \r redraws it in place on an 80-column terminal. */
#ifndef TAIKAI_HARNESS_PROGRESS_H
#define TAIKAI_HARNESS_PROGRESS_H

#include <stdint.h>

enum { TK_PROGRESS_COLS = 79 };

typedef struct tk_progress {
  int mode;         /* 0 silent, 1 periodic lines, 2 bar */
  int64_t start_ns; /* when the run started */
  int64_t last_ns;  /* last report */
  uint64_t done, total;
  int drawn;        /* characters of the bar's line now on the terminal */
  const char *units; /* plural noun of what is counted ("games", "blocks") */
} tk_progress;

/* `mode`: -1 chooses a bar if stderr is a terminal, else lines; 0 silent. Counts "games" until
 * `units` is set. */
void tk_progress_init(tk_progress *p, int mode);
/* A tk_progress_fn (harness/core/run.h): `ctx` is the tk_progress. */
void tk_progress_update(void *ctx, uint64_t done, uint64_t total);
/* Final report (always printed unless silent). */
void tk_progress_finish(tk_progress *p);
/* Units per second so far. */
double tk_progress_rate(const tk_progress *p);

#endif
