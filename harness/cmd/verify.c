/* harness/cmd/verify.c — `taikai verify RUN [--units N | --all] [--seed S] [-j N] [--quiet]
 * [--ignore-hashes]`: a published run folder checked by playing its units again.
 *
 * Every games.jsonl line is a pure function of the seed, the spec and the plugins, so a unit
 * played again with the same plugins gives the same bytes. The run is rebuilt from its
 * spec.json (tk_folder_spec), its plugins loaded and checked against the recorded SHA-256
 * (tk_spec_files_diff, as a resume checks them), the folder's lines checked against
 * games.chain, and a sample of units re-played through the worker pool (tk_pool_feed); each
 * re-played line (and records.tkr block, and log, where the folder kept them) is compared
 * byte for byte with the folder's. The outcome goes to RUN/verify.json. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "chain.h"
#include "commands.h"
#include "opts.h"
#include "line.h"
#include "output.h"
#include "readfile.h"
#include "shard.h"
#include "taikai/file.h"
#include "taikai/records.h"
#include "taikai/rng.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai verify RUN [--units N | --all] [--seed S] [-j N] [--quiet]\n"
          "                         [--ignore-hashes]\n"
          "\n"
          "Checks a run folder (RUN: what taikai run, taikai merge or a shard wrote) by playing\n"
          "units of it again: taikai is deterministic, so each unit played again with the\n"
          "same plugins gives the same games.jsonl line, byte for byte, whatever -j.\n"
          "\n"
          "First the run is rebuilt from RUN/spec.json and its plugins loaded (by the name or\n"
          "path the spec gives, else the file recorded in spec.json); every plugin and weights\n"
          "file must have the SHA-256 that spec.json records (refused otherwise, naming the\n"
          "agent, the file and both hashes). The folder's lines are checked against\n"
          "games.chain. Then the chosen units are played through the worker pool and each line\n"
          "compared with the folder's (games.jsonl or games.jsonl.gz), and so are its\n"
          "records.tkr block and its log where the run kept them. Each unit prints \"same\" or\n"
          "the first field that differs, e.g. `seats[0].points: 48000 in the folder, 0\n"
          "re-played`; then a summary line. The outcome (date, units, result, taikai version)\n"
          "is written to RUN/verify.json, which taikai report shows.\n"
          "\n"
          "  --units N       a random sample of N units, always with the first and the last\n"
          "                  (default: max(10, 1%% of the folder's units))\n"
          "  --all           every unit of the folder\n"
          "  --seed S        the sample's seed (default: a fresh random one, printed, so the\n"
          "                  same sample can be drawn again; a forger cannot know it)\n"
          "  -j N            worker processes (default 1)\n"
          "  --quiet         print only the units that differ and the summary\n"
          "  --ignore-hashes play with the plugins found now even where their SHA-256 differs\n"
          "                  from spec.json's (a warning is printed): proves that the current\n"
          "                  build still gives the published bytes, not that the published\n"
          "                  build did\n"
          "\n"
          "A run with an external seat (\"external\": true: a client of taikai serve) cannot be\n"
          "played again and is refused.\n"
          "\n"
          "Exit status: 0 every unit checked is the same (and the chain follows); 1 a unit or\n"
          "the chain differs; 2 bad usage, or a folder, spec or plugin refused.\n");
}

/* One unit of the sample, with what the folder holds for it. */
typedef struct vunit {
  uint64_t unit;
  char *line;          /* owned: the folder's line, without its newline */
  size_t len;
  uint8_t *block;      /* owned: its records.tkr block, or NULL */
  size_t block_len;
  int differs;
} vunit;

typedef struct verify {
  const char *dir;
  const tk_run *r;
  const char **labels;
  vunit *u;            /* sorted by unit */
  uint64_t n;
  uint64_t fed, next;  /* feed's and sink's positions in u */
  uint64_t same, differ;
  int records;         /* compare records.tkr blocks */
  int logs;            /* 0: no logs; 1: logs/unit-N.jsonl[.gz]; 2: logs/run.jsonl[.gz] */
  int logs_gz;
  uint64_t *run_index; /* logs == 2: the run log's end after each unit of the folder */
  uint64_t run_index_n;
  uint64_t first;      /* the folder's first unit */
  int quiet;
  char line[TK_LINE_MAX];
} verify;

