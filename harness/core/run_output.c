/* harness/core/run_output.c — running a prepared tournament into its output folder: spec.json
 * first, then games.jsonl line by line in unit order (each line parsed back, the fault policy
 * applied to it, and tallied, so the summary is computed from exactly what was written), then
 * summary.json and report.md. Resumes a run left by a killed referee, and stops cleanly, with a
 * partial summary, on SIGINT/SIGTERM or at the first fault under the abort policy. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fault.h"
#include "output.h"
#include "stats.h"

enum { NOTICES_PER_AGENT = 10 };

typedef struct sink_ctx {
  const tk_run *r;
  FILE *games; /* may be NULL */
  tk_tally *tally;
  tk_error *err;
  int progress_mode;  /* 2: a bar on stderr to clear before a notice */
  int *notices;       /* fault notices printed per agent */
  int aborted;        /* the abort policy stopped the run */
  char why[512];      /* ... at this fault */
} sink_ctx;

/* Parses one line of this run into `res` (the driver's quantities and the fault fields). */
static int parse_unit(const tk_run *r, const char *line, size_t len, json_t **out,
                      tk_unit_result *res, tk_error *err) {
  json_error_t jerr;
  json_t *j = json_loadb(line, len, 0, &jerr);
  int rc = j ? r->game->parse_line(j, res, err) : TK_EPARSE;
  if (!rc) tk_fault_scan(j, res);
  if (out && !rc) *out = j;
  else json_decref(j);
  return rc;
}

/* "unit 12 (wall 4): agent 'crash' (seat 0): <reason>" for the first faulted seat. */
static int first_fault(const tk_run *r, json_t *j, const tk_unit_result *res, char *buf,
                       size_t cap, int *agent) {
  for (int s = 0; s < res->nseats; s++) {
    if (!res->fault[s]) continue;
    json_t *seat = json_array_get(json_object_get(j, "seats"), (size_t)s);
    const char *why = json_string_value(json_object_get(seat, "fault"));
    *agent = res->agent[s];
    snprintf(buf, cap, "unit %llu (wall %llu): agent '%s' (seat %d): %s",
             (unsigned long long)res->unit, (unsigned long long)res->wall,
             r->spec.agents[res->agent[s]].label, s, why ? why : "fault");
    return 1;
  }
  return 0;
}

