/* tests/referee/test_ref_records.c — `taikai run --records` and the reader of taikai/records.h:
 * the records of a one-player and a four-player run read back (one unit per games.jsonl line
 * with the same result fields; every decision's action legal in the legal set recorded with it;
 * the decisions of a game in order), the same bytes whatever -j, a truncated or corrupt file
 * refused with the file and the offset, a run with faults (the faulted seat's unit marked, the
 * fallback's decisions not recorded), the `taikai records` summary and dump, and the refusals
 * of a resume that would leave records incomplete. */
#include <math.h>

#include "taikai/records.h"
#include "taikai/riichi.h"
#include "taikai/solo.h"

#define WORK TK_WORK_DIR "-records" /* not inside test_ref_e2e's folder, which it removes */
#include "e2e_util.h"

static const char *spec_file(const char *name, const char *text) {
  static char path[1200];
  snprintf(path, sizeof path, "%s/%s.json", WORK, name);
  write_file(path, text);
  return path;
}

#define SOLO_SPEC                                                                        \
  "{\"game\": \"solo\", \"seed\": 5, \"walls\": 40, \"agents\": [{\"plugin\": \"greedy\"}, " \
  "{\"plugin\": \"tsumogiri\"}], \"output\": \"" WORK "/solo\"}\n"

static int count_lines(const char *path, json_t **lines, int max) { return load_lines(path, lines, max); }

static void test_solo_round_trip(void) {
  const char *sp = spec_file("solo", SOLO_SPEC);
  const char *a1[] = {"run", sp, "-j", "1", "--records", "--quiet", NULL};
  const char *a2[] = {"run", sp, "-j", "2", "--records", "--out", WORK "/solo-j2", "--quiet", NULL};
  TK_EQ(taikai(a1), 0, "run -j 1");
  TK_EQ(taikai(a2), 0, "run -j 2");
  CU_ASSERT(same_bytes(WORK "/solo/records.tkr", WORK "/solo-j2/records.tkr"));
  static json_t *lines[200];
  int n = count_lines(WORK "/solo/games.jsonl", lines, 200);
  TK_EQ(n, 80, "lines");
  tk_records *r;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_records_open(WORK "/solo/records.tkr", &r, &e), 0);
  CU_ASSERT_EQUAL(tk_records_expect(r, "solo", TK_SOLO_TYPES_VERSION, sizeof(tk_solo_view),
                                    sizeof(tk_solo_legal), sizeof(tk_solo_action), &e), 0);
  CU_ASSERT_EQUAL(tk_records_expect(r, "riichi", TK_RIICHI_TYPES_VERSION, 1, 1, 1, &e), TK_EABI);
  /* the trainers' one call: the right game opens, a wrong one fails naming both and leaves no
   * reader, a missing file names the path */
  tk_records *g = NULL;
  CU_ASSERT_EQUAL(tk_records_open_game(WORK "/solo/records.tkr", "solo", TK_SOLO_TYPES_VERSION,
                                       sizeof(tk_solo_view), sizeof(tk_solo_legal),
                                       sizeof(tk_solo_action), &g, &e), 0);
  CU_ASSERT_PTR_NOT_NULL(g);
  tk_records_close(g);
  g = (tk_records *)&e; /* not NULL: the failing call must reset it */
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_records_open_game(WORK "/solo/records.tkr", "riichi", TK_RIICHI_TYPES_VERSION,
                                       1, 1, 1, &g, &e), TK_EABI);
  CU_ASSERT_PTR_NULL(g);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "records of game 'solo', expected 'riichi'"));
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_records_open_game(WORK "/solo/none.tkr", "solo", TK_SOLO_TYPES_VERSION,
                                       sizeof(tk_solo_view), sizeof(tk_solo_legal),
                                       sizeof(tk_solo_action), &g, &e), TK_ENOTFOUND);
  CU_ASSERT_PTR_NULL(g);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "none.tkr"));
  const tk_records_header *h = tk_records_header_of(r);
  TK_EQ(h->nagents, 2, "agents");
  CU_ASSERT_STRING_EQUAL(h->agent[0], "greedy");
  CU_ASSERT_STRING_EQUAL(h->field[0], "won");
  tk_records_unit u;
  int units = 0;
  long long decisions = 0;
  while (tk_records_next(r, &u, &e) == 1) {
    json_t *seat = json_array_get(json_object_get(lines[units], "seats"), 0);
    TK_EQ(u.unit, (uint64_t)units, "unit order");
    TK_EQ(u.agent[0], json_integer_value(json_object_get(seat, "agent")), "agent");
    TK_EQ(u.field[0][0], json_is_true(json_object_get(seat, "won")), "won");
    TK_EQ(u.field[0][1], json_integer_value(json_object_get(seat, "turn")), "turn");
    TK_EQ(u.field[0][2], json_integer_value(json_object_get(seat, "points")), "points");
    /* one decision per discard (a win ends the game before its discard), in turn order,
     * each a held tile */
    TK_EQ((long long)u.ndecisions, (long long)(u.field[0][1] - u.field[0][0]),
          "one decision per discard");
    for (uint32_t i = 0; i < u.ndecisions; i++) {
      tk_records_decision d;
      tk_records_decision_at(r, &u, i, &d);
      tk_solo_view v;
      tk_solo_legal l;
      tk_solo_action a;
      memcpy(&v, d.view, sizeof v);
      memcpy(&l, d.legal, sizeof l);
      memcpy(&a, d.action, sizeof a);
      TK_EQ(v.turn, (int)i + 1, "turn order");
      CU_ASSERT(a.discard < TK_KINDS && (l.mask >> a.discard & 1) && v.hand[a.discard] > 0);
      decisions++;
    }
    units++;
  }
  TK_EQ(units, 80, "units");
  CU_ASSERT(decisions > 80 * 10);
  tk_records_close(r);
  free_lines(lines, n);
  /* the summary and the dump */
  const char *s1[] = {"records", WORK "/solo", NULL};
  TK_EQ(taikai(s1), 0, "taikai records");
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "game solo"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "units 80"));
  const char *s2[] = {"records", WORK "/solo", "--dump", "--agent", "tsumogiri", "--limit", "3", NULL};
  TK_EQ(taikai(s2), 0, "taikai records --dump");
  json_error_t je;
  json_t *first = json_loads(out_buf, JSON_DISABLE_EOF_CHECK, &je);
  CU_ASSERT_PTR_NOT_NULL_FATAL(first);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(first, "agent")), "tsumogiri");
  CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(first, "view")), "turn 1: hand "));
  CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(first, "action")), "discard of "));
  json_decref(first);
  int nl = 0;
  for (const char *p = out_buf; *p; p++) nl += *p == '\n';
  TK_EQ(nl, 3, "--limit 3");
}