/* ------------------------------------------------------------------ the first difference */

/* Writes the path of the first difference between JSON values a (the folder's) and b (the
 * re-played) into `path`, and both values; returns 1 if they differ. */
static int first_diff(const json_t *a, const json_t *b, char *path, size_t cap, char *va,
                      char *vb, size_t vcap) {
  size_t at = strlen(path);
  if (json_is_object(a) && json_is_object(b)) {
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)a, key, v) {
      snprintf(path + at, cap - at, "%s%s", at ? "." : "", key);
      json_t *w = json_object_get(b, key);
      if (!w) {
        tk_json_brief(v, va, vcap);
        snprintf(vb, vcap, "(absent)");
        return 1;
      }
      if (first_diff(v, w, path, cap, va, vb, vcap)) return 1;
    }
    json_object_foreach((json_t *)b, key, v) {
      if (json_object_get(a, key)) continue;
      snprintf(path + at, cap - at, "%s%s", at ? "." : "", key);
      snprintf(va, vcap, "(absent)");
      tk_json_brief(v, vb, vcap);
      return 1;
    }
    path[at] = '\0';
    return 0;
  }
  if (json_is_array(a) && json_is_array(b)) {
    size_t na = json_array_size(a), nb = json_array_size(b);
    for (size_t i = 0; i < na || i < nb; i++) {
      snprintf(path + at, cap - at, "[%zu]", i);
      json_t *x = json_array_get(a, i), *y = json_array_get(b, i);
      if (!x || !y) {
        if (x) tk_json_brief(x, va, vcap);
        else snprintf(va, vcap, "(absent)");
        if (y) tk_json_brief(y, vb, vcap);
        else snprintf(vb, vcap, "(absent)");
        return 1;
      }
      if (first_diff(x, y, path, cap, va, vb, vcap)) return 1;
    }
    path[at] = '\0';
    return 0;
  }
  if (json_equal((json_t *)a, (json_t *)b)) return 0;
  if (!at) snprintf(path, cap, "(the line)");
  tk_json_brief(a, va, vcap);
  tk_json_brief(b, vb, vcap);
  return 1;
}

/* Says how the folder's line `a` and the re-played line `b` differ, into `out`. */
static void describe(const char *a, size_t alen, const char *b, size_t blen, char *out,
                     size_t cap) {
  json_t *x = json_loadb(a, alen, JSON_DECODE_ANY, NULL);
  json_t *y = json_loadb(b, blen, JSON_DECODE_ANY, NULL);
  char path[512] = "", va[200], vb[200];
  if (!x)
    snprintf(out, cap, "the folder's line is not JSON");
  else if (first_diff(x, y, path, sizeof path, va, vb, sizeof va))
    snprintf(out, cap, "%s: %s in the folder, %s re-played", path, va, vb);
  else
    snprintf(out, cap, "the same values written with other bytes (%zu bytes in the folder, %zu "
             "re-played)", alen, blen);
  json_decref(x);
  json_decref(y);
}

/* ------------------------------------------------------------------ the folder's files */

/* The number of complete lines of the folder's games file. Returns 0 or 2 (printed). */
static int count_lines(const char *dir, uint64_t *n) {
  char path[TK_PATH_MAX + 32];
  tk_error e;
  tk_error_clear(&e);
  gzFile z = tk_games_open(dir, path, sizeof path, &e);
  if (!z) {
    fprintf(stderr, "taikai verify: %s\n", e.msg);
    return 2;
  }
  static char buf[1 << 16];
  int got, last = '\n';
  *n = 0;
  while ((got = gzread(z, buf, sizeof buf)) > 0)
    for (int i = 0; i < got; i++) *n += buf[i] == '\n', last = buf[i];
  (void)last; /* a torn last line (a killed run) is not counted */
  gzclose(z);
  return 0;
}

