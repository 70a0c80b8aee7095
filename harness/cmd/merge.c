/* harness/cmd/merge.c — `taikai merge DIR... --out OUT [--partial]`: the folders of the shards
 * of one tournament (`taikai run --shard K/N`) joined into the folder one `taikai run` of the
 * whole spec writes: the same games.jsonl, summary.json and report.md byte for byte, and
 * records.tkr and logs/ when the shards have them.
 *
 * Before anything is written, the folders must hold shards of one tournament (their spec.json
 * equal but for "output" and "shard", the plugin and weights files of the same SHA-256, the
 * same taikai version), their units disjoint and, unless --partial, together every unit. The
 * outputs are then written by the run's own writer (tk_run_execute) with the shards' lines as
 * the units' source instead of the worker pool: each line is read back into its record and
 * must be written again to the same bytes, so the result is a run's by construction. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <ftw.h>
#include <unistd.h>

#include "chain.h"
#include "commands.h"
#include "line.h"
#include "opts.h"
#include "readfile.h"
#include "output.h"
#include "summary.h"
#include "shard.h"
#include "taikai/file.h"
#include "taikai/records.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai merge DIR... --out OUT [--partial] [--no-html] [--quiet]\n"
          "\n"
          "Joins the output folders of the shards of one tournament (taikai run SPEC --shard\n"
          "K/N) into OUT, a new folder: the spec.json, games.jsonl, summary.json and report.md\n"
          "that `taikai run SPEC --out OUT` writes, byte for byte, its report.html, and\n"
          "records.tkr and logs/ when every shard has them. The shards may be of different N (e.g. 1/2, 3/4, 4/4)\n"
          "as long as no unit is in two of them.\n"
          "\n"
          "Refused, naming the folders and the field, before anything is written: folders that\n"
          "are not shards of one tournament (spec.json differs but for \"output\" and \"shard\",\n"
          "or a plugin or weights file has another SHA-256, or another taikai version), shards\n"
          "that overlap, and missing units: a shard not given, or one not finished (resume it\n"
          "with the same `taikai run ... --shard K/N` command).\n"
          "\n"
          "  --out OUT   the merged run's folder (must not hold a run)\n"
          "  --partial   merge what the shards hold from unit 0 up to the first missing unit;\n"
          "              OUT is then an incomplete run, which `taikai run SPEC --out OUT`\n"
          "              finishes locally (units after the gap are left out, and said so)\n"
          "  --no-html   no report.html\n"
          "  --quiet     no progress on stderr\n"
          "\n"
          "report.md's title names the spec file the first shard was played from.\n"
          "\n"
          "Exit status: 0 merged (with --partial, maybe incomplete: summary.json says\n"
          "\"complete\"); 1 the merge failed while writing; 2 bad usage or folders refused;\n"
          "3 the spec's fault policy \"abort\" stopped at a faulted unit, as the whole run would\n"
          "have (the merged folder is that run's); 130 / 143 interrupted. OUT is written as\n"
          "OUT.merging and renamed once whole: after a failure or an interruption OUT is as it\n"
          "was, and the same command can be run again.\n");
}

typedef struct piece {
  const char *dir;
  json_t *spec;        /* owned: its spec.json without "shard" */
  json_t *shard;       /* owned: its "shard" */
  uint32_t k, n;
  uint64_t first, end; /* its units */
  uint64_t held;       /* units it holds from `first` on (lines, and records.tkr units) */
  uint64_t take;       /* units merged from it */
  int records, logs;   /* it has records.tkr, logs/ */
} piece;

typedef struct merge {
  piece *ps;           /* sorted by first unit */
  int n;
  int records;         /* merge records.tkr */
} merge;

static int has(const char *dir, const char *name) {
  char p[TK_PATH_MAX];
  struct stat st;
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return stat(p, &st) == 0;
}

static uint64_t jint(const json_t *a, size_t i) {
  return (uint64_t)json_integer_value(json_array_get(a, i));
}

