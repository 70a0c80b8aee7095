/* tests/riichi/test_riichi_log.c — mjai-style logs: games of the baseline agents written by the
 * log writer replay through the log reader (each hand's wall rebuilt from the log, every
 * engine event matched against its line) to the same final scores; a tampered log is refused;
 * the lines carry the fields the mjai format names; tk_riichi_log_games finds the games of a
 * file, a gzipped file, a folder and a run folder. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>

#include "agents.h"
#include "riichi_log.h"
#include "rt.h"
#include "unit.h"

/* Plays one game of `d` agents (seat s: d[s]) writing its log to `f`; returns final scores. */
static void play_logged(FILE *f, const tk_agent_descriptor *const d[4], uint64_t game,
                        const tk_riichi_rules *rules, int32_t scores[4]) {
  tk_riichi_log log;
  const char *names[4] = {"alice", "bob", "carol", "dave"};
  tk_riichi_sink sink = tk_riichi_log_sink(&log, f, names, rules);
  tk_error err;
  tk_riichi_game g;
  tk_riichi_init(&g, rules, 5, game, &sink, &err);
  tk_agent_instance *inst[4];
  for (int s = 0; s < 4; s++) {
    inst[s] = d[s]->create("{}", (uint64_t)s, &err);
    tk_riichi_info info;
    memset(&info, 0, sizeof info);
    info.head.seed = game * 4 + (uint64_t)s;
    info.head.seat = s;
    d[s]->begin_game(inst[s], &info);
  }
  while (!tk_riichi_is_over(&g)) {
    if (g.phase == TK_RIICHI_PHASE_DEAL) {
      tk_riichi_deal(&g, NULL, &sink, &err);
      continue;
    }
    int s = tk_riichi_to_act(&g);
    tk_riichi_view v;
    tk_riichi_legal l;
    tk_riichi_action a;
    tk_riichi_view_of(&g, s, &v);
    tk_riichi_legal_of(&g, s, &l);
    d[s]->act(inst[s], &v, &l, &a);
    tk_riichi_apply(&g, s, &a, &sink, &err);
  }
  for (int s = 0; s < 4; s++) d[s]->destroy(inst[s]);
  memcpy(scores, g.scores, sizeof g.scores);
  TK_EQ(log.error, 0, "log written");
}

static void round_trip(void) {
  const tk_agent_descriptor *gr = taikai_agent_entry_riichi_greedy();
  const tk_agent_descriptor *rn = taikai_agent_entry_riichi_random();
  const tk_agent_descriptor *mix[3][4] = {{gr, gr, gr, gr}, {rn, rn, rn, rn}, {gr, rn, gr, rn}};
  int kinds_seen[TK_RIICHI_EV_COUNT] = {0};
  long games = 0, hands = 0;
  for (int m = 0; m < 3; m++)
    for (uint64_t i = 0; i < 40; i++) {
      FILE *f = tmpfile();
      int32_t scores[4];
      tk_riichi_rules rules = tk_riichi_default_rules();
      if (i % 10 == 9) rules.length = 2; /* some hanchan */
      play_logged(f, mix[m], i, &rules, scores);
      /* which event types occur */
      rewind(f);
      char line[8192];
      while (fgets(line, sizeof line, f)) {
        static const char *const names[TK_RIICHI_EV_COUNT] = {
            "start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "kakan",
            "ankan", "dora", "reach", "reach_accepted", "hora", "ryukyoku", "end_kyoku", "end_game"};
        for (int k = 0; k < TK_RIICHI_EV_COUNT; k++) {
          char pat[40];
          snprintf(pat, sizeof pat, "{\"type\":\"%s\"", names[k]);
          if (!strncmp(line, pat, strlen(pat))) kinds_seen[k]++;
        }
      }
      rewind(f);
      tk_riichi_replay rp;
      tk_error err;
      tk_error_clear(&err);
      int rc = tk_riichi_log_replay(f, &rp, &err);
      if (rc) { /* keep the log for inspection */
        rewind(f);
        FILE *o = fopen("riichi_replay_failure.jsonl", "w");
        while (o && fgets(line, sizeof line, f)) fputs(line, o);
        if (o) fclose(o);
      }
      fclose(f);
      if (rc) {
        TK_FAILF("game %d/%d: replay failed: %s", m, (int)i, err.msg);
        return;
      }
      for (int s = 0; s < 4; s++) TK_EQ(rp.scores[s], scores[s], "final scores");
      TK_EQ(rp.events_checked, rp.lines - 1, "every line but start_game produced by the engine");
      games++;
      hands += rp.kyoku;
    }
  printf("\nreplayed %ld games, %ld hands\n", games, hands);
  for (int k = 0; k < TK_RIICHI_EV_COUNT; k++)
    if (k != TK_RIICHI_EV_DAIMINKAN && k != TK_RIICHI_EV_KAKAN && k != TK_RIICHI_EV_ANKAN &&
        k != TK_RIICHI_EV_DORA)
      TK_EQ(kinds_seen[k] > 0, 1, "each common event type appears");
  TK_EQ(kinds_seen[TK_RIICHI_EV_ANKAN] + kinds_seen[TK_RIICHI_EV_DAIMINKAN] + kinds_seen[TK_RIICHI_EV_KAKAN] > 0, 1,
        "kans appear (random agents)");
}

