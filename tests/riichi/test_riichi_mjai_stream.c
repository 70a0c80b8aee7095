/* tests/riichi/test_riichi_mjai_stream.c — the riichi_mjai bridge's event stream
 * (plugins/riichi_mjai/stream.c), rebuilt from views only, against the engine's own events.
 *
 * Games of riichi_random and riichi_greedy agents (random calls chi, pon and every kan; greedy
 * declares riichi): at every decision of every seat, the stream rebuilt from that seat's view
 * must equal the engine's events since the seat's previous decision as that seat sees them
 * (other draws and hands masked), with the documented omissions: the end of a hand (hora,
 * ryukyoku and the discards after the seat's last decision) is replaced by end_kyoku, and a
 * hand without a decision of the seat is not sent. No decision may differ, none may be
 * ambiguous (the view's hash of plays fixes every order), and every kind of event must have been
 * compared. Tables of riichi_caller (fixtures/caller.c) add every order of chi, pon and kans by
 * several seats between two decisions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents.h"
#include "stream.h"
#include "unit.h"

typedef struct ref_state {
  tk_mjai_buf ref[4];  /* engine events each seat has not been sent yet */
  int decided_game[4]; /* the seat had a decision earlier in this game */
} ref_state;

static void on_event(void *ctx, const tk_riichi_event *ev) {
  ref_state *r = ctx;
  for (int s = 0; s < 4; s++) {
    tk_mjai_buf *b = &r->ref[s];
    if (ev->type == TK_RIICHI_EV_START_KYOKU) {
      tk_mjai_buf_clear(b);
      if (!r->decided_game[s]) {
        tk_riichi_rules rules = tk_riichi_default_rules(); /* the games' rules (init with NULL) */
        tk_mjai_start_game(b, s, rules.length, rules.red_fives);
      } else {
        tk_riichi_event ek;
        memset(&ek, 0, sizeof ek);
        ek.type = TK_RIICHI_EV_END_KYOKU;
        tk_mjai_event(b, &ek, s);
      }
    }
    if (ev->type == TK_RIICHI_EV_START_GAME || ev->type == TK_RIICHI_EV_END_KYOKU ||
        ev->type == TK_RIICHI_EV_END_GAME)
      continue;
    tk_mjai_event(b, ev, s); /* hora and ryukyoku are refused: not sent to bots */
  }
}

typedef struct tally {
  long decisions, compared, ambiguous, mismatches;
  long kinds[TK_RIICHI_EV_COUNT];
  long pon_kakan; /* decisions whose events hold a pon and then an added kan */
  long kans2;     /* decisions whose events hold two kans or more */
} tally;

static void count_kinds(tally *ta, const char *s) {
  static const char *const names[] = {"\"start_game\"", "\"start_kyoku\"", "\"tsumo\"",
                                      "\"dahai\"", "\"chi\"", "\"pon\"", "\"daiminkan\"",
                                      "\"kakan\"", "\"ankan\"", "\"dora\"", "\"reach\"",
                                      "\"reach_accepted\"", "\"hora\"", "\"ryukyoku\"",
                                      "\"end_kyoku\"", "\"end_game\""};
  for (int k = 0; k < TK_RIICHI_EV_COUNT; k++)
    for (const char *p = s; (p = strstr(p, names[k])); p++) ta->kinds[k]++;
  const char *pon = strstr(s, "\"pon\"");
  ta->pon_kakan += pon && strstr(pon, "\"kakan\"");
  int kans = 0;
  for (const char *p = s; (p = strstr(p, "kan\",\"actor")); p++) kans++;
  ta->kans2 += kans >= 2;
}