/* Reads DIR/spec.json and its "shard". Returns 0 or 2 (printed). */
static int load_piece(piece *p) {
  char path[TK_PATH_MAX];
  snprintf(path, sizeof path, "%s/spec.json", p->dir);
  tk_error je;
  tk_error_clear(&je);
  p->spec = tk_json_load_path(path, JSON_REJECT_DUPLICATES, &je);
  if (!json_is_object(p->spec)) {
    fprintf(stderr, "taikai merge: %s (a folder written by `taikai run --shard K/N` is "
            "expected)\n", p->spec ? "not a JSON object" : je.msg);
    return 2;
  }
  json_t *sh = json_object_get(p->spec, "shard");
  if (!sh) {
    fprintf(stderr, "taikai merge: %s: no field 'shard': not a shard's folder (`taikai run "
            "--shard K/N` writes one)\n", path);
    return 2;
  }
  json_t *idx = json_object_get(sh, "index"), *cnt = json_object_get(sh, "count");
  json_t *units = json_object_get(sh, "units");
  if (!json_is_integer(idx) || !json_is_integer(cnt) || json_integer_value(idx) < 1 ||
      json_integer_value(idx) > json_integer_value(cnt) ||
      json_integer_value(cnt) > TK_SHARD_MAX || json_array_size(units) != 2 ||
      !json_is_integer(json_array_get(units, 0)) || !json_is_integer(json_array_get(units, 1)) ||
      !json_is_string(json_object_get(sh, "spec"))) {
    char brief[160];
    tk_json_brief(sh, brief, sizeof brief);
    fprintf(stderr, "taikai merge: %s: field 'shard': expected {\"index\": K, \"count\": N, "
            "\"units\": [first, end], \"spec\": ...} with 1 <= K <= N, got %s\n", path, brief);
    return 2;
  }
  p->k = (uint32_t)json_integer_value(idx);
  p->n = (uint32_t)json_integer_value(cnt);
  p->first = jint(units, 0);
  p->end = jint(units, 1);
  p->shard = json_incref(sh);
  json_object_del(p->spec, "shard");
  p->records = has(p->dir, "records.tkr");
  p->logs = has(p->dir, "logs");
  return 0;
}

/* Whether `b` holds the tournament of `a`; 0, or 2 with the difference printed. */
static int same_tournament(const piece *a, const piece *b) {
  char wa[TK_PATH_MAX + 8], wb[TK_PATH_MAX + 8], what[900];
  snprintf(wa, sizeof wa, "in %s", a->dir);
  snprintf(wb, sizeof wb, "in %s", b->dir);
  if (tk_spec_diff(a->spec, b->spec, wa, wb, what, sizeof what)) {
    fprintf(stderr, "taikai merge: %s is not a shard of the tournament of %s: their spec.json "
            "differ: %s\n", b->dir, a->dir, what);
    return 2;
  }
  tk_file_diff d;
  tk_spec_files_diff(a->spec, b->spec, &d);
  switch (d.kind) {
    case TK_FILES_SAME:
      return 0;
    case TK_FILES_UNHASHED:
      fprintf(stderr, "taikai merge: %s/spec.json: field 'agents[%d].files': no sha256 for agent "
              "'%s': cannot tell which build played it\n", a->dir, d.agent, d.label);
      return 2;
    case TK_FILES_CHANGED:
      fprintf(stderr, "taikai merge: %s is not a shard of the tournament of %s: agent '%s' "
              "(field 'agents[%d].files'): %s file %s has sha256 %.16s... in %s/spec.json and "
              "%.16s... in %s/spec.json: the shards were played by different builds; play "
              "them again with one\n", b->dir, a->dir, d.label, d.agent, d.role, d.path,
              d.there, a->dir, d.here, b->dir);
      return 2;
    default:
      fprintf(stderr, "taikai merge: %s is not a shard of the tournament of %s: agent '%s' "
              "(field 'agents[%d].files'): %s file %s is in %s/spec.json only\n", b->dir,
              a->dir, d.label, d.agent, d.role, d.path,
              d.kind == TK_FILES_ADDED ? b->dir : a->dir);
      return 2;
  }
}

/* Counts the units DIR holds from its first unit on: the complete lines of its games.jsonl,
 * each read back, checked to be the next unit of the shard and to be written again to the
 * same bytes (and no more than its records.tkr holds). Returns 0 or 2 (printed). */