static int sink(void *ctx, uint64_t unit, const char *text, size_t len) {
  sink_ctx *c = ctx;
  const tk_run *r = c->r;
  char line[TK_LINE_MAX + 64];
  if (len >= sizeof line) return tk_error_set(c->err, TK_ERANGE, -1, "unit %llu: line too long",
                                              (unsigned long long)unit);
  memcpy(line, text, len);
  line[len] = '\0';
  json_t *j = NULL;
  tk_unit_result res;
  int rc = parse_unit(r, line, len, &j, &res, c->err);
  if (!rc && res.unit != unit) rc = TK_ESTATE;
  if (rc) {
    json_decref(j);
    return tk_error_set(c->err, rc, -1, "unit %llu: bad result line: %.*s",
                        (unsigned long long)unit, (int)(len > 200 ? 200 : len), line);
  }
  char why[512];
  int agent = -1;
  int faulted = first_fault(r, j, &res, why, sizeof why, &agent);
  json_decref(j);
  if (faulted && r->spec.fault_policy == TK_POLICY_SKIP && !res.skipped) {
    if ((rc = tk_fault_mark_skipped(line, sizeof line)))
      return tk_error_set(c->err, rc, -1, "unit %llu: cannot mark it skipped",
                          (unsigned long long)unit);
    len = strlen(line);
    res.skipped = 1;
  }
  if (c->games && (fwrite(line, 1, len, c->games) != len || fputc('\n', c->games) == EOF))
    return tk_error_set(c->err, TK_EIO, -1, "games.jsonl: write failed: %s", strerror(errno));
  if ((rc = tk_tally_add(c->tally, &res)))
    return tk_error_set(c->err, rc, -1, "unit %llu: result out of range: %.*s",
                        (unsigned long long)unit, (int)(len > 200 ? 200 : len), line);
  if (faulted) {
    if (c->notices[agent] < NOTICES_PER_AGENT || r->spec.fault_policy == TK_POLICY_ABORT) {
      fprintf(stderr, "%staikai run: %s%s\n", c->progress_mode == 2 ? "\r\033[K" : "", why,
              res.skipped ? " [unit skipped]" : "");
    } else if (c->notices[agent] == NOTICES_PER_AGENT) {
      fprintf(stderr, "%staikai run: agent '%s': further faults are not shown here (they are in "
              "games.jsonl and summary.json)\n", c->progress_mode == 2 ? "\r\033[K" : "",
              r->spec.agents[agent].label);
    }
    c->notices[agent]++;
    if (r->spec.fault_policy == TK_POLICY_ABORT) {
      c->aborted = 1;
      snprintf(c->why, sizeof c->why, "fault_policy abort: %.480s", why);
      return tk_error_set(c->err, TK_ESTATE, -1, "%s", c->why);
    }
  }
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
  char *text = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
  if (!text) return tk_error_set(err, TK_ENOMEM, -1, "%s/%s: out of memory", dir, name);
  size_t n = strlen(text);
  char *t2 = realloc(text, n + 2);
  if (!t2) {
    free(text);
    return tk_error_set(err, TK_ENOMEM, -1, "%s/%s: out of memory", dir, name);
  }
  t2[n] = '\n';
  t2[n + 1] = '\0';
  int rc = tk_write_atomic(dir, name, t2, n + 1, err);
  free(t2);
  return rc;
}

static int write_report(const tk_run *r, json_t *sum, const char *dir, tk_error *err) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return tk_error_set(err, TK_ENOMEM, -1, "report.md: out of memory");
  tk_summary_markdown(r, sum, f);
  if (fclose(f)) {
    free(text);
    return tk_error_set(err, TK_ENOMEM, -1, "report.md: out of memory");
  }
  int rc = tk_write_atomic(dir, "report.md", text, len, err);
  free(text);
  return rc;
}

/* Reads the complete lines of an interrupted run's games.jsonl into the tally, drops a torn
 * last line (one without its newline: the referee was killed while writing it), and leaves
 * `f` positioned at the end. Returns the units kept, or < 0. */
static int64_t resume_from(const tk_run *r, FILE *f, const char *path, tk_tally *t,
                           tk_error *err) {
  static char line[TK_LINE_MAX + 66];
  int64_t kept = 0;
  long good = 0;
  size_t torn = 0;
  while (fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n') { /* torn last line, or one longer than any we write */
      torn = len;
      if (!feof(f)) {
        int ch;
        while ((ch = fgetc(f)) != EOF && ch != '\n') torn++;
        if (ch == '\n')
          return tk_error_set(err, TK_EPARSE, -1, "%s: line %lld is longer than any line taikai "
                              "writes; cannot resume", path, (long long)kept + 1);
      }
      break;
    }
    tk_unit_result res;
    int rc = parse_unit(r, line, len - 1, NULL, &res, NULL);
    if (rc || res.unit != (uint64_t)kept || tk_tally_add(t, &res))
      return tk_error_set(err, TK_EPARSE, -1, "%s: line %lld is not unit %lld of this run; "
                          "cannot resume", path, (long long)kept + 1, (long long)kept);
    kept++;
    good = ftell(f);
  }
  if (fflush(f) || ftruncate(fileno(f), good) || fseek(f, good, SEEK_SET))
    return tk_error_set(err, TK_EIO, -1, "%s: cannot truncate: %s", path, strerror(errno));
  if (torn)
    fprintf(stderr, "taikai run: %s: dropped a torn last line (%zu bytes) left by an interrupted "
            "run\n", path, torn);
  return kept;
}

