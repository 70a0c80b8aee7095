/* tests/unit.c — the CUnit runner behind tests/unit.h. */
#include <stdarg.h>
#include <stdio.h>

#include "unit.h"

void tk_unit_fail(const char *file, int line, const char *fmt, ...) {
  static char buf[8][512];
  static int slot;
  char *b = buf[slot++ & 7]; /* CUnit keeps the pointer until the report is printed */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, 512, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s:%d: %s\n", file, line, b);
  CU_assertImplementation(CU_FALSE, (unsigned)line, "see the FAIL line above", file, "", CU_FALSE);
}

int tk_unit_run(const char *name, CU_TestInfo *tests) {
  if (CU_initialize_registry() != CUE_SUCCESS) return 2;
  CU_SuiteInfo suites[] = {{name, NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
  if (CU_register_suites(suites) != CUE_SUCCESS) {
    fprintf(stderr, "cannot register suite %s: %s\n", name, CU_get_error_msg());
    CU_cleanup_registry();
    return 2;
  }
  CU_basic_set_mode(CU_BRM_VERBOSE);
  CU_basic_run_tests();
  unsigned failures = CU_get_number_of_failures();
  unsigned ran = CU_get_number_of_tests_run();
  CU_cleanup_registry();
  if (ran == 0) return 3;
  return failures > 100 ? 100 : (int)failures;
}