/* Reads the sampled units' lines (the folder's line k is unit first + k). Returns 0 or 2. */
static int read_lines(verify *v) {
  char path[TK_PATH_MAX + 32];
  tk_error e;
  tk_error_clear(&e);
  gzFile z = tk_games_open(v->dir, path, sizeof path, &e);
  if (!z) {
    fprintf(stderr, "taikai verify: %s\n", e.msg);
    return 2;
  }
  char *line = malloc(TK_LINE_MAX + 2);
  uint64_t k = 0, at = 0;
  int rc = line ? 0 : 2;
  while (!rc && at < v->n && gzgets(z, line, TK_LINE_MAX + 2)) {
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n') break;
    if (v->first + k == v->u[at].unit) {
      if (!(v->u[at].line = malloc(len))) rc = 2;
      else memcpy(v->u[at].line, line, len - 1), v->u[at].len = len - 1;
      at++;
    }
    k++;
  }
  gzclose(z);
  free(line);
  if (!rc && at < v->n) {
    fprintf(stderr, "taikai verify: %s: holds no complete line for unit %llu\n", path,
            (unsigned long long)v->u[at].unit);
    rc = 2;
  }
  return rc;
}

/* Reads the sampled units' records.tkr blocks. Returns 0 or 2 (printed). */
static int read_blocks(verify *v) {
  char path[TK_PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/records.tkr", v->dir);
  tk_error e;
  tk_error_clear(&e);
  tk_records *rd = NULL;
  FILE *raw = NULL;
  int rc = tk_records_open(path, &rd, &e);
  if (!rc && tk_file_fopen(path, "rb", TK_FILE_ANY_SIZE, &raw, &e)) rc = e.code ? e.code : TK_EIO;
  uint64_t at = 0;
  while (!rc && at < v->n) {
    tk_records_unit ru;
    uint64_t off = tk_records_offset(rd);
    int got = tk_records_next(rd, &ru, &e);
    if (got != 1) {
      if (got == 0) tk_error_set(&e, TK_EPARSE, -1, "%s: holds no records for unit %llu", path,
                                 (unsigned long long)v->u[at].unit);
      rc = TK_EPARSE;
      break;
    }
    if (ru.unit != v->u[at].unit) continue;
    size_t len = (size_t)(tk_records_offset(rd) - off);
    vunit *u = &v->u[at++];
    if (!(u->block = malloc(len ? len : 1)) || fseeko(raw, (off_t)off, SEEK_SET) ||
        fread(u->block, 1, len, raw) != len) {
      rc = tk_error_set(&e, TK_EIO, -1, "%s: cannot read unit %llu", path,
                        (unsigned long long)u->unit);
      break;
    }
    u->block_len = len;
  }
  if (raw) fclose(raw);
  tk_records_close(rd);
  if (rc) fprintf(stderr, "taikai verify: %s\n", e.msg);
  return rc ? 2 : 0;
}

/* Reads a whole file into a new buffer. Returns it (NULL if unreadable) and its size. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = NULL;
  if (tk_file_fopen(path, "rb", TK_FILE_ANY_SIZE, &f, NULL)) return NULL;
  size_t cap = 1 << 16, n = 0, got;
  char *b = malloc(cap);
  while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *nb = realloc(b, cap *= 2);
      if (!nb) free(b);
      b = nb;
    }
  }
  fclose(f);
  *len = n;
  return b;
}

/* Reads bytes [from, to) of `path` into a new buffer, or NULL. */
static char *slice(const char *path, uint64_t from, uint64_t to) {
  FILE *f = NULL;
  if (to < from || tk_file_fopen(path, "rb", TK_FILE_ANY_SIZE, &f, NULL)) return NULL;
  char *b = malloc(to - from + 1);
  if (b && (fseeko(f, (off_t)from, SEEK_SET) || fread(b, 1, to - from, f) != to - from)) {
    free(b);
    b = NULL;
  }
  fclose(f);
  return b;
}

/* Which logs the folder kept (v->logs, v->logs_gz, the run log's index). */
static void find_logs(verify *v) {
  char p[TK_PATH_MAX + 64];
  struct stat st;
  for (int gz = 0; gz < 2 && !v->logs; gz++) {
    snprintf(p, sizeof p, "%s/logs/run.jsonl%s", v->dir, gz ? ".gz" : "");
    if (!stat(p, &st)) v->logs = 2, v->logs_gz = gz;
  }
  if (v->logs == 2) {
    snprintf(p, sizeof p, "%s/logs/run.index", v->dir);
    size_t len = 0;
    unsigned char *b = (unsigned char *)slurp(p, &len);
    v->run_index_n = b ? len / 8 : 0;
    v->run_index = malloc((v->run_index_n ? v->run_index_n : 1) * sizeof *v->run_index);
    for (uint64_t i = 0; v->run_index && i < v->run_index_n; i++) {
      uint64_t x = 0;
      for (int k = 7; k >= 0; k--) x = x << 8 | b[i * 8 + (uint64_t)k];
      v->run_index[i] = x;
    }
    free(b);
    return;
  }
  /* one file per unit: the form of the first sampled unit's */
  for (int gz = 0; gz < 2 && !v->logs; gz++) {
    snprintf(p, sizeof p, "%s/logs/unit-%08llu.jsonl%s", v->dir, (unsigned long long)v->u[0].unit,
             gz ? ".gz" : "");
    if (!stat(p, &st)) v->logs = 1, v->logs_gz = gz;
  }
}

/* The folder's log of unit `unit` (new buffer) and its size; NULL if it has none. */
static char *folder_log(const verify *v, uint64_t unit, size_t *len) {
  char p[TK_PATH_MAX + 64];
  const char *gz = v->logs_gz ? ".gz" : "";
  if (v->logs == 1) {
    snprintf(p, sizeof p, "%s/logs/unit-%08llu.jsonl%s", v->dir, (unsigned long long)unit, gz);
    return slurp(p, len);
  }
  uint64_t k = unit - v->first;
  if (k >= v->run_index_n) return NULL;
  uint64_t from = k ? v->run_index[k - 1] : 0, to = v->run_index[k];
  snprintf(p, sizeof p, "%s/logs/run.jsonl%s", v->dir, gz);
  *len = (size_t)(to - from);
  return slice(p, from, to);
}

/* ------------------------------------------------------------------ playing again */

/* The pool's source: the sampled units, consecutive ones joined into a range. */
static int feed(void *ctx, int wait, uint64_t *first, uint64_t *count) {
  verify *v = ctx;
  (void)wait;
  if (v->fed >= v->n) return TK_FEED_END;
  *first = v->u[v->fed].unit;
  *count = 0;
  while (v->fed < v->n && v->u[v->fed].unit == *first + *count) v->fed++, (*count)++;
  return 1;
}

static void report_unit(verify *v, const vunit *u, const char *what) {
  uint64_t wall = u->unit / v->r->sched.per_wall;
  if (!what) {
    v->same++;
    if (!v->quiet) printf("unit %llu (wall %llu): same\n", (unsigned long long)u->unit,
                          (unsigned long long)wall);
  } else {
    v->differ++;
    printf("unit %llu (wall %llu): differs: %s\n", (unsigned long long)u->unit,
           (unsigned long long)wall, what);
  }
  fflush(stdout);
}

/* The pool's sink: each re-played unit against the folder's, in unit order. */
static int sink(void *ctx, tk_unit_rec *rec, const void *records, size_t records_len) {
  verify *v = ctx;
  const tk_run *r = v->r;
  if (v->next >= v->n || rec->unit != v->u[v->next].unit) return TK_ESTATE;
  vunit *u = &v->u[v->next++];
  tk_run_apply_policy(r, rec);
  int len = tk_line_write(r->game, rec, v->labels, v->line, sizeof v->line);
  char what[800] = "";
  if (len < 0) {
    snprintf(what, sizeof what, "its re-played line is longer than %d bytes", TK_LINE_MAX);
  } else if ((size_t)len != u->len || memcmp(v->line, u->line, u->len)) {
    describe(u->line, u->len, v->line, (size_t)len, what, sizeof what);
  } else if (v->records && (records_len != u->block_len || memcmp(records, u->block, records_len))) {
    snprintf(what, sizeof what, "its records.tkr block (%zu bytes in the folder, %zu re-played, "
             "other bytes)", u->block_len, records_len);
  }
  if (v->logs) {
    char p[TK_PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/unit-%08llu.jsonl%s", r->logs_dir, (unsigned long long)rec->unit,
             v->logs_gz ? ".gz" : "");
    size_t alen = 0, blen = 0;
    char *a = folder_log(v, rec->unit, &alen), *b = slurp(p, &blen);
    if (!*what && !a)
      snprintf(what, sizeof what, "the folder holds no log for it (its other units have one)");
    else if (!*what && (!b || alen != blen || memcmp(a, b, alen)))
      snprintf(what, sizeof what, "its log (%zu bytes in the folder, %zu re-played, other bytes)",
               alen, blen);
    free(a);
    free(b);
    unlink(p);
  }
  u->differs = *what != '\0';
  report_unit(v, u, *what ? what : NULL);
  return 0;
}

/* ------------------------------------------------------------------ the sample */

/* Chooses `want` of the units [first, first + held): the first, the last and a uniform sample
 * of the others (selection sampling, so the units come sorted). */
static vunit *sample(uint64_t first, uint64_t held, uint64_t want, uint64_t seed, uint64_t *n) {
  if (want > held) want = held;
  vunit *u = calloc(want ? want : 1, sizeof *u);
  if (!u) return NULL;
  *n = 0;
  if (!want) return u;
  u[(*n)++].unit = first;
  tk_rng g;
  tk_rng_seed(&g, seed);
  uint64_t need = want >= 2 ? want - 2 : 0, left = held >= 2 ? held - 2 : 0;
  for (uint64_t k = 1; k + 1 < held && need; k++, left--)
    if (tk_rng_double(&g) * (double)left < (double)need) u[(*n)++].unit = first + k, need--;
  if (want >= 2 && held >= 2) u[(*n)++].unit = first + held - 1;
  return u;
}

static uint64_t fresh_seed(void) {
  uint64_t s = 0;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || read(fd, &s, sizeof s) != (ssize_t)sizeof s)
    s = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
  if (fd >= 0) close(fd);
  return s & (uint64_t)INT64_MAX;
}

