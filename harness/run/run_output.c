/* harness/run/run_output.c — running a prepared tournament into its output folder: spec.json
 * first, then games.jsonl line by line in unit order (the fault policy applied to each unit's
 * record, which is written by the one line writer and tallied, so the summary is computed from
 * exactly what was written), with `--records` records.tkr block by block in the same order,
 * with `--logs=run` each unit's game log appended to the run's one log file in the same order,
 * then summary.json, report.md and report.html. Resumes a run left by a killed referee, and
 * stops cleanly, with a partial summary, on SIGINT/SIGTERM or at the first fault under the abort policy. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chain.h"
#include "confine.h"
#include "html.h"
#include "line.h"
#include "taikai/file.h"
#include "taikai/records.h"
#include "output.h"
#include "summary.h"
#include "stats.h"

enum { NOTICES_PER_AGENT = 10 };

typedef struct sink_ctx {
  const tk_run *r;
  FILE *games;        /* may be NULL */
  FILE *chain;        /* games.chain, with games */
  uint8_t digest[TK_SHA256_BYTES]; /* the chain's last digest (the identity before any unit) */
  FILE *records;      /* `--records`: records.tkr, else NULL */
  FILE *runlog;       /* `--logs=run`: the run's log file, else NULL */
  FILE *runidx;       /* ... and its index (runlog_open) */
  uint64_t runlog_end; /* the run log's size after the units written so far */
  const char *const *labels; /* by agent index */
  tk_tally *tally;
  tk_error *err;
  int progress_mode;  /* 2: a bar on stderr to clear before a notice */
  const char *cmd;    /* the command named in notices ("taikai run") */
  int *notices;       /* fault notices printed per agent */
  int aborted;        /* the abort policy stopped the run */
  int ruled;          /* the stopping rule stopped the run */
  char why[512];      /* ... at this fault, or the rule's reason */
  tk_stop_rule_fn rule;
  void *rule_ctx;
  uint64_t end;       /* the run's units end here (tk_run_units) */
  char line[TK_LINE_MAX];
} sink_ctx;

/* "unit 12 (wall 4): agent 'crash' (seat 0): <reason>" for the first faulted seat. */
static int first_fault(const tk_run *r, const tk_unit_rec *rec, char *buf, size_t cap,
                       int *agent) {
  for (int s = 0; s < rec->nseats; s++) {
    if (!rec->seat[s].fault.kind) continue;
    char reason[400];
    tk_fault_reason(&rec->seat[s].fault, reason, sizeof reason);
    *agent = rec->seat[s].agent;
    snprintf(buf, cap, "unit %llu (wall %llu): agent '%s' (seat %d): %s",
             (unsigned long long)rec->unit, (unsigned long long)rec->wall,
             r->spec.agents[*agent].label, s, reason);
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------------ the run's one log file */

/* `--logs=run`: the workers write each unit's log into r->logs_dir as for `--logs`; the parent
 * appends it, in unit order, to r->logs_run and removes it. <logs>/run.index holds the run
 * log's size after each unit (8 bytes, little-endian, one per unit in unit order), so that a
 * resume can cut the log back to the units games.jsonl keeps. The log and its index are
 * buffered apart from games.jsonl: the index counts a unit only once the log holds its bytes,
 * and a resume keeps the units all the files hold (runlog_count). */

static void index_path(const tk_run *r, char *buf, size_t cap) {
  const char *slash = strrchr(r->logs_run, '/');
  int dirlen = slash ? (int)(slash - r->logs_run) : 0;
  snprintf(buf, cap, "%.*s%srun.index", dirlen, r->logs_run, slash ? "/" : "");
}

/* The run log of the other form (plain for .gz, .gz for plain). */
static void other_form(const tk_run *r, char *buf, size_t cap) {
  size_t n = strlen(r->logs_run);
  if (n > 3 && !strcmp(r->logs_run + n - 3, ".gz"))
    snprintf(buf, cap, "%.*s", (int)n - 3, r->logs_run);
  else
    snprintf(buf, cap, "%s.gz", r->logs_run);
}

/* Removes the files in `dir` (not its folders), and `dir` itself when `remove` is set. */
static void clear_dir(const char *dir, int remove) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char path[TK_PATH_MAX + 300];
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  if (remove) rmdir(dir);
}

/* The units whose log the run log holds whole: the index's entries, in order, up to the first
 * that is torn, goes backwards or lies beyond the log's size; with `ends` (may be NULL) their
 * end offsets (malloc'd). Returns 0 or TK_ENOMEM. */
static int runlog_count(const tk_run *r, uint64_t *units, uint64_t **ends, tk_error *err) {
  char ipath[TK_PATH_MAX + 16];
  index_path(r, ipath, sizeof ipath);
  *units = 0;
  if (ends) *ends = NULL;
  struct stat ls;
  if (stat(r->logs_run, &ls)) return 0;
  FILE *f;
  tk_error ie;
  tk_error_clear(&ie);
  int frc = tk_file_fopen(ipath, "rb", TK_FILE_ANY_SIZE, &f, &ie);
  if (frc == TK_ENOTFOUND) return 0;
  if (frc) return tk_error_set(err, frc, -1, "%s", ie.msg);
  uint64_t n = 0, cap = 0, prev = 0, *e = NULL;
  unsigned char b[8];
  while (fread(b, 1, 8, f) == 8) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    if (v < prev || v > (uint64_t)ls.st_size) break;
    if (ends && n == cap) {
      uint64_t *ne = realloc(e, (cap = cap ? 2 * cap : 1024) * sizeof *e);
      if (!ne) {
        free(e);
        fclose(f);
        return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", ipath);
      }
      e = ne;
    }
    if (ends) e[n] = v;
    prev = v;
    n++;
  }
  fclose(f);
  *units = n;
  if (ends) *ends = e;
  else free(e);
  return 0;
}

