/* taikai/sha256.h — SHA-256 (FIPS 180-4), the content hash that identifies a plugin file or a
 * weights file in a run's spec.json. A streaming context for bytes in memory, and one call
 * that hashes a whole file (with taikai/file.h the only reading of files in libtaikai, so that
 * a trainer prints its weights' hash exactly as the referee records it). */
#ifndef TAIKAI_SHA256_H
#define TAIKAI_SHA256_H

#include "taikai/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TK_SHA256_BYTES = 32, TK_SHA256_HEX = 65 /* 64 lower-case hex digits and a NUL */ };

/* A hash in progress; plain data, copy it to fork a computation. */
typedef struct tk_sha256 {
  uint32_t h[8];      /* the chaining state */
  uint64_t bytes;     /* message length so far */
  uint8_t block[64];  /* the partial block */
  size_t fill;        /* bytes in `block`, 0..63 */
} tk_sha256;

/* Starts a hash. */
TK_API void tk_sha256_init(tk_sha256 *c);
/* Adds `n` bytes (`data` may be NULL when n is 0). */
TK_API void tk_sha256_update(tk_sha256 *c, const void *data, size_t n);
/* Finishes: writes the 32-byte digest; `c` must be started again before reuse. */
TK_API void tk_sha256_final(tk_sha256 *c, uint8_t digest[TK_SHA256_BYTES]);
/* The digest as 64 lower-case hex digits and a NUL. */
TK_API void tk_sha256_hex(const uint8_t digest[TK_SHA256_BYTES], char hex[TK_SHA256_HEX]);
/* The hash of `n` bytes, as hex. */
TK_API void tk_sha256_bytes(const void *data, size_t n, char hex[TK_SHA256_HEX]);

/* The hash of the file at `path`, as hex. Returns 0, or the code of tk_file_open
 * (taikai/file.h: TK_ENOTFOUND, TK_EINVAL for a FIFO, a device, a folder or a file over 4 GiB)
 * or TK_EIO (cannot read it); the message names the path and the reason, and `hex` is then
 * the empty string. */
TK_API int tk_sha256_file(const char *path, char hex[TK_SHA256_HEX], tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
