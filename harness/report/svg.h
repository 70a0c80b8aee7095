/* harness/report/svg.h — the pieces report.html is drawn with: HTML escaping of untrusted text,
 * "nice" axes, and inline SVG charts (a forest plot of intervals, stacked bars, lines against a
 * common x). Everything is written to a FILE as plain text; no script, font or image is referred
 * to, so a page built from these is self-contained. Coordinates are printed with one decimal in
 * the C locale, so the same data give the same bytes. */
#ifndef TAIKAI_HARNESS_SVG_H
#define TAIKAI_HARNESS_SVG_H

#include <stdio.h>

/* Writes `s` as HTML text or attribute value: & < > " ' become entities, C0 controls other than
 * tab and newline, DEL and bytes that are not well-formed UTF-8 become U+FFFD. NULL writes
 * nothing. Spec and plugin strings (labels, descriptions, titles) are untrusted: every one goes
 * through here. */
void tk_html_escape(FILE *f, const char *s);

/* A linear axis from lo to hi with ticks every `step` (lo and hi multiples of step). */
typedef struct tk_axis {
  double lo, hi, step;
  int decimals; /* decimals that show every tick distinctly */
} tk_axis;

/* The axis with ticks at 1, 2 or 5 × 10^k covering every finite value in [lo, hi] with at most
 * `max_ticks` intervals (at least 1), the ends rounded out to whole steps. A single value (lo ==
 * hi) gets the unit interval around it scaled to its magnitude; no finite value gives [0, 1]. */
void tk_axis_nice(double lo, double hi, int max_ticks, tk_axis *a);

/* The pixel of value v on axis `a` drawn from p0 (at a->lo) to p1 (at a->hi); p1 < p0 draws
 * upwards (SVG's y). Values outside the axis map outside [p0, p1]. */
double tk_axis_px(const tk_axis *a, double v, double p0, double p1);

/* The palette's colour of series i (ten colours, repeating). */
const char *tk_svg_colour(int i);

/* Geometry of the charts (pixels): every chart is TK_SVG_WIDTH wide, with labels in the left
 * margin and the plot from the margin to TK_SVG_WIDTH - TK_SVG_RIGHT. A label's width is
 * estimated from its characters (0.6 em each, 1 em for CJK and other wide ones): no font is
 * measured. */
enum {
  TK_SVG_WIDTH = 760,
  TK_SVG_LEFT = 190,   /* the left margin; a forest plot's or bars' grows to fit its labels */
  TK_SVG_LABEL_MAX = 380, /* up to this; longer labels are cut with "…", whole in a <title> */
  TK_SVG_RIGHT = 30,
  TK_SVG_TOP = 28,     /* room for the chart's title */
  TK_SVG_ROW = 24,     /* one row of a forest plot or of bars */
  TK_SVG_BOTTOM = 42,  /* the x axis, its ticks and its label */
  TK_SVG_LINES_H = 300 /* height of a line chart's plot area */
};

/* One row of a forest plot: a dot at v with its interval [lo, hi] (NAN: none), and optionally
 * a second, hollow marker at pv with its own interval (a published value; NAN: none). */
typedef struct tk_forest_row {
  const char *label;
  double v, lo, hi;
  double pv, plo, phi;
} tk_forest_row;

/* A forest plot: one row per entry, labelled in a left margin wide enough for the longest
 * label (see TK_SVG_LABEL_MAX), the x axis nice over every finite value (and 0 when
 * `zero_line`, drawn dashed). `xlabel` names the axis. A row with one marker shows its numbers
 * ("v [lo, hi]", `decimals` decimals) beside its interval, or above it when neither side has
 * room. Rows with no finite v show "no value". */
void tk_svg_forest(FILE *f, const char *title, const char *xlabel, const tk_forest_row *rows,
                   int n, int zero_line, int decimals);

/* Horizontal stacked bars, labelled as a forest plot's rows: row r has nseg segments of width frac[r * nseg + k] (fractions of
 * the row, summing to at most 1), coloured by the palette, with a legend of seg_labels; a
 * segment wide enough shows its percentage. */
void tk_svg_stacked(FILE *f, const char *title, const char *const *row_labels, int nrows,
                    const char *const *seg_labels, int nseg, const double *frac);

/* A series of points (x ascending); a NAN y is a gap, ±INFINITY a point off the scale (drawn at
 * the plot's edge). */
typedef struct tk_series {
  const char *label;
  const double *x, *y;
  int n;
  double band_lo, band_hi; /* an interval drawn as a bracket at the right end (NAN: none) */
} tk_series;

/* A horizontal reference line (a bound), labelled at its right end. */
typedef struct tk_hline {
  double y;
  const char *label;
} tk_hline;

/* Lines against a common x axis, coloured by the palette, with a legend (a label too long for
 * its quarter of the width cut with "…", whole in a <title>). The y axis spans every finite y,
 * band and line; a y of ±INFINITY is drawn at the top or bottom edge, beyond every finite value,
 * with an arrow pointing out of the plot and "+∞" or "−∞" beside the first of consecutive ones. */
void tk_svg_lines(FILE *f, const char *title, const char *xlabel, const char *ylabel,
                  const tk_series *s, int ns, const tk_hline *h, int nh);

#endif
