/* arenas/common/error.c — error codes and the first-error-wins tk_error record. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "taikai/common.h"

const char *tk_strerror(int code) {
  switch (code) {
#define TK__ERRNO_STR(c, name, msg) \
  case c:                           \
    return msg;
    TK_ERRNO_MAP(TK__ERRNO_STR)
#undef TK__ERRNO_STR
    case 0:
      return "success";
    default:
      return "unknown error";
  }
}

void tk_error_clear(tk_error *err) {
  if (!err) return;
  err->code = 0;
  err->position = -1;
  err->msg[0] = '\0';
}

int tk_error_set(tk_error *err, int code, int position, const char *fmt, ...) {
  if (!err || err->code != 0) return code;
  err->code = code;
  err->position = position;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return code;
}
