/* plugins/riichi_opp/logs.c — reading mjai logs game by game for the trainer (train.h): a file
 * is read a line at a time through zlib (gzip members one after another, or plain text), so a
 * corpus of any size streams through a buffer of one game; a game starts at the top of a file
 * and at every later start_game line, as `taikai replay` splits files (tk_log_games). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>

#include "train.h"

typedef struct buf {
  char *p;
  size_t n, cap;
} buf;

static int reserve(buf *b, size_t need) {
  if (need <= b->cap) return 0;
  size_t c = b->cap ? b->cap : 1 << 16;
  while (c < need) c *= 2;
  char *q = realloc(b->p, c);
  if (!q) return -1;
  b->p = q;
  b->cap = c;
  return 0;
}

/* Appends the next line of `gz` (with its newline) to `b`; returns its length, 0 at the end,
 * -1 when out of memory or on a read error. */
static long next_line(gzFile gz, buf *b) {
  size_t start = b->n;
  for (;;) {
    if (reserve(b, b->n + 4096)) return -1;
    if (!gzgets(gz, b->p + b->n, (int)(b->cap - b->n))) break;
    size_t got = strlen(b->p + b->n);
    b->n += got;
    if (got && b->p[b->n - 1] == '\n') break;
  }
  int errnum = 0;
  gzerror(gz, &errnum);
  if (errnum != Z_OK && errnum != Z_STREAM_END) return -1;
  return (long)(b->n - start);
}

static int is_start(const char *line, size_t len) {
  char save = line[len];
  char *l = (char *)line;
  l[len] = '\0';
  int yes = strstr(l, "\"start_game\"") && strstr(l, "\"type\"");
  l[len] = save;
  return yes;
}

static int read_file(const char *path, log_game_fn game, void *ctx) {
  gzFile gz = gzopen(path, "rb");
  if (!gz) {
    fprintf(stderr, "riichi_opp_train: %s: cannot open: %s\n", path, strerror(errno));
    return 2;
  }
  gzbuffer(gz, 1 << 17);
  buf b = {NULL, 0, 0};
  int rc = 0, line = 0, first = 1;
  for (;;) {
    size_t before = b.n;
    long len = next_line(gz, &b);
    if (len < 0) {
      int errnum;
      const char *msg = gzerror(gz, &errnum);
      fprintf(stderr, "riichi_opp_train: %s: line %d: cannot read: %s\n", path, line + 1,
              errnum == Z_OK ? "out of memory" : msg);
      rc = 2;
      break;
    }
    if (len == 0) break;
    line++;
    if (before > 0 && is_start(b.p + before, (size_t)len)) {
      char save = b.p[before];
      b.p[before] = '\0';
      rc = game(ctx, path, b.p, before, first);
      b.p[before] = save;
      if (rc) break;
      memmove(b.p, b.p + before, (size_t)len);
      b.n = (size_t)len;
      first = line;
    }
  }
  if (!rc && b.n) {
    if (!reserve(&b, b.n + 1)) {
      b.p[b.n] = '\0';
      rc = game(ctx, path, b.p, b.n, first);
    } else {
      rc = 1;
    }
  }
  free(b.p);
  gzclose(gz);
  return rc;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && !strcmp(s + n - m, suffix);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_dir(const char *arg, log_game_fn game, void *ctx) {
  char dir[4096];
  struct stat st;
  snprintf(dir, sizeof dir, "%s/spec.json", arg);
  if (!stat(dir, &st)) snprintf(dir, sizeof dir, "%s/logs", arg);
  else snprintf(dir, sizeof dir, "%s", arg);
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "riichi_opp_train: %s: cannot open the folder: %s\n", dir, strerror(errno));
    return 2;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d)) && !rc) {
    if (e->d_name[0] == '.' || !(ends_with(e->d_name, ".jsonl") || ends_with(e->d_name, ".jsonl.gz")))
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      char **nn = realloc(names, cap * sizeof *nn);
      if (!nn) {
        rc = 1;
        break;
      }
      names = nn;
    }
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    if (!(names[n] = malloc(len))) {
      rc = 1;
      break;
    }
    snprintf(names[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  if (rc) fprintf(stderr, "riichi_opp_train: out of memory\n");
  if (!rc && !n) {
    fprintf(stderr, "riichi_opp_train: %s: no *.jsonl or *.jsonl.gz log in this folder\n", dir);
    rc = 2;
  }
  if (n) qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n && !rc; i++) rc = read_file(names[i], game, ctx);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}

int logs_each(const char *const *inputs, int n, log_game_fn game, void *ctx) {
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    struct stat st;
    if (stat(inputs[i], &st)) {
      fprintf(stderr, "riichi_opp_train: %s: %s\n", inputs[i], strerror(errno));
      return 2;
    }
    rc = S_ISDIR(st.st_mode) ? read_dir(inputs[i], game, ctx) : read_file(inputs[i], game, ctx);
  }
  return rc;
}