static int scan_piece(piece *p, const tk_run *r, const char *const *labels) {
  char path[TK_PATH_MAX], cpath[TK_PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/games.jsonl", p->dir);
  snprintf(cpath, sizeof cpath, "%s/" TK_CHAIN_FILE, p->dir);
  p->held = 0;
  tk_error fe;
  tk_error_clear(&fe);
  FILE *f;
  int frc = tk_file_fopen(path, "r", TK_FILE_ANY_SIZE, &f, &fe);
  if (frc == TK_ENOTFOUND) return 0; /* a shard that has not started: it holds nothing */
  if (frc) {
    fprintf(stderr, "taikai merge: refused: %s\n", fe.msg);
    return 2;
  }
  /* every line must follow the shard's chain: a line changed after its run is refused */
  uint8_t id[TK_SHA256_BYTES];
  tk_chain_identity(p->spec, id);
  tk_chain_check chain;
  frc = tk_chain_open(&chain, cpath, p->first, id, &fe);
  if (frc == TK_ENOTFOUND) {
    int empty = fgetc(f) == EOF;
    fclose(f);
    if (empty) return 0;
    fprintf(stderr, "taikai merge: refused: %s: holds lines but no " TK_CHAIN_FILE ": cannot "
            "tell whether they are what taikai wrote (a folder written before taikai kept "
            "digest chains, or one whose chain was removed)\n", path);
    return 2;
  }
  if (frc) {
    fclose(f);
    fprintf(stderr, "taikai merge: refused: %s\n", fe.msg);
    return 2;
  }
  static char line[TK_LINE_MAX + 2], again[TK_LINE_MAX];
  tk_unit_rec *rec = malloc(sizeof *rec);
  int rc = rec ? 0 : 2;
  if (!rec) fprintf(stderr, "taikai merge: out of memory\n");
  /* lines past the chain's digests are a killed run's, like a torn line: resuming replays
   * them */
  while (!rc && p->held < chain.entries && fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n') break; /* torn by a killed run: resuming replays it */
    tk_error le;
    tk_error_clear(&le);
    uint64_t want = p->first + p->held;
    if (tk_chain_check_line(&chain, path, line, len - 1, want, &le)) {
      fprintf(stderr, "taikai merge: refused: %s\n", le.msg);
      rc = 2;
    } else if (tk_line_read(r->game, line, len - 1, r->spec.nagents, rec, &le)) {
      fprintf(stderr, "taikai merge: %s: line %llu: %s\n", path,
              (unsigned long long)p->held + 1, le.msg);
      rc = 2;
    } else if (rec->unit != want || want >= p->end) {
      fprintf(stderr, "taikai merge: %s: line %llu: field 'unit': %llu, expected %llu (shard "
              "%u/%u holds units %llu to %llu)\n", path, (unsigned long long)p->held + 1,
              (unsigned long long)rec->unit, (unsigned long long)want, p->k, p->n,
              (unsigned long long)p->first, (unsigned long long)p->end - 1);
      rc = 2;
    } else {
      int n = tk_line_write(r->game, rec, labels, again, sizeof again);
      if (n != (int)(len - 1) || memcmp(again, line, len - 1)) {
        fprintf(stderr, "taikai merge: %s: line %llu (unit %llu): not as taikai writes it "
                "(edited by hand?)\n", path, (unsigned long long)p->held + 1,
                (unsigned long long)want);
        rc = 2;
      } else {
        p->held++;
      }
    }
  }
  fclose(f);
  tk_chain_close(&chain);
  free(rec);
  if (!rc && p->records) {
    char rpath[TK_PATH_MAX];
    snprintf(rpath, sizeof rpath, "%s/records.tkr", p->dir);
    uint64_t units = 0;
    tk_error e;
    tk_error_clear(&e);
    if (tk_records_count(rpath, &units, &e)) {
      fprintf(stderr, "taikai merge: %s\n", e.msg);
      return 2;
    }
    if (units < p->held) p->held = units; /* a killed run's lines past its records: replayed */
  }
  return rc;
}

static int by_first(const void *a, const void *b) {
  const piece *x = a, *y = b;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

/* Checks that the pieces are disjoint and (unless `partial`) hold every unit of [0, total);
 * sets each piece's `take`. Returns 0 or 2 (every problem printed). */
static int plan(merge *m, uint64_t total, uint64_t per_wall, int partial, const char *spec) {
  /* every problem is listed, then the merge refused */
  int bad = 0, missing = 0;
  uint64_t pos = 0;
  const piece *prev = NULL;
  for (int i = 0; i < m->n; i++) {
    piece *p = &m->ps[i];
    if (p->first < pos) {
      uint64_t to = p->end < pos ? p->end : pos;
      fprintf(stderr, "taikai merge: units %llu to %llu are in both %s (shard %u/%u) and %s "
              "(shard %u/%u): merge each unit from one folder\n",
              (unsigned long long)p->first, (unsigned long long)to - 1, prev->dir, prev->k,
              prev->n, p->dir, p->k, p->n);
      bad = 1;
    } else if (p->first > pos) {
      fprintf(stderr, "taikai merge: units %llu to %llu (walls %llu to %llu) are in none of "
              "the folders: a shard is missing\n", (unsigned long long)pos,
              (unsigned long long)p->first - 1, (unsigned long long)(pos / per_wall),
              (unsigned long long)((p->first - 1) / per_wall));
      missing = 1;
    }
    if (p->held < p->end - p->first) {
      fprintf(stderr, "taikai merge: %s (shard %u/%u) holds %llu of its %llu units: units %llu "
              "to %llu are missing (finish it: taikai run %s --shard %u/%u --out %s)\n", p->dir,
              p->k, p->n, (unsigned long long)p->held, (unsigned long long)(p->end - p->first),
              (unsigned long long)(p->first + p->held), (unsigned long long)p->end - 1, spec,
              p->k, p->n, p->dir);
      missing = 1;
    }
    if (!prev || p->end > pos) {
      pos = p->end > pos ? p->end : pos;
      prev = p;
    }
  }
  if (pos < total) {
    fprintf(stderr, "taikai merge: units %llu to %llu (walls %llu to %llu) are in none of the "
            "folders: a shard is missing\n", (unsigned long long)pos,
            (unsigned long long)total - 1, (unsigned long long)(pos / per_wall),
            (unsigned long long)((total - 1) / per_wall));
    missing = 1;
  }
  if (bad) return 2;
  if (missing && !partial) {
    fprintf(stderr, "taikai merge: refused: the shards do not hold every unit (--partial merges "
            "the units up to the first missing one)\n");
    return 2;
  }
  /* the units from 0 up to the first missing one */
  pos = 0;
  for (int i = 0; i < m->n && m->ps[i].first == pos; i++) {
    m->ps[i].take = m->ps[i].held;
    pos += m->ps[i].held;
    if (m->ps[i].held < m->ps[i].end - m->ps[i].first) break;
  }
  if (pos < total)
    fprintf(stderr, "taikai merge: --partial: merging units 0 to %lld of %llu; the %llu after "
            "them are left out\n", (long long)pos - 1, (unsigned long long)total,
            (unsigned long long)(total - pos));
  return 0;
}

/* The `play` of tk_run_execute: the merged units' records from the pieces, in unit order. */
static int play(void *ctx, const tk_run *r, uint64_t first, uint64_t count, tk_sink_fn sink,
                void *sink_ctx, tk_progress_fn progress, void *progress_ctx, tk_error *err) {
  merge *m = ctx;
  static char line[TK_LINE_MAX + 2];
  tk_unit_rec *rec = malloc(sizeof *rec);
  uint8_t *block = NULL;
  size_t cap = 0;
  uint64_t done = 0;
  int rc = rec ? 0 : tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  for (int i = 0; i < m->n && !rc; i++) {
    piece *p = &m->ps[i];
    if (!p->take) continue;
    char path[TK_PATH_MAX], rpath[TK_PATH_MAX];
    snprintf(path, sizeof path, "%s/games.jsonl", p->dir);
    snprintf(rpath, sizeof rpath, "%s/records.tkr", p->dir);
    FILE *f = NULL, *raw = NULL;
    tk_records *rd = NULL;
    rc = tk_file_fopen(path, "r", TK_FILE_ANY_SIZE, &f, err);
    if (!rc && m->records && !(rc = tk_records_open(rpath, &rd, err)))
      rc = tk_file_fopen(rpath, "rb", TK_FILE_ANY_SIZE, &raw, err);
    if (!rc && m->records && fseek(raw, (long)tk_records_offset(rd), SEEK_SET))
      rc = tk_error_set(err, TK_EIO, -1, "%s: %s", rpath, strerror(errno));
    for (uint64_t u = 0; u < p->take && !rc; u++) {
      if (tk_run_stop_signal) {
        rc = tk_error_set(err, TK_ESTATE, -1, "interrupted by signal %d", (int)tk_run_stop_signal);
        break;
      }
      if (!fgets(line, sizeof line, f)) {
        rc = tk_error_set(err, TK_EIO, -1, "%s: line %llu: gone since it was checked", path,
                          (unsigned long long)u + 1);
        break;
      }
      tk_error le;
      tk_error_clear(&le);
      if (tk_line_read(r->game, line, strlen(line) - 1, r->spec.nagents, rec, &le) ||
          rec->unit != first + done) {
        rc = tk_error_set(err, TK_EPARSE, -1, "%s: line %llu: changed since it was checked",
                          path, (unsigned long long)u + 1);
        break;
      }
      size_t len = 0;
      if (rd) {
        tk_records_unit ru;
        uint64_t at = tk_records_offset(rd);
        int got = tk_records_next(rd, &ru, err);
        if (got != 1 || ru.unit != rec->unit) {
          if (got >= 0) rc = tk_error_set(err, TK_EPARSE, -1, "%s: no records for unit %llu",
                                          rpath, (unsigned long long)rec->unit);
          else rc = got;
          break;
        }
        len = (size_t)(tk_records_offset(rd) - at);
        if (len > cap) {
          uint8_t *nb = realloc(block, len);
          if (!nb) {
            rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
            break;
          }
          block = nb;
          cap = len;
        }
        if (fread(block, 1, len, raw) != len) {
          rc = tk_error_set(err, TK_EIO, -1, "%s: cannot read unit %llu", rpath,
                            (unsigned long long)rec->unit);
          break;
        }
      }
      if ((rc = sink(sink_ctx, rec, block, len))) break;
      done++;
      if (progress) progress(progress_ctx, done, count);
    }
    if (f) fclose(f);
    if (raw) fclose(raw);
    tk_records_close(rd);
  }
  free(rec);
  free(block);
  return rc;
}

/* The end offsets of the first `want` units of a shard's run log (`--logs=run`: its
 * logs/run.index), into ends[]; returns how many it holds (entries in order, within the log's
 * size), 0 without one. */
static uint64_t run_index(const char *log, const char *index, uint64_t want, uint64_t *ends) {
  struct stat st;
  FILE *f = NULL;
  if (!stat(log, &st) && S_ISREG(st.st_mode)) tk_file_fopen(index, "rb", TK_FILE_ANY_SIZE, &f, NULL);
  uint64_t n = 0, prev = 0;
  unsigned char b[8];
  while (f && n < want && fread(b, 1, 8, f) == 8) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    if (v < prev || v > (uint64_t)st.st_size) break;
    ends[n++] = prev = v;
  }
  if (f) fclose(f);
  return n;
}

/* Appends the first `len` bytes of `src` to `o`. Returns 0, or 1 (printed). */
static int append_bytes(FILE *o, const char *src, uint64_t len, const char *dst) {
  static char buf[1 << 16];
  FILE *in = NULL;
  tk_error e;
  tk_error_clear(&e);
  int bad = tk_file_fopen(src, "rb", TK_FILE_ANY_SIZE, &in, &e) != 0;
  if (bad) fprintf(stderr, "taikai merge: %s\n", e.msg);
  while (!bad && len) {
    size_t want = len < sizeof buf ? (size_t)len : sizeof buf;
    size_t got = fread(buf, 1, want, in);
    bad = got != want || fwrite(buf, 1, got, o) != got;
    len -= got;
  }
  if (in) fclose(in);
  if (bad) fprintf(stderr, "taikai merge: cannot copy %s to %s: %s\n", src, dst, strerror(errno));
  return bad;
}

/* The shards' run logs (`--logs=run[,gz]`: logs/run.jsonl[.gz] and logs/run.index) joined into
 * <out>/logs in unit order: the merged units' bytes of each, the index rebased. A shard's log
 * in the other form than the first shard's is left out (counted absent, with a note). Returns
 * the merged units without a log, or -1 (printed). Sets *any when a shard had a run log. */
static long long join_run_logs(const merge *m, const char *out, int *any) {
  static const char *const ext[] = {".jsonl", ".jsonl.gz"};
  int form = -1;
  *any = 0;
  for (int i = 0; i < m->n && form < 0; i++)
    for (int e = 0; e < 2 && form < 0; e++) {
      char p[TK_PATH_MAX + 32];
      snprintf(p, sizeof p, "%s/logs/run%s", m->ps[i].dir, ext[e]);
      if (m->ps[i].take && !access(p, F_OK)) form = e;
    }
  if (form < 0) return 0;
  *any = 1;
  char dst[TK_PATH_MAX + 32], dsti[TK_PATH_MAX + 32];
  snprintf(dst, sizeof dst, "%s/logs/run%s", out, ext[form]);
  snprintf(dsti, sizeof dsti, "%s/logs/run.index", out);
  FILE *o = fopen(dst, "wb"), *oi = fopen(dsti, "wb");
  long long absent = 0;
  uint64_t base = 0;
  int bad = !o || !oi;
  if (bad) fprintf(stderr, "taikai merge: cannot write %s: %s\n", dst, strerror(errno));
  for (int i = 0; i < m->n && !bad; i++) {
    const piece *p = &m->ps[i];
    if (!p->take) continue;
    char log[TK_PATH_MAX + 32], idx[TK_PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/logs/run%s", p->dir, ext[form]);
    snprintf(idx, sizeof idx, "%s/logs/run.index", p->dir);
    uint64_t *ends = malloc((size_t)p->take * sizeof *ends);
    uint64_t n = ends ? run_index(log, idx, p->take, ends) : 0;
    if (n < p->take) {
      fprintf(stderr, "taikai merge: %s: holds the run log of %llu of the %llu units merged "
              "from it (in the form %s); the merged run log stops before its units\n", p->dir,
              (unsigned long long)n, (unsigned long long)p->take, ext[form]);
      absent += (long long)(p->take - n);
    }
    if (n) bad = append_bytes(o, log, ends[n - 1], dst);
    for (uint64_t u = 0; u < n && !bad; u++) {
      unsigned char b[8];
      for (int k = 0; k < 8; k++) b[k] = (unsigned char)((base + ends[u]) >> (8 * k));
      bad = fwrite(b, 1, 8, oi) != 8;
    }
    if (n) base += ends[n - 1];
    free(ends);
    if (n < p->take) break; /* one file in unit order: nothing after a gap */
  }
  if (o && fclose(o)) bad = 1;
  if (oi && fclose(oi)) bad = 1;
  if (bad) {
    fprintf(stderr, "taikai merge: cannot write %s\n", dst);
    return -1;
  }
  return absent;
}

/* Copies (hard links where it can) the logs of the merged units into <out>/logs. Returns the
 * number of merged units without a log in their shard, or -1 (printed). */
static long long copy_logs(const merge *m, const char *out) {
  char dst_dir[TK_PATH_MAX + 8];
  snprintf(dst_dir, sizeof dst_dir, "%s/logs", out);
  tk_error err;
  tk_error_clear(&err);
  if (tk_mkdirs(dst_dir, &err)) {
    fprintf(stderr, "taikai merge: %s\n", err.msg);
    return -1;
  }
  int run_form = 0;
  long long absent = join_run_logs(m, out, &run_form);
  if (absent < 0 || run_form) return absent;
  static char buf[1 << 16];
  for (int i = 0; i < m->n; i++) {
    const piece *p = &m->ps[i];
    for (uint64_t u = p->first; u < p->first + p->take; u++) {
      static const char *const ext[] = {".jsonl", ".jsonl.gz"};
      int found = 0;
      for (int e = 0; e < 2 && !found; e++) {
        char src[TK_PATH_MAX + 64], dst[TK_PATH_MAX + 64];
        snprintf(src, sizeof src, "%s/logs/unit-%08llu%s", p->dir, (unsigned long long)u, ext[e]);
        if (access(src, F_OK)) continue;
        found = 1;
        snprintf(dst, sizeof dst, "%s/unit-%08llu%s", dst_dir, (unsigned long long)u, ext[e]);
        if (!link(src, dst)) continue; /* logs are replaced, never written in place */
        int in = open(src, O_RDONLY), o = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ssize_t got = 0;
        int bad = in < 0 || o < 0;
        while (!bad && (got = read(in, buf, sizeof buf)) > 0)
          bad = write(o, buf, (size_t)got) != got;
        if (got < 0) bad = 1;
        if (in >= 0) close(in);
        if (o >= 0 && close(o)) bad = 1;
        if (bad) {
          fprintf(stderr, "taikai merge: cannot copy %s to %s: %s\n", src, dst, strerror(errno));
          return -1;
        }
      }
      absent += !found;
    }
  }
  return absent;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  if (ftw->level == 0) return 0; /* the folder itself: remove_tree decides */
  return remove(path);
}

/* Removes everything inside `dir`, and `dir` itself when `self`. Returns 0 or -1 (errno). */
static int remove_tree(const char *dir, int self) {
  if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS)) return -1;
  return self ? rmdir(dir) : 0;
}