/* Opens the run log and its index for `--logs=run`: new files, or, when continuing a run that
 * kept `kept` units, the files that run wrote, cut back to those units. A run that did not
 * write one log file from its start cannot start one, and a run that did is not continued
 * without it (its file would miss units). */
static int runlog_open(const tk_run *r, const char *dir, uint64_t kept, int continuing,
                       sink_ctx *sc, tk_error *err) {
  char ipath[TK_PATH_MAX + 16], other[TK_PATH_MAX + 8], plain[TK_PATH_MAX], gz[TK_PATH_MAX];
  snprintf(plain, sizeof plain, "%s/logs/run.jsonl", dir);
  snprintf(gz, sizeof gz, "%s/logs/run.jsonl.gz", dir);
  int has_plain = !access(plain, F_OK), has_gz = !access(gz, F_OK);
  if (continuing && !r->logs_run && (has_plain || has_gz))
    return tk_error_set(err, TK_EINVAL, -1, "%s: this run writes its game logs to one file "
                        "(%s): continue it with --logs=run%s", dir, has_gz ? gz : plain,
                        has_gz ? ",gz" : "");
  if (!r->logs_run) return 0;
  index_path(r, ipath, sizeof ipath);
  other_form(r, other, sizeof other);
  if (continuing) {
    if (access(r->logs_run, F_OK)) {
      if (!access(other, F_OK))
        return tk_error_set(err, TK_EINVAL, -1, "%s: --logs=run%s: this run writes its log to "
                            "%s: continue it with --logs=run%s", dir, r->logs_gzip ? ",gz" : "",
                            other, r->logs_gzip ? "" : ",gz");
      return tk_error_set(err, TK_EINVAL, -1, "%s: --logs=run: the run in this folder did not "
                          "write one log file from its start (no %s); write into a new folder",
                          dir, r->logs_run);
    }
    uint64_t n, *ends = NULL;
    int rc = runlog_count(r, &n, &ends, err);
    if (rc) return rc;
    uint64_t size = kept && kept <= n ? ends[kept - 1] : 0;
    free(ends);
    if (kept > n)
      return tk_error_set(err, TK_EIO, -1, "%s: holds %llu units, games.jsonl %llu",
                          r->logs_run, (unsigned long long)n, (unsigned long long)kept);
    if (truncate(r->logs_run, (off_t)size) || truncate(ipath, (off_t)(kept * 8)))
      return tk_error_set(err, TK_EIO, -1, "%s: cannot truncate: %s", r->logs_run,
                          strerror(errno));
    sc->runlog_end = size;
  } else {
    sc->runlog_end = 0;
    unlink(other);
  }
  const char *mode = continuing ? "ab" : "wb";
  if (!(sc->runlog = fopen(r->logs_run, mode)))
    return tk_error_set(err, TK_EIO, -1, "%s: %s", r->logs_run, strerror(errno));
  if (!(sc->runidx = fopen(ipath, mode)))
    return tk_error_set(err, TK_EIO, -1, "%s: %s", ipath, strerror(errno));
  return 0;
}

