/* tests/riichi/test_riichi_log.c — mjai-style logs: games of the baseline agents written by the
 * log writer replay through the log reader (each hand's wall rebuilt from the log, every
 * engine event matched against its line) to the same final scores; a tampered log is refused;
 * the lines carry the fields the mjai format names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

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

int main(void) {
  CU_TestInfo tests[] = {
      {"greedy and random games replay to the same scores", round_trip},
      {"a scripted double ron replays", scripted_round_trip},
      {"a second kan after an open kan replays, dora lines anywhere", second_kan_round_trip},
      {"tampered logs are refused", tampered},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_log", tests);
}