/* Moves the merged folder `tmp` to `out`: one rename when OUT does not exist or is empty; else
 * (OUT holds files other than a run) entry by entry, spec.json last, so that OUT is taken for a
 * run only once it holds one. Returns 0 or 1 (printed). */
static int put_in_place(const char *tmp, const char *out) {
  if (!rename(tmp, out)) return 0;
  if (errno != ENOTEMPTY && errno != EEXIST) {
    fprintf(stderr, "taikai merge: cannot rename %s to %s: %s\n", tmp, out, strerror(errno));
    return 1;
  }
  DIR *d = opendir(tmp);
  if (!d) {
    fprintf(stderr, "taikai merge: %s: %s\n", tmp, strerror(errno));
    return 1;
  }
  int bad = 0;
  for (int pass = 0; pass < 2 && !bad; pass++) {
    rewinddir(d);
    struct dirent *e;
    while (!bad && (e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
          !strcmp(e->d_name, ".taikai.lock") || (!strcmp(e->d_name, "spec.json")) != pass)
        continue;
      char a[TK_PATH_MAX + 300], b[TK_PATH_MAX + 300];
      snprintf(a, sizeof a, "%s/%s", tmp, e->d_name);
      snprintf(b, sizeof b, "%s/%s", out, e->d_name);
      if (rename(a, b)) {
        fprintf(stderr, "taikai merge: cannot move %s to %s: %s\n", a, b, strerror(errno));
        bad = 1;
      }
    }
  }
  closedir(d);
  if (!bad && remove_tree(tmp, 1))
    fprintf(stderr, "taikai merge: cannot remove %s: %s\n", tmp, strerror(errno));
  return bad;
}

