/* tests/referee/test_ref_fault.c — harness/core/fault.c, the games.jsonl line writer and reader
 * (harness/core/line.c) and the time checks of the watch: the hand-written fault members parse
 * as JSON with every field; a unit record written and read back is the same record, byte for
 * byte when written again, for every game, fault kind and the skipped mark; lines without
 * fault_info are read with the kind their reason names; malformed lines are refused with the
 * field named; tk_watch_over's per-call and per-game limits. */
#include <jansson.h>
#include <string.h>

#include "fault.h"
#include "line.h"
#include "taikai/rng.h"
#include "unit.h"
#include "watch.h"

/* A fault of `kind` with the members that kind carries (a memory fault with the signal its
 * crash under the limit ended in), the others 0: what a worker reports. */
static tk_fault sample(int kind) {
  tk_fault f;
  memset(&f, 0, sizeof f);
  f.kind = kind;
  f.entry = TK_ENTRY_ACT;
  f.seat = 0;
  if (kind == TK_FAULT_CRASH || kind == TK_FAULT_MEMORY) f.signal = 11;
  if (kind == TK_FAULT_EXIT) f.exit_status = 7;
  if (kind == TK_FAULT_TIMEOUT) f.limit_ms = 300;
  if (kind == TK_FAULT_MEMORY) f.limit_mb = 256;
  snprintf(f.decision, sizeof f.decision, "turn 3: hand 123m456p789s1122z, drew \"x\"");
  if (kind == TK_FAULT_ILLEGAL || kind == TK_FAULT_ERROR)
    snprintf(f.detail, sizeof f.detail, "discard of 5z, which is not held");
  if (kind == TK_FAULT_ERROR)
    tk_fault_set_message(&f,
                         "an illegal action; the bot sent: {\"type\":\"dahai\",\"pai\":\"5z\"}");
  return f;
}

static void test_fault_json(void) {
  for (int k = TK_FAULT_CRASH; k < TK_FAULT_KINDS; k++) {
    tk_fault f = sample(k);
    char frag[1024], obj[1100], reason[512];
    int n = tk_fault_json(&f, frag, sizeof frag);
    TK_EQ(n, (int)strlen(frag), tk_fault_kind_name(k));
    snprintf(obj, sizeof obj, "{%s}", frag + 1); /* drop the leading comma */
    json_t *j = json_loads(obj, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    tk_fault_reason(&f, reason, sizeof reason);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "fault")), reason);
    json_t *info = json_object_get(j, "fault_info");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "kind")), tk_fault_kind_name(k));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "entry")), "act");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "decision")), f.decision);
    TK_EQ(json_integer_value(json_object_get(info, "seat")), 0, tk_fault_kind_name(k));
    if (k == TK_FAULT_CRASH || k == TK_FAULT_MEMORY)
      TK_EQ(json_integer_value(json_object_get(info, "signal")), 11, "signal");
    else if (json_object_get(info, "signal"))
      TK_FAILF("%s: a signal member", tk_fault_kind_name(k));
    if (k == TK_FAULT_EXIT) TK_EQ(json_integer_value(json_object_get(info, "exit_status")), 7, "exit");
    if (k == TK_FAULT_TIMEOUT) TK_EQ(json_integer_value(json_object_get(info, "limit_ms")), 300, "ms");
    if (k == TK_FAULT_MEMORY) TK_EQ(json_integer_value(json_object_get(info, "limit_mb")), 256, "mb");
    const char *msg = json_string_value(json_object_get(info, "message"));
    if (k == TK_FAULT_ERROR && (!msg || strcmp(msg, f.message)))
      TK_FAILF("error: message %s, expected %s", msg ? msg : "(absent)", f.message);
    if (k != TK_FAULT_ERROR && msg) TK_FAILF("%s: a message %s", tk_fault_kind_name(k), msg);
    TK_EQ(tk_fault_kind_of(tk_fault_kind_name(k)), k, "kind round trip");
    json_decref(j);
    /* truncation reports the full length and stays a C string */
    char small[40];
    int m = tk_fault_json(&f, small, sizeof small);
    TK_EQ(m, n, "full length");
    CU_ASSERT(strlen(small) < sizeof small);
  }
  /* a memory fault found by the resident-size check has no signal, and writes none */
  tk_fault f = sample(TK_FAULT_MEMORY);
  f.signal = 0;
  char frag[1024];
  tk_fault_json(&f, frag, sizeof frag);
  if (strstr(frag, "\"signal\"")) TK_FAILF("memory without a signal: %s", frag);
  if (!strstr(frag, "\"limit_mb\":256")) TK_FAILF("memory without its limit: %s", frag);
  TK_EQ(tk_fault_kind_of("nonsense"), TK_FAULT_NONE, "unknown kind");
  for (int e = TK_ENTRY_CREATE; e < TK_ENTRY_COUNT; e++)
    TK_EQ(tk_entry_of(tk_entry_name(e)), e, tk_entry_name(e));
}