/* Appends unit `unit`'s log (written by its worker into r->logs_dir) to the run log, removes
 * it, and adds the unit's end to the index. */
static int runlog_append(sink_ctx *c, uint64_t unit) {
  const tk_run *r = c->r;
  char path[TK_PATH_MAX + 40];
  snprintf(path, sizeof path, "%s/unit-%08llu.jsonl%s", r->logs_dir, (unsigned long long)unit,
           r->logs_gzip ? ".gz" : "");
  FILE *f = fopen(path, "rb");
  if (!f)
    return tk_error_set(c->err, TK_EIO, -1, "%s: unit %llu's log is missing: %s", path,
                        (unsigned long long)unit, strerror(errno));
  static char buf[1 << 16];
  size_t got;
  int bad = 0;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
    if (fwrite(buf, 1, got, c->runlog) != got) bad = 1;
    c->runlog_end += got;
  }
  if (ferror(f)) bad = 1;
  fclose(f);
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(c->runlog_end >> (8 * i));
  /* the log reaches the file before its index entry, and both before the unit's own file is
   * removed: a run killed at any point keeps the unit's log in one of the two */
  if (bad || fflush(c->runlog) || fwrite(b, 1, 8, c->runidx) != 8 || fflush(c->runidx))
    return tk_error_set(c->err, TK_EIO, -1, "%s: write failed: %s", r->logs_run,
                        strerror(errno));
  unlink(path);
  return 0;
}

void tk_run_apply_policy(const tk_run *r, tk_unit_rec *rec) {
  for (int s = 0; s < rec->nseats; s++)
    if (rec->seat[s].fault.kind && r->spec.fault_policy == TK_POLICY_SKIP) rec->skipped = 1;
}