/* ------------------------------------------------------------------ the run */

/* The recorded file of agent `a` (spec.json's agents[i]) with role `role`, or NULL. */
static const char *recorded_path(const json_t *a, const char *role) {
  json_t *files = json_object_get(a, "files");
  for (size_t k = 0; k < json_array_size(files); k++) {
    json_t *f = json_array_get(files, k);
    const char *r = json_string_value(json_object_get(f, "role"));
    if (r && !strcmp(r, role)) return json_string_value(json_object_get(f, "path"));
  }
  return NULL;
}

/* Prepares the run of folder `dir` (spec.json `old`) with its plugins loaded: each plugin as
 * its spec names it, else the file recorded in spec.json. Returns 0 or 2 (printed). */
static int prepare(tk_run *run, const char *dir, const json_t *old) {
  tk_error err;
  tk_error_clear(&err);
  tk_spec spec;
  if (tk_folder_spec(old, dir, &spec, &err)) {
    fprintf(stderr, "taikai verify: refused: %s\n", err.msg);
    return 2;
  }
  for (int i = 0; i < spec.nagents; i++)
    if (spec.agents[i].external) {
      fprintf(stderr, "taikai verify: refused: %s/spec.json: agent '%s' (agents[%d]) is "
              "external (a client of taikai serve): its decisions came from outside and cannot "
              "be played again, so this run cannot be verified\n", dir, spec.agents[i].label, i);
      tk_spec_free(&spec);
      return 2;
    }
  /* a spec names plugins and weights relative to its own folder: a shard's records its spec
   * file; else a weights file given relative is recorded as <spec folder>/<given> */
  const json_t *shard = json_object_get(old, "shard");
  const char *spec_file = json_string_value(json_object_get(shard, "spec"));
  char dirbuf[TK_PATH_MAX] = "";
  const char *spec_dir = NULL;
  if (spec_file) {
    snprintf(dirbuf, sizeof dirbuf, "%s", spec_file);
    spec_dir = dirname(dirbuf);
  }
  for (int i = 0; !spec_dir && i < spec.nagents; i++) {
    const char *given = json_string_value(json_object_get(spec.agents[i].params, "weights"));
    const char *rec = recorded_path(json_array_get(json_object_get(old, "agents"), (size_t)i),
                                    "weights");
    size_t gl = given ? strlen(given) : 0, rl = rec ? strlen(rec) : 0;
    if (gl && given[0] != '/' && rl > gl + 1 && !strcmp(rec + rl - gl, given) &&
        rec[rl - gl - 1] == '/') {
      snprintf(dirbuf, sizeof dirbuf, "%.*s", (int)(rl - gl - 1), rec);
      spec_dir = dirbuf;
    }
  }
  char **named = calloc((size_t)spec.nagents, sizeof *named);
  for (int i = 0; named && i < spec.nagents; i++) {
    char path[TK_PATH_MAX];
    const char *rec = recorded_path(json_array_get(json_object_get(old, "agents"), (size_t)i),
                                    "plugin");
    if (!tk_plugin_find(spec.agents[i].plugin, spec_dir, path, sizeof path, NULL) || !rec ||
        access(rec, F_OK))
      continue;
    named[i] = spec.agents[i].plugin; /* found only where the run recorded it */
    spec.agents[i].plugin = strdup(rec);
  }
  int nagents = spec.nagents;
  if (!named || tk_run_prepare(run, &spec, spec_dir, &err)) {
    fprintf(stderr, "taikai verify: refused: %s\n", named ? err.msg : "out of memory");
    for (int i = 0; named && i < nagents; i++) free(named[i]);
    free(named);
    return 2;
  }
  for (int i = 0; i < nagents; i++) /* the spec as recorded: the path loaded only informs */
    if (named[i]) {
      free(run->spec.agents[i].plugin);
      run->spec.agents[i].plugin = named[i];
    }
  free(named);
  if (shard) {
    run->shard_index = (uint32_t)json_integer_value(json_object_get(shard, "index"));
    run->shard_count = (uint32_t)json_integer_value(json_object_get(shard, "count"));
  }
  return 0;
}