/* An agent's message is kept to TK_FAULT_MESSAGE_MAX - 1 bytes of printable ASCII: control
 * characters, a newline and bytes above 0x7e become '?', so the line stays one valid line. */
static void test_message(void) {
  tk_fault f;
  memset(&f, 0, sizeof f);
  tk_fault_set_message(&f, "a\tb\nc\x7f\xc3\xa9\"q\"\\");
  CU_ASSERT_STRING_EQUAL(f.message, "a?b?c???\"q\"\\");
  char longer[1000];
  memset(longer, 'x', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  tk_fault_set_message(&f, longer);
  TK_EQ((int)strlen(f.message), TK_FAULT_MESSAGE_MAX - 1, "cut");
  tk_fault_set_message(&f, NULL);
  CU_ASSERT_STRING_EQUAL(f.message, "");
  /* written and parsed back as JSON */
  f.kind = TK_FAULT_ERROR;
  tk_fault_set_message(&f, "say \"hi\"\x01");
  char frag[1024], obj[1100];
  tk_fault_json(&f, frag, sizeof frag);
  snprintf(obj, sizeof obj, "{%s}", frag + 1);
  json_t *j = json_loads(obj, 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(j);
  CU_ASSERT_STRING_EQUAL(
      json_string_value(json_object_get(json_object_get(j, "fault_info"), "message")),
      "say \"hi\"?");
  json_decref(j);
}

static void test_reasons(void) {
  char r[512];
  tk_fault f = sample(TK_FAULT_CRASH);
  tk_fault_reason(&f, r, sizeof r);
  CU_ASSERT_PTR_NOT_NULL(strstr(r, "crash: killed by signal 11 (Segmentation fault) in act (turn 3"));
  f = sample(TK_FAULT_TIMEOUT);
  tk_fault_reason(&f, r, sizeof r);
  CU_ASSERT_PTR_NOT_NULL(strstr(r, "timeout: no decision within 300 ms in act"));
  f.game_limit = 1;
  tk_fault_reason(&f, r, sizeof r);
  CU_ASSERT_PTR_NOT_NULL(strstr(r, "timeout: over the 300 ms per-game limit"));
  f.game_limit = 0;
  f.entry = TK_ENTRY_BEGIN;
  f.decision[0] = '\0';
  tk_fault_reason(&f, r, sizeof r);
  CU_ASSERT_STRING_EQUAL(r, "timeout: begin_game did not return within 300 ms");
  f = sample(TK_FAULT_EXIT);
  tk_fault_reason(&f, r, sizeof r);
  CU_ASSERT_PTR_NOT_NULL(strstr(r, "exit status 7"));
  f = sample(TK_FAULT_MEMORY);
  tk_fault_reason(&f, r, sizeof r);
  CU_ASSERT_PTR_NOT_NULL(strstr(r, "memory: over the 256 MB memory limit"));
}

static const char *const LABELS[] = {"base", "cand \"q\"", "third"};

/* A random record of game g: random fields (booleans 0/1), random faults, illegal counts,
 * extras written by the game's own fields() are not needed: a plain extra member. */
static void random_rec(const tk_game *g, tk_rng *r, tk_unit_rec *rec) {
  memset(rec, 0, sizeof *rec);
  rec->unit = tk_rng_below(r, 100000);
  rec->wall = tk_rng_below(r, 1000);
  rec->nseats = g->nseats;
  rec->skipped = tk_rng_below(r, 4) == 0;
  for (int s = 0; s < g->nseats; s++) {
    tk_seat_rec *x = &rec->seat[s];
    x->agent = (int32_t)tk_rng_below(r, 3);
    for (int i = 0; i < g->nfields; i++)
      x->f[i] = g->fields_def[i].type == TK_FIELD_BOOL ? (int64_t)tk_rng_below(r, 2)
                                                       : (int64_t)tk_rng_below(r, 200001) - 100000;
    if (tk_rng_below(r, 3) == 0) {
      x->illegal = 1 + (int32_t)tk_rng_below(r, 5);
      snprintf(x->illegal_first, sizeof x->illegal_first, "turn %d: discard of 5z, not legal",
               (int)tk_rng_below(r, 18));
    }
    if (tk_rng_below(r, 3) == 0) {
      x->fault = sample(1 + (int)tk_rng_below(r, TK_FAULT_KINDS - 1));
      x->fault.seat = s;
      x->fault.entry = (int)tk_rng_below(r, TK_ENTRY_COUNT);
      if (x->fault.kind == TK_FAULT_MEMORY && tk_rng_below(r, 2)) x->fault.signal = 0;
      if (x->fault.kind == TK_FAULT_CRASH) x->fault.signal = 1 + (int)tk_rng_below(r, 31);
      if (x->fault.kind == TK_FAULT_TIMEOUT) x->fault.game_limit = (int)tk_rng_below(r, 2);
    }
    if (!strcmp(g->name, "solo")) snprintf(x->extra, sizeof x->extra, "\"discards\":\"1m9p\"");
  }
}

static int fault_eq(const tk_fault *a, const tk_fault *b) {
  return a->kind == b->kind && a->entry == b->entry && a->seat == b->seat &&
         a->signal == b->signal && a->exit_status == b->exit_status &&
         a->limit_ms == b->limit_ms && a->game_limit == b->game_limit &&
         a->limit_mb == b->limit_mb && !strcmp(a->detail, b->detail) &&
         !strcmp(a->decision, b->decision) && !strcmp(a->message, b->message);
}

/* A record written and read back is the record written: every field, and every member of each
 * fault (the faults carry only the members their kind writes, as the workers' do). */
static void test_line_round_trip(void) {
  tk_rng r;
  tk_rng_seed(&r, 7);
  for (const tk_game *const *gp = tk_game_all(); *gp; gp++) {
    const tk_game *g = *gp;
    for (int i = 0; i < 500; i++) {
      tk_unit_rec a, b, c;
      random_rec(g, &r, &a);
      char l1[TK_LINE_MAX], l2[TK_LINE_MAX], l3[TK_LINE_MAX];
      int n1 = tk_line_write(g, &a, LABELS, l1, sizeof l1);
      CU_ASSERT_FATAL(n1 > 0);
      tk_error e;
      tk_error_clear(&e);
      if (tk_line_read(g, l1, (size_t)n1, 3, &b, &e)) {
        TK_FAILF("%s: %s: %s", g->name, e.msg, l1);
        return;
      }
      int n2 = tk_line_write(g, &b, LABELS, l2, sizeof l2);
      if (n2 != n1 || strcmp(l1, l2)) TK_FAILF("%s: rewritten differs:\n%s\n%s", g->name, l1, l2);
      tk_line_read(g, l2, (size_t)n2, 3, &c, &e);
      int n3 = tk_line_write(g, &c, LABELS, l3, sizeof l3);
      if (n3 != n2 || strcmp(l2, l3)) TK_FAILF("%s: not a fixed point", g->name);
      TK_EQ(b.unit, a.unit, "unit");
      TK_EQ(b.wall, a.wall, "wall");
      TK_EQ(b.skipped, a.skipped, "skipped");
      for (int s = 0; s < g->nseats; s++) {
        TK_EQ(b.seat[s].agent, a.seat[s].agent, "agent");
        TK_EQ(b.seat[s].illegal, a.seat[s].illegal, "illegal");
        CU_ASSERT_STRING_EQUAL(b.seat[s].illegal_first, a.seat[s].illegal_first);
        CU_ASSERT_STRING_EQUAL(b.seat[s].extra, a.seat[s].extra);
        for (int f = 0; f < g->nfields; f++) TK_EQ(b.seat[s].f[f], a.seat[s].f[f], g->fields_def[f].name);
        TK_EQ(b.seat[s].fault.kind, a.seat[s].fault.kind, "fault kind");
        if (a.seat[s].fault.kind && !fault_eq(&b.seat[s].fault, &a.seat[s].fault))
          TK_FAILF("%s: fault of seat %d (%s, signal %d) read back differs from the one written: "
                   "%s", g->name, s, tk_fault_kind_name(a.seat[s].fault.kind),
                   a.seat[s].fault.signal, l1);
      }
    }
  }
}

static void test_line_legacy_and_bad(void) {
  const tk_game *solo = tk_game_find("solo");
  tk_unit_rec rec;
  tk_error e;
  /* lines without fault_info: the kind from the reason's first word */
  const char *legacy[] = {"crash: x", "timeout: x", "illegal action x", "memory: x", "exit: x", "act failed"};
  const int kinds[] = {TK_FAULT_CRASH, TK_FAULT_TIMEOUT, TK_FAULT_ILLEGAL, TK_FAULT_MEMORY,
                       TK_FAULT_EXIT, TK_FAULT_ERROR};
  for (int i = 0; i < 6; i++) {
    char line[512];
    snprintf(line, sizeof line, "{\"unit\":0,\"wall\":0,\"seats\":[{\"agent\":0,\"label\":\"a\","
             "\"won\":false,\"turn\":18,\"points\":0,\"han\":0,\"fu\":0,\"yakuman\":0,"
             "\"discards\":\"\",\"fault\":\"%s\"}]}", legacy[i]);
    tk_error_clear(&e);
    CU_ASSERT_EQUAL_FATAL(tk_line_read(solo, line, strlen(line), 1, &rec, &e), 0);
    TK_EQ(rec.seat[0].fault.kind, kinds[i], legacy[i]);
  }
  /* refusals name what is wrong */
  struct { const char *line, *want; } bad[] = {
      {"[1, 2]", "not a JSON object"},
      {"{\"unit\":-1,\"wall\":0,\"seats\":[]}", "'unit'"},
      {"{\"unit\":0,\"wall\":0,\"seats\":[]}", "expected 'seats' to hold 1 seat"},
      {"{\"unit\":0,\"wall\":0,\"seats\":[{\"agent\":5,\"won\":true}]}", "agent index"},
      {"{\"unit\":0,\"wall\":0,\"seats\":[{\"agent\":0,\"won\":1}]}", "field 'won'"},
      {"{\"unit\":0,\"wall\":0,\"seats\":[{\"agent\":0,\"won\":true,\"turn\":\"3\"}]}", "'turn'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tk_error_clear(&e);
    CU_ASSERT_EQUAL(tk_line_read(solo, bad[i].line, strlen(bad[i].line), 1, &rec, &e), TK_EPARSE);
    if (!strstr(e.msg, bad[i].want)) TK_FAILF("'%s': got '%s', want '%s'", bad[i].line, e.msg, bad[i].want);
  }
  /* a line that does not fit */
  tk_unit_rec a;
  memset(&a, 0, sizeof a);
  a.nseats = 1;
  char tiny[16];
  CU_ASSERT_EQUAL(tk_line_write(solo, &a, LABELS, tiny, sizeof tiny), TK_ERANGE);
}

static void test_watch_over(void) {
  tk_watch w;
  memset(&w, 0, sizeof w);
  tk_fault f;
  w.call_limit_ns = 100000000;  /* 100 ms */
  w.game_limit_ns = 250000000;  /* 250 ms */
  tk_watch_unit(&w, 5);
  w.last_ns = 50000000;
  w.used_ns[1] = 200000000;
  CU_ASSERT_EQUAL(tk_watch_over(&w, 1, TK_ENTRY_ACT, &f), 0);
  w.last_ns = 150000000;
  CU_ASSERT_EQUAL(tk_watch_over(&w, 1, TK_ENTRY_ACT, &f), 1);
  TK_EQ(f.kind, TK_FAULT_TIMEOUT, "call limit");
  TK_EQ(f.game_limit, 0, "per call");
  TK_EQ(f.limit_ms, 100, "limit");
  TK_EQ(f.seat, 1, "seat");
  w.last_ns = 60000000;
  w.used_ns[1] = 260000000;
  CU_ASSERT_EQUAL(tk_watch_over(&w, 1, TK_ENTRY_END, &f), 1);
  TK_EQ(f.game_limit, 1, "per game");
  TK_EQ(f.limit_ms, 250, "game limit");
  TK_EQ(f.entry, TK_ENTRY_END, "entry");
  w.call_limit_ns = w.game_limit_ns = 0; /* no limits */
  CU_ASSERT_EQUAL(tk_watch_over(&w, 1, TK_ENTRY_ACT, &f), 0);
  CU_ASSERT_EQUAL(tk_watch_over(NULL, 0, TK_ENTRY_ACT, &f), 0);
  /* calls accumulate per seat; a new unit resets them */
  tk_watch_unit(&w, 6);
  tk_watch_call(&w, 2, 0, TK_ENTRY_ACT);
  TK_EQ(w.seq & 1, 1, "odd inside a call");
  tk_watch_leave(&w);
  TK_EQ(w.seq & 1, 0, "even outside");
  TK_EQ(w.last_seat, 2, "last seat kept");
  CU_ASSERT(w.used_ns[2] >= 0 && w.used_ns[2] == w.last_ns);
  TK_EQ(w.unit, 6, "unit");
}

int main(void) {
  CU_TestInfo tests[] = {
      {"fault_json", test_fault_json},
      {"reasons", test_reasons},
      {"message", test_message},
      {"line_round_trip", test_line_round_trip},
      {"line_legacy_and_bad", test_line_legacy_and_bad},
      {"watch_over", test_watch_over},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee faults (unit)", tests);
}
