/* harness/records/logtext.c — game-log files as text (logtext.h). */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "logtext.h"
#include "taikai/file.h"

int tk_read_maybe_gz(const char *path, char **text, size_t *len, tk_error *err) {
  *text = NULL;
  *len = 0;
  int fd = tk_file_open(path, TK_FILE_MAX_BYTES, NULL, err);
  if (fd < 0) return fd;
  gzFile z = gzdopen(fd, "rb"); /* reads plain files unchanged */
  if (!z) {
    close(fd);
    return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (!buf) {
      gzclose(z);
      return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", path);
    }
    if (n == cap) {
      cap *= 2;
      char *nb = realloc(buf, cap + 1);
      if (!nb) free(buf);
      buf = nb;
      continue;
    }
    int got = gzread(z, buf + n, (unsigned)(cap - n));
    if (got < 0) {
      int zerr;
      const char *msg = gzerror(z, &zerr);
      tk_error_set(err, TK_EIO, -1, "%s: cannot read: %s", path,
                   zerr == Z_ERRNO ? strerror(errno) : msg);
      free(buf);
      gzclose(z);
      return TK_EIO;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  gzclose(z);
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return 0;
}

int tk_log_games(char *text, size_t len, const char *marker, size_t **starts_out,
                 int **firstline_out) {
  size_t *starts = NULL;
  int *firstline = NULL, nseg = 0, segcap = 0, lineno = 1;
  for (size_t at = 0;;) { /* game 0 starts at the top, whatever its first line */
    int sg = at == 0;
    const char *nl = at < len ? memchr(text + at, '\n', len - at) : NULL;
    size_t end = nl ? (size_t)(nl - text) + 1 : len;
    if (at > 0 && end > at) {
      char save = text[end - 1];
      text[end - 1] = '\0';
      sg = strstr(text + at, marker) && strstr(text + at, "\"type\"");
      text[end - 1] = save;
    }
    if (sg) {
      if (nseg == segcap) {
        segcap = segcap ? 2 * segcap : 16;
        size_t *ns = realloc(starts, sizeof *ns * (size_t)segcap);
        if (ns) starts = ns;
        int *nf = ns ? realloc(firstline, sizeof *nf * (size_t)segcap) : NULL;
        if (nf) firstline = nf;
        if (!ns || !nf) {
          free(starts);
          free(firstline);
          return -1;
        }
      }
      starts[nseg] = at;
      firstline[nseg++] = lineno;
    }
    if (end >= len) break;
    at = end;
    lineno++;
  }
  *starts_out = starts;
  *firstline_out = firstline;
  return nseg;
}

/* `v` compact, keys in their order, into buf, cut with "..." when it does not fit; `none` for
 * NULL (or what cannot be encoded). */
static void brief(const json_t *v, const char *none, char *buf, size_t cap) {
  if (!cap) return;
  char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  const char *t = s ? s : none;
  if (strlen(t) + 1 > cap && cap > 4)
    snprintf(buf, cap, "%.*s...", (int)cap - 4, t);
  else
    snprintf(buf, cap, "%s", t);
  free(s);
}

void tk_json_brief(const json_t *v, char *buf, size_t cap) { brief(v, "(nothing)", buf, cap); }

void tk_json_cut(const json_t *v, char *buf, size_t cap) { brief(v, "", buf, cap); }

void tk_replay_mismatch(const char *path, int line, const char *event, const char *what,
                        const char *expected, const char *logged, const char *none,
                        const char *note) {
  printf("MISMATCH %s:%d: %s%s%s\n", path, line, event, event[0] ? ": " : "", what);
  if (expected && expected[0]) printf("  expected: %s\n", expected);
  if ((logged && logged[0]) || (expected && expected[0]))
    printf("  logged:   %s\n", logged && logged[0] ? logged : none);
  if (note && note[0]) printf("  note:     %s\n", note);
}
