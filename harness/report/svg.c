/* harness/report/svg.c — HTML escaping, nice axes and the inline SVG charts of report.html
 * (svg.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

/* ------------------------------------------------------------------ escaping */

/* The length of the well-formed UTF-8 sequence at s (1-4), or 0 if it is not one. */
static int utf8_len(const unsigned char *s) {
  unsigned c = s[0];
  int n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (!n) return 0;
  unsigned cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3F);
  }
  static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000}; /* no overlong forms */
  if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void tk_html_escape(FILE *f, const char *s) {
  if (!s) return;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned c = *p;
    switch (c) {
    case '&': fputs("&amp;", f); p++; continue;
    case '<': fputs("&lt;", f); p++; continue;
    case '>': fputs("&gt;", f); p++; continue;
    case '"': fputs("&quot;", f); p++; continue;
    case '\'': fputs("&#39;", f); p++; continue;
    default: break;
    }
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
      fputs("\xEF\xBF\xBD", f);
      p++;
      continue;
    }
    int n = utf8_len(p);
    if (!n) {
      fputs("\xEF\xBF\xBD", f);
      p++;
      continue;
    }
    fwrite(p, 1, (size_t)n, f);
    p += n;
  }
}

/* ------------------------------------------------------------------ axes */

void tk_axis_nice(double lo, double hi, int max_ticks, tk_axis *a) {
  if (max_ticks < 1) max_ticks = 1;
  if (!isfinite(lo) && !isfinite(hi)) lo = 0, hi = 1;
  else if (!isfinite(lo)) lo = hi;
  else if (!isfinite(hi)) hi = lo;
  if (lo > hi) {
    double t = lo;
    lo = hi;
    hi = t;
  }
  if (hi - lo <= 1e-12 * fmax(1, fabs(lo))) { /* one value: a unit of its magnitude around it */
    double m = lo == 0 ? 1 : pow(10, floor(log10(fabs(lo))));
    lo -= m / 2;
    hi += m / 2;
  }
  double raw = (hi - lo) / max_ticks;
  double mag = pow(10, floor(log10(raw)));
  double step = mag;
  static const double mult[] = {1, 2, 5, 10};
  for (int i = 0; i < 4; i++) {
    step = mult[i] * mag;
    if (step >= raw * (1 - 1e-9)) break;
  }
  /* rounding out may add an interval: widen the step until the ticks fit */
  for (;;) {
    double l = floor(lo / step + 1e-9) * step, h = ceil(hi / step - 1e-9) * step;
    if ((h - l) / step <= max_ticks + 1e-9) {
      a->lo = l;
      a->hi = h;
      break;
    }
    double e = step / pow(10, floor(log10(step) + 1e-9));
    step = e < 1.5 ? step * 2 : e < 3 ? step * 2.5 : step * 2;
  }
  a->step = step;
  int d = (int)-floor(log10(step) + 1e-9);
  if (fabs(step / pow(10, floor(log10(step) + 1e-9)) - 2.5) < 1e-9) d++; /* 0.25 */
  a->decimals = d > 0 ? d : 0;
}

double tk_axis_px(const tk_axis *a, double v, double p0, double p1) {
  return p0 + (v - a->lo) / (a->hi - a->lo) * (p1 - p0);
}

const char *tk_svg_colour(int i) {
  static const char *const pal[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return pal[((i % 10) + 10) % 10];
}

/* ------------------------------------------------------------------ common parts */

static void svg_open(FILE *f, int h, const char *title) {
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\" role=\"img\">\n", TK_SVG_WIDTH, h, TK_SVG_WIDTH, h);
  fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", TK_SVG_WIDTH, h);
  if (title && *title) {
    fprintf(f, "<text x=\"%d\" y=\"18\" class=\"ct\">", 8);
    tk_html_escape(f, title);
    fputs("</text>\n", f);
  }
}

static void fmt_tick(char *buf, size_t cap, double v, int decimals) {
  snprintf(buf, cap, "%.*f", decimals, v);
  if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)) memmove(buf, buf + 1, strlen(buf));
}

