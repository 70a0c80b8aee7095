/* harness/records/weights.c — learned agents' weights files (taikai/weights.h). Every field is
 * checked before any value is used, so a wrong or damaged file is refused with its name and the
 * field at fault, never half-read. Format 1 (dense f64) and format 2 (sparse: varint index
 * deltas, float32 values); the sparse reader takes format-1 [nnz, 2] rows too. */
#define _GNU_SOURCE 1 /* dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "taikai/file.h"
#include "taikai/weights.h"

static const char MAGIC[8] = {'T', 'K', 'W', 'E', 'I', 'G', 'H', 'T'};

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
  return v;
}

void tk_weights_free(tk_weights *w) {
  if (!w) return;
  free(w->values);
  w->values = NULL;
}

enum { WEIGHTS_MAX_BYTES = 1u << 31 }; /* 2 GiB */

/* Reads the whole of `path` into *buf (owned) and *len: a regular file of at most 2 GiB
 * (tk_file_open: a FIFO, /dev/zero or /dev/urandom is refused at once). Returns 0 or
 * TK_ENOTFOUND / TK_EINVAL / TK_EIO / TK_EPARSE / TK_ENOMEM naming the file. */
static int read_all(const char *path, uint8_t **out, size_t *out_len, tk_error *err) {
  *out = NULL;
  *out_len = 0;
  tk_error fe;
  tk_error_clear(&fe);
  int fd = tk_file_open(path, WEIGHTS_MAX_BYTES, NULL, &fe);
  if (fd < 0) return tk_error_set(err, fd, -1, "weights %s", fe.msg);
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    close(fd);
    return tk_error_set(err, TK_EIO, -1, "weights %s: %s", path, strerror(errno));
  }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? 2 * cap : 1 << 16;
      if (cap > (size_t)WEIGHTS_MAX_BYTES + (1 << 16)) { /* the file grew while read */
        fclose(f);
        free(buf);
        return tk_error_set(err, TK_EPARSE, -1, "weights %s: larger than 2 GiB", path);
      }
      uint8_t *nb = realloc(buf, cap);
      if (!nb) {
        fclose(f);
        free(buf);
        return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
      }
      buf = nb;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (!got) break;
  }
  fclose(f);
  *out = buf;
  *out_len = len;
  return 0;
}

/* zlib's crc32 over a length that may exceed its uInt. */
static uint32_t crc_of(const uint8_t *p, size_t n) {
  uLong c = crc32(0L, Z_NULL, 0);
  while (n) {
    uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
    c = crc32(c, p, k);
    p += k;
    n -= k;
  }
  return (uint32_t)c;
}

enum { HEAD = 8 + 4 + 32 + 4 + 4 }; /* magic, format, model, feature_version, ndims */

/* Checks what both formats share — the magic, the format (one `want`, or either when want is
 * 0), the model and the feature version — and sets *format. Returns 0 or a TK_E* code. */
static int check_head(const char *path, const uint8_t *buf, size_t len, uint32_t want,
                      const char *model, uint32_t feature_version, uint32_t *format,
                      tk_error *err) {
  if (len < HEAD + 4 || memcmp(buf, MAGIC, 8))
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: not a taikai weights file (no TKWEIGHT "
                        "header)", path);
  *format = get32(buf + 8);
  char name[32];
  memcpy(name, buf + 12, 31);
  name[31] = '\0';
  uint32_t fv = get32(buf + 44);
  if (want && *format != want) {
    if (*format == TK_WEIGHTS_FORMAT_SPARSE)
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'format': 2 (sparse), this "
                          "reader takes %u: load it with tk_weights_sparse_load", path, want);
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'format': %u, this build reads %u",
                        path, *format, want);
  }
  if (!want && *format != TK_WEIGHTS_FORMAT && *format != TK_WEIGHTS_FORMAT_SPARSE)
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'format': %u, this build reads "
                        "%u and %u", path, *format, TK_WEIGHTS_FORMAT, TK_WEIGHTS_FORMAT_SPARSE);
  if (strcmp(name, model))
    return tk_error_set(err, TK_EABI, -1, "weights %s: field 'model': '%s', expected '%s'", path,
                        name, model);
  if (fv != feature_version)
    return tk_error_set(err, TK_EABI, -1, "weights %s: field 'feature_version': %u, this %s has "
                        "feature version %u: retrain, or use weights made for it", path, fv,
                        model, feature_version);
  return 0;
}