/* The run must be the folder's: the same resolved spec, and (unless `ignore`) every plugin and
 * weights file of the recorded SHA-256. Returns 0 or 2 (printed). */
static int same_run(const tk_run *run, const char *dir, const json_t *old, int ignore) {
  json_t *now = tk_run_resolved_spec(run), *there = json_deep_copy(old);
  json_object_del(json_object_get(there, "shard"), "spec");
  json_object_del(json_object_get(now, "shard"), "spec");
  char what[900];
  int rc = 0;
  if (tk_spec_diff(there, now, "in spec.json", "here", what, sizeof what)) {
    /* with --ignore-hashes, members a later taikai added (their defaults) and plugin versions
     * may differ: the units played are compared all the same */
    fprintf(stderr, "taikai verify: %s%s/spec.json is not the run this taikai prepares from it: "
            "%s%s\n", ignore ? "warning: --ignore-hashes: " : "refused: ", dir, what,
            ignore ? "; playing it as this build resolves it" : "");
    rc = ignore ? 0 : 2;
  }
  for (int pass = 0; !rc && pass < run->spec.nagents; pass++) {
    tk_file_diff d;
    tk_spec_files_diff(there, now, &d);
    if (d.kind == TK_FILES_SAME) break;
    const char *warn = ignore ? "warning: --ignore-hashes: " : "refused: ";
    switch (d.kind) {
      case TK_FILES_UNHASHED:
        fprintf(stderr, "taikai verify: %s%s/spec.json records no sha256 for agent '%s': cannot "
                "tell which build played its games\n", warn, dir, d.label);
        break;
      case TK_FILES_CHANGED:
        fprintf(stderr, "taikai verify: %sagent '%s': %s file %s has sha256 %s here, but %s in "
                "%s/spec.json: %s\n", warn, d.label, d.role, d.path, d.here, d.there, dir,
                ignore ? "playing with this build" : "not the build that played the run "
                "(rebuild it as it was, or --ignore-hashes to check the current build)");
        break;
      default:
        fprintf(stderr, "taikai verify: %sagent '%s': %s file %s is %s\n", warn, d.label, d.role,
                d.path, d.kind == TK_FILES_ADDED ? "used here but not recorded in spec.json"
                                                 : "recorded in spec.json but not used here");
    }
    if (!ignore) rc = 2;
    /* --ignore-hashes: every difference is warned about once, agent by agent */
    json_t *a = json_array_get(json_object_get(there, "agents"), (size_t)d.agent);
    json_t *b = json_array_get(json_object_get(now, "agents"), (size_t)d.agent);
    json_object_set(a, "files", json_object_get(b, "files"));
  }
  json_decref(now);
  json_decref(there);
  return rc;
}