/* ------------------------------------------------------------------ labels
 * No font is measured: a label's width is estimated from its characters at font size `px`,
 * 0.6 em for a narrow one and 1 em for a wide one (U+3000 and above: CJK, kana, emoji). */

/* The bytes of the UTF-8 character at s (1 for a byte that is not a lead byte). */
static int char_len(const unsigned char *s) {
  int n = s[0] < 0xC0 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xC0) != 0x80) return 1;
  return n;
}

static double char_width(const unsigned char *s, double px) {
  return s[0] >= 0xE3 ? px : 0.6 * px; /* lead bytes from 0xE3 start U+3000 and above */
}

static double text_width(const char *s, double px) {
  double w = 0;
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p += char_len(p))
    w += char_width(p, px);
  return w;
}

/* The left margin that fits a label `widest` pixels wide (text_width at the row labels' 12 px)
 * beside the plot: at least TK_SVG_LEFT, at most TK_SVG_LABEL_MAX (wider labels are shortened,
 * see label). */
static double label_margin(double widest) {
  return fmin(fmax(widest + 16, TK_SVG_LEFT), TK_SVG_LABEL_MAX);
}

/* Label `s` as SVG text at (x, y), anchored `anchor`, in class `cls` whose font is `px` high,
 * within `room` pixels: whole when it fits, else cut at a character with "…" and its whole
 * text in a <title> (the tooltip). */
static void label(FILE *f, double x, double y, const char *anchor, const char *cls, double px,
                  const char *s, double room) {
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s%s%s class=\"%s\">", x, y, anchor ? " text-anchor=\"" : "",
          anchor ? anchor : "", anchor ? "\"" : "", cls);
  if (!s) s = "";
  if (text_width(s, px) <= room) {
    tk_html_escape(f, s);
    fputs("</text>\n", f);
    return;
  }
  fputs("<title>", f);
  tk_html_escape(f, s);
  fputs("</title>", f);
  double w = px; /* the ellipsis */
  size_t cut = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p += char_len(p)) {
    if (w + char_width(p, px) > room) break;
    w += char_width(p, px);
    cut = (size_t)((const char *)p - s) + (size_t)char_len(p);
  }
  char buf[512];
  snprintf(buf, sizeof buf, "%.*s", (int)(cut < sizeof buf ? cut : sizeof buf - 1), s);
  tk_html_escape(f, buf);
  fputs("\xE2\x80\xA6</text>\n", f);
}

/* The x axis from x0 to the plot's right end at y = `y0` (the plot's bottom), with grid lines
 * up to `ytop`. */
static void x_axis(FILE *f, const tk_axis *ax, double x0, double y0, double ytop,
                   const char *xlabel) {
  double x1 = TK_SVG_WIDTH - TK_SVG_RIGHT;
  fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>\n", x0, y0, x1, y0);
  int n = (int)floor((ax->hi - ax->lo) / ax->step + 0.5);
  for (int i = 0; i <= n; i++) {
    double v = ax->lo + i * ax->step;
    double x = tk_axis_px(ax, v, x0, x1);
    char t[48];
    fmt_tick(t, sizeof t, v, ax->decimals);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n", x, ytop, x, y0);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"tick\">%s</text>\n", x,
            y0 + 14, t);
  }
  if (xlabel) {
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"al\">", (x0 + x1) / 2, y0 + 32);
    tk_html_escape(f, xlabel);
    fputs("</text>\n", f);
  }
}

/* ------------------------------------------------------------------ forest plot */

