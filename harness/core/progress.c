/* harness/core/progress.c — see progress.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "watch.h"
#include "progress.h"

void tk_progress_init(tk_progress *p, int mode) {
  p->mode = mode < 0 ? (isatty(2) ? 2 : 1) : mode;
  p->start_ns = p->last_ns = tk_now_ns();
  p->done = p->total = 0;
  p->drawn = 0;
  p->units = "games";
}

double tk_progress_rate(const tk_progress *p) {
  double secs = (double)(tk_now_ns() - p->start_ns) / 1e9;
  return secs > 0 ? (double)p->done / secs : 0;
}

static void eta(double secs, char *buf, size_t cap) {
  if (secs < 0 || secs > 1e7) snprintf(buf, cap, "?");
  else if (secs < 60) snprintf(buf, cap, "%.0fs", secs);
  else if (secs < 3600) snprintf(buf, cap, "%dm%02ds", (int)secs / 60, (int)secs % 60);
  else snprintf(buf, cap, "%dh%02dm", (int)secs / 3600, (int)secs / 60 % 60);
}

/* The speed in words a reader can use at any pace: "412 games/s", "3.2 games/s", "8.5 s a
 * game", "2.4 min a block"; before the first unit, the time spent so far. */
static void speed(const tk_progress *p, double rate, char *buf, size_t cap) {
  size_t n = strlen(p->units);
  int one = n > 1 && p->units[n - 1] == 's' ? (int)n - 1 : (int)n; /* "games" -> "game" */
  if (p->done == 0) {
    char el[32];
    eta((double)(tk_now_ns() - p->start_ns) / 1e9, el, sizeof el);
    snprintf(buf, cap, "first %.*s after %s", one, p->units, el);
  } else if (rate >= 10) {
    snprintf(buf, cap, "%.0f %s/s", rate, p->units);
  } else if (rate >= 1) {
    snprintf(buf, cap, "%.1f %s/s", rate, p->units);
  } else if (rate >= 1.0 / 60) {
    snprintf(buf, cap, "%.1f s a %.*s", 1 / rate, one, p->units);
  } else {
    snprintf(buf, cap, "%.1f min a %.*s", 1 / rate / 60, one, p->units);
  }
}

static void report(tk_progress *p, int final) {
  double rate = tk_progress_rate(p);
  double frac = p->total ? (double)p->done / (double)p->total : 1;
  char left[32], sp[64];
  eta(rate > 0 ? (double)(p->total - p->done) / rate : -1, left, sizeof left);
  speed(p, rate, sp, sizeof sp);
  if (p->mode == 2) {
    /* one line of at most TK_PROGRESS_COLS characters, redrawn in place: the bar takes what
     * the figures leave (up to 30), and spaces clear what a longer previous line left */
    char text[160], bar[TK_PROGRESS_COLS + 1];
    int n = snprintf(text, sizeof text, "%5.1f%%  %llu/%llu %s  %s  ETA %s", frac * 100,
                     (unsigned long long)p->done, (unsigned long long)p->total, p->units, sp,
                     left);
    if (n > TK_PROGRESS_COLS) n = TK_PROGRESS_COLS, text[n] = '\0';
    int room = TK_PROGRESS_COLS - n - 3, nb = room > 30 ? 30 : room; /* "[bar] " */
    int len = n;
    if (nb >= 5) {
      int fill = (int)(frac * nb);
      for (int i = 0; i < nb; i++) bar[i] = i < fill ? '#' : '.';
      bar[nb] = '\0';
      len += nb + 3;
      fprintf(stderr, "\r[%s] %s", bar, text);
    } else {
      fprintf(stderr, "\r%s", text);
    }
    fprintf(stderr, "%*s%s", p->drawn > len ? p->drawn - len : 0, "", final ? "\n" : "");
    p->drawn = final ? 0 : len > p->drawn ? len : p->drawn; /* what the terminal now shows */
  } else {
    fprintf(stderr, "taikai: %llu/%llu %s (%.1f%%), %s, ETA %s\n",
            (unsigned long long)p->done, (unsigned long long)p->total, p->units, frac * 100, sp,
            final ? "0s" : left);
  }
  fflush(stderr);
}

void tk_progress_update(void *ctx, uint64_t done, uint64_t total) {
  tk_progress *p = ctx;
  p->done = done;
  p->total = total;
  if (!p->mode) return;
  int64_t now = tk_now_ns();
  int64_t every = p->mode == 2 ? 100000000 : 5000000000LL;
  if (now - p->last_ns < every) return;
  p->last_ns = now;
  report(p, 0);
}

void tk_progress_finish(tk_progress *p) {
  if (p->mode) report(p, 1);
}