/* A scripted hand with a double ron and a kan replays too. */
static void scripted_round_trip(void) {
  static rt t;
  uint8_t w[TK_RIICHI_TILES];
  const char *h[4] = {"4p19m19p1s1234567z", "23p234m567m678s55s", "56p345m678m234s88s",
                      "35666p22234777s"};
  rt_wall(w, 0, h, "9s", NULL, "1z", NULL);
  FILE *f = tmpfile();
  tk_riichi_log log;
  tk_riichi_sink sink = tk_riichi_log_sink(&log, f, NULL, NULL);
  tk_riichi_game *g = &t.g;
  tk_error err;
  tk_riichi_init(g, NULL, 1, 0, &sink, &err);
  tk_riichi_deal(g, w, &sink, &err);
  tk_riichi_action a = {TK_RIICHI_DISCARD, rt_tile("4p"), 0, {TK_TILE_NONE, TK_TILE_NONE}, {0}};
  tk_riichi_apply(g, 0, &a, &sink, &err);
  a.type = TK_RIICHI_RON;
  tk_riichi_apply(g, 1, &a, &sink, &err);
  tk_riichi_apply(g, 2, &a, &sink, &err);
  a.type = TK_RIICHI_PASS;
  tk_riichi_apply(g, 3, &a, &sink, &err);
  /* finish the game with tsumogiri and passes */
  while (!tk_riichi_is_over(g)) {
    if (g->phase == TK_RIICHI_PHASE_DEAL) {
      tk_riichi_deal(g, NULL, &sink, &err);
      continue;
    }
    int s = tk_riichi_to_act(g);
    tk_riichi_legal l;
    tk_riichi_legal_of(g, s, &l);
    tk_riichi_action *pick = &l.a[0];
    for (int i = 0; i < l.n; i++)
      if (l.a[i].type == TK_RIICHI_PASS || (l.a[i].type == TK_RIICHI_DISCARD && l.a[i].tsumogiri)) pick = &l.a[i];
    tk_riichi_apply(g, s, pick, &sink, &err);
  }
  rewind(f);
  tk_riichi_replay rp;
  tk_error_clear(&err);
  int rc = tk_riichi_log_replay(f, &rp, &err);
  TK_EQ(rc, 0, err.msg);
  for (int s = 0; s < 4; s++) TK_EQ(rp.scores[s], g->scores[s], "final scores");
  /* the two hora lines */
  rewind(f);
  char line[8192];
  int horas = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "{\"type\":\"hora\"", 14)) continue;
    json_t *o = json_loads(line, 0, NULL);
    horas++;
    TK_EQ(json_integer_value(json_object_get(o, "target")), 0, "from the dealer");
    TK_EQ(json_array_size(json_object_get(o, "deltas")), 4, "deltas");
    TK_EQ(json_object_get(o, "uradora_markers") != NULL, 1, "uradora_markers (the mjai protocol's name)");
    TK_EQ(json_is_integer(json_object_get(o, "fan")), 1, "fan (the mjai protocol's name)");
    json_decref(o);
  }
  TK_EQ(horas >= 2, 1, "double ron: two hora lines");
  fclose(f);
}