/* Writes DIR/verify.json. A folder that cannot be written gets a warning, not a failure. */
static void write_record(const verify *v, int all, uint64_t seed, uint64_t held,
                         const char *chain, int ignore) {
  char date[32];
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  json_t *units = json_array(), *differ = json_array();
  for (uint64_t i = 0; i < v->n; i++) {
    if (!all) json_array_append_new(units, json_integer((json_int_t)v->u[i].unit));
    if (v->u[i].differs) json_array_append_new(differ, json_integer((json_int_t)v->u[i].unit));
  }
  json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:I, s:o, s:s, s:b}", "verified", date,
                        "taikai_version", TAIKAI_VERSION, "result",
                        v->differ || !strcmp(chain, "broken") ? "differs" : "same",
                        "units_in_folder", (json_int_t)held, "units_checked", (json_int_t)v->n,
                        "units", all ? json_string("all") : units, "same", (json_int_t)v->same,
                        "differ", differ, "chain", chain, "ignore_hashes", ignore);
  if (all) json_decref(units);
  else json_object_set_new(o, "seed", json_integer((json_int_t)seed));
  char *text = o ? json_dumps(o, JSON_INDENT(2)) : NULL;
  json_decref(o);
  size_t len = text ? strlen(text) : 0;
  char *nl = text ? realloc(text, len + 2) : NULL; /* a trailing newline */
  if (nl) nl[len++] = '\n', text = nl;
  tk_error e;
  tk_error_clear(&e);
  if (!nl) {
    free(text);
    fprintf(stderr, "taikai verify: warning: verify.json not written: out of memory\n");
    return;
  }
  if (tk_write_atomic(v->dir, "verify.json", text, len, &e))
    fprintf(stderr, "taikai verify: warning: verify.json not written: %s\n", e.msg);
  free(text);
}

