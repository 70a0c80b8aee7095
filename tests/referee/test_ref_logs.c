/* tests/referee/test_ref_logs.c — end to end: game logs of `taikai run --logs` on a daifugo
 * tournament, plain and gzip-compressed (`--logs=gz`), and `taikai replay` on them: every log
 * replays with games.jsonl's points; hand-edited copies (a card changed, two actions swapped, a
 * wrong result) are refused naming the file and the line; compressed logs hold the same bytes
 * as plain ones, whatever -j, and leave games.jsonl unchanged; a resumed run rewrites exactly
 * the logs of the units it plays again (a stale .tmp replaced, the other form removed); riichi's
 * compressed logs are its plain ones and replay too; bad --logs options are refused.
 * `--logs=run` (one file for the run): the per-unit logs concatenated in unit order, plain and
 * gzip, the same bytes with -j 1 and -j 2, replayed game by game, and the same bytes after a
 * resume from torn files and after SIGKILLs, and joined by `taikai merge` from two shards;
 * riichi's too; a run is continued only in the form
 * it was started in. The binary runs as a child process with a time limit (e2e_util.h), in a
 * folder beside test_ref_e2e's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>

#include "e2e_util.h"

#define UNITS 10 /* 2 blocks x 5 player ids of the candidate */

static const char *SPEC =
    "{\"game\": \"daifugo\", \"seed\": 31, \"walls\": 2, \"format\": \"duplicate\",\n"
    " \"agents\": [{\"plugin\": \"daifugo_random\", \"label\": \"random\"},\n"
    "             {\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}],\n"
    " \"rules\": {\"block_games\": 6}}\n";

static int count_prefix(const char *text, const char *prefix) {
  int n = 0;
  size_t len = strlen(prefix);
  for (const char *p = text; *p;) {
    if (!strncmp(p, prefix, len)) n++;
    const char *e = strchr(p, '\n');
    if (!e) break;
    p = e + 1;
  }
  return n;
}

/* The whole of a file, plain or gzip-compressed, malloc'd ("" if it cannot be read). */
static char *read_all(const char *path, size_t *len) {
  gzFile z = gzopen(path, "rb");
  size_t cap = 1 << 20, n = 0;
  char *buf = malloc(cap + 1);
  int got;
  while (z && (got = gzread(z, buf + n, (unsigned)(cap - n))) > 0) {
    n += (size_t)got;
    if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
  }
  if (z) gzclose(z);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

static int same_content(const char *a, const char *b) {
  size_t na, nb;
  char *x = read_all(a, &na), *y = read_all(b, &nb);
  int same = na == nb && na > 0 && !memcmp(x, y, na);
  free(x);
  free(y);
  return same;
}

static const char *unit_log(const char *run, int unit, const char *ext) {
  static char bufs[4][1200];
  static int next;
  char *b = bufs[next++ % 4];
  snprintf(b, sizeof bufs[0], "%s/logs/unit-%08d.jsonl%s", run, unit, ext);
  return b;
}

static int ran;

static void run_and_replay(void) {
  write_file(W("spec.json"), SPEC);
  const char *run[] = {"run", W("spec.json"), "--out", W("plain"), "--logs", "-j", "2", "--quiet",
                       NULL};
  int rc = taikai(run);
  if (rc) TK_FAILF("taikai run --logs: exit %d: %s", rc, err_buf);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  ran = 1;
  const char *all[] = {"replay", W("plain"), NULL};
  TK_EQ(taikai(all), 0, "replay of the run folder");
  char want[128];
  snprintf(want, sizeof want, "%d logs, %d games replayed, 0 mismatches\n", UNITS, UNITS);
  if (!strstr(out_buf, want)) TK_FAILF("expected '%s' in:\n%s", want, out_buf);
  TK_EQ(count_prefix(out_buf, "OK "), UNITS, "one OK line per log");

  /* each log's points are games.jsonl's (a seat is a player id) */
  json_t *lines[UNITS + 1];
  int n = load_lines(W("plain/games.jsonl"), lines, UNITS + 1);
  TK_EQ(n, UNITS, "games.jsonl lines");
  for (int i = 0; i < n; i++) {
    json_t *seats = json_object_get(lines[i], "seats");
    char at[64], pts[128];
    int unit = (int)json_integer_value(json_object_get(lines[i], "unit"));
    snprintf(at, sizeof at, "unit-%08d.jsonl: daifugo block %d, 6 games, ", unit, unit / 5);
    int k = snprintf(pts, sizeof pts, "points");
    for (int s = 0; s < 5; s++)
      k += snprintf(pts + k, sizeof pts - (size_t)k, " %lld",
                    (long long)json_integer_value(
                        json_object_get(json_array_get(seats, (size_t)s), "points")));
    snprintf(pts + k, sizeof pts - (size_t)k, "\n");
    const char *line = strstr(out_buf, at);
    const char *p = line ? strstr(line, "points") : NULL;
    if (!p || strncmp(p, pts, strlen(pts))) TK_FAILF("%s: expected '%s'", at, pts);
  }
  free_lines(lines, n > 0 ? n : 0);
}

/* Writes `text` with line `i` (0-based) replaced by `with` (NULL: lines i and i+1 swapped). */
static void write_edited(const char *path, const char *text, int i, const char *with) {
  FILE *f = fopen(path, "w");
  const char *p = text, *line[2] = {NULL, NULL};
  size_t len[2] = {0, 0};
  for (int k = 0; *p; k++) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
    if (k == i && with) {
      fprintf(f, "%s\n", with);
    } else if (!with && (k == i || k == i + 1)) {
      line[k - i] = p;
      len[k - i] = n;
      if (k == i + 1) {
        fwrite(line[1], 1, len[1], f);
        fwrite(line[0], 1, len[0], f);
      }
    } else {
      fwrite(p, 1, n, f);
    }
    p += n;
  }
  fclose(f);
}

