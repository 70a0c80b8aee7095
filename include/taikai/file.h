/* taikai/file.h — opening a file that taikai reads or hashes: a regular file, never a FIFO,
 * a device, a socket or a folder, and of bounded size.
 *
 * Every file named by a user (a spec, a plugin's `file` entry, a weights parameter, a run
 * folder's games.jsonl or spec.json, a records file) goes through these calls, so that a name
 * like /dev/zero, /dev/urandom or a FIFO is refused at once with the path named, instead of
 * being read or hashed forever (or blocking in open(2), as a FIFO with no writer does). The
 * open itself does not block: it is made with O_NONBLOCK, checked with fstat, and only then
 * switched back to blocking reads. */
#ifndef TAIKAI_FILE_H
#define TAIKAI_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "taikai/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The default bound of tk_file_open*: files that are read whole into memory (JSON, weights)
 * stay far below it; streams read line by line (games.jsonl, records.tkr, logs) pass
 * TK_FILE_ANY_SIZE. */
#define TK_FILE_MAX_BYTES ((uint64_t)1 << 32) /* 4 GiB */
#define TK_FILE_ANY_SIZE UINT64_MAX

/* Opens `path` read-only if it is a regular file of at most `max_bytes` bytes (0 means
 * TK_FILE_MAX_BYTES). Returns a descriptor (close-on-exec) and, when `size` is not NULL, the
 * file's size; or a negative TK_E... code with the message naming the path and what it is:
 * TK_ENOTFOUND (no such file), TK_EINVAL (not a regular file: "a FIFO", "a character device",
 * "a folder", ...; or larger than the bound), TK_EIO (any other failure). */
TK_API int tk_file_open(const char *path, uint64_t max_bytes, uint64_t *size, tk_error *err);

/* The same as tk_file_open, as a stdio stream opened with `mode` ("r" or "rb") in `*out`.
 * Returns 0, or the code tk_file_open gives (`*out` is then NULL). */
TK_API int tk_file_fopen(const char *path, const char *mode, uint64_t max_bytes, FILE **out,
                         tk_error *err);

/* 0 if `path` names a regular file of at most `max_bytes` (0: TK_FILE_MAX_BYTES), else the
 * error tk_file_open would give. Does not open it (lstat is not used: a symbolic link to a
 * regular file is a regular file). */
TK_API int tk_file_check(const char *path, uint64_t max_bytes, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