/* An open kan, its replacement draw, then a closed kan writes ankan, dora, dora, tsumo, and the
 * log replays; so does the same log with the pending indicator's line before the ankan line
 * (dora, ankan, dora, tsumo: how such logs were written before, and refused by the reader). */
static void second_kan_round_trip(void) {
  static rt t;
  uint8_t w[TK_RIICHI_TILES];
  const char *h[4] = {"29m29p19s1234567z", "1111m222p345s789s", "36m47p26s1234567z", "48m368p8s1234567z"};
  rt_wall(w, 0, h, "8p", "5m6m", "1z1p3p", NULL);
  FILE *f = tmpfile();
  tk_riichi_log log;
  tk_riichi_sink sink = tk_riichi_log_sink(&log, f, NULL, NULL);
  tk_riichi_game *g = &t.g;
  tk_error err;
  tk_riichi_init(g, NULL, 1, 0, &sink, &err);
  tk_riichi_deal(g, w, &sink, &err);
  tk_riichi_action a = {TK_RIICHI_DISCARD, rt_tile("2p"), 0, {TK_TILE_NONE, TK_TILE_NONE}, {0}};
  TK_EQ(tk_riichi_apply(g, 0, &a, &sink, &err), 0, "discard 2p");
  a.type = TK_RIICHI_MINKAN;
  TK_EQ(tk_riichi_apply(g, 1, &a, &sink, &err), 0, "open kan");
  a.type = TK_RIICHI_PASS;
  for (int s = 2; s < 4; s++) tk_riichi_apply(g, s, &a, &sink, NULL); /* if asked */
  a.type = TK_RIICHI_ANKAN;
  a.tile = rt_tile("1m");
  TK_EQ(tk_riichi_apply(g, 1, &a, &sink, &err), 0, "closed kan after the replacement draw");
  while (!tk_riichi_is_over(g)) {
    if (g->phase == TK_RIICHI_PHASE_DEAL) {
      tk_riichi_deal(g, NULL, &sink, &err);
      continue;
    }
    int s = tk_riichi_to_act(g);
    tk_riichi_legal l;
    tk_riichi_legal_of(g, s, &l);
    tk_riichi_apply(g, s, &l.a[tk_riichi_fallback(&l)], &sink, &err);
  }
  rewind(f);
  char line[8192], text[1 << 16] = "", *lines[4096];
  int n = 0;
  size_t len = 0;
  while (fgets(line, sizeof line, f) && n < 4096 && len + strlen(line) < sizeof text) {
    lines[n++] = text + len;
    memcpy(text + len, line, strlen(line) + 1);
    len += strlen(line) + 1;
  }
  fclose(f);
  /* as written; then each dora line moved one line up (before its dahai or kan line) */
  for (int moved = 0; moved < 2; moved++) {
    FILE *g2 = tmpfile();
    int up = 0;
    for (int i = 0; i < n; i++) {
      if (moved && i + 1 < n && strstr(lines[i + 1], "\"dora\"") && !strstr(lines[i], "\"dora\"") &&
          !strstr(lines[i], "start_kyoku")) {
        fputs(lines[i + 1], g2);
        fputs(lines[i], g2);
        i++;
        up++;
        continue;
      }
      fputs(lines[i], g2);
    }
    rewind(g2);
    tk_riichi_replay rp;
    tk_error_clear(&err);
    int rc = tk_riichi_log_replay(g2, &rp, &err);
    TK_EQ(rc, 0, err.msg);
    for (int s = 0; s < 4; s++) TK_EQ(rp.scores[s], g->scores[s], "final scores");
    /* the pending indicator moved before the ankan line: the order the engine used to write */
    if (moved) TK_EQ(up, 1, "one dora line moved");
    fclose(g2);
  }
}