/* The 0-based index of the first line holding `needle` from line `from`, its text in `buf`. */
static int line_with(const char *text, const char *needle, int from, char *buf, size_t cap) {
  int k = 0;
  for (const char *p = text; *p; k++) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (k >= from && n < cap) {
      memcpy(buf, p, n);
      buf[n] = '\0';
      if (strstr(buf, needle)) return k;
    }
    p += n + (e != NULL);
  }
  return -1;
}

static void tampered(void) {
  if (!ran) return;
  mkdir(W("bad"), 0777);
  char *text = read_all(unit_log(W("plain"), 3, ""), NULL);
  static char line[1 << 14], edited[1 << 14];
  char want[1400];

  /* a card changed: the first play made of a card the next player was dealt */
  int i = line_with(text, "\"type\":\"play\"", 2, line, sizeof line);
  CU_ASSERT_FATAL(i > 0);
  char deal[4096];
  CU_ASSERT_FATAL(line_with(text, "\"type\":\"deal\"", 0, deal, sizeof deal) == 1);
  json_t *dj = json_loads(deal, 0, NULL), *pj = json_loads(line, 0, NULL);
  int who = (int)json_integer_value(json_object_get(pj, "player"));
  const char *other =
      json_string_value(json_array_get(json_object_get(dj, "hands"), (size_t)(who + 1) % 5));
  char card[3] = {other[0], other[1], '\0'};
  json_object_set_new(pj, "cards", json_string(card));
  char *ed = json_dumps(pj, JSON_COMPACT | JSON_PRESERVE_ORDER);
  snprintf(edited, sizeof edited, "%s", ed);
  free(ed);
  json_decref(dj);
  json_decref(pj);
  write_edited(W("bad/card.jsonl"), text, i, edited);
  const char *a1[] = {"replay", W("bad/card.jsonl"), NULL};
  TK_EQ(taikai(a1), 1, "a card changed");
  snprintf(want, sizeof want, "MISMATCH %s:%d: play: ", W("bad/card.jsonl"), i + 1);
  if (!strstr(out_buf, want)) TK_FAILF("expected '%s' in:\n%s", want, out_buf);

  /* two actions swapped: a play and the next player's answer */
  int j = line_with(text, "\"type\":\"pass\"", 2, line, sizeof line);
  CU_ASSERT_FATAL(j > 2);
  write_edited(W("bad/order.jsonl"), text, j - 1, NULL);
  const char *a2[] = {"replay", W("bad/order.jsonl"), NULL};
  TK_EQ(taikai(a2), 1, "two actions swapped");
  snprintf(want, sizeof want, "MISMATCH %s:%d: ", W("bad/order.jsonl"), j);
  if (!strstr(out_buf, want) || !strstr(out_buf, "is not to act"))
    TK_FAILF("expected '%s' ... 'is not to act' in:\n%s", want, out_buf);

  /* a wrong result: the first game's sennichite flag */
  int k = line_with(text, "\"type\":\"end_game\"", 0, line, sizeof line);
  CU_ASSERT_FATAL(k > 0);
  char *s = strstr(line, "\"sennichite\":false");
  CU_ASSERT_FATAL(s != NULL);
  snprintf(edited, sizeof edited, "%.*s\"sennichite\":true}", (int)(s - line), line);
  write_edited(W("bad/result.jsonl"), text, k, edited);
  const char *a3[] = {"replay", W("bad"), NULL};
  TK_EQ(taikai(a3), 1, "a folder of bad logs");
  snprintf(want, sizeof want, "MISMATCH %s/result.jsonl:%d: end_game: differs in sennichite\n"
           "  expected: false\n  logged:   true\n", W("bad"), k + 1);
  if (!strstr(out_buf, want)) TK_FAILF("expected '%s' in:\n%s", want, out_buf);
  if (!strstr(out_buf, "3 logs, 0 games replayed, 3 mismatches\n"))
    TK_FAILF("expected the count in:\n%s", out_buf);
  free(text);
}

