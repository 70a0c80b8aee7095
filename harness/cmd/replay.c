/* harness/cmd/replay.c — `taikai replay LOG|DIR...`: checks the game logs `taikai run --logs`
 * writes to OUT/logs/unit-NNNNNNNN.jsonl[.gz] by replaying each through its engine: four-player
 * riichi (mjai-style JSON lines, every win scored by the rules kernel: tk_riichi_log_replay,
 * harness/games/riichi_log.h) and daifugo (one block per log: tk_daifugo_log_replay,
 * harness/games/daifugo_log.h); a file whose first line is a start_block line is daifugo's.
 * Prints one line per game (OK, or its first mismatch with the engine's and the log's values)
 * and a count; exit 0 all replay, 1 a mismatch, 2 bad usage or a file or folder that cannot be
 * read. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "daifugo_log.h"
#include "import.h"
#include "riichi_log.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai replay [--quiet] LOG|DIR...\n"
          "\n"
          "Checks game logs against their engine (gzipped too: *.jsonl.gz).\n"
          "\n"
          "Daifugo logs (`taikai run --logs` on a daifugo spec; docs/daifugo.md, \"Logs\"), one\n"
          "block each: the block is dealt again from its seed, block index and rules, every give,\n"
          "play and pass is applied for its player, who must be the one to act, and must be legal,\n"
          "and every line must equal the engine's (deals, transfers, seats, each game's places,\n"
          "classes, points and sennichite, the block's totals).\n"
          "\n"
          "Four-player riichi mjai logs: those `taikai run --logs` writes\n"
          "(OUT/logs/unit-NNNNNNNN.jsonl, one game each, or OUT/logs/run.jsonl), those\n"
          "`taikai import tenhou` converts, and mjai logs\n"
          "of other tools. Every hand's wall is rebuilt from the log, the players' decisions\n"
          "are replayed through the riichi engine, and every event the engine emits must\n"
          "equal the log's line: draws, discards, calls, riichi, dora, each win scored again\n"
          "by the rules kernel (yaku, fu, han, points), payments, draws and tenpai, scores,\n"
          "the final scores.\n"
          "\n"
          "  LOG      a log file\n"
          "  DIR      every *.jsonl (*.jsonl.gz) file in the folder, in name order; a run folder (one with\n"
          "           spec.json) stands for its logs/ folder\n"
          "  --quiet  print only the mismatches and the final count\n"
          "\n"
          "Prints, per log, `OK LOG: ...` or its first mismatch:\n"
          "  MISMATCH LOG:LINE: EVENT: what differs\n"
          "    expected: the engine's value (or event)\n"
          "    logged:   the log's value (or line)\n"
          "then `N logs, M games replayed, K mismatches` (a daifugo block counts as one game).\n"
          "A file may hold several games or blocks one after the other (the run's one file of\n"
          "`taikai run --logs=run[,gz]`, OUT/logs/run.jsonl[.gz], or a concatenation of unit\n"
          "logs: `cat logs/*.jsonl.gz > all.jsonl.gz`); each is checked and named LOG#K.\n"
          "\n"
          "The game length and rules come from start_game: taikai's \"taikai_rules\", else the\n"
          "mjai \"kyoku_first\" (0 hanchan, 4 east-only) and \"aka_flag\" over Tenhou's rules;\n"
          "a log declaring neither is replayed as east-only, then as hanchan, and a note says\n"
          "which one replays. Fields a log lacks are not compared; yaku lists are compared in\n"
          "logs taikai wrote or converted (names differ between mjai dialects).\n"
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

/* Replays one daifugo block from `g` (the segment of `path` starting after line `offset`,
 * called `name`) and prints its line. Returns 0 replayed, 1 a mismatch, 2 unreadable. */