/* Format 1 from the bytes of `path` (tk_weights_load's contract). */
static int load_dense(const char *path, const uint8_t *buf, size_t len, const char *model,
                      uint32_t feature_version, uint32_t ndims, const uint32_t *shape,
                      tk_weights *w, tk_error *err) {
  memset(w, 0, sizeof *w);
  uint32_t format;
  int rc = check_head(path, buf, len, TK_WEIGHTS_FORMAT, model, feature_version, &format, err);
  if (rc) return rc;
  memcpy(w->model, buf + 12, 31);
  w->feature_version = get32(buf + 44);
  w->ndims = get32(buf + 48);
  size_t head = HEAD;
  if (w->ndims != ndims || len < head + 4 * (size_t)ndims)
    return tk_error_set(err, TK_EABI, -1, "weights %s: field 'ndims': %u, expected %u", path,
                        w->ndims, ndims);
  w->count = 1;
  for (uint32_t i = 0; i < ndims; i++) {
    w->shape[i] = get32(buf + head + 4 * i);
    if (shape[i] != TK_WEIGHTS_ANY && w->shape[i] != shape[i])
      return tk_error_set(err, TK_EABI, -1, "weights %s: field 'shape[%u]': %u, expected %u", path,
                          i, w->shape[i], shape[i]);
    if (w->shape[i] && w->count > SIZE_MAX / 16 / w->shape[i]) /* 8 * count must not wrap */
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'shape[%u]': %u: too many values",
                          path, i, w->shape[i]);
    w->count *= w->shape[i];
  }
  size_t body = head + 4 * (size_t)ndims, need = body + 8 * w->count + 4;
  if (len != need)
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: %zu bytes, its shape needs %zu (%s)",
                        path, len, need, len < need ? "cut short" : "bytes left over");
  uint32_t crc = crc_of(buf, need - 4);
  if (crc != get32(buf + need - 4))
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'crc32': checksum mismatch (the "
                        "file is damaged)", path);
  w->values = malloc(w->count * sizeof *w->values + 1);
  if (!w->values) return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  for (size_t i = 0; i < w->count; i++) {
    uint64_t bits = (uint64_t)get32(buf + body + 8 * i) |
                    (uint64_t)get32(buf + body + 8 * i + 4) << 32;
    memcpy(&w->values[i], &bits, sizeof bits);
    if (!isfinite(w->values[i]))
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'values[%zu]': %g (a weight "
                          "must be finite)", path, i, w->values[i]);
  }
  return 0;
}

int tk_weights_load(const char *path, const char *model, uint32_t feature_version,
                    uint32_t ndims, const uint32_t *shape, tk_weights *w, tk_error *err) {
  memset(w, 0, sizeof *w);
  uint8_t *buf;
  size_t len;
  int rc = read_all(path, &buf, &len, err);
  if (rc) return rc;
  rc = load_dense(path, buf, len, model, feature_version, ndims, shape, w, err);
  free(buf);
  if (rc) tk_weights_free(w);
  return rc;
}

/* Writes len bytes to `path` through `path`.tmp renamed over it. Returns 0 or TK_EIO. */
static int write_atomic(const char *path, const uint8_t *buf, size_t len, tk_error *err) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  int rc = 0;
  if (!f || fwrite(buf, 1, len, f) != len) rc = TK_EIO;
  if (f && fclose(f)) rc = TK_EIO;
  if (!rc && rename(tmp, path)) rc = TK_EIO;
  if (rc) return tk_error_set(err, rc, -1, "weights %s: cannot write: %s", path, strerror(errno));
  return 0;
}