/* --logs=gz: the same games, the same log bytes once decompressed, whatever -j; replayed. */
static void compressed(void) {
  if (!ran) return;
  const char *run[] = {"run", W("spec.json"), "--out", W("gz"), "--logs=gz", "-j", "1", "--quiet",
                       NULL};
  int rc = taikai(run);
  if (rc) TK_FAILF("taikai run --logs=gz: exit %d: %s", rc, err_buf);
  CU_ASSERT(same_bytes(W("gz/games.jsonl"), W("plain/games.jsonl")));
  CU_ASSERT(same_bytes(W("gz/summary.json"), W("plain/summary.json")));
  for (int u = 0; u < UNITS; u++) {
    if (exists(unit_log(W("gz"), u, ""))) TK_FAILF("unit %d: a plain log beside the .gz", u);
    if (!same_content(unit_log(W("gz"), u, ".gz"), unit_log(W("plain"), u, "")))
      TK_FAILF("unit %d: the .gz log differs from the plain one", u);
    FILE *f = fopen(unit_log(W("gz"), u, ".gz"), "rb");
    int m0 = f ? fgetc(f) : -1, m1 = f ? fgetc(f) : -1;
    if (f) fclose(f);
    if (m0 != 0x1f || m1 != 0x8b) TK_FAILF("unit %d: not gzip (%02x %02x)", u, m0, m1);
  }
  struct stat a, b;
  if (!stat(unit_log(W("gz"), 0, ".gz"), &a) && !stat(unit_log(W("plain"), 0, ""), &b))
    if (a.st_size * 4 > b.st_size)
      TK_FAILF("compressed %lld bytes of %lld", (long long)a.st_size, (long long)b.st_size);
  const char *rp[] = {"replay", "--quiet", W("gz"), NULL};
  TK_EQ(taikai(rp), 0, "replay of the compressed logs");
  if (!strstr(out_buf, "10 logs, 10 games replayed, 0 mismatches"))
    TK_FAILF("replay: %s", out_buf);
  /* the unit logs concatenated: one gzip file of ten blocks */
  FILE *all = fopen(W("all.jsonl.gz"), "wb");
  for (int u = 0; u < UNITS; u++) {
    FILE *f = fopen(unit_log(W("gz"), u, ".gz"), "rb");
    int ch;
    while (f && (ch = fgetc(f)) != EOF) fputc(ch, all);
    if (f) fclose(f);
  }
  fclose(all);
  const char *ra[] = {"replay", W("all.jsonl.gz"), NULL};
  TK_EQ(taikai(ra), 0, "replay of the concatenation");
  if (!strstr(out_buf, "1 log, 10 games replayed, 0 mismatches") ||
      !strstr(out_buf, "all.jsonl.gz#10: daifugo block 1,"))
    TK_FAILF("replay of the concatenation: %s", out_buf);
}

/* Cuts games.jsonl of `run` to its first `keep` lines and drops summary.json. */
static void cut_run(const char *run, int keep) {
  char path[1200];
  snprintf(path, sizeof path, "%s/games.jsonl", run);
  static char text[1 << 16];
  slurp(path, text, sizeof text);
  char *p = text;
  for (int i = 0; i < keep && p; i++) p = strchr(p, '\n') + 1;
  *p = '\0';
  write_file(path, text);
  snprintf(path, sizeof path, "%s/summary.json", run);
  unlink(path);
}