/* Changing one delta, or one discard, makes the replay fail at that line. */
static void tampered(void) {
  const tk_agent_descriptor *gr = taikai_agent_entry_riichi_greedy();
  const tk_agent_descriptor *d[4] = {gr, gr, gr, gr};
  FILE *f = tmpfile();
  int32_t scores[4];
  play_logged(f, d, 3, NULL, scores);
  rewind(f);
  char *text = NULL;
  size_t cap = 0, len = 0;
  char buf[8192];
  while (fgets(buf, sizeof buf, f)) {
    size_t n = strlen(buf);
    text = realloc(text, len + n + 1);
    memcpy(text + len, buf, n + 1);
    len += n;
  }
  (void)cap;
  fclose(f);
  /* 1: a delta of the first line with deltas (reach_accepted, hora or ryukyoku) */
  char *copy = strdup(text);
  char *p = strstr(copy, "\"deltas\":[");
  TK_EQ(p != NULL, 1, "a deltas field");
  if (p) {
    p += strlen("\"deltas\":[");
    if (*p == '-') p++;
    *p = *p == '9' ? '8' : (char)(*p + 1); /* the first delta's first digit: still JSON, another value */
    FILE *g = tmpfile();
    fputs(copy, g);
    rewind(g);
    tk_riichi_replay rp;
    tk_error err;
    tk_error_clear(&err);
    TK_EQ(tk_riichi_log_replay(g, &rp, &err) != 0, 1, "tampered deltas refused");
    TK_EQ(strstr(err.msg, "log line") != NULL, 1, err.msg);
    /* the mismatch itself: the tampered line, its event, the field and both values */
    int line = 1;
    for (const char *c = copy; c < p; c++) line += *c == '\n';
    TK_EQ(rp.bad_line, line, "mismatch at the tampered line");
    CU_ASSERT_STRING_EQUAL(rp.bad_field, "deltas");
    CU_ASSERT_STRING_EQUAL(rp.bad_what, "differs in deltas");
    CU_ASSERT(!strcmp(rp.bad_event, "hora") || !strcmp(rp.bad_event, "ryukyoku") ||
              !strcmp(rp.bad_event, "reach_accepted"));
    CU_ASSERT(rp.expected[0] == '[' && rp.logged[0] == '[' && strcmp(rp.expected, rp.logged));
    fclose(g);
  }
  free(copy);
  /* 2: not JSON */
  FILE *g = tmpfile();
  fputs("{\"type\":\"start_game\"}\n{not json\n", g);
  rewind(g);
  tk_riichi_replay rp;
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_riichi_log_replay(g, &rp, &err), TK_EPARSE, "parse error");
  TK_EQ(rp.bad_line, 2, "the line that is not JSON");
  fclose(g);
  free(text);
}

/* tk_riichi_log_replay_game: a game's text as tk_riichi_log_games hands it over, from a line of
 * its file: a good game replays with the hooks told of every decision, and a tampered one is
 * named by its file and its line counted in the file (the game's line + first_line - 1). */
static void count_decision(void *ctx, const tk_riichi_game *g, int seat, const tk_riichi_action *a,
                           int line) {
  (void)g, (void)seat, (void)a, (void)line;
  ++*(long *)ctx;
}