/* The header both formats share, into buf (HEAD + 4 * ndims bytes). */
static size_t put_head(uint8_t *buf, uint32_t format, const char *model, uint32_t feature_version,
                       uint32_t ndims, const uint32_t *shape) {
  memcpy(buf, MAGIC, 8);
  put32(buf + 8, format);
  memset(buf + 12, 0, 32);
  memcpy(buf + 12, model, strnlen(model, 31));
  put32(buf + 44, feature_version);
  put32(buf + 48, ndims);
  for (uint32_t i = 0; i < ndims; i++) put32(buf + HEAD + 4 * i, shape[i]);
  return HEAD + 4 * (size_t)ndims;
}

int tk_weights_save(const char *path, const tk_weights *w, tk_error *err) {
  size_t body = HEAD + 4 * (size_t)w->ndims;
  size_t len = body + 8 * w->count + 4;
  uint8_t *buf = calloc(1, len);
  if (!buf) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  put_head(buf, TK_WEIGHTS_FORMAT, w->model, w->feature_version, w->ndims, w->shape);
  for (size_t i = 0; i < w->count; i++) {
    uint64_t bits;
    memcpy(&bits, &w->values[i], sizeof bits);
    put32(buf + body + 8 * i, (uint32_t)bits);
    put32(buf + body + 8 * i + 4, (uint32_t)(bits >> 32));
  }
  put32(buf + len - 4, crc_of(buf, len - 4));
  int rc = write_atomic(path, buf, len, err);
  free(buf);
  return rc;
}

/* ---- format 2 ---- */

void tk_weights_sparse_free(tk_weights_sparse *s) {
  if (!s) return;
  free(s->index);
  free(s->values);
  s->index = NULL;
  s->values = NULL;
}

/* The product of a shape, or 0 with *overflow set when it does not fit 64 bits. */
static uint64_t shape_count(uint32_t ndims, const uint32_t *shape, int *overflow) {
  uint64_t c = 1;
  *overflow = 0;
  for (uint32_t i = 0; i < ndims; i++) {
    if (shape[i] && c > UINT64_MAX / shape[i]) {
      *overflow = 1;
      return 0;
    }
    c *= shape[i];
  }
  return c;
}

/* A double's float32 rounding, when it is finite and within float32's range. */
static int to_f32(double v, float *out) {
  if (!isfinite(v) || fabs(v) > FLT_MAX) return -1;
  *out = (float)v;
  return 0;
}

int tk_weights_sparse_save(const char *path, const tk_weights_sparse *s, tk_error *err) {
  if (s->ndims > TK_WEIGHTS_MAX_DIMS)
    return tk_error_set(err, TK_EINVAL, -1, "weights %s: ndims %u, at most %d", path, s->ndims,
                        TK_WEIGHTS_MAX_DIMS);
  int over;
  uint64_t count = shape_count(s->ndims, s->shape, &over);
  if (over)
    return tk_error_set(err, TK_EINVAL, -1, "weights %s: the shape has more than 2^64 entries",
                        path);
  for (size_t i = 0; i < s->nnz; i++) {
    float f;
    if (s->index[i] >= count)
      return tk_error_set(err, TK_EINVAL, -1, "weights %s: entry %zu: index %llu, not below %llu "
                          "(the entries of the shape)", path, i,
                          (unsigned long long)s->index[i], (unsigned long long)count);
    if (i && s->index[i] <= s->index[i - 1])
      return tk_error_set(err, TK_EINVAL, -1, "weights %s: entry %zu: index %llu after %llu (the "
                          "indices must be strictly increasing)", path, i,
                          (unsigned long long)s->index[i], (unsigned long long)s->index[i - 1]);
    if (to_f32(s->values[i], &f))
      return tk_error_set(err, TK_EINVAL, -1, "weights %s: entry %zu (index %llu): value %.17g "
                          "(not a finite float32)", path, i, (unsigned long long)s->index[i],
                          s->values[i]);
  }
  size_t body = HEAD + 4 * (size_t)s->ndims;
  if (s->nnz > (SIZE_MAX - body - 12) / 14)
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  uint8_t *buf = malloc(body + 8 + 14 * s->nnz + 4);
  if (!buf) return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  size_t p = put_head(buf, TK_WEIGHTS_FORMAT_SPARSE, s->model, s->feature_version, s->ndims,
                      s->shape);
  put32(buf + p, (uint32_t)s->nnz);
  put32(buf + p + 4, (uint32_t)((uint64_t)s->nnz >> 32));
  p += 8;
  for (size_t i = 0; i < s->nnz; i++) {
    uint64_t d = i ? s->index[i] - s->index[i - 1] : s->index[0];
    do {
      uint8_t b = d & 0x7f;
      d >>= 7;
      buf[p++] = d ? (uint8_t)(b | 0x80) : b;
    } while (d);
  }
  for (size_t i = 0; i < s->nnz; i++) {
    float f = (float)s->values[i]; /* within range: checked above */
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    put32(buf + p, bits);
    p += 4;
  }
  put32(buf + p, crc_of(buf, p));
  p += 4;
  int rc = write_atomic(path, buf, p, err);
  free(buf);
  return rc;
}