int tk_cmd_verify(int argc, char **argv) {
  const char *dir = NULL;
  uint64_t want = 0, seed = 0, jobs = 1;
  int all = 0, have_seed = 0, quiet = 0, ignore = 0, rc = 2;
  const tk_opt opts[] = {
      {.name = "units", .kind = TK_OPT_U64, .dest = &want, .value = "N", .min = 1,
       .max = UINT32_MAX, .help = "play a random sample of N units"},
      {.name = "all", .kind = TK_OPT_FLAG, .dest = &all, .help = "play every unit"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .given = &have_seed, .value = "S",
       .max = INT64_MAX, .help = "the sample's seed"},
      {.name = "jobs", .short_name = 'j', .kind = TK_OPT_U64, .dest = &jobs, .value = "N",
       .min = 1, .max = 1024, .help = "worker processes"},
      {.name = "quiet", .short_name = 'q', .kind = TK_OPT_FLAG, .dest = &quiet,
       .help = "no progress on stderr"},
      {.name = "ignore-hashes", .kind = TK_OPT_FLAG, .dest = &ignore,
       .help = "compare the bytes even when the plugins' hashes differ"},
      {.name = NULL},
  };
  const char *pos[2];
  int npos = 0, prc = tk_opts_parse("verify", opts, argc, argv, pos, 2, &npos);
  if (prc == 1) usage(stdout);
  if (prc) return prc == 1 ? 0 : 2;
  if (npos > 1) {
    fprintf(stderr, "taikai verify: one run folder at a time (got '%s' and '%s')\n", pos[0],
            pos[1]);
    return 2;
  }
  dir = npos ? pos[0] : NULL;
  if (!dir) {
    usage(stderr);
    return 2;
  }
  if (all && (want || have_seed)) {
    fprintf(stderr, "taikai verify: --all plays every unit: no --units or --seed with it\n");
    return 2;
  }
  char path[TK_PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/spec.json", dir);
  tk_error err;
  tk_error_clear(&err);
  json_t *old = tk_json_load_path(path, JSON_REJECT_DUPLICATES, &err);
  if (!json_is_object(old)) {
    fprintf(stderr, "taikai verify: %s (a run folder written by taikai run or taikai merge is "
            "expected)\n", old ? "spec.json: not a JSON object" : err.msg);
    json_decref(old);
    return 2;
  }
  tk_run run;
  memset(&run, 0, sizeof run);
  verify v = {.dir = dir, .r = &run, .quiet = quiet};
  char logs_tmp[TK_PATH_MAX] = "";
  if (prepare(&run, dir, old)) goto done;
  if (same_run(&run, dir, old, ignore)) goto done;
  if (ignore)
    fprintf(stderr, "taikai verify: warning: --ignore-hashes: a match proves that this build "
            "gives the published bytes, not which build played them\n");
  /* the folder's lines against its chain */
  uint64_t held = 0, end = 0;
  const char *chain = "follows";
  tk_run_units(&run, &v.first, &end);
  int crc = tk_chain_verify_dir(dir, &held, &err);
  if (crc == TK_ENOTFOUND) {
    chain = "absent";
    fprintf(stderr, "taikai verify: note: %s; the lines are compared all the same\n", err.msg);
  } else if (crc == TK_EPARSE) {
    chain = "broken";
    printf("chain: differs: %s\n", err.msg);
  } else if (crc) {
    fprintf(stderr, "taikai verify: %s\n", err.msg);
    goto done;
  }
  if (count_lines(dir, &held)) goto done;
  if (!held) {
    fprintf(stderr, "taikai verify: %s: holds no unit: nothing to verify\n", dir);
    goto done;
  }
  if (!have_seed) seed = fresh_seed();
  uint64_t percent = (held + 99) / 100; /* 1% of the units, rounded up */
  if (!want) want = percent > 10 ? percent : 10;
  if (all) want = held;
  if (!(v.u = sample(v.first, held, want, seed, &v.n))) {
    fprintf(stderr, "taikai verify: out of memory\n");
    rc = 1;
    goto done;
  }
  if (read_lines(&v)) goto done;
  snprintf(path, sizeof path, "%s/records.tkr", dir);
  v.records = !access(path, F_OK);
  if (v.records && read_blocks(&v)) goto done;
  find_logs(&v);
  v.labels = calloc((size_t)run.spec.nagents, sizeof *v.labels);
  if (!v.labels) {
    rc = 1;
    goto done;
  }
  for (int i = 0; i < run.spec.nagents; i++) v.labels[i] = run.spec.agents[i].label;
  run.records = v.records;
  if (v.logs) { /* the workers write each unit's log here; the sink compares and removes it */
    snprintf(logs_tmp, sizeof logs_tmp, "%s/.verify-logs-XXXXXX", dir);
    if (!mkdtemp(logs_tmp) && (snprintf(logs_tmp, sizeof logs_tmp, "/tmp/taikai-verify-XXXXXX"),
                               !mkdtemp(logs_tmp))) {
      fprintf(stderr, "taikai verify: cannot make a folder for the logs: %s\n", strerror(errno));
      logs_tmp[0] = '\0';
      rc = 1;
      goto done;
    }
    run.logs_dir = strdup(logs_tmp);
    run.logs_gzip = v.logs_gz;
  }
  if (!quiet) {
    char how[64] = "every unit";
    if (!all) snprintf(how, sizeof how, "sample seed %llu", (unsigned long long)seed);
    fprintf(stderr, "taikai verify: %s: playing %llu of its %llu units again (%s)%s%s\n", dir,
            (unsigned long long)v.n, (unsigned long long)held, how,
            v.records ? ", with their records.tkr blocks" : "", v.logs ? ", with their logs" : "");
  }
  if (tk_pool_feed(&run, feed, &v, (int)jobs, sink, &v, &err)) {
    fprintf(stderr, "taikai verify: %s\n", err.msg);
    rc = 1;
    goto done;
  }
  int chain_bad = !strcmp(chain, "broken");
  printf("%s: %llu of %llu units played again: %llu same, %llu differ%s%s\n", dir,
         (unsigned long long)v.n, (unsigned long long)held, (unsigned long long)v.same,
         (unsigned long long)v.differ, chain_bad ? "; games.chain does not follow the lines" : "",
         !strcmp(chain, "absent") ? "; no games.chain" : "");
  write_record(&v, all, seed, held, chain, ignore);
  rc = v.differ || chain_bad ? 1 : 0;
done:
  if (logs_tmp[0]) rmdir(logs_tmp);
  for (uint64_t i = 0; v.u && i < v.n; i++) {
    free(v.u[i].line);
    free(v.u[i].block);
  }
  free(v.u);
  free(v.labels);
  free(v.run_index);
  if (run.game) tk_run_free(&run);
  json_decref(old);
  return rc;
}