/* ------------------------------------------------------------------ signals */

static struct sigaction old_int, old_term;

static void on_signal(int sig) {
  if (tk_run_stop_signal) { /* a second signal: give up at once */
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  tk_run_stop_signal = sig;
}

static void signals_catch(void) {
  tk_run_stop_signal = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0; /* no SA_RESTART: poll() returns at once */
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
}

static void signals_restore(void) {
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
}

/* ------------------------------------------------------------------ the run */

int tk_run_execute(const tk_run *r, const tk_run_opts *o, json_t **summary_out, tk_error *err) {
  *summary_out = NULL;
  tk_run_outcome scratch, *out = o->outcome ? o->outcome : &scratch;
  memset(out, 0, sizeof *out);
  tk_tally tally;
  int rc = tk_tally_init(&tally, r->spec.nagents, r->game->nq, r->spec.walls);
  if (rc) return tk_error_set(err, rc, -1, "out of memory for %llu walls",
                              (unsigned long long)r->spec.walls);
  int *notices = calloc((size_t)r->spec.nagents, sizeof *notices);
  if (!notices) {
    tk_tally_free(&tally);
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  }
  FILE *games = NULL;
  const char *dir = o->out_dir;
  uint64_t first = 0, units = tk_schedule_units(&r->sched);
  signals_catch();
  if (dir) {
    if ((rc = tk_mkdirs(dir, err))) goto done;
    char path[TK_PATH_MAX];
    snprintf(path, sizeof path, "%s/games.jsonl", dir);
    if (o->resume && (games = fopen(path, "r+"))) {
      int64_t kept = resume_from(r, games, path, &tally, err);
      if (kept < 0) {
        rc = (int)kept;
        goto done;
      }
      first = (uint64_t)kept > units ? units : (uint64_t)kept;
      out->resumed = first;
    } else {
      json_t *spec = tk_run_resolved_spec(r);
      rc = dump(spec, dir, "spec.json", err);
      json_decref(spec);
      games = rc ? NULL : fopen(path, "w");
      if (!rc && !games) rc = tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", path,
                                           strerror(errno));
    }
    if (rc) goto done;
  }
  sink_ctx sc = {r, games, &tally, err, 0, notices, 0, ""};
  tk_progress prog;
  tk_progress_init(&prog, o->progress);
  sc.progress_mode = prog.mode;
  rc = tk_pool_run(r, first, units - first, o->jobs, sink, &sc, tk_progress_update, &prog, err);
  if (o->rate) *o->rate = tk_progress_rate(&prog);
  if (rc && (sc.aborted || tk_run_stop_signal)) {
    /* a clean stop: everything finished so far is kept, the summary says it is partial */
    out->stopped = sc.aborted ? TK_STOP_ABORT : (int)tk_run_stop_signal;
    if (sc.aborted) snprintf(out->why, sizeof out->why, "%s", sc.why);
    else snprintf(out->why, sizeof out->why, "interrupted by %s",
                  tk_run_stop_signal == SIGINT ? "SIGINT" : tk_run_stop_signal == SIGTERM
                                                               ? "SIGTERM" : "a signal");
    if (prog.mode == 2) fprintf(stderr, "\n");
    rc = 0;
    tk_error_clear(err);
  } else if (rc) {
    goto done;
  } else {
    tk_progress_finish(&prog);
  }
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
  if (out->stopped) {
    json_object_set_new(sum, "complete", json_false());
    json_object_set_new(sum, "stopped", json_string(out->why));
  }
  if (dir && ((rc = dump(sum, dir, "summary.json", err)) || (rc = write_report(r, sum, dir, err)))) {
    json_decref(sum);
    goto done;
  }
  *summary_out = sum;
done:
  signals_restore();
  if (games) fclose(games);
  free(notices);
  tk_tally_free(&tally);
  return rc;
}