static int replay_daifugo(FILE *g, const char *path, const char *name, int offset, int quiet) {
  tk_daifugo_replay *r = malloc(sizeof *r);
  if (!r) {
    fprintf(stderr, "taikai replay: %s: out of memory\n", name);
    return 2;
  }
  tk_error err;
  tk_error_clear(&err);
  int e = tk_daifugo_log_replay(g, r, &err), rc = 0;
  if (r->bad_line) r->bad_line += offset; /* the file's line */
  if (e == TK_EIO || e == TK_ENOMEM) {
    fprintf(stderr, "taikai replay: %s: cannot read: %s\n", name, err.msg);
    rc = 2;
  } else if (e) {
    printf("MISMATCH %s:%d: %s%s%s\n", path, r->bad_line, r->bad_event,
           r->bad_event[0] ? ": " : "", r->bad_what);
    if (r->expected[0]) printf("  expected: %s\n", r->expected);
    if (r->logged[0] || r->expected[0])
      printf("  logged:   %s\n", r->logged[0] ? r->logged : "(end of log)");
    rc = 1;
  } else if (!quiet) {
    printf("OK %s: daifugo block %llu, %d %s, %d actions checked, points %d %d %d %d %d\n", name,
           (unsigned long long)r->block, r->games, plural(r->games, "game", "games"), r->actions,
           (int)r->points[0], (int)r->points[1], (int)r->points[2], (int)r->points[3],
           (int)r->points[4]);
  }
  free(r);
  return rc;
}

int tk_cmd_replay(int argc, char **argv) {
  paths ps = {NULL, 0, 0};
  int quiet = 0, rc = 0, nargs = 0, dashdash = 0;
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    if (!dashdash && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
      usage(stdout);
      goto done;
    }
    if (!dashdash && (!strcmp(a, "-q") || !strcmp(a, "--quiet"))) {
      quiet = 1;
      continue;
    }
    if (!dashdash && !strcmp(a, "--")) {
      dashdash = 1;
      continue;
    }
    if (!dashdash && a[0] == '-' && a[1]) {
      fprintf(stderr, "taikai replay: unknown option '%s' (see taikai replay --help)\n", a);
      rc = 2;
      break;
    }
    nargs++;
    rc = add_arg(&ps, a);
  }
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
    /* a file may hold several games, each from its start_game line (daifugo: start_block) */
    size_t first = 0;
    while (first < len && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' ||
                           text[first] == '\n'))
      first++;
    const char *eol = memchr(text + first, '\n', len - first);
    size_t head = eol ? (size_t)(eol - text) : len;
    char saved = text[head];
    text[head] = '\0';
    int daifugo = strstr(text + first, "\"start_block\"") != NULL;
    text[head] = saved;
    const char *marker = daifugo ? "\"start_block\"" : "\"start_game\"";
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
      if (daifugo && g) {
        int e = replay_daifugo(g, path, name, firstline[k] - 1, quiet);
        fclose(g);
        if (e == 2) unreadable++;
        else if (e == 1) bad++;
        else games++;
        continue;
      }
      tk_riichi_replay *r = g ? malloc(sizeof *r) : NULL;
      if (!r) {
        if (g) fclose(g);
        free(r);
        free(text);
        free(starts);
        free(firstline);
        fprintf(stderr, "taikai replay: out of memory\n");
        rc = 2;
        goto done;
      }
      tk_error err;
      tk_error_clear(&err);
      int e = tk_riichi_log_replay(g, r, &err);
      fclose(g);
      if (r->bad_line) r->bad_line += firstline[k] - 1; /* the file's line */
      if (e == TK_EIO || e == TK_ENOMEM) {
        fprintf(stderr, "taikai replay: %s: cannot read: %s\n", name, err.msg);
        unreadable++;
      } else if (e) {
        bad++;
        printf("MISMATCH %s:%d: %s%s%s\n", path, r->bad_line, r->bad_event,
               r->bad_event[0] ? ": " : "", r->bad_what);
        if (r->expected[0]) printf("  expected: %s\n", r->expected);
        if (r->logged[0] || r->expected[0])
          printf("  logged:   %s\n", r->logged[0] ? r->logged : "(end of log)");
        if (r->rules_note[0]) printf("  note:     %s\n", r->rules_note);
      } else {
        games++;
        if (!quiet)
          printf("OK %s: %d %s, %d events checked, final scores %d %d %d %d\n", name, r->kyoku,
                 plural(r->kyoku, "hand", "hands"), r->events_checked, (int)r->scores[0],
                 (int)r->scores[1], (int)r->scores[2], (int)r->scores[3]);
        if (!quiet && r->rules_note[0]) printf("  note: %s\n", r->rules_note);
      }
      free(r);
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
  for (size_t i = 0; i < ps.n; i++) free(ps.p[i]);
  free(ps.p);
  fflush(stdout);
  return rc;
}