int tk_weights_sparse_save_dense(const char *path, const tk_weights *w, size_t *nnz,
                                 tk_error *err) {
  tk_weights_sparse s;
  memset(&s, 0, sizeof s);
  memcpy(s.model, w->model, sizeof s.model);
  s.feature_version = w->feature_version;
  s.ndims = w->ndims;
  if (w->ndims > TK_WEIGHTS_MAX_DIMS)
    return tk_error_set(err, TK_EINVAL, -1, "weights %s: ndims %u, at most %d", path, w->ndims,
                        TK_WEIGHTS_MAX_DIMS);
  memcpy(s.shape, w->shape, sizeof s.shape);
  int over;
  uint64_t count = shape_count(w->ndims, w->shape, &over);
  if (over || count != w->count)
    return tk_error_set(err, TK_EINVAL, -1, "weights %s: count %zu is not the product of the "
                        "shape", path, w->count);
  size_t n = 0;
  for (size_t i = 0; i < w->count; i++) {
    float f;
    if (to_f32(w->values[i], &f))
      return tk_error_set(err, TK_EINVAL, -1, "weights %s: entry %zu: value %.17g (not a finite "
                          "float32)", path, i, w->values[i]);
    n += f != 0;
  }
  s.nnz = n;
  s.index = malloc((n + 1) * sizeof *s.index);
  s.values = malloc((n + 1) * sizeof *s.values);
  int rc = 0;
  if (!s.index || !s.values) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  } else {
    size_t k = 0;
    for (size_t i = 0; i < w->count; i++)
      if ((float)w->values[i] != 0) {
        s.index[k] = i;
        s.values[k++] = w->values[i];
      }
    rc = tk_weights_sparse_save(path, &s, err);
  }
  tk_weights_sparse_free(&s);
  if (!rc && nnz) *nnz = n;
  return rc;
}

/* Format-1 rows [nnz, 2] (index, value) into `s`; s->count already set. */
static int load_rows(const char *path, const uint8_t *buf, size_t len, const char *model,
                     uint32_t feature_version, tk_weights_sparse *s, tk_error *err) {
  const uint32_t rows[2] = {TK_WEIGHTS_ANY, 2};
  tk_weights w;
  int rc = load_dense(path, buf, len, model, feature_version, 2, rows, &w, err);
  if (rc) {
    tk_weights_free(&w);
    return rc;
  }
  s->nnz = w.shape[0];
  s->index = malloc((s->nnz + 1) * sizeof *s->index);
  s->values = malloc((s->nnz + 1) * sizeof *s->values);
  if (!s->index || !s->values) {
    tk_weights_free(&w);
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  }
  double limit = (double)s->count, prev = -1;
  for (size_t i = 0; i < s->nnz; i++) {
    double x = w.values[2 * i], v = w.values[2 * i + 1];
    if (!(x >= 0 && x < limit && x == floor(x) && x > prev)) {
      rc = tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'values[%zu][0]': %.17g (an index "
                        "must be a whole number below %llu, ascending)", path, i, x,
                        (unsigned long long)s->count);
      break;
    }
    if (!isfinite(v)) {
      rc = tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'values[%zu][1]': %.17g (a weight "
                        "must be finite)", path, i, v);
      break;
    }
    s->index[i] = (uint64_t)x;
    s->values[i] = v;
    prev = x;
  }
  tk_weights_free(&w);
  return rc;
}