/* Plays game `gi` (seed 11) with agents `d[s]`; compares every decision's rebuilt stream. */
static void play(const tk_agent_descriptor *const d[4], tk_agent_instance *const inst[4],
                 uint64_t gi, tally *ta) {
  static ref_state r;
  for (int s = 0; s < 4; s++) {
    tk_mjai_buf_clear(&r.ref[s]);
    r.decided_game[s] = 0;
  }
  tk_riichi_sink sink = {on_event, &r};
  tk_riichi_game g;
  tk_error err;
  tk_error_clear(&err);
  TK_EQ(tk_riichi_init(&g, NULL, 11, gi, &sink, &err), 0, "init");
  tk_mjai_stream st[4];
  static tk_mjai_buf got;
  for (int s = 0; s < 4; s++) {
    tk_riichi_rules rules = tk_riichi_default_rules();
    tk_mjai_stream_begin(&st[s], s, rules.length, rules.red_fives);
    tk_riichi_info info;
    memset(&info, 0, sizeof info);
    info.head.seed = gi * 4 + (uint64_t)s;
    info.head.wall = gi;
    info.head.seat = s;
    d[s]->begin_game(inst[s], &info);
  }
  while (!tk_riichi_is_over(&g)) {
    if (g.phase == TK_RIICHI_PHASE_DEAL) {
      TK_EQ(tk_riichi_deal(&g, NULL, &sink, &err), 0, "deal");
      continue;
    }
    int s = tk_riichi_to_act(&g);
    tk_riichi_view v;
    tk_riichi_legal l;
    tk_riichi_view_of(&g, s, &v);
    tk_riichi_legal_of(&g, s, &l);
    tk_mjai_buf_clear(&got);
    int amb = 0;
    int rc = tk_mjai_stream_update(&st[s], &v, &got, &amb);
    ta->decisions++;
    if (amb) {
      ta->ambiguous++;
    } else {
      ta->compared++;
      count_kinds(ta, got.s ? got.s : "");
      const char *want = r.ref[s].s ? r.ref[s].s : "";
      if (rc || strcmp(got.s ? got.s : "", want)) {
        if (ta->mismatches++ < 3) {
          const char *g2 = got.s ? got.s : "";
          size_t at = 0;
          while (g2[at] && g2[at] == want[at]) at++;
          size_t from = at > 160 ? at - 160 : 0;
          TK_FAILF("game %llu seat %d (rc %d), from byte %zu:\n  rebuilt ...%.320s\n  engine  ...%.320s",
                   (unsigned long long)gi, s, rc, from, g2 + from, want + from);
        }
      }
    }
    tk_mjai_buf_clear(&r.ref[s]);
    r.decided_game[s] = 1;
    tk_riichi_action a;
    TK_EQ(d[s]->act(inst[s], &v, &l, &a), 0, "act");
    TK_EQ(tk_riichi_apply(&g, s, &a, &sink, &err), 0, "apply");
  }
}

static void against_engine(void) {
  const tk_agent_descriptor *rnd = taikai_agent_entry_riichi_random();
  const tk_agent_descriptor *gr = taikai_agent_entry_riichi_greedy();
  tk_error err;
  tk_agent_instance *ri[4], *gi = gr->create("{}", 0, &err);
  for (int s = 0; s < 4; s++) ri[s] = rnd->create("{}", (uint64_t)s + 1, &err);
  tally ta;
  memset(&ta, 0, sizeof ta);
  for (uint64_t i = 0; i < 400; i++) {
    const tk_agent_descriptor *d[4];
    tk_agent_instance *in[4];
    for (int s = 0; s < 4; s++) {
      int greedy = (i >> s & 1) && (i % 3 != 0); /* some all-random tables: most calls */
      d[s] = greedy ? gr : rnd;
      in[s] = greedy ? gi : ri[s];
    }
    play(d, in, i, &ta);
  }
  printf("\n  %ld decisions, %ld compared, %ld ambiguous, %ld mismatches; events compared:",
         ta.decisions, ta.compared, ta.ambiguous, ta.mismatches);
  static const char *const names[] = {"start_game", "start_kyoku", "tsumo", "dahai", "chi",
                                      "pon", "daiminkan", "kakan", "ankan", "dora", "reach",
                                      "reach_accepted", "hora", "ryukyoku", "end_kyoku",
                                      "end_game"};
  for (int k = 0; k < TK_RIICHI_EV_COUNT; k++) printf(" %s %ld", names[k], ta.kinds[k]);
  printf("\n");
  TK_EQ(ta.mismatches, 0, "decisions whose rebuilt stream differs from the engine's events");
  TK_EQ(ta.ambiguous, 0, "decisions with several orders of plays that explain the view");
  for (int k = 0; k < TK_RIICHI_EV_COUNT; k++) {
    if (k == TK_RIICHI_EV_HORA || k == TK_RIICHI_EV_RYUKYOKU || k == TK_RIICHI_EV_END_GAME)
      continue;
    if (ta.kinds[k] == 0) TK_FAILF("no %s event was compared", names[k]);
  }
  for (int s = 0; s < 4; s++) rnd->destroy(ri[s]);
  gr->destroy(gi);
}

const tk_agent_descriptor *taikai_agent_entry_riichi_caller(void);

/* Tables of riichi_caller (fixtures/caller.c: chi, pon and every kan whenever it can) beside
 * tsumogiri and random seats: pons made into added kans, kans after kans, calls skipping seats,
 * several calls and kans by several seats between two decisions of a seat. */
