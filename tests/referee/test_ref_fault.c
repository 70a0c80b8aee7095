/* tests/referee/test_ref_fault.c — harness/core/fault.c and the time checks of the watch: the
 * hand-written fault record a worker writes equals the one the parent builds with Jansson, for
 * every kind; stamping a fault and the skipped mark into a line; reading faults back (also
 * from lines without fault_info); tk_watch_over's per-call and per-game limits. */
#include <string.h>

#include "fault.h"
#include "unit.h"

static tk_fault sample(int kind) {
  tk_fault f;
  memset(&f, 0, sizeof f);
  f.kind = kind;
  f.entry = TK_ENTRY_ACT;
  f.seat = 0;
  f.signal = kind == TK_FAULT_CRASH || kind == TK_FAULT_MEMORY ? 11 : 0;
  f.exit_status = 7;
  f.limit_ms = 300;
  f.game_limit = 0;
  f.limit_mb = 256;
  snprintf(f.decision, sizeof f.decision, "turn 3: hand 123m456p789s1122z, drew \"x\"");
  if (kind == TK_FAULT_ILLEGAL || kind == TK_FAULT_ERROR)
    snprintf(f.detail, sizeof f.detail, "discard of 5z, which is not held");
  return f;
}

static void test_json_matches_jansson(void) {
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
    json_t *info = tk_fault_info(&f);
    if (!json_equal(info, json_object_get(j, "fault_info"))) TK_FAILF("%s: %s", tk_fault_kind_name(k), obj);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "kind")), tk_fault_kind_name(k));
    TK_EQ(tk_fault_kind_of(tk_fault_kind_name(k)), k, "kind round trip");
    json_decref(info);
    json_decref(j);
    /* truncation reports the full length and stays a C string */
    char small[40];
    int m = tk_fault_json(&f, small, sizeof small);
    TK_EQ(m, n, "full length");
    CU_ASSERT(strlen(small) < sizeof small);
  }
  TK_EQ(tk_fault_kind_of("nonsense"), TK_FAULT_NONE, "unknown kind");
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

static void test_stamp_and_scan(void) {
  char line[TK_LINE_MAX] = "{\"unit\":3,\"wall\":1,\"seats\":[{\"agent\":0,\"won\":false,"
                           "\"fault\":\"crash: old\"},{\"agent\":1,\"won\":true,\"illegal\":2}]}";
  tk_fault f = sample(TK_FAULT_TIMEOUT);
  f.seat = 0;
  CU_ASSERT_EQUAL_FATAL(tk_fault_stamp(line, sizeof line, &f), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "{\"unit\":3,\"wall\":1,\"seats\":[{\"agent\":0,\"won\":false,"
                                      "\"fault\":\"timeout: no decision"));
  CU_ASSERT_EQUAL_FATAL(tk_fault_mark_skipped(line, sizeof line), 0);
  json_t *j = json_loads(line, 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(j);
  tk_unit_result res;
  memset(&res, 0, sizeof res);
  res.nseats = 2;
  tk_fault_scan(j, &res);
  TK_EQ(res.skipped, 1, "skipped");
  TK_EQ(res.fault[0], 1, "fault seat 0");
  TK_EQ(res.fault_kind[0], TK_FAULT_TIMEOUT, "kind seat 0");
  TK_EQ(res.fault[1], 0, "no fault seat 1");
  TK_EQ(res.illegal[1], 2, "illegal seat 1");
  json_decref(j);
  /* lines without fault_info (written by a driver that only gives the reason) */
  const char *legacy[] = {"crash: x", "timeout: x", "illegal action x", "memory: x", "exit: x", "act failed"};
  const int kinds[] = {TK_FAULT_CRASH, TK_FAULT_TIMEOUT, TK_FAULT_ILLEGAL, TK_FAULT_MEMORY,
                       TK_FAULT_EXIT, TK_FAULT_ERROR};
  for (int i = 0; i < 6; i++) {
    json_t *l = json_pack("{s:[{s:s}]}", "seats", "fault", legacy[i]);
    memset(&res, 0, sizeof res);
    res.nseats = 1;
    tk_fault_scan(l, &res);
    TK_EQ(res.fault_kind[0], kinds[i], legacy[i]);
    json_decref(l);
  }
  /* a line that is not a unit's */
  char bad[64] = "[1, 2]";
  CU_ASSERT_EQUAL(tk_fault_stamp(bad, sizeof bad, &f), TK_EPARSE);
  char tiny[16] = "{\"seats\":[{}]}";
  CU_ASSERT_EQUAL(tk_fault_stamp(tiny, sizeof tiny, &f), TK_ERANGE);
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
      {"json_matches_jansson", test_json_matches_jansson},
      {"reasons", test_reasons},
      {"stamp_and_scan", test_stamp_and_scan},
      {"watch_over", test_watch_over},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee faults (unit)", tests);
}
