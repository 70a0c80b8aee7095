/* tests/referee/test_ref_schedule.c — units of each format: counts, wall-major order, every
 * seating on every wall (round-robin: every permutation of every combination, in the documented
 * order), the per-wall limit, refusals of formats a game cannot play. */
#include <string.h>

#include "schedule.h"
#include "unit.h"

static void test_field(void) {
  tk_schedule s;
  CU_ASSERT_EQUAL_FATAL(tk_schedule_build(&s, TK_FORMAT_FIELD, 3, 1, 10, NULL), 0);
  CU_ASSERT_EQUAL(tk_schedule_units(&s), 30);
  uint64_t wall;
  const int *seat = tk_schedule_unit(&s, 7, &wall);
  CU_ASSERT_EQUAL(wall, 2);
  CU_ASSERT_EQUAL(seat[0], 1);
  tk_schedule_free(&s);
}

static void test_round_robin(void) {
  tk_schedule s;
  CU_ASSERT_EQUAL_FATAL(tk_schedule_build(&s, TK_FORMAT_ROUND_ROBIN, 5, 4, 2, NULL), 0);
  CU_ASSERT_EQUAL(s.per_wall, 5 * 24); /* C(5,4) combinations x 4! seatings */
  CU_ASSERT_EQUAL(tk_schedule_units(&s), 2 * 5 * 24);
  /* every permutation of every combination exactly once, none with an agent twice */
  int count[5][4], seen_perm[5 * 5 * 5 * 5];
  memset(count, 0, sizeof count);
  memset(seen_perm, 0, sizeof seen_perm);
  for (uint64_t u = 0; u < s.per_wall; u++) {
    uint64_t w;
    const int *row = tk_schedule_unit(&s, u, &w);
    TK_EQ(w, 0, "first wall");
    int seen = 0, code = 0;
    for (int i = 0; i < 4; i++) {
      count[row[i]][i]++;
      CU_ASSERT_FALSE(seen >> row[i] & 1);
      seen |= 1 << row[i];
      code = code * 5 + row[i];
    }
    TK_EQ(seen_perm[code]++, 0, "each seating once");
  }
  int distinct = 0;
  for (int c = 0; c < 5 * 5 * 5 * 5; c++) distinct += seen_perm[c];
  TK_EQ(distinct, 120, "all 5 x 24 seatings");
  /* each agent is in 4 combinations and sits in each seat in 3! of each one's seatings */
  for (int a = 0; a < 5; a++)
    for (int i = 0; i < 4; i++) TK_EQ(count[a][i], 4 * 6, "seat count");
  /* the documented order: combinations lexicographic, then lexicographic permutations */
  static const int want[][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1},
                                {0, 3, 1, 2}, {0, 3, 2, 1}, {1, 0, 2, 3}};
  for (int k = 0; k < 7; k++) {
    uint64_t w;
    const int *row = tk_schedule_unit(&s, (uint64_t)k, &w);
    for (int i = 0; i < 4; i++) TK_EQ(row[i], want[k][i], "lexicographic permutations");
  }
  uint64_t w;
  const int *row = tk_schedule_unit(&s, 23, &w);
  for (int i = 0; i < 4; i++) TK_EQ(row[i], 3 - i, "last permutation of 0123");
  row = tk_schedule_unit(&s, 24, &w);
  static const int second[4] = {0, 1, 2, 4};
  for (int i = 0; i < 4; i++) TK_EQ(row[i], second[i], "second combination 0124");
  row = tk_schedule_unit(&s, 120 + 119, &w); /* the last unit: wall 1, 4321 */
  TK_EQ(w, 1, "wall 1");
  for (int i = 0; i < 4; i++) TK_EQ(row[i], 4 - i, "last seating 4321");
  tk_schedule_free(&s);

  /* two seats: both orders of every pair */
  CU_ASSERT_EQUAL_FATAL(tk_schedule_build(&s, TK_FORMAT_ROUND_ROBIN, 3, 2, 1, NULL), 0);
  TK_EQ(s.per_wall, 3 * 2, "C(3,2) x 2!");
  static const int pairs[6][2] = {{0, 1}, {1, 0}, {0, 2}, {2, 0}, {1, 2}, {2, 1}};
  for (int k = 0; k < 6; k++) {
    row = tk_schedule_unit(&s, (uint64_t)k, &w);
    TK_EQ(row[0] * 10 + row[1], pairs[k][0] * 10 + pairs[k][1], "pair order");
  }
  tk_schedule_free(&s);
}

/* Round-robin grows as C(n, 4) x 24: 33 agents fit under the limit, 34 are refused with the
 * count spelled out. */
static void test_round_robin_limit(void) {
  tk_schedule s;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_schedule_build(&s, TK_FORMAT_ROUND_ROBIN, 8, 4, 1, &e), 0);
  TK_EQ(s.per_wall, 70 * 24, "8 agents: 1680 games per wall");
  tk_schedule_free(&s);
  CU_ASSERT_EQUAL_FATAL(tk_schedule_build(&s, TK_FORMAT_ROUND_ROBIN, 33, 4, 1, &e), 0);
  TK_EQ(s.per_wall, 40920 * 24, "33 agents");
  tk_schedule_free(&s);
  CU_ASSERT_EQUAL(tk_schedule_build(&s, TK_FORMAT_ROUND_ROBIN, 34, 4, 1, &e), TK_ERANGE);
  if (!strstr(e.msg, "C(34, 4) = 46376 tables x 24 seatings = 1113024 games per wall"))
    TK_FAILF("message: %s", e.msg);
  tk_schedule_free(&s); /* nothing allocated: a no-op */
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_schedule_build(&s, TK_FORMAT_ROUND_ROBIN, 64, 8, 1, &e), TK_ERANGE);
  tk_schedule_free(&s);
}

static void test_duplicate(void) {
  tk_schedule s;
  CU_ASSERT_EQUAL_FATAL(tk_schedule_build(&s, TK_FORMAT_DUPLICATE, 3, 4, 5, NULL), 0);
  CU_ASSERT_EQUAL(s.per_wall, 2 * 4);
  CU_ASSERT_EQUAL(tk_schedule_units(&s), 40);
  uint64_t w;
  const int *row = tk_schedule_unit(&s, 8 + 5, &w); /* wall 1, candidate 2 in seat 1 */
  CU_ASSERT_EQUAL(w, 1);
  int want[4] = {0, 2, 0, 0};
  for (int i = 0; i < 4; i++) TK_EQ(row[i], want[i], "duplicate seating");
  tk_schedule_free(&s);
}

static void test_refusals(void) {
  tk_schedule s;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_schedule_build(&s, TK_FORMAT_ROUND_ROBIN, 3, 1, 5, &e), TK_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "use field"));
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_schedule_build(&s, TK_FORMAT_FIELD, 3, 4, 5, &e), TK_EINVAL);
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_schedule_build(&s, TK_FORMAT_ROUND_ROBIN, 3, 4, 5, &e), TK_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "at least 4 agents"));
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_schedule_build(&s, TK_FORMAT_DUPLICATE, 1, 4, 5, &e), TK_EINVAL);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"field", test_field},
      {"round_robin", test_round_robin},
      {"round_robin_limit", test_round_robin_limit},
      {"duplicate", test_duplicate},
      {"refusals", test_refusals},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee schedule", tests);
}