static void with_callers(void) {
  const tk_agent_descriptor *ca = taikai_agent_entry_riichi_caller();
  const tk_agent_descriptor *rnd = taikai_agent_entry_riichi_random();
  const tk_agent_descriptor *ts = taikai_agent_entry_riichi_tsumogiri();
  tk_error err;
  tk_agent_instance *ci[4], *ri[4], *ti = ts->create("{}", 0, &err);
  for (int s = 0; s < 4; s++) {
    ci[s] = ca->create("{}", (uint64_t)s + 7, &err);
    ri[s] = rnd->create("{}", (uint64_t)s + 1, &err);
  }
  tally ta;
  memset(&ta, 0, sizeof ta);
  for (uint64_t i = 0; i < 400; i++) {
    const tk_agent_descriptor *d[4];
    tk_agent_instance *in[4];
    for (int s = 0; s < 4; s++) {
      int kind = (int)((i + (uint64_t)s * (i / 4 + 1)) % 4); /* 0, 1 caller; 2 random; 3 tsumogiri */
      d[s] = kind < 2 ? ca : kind == 2 ? rnd : ts;
      in[s] = kind < 2 ? ci[s] : kind == 2 ? ri[s] : ti;
    }
    play(d, in, 1000 + i, &ta);
  }
  printf("\n  %ld decisions, %ld compared, %ld ambiguous, %ld mismatches; calls compared: chi %ld "
         "pon %ld daiminkan %ld kakan %ld ankan %ld dora %ld\n",
         ta.decisions, ta.compared, ta.ambiguous, ta.mismatches, ta.kinds[TK_RIICHI_EV_CHI],
         ta.kinds[TK_RIICHI_EV_PON], ta.kinds[TK_RIICHI_EV_DAIMINKAN],
         ta.kinds[TK_RIICHI_EV_KAKAN], ta.kinds[TK_RIICHI_EV_ANKAN], ta.kinds[TK_RIICHI_EV_DORA]);
  printf("  %ld decisions after a pon and its added kan, %ld after two kans or more\n",
         ta.pon_kakan, ta.kans2);
  TK_EQ(ta.mismatches, 0, "decisions whose rebuilt stream differs from the engine's events");
  TK_EQ(ta.ambiguous, 0, "decisions with several orders of plays that explain the view");
  TK_EQ(ta.pon_kakan > 0 && ta.kans2 > 0, 1, "a pon and its added kan, two kans, between decisions");
  for (int s = 0; s < 4; s++) {
    ca->destroy(ci[s]);
    rnd->destroy(ri[s]);
  }
  ts->destroy(ti);
}

/* The end of a game: end_kyoku after a sent hand, then end_game with the final points. */
static void end_of_game(void) {
  tk_mjai_stream st;
  tk_mjai_buf b = {0};
  tk_mjai_stream_begin(&st, 2, 1, 1);
  st.in_game = st.in_hand = 1;
  const int32_t pts[4] = {31000, 24000, 20000, 25000};
  tk_mjai_stream_end(&st, pts, &b);
  TK_EQ(strcmp(b.s, "{\"type\":\"end_kyoku\"},{\"type\":\"end_game\",\"scores\":[31000,24000,"
                    "20000,25000]}"),
        0, b.s);
  tk_mjai_buf_free(&b);
}

/* start_game carries the rules as mjai-family bots read them: kyoku_first 4 east-only, 0
 * hanchan; aka_flag with red fives. */
static void start_game_rules(void) {
  tk_mjai_buf b = {0};
  tk_mjai_start_game(&b, 1, 1, 1);
  TK_EQ(strcmp(b.s, "{\"type\":\"start_game\",\"id\":1,\"names\":[\"player0\",\"player1\","
                    "\"player2\",\"player3\"],\"kyoku_first\":4,\"aka_flag\":true}"),
        0, b.s);
  tk_mjai_buf_clear(&b);
  tk_mjai_start_game(&b, 3, 2, 0);
  TK_EQ(strstr(b.s, "\"id\":3,") && strstr(b.s, "\"kyoku_first\":0,\"aka_flag\":false}"), 1, b.s);
  tk_mjai_stream st;
  tk_mjai_stream_begin(&st, 0, 2, 0);
  TK_EQ(st.length == 2 && st.red_fives == 0, 1, "the stream keeps the rules");
  tk_mjai_buf_free(&b);
}

int main(int argc, char **argv) {
  CU_TestInfo tests[] = {
      {"the stream rebuilt from views equals the engine's events", against_engine},
      {"the stream rebuilt from views with heavy calling", with_callers},
      {"the end of a game", end_of_game},
      {"start_game's rules", start_game_rules},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_mjai_stream", tests);
}