static void test_truncated(void) {
  /* every cut inside the last unit is refused with the file and that unit's offset */
  FILE *f = fopen(WORK "/solo/records.tkr", "rb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  static uint8_t buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  tk_records *r;
  tk_error e;
  tk_records_unit u;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_records_open(WORK "/solo/records.tkr", &r, &e), 0);
  uint64_t last = 0;
  while (tk_records_next(r, &u, &e) == 1)
    if (tk_records_offset(r) < n) last = tk_records_offset(r);
  tk_records_close(r);
  const char *cut = WORK "/cut.tkr";
  size_t cuts[] = {n - 1, last + 3, last + 20, (size_t)last + (n - last) / 2};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    f = fopen(cut, "wb");
    fwrite(buf, 1, cuts[i], f);
    fclose(f);
    tk_error_clear(&e);
    CU_ASSERT_EQUAL_FATAL(tk_records_open(cut, &r, &e), 0);
    int rc;
    while ((rc = tk_records_next(r, &u, &e)) == 1) {
    }
    TK_EQ(rc, TK_EPARSE, "truncated");
    char want[64];
    snprintf(want, sizeof want, "at byte offset %llu", (unsigned long long)last);
    if (!strstr(e.msg, cut) || !strstr(e.msg, want)) TK_FAILF("cut at %zu: '%s'", cuts[i], e.msg);
    tk_records_close(r);
  }
  /* a flipped byte inside a unit fails its checksum or inflate */
  buf[last + 30] ^= 0x55;
  f = fopen(cut, "wb");
  fwrite(buf, 1, n, f);
  fclose(f);
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_records_open(cut, &r, &e), 0);
  int rc;
  while ((rc = tk_records_next(r, &u, &e)) == 1) {
  }
  TK_EQ(rc, TK_EPARSE, "corrupt");
  if (!strstr(e.msg, "corrupt unit")) TK_FAILF("flipped byte: '%s'", e.msg);
  tk_records_close(r);
  /* a file that is not a records file; and the command's exit status */
  write_file(WORK "/not.tkr", "hello");
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_records_open(WORK "/not.tkr", &r, &e), TK_EPARSE);
  const char *c1[] = {"records", cut, NULL};
  TK_EQ(taikai(c1), 1, "corrupt: exit 1");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "byte offset"));
  const char *c2[] = {"records", WORK "/nowhere", NULL};
  TK_EQ(taikai(c2), 2, "missing: exit 2");
}

