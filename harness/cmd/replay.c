/* harness/cmd/replay.c — `taikai replay LOG|DIR...`: checks the game logs `taikai run --logs`
 * writes to OUT/logs/unit-NNNNNNNN.jsonl[.gz] by replaying each through its engine. A log's game
 * is the one whose tk_game.log_start is the "type" of the file's first line (a file whose first
 * line names no game's start goes to the first game with a replay, riichi's mjai reader, so
 * that mjai logs of other tools are read); each game's replay hook checks one unit and prints
 * its line (OK, or its first mismatch with the engine's and the log's values); a count follows.
 * Exit 0 all replay, 1 a mismatch, 2 bad usage or a file or folder that cannot be read. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "game.h"
#include "logtext.h"
#include "opts.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai replay [--quiet] LOG|DIR...\n"
          "\n"
          "Checks game logs against their engine (gzipped too: *.jsonl.gz).\n"
          "\n");
  for (const tk_game *const *g = tk_game_all(); *g; g++)
    if ((*g)->replay && (*g)->replay_help) fprintf(f, "%s\n", (*g)->replay_help);
  fprintf(f,
          "  LOG      a log file\n"
          "  DIR      every *.jsonl (*.jsonl.gz) file in the folder, in name order; a run folder (one with\n"
          "           spec.json) stands for its logs/ folder\n"
          "  --quiet  print only the mismatches and the final count\n"
          "\n"
          "Prints, per log, `OK LOG: ...` or its first mismatch:\n"
          "  MISMATCH LOG:LINE: EVENT: what differs\n"
          "    expected: the engine's value (or event)\n"
          "    logged:   the log's value (or line)\n"
          "then `N logs, M games replayed, K mismatches`.\n"
          "A file may hold several games or blocks one after the other (the run's one file of\n"
          "`taikai run --logs=run[,gz]`, OUT/logs/run.jsonl[.gz], or a concatenation of unit\n"
          "logs: `cat logs/*.jsonl.gz > all.jsonl.gz`); each is checked and named LOG#K.\n"
          "\n"
          "Exit status: 0 every log replays; 1 a log does not (a mismatch, or a line that is\n"
          "not JSON); 2 bad usage, or a file or folder that cannot be read (the message names\n"
          "it and the reason).\n");
}

typedef struct paths {
  char **p;
  size_t n, cap;
} paths;

/* "a/b" (or a copy of a when b is NULL), malloc'd; NULL when out of memory. */
static char *join(const char *a, const char *b) {
  size_t len = strlen(a) + (b ? strlen(b) + 1 : 0) + 1;
  char *s = malloc(len);
  if (s && b) snprintf(s, len, "%s/%s", a, b);
  else if (s) snprintf(s, len, "%s", a);
  return s;
}

/* Appends "a/b" (or a); -1 when out of memory. */
static int push(paths *ps, const char *a, const char *b) {
  if (ps->n == ps->cap) {
    size_t cap = ps->cap ? 2 * ps->cap : 64;
    char **np = realloc(ps->p, cap * sizeof *np);
    if (!np) return -1;
    ps->p = np;
    ps->cap = cap;
  }
  char *s = join(a, b);
  if (!s) return -1;
  ps->p[ps->n++] = s;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && !strcmp(s + n - m, suffix);
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Adds the logs argument `arg` names. Returns 0, or 2 after a message. */
static int add_arg(paths *ps, const char *arg) {
  struct stat st;
  if (stat(arg, &st)) {
    fprintf(stderr, "taikai replay: %s: %s\n", arg, strerror(errno));
    return 2;
  }
  if (S_ISREG(st.st_mode)) {
    if (!push(ps, arg, NULL)) return 0;
    fprintf(stderr, "taikai replay: out of memory\n");
    return 2;
  }
  if (!S_ISDIR(st.st_mode)) {
    fprintf(stderr, "taikai replay: %s: not a file or a folder\n", arg);
    return 2;
  }
  /* a run folder: its logs/ */
  char *dir = NULL, *p = join(arg, "spec.json");
  int rc = 0;
  size_t first = ps->n, unfinished = 0;
  if (!p) goto oom;
  if (stat(p, &st) == 0) {
    dir = join(arg, "logs");
    if (dir && !is_dir(dir)) {
      fprintf(stderr, "taikai replay: %s: a run folder without logs/ (logs are written by "
              "`taikai run --logs`)\n", arg);
      rc = 2;
      goto out;
    }
  } else {
    dir = join(arg, NULL);
  }
  if (!dir) goto oom;
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "taikai replay: %s: cannot open the folder: %s\n", dir, strerror(errno));
    rc = 2;
    goto out;
  }
  struct dirent *e;
  int read_errno = 0;
  for (;;) {
    errno = 0;
    if (!(e = readdir(d))) {
      read_errno = errno;
      break;
    }
    if (e->d_name[0] == '.') continue;
    if (ends_with(e->d_name, ".jsonl.tmp") || ends_with(e->d_name, ".jsonl.gz.tmp")) unfinished++;
    if (!ends_with(e->d_name, ".jsonl") && !ends_with(e->d_name, ".jsonl.gz")) continue;
    free(p);
    if (!(p = join(dir, e->d_name))) {
      closedir(d);
      goto oom;
    }
    if (stat(p, &st) || !S_ISREG(st.st_mode)) continue;
    if (push(ps, dir, e->d_name)) {
      closedir(d);
      goto oom;
    }
  }
  closedir(d);
  if (read_errno) {
    fprintf(stderr, "taikai replay: %s: cannot read the folder: %s\n", dir, strerror(read_errno));
    rc = 2;
  } else if (ps->n == first) {
    fprintf(stderr, "taikai replay: %s: no *.jsonl log in this folder, nor *.jsonl.gz (game logs "
            "are written by `taikai run --logs` into OUT/logs/)\n", dir);
    rc = 2;
  } else {
    qsort(ps->p + first, ps->n - first, sizeof *ps->p, by_name);
    if (unfinished)
      fprintf(stderr, "taikai replay: %s: %zu unfinished log%s (*.jsonl.tmp, from a run that "
              "was stopped) left out\n", dir, unfinished, unfinished == 1 ? "" : "s");
  }
  goto out;