void tk_svg_forest(FILE *f, const char *title, const char *xlabel, const tk_forest_row *rows,
                   int n, int zero_line, int decimals) {
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < n; i++) {
    const double v[] = {rows[i].v, rows[i].lo, rows[i].hi, rows[i].pv, rows[i].plo, rows[i].phi};
    for (int k = 0; k < 6; k++)
      if (isfinite(v[k])) lo = fmin(lo, v[k]), hi = fmax(hi, v[k]);
  }
  if (zero_line) lo = fmin(lo, 0), hi = fmax(hi, 0);
  tk_axis ax;
  tk_axis_nice(lo, hi, 6, &ax);
  int h = TK_SVG_TOP + n * TK_SVG_ROW + TK_SVG_BOTTOM;
  double widest = 0;
  for (int i = 0; i < n; i++) widest = fmax(widest, text_width(rows[i].label, 12));
  double x0 = label_margin(widest), x1 = TK_SVG_WIDTH - TK_SVG_RIGHT;
  double y0 = TK_SVG_TOP + n * TK_SVG_ROW;
  svg_open(f, h, title);
  x_axis(f, &ax, x0, y0, TK_SVG_TOP, xlabel);
  if (zero_line) {
    double x = tk_axis_px(&ax, 0, x0, x1);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" class=\"zero\"/>\n", x,
            TK_SVG_TOP, x, y0);
  }
  for (int i = 0; i < n; i++) {
    const tk_forest_row *r = &rows[i];
    double y = TK_SVG_TOP + i * TK_SVG_ROW + TK_SVG_ROW / 2.0;
    int two = isfinite(r->pv);
    double yo = two ? y - 4 : y, yp = y + 4;
    label(f, x0 - 8, y + 4, "end", "lab", 12, r->label, x0 - 16);
    if (!isfinite(r->v)) {
      fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">no value</text>\n", x0 + 4, y + 4);
      continue;
    }
    if (isfinite(r->lo) && isfinite(r->hi))
      fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ci\"/>\n",
              tk_axis_px(&ax, r->lo, x0, x1), yo, tk_axis_px(&ax, r->hi, x0, x1), yo);
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" class=\"pt\"/>\n",
            tk_axis_px(&ax, r->v, x0, x1), yo);
    if (!two) { /* the numbers, beside the interval where there is room, else above it */
      char v[48], slo[48], shi[48], text[160];
      fmt_tick(v, sizeof v, r->v, decimals);
      if (isfinite(r->lo) && isfinite(r->hi)) {
        fmt_tick(slo, sizeof slo, r->lo, decimals);
        fmt_tick(shi, sizeof shi, r->hi, decimals);
        snprintf(text, sizeof text, "%s [%s, %s]", v, slo, shi);
      } else {
        snprintf(text, sizeof text, "%s", v);
      }
      double w = 6.0 * (double)strlen(text); /* 10 px digits are at most 6 px wide */
      double right = tk_axis_px(&ax, isfinite(r->hi) ? r->hi : r->v, x0, x1) + 8;
      double left = tk_axis_px(&ax, isfinite(r->lo) ? r->lo : r->v, x0, x1) - 8;
      if (right + w <= x1)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"val\">%s</text>\n", right, y + 3.5, text);
      else if (left - w >= x0)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"val\">%s</text>\n", left,
                y + 3.5, text);
      else
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"val\">%s</text>\n",
                tk_axis_px(&ax, r->v, x0, x1), y - 5, text);
    }
    if (two) {
      if (isfinite(r->plo) && isfinite(r->phi))
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"pci\"/>\n",
                tk_axis_px(&ax, r->plo, x0, x1), yp, tk_axis_px(&ax, r->phi, x0, x1), yp);
      double px = tk_axis_px(&ax, r->pv, x0, x1);
      fprintf(f, "<path d=\"M%.1f %.1fl4.5 4.5l-4.5 4.5l-4.5 -4.5z\" class=\"pub\"/>\n", px, yp - 4.5);
    }
  }
  fputs("</svg>\n", f);
}

/* ------------------------------------------------------------------ stacked bars */