static void replay_game(void) {
  const tk_agent_descriptor *gr = taikai_agent_entry_riichi_greedy();
  const tk_agent_descriptor *d[4] = {gr, gr, gr, gr};
  FILE *f = tmpfile();
  int32_t scores[4];
  play_logged(f, d, 5, NULL, scores);
  long len = ftell(f);
  char *text = malloc((size_t)len + 1);
  rewind(f);
  TK_EQ(fread(text, 1, (size_t)len, f), (size_t)len, "the log read back");
  text[len] = 0;
  fclose(f);
  long decisions = 0;
  tk_riichi_replay_hooks hooks = {NULL, count_decision, &decisions};
  tk_riichi_replay out;
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_riichi_log_replay_game("some.jsonl", text, (size_t)len, 40, &hooks, &out, &err), 0,
        err.msg);
  for (int s = 0; s < 4; s++) TK_EQ(out.scores[s], scores[s], "final scores");
  TK_EQ(decisions > 0, 1, "the hooks saw the decisions");
  /* a dahai's tile changed: refused at that line, counted from line 40 of the file */
  char *p = strstr(text, "\"type\":\"dahai\"");
  TK_EQ(p != NULL, 1, "a discard");
  if (p) {
    char *pai = strstr(p, "\"pai\":\"");
    pai += strlen("\"pai\":\"");
    *pai = *pai == '1' ? '2' : '1'; /* another tile, still a tile */
    int line = 1;
    for (const char *c = text; c < p; c++) line += *c == '\n';
    tk_error_clear(&err);
    int rc = tk_riichi_log_replay_game("some.jsonl", text, (size_t)len, 40, NULL, NULL, &err);
    TK_EQ(rc, TK_EINVAL, "a tampered discard refused");
    char want[64];
    snprintf(want, sizeof want, "some.jsonl:%d: dahai: ", line + 39);
    TK_EQ(strncmp(err.msg, want, strlen(want)), 0, err.msg);
    TK_EQ(strstr(err.msg, "; the engine cannot replay this game") != NULL, 1, err.msg);
  }
  free(text);
  /* an empty game: refused, named at its first line */
  tk_error_clear(&err);
  TK_EQ(tk_riichi_log_replay_game("empty.jsonl", "", 0, 7, NULL, NULL, &err) != 0, 1,
        "an empty game refused");
  TK_EQ(strncmp(err.msg, "empty.jsonl:7: ", 15), 0, err.msg);
}

/* ------------------------------------------------------------ tk_riichi_log_games */

typedef struct seen {
  int n, stop_at;   /* games seen; return 7 at game stop_at (1-based), 0: never */
  long first[8];    /* their first lines */
  char path[8][512];
  int32_t scores[8][4]; /* each game's final scores, replayed */
  int replay_rc[8];
  size_t len[8];
} seen;

static int count_game(void *ctx, const char *path, const char *text, size_t len, long first) {
  seen *s = ctx;
  if (s->n < 8) {
    s->first[s->n] = first;
    s->len[s->n] = len;
    snprintf(s->path[s->n], sizeof s->path[0], "%s", path);
    if (text[len] != '\0') TK_FAILF("game %d of %s: text not NUL-terminated at len", s->n, path);
    s->replay_rc[s->n] = -1;
    FILE *f = len ? fmemopen((void *)text, len, "r") : NULL;
    if (f) {
      tk_riichi_replay out;
      tk_error err;
      tk_error_clear(&err);
      s->replay_rc[s->n] = tk_riichi_log_replay(f, &out, &err);
      memcpy(s->scores[s->n], out.scores, sizeof out.scores);
      fclose(f);
    }
  }
  s->n++;
  return s->stop_at && s->n == s->stop_at ? 7 : 0;
}

static void write_text(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "w");
  if (!f || fwrite(text, 1, len, f) != len) TK_FAILF("cannot write %s", path);
  if (f) fclose(f);
}

/* Writes text[0 .. len) as one gzip member, appended to `path` when `append`. */
static void write_gz(const char *path, const char *text, size_t len, int append) {
  gzFile z = gzopen(path, append ? "ab" : "wb");
  if (!z || gzwrite(z, text, (unsigned)len) != (int)len) TK_FAILF("cannot write %s", path);
  if (z) gzclose(z);
}

/* Reads `arg` into *s and checks `want` games with these first lines, whose replays end with
 * the scores of game 0 / game 1 (score[k]) and whose paths end with path_end[k]. */