/* Format 2 into `s`, the head already checked; s->count already set. */
static int load_sparse(const char *path, const uint8_t *buf, size_t len, uint32_t ndims,
                       const uint32_t *shape, tk_weights_sparse *s, tk_error *err) {
  uint32_t nd = get32(buf + 48);
  if (nd != ndims || len < HEAD + 4 * (size_t)nd)
    return tk_error_set(err, TK_EABI, -1, "weights %s: field 'ndims': %u, expected %u", path, nd,
                        ndims);
  for (uint32_t i = 0; i < ndims; i++) {
    uint32_t got = get32(buf + HEAD + 4 * i);
    if (got != shape[i])
      return tk_error_set(err, TK_EABI, -1, "weights %s: field 'shape[%u]': %u, expected %u", path,
                          i, got, shape[i]);
  }
  size_t p = HEAD + 4 * (size_t)ndims;
  if (len < p + 8 + 4)
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: %zu bytes, cut short before field "
                        "'nnz'", path, len);
  uint64_t nnz = (uint64_t)get32(buf + p) | (uint64_t)get32(buf + p + 4) << 32;
  p += 8;
  if (nnz > s->count)
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'nnz': %llu, more than the %llu "
                        "entries of its shape", path, (unsigned long long)nnz,
                        (unsigned long long)s->count);
  /* every entry takes at least 5 bytes (a varint byte and a float) */
  if ((len - p - 4) / 5 < nnz)
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: %zu bytes, cut short: field 'nnz' %llu "
                        "needs at least %llu", path, len, (unsigned long long)nnz,
                        (unsigned long long)(p + 5 * nnz + 4));
  /* where the varints end: the rest must be exactly the values and the checksum */
  size_t vend = len - 4 - 4 * (size_t)nnz, q = p;
  for (size_t i = 0; i < nnz; i++) {
    size_t start = q;
    while (q < vend && (buf[q] & 0x80)) q++;
    if (q >= vend)
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: %zu bytes, cut short in field "
                          "'index[%zu]'", path, len, i);
    q++;
    if (q - start > 10)
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'index[%zu]': a varint of %zu "
                          "bytes (at most 10)", path, i, q - start);
  }
  if (q != vend)
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: %zu bytes, its %llu entries need %zu "
                        "(bytes left over)", path, len, (unsigned long long)nnz,
                        len - (vend - q));
  uint32_t crc = crc_of(buf, len - 4), stored = get32(buf + len - 4);
  if (crc != stored)
    return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'crc32': %08x, the bytes give "
                        "%08x (the file is damaged)", path, stored, crc);
  s->nnz = (size_t)nnz;
  s->index = malloc((s->nnz + 1) * sizeof *s->index);
  s->values = malloc((s->nnz + 1) * sizeof *s->values);
  if (!s->index || !s->values)
    return tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
  uint64_t prev = 0;
  for (size_t i = 0; i < s->nnz; i++) {
    uint64_t d = 0;
    for (int shift = 0;; shift += 7) {
      uint8_t b = buf[p++];
      if (shift == 63 && (b & 0x7f) > 1)
        return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'index[%zu]': a varint beyond "
                            "64 bits", path, i);
      d |= (uint64_t)(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    if (i && d == 0)
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'index[%zu]': %llu again (delta "
                          "0: the indices must be strictly increasing)", path, i,
                          (unsigned long long)prev);
    if (i && d > UINT64_MAX - prev)
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'index[%zu]': %llu + %llu, not "
                          "below %llu (the entries of its shape)", path, i,
                          (unsigned long long)prev, (unsigned long long)d,
                          (unsigned long long)s->count);
    uint64_t x = i ? prev + d : d;
    if (x >= s->count)
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'index[%zu]': %llu, not below "
                          "%llu (the entries of its shape)", path, i, (unsigned long long)x,
                          (unsigned long long)s->count);
    s->index[i] = prev = x;
  }
  for (size_t i = 0; i < s->nnz; i++, p += 4) {
    uint32_t bits = get32(buf + p);
    float f;
    memcpy(&f, &bits, sizeof f);
    if (!isfinite(f))
      return tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'values[%zu]': %g (index %llu: a "
                          "weight must be finite)", path, i, (double)f,
                          (unsigned long long)s->index[i]);
    s->values[i] = f;
  }
  return 0;
}

