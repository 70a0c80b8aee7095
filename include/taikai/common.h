/* taikai/common.h — error codes and the caller-owned error record shared by every module.
 *
 * Functions return 0 (or a non-negative count) on success and a negative TK_E... code on
 * failure. Detail goes into a caller-owned tk_error (may be NULL; the first error wins), so
 * no heap memory crosses a module or plugin boundary. */
#ifndef TAIKAI_COMMON_H
#define TAIKAI_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TK_API __attribute__((visibility("default")))
#define TK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TK_API
#define TK_PRINTF(f, a)
#endif

/* A compile-time check usable in C11 and C++11 headers alike (C++ has no _Static_assert). */
#ifdef __cplusplus
#define TK_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define TK_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* X-macro: code, name, message. Codes are negative and stable. */
#define TK_ERRNO_MAP(X)                                              \
  X(-1, TK_EINVAL, "invalid argument")                              \
  X(-2, TK_EPARSE, "parse error")                                   \
  X(-3, TK_ERANGE, "value out of range")                            \
  X(-4, TK_ENOMEM, "out of memory")                                 \
  X(-5, TK_EIO, "input/output error")                               \
  X(-6, TK_EABI, "plugin ABI mismatch")                             \
  X(-7, TK_ENOTFOUND, "not found")                                  \
  X(-8, TK_ESTATE, "operation not valid in this state")             \
  X(-9, TK_EILLEGAL, "illegal action")                              \
  X(-10, TK_ENOYAKU, "complete hand without yaku")                  \
  X(-11, TK_ENOTCOMPLETE, "hand is not complete")                   \
  X(-12, TK_EFAULT, "agent fault")

enum tk_errno {
#define TK__ERRNO_ENUM(code, name, msg) name = code,
  TK_ERRNO_MAP(TK__ERRNO_ENUM)
#undef TK__ERRNO_ENUM
  TK_OK = 0
};

/* Returns a static string describing `code` ("unknown error" for unknown codes). */
TK_API const char *tk_strerror(int code);

#define TK_ERROR_MSG_MAX 1024

/* Caller-owned error detail: the first error recorded wins. */
typedef struct tk_error {
  int code;                    /* TK_E... or 0 while no error */
  int position;                /* character position for parse errors (0-based), else -1 */
  char msg[TK_ERROR_MSG_MAX];  /* human-readable detail, NUL-terminated */
} tk_error;

/* Clears `err` (NULL is fine). */
TK_API void tk_error_clear(tk_error *err);
/* Records an error unless one is already recorded; returns `code`. `err` may be NULL. */
TK_API int tk_error_set(tk_error *err, int code, int position, const char *fmt, ...)
    TK_PRINTF(4, 5);

#ifdef __cplusplus
}
#endif
#endif