static void expect_games(const char *arg, int want, const long *first, const int *which,
                         int32_t sc[2][4], const char *const *path_end) {
  seen s;
  memset(&s, 0, sizeof s);
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_riichi_log_games(arg, count_game, &s, &err);
  if (rc) TK_FAILF("%s: rc %d: %s", arg, rc, err.msg);
  if (s.n != want) TK_FAILF("%s: %d games, want %d", arg, s.n, want);
  for (int k = 0; k < want && k < s.n; k++) {
    if (s.first[k] != first[k])
      TK_FAILF("%s: game %d from line %ld, want %ld", arg, k, s.first[k], first[k]);
    if (s.replay_rc[k]) TK_FAILF("%s: game %d does not replay (%d)", arg, k, s.replay_rc[k]);
    else if (memcmp(s.scores[k], sc[which[k]], sizeof sc[0]))
      TK_FAILF("%s: game %d ends with other scores than game %d", arg, k, which[k]);
    size_t n = strlen(s.path[k]), m = strlen(path_end[k]);
    if (n < m || strcmp(s.path[k] + n - m, path_end[k]))
      TK_FAILF("%s: game %d from %s, want .../%s", arg, k, s.path[k], path_end[k]);
  }
}

static void log_games(void) {
  const tk_agent_descriptor *gr = taikai_agent_entry_riichi_greedy();
  const tk_agent_descriptor *d[4] = {gr, gr, gr, gr};
  int32_t sc[2][4];
  char *text[2];
  size_t len[2];
  long lines0 = 0;
  for (int k = 0; k < 2; k++) {
    FILE *f = tmpfile();
    play_logged(f, d, 11 + (uint64_t)k, NULL, sc[k]);
    len[k] = (size_t)ftell(f);
    rewind(f);
    text[k] = malloc(len[k] + 1);
    TK_EQ(fread(text[k], 1, len[k], f), len[k], "read back");
    text[k][len[k]] = '\0';
    fclose(f);
  }
  for (size_t i = 0; i < len[0]; i++) lines0 += text[0][i] == '\n';
  char *both = malloc(len[0] + len[1] + 1), dir[] = "/tmp/tk_log_games_XXXXXX", p[5][600];
  memcpy(both, text[0], len[0]);
  memcpy(both + len[0], text[1], len[1]);
  if (!mkdtemp(dir)) {
    TK_FAILF("mkdtemp: %s", strerror(errno));
    free(text[0]), free(text[1]), free(both);
    return;
  }
  const long first2[] = {1, lines0 + 1}, first11[] = {1, 1};
  const int order[] = {0, 1};
  /* a file of two games, plain and gzipped (one gzip member) */
  snprintf(p[0], sizeof p[0], "%s/two.jsonl", dir);
  write_text(p[0], both, len[0] + len[1]);
  const char *ends_two[] = {"two.jsonl", "two.jsonl"};
  expect_games(p[0], 2, first2, order, sc, ends_two);
  snprintf(p[1], sizeof p[1], "%s/two.jsonl.gz", dir);
  write_gz(p[1], both, len[0] + len[1], 0);
  const char *ends_gz[] = {"two.jsonl.gz", "two.jsonl.gz"};
  expect_games(p[1], 2, first2, order, sc, ends_gz);
  /* a folder of two files, in name order; other files are not read */
  snprintf(p[2], sizeof p[2], "%s/folder", dir);
  mkdir(p[2], 0777);
  snprintf(p[3], sizeof p[3], "%s/folder/b.jsonl", dir);
  write_text(p[3], text[0], len[0]);
  snprintf(p[3], sizeof p[3], "%s/folder/a.jsonl.gz", dir);
  write_gz(p[3], text[1], len[1], 0);
  snprintf(p[3], sizeof p[3], "%s/folder/notes.txt", dir);
  write_text(p[3], "x\n", 2);
  snprintf(p[3], sizeof p[3], "%s/folder/.hidden.jsonl", dir);
  write_text(p[3], "x\n", 2);
  const int swapped[] = {1, 0};
  const char *ends_dir[] = {"folder/a.jsonl.gz", "folder/b.jsonl"};
  expect_games(p[2], 2, first11, swapped, sc, ends_dir);
  /* a run folder: its logs/run.jsonl.gz, a gzip member per game */
  snprintf(p[3], sizeof p[3], "%s/run", dir);
  mkdir(p[3], 0777);
  snprintf(p[4], sizeof p[4], "%s/run/spec.json", dir);
  write_text(p[4], "{}\n", 3);
  snprintf(p[4], sizeof p[4], "%s/run/logs", dir);
  mkdir(p[4], 0777);
  snprintf(p[4], sizeof p[4], "%s/run/logs/run.jsonl.gz", dir);
  write_gz(p[4], text[0], len[0], 0);
  write_gz(p[4], text[1], len[1], 1);
  const char *ends_run[] = {"run/logs/run.jsonl.gz", "run/logs/run.jsonl.gz"};
  expect_games(p[3], 2, first2, order, sc, ends_run);
  /* the first non-zero value of `game` stops the reading and is returned */
  seen s;
  memset(&s, 0, sizeof s);
  s.stop_at = 1;
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_riichi_log_games(p[3], count_game, &s, &err), 7, "the callback's value");
  TK_EQ(s.n, 1, "games read after the callback stopped");
  /* an empty file: one empty game */
  snprintf(p[4], sizeof p[4], "%s/empty.jsonl", dir);
  write_text(p[4], "", 0);
  memset(&s, 0, sizeof s);
  TK_EQ(tk_riichi_log_games(p[4], count_game, &s, &err), 0, "an empty file");
  TK_EQ(s.n, 1, "games of an empty file");
  TK_EQ(s.len[0], 0, "its length");
  /* a missing file, a folder without logs, a damaged gzip file: errors naming them */
  snprintf(p[4], sizeof p[4], "%s/missing.jsonl", dir);
  memset(&s, 0, sizeof s);
  tk_error_clear(&err);
  TK_EQ(tk_riichi_log_games(p[4], count_game, &s, &err), TK_ENOTFOUND, "a missing file");
  if (!strstr(err.msg, p[4]) || !strstr(err.msg, "cannot open")) TK_FAILF("message: %s", err.msg);
  snprintf(p[4], sizeof p[4], "%s/nologs", dir);
  mkdir(p[4], 0777);
  tk_error_clear(&err);
  TK_EQ(tk_riichi_log_games(p[4], count_game, &s, &err), TK_ENOTFOUND, "a folder without logs");
  if (!strstr(err.msg, p[4]) || !strstr(err.msg, "no *.jsonl")) TK_FAILF("message: %s", err.msg);
  rmdir(p[4]);
  snprintf(p[4], sizeof p[4], "%s/bad.jsonl.gz", dir);
  write_gz(p[4], both, len[0] + len[1], 0);
  FILE *f = fopen(p[4], "r+b");
  if (f) { /* the deflate data damaged in the middle */
    fseek(f, 200, SEEK_SET);
    for (int i = 0; i < 64; i++) fputc(0xff, f);
    fclose(f);
  }
  memset(&s, 0, sizeof s);
  tk_error_clear(&err);
  int rc = tk_riichi_log_games(p[4], count_game, &s, &err);
  if (rc != TK_EIO || !strstr(err.msg, p[4]) || !strstr(err.msg, "line "))
    TK_FAILF("a damaged gzip file: rc %d, %s", rc, err.msg);
  /* clean up */
  unlink(p[4]), unlink(p[1]), unlink(p[0]);
  snprintf(p[4], sizeof p[4], "%s/empty.jsonl", dir);
  unlink(p[4]);
  const char *rm[] = {"folder/a.jsonl.gz", "folder/b.jsonl", "folder/notes.txt",
                      "folder/.hidden.jsonl", "run/logs/run.jsonl.gz", "run/spec.json"};
  for (int i = 0; i < 6; i++) {
    snprintf(p[4], sizeof p[4], "%s/%s", dir, rm[i]);
    unlink(p[4]);
  }
  const char *rd[] = {"folder", "run/logs", "run", ""};
  for (int i = 0; i < 4; i++) {
    snprintf(p[4], sizeof p[4], "%s/%s", dir, rd[i]);
    rmdir(p[4]);
  }
  free(text[0]), free(text[1]), free(both);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"greedy and random games replay to the same scores", round_trip},
      {"a scripted double ron replays", scripted_round_trip},
      {"a second kan after an open kan replays, dora lines anywhere", second_kan_round_trip},
      {"tampered logs are refused", tampered},
      {"one game of a file replays, a bad one named by its file's line", replay_game},
      {"the games of a file, a gzipped file, a folder and a run folder", log_games},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_log", tests);
}
