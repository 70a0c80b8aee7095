/* tests/unit.h — a small runner over CUnit: each test program registers one suite and exits
 * with the number of failures (capped), so each is its own ctest entry. */
#ifndef TAIKAI_TESTS_UNIT_H
#define TAIKAI_TESTS_UNIT_H
#include <CUnit/Basic.h>

/* Runs the NULL-terminated `tests` as suite `name`; returns the process exit status. */
int tk_unit_run(const char *name, CU_TestInfo *tests);

/* Records a failure with a formatted message (CUnit's own macros take only fixed text). */
void tk_unit_fail(const char *file, int line, const char *fmt, ...);
#define TK_FAILF(...) tk_unit_fail(__FILE__, __LINE__, __VA_ARGS__)
/* Asserts integer equality, printing both values and a context string on failure. */
#define TK_EQ(actual, expected, ctx)                                                          \
  do {                                                                                        \
    long long a_ = (long long)(actual), e_ = (long long)(expected);                           \
    if (a_ != e_) TK_FAILF("%s: %s = %lld, expected %lld", (ctx), #actual, a_, e_);          \
    else CU_PASS(#actual);                                                                    \
  } while (0)
#endif