static void test_faults(void) {
  /* a crash at turn 3 on every second wall: those units are replayed by the fallback, marked
   * with the fault, and hold none of the fallback's decisions */
  const char *sp = spec_file("faults",
      "{\"game\": \"solo\", \"seed\": 9, \"walls\": 8, \"agents\": [{\"plugin\": \""
      TK_FIXTURE_DIR "/misbehave.so\", \"label\": \"bad\", \"params\": {\"how\": \"abort\", "
      "\"turn\": 3, \"walls_mod\": 2}}], \"output\": \"" WORK "/faults\"}\n");
  const char *a[] = {"run", sp, "-j", "2", "--records", "--quiet", NULL};
  TK_EQ(taikai(a), 0, "run with faults");
  tk_records *r;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_records_open(WORK "/faults/records.tkr", &r, &e), 0);
  tk_records_unit u;
  int faulted = 0, units = 0;
  while (tk_records_next(r, &u, &e) == 1) {
    units++;
    if (u.wall % 2 == 0) {
      CU_ASSERT(u.fault_kind[0] != 0);
      TK_EQ(u.ndecisions, 0, "the fallback's decisions are not recorded");
      TK_EQ(u.field[0][0], 0, "forfeit: no win");
      faulted++;
    } else {
      TK_EQ(u.fault_kind[0], 0, "no fault");
      CU_ASSERT(u.ndecisions > 0);
    }
  }
  TK_EQ(units, 8, "units");
  TK_EQ(faulted, 4, "faulted units");
  tk_records_close(r);
  /* continuing a recording run without --records, or recording into a run that did not */
  const char *b[] = {"run", sp, "-j", "1", "--quiet", NULL};
  TK_EQ(taikai(b), 2, "a recording run continued without --records");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "continue it with --records"));
  const char *sp2 = spec_file("norec", SOLO_SPEC);
  const char *c1[] = {"run", sp2, "--out", WORK "/norec", "--walls", "6", "--quiet", NULL};
  TK_EQ(taikai(c1), 0, "run without records");
  const char *c2[] = {"run", sp2, "--out", WORK "/norec", "--walls", "6", "--records", "--quiet", NULL};
  TK_EQ(taikai(c2), 2, "records asked for a run that did not record");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "did not record its decisions from its start"));
}

static void test_riichi(void) {
  const char *sp = spec_file("riichi",
      "{\"game\": \"riichi\", \"seed\": 3, \"walls\": 2, \"format\": \"duplicate\", \"agents\": "
      "[{\"plugin\": \"riichi_tsumogiri\"}, {\"plugin\": \"riichi_greedy\"}], \"rules\": "
      "{\"length\": \"east\"}, \"output\": \"" WORK "/riichi\"}\n");
  const char *a[] = {"run", sp, "-j", "2", "--records", "--quiet", NULL};
  TK_EQ(taikai(a), 0, "riichi run");
  tk_records *r;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_records_open(WORK "/riichi/records.tkr", &r, &e), 0);
  CU_ASSERT_EQUAL(tk_records_expect(r, "riichi", TK_RIICHI_TYPES_VERSION, sizeof(tk_riichi_view),
                                    sizeof(tk_riichi_legal), sizeof(tk_riichi_action), &e), 0);
  tk_records_unit u;
  int units = 0;
  long long decisions = 0, bad = 0;
  while (tk_records_next(r, &u, &e) == 1) {
    units++;
    for (uint32_t i = 0; i < u.ndecisions; i++) {
      tk_records_decision d;
      tk_records_decision_at(r, &u, i, &d);
      tk_riichi_legal l;
      tk_riichi_action act;
      tk_riichi_view v;
      memcpy(&l, d.legal, sizeof l);
      memcpy(&act, d.action, sizeof act);
      memcpy(&v, d.view, sizeof v);
      int found = 0;
      for (int k = 0; k < l.n; k++) found |= !memcmp(&l.a[k], &act, sizeof act);
      bad += !found || v.seat != d.seat || u.agent[d.seat] != (int32_t)d.agent;
      decisions++;
    }
  }
  TK_EQ(units, 8, "4 seatings x 2 game indices");
  TK_EQ(bad, 0, "every action among its legal actions, seat and agent consistent");
  CU_ASSERT(decisions > 8 * 50);
  tk_records_close(r);
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"solo_round_trip", test_solo_round_trip},
      {"truncated", test_truncated},
      {"faults", test_faults},
      {"riichi", test_riichi},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("decision records", tests);
}
