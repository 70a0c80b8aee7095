/* tests/fuzz/fuzz_weights.c — libFuzzer harness for the weights files (include/taikai/weights.h,
 * harness/records/): any bytes as a weights file, read by tk_weights_sparse_load (formats 2 and
 * 1's [nnz, 2] rows) and tk_weights_load (format 1), each told to expect the model, feature
 * version and shape the file's own header names, so the body is reached. The first input byte
 * chooses whether the harness appends the file's correct CRC-32 (most inputs: otherwise nearly
 * every mutation stops at the checksum) or writes the rest as it is. Checks besides "no crash,
 * no sanitizer report": a refusal has a TK_E code and a message naming the file; an accepted
 * sparse file has nnz <= prod(shape), strictly increasing indices below it and finite values,
 * and a format-2 one saves again to a file that loads to the same entries. Built with
 * -DTAIKAI_FUZZ=ON (tests/fuzz/README.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "taikai/weights.h"

#define CHECK(c)                                                                \
  do {                                                                          \
    if (!(c)) {                                                                 \
      fprintf(stderr, "fuzz_weights: check failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                                  \
    }                                                                           \
  } while (0)

static uint32_t u32_at(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_refusal(int rc, const tk_error *e, const char *path) {
  CHECK(rc < 0);
  CHECK(e->code == rc);
  CHECK(e->msg[0] != '\0');
  CHECK(memchr(e->msg, '\0', sizeof e->msg) != NULL);
  CHECK(strstr(e->msg, path) != NULL);
}

static int write_file(const char *path, const uint8_t *p, size_t n, int add_crc) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fwrite(p, 1, n, f) == n;
  if (add_crc) {
    uint32_t c = (uint32_t)crc32(0L, p, (uInt)n);
    uint8_t b[4] = {(uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16), (uint8_t)(c >> 24)};
    ok = ok && fwrite(b, 1, 4, f) == 4;
  }
  return fclose(f) == 0 && ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char path[64], again[64];
  snprintf(path, sizeof path, "/tmp/fuzz_weights.%d.tkw", (int)getpid());
  snprintf(again, sizeof again, "/tmp/fuzz_weights.%d.again.tkw", (int)getpid());
  const uint8_t *body = data + 1;
  size_t n = size - 1;
  if (write_file(path, body, n, (data[0] & 7) != 0)) return 0;

  /* the expectations: what the header names, where it names them */
  char model[33] = "m";
  uint32_t fv = 1, ndims = 1, shape[TK_WEIGHTS_MAX_DIMS] = {1, 1, 1, 1};
  if (n >= 8 + 4 + 32 + 4 + 4) {
    memcpy(model, body + 12, 32);
    model[32] = '\0';
    fv = u32_at(body + 44);
    ndims = u32_at(body + 48);
    if (ndims < 1 || ndims > TK_WEIGHTS_MAX_DIMS) ndims = 1;
    for (uint32_t d = 0; d < ndims && 52 + 4 * (d + 1) <= n; d++) shape[d] = u32_at(body + 52 + 4 * d);
  }

  tk_error err;
  tk_error_clear(&err);
  tk_weights_sparse s;
  memset(&s, 0, sizeof s);
  int rc = tk_weights_sparse_load(path, model, fv, ndims, shape, &s, &err);
  if (rc) {
    check_refusal(rc, &err, path);
  } else {
    CHECK(s.nnz <= s.count);
    for (size_t i = 0; i < s.nnz; i++) {
      CHECK(s.index[i] < s.count);
      CHECK(i == 0 || s.index[i] > s.index[i - 1]);
      CHECK(isfinite(s.values[i]));
    }
    if (s.format == TK_WEIGHTS_FORMAT_SPARSE) {
      tk_error_clear(&err);
      CHECK(tk_weights_sparse_save(again, &s, &err) == 0);
      tk_weights_sparse t;
      memset(&t, 0, sizeof t);
      tk_error_clear(&err);
      CHECK(tk_weights_sparse_load(again, model, fv, ndims, shape, &t, &err) == 0);
      CHECK(t.nnz == s.nnz);
      for (size_t i = 0; i < s.nnz; i++) CHECK(t.index[i] == s.index[i] && t.values[i] == s.values[i]);
      tk_weights_sparse_free(&t);
      unlink(again);
    }
    tk_weights_sparse_free(&s);
  }

  uint32_t any[TK_WEIGHTS_MAX_DIMS] = {TK_WEIGHTS_ANY, TK_WEIGHTS_ANY, TK_WEIGHTS_ANY,
                                       TK_WEIGHTS_ANY};
  tk_weights w;
  memset(&w, 0, sizeof w);
  tk_error_clear(&err);
  rc = tk_weights_load(path, model, fv, ndims, (data[0] & 8) ? any : shape, &w, &err);
  if (rc) {
    check_refusal(rc, &err, path);
  } else {
    size_t count = 1;
    for (uint32_t d = 0; d < w.ndims; d++) count *= w.shape[d];
    CHECK(count == w.count);
    tk_weights_free(&w);
  }
  unlink(path);
  return 0;
}