int tk_weights_sparse_load(const char *path, const char *model, uint32_t feature_version,
                           uint32_t ndims, const uint32_t *shape, tk_weights_sparse *s,
                           tk_error *err) {
  memset(s, 0, sizeof *s);
  if (ndims > TK_WEIGHTS_MAX_DIMS)
    return tk_error_set(err, TK_EINVAL, -1, "weights %s: ndims %u, at most %d", path, ndims,
                        TK_WEIGHTS_MAX_DIMS);
  int over;
  s->count = shape_count(ndims, shape, &over);
  if (over)
    return tk_error_set(err, TK_EINVAL, -1, "weights %s: the expected shape has more than 2^64 "
                        "entries", path);
  uint8_t *buf;
  size_t len;
  int rc = read_all(path, &buf, &len, err);
  if (rc) return rc;
  uint32_t format;
  rc = check_head(path, buf, len, 0, model, feature_version, &format, err);
  if (!rc) {
    snprintf(s->model, sizeof s->model, "%s", model);
    s->feature_version = feature_version;
    s->ndims = ndims;
    memcpy(s->shape, shape, ndims * sizeof *shape);
    s->format = format;
    rc = format == TK_WEIGHTS_FORMAT
             ? load_rows(path, buf, len, model, feature_version, s, err)
             : load_sparse(path, buf, len, ndims, shape, s, err);
  }
  free(buf);
  if (rc) tk_weights_sparse_free(s);
  return rc;
}

int tk_weights_sparse_load_dense(const char *path, const char *model, uint32_t feature_version,
                                 uint32_t ndims, const uint32_t *shape, double *dense,
                                 size_t *nnz, tk_error *err) {
  tk_weights_sparse s;
  int rc = tk_weights_sparse_load(path, model, feature_version, ndims, shape, &s, err);
  if (rc) return rc;
  if (s.count > SIZE_MAX / sizeof *dense) {
    tk_weights_sparse_free(&s);
    return tk_error_set(err, TK_EINVAL, -1, "weights %s: %llu entries do not fit in memory", path,
                        (unsigned long long)s.count);
  }
  memset(dense, 0, (size_t)s.count * sizeof *dense);
  for (size_t i = 0; i < s.nnz; i++) dense[s.index[i]] = s.values[i];
  if (nnz) *nnz = s.nnz;
  tk_weights_sparse_free(&s);
  return 0;
}

int tk_weights_beside(const void *symbol, const char *name, char *out, size_t cap) {
  Dl_info info;
  void *sym;
  memcpy(&sym, &symbol, sizeof sym);
  if (!dladdr(sym, &info) || !info.dli_fname) return TK_ENOTFOUND;
  const char *slash = strrchr(info.dli_fname, '/');
  int dirlen = slash ? (int)(slash - info.dli_fname) : 1;
  int n = snprintf(out, cap, "%.*s/%s", dirlen, slash ? info.dli_fname : ".", name);
  return n > 0 && (size_t)n < cap ? 0 : TK_ENOTFOUND;
}