void tk_svg_stacked(FILE *f, const char *title, const char *const *row_labels, int nrows,
                    const char *const *seg_labels, int nseg, const double *frac) {
  int legend = 22;
  int h = TK_SVG_TOP + legend + nrows * TK_SVG_ROW + 10;
  double widest = 0;
  for (int r = 0; r < nrows; r++) widest = fmax(widest, text_width(row_labels[r], 12));
  double x0 = label_margin(widest), x1 = TK_SVG_WIDTH - TK_SVG_RIGHT;
  svg_open(f, h, title);
  double lx = x0;
  for (int k = 0; k < nseg; k++) {
    fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", lx,
            TK_SVG_TOP, tk_svg_colour(k));
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\">", lx + 14, TK_SVG_TOP + 9);
    tk_html_escape(f, seg_labels[k]);
    fputs("</text>\n", f);
    lx += 14 + 7.0 * (double)strlen(seg_labels[k] ? seg_labels[k] : "") + 16;
  }
  for (int r = 0; r < nrows; r++) {
    double y = TK_SVG_TOP + legend + r * TK_SVG_ROW;
    label(f, x0 - 8, y + TK_SVG_ROW / 2.0 + 4, "end", "lab", 12, row_labels[r], x0 - 16);
    double x = x0;
    for (int k = 0; k < nseg; k++) {
      double v = frac[r * nseg + k];
      if (!isfinite(v) || v <= 0) continue;
      double w = v * (x1 - x0);
      fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", x,
              y + 3, w, TK_SVG_ROW - 6, tk_svg_colour(k));
      if (w >= 38)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"seg\">%.1f%%</text>\n",
                x + w / 2, y + TK_SVG_ROW / 2.0 + 4, 100 * v);
      x += w;
    }
  }
  fputs("</svg>\n", f);
}

/* ------------------------------------------------------------------ lines */

/* The pixel row of y on the line chart's axis: ±INFINITY at the plot's top or bottom edge. */
static double line_py(const tk_axis *ay, double y, double ybot, double ytop) {
  return y == INFINITY ? ytop : y == -INFINITY ? ybot : tk_axis_px(ay, y, ybot, ytop);
}