/* Refuses (printed) two of the ps[0..n) that name one folder: -1, else 0. */
static int same_folders(const piece *ps, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      struct stat a, b;
      if (!stat(ps[i].dir, &a) && !stat(ps[j].dir, &b) && a.st_dev == b.st_dev &&
          a.st_ino == b.st_ino) {
        fprintf(stderr, "taikai merge: %s and %s are the same folder\n", ps[j].dir, ps[i].dir);
        return -1;
      }
    }
  return 0;
}

/* Refuses (printed) a shard whose units are not those its K/N holds in run r: -1, else 0. */
static int shards_fit(const piece *ps, int n, const tk_run *r, uint64_t per_wall) {
  for (int i = 0; i < n; i++) {
    const piece *p = &ps[i];
    uint64_t lo, hi;
    tk_shard_walls(r->spec.walls, p->k, p->n, &lo, &hi);
    if (p->n > r->spec.walls || p->first != lo * per_wall || p->end != hi * per_wall) {
      fprintf(stderr, "taikai merge: %s/spec.json: field 'shard.units': [%llu, %llu], but shard "
              "%u/%u of this tournament (%llu walls of %llu units) holds units [%llu, %llu)\n",
              p->dir, (unsigned long long)p->first, (unsigned long long)p->end, p->k, p->n,
              (unsigned long long)r->spec.walls, (unsigned long long)per_wall,
              (unsigned long long)(lo * per_wall), (unsigned long long)(hi * per_wall));
      return -1;
    }
  }
  return 0;
}

