/* tests/referee/test_ref_logs.c — end to end: game logs of `taikai run --logs` on a daifugo
 * tournament, plain and gzip-compressed (`--logs=gz`), and `taikai replay` on them: every log
 * replays with games.jsonl's points; hand-edited copies (a card changed, two actions swapped, a
 * wrong result) are refused naming the file and the line; compressed logs hold the same bytes
 * as plain ones, whatever -j, and leave games.jsonl unchanged; a resumed run rewrites exactly
 * the logs of the units it plays again (a stale .tmp replaced, the other form removed); riichi's
 * compressed logs are its plain ones and replay too; bad --logs options are refused. The binary runs as a child process with a time limit
 * (e2e_util.h), in a folder beside test_ref_e2e's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
}

static void bad_options(void) {
  const char *a1[] = {"run", W("spec.json"), "--out", W("x"), "--logs=zip", NULL};
  TK_EQ(taikai(a1), 2, "--logs=zip");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "--logs= expects gz or plain, got 'zip'"));
  const char *a2[] = {"run", W("spec.json"), "--out", W("x"), "--logs", "--logs=gz", NULL};
  TK_EQ(taikai(a2), 2, "--logs and --logs=gz");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "either plain or gzip-compressed"));
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
      {"riichi --logs-gzip: its plain logs compressed, replayed", riichi_compressed},
      {"bad --logs options", bad_options},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("ref_logs", tests);
}