void tk_svg_lines(FILE *f, const char *title, const char *xlabel, const char *ylabel,
                  const tk_series *s, int ns, const tk_hline *h, int nh) {
  double xl = INFINITY, xh = -INFINITY, yl = INFINITY, yh = -INFINITY;
  int inf_hi = 0, inf_lo = 0;
  for (int i = 0; i < ns; i++) {
    for (int k = 0; k < s[i].n; k++) {
      double y = s[i].y[k];
      if (isfinite(s[i].x[k])) xl = fmin(xl, s[i].x[k]), xh = fmax(xh, s[i].x[k]);
      if (isfinite(y)) yl = fmin(yl, y), yh = fmax(yh, y);
      inf_hi |= y == INFINITY;
      inf_lo |= y == -INFINITY;
    }
    if (isfinite(s[i].band_lo) && isfinite(s[i].band_hi))
      yl = fmin(yl, s[i].band_lo), yh = fmax(yh, s[i].band_hi);
  }
  for (int i = 0; i < nh; i++)
    if (isfinite(h[i].y)) yl = fmin(yl, h[i].y), yh = fmax(yh, h[i].y);
  if (inf_hi || inf_lo) { /* room beyond every finite value, so an infinite one stands apart */
    if (!isfinite(yl)) yl = yh = 0;
    double pad = 0.1 * (yh > yl ? yh - yl : fmax(1, fabs(yh)));
    if (inf_hi) yh += pad;
    if (inf_lo) yl -= pad;
  }
  if (xl > 0 && xl < xh) xl = 0; /* counts of walls start at 0 */
  tk_axis ax, ay;
  tk_axis_nice(xl, xh, 8, &ax);
  tk_axis_nice(yl, yh, 6, &ay);
  int legend_rows = (ns + 3) / 4;
  int height = TK_SVG_TOP + TK_SVG_LINES_H + TK_SVG_BOTTOM + legend_rows * 16 + 6;
  double x0 = TK_SVG_LEFT, x1 = TK_SVG_WIDTH - TK_SVG_RIGHT;
  double ytop = TK_SVG_TOP, ybot = TK_SVG_TOP + TK_SVG_LINES_H;
  svg_open(f, height, title);
  x_axis(f, &ax, x0, ybot, ytop, xlabel);
  int n = (int)floor((ay.hi - ay.lo) / ay.step + 0.5);
  for (int i = 0; i <= n; i++) {
    double v = ay.lo + i * ay.step, y = tk_axis_px(&ay, v, ybot, ytop);
    char t[48];
    fmt_tick(t, sizeof t, v, ay.decimals);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n", x0, y, x1, y);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%s</text>\n", x0 - 6,
            y + 4, t);
  }
  fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>\n", x0, ytop, x0, ybot);
  if (ylabel) {
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"al\" "
            "transform=\"rotate(-90 %.1f %.1f)\">", x0 - 60, (ytop + ybot) / 2, x0 - 60, (ytop + ybot) / 2);
    tk_html_escape(f, ylabel);
    fputs("</text>\n", f);
  }
  for (int i = 0; i < nh; i++) {
    if (!isfinite(h[i].y)) continue;
    double y = tk_axis_px(&ay, h[i].y, ybot, ytop);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"bound\"/>\n", x0, y, x1, y);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">", x1 - 4, y - 4);
    tk_html_escape(f, h[i].label);
    fputs("</text>\n", f);
  }
  for (int i = 0; i < ns; i++) {
    const char *c = tk_svg_colour(i);
    int open = 0;
    for (int k = 0; k < s[i].n; k++) {
      double y = s[i].y[k];
      if (isnan(y) || !isfinite(s[i].x[k])) { /* a gap */
        if (open) fputs("\"/>\n", f);
        open = 0;
        continue;
      }
      if (!open) fprintf(f, "<polyline class=\"ln\" stroke=\"%s\" points=\"", c);
      fprintf(f, "%s%.1f,%.1f", open ? " " : "", tk_axis_px(&ax, s[i].x[k], x0, x1),
              line_py(&ay, y, ybot, ytop));
      open = 1;
    }
    if (open) fputs("\"/>\n", f);
    /* each infinite point: an arrow out of the plot at its edge; "∞" beside the first of a run */
    for (int k = 0; k < s[i].n; k++) {
      double y = s[i].y[k];
      if (isfinite(y) || isnan(y) || !isfinite(s[i].x[k])) continue;
      double px = tk_axis_px(&ax, s[i].x[k], x0, x1), up = y > 0 ? 1 : -1;
      double edge = y > 0 ? ytop : ybot;
      fprintf(f, "<path d=\"M%.1f %.1fl4 %.1fl-8 0z\" fill=\"%s\" class=\"inf\"/>\n", px,
              edge - up, 9 * up, c);
      if (k == 0 || s[i].y[k - 1] != y)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"infl\">%s\xE2\x88\x9E</text>\n", px + 6,
                y > 0 ? edge + 12 : edge - 4, y > 0 ? "+" : "\xE2\x88\x92");
    }
    if (s[i].n > 0) { /* the last point, visible even when it is the only one */
      double y = s[i].y[s[i].n - 1];
      if (!isnan(y) && isfinite(s[i].x[s[i].n - 1]))
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                tk_axis_px(&ax, s[i].x[s[i].n - 1], x0, x1), line_py(&ay, y, ybot, ytop), c);
    }
    if (isfinite(s[i].band_lo) && isfinite(s[i].band_hi)) { /* a bracket right of the plot */
      double bx = x1 + 4 + 3 * (i % 6);
      fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
              "stroke-width=\"2\"/>\n", bx, tk_axis_px(&ay, s[i].band_lo, ybot, ytop), bx,
              tk_axis_px(&ay, s[i].band_hi, ybot, ytop), c);
    }
  }
  double slot = (TK_SVG_WIDTH - 16) / 4.0;
  for (int i = 0; i < ns; i++) { /* the legend, four to a row */
    double lx = 8 + (i % 4) * slot;
    double ly = ybot + TK_SVG_BOTTOM + (i / 4) * 16 + 4;
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"3\" fill=\"%s\"/>\n", lx, ly,
            tk_svg_colour(i));
    label(f, lx + 18, ly + 5, NULL, "tick", 11, s[i].label, slot - 24);
  }
  fputs("</svg>\n", f);
}
