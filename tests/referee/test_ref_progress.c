/* tests/referee/test_ref_progress.c — the progress bar (harness/core/progress.h): every redraw
 * fits an 80-column terminal (at most TK_PROGRESS_COLS characters after its carriage return,
 * whatever the counts), a shorter line overwrites a longer one completely, and the count names
 * the game's units. */
#define _DEFAULT_SOURCE /* mkstemp, pread */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "watch.h"
#include "unit.h"

/* Draws (done, total) pairs with stderr sent to a file; returns what was written. */
static size_t draw(const unsigned long long (*counts)[2], int n, const char *units, char *buf,
                   size_t cap) {
  char path[] = "/tmp/tk_progress_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  tk_progress p;
  tk_progress_init(&p, 2);
  if (units) p.units = units;
  for (int i = 0; i < n; i++) {
    p.last_ns = 0; /* due for a redraw */
    tk_progress_update(&p, counts[i][0], counts[i][1]);
  }
  tk_progress_finish(&p);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  size_t len = (size_t)pread(fd, buf, cap - 1, 0);
  buf[len] = '\0';
  close(fd);
  unlink(path);
  return len;
}

static void test_fits_80(void) {
  static const unsigned long long counts[][2] = {
      {1, 100}, {123456789012ULL, 999999999999ULL}, {5, 10}, {18446744073709551ULL, 18446744073709551ULL}};
  char buf[4096];
  size_t len = draw(counts, 4, NULL, buf, sizeof buf);
  TK_EQ(len > 0, 1, "something drawn");
  int lines = 0, prev = 0;
  for (char *s = buf; *s;) {
    size_t n = strcspn(s, "\r\n");
    if (n) {
      char what[256];
      snprintf(what, sizeof what, "line %d is %zu characters: '%.*s'", lines, n, (int)n, s);
      TK_EQ(n <= TK_PROGRESS_COLS, 1, what);
      /* a redraw covers the whole of the line before it */
      TK_EQ((int)n >= prev, 1, what);
      prev = (int)n;
      lines++;
    }
    s += n;
    if (*s == '\n') prev = 0;
    if (*s) s++;
  }
  TK_EQ(lines, 5, "four updates and the final line");
  TK_EQ(buf[len - 1], '\n', "the final line ends the bar");
  TK_EQ(strstr(buf, "123456789012/999999999999 games") != NULL, 1, buf);
  TK_EQ(strstr(buf, "[#####") != NULL, 1, "a bar where it fits");
  /* a game whose units are blocks of games counts blocks (daifugo) */
  len = draw(counts, 2, "blocks", buf, sizeof buf);
  TK_EQ(strstr(buf, "1/100 blocks") != NULL, 1, buf);
  TK_EQ(strstr(buf, " games") == NULL, 1, buf);
}

/* The line written after `secs` seconds with `done` of 100 units (one-line mode). */
static void line_after(double secs, unsigned long long done, const char *units, char *buf,
                       size_t cap) {
  char path[] = "/tmp/tk_progress_XXXXXX";
  int fd = mkstemp(path);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  tk_progress p;
  tk_progress_init(&p, 1);
  if (units) p.units = units;
  p.start_ns = tk_now_ns() - (int64_t)(secs * 1e9);
  p.last_ns = 0;
  tk_progress_update(&p, done, 100);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  ssize_t len = pread(fd, buf, cap - 1, 0);
  buf[len > 0 ? len : 0] = '\0';
  close(fd);
  unlink(path);
}

/* The speed reads at any pace: never "0.0 games/s". */
static void test_speed_words(void) {
  char buf[512];
  line_after(10, 50, NULL, buf, sizeof buf);
  TK_EQ(strstr(buf, ", 5.0 games/s, ETA 10s") != NULL, 1, buf);
  line_after(10, 1, NULL, buf, sizeof buf);
  TK_EQ(strstr(buf, ", 10.0 s a game, ETA 16m30s") != NULL, 1, buf);
  line_after(300, 1, "blocks", buf, sizeof buf);
  TK_EQ(strstr(buf, ", 5.0 min a block, ETA 8h15m") != NULL, 1, buf);
  line_after(75, 0, NULL, buf, sizeof buf);
  TK_EQ(strstr(buf, ", first game after 1m15s, ETA ?") != NULL, 1, buf);
  TK_EQ(strstr(buf, "0.0 games/s") == NULL, 1, buf);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"every redraw fits 80 columns and covers the last", test_fits_80},
      {"the speed in words at any pace", test_speed_words},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee progress", tests);
}