/* The output folder must be new: absent, or a folder holding no run. -1 (printed), else 0. */
static int out_is_new(const char *out) {
  struct stat st;
  if (stat(out, &st)) return 0;
  if (!S_ISDIR(st.st_mode)) {
    fprintf(stderr, "taikai merge: --out %s: exists and is not a folder\n", out);
    return -1;
  }
  static const char *const held[] = {"spec.json", "games.jsonl", "summary.json"};
  for (int i = 0; i < 3; i++)
    if (has(out, held[i])) {
      fprintf(stderr, "taikai merge: --out %s: holds a run already (%s): merge into a new "
              "folder\n", out, held[i]);
      return -1;
    }
  return 0;
}

/* The folder the merge is written into, tmp[cap] = "OUT.merging", locked (OUT too when it
 * exists) and emptied; it is renamed to OUT once whole, so a merge that fails or is stopped
 * leaves OUT as it was, and the same merge can be run again. *made is set once tmp exists (the
 * caller removes it). Returns 0, 2 (refused) or 1 (failed), printed. */
static int make_tmp(const char *out, char *tmp, size_t cap, int *made) {
  struct stat st;
  tk_error err;
  tk_error_clear(&err);
  size_t olen = strlen(out);
  while (olen > 1 && out[olen - 1] == '/') olen--;
  if (olen + 32 >= cap) {
    fprintf(stderr, "taikai merge: --out %s: the name is too long\n", out);
    return 2;
  }
  snprintf(tmp, cap, "%.*s.merging", (int)olen, out);
  if (!stat(out, &st) && tk_outdir_lock(out, &err) < 0) {
    fprintf(stderr, "taikai merge: refused: %s\n", err.msg);
    return 2;
  }
  if (tk_mkdirs(tmp, &err) || tk_outdir_lock(tmp, &err) < 0) {
    fprintf(stderr, "taikai merge: refused: %s\n", err.msg);
    return 2;
  }
  *made = 1;
  if (remove_tree(tmp, 0)) { /* what a killed merge left there */
    fprintf(stderr, "taikai merge: cannot empty %s: %s\n", tmp, strerror(errno));
    return 1;
  }
  return 0;
}

