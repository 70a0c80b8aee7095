#!/usr/bin/env python3
"""tests/report/html_check.py FILE [--row LABEL]... [--text TEXT]... [--svg N] [--absent TEXT]...

Checks that FILE (a report.html of taikai) is well formed and self-contained, with Python's own
html.parser (no pip):
  - it starts with <!DOCTYPE html>; every element is closed, in order (strict tag balance: void
    elements are meta, br, hr, img, input, link, col, wbr; SVG elements close themselves "/>");
  - one html, head, body and title; at least N svg elements (--svg);
  - nothing is fetched: no script, iframe, object, embed, link, img, audio, video, source
    elements, no src/href/srcset attributes, no url( or @import in a style;
  - every --row LABEL is the first cell of some table row; every --text TEXT is in the page's
    text (entities decoded); no --absent TEXT is in the raw bytes (e.g. an unescaped label).
Prints every problem and exits 1 if any, else prints "ok" and exits 0."""
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "area", "base", "source"}
FETCH = {"script", "iframe", "object", "embed", "link", "img", "audio", "video", "source",
         "frame", "frameset", "applet", "base"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.counts = [], [], {}
        self.rows, self.text, self.in_style = [], [], False
        self.row_cells, self.cell = None, None

    def where(self):
        return "line %d col %d" % self.getpos()

    def starttag(self, tag, attrs, closed):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag in FETCH:
            self.errors.append("%s: <%s> fetches or runs something" % (self.where(), tag))
        for k, v in attrs:
            if k in ("src", "href", "srcset", "xlink:href", "action", "formaction"):
                self.errors.append("%s: <%s %s=...> refers to another resource" % (self.where(), tag, k))
            if k.startswith("on"):
                self.errors.append("%s: <%s %s=...> is a script" % (self.where(), tag, k))
            if v and ("url(" in v or "javascript:" in v):
                self.errors.append("%s: <%s %s=%r> refers to a resource" % (self.where(), tag, k, v))
        if tag == "tr":
            self.row_cells = []
        if tag in ("td", "th"):
            self.cell = []
        if tag == "style":
            self.in_style = True
        if not closed and tag not in VOID:
            self.stack.append((tag, self.where()))

    def handle_starttag(self, tag, attrs):
        self.starttag(tag, attrs, False)

    def handle_startendtag(self, tag, attrs):
        self.starttag(tag, attrs, True)

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append("%s: </%s> closes a void element" % (self.where(), tag))
            return
        if not self.stack:
            self.errors.append("%s: </%s> with nothing open" % (self.where(), tag))
            return
        top, pos = self.stack.pop()
        if top != tag:
            self.errors.append("%s: </%s> closes <%s> opened at %s" % (self.where(), tag, top, pos))
        if tag in ("td", "th") and self.cell is not None and self.row_cells is not None:
            self.row_cells.append("".join(self.cell).strip())
            self.cell = None
        if tag == "tr" and self.row_cells is not None:
            self.rows.append(self.row_cells)
            self.row_cells = None
        if tag == "style":
            self.in_style = False

    def handle_data(self, data):
        if self.in_style and ("url(" in data or "@import" in data):
            self.errors.append("%s: a style refers to another resource" % self.where())
        self.text.append(data)
        if self.cell is not None:
            self.cell.append(data)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    path, rows, texts, absent, svg = argv[1], [], [], [], 0
    i = 2
    while i < len(argv):
        opt, val = argv[i], argv[i + 1] if i + 1 < len(argv) else None
        if val is None:
            print("%s expects a value" % opt)
            return 2
        if opt == "--row":
            rows.append(val)
        elif opt == "--text":
            texts.append(val)
        elif opt == "--absent":
            absent.append(val)
        elif opt == "--svg":
            svg = int(val)
        else:
            print("unknown option %s" % opt)
            return 2
        i += 2
    raw = open(path, "rb").read()
    try:
        doc = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        print("%s: not UTF-8: %s" % (path, e))
        return 1
    c = Checker()
    if not doc.startswith("<!DOCTYPE html>"):
        c.errors.append("does not start with <!DOCTYPE html>")
    c.feed(doc)
    c.close()
    for tag, pos in c.stack:
        c.errors.append("<%s> opened at %s is never closed" % (tag, pos))
    for tag in ("html", "head", "body", "title"):
        if c.counts.get(tag, 0) != 1:
            c.errors.append("%d <%s> elements, expected 1" % (c.counts.get(tag, 0), tag))
    if c.counts.get("svg", 0) < svg:
        c.errors.append("%d <svg> elements, expected at least %d" % (c.counts.get("svg", 0), svg))
    firsts = {r[0] for r in c.rows if r}
    for r in rows:
        if r not in firsts:
            c.errors.append("no table row starts with %r (first cells: %s)" % (r, sorted(firsts)))
    text = "".join(c.text)
    for t in texts:
        if t not in text:
            c.errors.append("text %r not in the page" % t)
    for t in absent:
        if t.encode() in raw:
            c.errors.append("%r is in the page's bytes" % t)
    for e in c.errors:
        print("%s: %s" % (path, e))
    if not c.errors:
        print("ok")
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
