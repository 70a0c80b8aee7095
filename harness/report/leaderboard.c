/* harness/report/leaderboard.c — the ratings leaderboard page (leaderboard.h). The same board
 * gives the same bytes: no date, and paths only as the caller gave them. */
#include "leaderboard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "readfile.h"
#include "svg.h"

/* A cell's background: white at 0.5, green towards 1, red towards 0. */
static void cell_colour(double v, char *buf, size_t cap) {
  double t = fmin(1, fabs(v - 0.5) * 2);
  int r = v >= 0.5 ? (int)(255 - 120 * t) : 255, g = v >= 0.5 ? 255 : (int)(255 - 120 * t);
  int b = (int)(255 - 120 * t);
  snprintf(buf, cap, "#%02x%02x%02x", r, g, b);
}

int tk_board_html(const tk_board *b, const char *path, tk_error *err) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
  tk_html_escape(f, b->title);
  fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", tk_html_css);
  tk_html_escape(f, b->title);
  fputs("</h1>\n<p class=\"note\">", f);
  tk_html_escape(f, b->method);
  fputs("</p>\n<h2>Ratings</h2>\n<div class=\"scroll\"><table>\n<tr><th>rank</th><th>agent</th>"
        "<th>plugin</th><th>rating</th>", f);
  fprintf(f, "<th>%g %% interval</th><th>games</th><th>P(above next)</th><th>params</th></tr>\n",
          100 * b->level);
  for (int i = 0; i < b->nrows; i++) {
    const tk_board_row *r = &b->rows[i];
    fprintf(f, "<tr><td>%d</td><td>", i + 1);
    tk_html_escape(f, r->label);
    fputs("</td><td>", f);
    tk_html_escape(f, r->plugin);
    fprintf(f, "</td><td>%+.1f</td><td>", r->rating);
    if (isfinite(r->lo) && isfinite(r->hi)) fprintf(f, "[%+.1f, %+.1f]", r->lo, r->hi);
    else fputs("–", f);
    fprintf(f, "</td><td>%llu</td><td>", (unsigned long long)r->games);
    if (isfinite(r->p_next)) fprintf(f, "%.3f", r->p_next);
    else fputs("–", f);
    fputs("</td><td class=\"ci\" style=\"text-align:left;max-width:480px;word-break:break-all\">", f);
    tk_html_escape(f, r->params);
    fputs("</td></tr>\n", f);
  }
  fputs("</table></div>\n", f);
  tk_forest_row *fr = calloc((size_t)b->nrows, sizeof *fr);
  if (fr) {
    for (int i = 0; i < b->nrows; i++)
      fr[i] = (tk_forest_row){.label = b->rows[i].label, .v = b->rows[i].rating,
                              .lo = b->rows[i].lo, .hi = b->rows[i].hi, .pv = NAN, .plo = NAN,
                              .phi = NAN};
    char title[96];
    snprintf(title, sizeof title, "ratings with their %g %% intervals", 100 * b->level);
    tk_svg_forest(f, title, "rating (400 log10 of strength)", fr, b->nrows, 1, 0);
    free(fr);
  }
  fputs("<h2>Expected head-to-head scores</h2>\n<p class=\"note\">The model's probability that "
        "the row's agent finishes ahead of the column's (in any game both play, under the "
        "Plackett–Luce model it is 1 / (1 + 10^(−D/400)) for a rating difference D).</p>\n"
        "<div class=\"scroll\"><table>\n<tr><th></th>", f);
  for (int j = 0; j < b->nrows; j++) {
    fputs("<th>", f);
    tk_html_escape(f, b->rows[j].label);
    fputs("</th>", f);
  }
  fputs("</tr>\n", f);
  for (int i = 0; i < b->nrows; i++) {
    fputs("<tr><th>", f);
    tk_html_escape(f, b->rows[i].label);
    fputs("</th>", f);
    for (int j = 0; j < b->nrows; j++) {
      if (i == j) {
        fputs("<td>–</td>", f);
        continue;
      }
      double v = b->expected[(size_t)i * (size_t)b->nrows + (size_t)j];
      char col[16];
      cell_colour(v, col, sizeof col);
      fprintf(f, "<td style=\"background:%s\">%.3f</td>", col, v);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table></div>\n<h2>Runs</h2>\n<ul>\n", f);
  for (int k = 0; k < b->nruns; k++) {
    fputs("<li>", f);
    tk_html_escape(f, b->runs[k]);
    fputs("</li>\n", f);
  }
  fputs("</ul>\n</body>\n</html>\n", f);
  if (fclose(f)) {
    free(text);
    return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *s = strrchr(dir, '/');
  const char *name = path;
  if (s) {
    *s = '\0';
    name = s + 1;
  } else {
    snprintf(dir, sizeof dir, ".");
  }
  int rc = tk_write_atomic(s && !dir[0] ? "/" : dir, name, text, len, err);
  free(text);
  return rc;
}
