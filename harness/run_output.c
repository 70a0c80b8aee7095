/* harness/run_output.c — running a prepared tournament into its output folder: spec.json
 * first, then games.jsonl line by line in unit order (each line also parsed back and tallied,
 * so the summary is computed from exactly what was written), then summary.json and report.md. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "stats.h"

typedef struct sink_ctx {
  const tk_run *r;
  FILE *games; /* may be NULL */
  tk_tally *tally;
  tk_error *err;
} sink_ctx;

static int sink(void *ctx, uint64_t unit, const char *line, size_t len) {
  sink_ctx *c = ctx;
  if (c->games && (fwrite(line, 1, len, c->games) != len || fputc('\n', c->games) == EOF))
    return tk_error_set(c->err, TK_EIO, -1, "games.jsonl: write failed: %s", strerror(errno));
  json_error_t jerr;
  json_t *j = json_loadb(line, len, 0, &jerr);
  tk_unit_result res;
  int rc = j ? c->r->game->parse_line(j, &res, c->err) : TK_EPARSE;
  json_decref(j);
  if (!rc && res.unit != unit) rc = TK_ESTATE;
  if (!rc) rc = tk_tally_add(c->tally, &res);
  if (rc) return tk_error_set(c->err, rc, -1, "unit %llu: bad result line: %.*s",
                              (unsigned long long)unit, (int)(len > 200 ? 200 : len), line);
  return 0;
}

int tk_mkdirs(const char *path, tk_error *err) {
  char buf[TK_PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (mkdir(buf, 0777) && errno != EEXIST)
        return tk_error_set(err, TK_EIO, -1, "%s: cannot create folder: %s", buf, strerror(errno));
      *p = c;
      if (!c) break;
    }
  }
  return 0;
}

static int dump(json_t *j, const char *dir, const char *name, tk_error *err) {
  char path[TK_PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *text = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
  FILE *f = text ? fopen(path, "w") : NULL;
  int bad = !f || fputs(text, f) == EOF || fputc('\n', f) == EOF;
  if (f && fclose(f)) bad = 1;
  free(text);
  if (bad) return tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", path, strerror(errno));
  return 0;
}

/* Reads the complete lines of an interrupted run's games.jsonl into the tally, truncates a
 * partial last line, and leaves `f` positioned at the end. Returns the units kept, or < 0. */
static int64_t resume_from(const tk_run *r, FILE *f, const char *path, tk_tally *t, tk_error *err) {
  static char line[TK_LINE_MAX + 2];
  int64_t kept = 0;
  long good = 0;
  while (fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n') break; /* partial last line */
    json_t *j = json_loadb(line, len - 1, 0, NULL);
    tk_unit_result res;
    int rc = j ? r->game->parse_line(j, &res, NULL) : TK_EPARSE;
    json_decref(j);
    if (rc || res.unit != (uint64_t)kept || tk_tally_add(t, &res))
      return tk_error_set(err, TK_EPARSE, -1, "%s: line %lld is not unit %lld of this run; "
                          "cannot resume", path, (long long)kept + 1, (long long)kept);
    kept++;
    good = ftell(f);
  }
  if (fflush(f) || ftruncate(fileno(f), good) || fseek(f, good, SEEK_SET))
    return tk_error_set(err, TK_EIO, -1, "%s: cannot truncate: %s", path, strerror(errno));
  return kept;
}

int tk_run_execute(const tk_run *r, const tk_run_opts *o, json_t **summary_out, tk_error *err) {
  *summary_out = NULL;
  tk_tally tally;
  int rc = tk_tally_init(&tally, r->spec.nagents, r->game->nq, r->spec.walls);
  if (rc) return tk_error_set(err, rc, -1, "out of memory for %llu walls",
                              (unsigned long long)r->spec.walls);
  FILE *games = NULL;
  const char *dir = o->out_dir;
  uint64_t first = 0, units = tk_schedule_units(&r->sched);
  if (dir) {
    if ((rc = tk_mkdirs(dir, err))) goto done;
    char path[TK_PATH_MAX];
    json_t *spec = tk_run_resolved_spec(r);
    snprintf(path, sizeof path, "%s/games.jsonl", dir);
    if (o->resume && (games = fopen(path, "r+"))) {
      char sp[TK_PATH_MAX];
      snprintf(sp, sizeof sp, "%s/spec.json", dir);
      json_t *old = json_load_file(sp, 0, NULL);
      int same = old && json_equal(old, spec);
      json_decref(old);
      if (!same) {
        json_decref(spec);
        rc = tk_error_set(err, TK_EINVAL, -1, "%s: not a run of this spec (resolved specs "
                          "differ); cannot resume", sp);
        goto done;
      }
      int64_t kept = resume_from(r, games, path, &tally, err);
      if (kept < 0) {
        json_decref(spec);
        rc = (int)kept;
        goto done;
      }
      first = (uint64_t)kept > units ? units : (uint64_t)kept;
    } else {
      rc = dump(spec, dir, "spec.json", err);
      games = rc ? NULL : fopen(path, "w");
      if (!rc && !games) rc = tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", path,
                                           strerror(errno));
    }
    json_decref(spec);
    if (rc) goto done;
  }
  sink_ctx sc = {r, games, &tally, err};
  tk_progress prog;
  tk_progress_init(&prog, o->progress);
  rc = tk_pool_run(r, first, units - first, o->jobs, sink, &sc, tk_progress_update, &prog, err);
  if (o->rate) *o->rate = tk_progress_rate(&prog);
  if (rc) goto done;
  tk_progress_finish(&prog);
  if (games) {
    if (fclose(games)) rc = tk_error_set(err, TK_EIO, -1, "games.jsonl: write failed");
    games = NULL;
    if (rc) goto done;
  }
  json_t *sum = tk_summary_json(r, &tally, err);
  if (!sum) {
    rc = TK_EINVAL;
    goto done;
  }
  if (dir) {
    if ((rc = dump(sum, dir, "summary.json", err))) {
      json_decref(sum);
      goto done;
    }
    char path[TK_PATH_MAX];
    snprintf(path, sizeof path, "%s/report.md", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
      json_decref(sum);
      rc = tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", path, strerror(errno));
      goto done;
    }
    tk_summary_markdown(r, sum, f);
    fclose(f);
  }
  *summary_out = sum;
done:
  if (games) fclose(games);
  tk_tally_free(&tally);
  return rc;
}