static int sink(void *ctx, tk_unit_rec *rec, const void *records, size_t records_len) {
  sink_ctx *c = ctx;
  const tk_run *r = c->r;
  char why[512];
  int agent = -1;
  int faulted = first_fault(r, rec, why, sizeof why, &agent);
  int rc0;
  tk_run_apply_policy(r, rec);
  int len = tk_line_write(r->game, rec, c->labels, c->line, sizeof c->line);
  if (len < 0)
    return tk_error_set(c->err, len, -1, "unit %llu: its line is longer than %d bytes",
                        (unsigned long long)rec->unit, TK_LINE_MAX);
  /* Each unit reaches the files before the next is taken, in this order: its records block,
   * its log, its line, then the line's digest. A run killed at any moment (SIGKILL, the
   * machine's OOM killer, a session's end) leaves every file holding at least the units the
   * chain vouches for, so --resume keeps every unit whose digest was written. Without the
   * flushes the stdio buffers would hold up to a buffer's worth of finished units (126 digests
   * in 4 KiB) for a kill to lose, and the resume would cut their lines away. */
  if (c->records && records_len &&
      (fwrite(records, 1, records_len, c->records) != records_len || fflush(c->records)))
    return tk_error_set(c->err, TK_EIO, -1, "records.tkr: write failed: %s", strerror(errno));
  if (c->runlog && (rc0 = runlog_append(c, rec->unit))) return rc0;
  if (c->games && (fwrite(c->line, 1, (size_t)len, c->games) != (size_t)len ||
                   fputc('\n', c->games) == EOF || fflush(c->games)))
    return tk_error_set(c->err, TK_EIO, -1, "games.jsonl: write failed: %s", strerror(errno));
  if (c->chain) {
    tk_chain_next(c->digest, c->line, (size_t)len, c->digest);
    if (fwrite(c->digest, 1, TK_SHA256_BYTES, c->chain) != TK_SHA256_BYTES || fflush(c->chain))
      return tk_error_set(c->err, TK_EIO, -1, TK_CHAIN_FILE ": write failed: %s",
                          strerror(errno));
  }
  tk_unit_result res;
  tk_unit_result_of(r->game, rec, &res);
  int rc = tk_tally_add(c->tally, &res);
  if (rc)
    return tk_error_set(c->err, rc, -1, "unit %llu: result out of range: %.200s",
                        (unsigned long long)rec->unit, c->line);
  if (faulted) {
    if (c->notices[agent] < NOTICES_PER_AGENT || r->spec.fault_policy == TK_POLICY_ABORT) {
      fprintf(stderr, "%s%s: %s%s\n", c->progress_mode == 2 ? "\r\033[K" : "", c->cmd, why,
              rec->skipped ? " [unit skipped]" : "");
    } else if (c->notices[agent] == NOTICES_PER_AGENT) {
      fprintf(stderr, "%s%s: agent '%s': further faults are not shown here (they are in "
              "games.jsonl and summary.json)\n", c->progress_mode == 2 ? "\r\033[K" : "", c->cmd,
              r->spec.agents[agent].label);
    }
    c->notices[agent]++;
    if (r->spec.fault_policy == TK_POLICY_ABORT) {
      c->aborted = 1;
      snprintf(c->why, sizeof c->why, "fault_policy abort: %.480s", why);
      return tk_error_set(c->err, TK_ESTATE, -1, "%s", c->why);
    }
  }
  /* a decision at the last unit ends a complete run, not a stopped one */
  if (c->rule && c->rule(c->rule_ctx, &res, c->why, sizeof c->why) && rec->unit + 1 < c->end) {
    c->ruled = 1;
    return tk_error_set(c->err, TK_ESTATE, -1, "%s", c->why);
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

/* Reads the complete lines of an interrupted run's games.jsonl (its units from `start`, the
 * first of the run, on) into the tally, at most `limit` of them (the units its records.tkr
 * holds, when it has one: the two files are buffered apart, so a killed run may have written
 * more of one; and the digests games.chain holds: a line is kept only once its digest is
 * written, and each kept line must follow the chain), drops a torn last line (one
 * without its newline: the referee was killed while writing it) and any beyond the limit, and
 * leaves `f` positioned at the end. Returns the units kept, or < 0. */
static int64_t resume_from(const tk_run *r, FILE *f, const char *path, uint64_t start,
                           uint64_t limit, tk_chain_check *chain, tk_tally *t, tk_unit_rec *rec,
                           sink_ctx *sc, tk_error *err) {
  static char line[TK_LINE_MAX + 66];
  int64_t kept = 0;
  long good = 0;
  size_t torn = 0;
  while ((uint64_t)kept < limit && fgets(line, sizeof line, f)) {
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
    tk_error le;
    tk_error_clear(&le);
    /* a line changed since it was written is refused, never tallied */
    int rc = tk_chain_check_line(chain, path, line, len - 1, start + (uint64_t)kept, &le);
    if (rc) return tk_error_set(err, rc, -1, "%s; cannot resume", le.msg);
    rc = tk_line_read(r->game, line, len - 1, r->spec.nagents, rec, &le);
    if (rc)
      return tk_error_set(err, TK_EPARSE, -1, "%s: line %lld: %s; cannot resume", path,
                          (long long)kept + 1, le.msg);
    tk_unit_result res;
    tk_unit_result_of(r->game, rec, &res);
    if (rec->unit != start + (uint64_t)kept || rec->unit >= sc->end || tk_tally_add(t, &res))
      return tk_error_set(err, TK_EPARSE, -1, "%s: line %lld is not unit %llu of this run; "
                          "cannot resume", path, (long long)kept + 1,
                          (unsigned long long)(start + (uint64_t)kept));
    if (sc->rule && !sc->ruled && sc->rule(sc->rule_ctx, &res, sc->why, sizeof sc->why) &&
        rec->unit + 1 < sc->end)
      sc->ruled = 1; /* decided within the kept units: keep reading them, play no more */
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

/* ------------------------------------------------------------------ decision records */

/* Opens <dir>/records.tkr for `--records`: a new file with its header, or, when continuing a
 * run that kept `kept` units, the file that run wrote, cut back to those units. A run that
 * did not record from its start cannot start recording, and a recording run is not continued
 * without --records (the file would miss units). */
static int open_records(const tk_run *r, const char *dir, uint64_t kept, int continuing,
                        FILE **out, tk_error *err) {
  *out = NULL;
  char path[TK_PATH_MAX];
  snprintf(path, sizeof path, "%s/records.tkr", dir);
  int exists = access(path, F_OK) == 0;
  if (continuing && exists && !r->records)
    return tk_error_set(err, TK_EINVAL, -1, "%s: this run records its decisions: continue it "
                        "with --records", dir);
  if (!r->records) return 0;
  if (continuing) {
    if (!exists)
      return tk_error_set(err, TK_EINVAL, -1, "%s: --records: the run in this folder did not "
                          "record its decisions from its start (no records.tkr); record into a "
                          "new folder", dir);
    int rc = tk_records_truncate(path, kept, err);
    if (rc) return rc;
    if (!(*out = fopen(path, "ab")))
      return tk_error_set(err, TK_EIO, -1, "%s: %s", path, strerror(errno));
    return 0;
  }
  if (!(*out = fopen(path, "wb")))
    return tk_error_set(err, TK_EIO, -1, "%s: %s", path, strerror(errno));
  const tk_game *g = r->game;
  tk_records_header h;
  memset(&h, 0, sizeof h);
  h.abi_version = TK_AGENT_ABI_VERSION;
  h.types_version = g->types_version;
  h.view_size = (uint32_t)g->view_size;
  h.legal_size = (uint32_t)g->legal_size;
  h.action_size = (uint32_t)g->action_size;
  h.nseats = (uint32_t)g->nseats;
  h.nfields = (uint32_t)g->nfields;
  h.nagents = (uint32_t)r->spec.nagents;
  snprintf(h.game, sizeof h.game, "%s", g->name);
  for (int i = 0; i < g->nfields; i++) h.field[i] = g->fields_def[i].name;
  for (int i = 0; i < r->spec.nagents; i++) h.agent[i] = r->spec.agents[i].label;
  if (tk_records_write_header(*out, &h))
    return tk_error_set(err, TK_EIO, -1, "%s: write failed", path);
  return 0;
}

/* ------------------------------------------------------------------ the run */

/* Continues the interrupted run whose games.jsonl is open in `games` (at `path`, its chain at
 * `cpath`): keeps the lines every file holds whole and the chain vouches for, tallied into
 * `tally`, reopens the chain for appending and sets out->resumed. Returns 0 or an error code. */
static int resume_folder(const tk_run *r, const tk_run_opts *o, const char *path,
                         const char *cpath, const uint8_t *id, uint64_t start, uint64_t end,
                         FILE *games, tk_tally *tally, tk_unit_rec *rec, sink_ctx *sc,
                         tk_run_outcome *out, tk_error *err) {
  const char *dir = o->out_dir;
  int rc;
  uint64_t limit = UINT64_MAX;
  char rpath[TK_PATH_MAX];
  snprintf(rpath, sizeof rpath, "%s/records.tkr", dir);
  if (r->records && !access(rpath, F_OK) && (rc = tk_records_count(rpath, &limit, err)))
    return rc;
  if (r->logs_run && !access(r->logs_run, F_OK)) { /* the units the run log holds whole */
    uint64_t n;
    if ((rc = runlog_count(r, &n, NULL, err))) return rc;
    if (n < limit) limit = n;
  }
  tk_chain_check chk;
  tk_error ce;
  tk_error_clear(&ce);
  int has_chain = 1;
  if ((rc = tk_chain_open(&chk, cpath, start, id, &ce)) == TK_ENOTFOUND) {
    struct stat gs;
    if (!fstat(fileno(games), &gs) && gs.st_size > 0)
      return tk_error_set(err, TK_EINVAL, -1, "%s: holds lines but no " TK_CHAIN_FILE ": "
                          "cannot tell whether they are what taikai wrote (a folder written "
                          "before taikai kept digest chains, or one whose chain was "
                          "removed); cannot resume: start a new folder", path);
    memset(&chk, 0, sizeof chk);
    memcpy(chk.prev, id, TK_SHA256_BYTES);
    has_chain = 0;
  } else if (rc) {
    return tk_error_set(err, rc, -1, "%s; cannot resume", ce.msg);
  }

  sc->rule = o->rule;
  sc->rule_ctx = o->rule_ctx;
  if (chk.entries < limit) limit = chk.entries;
  int64_t kept = resume_from(r, games, path, start, limit, &chk, tally, rec, sc, err);
  memcpy(sc->digest, chk.prev, sizeof sc->digest);
  tk_chain_close(&chk);
  if (kept < 0) return (int)kept;
  if (has_chain ? truncate(cpath, (off_t)(TK_CHAIN_HEADER + (uint64_t)kept * TK_CHAIN_ENTRY)) ||
                      !(sc->chain = fopen(cpath, "ab"))
                : !(sc->chain = fopen(cpath, "wb")) || tk_chain_write_header(sc->chain, start, id) ||
                      fflush(sc->chain))
    return tk_error_set(err, TK_EIO, -1, "%s: %s", cpath, strerror(errno));
  out->resumed = (uint64_t)kept > end - start ? end - start : (uint64_t)kept;
  if (o->extend) {
    json_t *spec = tk_run_resolved_spec(r);
    rc = dump(spec, dir, "spec.json", err);
    json_decref(spec);
    if (rc) return rc;
  }
  return 0;
}

/* Opens the output folder o->out_dir for units [start, end): resumed (o->resume and a
 * games.jsonl there) or new (spec.json, games.jsonl, games.chain), then records.tkr and the run
 * log. Files it opened are in *games, *records and sc even on failure, for the caller to close.
 * Returns 0 or an error code. */
static int open_folder(const tk_run *r, const tk_run_opts *o, uint64_t start, uint64_t end,
                       tk_tally *tally, tk_unit_rec *rec, sink_ctx *sc, tk_run_outcome *out,
                       FILE **games, FILE **records, tk_error *err) {
  const char *dir = o->out_dir;
  int rc;
  if ((rc = tk_mkdirs(dir, err))) return rc;
  char path[TK_PATH_MAX], cpath[TK_PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/games.jsonl", dir);
  snprintf(cpath, sizeof cpath, "%s/" TK_CHAIN_FILE, dir);
  uint8_t id[TK_SHA256_BYTES];
  json_t *resolved = tk_run_resolved_spec(r);
  tk_chain_identity(resolved, id);
  json_decref(resolved);
  memcpy(sc->digest, id, sizeof id);
  if (o->resume && (*games = fopen(path, "r+"))) {
    rc = resume_folder(r, o, path, cpath, id, start, end, *games, tally, rec, sc, out, err);
  } else {
    json_t *spec = tk_run_resolved_spec(r);
    rc = dump(spec, dir, "spec.json", err);
    json_decref(spec);
    *games = rc ? NULL : fopen(path, "w");
    if (!rc && !*games) rc = tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", path,
                                          strerror(errno));
    /* the header reaches the file before any line does: a run killed after its first lines
     * leaves a chain that names its tournament, and the resume keeps the lines it vouches for
     * (none yet) instead of refusing a chain without a header */
    if (!rc && (!(sc->chain = fopen(cpath, "wb")) || tk_chain_write_header(sc->chain, start, id) ||
                fflush(sc->chain)))
      rc = tk_error_set(err, TK_EIO, -1, "%s: cannot write: %s", cpath, strerror(errno));
  }
  if (rc) return rc;
  if ((rc = open_records(r, dir, out->resumed, o->resume && out->resumed, records, err)))
    return rc;
  if ((rc = runlog_open(r, dir, out->resumed, o->resume && out->resumed, sc, err))) return rc;
  if (r->logs_run) clear_dir(r->logs_dir, 0); /* unit logs left by an interrupted run */
  return 0;
}

/* Plays units [first, end) into `sc` (o->play, else the worker pool), with progress. A clean
 * stop (abort policy, stopping rule, signal) is recorded in `out` and returns 0; otherwise
 * returns 0 or the failure's code. */
static int play_units(const tk_run *r, const tk_run_opts *o, uint64_t first, uint64_t end,
                      sink_ctx *sc, tk_run_outcome *out, tk_error *err) {
  int rc = 0;
  tk_progress prog;
  tk_progress_init(&prog, o->progress);
  if (r->game->units) prog.units = r->game->units;
  sc->progress_mode = prog.mode;
  sc->cmd = o->cmd ? o->cmd : "taikai run";
  sc->rule = o->rule;
  sc->rule_ctx = o->rule_ctx;
  out->refused = 0; /* from here on a failure is the run's, not the folder's */
  tk_confine_referee(&r->spec); /* an isolated seat's host must not reach this memory */
  if (!sc->ruled) /* `taikai serve` plays its units itself; every other command in workers */
    rc = o->play ? o->play(o->play_ctx, r, first, end - first, sink, sc, tk_progress_update,
                           &prog, err)
                 : tk_pool_run(r, first, end - first, o->jobs, sink, sc, tk_progress_update,
                               &prog, err);
  if (o->rate) *o->rate = tk_progress_rate(&prog);
  if (sc->ruled && !rc) rc = TK_ESTATE; /* decided on the kept units */
  if (rc && (sc->aborted || sc->ruled || tk_run_stop_signal)) {
    /* a clean stop: everything finished so far is kept, the summary says it is partial */
    out->stopped = sc->aborted ? TK_STOP_ABORT : sc->ruled ? TK_STOP_RULE
                                                           : (int)tk_run_stop_signal;
    if (sc->aborted || sc->ruled) snprintf(out->why, sizeof out->why, "%s", sc->why);
    else snprintf(out->why, sizeof out->why, "interrupted by %s",
                  tk_run_stop_signal == SIGINT ? "SIGINT" : tk_run_stop_signal == SIGTERM
                                                               ? "SIGTERM" : "a signal");
    if (prog.mode == 2) fprintf(stderr, "\n");
    tk_error_clear(err);
    return 0;
  }
  if (rc) return rc;
  tk_progress_finish(&prog);
  return 0;
}

/* Closes the run's output files, each pointer set to NULL once closed. Returns 0, or TK_EIO
 * at the first that failed to write (the rest are left for the caller). */
static int close_outputs(const tk_run *r, sink_ctx *sc, FILE **games, FILE **records,
                         tk_error *err) {
  int rc = 0;
  if (*games) {
    if (fclose(*games)) rc = tk_error_set(err, TK_EIO, -1, "games.jsonl: write failed");
    *games = NULL;
    if (rc) return rc;
  }
  if (sc->chain) {
    if (fclose(sc->chain)) rc = tk_error_set(err, TK_EIO, -1, TK_CHAIN_FILE ": write failed");
    sc->chain = NULL;
    if (rc) return rc;
  }
  if (*records) {
    if (fclose(*records)) rc = tk_error_set(err, TK_EIO, -1, "records.tkr: write failed");
    *records = NULL;
    if (rc) return rc;
  }
  if (sc->runlog) {
    int bad = fclose(sc->runlog) != 0;
    if (fclose(sc->runidx)) bad = 1;
    sc->runlog = sc->runidx = NULL;
    if (bad) rc = tk_error_set(err, TK_EIO, -1, "%s: write failed", r->logs_run);
  }
  return rc;
}

/* The run's summary from `tally`, marked partial when `out` says it stopped, written with
 * report.md and report.html when there is a folder. Returns 0 with the owned summary in *sum,
 * or an error code. */
static int write_summary(const tk_run *r, const tk_run_opts *o, const tk_tally *tally,
                         const tk_run_outcome *out, json_t **sum_out, tk_error *err) {
  const char *dir = o->out_dir;
  int rc;
  json_t *sum = tk_summary_json(r, tally, err);
  if (!sum) return TK_EINVAL;
  if (out->stopped) {
    json_object_set_new(sum, "complete", json_false());
    json_object_set_new(sum, "stopped", json_string(out->why));
  }
  tk_html_opts ho = {.folder = o->html_folder};
  if (dir && ((rc = dump(sum, dir, "summary.json", err)) || (rc = write_report(r, sum, dir, err)) ||
              (!o->no_html && (rc = tk_html_report(dir, &ho, err))))) {
    json_decref(sum);
    return rc;
  }
  *sum_out = sum;
  return 0;
}

int tk_run_execute(const tk_run *r, const tk_run_opts *o, json_t **summary_out, tk_error *err) {
  *summary_out = NULL;
  tk_run_outcome scratch, *out = o->outcome ? o->outcome : &scratch;
  memset(out, 0, sizeof *out);
  out->refused = 1;
  tk_tally tally;
  int rc = tk_tally_for_run(&tally, r);
  if (rc) return tk_error_set(err, rc, -1, "out of memory for %llu walls",
                              (unsigned long long)r->spec.walls);
  int *notices = calloc((size_t)r->spec.nagents, sizeof *notices);
  FILE *games = NULL, *records = NULL;
  tk_unit_rec *rec = malloc(sizeof *rec);
  sink_ctx *sc = calloc(1, sizeof *sc);
  const char **labels = calloc((size_t)r->spec.nagents, sizeof *labels);
  if (!notices || !rec || !sc || !labels) {
    free(notices);
    free(rec);
    free(sc);
    free(labels);
    tk_tally_free(&tally);
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  }
  for (int i = 0; i < r->spec.nagents; i++) labels[i] = r->spec.agents[i].label;
  uint64_t start, end; /* the run's units: all, or its shard's */
  tk_run_units(r, &start, &end);
  sc->end = end;
  signals_catch();
  if (o->out_dir &&
      (rc = open_folder(r, o, start, end, &tally, rec, sc, out, &games, &records, err)))
    goto done;
  uint64_t first = start + out->resumed; /* the first unit to play */
  sc->r = r;
  sc->games = games;
  sc->records = records;
  sc->labels = labels;
  sc->tally = &tally;
  sc->err = err;
  sc->notices = notices;
  if ((rc = play_units(r, o, first, end, sc, out, err))) goto done;
  if ((rc = close_outputs(r, sc, &games, &records, err))) goto done;
  rc = write_summary(r, o, &tally, out, summary_out, err);
done:
  signals_restore();
  if (games) fclose(games);
  if (sc && sc->chain) fclose(sc->chain);
  if (records) fclose(records);
  if (sc && sc->runlog) fclose(sc->runlog);
  if (sc && sc->runidx) fclose(sc->runidx);
  if (r->logs_run) clear_dir(r->logs_dir, 1); /* units played ahead of a stop, a try's .tmp */
  free(notices);
  free(rec);
  free(sc);
  free(labels);
  tk_tally_free(&tally);
  return rc;
}