/* A resumed run plays the units games.jsonl lacks again and writes their logs whole; the logs
 * of the units it keeps are left as they are. */
static void resumed(void) {
  if (!ran) return;
  const char *run[] = {"run", W("spec.json"), "--out", W("res"), "--logs=gz", "-j", "2", "--quiet",
                       NULL};
  TK_EQ(taikai(run), 0, "first run");
  cut_run(W("res"), 3);
  for (int u = 5; u < UNITS; u++) unlink(unit_log(W("res"), u, ".gz"));
  write_file(unit_log(W("res"), 7, ".gz.tmp"), "torn"); /* a unit stopped mid-way */
  TK_EQ(taikai(run), 0, "resumed");
  if (strstr(err_buf, "no log in")) TK_FAILF("the kept units have logs, yet: %s", err_buf);
  CU_ASSERT(same_bytes(W("res/games.jsonl"), W("gz/games.jsonl")));
  for (int u = 0; u < UNITS; u++)
    if (!same_bytes(unit_log(W("res"), u, ".gz"), unit_log(W("gz"), u, ".gz")))
      TK_FAILF("unit %d: the resumed run's log differs", u);
  CU_ASSERT(!exists(unit_log(W("res"), 7, ".gz.tmp")));
  /* resumed with plain logs: the units played again change form, the others keep theirs */
  cut_run(W("res"), 6);
  const char *plain[] = {"run", W("spec.json"), "--out", W("res"), "--logs", "--quiet", NULL};
  TK_EQ(taikai(plain), 0, "resumed with plain logs");
  for (int u = 0; u < UNITS; u++) {
    int gz = u < 6;
    if (!exists(unit_log(W("res"), u, gz ? ".gz" : "")) ||
        exists(unit_log(W("res"), u, gz ? "" : ".gz")))
      TK_FAILF("unit %d: expected only its %s log", u, gz ? ".gz" : "plain");
  }
  const char *rp[] = {"replay", "--quiet", W("res"), NULL};
  TK_EQ(taikai(rp), 0, "replay of the resumed run");
  if (!strstr(out_buf, "10 logs, 10 games replayed, 0 mismatches")) TK_FAILF("replay: %s", out_buf);
  /* a run played without --logs, continued with them: the kept units are said to have none */
  const char *bare[] = {"run", W("spec.json"), "--out", W("bare"), "--quiet", NULL};
  TK_EQ(taikai(bare), 0, "a run without logs");
  cut_run(W("bare"), 4);
  const char *more[] = {"run", W("spec.json"), "--out", W("bare"), "--logs", "--quiet", NULL};
  TK_EQ(taikai(more), 0, "continued with --logs");
  if (!strstr(err_buf, "4 of the 4 units played before this command have no log in"))
    TK_FAILF("the note on the kept units: %s", err_buf);
}

/* The files `paths` (n of them) concatenated into `out`. */
static void concat(const char *out, const char *const *paths, int n) {
  FILE *o = fopen(out, "wb");
  for (int i = 0; i < n && o; i++) {
    FILE *f = fopen(paths[i], "rb");
    int ch;
    while (f && (ch = fgetc(f)) != EOF) fputc(ch, o);
    if (f) fclose(f);
  }
  if (o) fclose(o);
}

static long long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) ? -1 : (long long)st.st_size;
}

/* --logs=run and --logs=run,gz: the run's file is the per-unit files of --logs / --logs=gz
 * concatenated in unit order (one gzip member per unit), whatever -j; its index holds each
 * unit's end; no unit file is left; replay reads every block of it. */