oom:
  fprintf(stderr, "taikai replay: out of memory\n");
  rc = 2;
out:
  free(p);
  free(dir);
  return rc;
}

static const char *plural(long n, const char *one, const char *many) { return n == 1 ? one : many; }

/* The game of a log whose first line is text[0 .. n): the game whose log_start is that line's
 * "type", else the first game with a replay (see the file's comment). */
static const tk_game *game_of_log(const char *line) {
  const tk_game *first = NULL;
  for (const tk_game *const *g = tk_game_all(); *g; g++) {
    if (!(*g)->replay) continue;
    if (!first) first = *g;
    char marker[96];
    snprintf(marker, sizeof marker, "\"%s\"", (*g)->log_start);
    if (strstr(line, marker)) return *g;
  }
  return first;
}

int tk_cmd_replay(int argc, char **argv) {
  paths ps = {NULL, 0, 0};
  int quiet = 0, rc = 0, nargs = 0;
  const tk_opt opts[] = {
      {.name = "quiet", .short_name = 'q', .kind = TK_OPT_FLAG, .dest = &quiet,
       .help = "print only the mismatches and the final count"},
      {.name = NULL},
  };
  const char **args = malloc((size_t)argc * sizeof *args);
  int prc = args ? tk_opts_parse("replay", opts, argc, argv, args, argc, &nargs) : 2;
  if (!args) fprintf(stderr, "taikai replay: out of memory\n");
  if (prc == 1) usage(stdout);
  rc = prc == 1 ? 0 : prc;
  if (prc) goto done;
  for (int i = 0; i < nargs && !rc; i++) rc = add_arg(&ps, args[i]);
  if (!rc && !nargs) {
    usage(stderr);
    rc = 2;
  }
  if (rc) goto done;

  long logs = 0, games = 0, bad = 0, unreadable = 0;
  for (size_t i = 0; i < ps.n; i++) {
    const char *path = ps.p[i];
    char *text = NULL;
    size_t len = 0;
    tk_error rerr;
    tk_error_clear(&rerr);
    if (tk_read_maybe_gz(path, &text, &len, &rerr)) {
      fprintf(stderr, "taikai replay: %s\n", rerr.msg);
      unreadable++;
      continue;
    }
    logs++;
    /* a file may hold several games, each from its line of the game's log_start type */
    size_t first = 0;
    while (first < len && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' ||
                           text[first] == '\n'))
      first++;
    const char *eol = memchr(text + first, '\n', len - first);
    size_t head = eol ? (size_t)(eol - text) : len;
    char saved = text[head];
    text[head] = '\0';
    const tk_game *game = game_of_log(text + first);
    text[head] = saved;
    char marker[96];
    snprintf(marker, sizeof marker, "\"%s\"", game->log_start);
    size_t *starts = NULL;
    int *firstline = NULL, nseg = tk_log_games(text, len, marker, &starts, &firstline);
    if (nseg < 0) {
      free(text);
      fprintf(stderr, "taikai replay: out of memory\n");
      rc = 2;
      goto done;
    }
    for (int k = 0; k < nseg; k++) {
      size_t a = starts[k], b = k + 1 < nseg ? starts[k + 1] : len;
      char name[1200];
      if (nseg > 1) snprintf(name, sizeof name, "%s#%d", path, k + 1);
      else snprintf(name, sizeof name, "%s", path);
      FILE *g = b > a ? fmemopen(text + a, b - a, "r") : tmpfile(); /* empty: no line */
      if (!g) {
        free(text);
        free(starts);
        free(firstline);
        fprintf(stderr, "taikai replay: out of memory\n");
        rc = 2;
        goto done;
      }
      int e = game->replay(g, path, name, firstline[k], quiet);
      fclose(g);
      if (e == 2) unreadable++;
      else if (e == 1) bad++;
      else games++;
    }
    free(starts);
    free(firstline);
    free(text);
  }
  printf("%ld %s, %ld %s replayed, %ld %s", logs, plural(logs, "log", "logs"), games,
         plural(games, "game", "games"), bad, plural(bad, "mismatch", "mismatches"));
  if (unreadable) printf(", %ld unreadable", unreadable);
  printf("\n");
  rc = unreadable ? 2 : bad ? 1 : 0;
done:
  free(args);
  for (size_t i = 0; i < ps.n; i++) free(ps.p[i]);
  free(ps.p);
  fflush(stdout);
  return rc;
}