int tk_cmd_merge(int argc, char **argv) {
  const char *out = NULL;
  int partial = 0, quiet = 0, no_html = 0, rc = 2, made_tmp = 0;
  char tmp[TK_PATH_MAX];
  piece *ps = calloc((size_t)argc, sizeof *ps);
  int n = 0;
  tk_folder_run fr;
  memset(&fr, 0, sizeof fr);
  if (!ps) {
    fprintf(stderr, "taikai merge: out of memory\n");
    return 1;
  }
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &out, .once = 1, .value = "OUT",
       .help = "the merged run's folder (must not hold a run)"},
      {.name = "partial", .kind = TK_OPT_FLAG, .dest = &partial,
       .help = "merge the units from 0 up to the first missing one"},
      {.name = "no-html", .kind = TK_OPT_FLAG, .dest = &no_html, .help = "no report.html"},
      {.name = "quiet", .short_name = 'q', .kind = TK_OPT_FLAG, .dest = &quiet,
       .help = "no progress on stderr"},
      {.name = NULL},
  };
  const char **dirs = calloc((size_t)argc, sizeof *dirs);
  int ndirs = 0, prc = dirs ? tk_opts_parse("merge", opts, argc, argv, dirs, argc, &ndirs) : 2;
  for (int i = 0; i < ndirs; i++) ps[n++].dir = dirs[i];
  free(dirs);
  if (prc == 1) {
    usage(stdout);
    free(ps);
    return 0;
  }
  if (prc) goto done;
  if (!n || !out) {
    usage(stderr);
    goto done;
  }
  for (int i = 0; i < n; i++)
    if ((rc = load_piece(&ps[i]))) goto done;
  rc = 2;
  if (same_folders(ps, n)) goto done;
  qsort(ps, (size_t)n, sizeof *ps, by_first);
  for (int i = 1; i < n; i++)
    if (same_tournament(&ps[0], &ps[i])) goto done;
  /* the tournament, from the first shard's spec.json (no plugin loaded) */
  const char *spec = json_string_value(json_object_get(ps[0].shard, "spec"));
  tk_error err;
  tk_error_clear(&err);
  if (tk_folder_run_load(&fr, json_incref(ps[0].spec), ps[0].dir, spec, &err)) {
    fprintf(stderr, "taikai merge: %s\n", err.msg);
    goto done;
  }
  tk_run *r = &fr.run;
  uint64_t total = tk_schedule_units(&r->sched), per_wall = r->sched.per_wall;
  if (shards_fit(ps, n, r, per_wall)) goto done;
  const char **labels = calloc((size_t)r->spec.nagents, sizeof *labels);
  if (!labels) {
    fprintf(stderr, "taikai merge: out of memory\n");
    rc = 1;
    goto done;
  }
  for (int i = 0; i < r->spec.nagents; i++) labels[i] = r->spec.agents[i].label;
  int bad = 0;
  for (int i = 0; i < n && !bad; i++) bad = scan_piece(&ps[i], r, labels);
  free(labels);
  merge m = {.ps = ps, .n = n};
  if (bad || plan(&m, total, per_wall, partial, spec)) goto done;
  /* records.tkr and logs/: when every shard merged from has them */
  int with_records = 0, with_logs = 0, used = 0;
  for (int i = 0; i < n; i++) {
    if (!ps[i].take) continue;
    used++;
    with_records += ps[i].records;
    with_logs += ps[i].logs;
  }
  m.records = used && with_records == used;
  if (with_records && !m.records)
    fprintf(stderr, "taikai merge: only %d of the %d shards merged have records.tkr: %s will "
            "have none\n", with_records, used, out);
  if (with_logs && with_logs < used)
    fprintf(stderr, "taikai merge: only %d of the %d shards merged have logs/: %s/logs will "
            "hold theirs\n", with_logs, used, out);
  if (out_is_new(out) || (rc = make_tmp(out, tmp, sizeof tmp, &made_tmp))) goto done;
  rc = 2;
  free(r->spec.output);
  if (!(r->spec.output = strdup(out))) {
    fprintf(stderr, "taikai merge: out of memory\n");
    rc = 1;
    goto done;
  }
  r->records = m.records;
  tk_run_outcome outcome;
  tk_run_opts o = {.jobs = 1, .out_dir = tmp, .html_folder = out, .progress = quiet ? 0 : -1, .no_html = no_html,
                   .outcome = &outcome,
                   .play = play, .play_ctx = &m, .cmd = "taikai merge"};
  json_t *sum = NULL;
  if (tk_run_execute(r, &o, &sum, &err)) {
    fprintf(stderr, "taikai merge: %s\n", err.msg);
    rc = 1;
    goto done;
  }
  if (outcome.stopped && outcome.stopped != TK_STOP_ABORT) { /* a signal: nothing is kept */
    json_decref(sum);
    fprintf(stderr, "taikai merge: stopped: %s; %s is as it was\n", outcome.why, out);
    rc = 128 + outcome.stopped;
    goto done;
  }
  long long absent = with_logs ? copy_logs(&m, tmp) : 0;
  if (absent < 0 || put_in_place(tmp, out)) {
    json_decref(sum);
    rc = 1;
    goto done;
  }
  made_tmp = 0;
  if (absent)
    fprintf(stderr, "taikai merge: %s/logs: %lld of the merged units have no log in their "
            "shard (played without --logs)\n", out, absent);
  tk_summary_table(r, sum, stdout);
  printf("\nwrote %s/{spec.json,games.jsonl,summary.json,report.md%s%s%s}\n", out,
         no_html ? "" : ",report.html", m.records ? ",records.tkr" : "", with_logs ? ",logs/" : "");
  if (!outcome.stopped && !json_is_true(json_object_get(sum, "complete")))
    fprintf(stderr, "taikai merge: %s is an incomplete run: `taikai run %s --out %s%s%s` plays "
            "the rest\n", out, spec, out, m.records ? " --records" : "",
            !with_logs ? "" : has(out, "logs/run.jsonl.gz") ? " --logs=run,gz"
                            : has(out, "logs/run.jsonl") ? " --logs=run" : " --logs");
  json_decref(sum);
  rc = 0;
  if (outcome.stopped) { /* the fault policy abort, or a signal, stopped the run it merges */
    fprintf(stderr, "taikai merge: stopped: %s\n", outcome.why);
    rc = outcome.stopped == TK_STOP_ABORT ? 3 : 128 + outcome.stopped;
  }
done:
  if (made_tmp && remove_tree(tmp, 1))
    fprintf(stderr, "taikai merge: cannot remove %s: %s\n", tmp, strerror(errno));
  tk_folder_run_free(&fr);
  for (int i = 0; i < n; i++) {
    json_decref(ps[i].spec);
    json_decref(ps[i].shard);
  }
  free(ps);
  return rc;
}