static void one_file(void) {
  if (!ran) return;
  const char *r1[] = {"run", W("spec.json"), "--out", W("run1"), "--logs=run", "-j", "1",
                      "--quiet", NULL};
  const char *r2[] = {"run", W("spec.json"), "--out", W("run2"), "--logs=run", "-j", "2",
                      "--quiet", NULL};
  const char *z2[] = {"run", W("spec.json"), "--out", W("runz"), "--logs=run,gz", "-j", "2",
                      "--quiet", NULL};
  TK_EQ(taikai(r1), 0, "--logs=run -j 1");
  TK_EQ(taikai(r2), 0, "--logs=run -j 2");
  TK_EQ(taikai(z2), 0, "--logs=run,gz -j 2");
  CU_ASSERT(same_bytes(W("run1/games.jsonl"), W("plain/games.jsonl")));
  CU_ASSERT(same_bytes(W("runz/games.jsonl"), W("plain/games.jsonl")));
  const char *plain[UNITS], *gz[UNITS];
  for (int u = 0; u < UNITS; u++) {
    plain[u] = strdup(unit_log(W("plain"), u, ""));
    gz[u] = strdup(unit_log(W("gz"), u, ".gz"));
    if (exists(unit_log(W("run1"), u, "")) || exists(unit_log(W("runz"), u, ".gz")))
      TK_FAILF("unit %d: a unit log beside the run's", u);
  }
  concat(W("cat-plain.jsonl"), plain, UNITS);
  concat(W("cat-gz.jsonl.gz"), gz, UNITS);
  if (!same_bytes(W("run1/logs/run.jsonl"), W("cat-plain.jsonl")))
    TK_FAILF("run.jsonl (%lld bytes) is not the unit logs concatenated (%lld bytes)",
             file_size(W("run1/logs/run.jsonl")), file_size(W("cat-plain.jsonl")));
  CU_ASSERT(same_bytes(W("run1/logs/run.jsonl"), W("run2/logs/run.jsonl")));
  CU_ASSERT(same_bytes(W("run1/logs/run.index"), W("run2/logs/run.index")));
  if (!same_bytes(W("runz/logs/run.jsonl.gz"), W("cat-gz.jsonl.gz")))
    TK_FAILF("run.jsonl.gz (%lld bytes) is not the .gz unit logs concatenated (%lld bytes)",
             file_size(W("runz/logs/run.jsonl.gz")), file_size(W("cat-gz.jsonl.gz")));
  CU_ASSERT(!exists(W("run1/logs/.units")));
  /* the index: unit u ends where units 0..u of the plain logs end */
  FILE *f = fopen(W("run1/logs/run.index"), "rb");
  long long end = 0;
  for (int u = 0; u < UNITS; u++) {
    unsigned char b[8] = {0};
    if (!f || fread(b, 1, 8, f) != 8) {
      TK_FAILF("run.index: no entry for unit %d", u);
      break;
    }
    long long v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    end += file_size(plain[u]);
    if (v != end) TK_FAILF("run.index: unit %d ends at %lld, its log at %lld", u, v, end);
  }
  if (f && fgetc(f) != EOF) TK_FAILF("run.index: more than %d entries", UNITS);
  if (f) fclose(f);
  for (int u = 0; u < UNITS; u++) {
    free((void *)plain[u]);
    free((void *)gz[u]);
  }
  const char *rp[] = {"replay", W("run1"), NULL};
  TK_EQ(taikai(rp), 0, "replay of run.jsonl");
  if (!strstr(out_buf, "1 log, 10 games replayed, 0 mismatches") ||
      !strstr(out_buf, "run.jsonl#10: daifugo block 1,"))
    TK_FAILF("replay: %s", out_buf);
  const char *rz[] = {"replay", "--quiet", W("runz/logs/run.jsonl.gz"), NULL};
  TK_EQ(taikai(rz), 0, "replay of run.jsonl.gz");
  if (!strstr(out_buf, "1 log, 10 games replayed, 0 mismatches")) TK_FAILF("replay: %s", out_buf);
  /* two shards, each with its run log, merged: the whole run's log and index */
  const char *s1[] = {"run", W("spec.json"), "--shard", "1/2", "--out", W("sh1"), "--logs=run,gz",
                      "--quiet", NULL};
  TK_EQ(taikai(s1), 0, "shard 1/2");
  const char *s2[] = {"run", W("spec.json"), "--shard", "2/2", "--out", W("sh2"), "--logs=run,gz",
                      "--quiet", NULL};
  TK_EQ(taikai(s2), 0, "shard 2/2");
  const char *mg[] = {"merge", W("sh1"), W("sh2"), "--out", W("merged"), NULL};
  TK_EQ(taikai(mg), 0, "merge of the shards");
  CU_ASSERT(same_bytes(W("merged/logs/run.jsonl.gz"), W("runz/logs/run.jsonl.gz")));
  CU_ASSERT(same_bytes(W("merged/logs/run.index"), W("runz/logs/run.index")));
}

