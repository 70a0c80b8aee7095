/* tests/referee/test_ref_schedule.c — units of each format: counts, wall-major order, every
 * seating on every wall, refusals of formats a game cannot play. */
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
  CU_ASSERT_EQUAL(s.per_wall, 5 * 4); /* C(5,4) combinations x 4 rotations */
  /* each agent sits in each seat equally often */
  int count[5][4];
  memset(count, 0, sizeof count);
  for (uint64_t u = 0; u < s.per_wall; u++) {
    uint64_t w;
    const int *row = tk_schedule_unit(&s, u, &w);
    int seen = 0;
    for (int i = 0; i < 4; i++) {
      count[row[i]][i]++;
      CU_ASSERT_FALSE(seen >> row[i] & 1);
      seen |= 1 << row[i];
    }
  }
  for (int a = 0; a < 5; a++)
    for (int i = 0; i < 4; i++) TK_EQ(count[a][i], 4, "seat count");
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
      {"duplicate", test_duplicate},
      {"refusals", test_refusals},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee schedule", tests);
}
