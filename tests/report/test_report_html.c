/* tests/report/test_report_html.c — the pieces of report.html (harness/report/): escaping of
 * untrusted text, nice axes and their pixel mapping, a forest plot's and a line chart's
 * coordinates on hand-computed data, stacked bars' widths, and the page of a synthetic run
 * folder whose labels are hostile (escaped, never markup) and whose rows are all there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "html.h"
#include "svg.h"
#include "unit.h"

/* `fn` written to memory, as a NUL-terminated string (caller frees). */
#define CAPTURE(buf, call)                                                                    \
  do {                                                                                        \
    size_t len_;                                                                              \
    FILE *f = open_memstream(&(buf), &len_);                                                  \
    call;                                                                                     \
    fclose(f);                                                                                \
  } while (0)

static void expect_escape(const char *in, const char *want) {
  char *out = NULL;
  CAPTURE(out, tk_html_escape(f, in));
  if (strcmp(out, want)) TK_FAILF("escape(%s) = '%s', expected '%s'", in, out, want);
  else CU_PASS(in);
  free(out);
}

static void escaping(void) {
  expect_escape("plain label_1", "plain label_1");
  expect_escape("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
  expect_escape("a & b \"c\"", "a &amp; b &quot;c&quot;");
  expect_escape("&amp;", "&amp;amp;"); /* an entity in a label is text, not an entity */
  expect_escape("tab\there\nline", "tab\there\nline");
  expect_escape("bell\x07" "del\x7f", "bell\xEF\xBF\xBD" "del\xEF\xBF\xBD");
  expect_escape("caf\xC3\xA9 \xE9\xBA\xBB\xE9\x9B\x80 \xF0\x9F\x80\x84", "caf\xC3\xA9 \xE9\xBA\xBB\xE9\x9B\x80 \xF0\x9F\x80\x84");
  expect_escape("bad \xC3 end", "bad \xEF\xBF\xBD end");       /* truncated sequence */
  expect_escape("over\xC0\xAF", "over\xEF\xBF\xBD\xEF\xBF\xBD"); /* overlong '/' */
  expect_escape("surr\xED\xA0\x80", "surr\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* U+D800 */
  expect_escape("", "");
  char *out = NULL;
  CAPTURE(out, tk_html_escape(f, NULL));
  TK_EQ(strlen(out), 0, "NULL writes nothing");
  free(out);
}

static void expect_axis(double lo, double hi, int ticks, double alo, double ahi, double step,
                        int dec) {
  tk_axis a;
  tk_axis_nice(lo, hi, ticks, &a);
  if (fabs(a.lo - alo) > 1e-9 || fabs(a.hi - ahi) > 1e-9 || fabs(a.step - step) > 1e-12 ||
      a.decimals != dec)
    TK_FAILF("axis(%g, %g, %d) = [%g, %g] step %g dec %d, expected [%g, %g] step %g dec %d", lo,
             hi, ticks, a.lo, a.hi, a.step, a.decimals, alo, ahi, step, dec);
  else
    CU_PASS("axis");
}

static void axes(void) {
  /* range 3 in at most 6 steps: raw 0.5 -> step 0.5 */
  expect_axis(-1, 2, 6, -1, 2, 0.5, 1);
  /* range 0.137 in 5: raw 0.0274 -> 0.05; ends rounded out to 0.10 and 0.25 */
  expect_axis(0.113, 0.25, 5, 0.1, 0.25, 0.05, 2);
  /* 0 .. 10,000 walls in 8: raw 1250 -> 2000 */
  expect_axis(0, 10000, 8, 0, 10000, 2000, 0);
  /* rounding out adds an interval: 0.9 .. 6.1 in 6 -> raw 0.87 -> 1 -> [0, 7] is 7 steps: 2 */
  expect_axis(0.9, 6.1, 6, 0, 8, 2, 0);
  /* one value: a unit of its magnitude around it (3 -> [2.5, 3.5] -> step 0.2, [2.4, 3.6]) */
  expect_axis(3, 3, 6, 2.4, 3.6, 0.2, 1);
  expect_axis(0, 0, 4, -0.5, 0.5, 0.5, 1);  /* raw 0.25 -> 0.5 */
  expect_axis(NAN, NAN, 5, 0, 1, 0.2, 1);         /* nothing finite */
  expect_axis(5, 1, 4, 1, 5, 1, 0);               /* reversed ends; raw 1 -> [1, 5] 4 steps */
  tk_axis a = {.lo = -1, .hi = 2, .step = 0.5};
  TK_EQ(llround(tk_axis_px(&a, 0, 190, 730) * 10), 3700, "0 on [-1, 2] over 190..730 -> 370");
  TK_EQ(llround(tk_axis_px(&a, 2, 300, 28) * 10), 280, "y axes draw upwards");
  TK_EQ(llround(tk_axis_px(&a, -1, 300, 28) * 10), 3000, "the bottom");
  /* every nice axis covers its data with at most the ticks asked for */
  unsigned s = 12345;
  for (int i = 0; i < 2000; i++) {
    s = s * 1103515245u + 12345u;
    double lo = ((int)(s >> 8) % 200001 - 100000) / 1000.0;
    s = s * 1103515245u + 12345u;
    double hi = lo + (s >> 8) % 100000 / pow(10, (s >> 3) % 7);
    int t = 2 + (int)(s % 8);
    tk_axis x;
    tk_axis_nice(lo, hi, t, &x);
    int steps = (int)llround((x.hi - x.lo) / x.step);
    if (x.lo > lo + 1e-9 * fabs(lo) || x.hi < hi - 1e-9 * fabs(hi) || steps > t || steps < 1 ||
        fabs(x.lo / x.step - llround(x.lo / x.step)) > 1e-6) {
      TK_FAILF("axis(%.17g, %.17g, %d) = [%g, %g] step %g", lo, hi, t, x.lo, x.hi, x.step);
      break;
    }
  }
}

static void forest_coordinates(void) {
  /* values -1 .. 2 with 0: axis [-1, 2] step 0.5 over x 190 .. 730 (180 px a unit) */
  tk_forest_row rows[3] = {
      {"a<b", 1.0, 0.5, 2.0, NAN, NAN, NAN},
      {"c", -0.5, -1.0, 0.0, NAN, NAN, NAN},
      {"none", NAN, NAN, NAN, NAN, NAN, NAN},
  };
  char *svg = NULL;
  CAPTURE(svg, tk_svg_forest(f, "t", "x", rows, 3, 1, 2));
  /* row 0 at y = 28 + 12 = 40: dot at 190 + 2 * 180 = 550, line 460 .. 730 */
  TK_EQ(strstr(svg, "<circle cx=\"550.0\" cy=\"40.0\"") != NULL, 1, svg);
  TK_EQ(strstr(svg, "<line x1=\"460.0\" y1=\"40.0\" x2=\"730.0\" y2=\"40.0\" class=\"ci\"/>") != NULL, 1, "row 0's interval");
  /* row 1 at y = 64: dot at 190 + 0.5 * 180 = 280, line 190 .. 370 */
  TK_EQ(strstr(svg, "<circle cx=\"280.0\" cy=\"64.0\"") != NULL, 1, "row 1's dot");
  TK_EQ(strstr(svg, "<line x1=\"190.0\" y1=\"64.0\" x2=\"370.0\" y2=\"64.0\" class=\"ci\"/>") != NULL, 1, "row 1's interval");
  TK_EQ(strstr(svg, "<line x1=\"370.0\" y1=\"28\" x2=\"370.0\" y2=\"100.0\" class=\"zero\"/>") != NULL, 1, "zero line");
  TK_EQ(strstr(svg, "no value") != NULL, 1, "a row without a value says so");
  /* the numbers: row 0's interval ends at 730 (no room right; 17 chars x 6 = 102 px fit left
   * of 460 - 8); row 1's ends at 370 (19 chars: 378 + 114 <= 730, right of it) */
  TK_EQ(strstr(svg, "<text x=\"452.0\" y=\"43.5\" text-anchor=\"end\" class=\"val\">1.00 [0.50, 2.00]</text>") != NULL, 1, "row 0's numbers");
  TK_EQ(strstr(svg, "<text x=\"378.0\" y=\"67.5\" class=\"val\">-0.50 [-1.00, 0.00]</text>") != NULL, 1, "row 1's numbers");
  TK_EQ(strstr(svg, "a&lt;b") != NULL && !strstr(svg, "a<b"), 1, "labels escaped");
  TK_EQ(strstr(svg, "height=\"142\"") != NULL, 1, "28 + 3 rows x 24 + 42");
  /* ticks -1, -0.5, ..., 2: seven */
  int ticks = 0;
  for (char *p = svg; (p = strstr(p, "class=\"grid\"")); p++) ticks++;
  TK_EQ(ticks, 7, "grid lines");
  TK_EQ(strstr(svg, ">-0.5</text>") != NULL && strstr(svg, ">1.5</text>") != NULL, 1, "tick labels");
  free(svg);
  /* a published value beside ours: the diamond centred 4 px below the row's centre (44) */
  tk_forest_row pub = {"p", 0.2, 0.1, 0.3, 0.4, 0.35, 0.45};
  CAPTURE(svg, tk_svg_forest(f, NULL, NULL, &pub, 1, 0, 2));
  /* data 0.1 .. 0.45 in 6: raw 0.0583 -> 0.1, axis [0.1, 0.5]: 0.4 -> 190 + 0.75 * 540 = 595 */
  TK_EQ(strstr(svg, "<path d=\"M595.0 39.5l4.5 4.5") != NULL, 1, svg);
  TK_EQ(strstr(svg, "class=\"pci\"") != NULL, 1, "published interval");
  free(svg);
}

static void stacked_widths(void) {
  const char *rows[] = {"x", "y"};
  const char *segs[] = {"1st", "2nd"};
  double frac[] = {0.25, 0.75, 1.0, 0.0};
  char *svg = NULL;
  CAPTURE(svg, tk_svg_stacked(f, "t", rows, 2, segs, 2, frac));
  /* plot width 540: 0.25 -> 135 from 190, then 405 from 325 */
  TK_EQ(strstr(svg, "<rect x=\"190.0\" y=\"53.0\" width=\"135.0\"") != NULL, 1, svg);
  TK_EQ(strstr(svg, "<rect x=\"325.0\" y=\"53.0\" width=\"405.0\"") != NULL, 1, "second segment");
  TK_EQ(strstr(svg, "<rect x=\"190.0\" y=\"77.0\" width=\"540.0\"") != NULL, 1, "a full row");
  TK_EQ(strstr(svg, ">25.0%</text>") != NULL && strstr(svg, ">75.0%</text>") != NULL, 1, "percentages");
  free(svg);
}

static void lines_coordinates(void) {
  double x[] = {10, 20, 30, 40}, y[] = {1, NAN, 3, 2};
  tk_series s = {"s", x, y, 4, 1.5, 2.5};
  tk_hline h = {4, "bound"};
  char *svg = NULL;
  CAPTURE(svg, tk_svg_lines(f, "t", "walls", "y", &s, 1, &h, 1));
  /* x: 0 .. 40 in 8 -> step 5, [0, 40], 13.5 px a wall; y: 1 .. 4 in 6 -> 0.5, [1, 4] over 328
   * .. 28 (100 px a unit). (10, 1) -> (325, 328); a gap; (30, 3) -> (595, 128), (40, 2) -> (730, 228) */
  TK_EQ(strstr(svg, "points=\"325.0,328.0\"/>") != NULL, 1, svg);
  TK_EQ(strstr(svg, "points=\"595.0,128.0 730.0,228.0\"/>") != NULL, 1, "after the gap");
  TK_EQ(strstr(svg, "<line x1=\"190.0\" y1=\"28.0\" x2=\"730.0\" y2=\"28.0\" class=\"bound\"/>") != NULL, 1, "the bound at 4");
  TK_EQ(strstr(svg, "<line x1=\"734.0\" y1=\"278.0\" x2=\"734.0\" y2=\"178.0\"") != NULL, 1, "the final interval's bracket");
  free(svg);
  /* finite values far beyond the bounds are drawn where they are: 43.0 and 78.7 with bounds at
   * ±2.944: y -2.944 .. 78.7 in 6 -> step 20, [-20, 80] over 328 .. 28 (3 px a unit): 43 ->
   * 139, 78.7 -> 31.9; x 10 .. 20 -> [0, 20] step 5 (27 px a wall) */
  double y2[] = {43.0, 78.7};
  tk_series big = {"llr", x, y2, 2, NAN, NAN};
  tk_hline hb[2] = {{2.944, "accept H1"}, {-2.944, "accept H0"}};
  CAPTURE(svg, tk_svg_lines(f, NULL, NULL, NULL, &big, 1, hb, 2));
  TK_EQ(strstr(svg, "points=\"460.0,139.0 730.0,31.9\"") != NULL, 1, svg);
  TK_EQ(strstr(svg, ">80</text>") != NULL, 1, "the axis reaches the largest value");
  TK_EQ(strstr(svg, "\xE2\x88\x9E") == NULL, 1, "no finite value is marked infinite");
  free(svg);
  /* infinite values: at the edge, beyond every finite one, each with an arrow; one "+∞" for a
   * run of them. y 0 .. 3 (the bound) padded by 0.3 for them: [0, 4] step 1 (75 px a unit), so
   * the bound is at 103 and +∞ at the top, 28; x 10 .. 30 -> [0, 30] (18 px a wall) */
  double y3[] = {0, INFINITY, INFINITY}, x3[] = {10, 20, 30};
  tk_series inf = {"llr", x3, y3, 3, NAN, NAN};
  tk_hline h3 = {3, "bound"};
  CAPTURE(svg, tk_svg_lines(f, NULL, NULL, NULL, &inf, 1, &h3, 1));
  TK_EQ(strstr(svg, "points=\"370.0,328.0 550.0,28.0 730.0,28.0\"") != NULL, 1, svg);
  TK_EQ(strstr(svg, "y1=\"103.0\" x2=\"730.0\" y2=\"103.0\" class=\"bound\"") != NULL, 1,
        "the bound below the edge");
  int arrows = 0, marks = 0;
  for (char *p = svg; (p = strstr(p, "class=\"inf\"")); p++) arrows++;
  for (char *p = svg; (p = strstr(p, "+\xE2\x88\x9E</text>")); p++) marks++;
  TK_EQ(arrows, 2, "an arrow at each infinite point");
  TK_EQ(marks, 1, "one +∞ for the run of them");
  free(svg);
  double y4[] = {1, -INFINITY};
  tk_series neg = {"llr", x, y4, 2, NAN, NAN};
  CAPTURE(svg, tk_svg_lines(f, NULL, NULL, NULL, &neg, 1, NULL, 0));
  TK_EQ(strstr(svg, "\xE2\x88\x92\xE2\x88\x9E</text>") != NULL, 1, svg);
  TK_EQ(strstr(svg, " 730.0,328.0\"") != NULL, 1, "-∞ at the bottom edge");
  free(svg);
}

/* The x at which a right-anchored <text> found at `at` starts, its text estimated at 7.2 px a
 * character (12 px, 0.6 em); `shown` receives the text (without a <title>). */
static double text_start(const char *at, char *shown, size_t cap) {
  double x = 0;
  sscanf(at, "<text x=\"%lf\"", &x);
  const char *t = strchr(at, '>') + 1;
  if (!strncmp(t, "<title>", 7)) t = strstr(t, "</title>") + 8;
  size_t n = (size_t)(strstr(t, "</text>") - t);
  snprintf(shown, cap, "%.*s", (int)n, t);
  size_t chars = 0;
  for (const char *p = shown; *p; p++) chars += ((unsigned char)*p & 0xC0) != 0x80;
  return x - 7.2 * (double)chars;
}

static void long_labels(void) {
  /* 49 characters fit a margin of 49 x 7.2 + 16 = 368.8; the second label asks for more than
   * 380, the most the margin grows: both are right-aligned at 372, the first whole and inside */
  const char *mid = "komatsu (100 playouts, greedy teacher), in seat 2";
  const char *huge = "an agent whose label runs on and on, far longer than any margin could "
                     "hold beside its plot, <b> included";
  tk_forest_row rows[2] = {{mid, 1.0, 0.5, 2.0, NAN, NAN, NAN},
                           {huge, -0.5, -1.0, 0.0, NAN, NAN, NAN}};
  char *svg = NULL, shown[256];
  CAPTURE(svg, tk_svg_forest(f, "t", "x", rows, 2, 1, 2));
  char *at = strstr(svg, "<text x=\"372.0\" y=\"44.0\" text-anchor=\"end\" class=\"lab\">");
  TK_EQ(at != NULL, 1, svg);
  if (at) {
    double x = text_start(at, shown, sizeof shown);
    TK_EQ(strcmp(shown, mid), 0, shown);
    if (x < 0) TK_FAILF("the label starts at x = %.1f", x);
  }
  /* the longer one is cut with "…" and whole in <title> */
  at = strstr(svg, "<text x=\"372.0\" y=\"68.0\" text-anchor=\"end\" class=\"lab\"><title>an agent");
  TK_EQ(at != NULL, 1, svg);
  if (at) {
    double x = text_start(at, shown, sizeof shown);
    if (x < 0) TK_FAILF("the cut label starts at x = %.1f: %s", x, shown);
    size_t n = strlen(shown);
    TK_EQ(n > 3 && !strcmp(shown + n - 3, "\xE2\x80\xA6"), 1, shown);
    TK_EQ(strstr(at, "<title>an agent whose label runs on and on, far longer than any margin "
                     "could hold beside its plot, &lt;b&gt; included</title>") != NULL, 1,
          "the whole label in the tooltip, escaped");
  }
  /* the plot starts after the margin: the zero line of [-1, 2] at 380 + 350 / 3 */
  TK_EQ(strstr(svg, "<line x1=\"496.7\" y1=\"28\" x2=\"496.7\"") != NULL, 1, "the plot moved right");
  free(svg);
  /* stacked bars take the same margin: 368.8 for the 49 characters, right-aligned at 360.8 */
  const char *labels[] = {mid, "x"}, *segs[] = {"1st", "2nd"};
  double frac[] = {0.5, 0.5, 1.0, 0.0};
  CAPTURE(svg, tk_svg_stacked(f, "t", labels, 2, segs, 2, frac));
  at = strstr(svg, "<text x=\"360.8\"");
  TK_EQ(at != NULL, 1, svg);
  if (at) {
    double x = text_start(at, shown, sizeof shown);
    TK_EQ(strcmp(shown, mid), 0, shown);
    if (x < 0) TK_FAILF("the bar's label starts at x = %.1f", x);
  }
  free(svg);
}

/* A run folder written by hand: a solo summary whose agent labels are markup. */
static void write(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static const char SUMMARY[] =
    "{\"taikai_version\": \"0.1.0\", \"game\": \"solo\", \"format\": \"round-robin\", \"seed\": 7,"
    " \"walls\": 2, \"units\": 4, \"units_total\": 4, \"complete\": true, \"confidence\": 0.95,"
    " \"intervals\": {\"rates\": \"wilson\", \"means\": \"t\", \"paired\": \"paired-t\"},"
    " \"agents\": ["
    "  {\"label\": \"<b>bold</b>\", \"plugin\": \"p&q\", \"version\": \"1\", \"games\": 2, \"faults\": 0,"
    "   \"win_rate\": {\"value\": 0.5, \"ci\": [0.1, 0.9]}, \"points_per_game\": {\"value\": 1000, \"ci\": [0, 2000]}},"
    "  {\"label\": \"plain\", \"plugin\": \"r\", \"version\": \"1\", \"games\": 2, \"faults\": 0,"
    "   \"win_rate\": {\"value\": 0.0, \"ci\": [0.0, 0.6]}, \"points_per_game\": {\"value\": 0, \"ci\": null}}],"
    " \"paired\": [{\"a\": \"plain\", \"b\": \"<b>bold</b>\", \"walls\": 2,"
    "   \"points_per_game\": {\"value\": -1000, \"ci\": [-3000, 1000], \"p\": 0.5},"
    "   \"win_rate\": {\"value\": -0.5, \"ci\": [-1, 0.2], \"p\": 0.5}}]}\n";

static char *slurp_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = calloc((size_t)n + 1, 1);
  if (fread(b, 1, (size_t)n, f) != (size_t)n) b[0] = '\0';
  fclose(f);
  return b;
}

static void page_of_a_folder(void) {
  char dir[] = TK_WORK_DIR "-unit";
  mkdir(TK_WORK_DIR "-unit", 0777);
  char path[512];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  write(path, SUMMARY);
  snprintf(path, sizeof path, "%s/games.jsonl", dir);
  remove(path);
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_html_report(dir, NULL, &err), 0, err.msg);
  snprintf(path, sizeof path, "%s/report.html", dir);
  char *html = slurp_file(path);
  TK_EQ(html != NULL, 1, path);
  if (!html) return;
  TK_EQ(strstr(html, "<b>bold</b>") == NULL, 1, "the label is never markup");
  TK_EQ(strstr(html, "<tr><td>&lt;b&gt;bold&lt;/b&gt;</td><td class=\"l\">p&amp;q 1</td><td>2</td>") != NULL, 1, "its row, escaped");
  TK_EQ(strstr(html, "<tr><td>plain</td>") != NULL, 1, "the other row");
  /* win rate 50.00 % [10.00, 90.00] in the solo game's units (percent, 2 decimals) */
  TK_EQ(strstr(html, "<td>50.00<br><span class=\"ci\">[10.00, 90.00]</span></td>") != NULL, 1, "a cell");
  TK_EQ(strstr(html, "<td>0.0<br><span class=\"ci\">no interval</span></td>") != NULL, 1,
        "a value without an interval (points/game: 1 decimal)");
  TK_EQ(strstr(html, "Paired differences") != NULL, 1, "the forest plot's section");
  TK_EQ(strstr(html, "No games.jsonl in the folder") != NULL, 1, "no convergence without games");
  TK_EQ(strstr(html, "Rank distribution") == NULL, 1, "solo has no ranks");
  TK_EQ(strstr(html, "<title>taikai run work-test_report_html-unit</title>") != NULL, 1,
        "the folder's name is the title");
  free(html);
  /* a folder given with a trailing slash has the same name */
  char dir2[600];
  snprintf(dir2, sizeof dir2, "%s/", dir);
  tk_error_clear(&err);
  TK_EQ(tk_html_report(dir2, NULL, &err), 0, err.msg);
  html = slurp_file(path);
  TK_EQ(html && strstr(html, "<title>taikai run work-test_report_html-unit</title>") != NULL, 1,
        "trailing slash");
  free(html);
  /* a bad summary is refused with its file and value named */
  snprintf(path, sizeof path, "%s/summary.json", dir);
  write(path, "{\"game\": \"chess\", \"agents\": []}");
  tk_error_clear(&err);
  TK_EQ(tk_html_report(dir, NULL, &err) < 0, 1, "refused");
  TK_EQ(strstr(err.msg, "summary.json") != NULL && strstr(err.msg, "chess") != NULL, 1, err.msg);
  write(path, "{not json");
  tk_error_clear(&err);
  TK_EQ(tk_html_report(dir, NULL, &err) < 0, 1, "refused");
  TK_EQ(strstr(err.msg, "not JSON") != NULL, 1, err.msg);
}

/* A gate's folder written by hand: a solo run the sequential test stopped after 20 of 100 walls,
 * whose looks had LLRs far beyond the bounds (43.0, 78.7) and one infinite (stored as 1e300). */
static const char GATE_SUMMARY[] =
    "{\"taikai_version\": \"0.1.0\", \"game\": \"solo\", \"format\": \"field\", \"seed\": 7,"
    " \"walls\": 100, \"units\": 40, \"units_total\": 200, \"complete\": false, %s"
    " \"confidence\": 0.95,"
    " \"intervals\": {\"rates\": \"wilson\", \"means\": \"t\", \"paired\": \"paired-t\"},"
    " \"agents\": ["
    "  {\"label\": \"greedy\", \"plugin\": \"greedy\", \"version\": \"1\", \"games\": 20, \"faults\": 0,"
    "   \"points_per_game\": {\"value\": 1000, \"ci\": [500, 1500]}},"
    "  {\"label\": \"komatsu\", \"plugin\": \"komatsu\", \"version\": \"1\", \"games\": 20, \"faults\": 0,"
    "   \"points_per_game\": {\"value\": 2000, \"ci\": [1500, 2500]}}],"
    " \"paired\": [{\"a\": \"komatsu\", \"b\": \"greedy\", \"walls\": 20,"
    "   \"points_per_game\": {\"value\": 1000, \"ci\": [500, 1500], \"p\": 0.01}}]}\n";

static const char GATE_JSON[] =
    "{\"test\": {\"candidate\": \"komatsu\", \"baseline\": \"greedy\", \"metric\": \"points_per_game\","
    "  \"bounds\": [0, 0.2], \"normalised\": true, \"alpha\": 0.05, \"beta\": 0.05, \"batch\": 5,"
    "  \"min_walls\": 20, \"confidence\": 0.95},"
    " \"decision\": \"H1\", \"exit_status\": 0, \"walls\": 20, \"max_walls\": 100, \"llr\": 78.7,"
    " \"llr_bounds\": [-2.944, 2.944],"
    " \"difference\": {\"value\": 1000, \"sd\": 10, \"ci\": [500, 1500]},"
    " \"looks\": [{\"walls\": 5, \"llr\": 1e300}, {\"walls\": 10, \"llr\": 43.0},"
    "  {\"walls\": 15, \"llr\": 60.0}, {\"walls\": 20, \"llr\": 78.7}]}\n";

static void gate_page(void) {
  char dir[] = TK_WORK_DIR "-gate", path[512], text[4096];
  mkdir(dir, 0777);
  snprintf(path, sizeof path, "%s/summary.json", dir);
  snprintf(text, sizeof text, GATE_SUMMARY,
           "\"stopped\": \"sequential test: H1 accepted after 20 walls (LLR +78.700, bounds -2.944, "
           "2.944)\",");
  write(path, text);
  snprintf(path, sizeof path, "%s/gate.json", dir);
  write(path, GATE_JSON);
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_html_report(dir, NULL, &err), 0, err.msg);
  snprintf(path, sizeof path, "%s/report.html", dir);
  char *html = slurp_file(path);
  TK_EQ(html != NULL, 1, path);
  if (!html) return;
  /* stopped as intended: said so, neither red nor "incomplete" */
  TK_EQ(strstr(html, "40 of 200 units played, stopped by the sequential test after 20 of 100 "
                     "walls (H1 accepted); taikai") != NULL, 1, html);
  TK_EQ(strstr(html, "incomplete run") == NULL, 1, "not an incomplete run");
  /* the trace: the axis reaches 78.7 (y -2.944 .. 78.7 + 8.2 for the infinite look -> step 20,
   * [-20, 100], 2.5 px a unit), each finite look at its own height, the infinite one at the
   * top edge (28) with its mark */
  char *chart = strstr(html, "LLR at each look");
  char *pts = chart ? strstr(chart, "points=\"") : NULL;
  double x[4], y[4];
  int got = pts ? sscanf(pts, "points=\"%lf,%lf %lf,%lf %lf,%lf %lf,%lf\"", &x[0], &y[0], &x[1],
                         &y[1], &x[2], &y[2], &x[3], &y[3])
                : 0;
  TK_EQ(got, 8, pts ? pts : html);
  if (got == 8) {
    TK_EQ(llround(y[0] * 10), 280, "the infinite look at the top edge");
    TK_EQ(llround(y[1] * 10), 1705, "43.0 at 328 - 63 x 2.5");
    TK_EQ(llround(y[2] * 10), 1280, "60.0 at 328 - 80 x 2.5");
    if (!(y[3] < y[2] && y[3] > 28.5)) TK_FAILF("78.7 drawn at y = %.1f", y[3]);
  }
  TK_EQ(chart && strstr(chart, ">100</text>") != NULL, 1, "a tick above the largest LLR");
  TK_EQ(chart && strstr(chart, "+\xE2\x88\x9E</text>") != NULL, 1, "the infinite look marked");
  free(html);
  /* the same folder interrupted by the user: an incomplete run, in red */
  snprintf(path, sizeof path, "%s/summary.json", dir);
  snprintf(text, sizeof text, GATE_SUMMARY, "\"stopped\": \"interrupted by SIGINT\",");
  write(path, text);
  tk_error_clear(&err);
  TK_EQ(tk_html_report(dir, NULL, &err), 0, err.msg);
  snprintf(path, sizeof path, "%s/report.html", dir);
  html = slurp_file(path);
  TK_EQ(html && strstr(html, "<span class=\"bad\">(incomplete run: interrupted by SIGINT)</span>") != NULL,
        1, "an interrupted run stays incomplete");
  TK_EQ(html && strstr(html, "stopped by the sequential test") == NULL, 1, "and is not called decided");
  free(html);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"escaping of untrusted text", escaping},
      {"nice axes and pixels", axes},
      {"forest plot coordinates", forest_coordinates},
      {"stacked bar widths", stacked_widths},
      {"line chart coordinates, values far beyond the bounds, infinite ones", lines_coordinates},
      {"long labels fit the margin or are cut with a tooltip", long_labels},
      {"the page of a hand-written folder", page_of_a_folder},
      {"a gate's page: its LLR trace and how its run stopped", gate_page},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("report_html", tests);
}