/* A resume after the states a kill can leave: games.jsonl, the run log and its index each cut
 * at a different unit (files buffered apart), a torn tail on the log and on the index. The
 * resumed run's files are those of the uninterrupted run. */
static void one_file_resumed(void) {
  if (!ran) return;
  char spec[1600], out[1600]; /* W's buffers rotate: these stay */
  snprintf(spec, sizeof spec, "%s", W("spec.json"));
  snprintf(out, sizeof out, "%s", W("runr"));
  const char *run[] = {"run", spec, "--out", out, "--logs=run,gz", "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(run), 0, "first run");
  /* 1: games.jsonl keeps 3 units; the log and index hold all 10 plus a torn tail */
  cut_run(W("runr"), 3);
  FILE *f = fopen(W("runr/logs/run.jsonl.gz"), "ab");
  fputs("\x1f\x8b torn", f);
  fclose(f);
  f = fopen(W("runr/logs/run.index"), "ab");
  fputs("\x01\x02\x03", f);
  fclose(f);
  TK_EQ(taikai(run), 0, "resumed (games.jsonl behind)");
  CU_ASSERT(same_bytes(W("runr/games.jsonl"), W("runz/games.jsonl")));
  CU_ASSERT(same_bytes(W("runr/logs/run.jsonl.gz"), W("runz/logs/run.jsonl.gz")));
  CU_ASSERT(same_bytes(W("runr/logs/run.index"), W("runz/logs/run.index")));
  /* 2: the index keeps 4 entries and one that points past the log, the log 5 units and a torn
   * sixth, games.jsonl 6 units: the resume keeps 4 */
  FILE *idx = fopen(W("runr/logs/run.index"), "rb");
  unsigned char e[UNITS][8];
  CU_ASSERT_FATAL(idx && fread(e, 8, UNITS, idx) == UNITS);
  fclose(idx);
  long long end5 = 0;
  for (int i = 7; i >= 0; i--) end5 = end5 << 8 | e[4][i];
  CU_ASSERT_FATAL(truncate(W("runr/logs/run.jsonl.gz"), (off_t)end5 + 20) == 0);
  CU_ASSERT_FATAL(truncate(W("runr/logs/run.index"), 8 * 4) == 0);
  f = fopen(W("runr/logs/run.index"), "ab");
  unsigned char far[8] = {0, 0, 0, 0, 0, 1, 0, 0};
  fwrite(far, 1, 8, f);
  fclose(f);
  cut_run(W("runr"), 6);
  int rc = taikai(run);
  if (rc) TK_FAILF("resumed (the index behind): exit %d: %s", rc, err_buf);
  CU_ASSERT(same_bytes(W("runr/games.jsonl"), W("runz/games.jsonl")));
  CU_ASSERT(same_bytes(W("runr/logs/run.jsonl.gz"), W("runz/logs/run.jsonl.gz")));
  CU_ASSERT(same_bytes(W("runr/logs/run.index"), W("runz/logs/run.index")));
  CU_ASSERT(!exists(W("runr/logs/.units")));
  /* a run is continued in the form it was started in (refused before anything is played: 2) */
  cut_run(W("runr"), 2);
  const char *other[] = {"run", spec, "--out", out, "--logs=run", "--quiet", NULL};
  TK_EQ(taikai(other), 2, "resumed as plain");
  if (!strstr(err_buf, "continue it with --logs=run,gz")) TK_FAILF("stderr: %s", err_buf);
  const char *units[] = {"run", spec, "--out", out, "--logs", "--quiet", NULL};
  TK_EQ(taikai(units), 2, "resumed with one file per unit");
  if (!strstr(err_buf, "this run writes its game logs to one file"))
    TK_FAILF("stderr: %s", err_buf);
  const char *none[] = {"run", spec, "--out", out, "--quiet", NULL};
  TK_EQ(taikai(none), 2, "resumed without logs");
  if (!strstr(err_buf, "continue it with --logs=run,gz")) TK_FAILF("stderr: %s", err_buf);
  TK_EQ(taikai(run), 0, "resumed in its form");
  CU_ASSERT(same_bytes(W("runr/logs/run.jsonl.gz"), W("runz/logs/run.jsonl.gz")));
  /* a run without a run log from its start does not start one */
  cut_run(W("plain"), 4);
  snprintf(out, sizeof out, "%s", W("plain"));
  const char *late[] = {"run", spec, "--out", out, "--logs=run", "--quiet", NULL};
  TK_EQ(taikai(late), 2, "--logs=run on a run of unit logs");
  if (!strstr(err_buf, "did not write one log file from its start"))
    TK_FAILF("stderr: %s", err_buf);
  const char *again[] = {"run", spec, "--out", out, "--logs", "--quiet", NULL};
  TK_EQ(taikai(again), 0, "the unit-log run finished");
}

/* SIGKILL of the referee at random moments (the seed printed), each time resumed by the same
 * command with another -j: the run log and its index are those of an uninterrupted run. */
static void one_file_killed(void) {
  write_file(W("long.json"),
             "{\"game\": \"daifugo\", \"seed\": 8, \"walls\": 24, \"format\": \"duplicate\",\n"
             " \"agents\": [{\"plugin\": \"daifugo_random\", \"label\": \"random\"},\n"
             "             {\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}],\n"
             " \"rules\": {\"block_games\": 20}}\n");
  char spec[1600], full_out[1600], out[1600]; /* W's buffers rotate: these stay */
  snprintf(spec, sizeof spec, "%s", W("long.json"));
  snprintf(full_out, sizeof full_out, "%s", W("kfull"));
  snprintf(out, sizeof out, "%s", W("kill"));
  const char *full[] = {"run", spec, "--out", full_out, "--logs=run,gz", "-j", "2", "--quiet",
                        NULL};
  int64_t t0 = now_ms();
  TK_EQ(taikai(full), 0, "uninterrupted run");
  int64_t T = now_ms() - t0;
  /* the same draws every run (the delays scale with the uninterrupted run's time), so that a
   * failure can be run again; TK_KILL_SEED=N picks other draws, TK_KILL_SEED=time new ones each
   * run (the seed is printed) */
  unsigned seed = 34;
  const char *ks = getenv("TK_KILL_SEED");
  if (ks && !strcmp(ks, "time")) seed = (unsigned)time(NULL);
  else if (ks && *ks) seed = (unsigned)strtoul(ks, NULL, 10);
  srand(seed);
  printf("\n  uninterrupted %lld ms, seed %u (TK_KILL_SEED to replay); kills at", (long long)T,
         seed);
  const char *jobs[2] = {"1", "2"};
  const char *args[] = {"run", spec, "--out", out, "--logs=run,gz", "-j", "2", "--quiet", NULL};
  for (int k = 0; k < 5; k++) {
    int delay = (int)(rand() % (T > 20 ? T : 20));
    args[6] = jobs[rand() % 2];
    pid_t pid = taikai_start(args);
    sleep_ms(delay);
    kill(pid, SIGKILL);
    int rc = taikai_wait(pid);
    printf(" %d ms -j %s (%s)", delay, args[6], rc == -SIGKILL ? "killed" : "had finished");
    if (rc != -SIGKILL && rc != 0) TK_FAILF("run %d ended with %d: %s", k, rc, err_buf);
  }
  printf("\n");
  int rc = taikai(args);
  if (rc) TK_FAILF("final resume: exit %d: %s", rc, err_buf);
  CU_ASSERT(same_bytes(W("kill/games.jsonl"), W("kfull/games.jsonl")));
  CU_ASSERT(same_bytes(W("kill/logs/run.jsonl.gz"), W("kfull/logs/run.jsonl.gz")));
  CU_ASSERT(same_bytes(W("kill/logs/run.index"), W("kfull/logs/run.index")));
  const char *rp[] = {"replay", "--quiet", W("kill"), NULL};
  TK_EQ(taikai(rp), 0, "replay of the killed and resumed run's log");
  if (!strstr(out_buf, "1 log, 120 games replayed, 0 mismatches")) TK_FAILF("replay: %s", out_buf);
}

/* Riichi writes its mjai logs through the same loop: compressed, the same lines; replayed. */
static void riichi_compressed(void) {
  write_file(W("riichi.json"),
             "{\"game\": \"riichi\", \"seed\": 5, \"walls\": 1, \"format\": \"duplicate\",\n"
             " \"agents\": [{\"plugin\": \"riichi_tsumogiri\", \"label\": \"base\"},\n"
             "             {\"plugin\": \"riichi_greedy\", \"label\": \"cand\"}],\n"
             " \"rules\": {\"length\": \"east\"}}\n");
  const char *plain[] = {"run", W("riichi.json"), "--out", W("rp"), "--logs", "--quiet", NULL};
  const char *gz[] = {"run", W("riichi.json"), "--out", W("rz"), "--logs-gzip", "-j", "2",
                      "--quiet", NULL};
  TK_EQ(taikai(plain), 0, "riichi --logs");
  TK_EQ(taikai(gz), 0, "riichi --logs-gzip");
  CU_ASSERT(same_bytes(W("rz/games.jsonl"), W("rp/games.jsonl")));
  for (int u = 0; u < 4; u++)
    if (!same_content(unit_log(W("rz"), u, ".gz"), unit_log(W("rp"), u, "")))
      TK_FAILF("riichi unit %d: the .gz log differs from the plain one", u);
  const char *rp[] = {"replay", "--quiet", W("rz"), NULL};
  TK_EQ(taikai(rp), 0, "replay of riichi's compressed logs");
  if (!strstr(out_buf, "4 logs, 4 games replayed, 0 mismatches")) TK_FAILF("replay: %s", out_buf);
  /* one file for the run: start_game ... end_game of each unit (one game) after another */
  const char *one[] = {"run", W("riichi.json"), "--out", W("r1"), "--logs=run", "-j", "2",
                       "--quiet", NULL};
  TK_EQ(taikai(one), 0, "riichi --logs=run");
  const char *units[4];
  for (int u = 0; u < 4; u++) units[u] = strdup(unit_log(W("rp"), u, ""));
  concat(W("riichi-cat.jsonl"), units, 4);
  for (int u = 0; u < 4; u++) free((void *)units[u]);
  CU_ASSERT(same_bytes(W("r1/logs/run.jsonl"), W("riichi-cat.jsonl")));
  size_t n;
  char *text = read_all(W("r1/logs/run.jsonl"), &n);
  TK_EQ(count_prefix(text, "{\"type\":\"start_game\""), 4, "start_game lines");
  TK_EQ(count_prefix(text, "{\"type\":\"end_game\""), 4, "end_game lines");
  free(text);
  const char *r1[] = {"replay", W("r1"), NULL};
  TK_EQ(taikai(r1), 0, "replay of riichi's run log");
  if (!strstr(out_buf, "1 log, 4 games replayed, 0 mismatches") ||
      !strstr(out_buf, "run.jsonl#4:"))
    TK_FAILF("replay: %s", out_buf);
}

static void bad_options(void) {
  const char *a1[] = {"run", W("spec.json"), "--out", W("x"), "--logs=zip", NULL};
  TK_EQ(taikai(a1), 2, "--logs=zip");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "--logs= expects gz, plain, run or run,gz, got 'zip'"));
  const char *a2[] = {"run", W("spec.json"), "--out", W("x"), "--logs", "--logs=gz", NULL};
  TK_EQ(taikai(a2), 2, "--logs and --logs=gz");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "either plain or gzip-compressed"));
  const char *a3[] = {"run", W("spec.json"), "--out", W("x"), "--logs=gz", "--logs=run,gz", NULL};
  TK_EQ(taikai(a3), 2, "--logs=gz and --logs=run,gz");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "one file per unit or one file for the run"));
  const char *a4[] = {"run", W("spec.json"), "--out", W("x"), "--logs=run,zip", NULL};
  TK_EQ(taikai(a4), 2, "--logs=run,zip");
  CU_ASSERT_PTR_NOT_NULL(
      strstr(err_buf, "--logs= expects gz, plain, run or run,gz, got 'run,zip'"));
  CU_ASSERT(!exists(W("x")));
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR "-logs")) {
    fprintf(stderr, "cannot create %s-logs\n", TK_WORK_DIR);
    return 1;
  }
  CU_TestInfo tests[] = {
      {"daifugo --logs: every log replays with games.jsonl's points", run_and_replay},
      {"hand-edited logs refused, naming file and line", tampered},
      {"--logs=gz: the same bytes compressed, any -j; replayed, concatenated too", compressed},
      {"resume rewrites the logs of the units played again", resumed},
      {"--logs=run[,gz]: the unit logs concatenated, any -j, replayed", one_file},
      {"--logs=run,gz: resumed from torn files, the same bytes; its form kept", one_file_resumed},
      {"--logs=run,gz: killed and resumed, the same bytes", one_file_killed},
      {"riichi --logs-gzip and --logs=run: the same lines, replayed", riichi_compressed},
      {"bad --logs options", bad_options},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("ref_logs", tests);
}
