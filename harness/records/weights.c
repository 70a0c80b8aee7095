/* harness/records/weights.c — learned agents' weights files (taikai/weights.h). Every field is
 * checked before any value is used, so a wrong or damaged file is refused with its name and the
 * field at fault, never half-read. */
#define _GNU_SOURCE 1 /* dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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

int tk_weights_load(const char *path, const char *model, uint32_t feature_version,
                    uint32_t ndims, const uint32_t *shape, tk_weights *w, tk_error *err) {
  memset(w, 0, sizeof *w);
  FILE *f = fopen(path, "rb");
  if (!f) return tk_error_set(err, TK_EIO, -1, "weights %s: %s", path, strerror(errno));
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? 2 * cap : 1 << 16;
      if (cap > ((size_t)1 << 31)) {
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
  int rc = 0;
  size_t head = 8 + 4 + 32 + 4 + 4;
  if (len < head + 4 || memcmp(buf, MAGIC, 8)) {
    rc = tk_error_set(err, TK_EPARSE, -1, "weights %s: not a taikai weights file (no TKWEIGHT "
                      "header)", path);
    goto out;
  }
  uint32_t format = get32(buf + 8);
  memcpy(w->model, buf + 12, 31);
  w->model[31] = '\0';
  w->feature_version = get32(buf + 44);
  w->ndims = get32(buf + 48);
  if (format != TK_WEIGHTS_FORMAT) {
    rc = tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'format': %u, this build reads %u",
                      path, format, TK_WEIGHTS_FORMAT);
    goto out;
  }
  if (strcmp(w->model, model)) {
    rc = tk_error_set(err, TK_EABI, -1, "weights %s: field 'model': '%s', expected '%s'", path,
                      w->model, model);
    goto out;
  }
  if (w->feature_version != feature_version) {
    rc = tk_error_set(err, TK_EABI, -1, "weights %s: field 'feature_version': %u, this %s has "
                      "feature version %u: retrain, or use weights made for it", path,
                      w->feature_version, model, feature_version);
    goto out;
  }
  if (w->ndims != ndims || len < head + 4 * (size_t)ndims) {
    rc = tk_error_set(err, TK_EABI, -1, "weights %s: field 'ndims': %u, expected %u", path,
                      w->ndims, ndims);
    goto out;
  }
  w->count = 1;
  for (uint32_t i = 0; i < ndims; i++) {
    w->shape[i] = get32(buf + head + 4 * i);
    if (shape[i] != TK_WEIGHTS_ANY && w->shape[i] != shape[i]) {
      rc = tk_error_set(err, TK_EABI, -1, "weights %s: field 'shape[%u]': %u, expected %u", path,
                        i, w->shape[i], shape[i]);
      goto out;
    }
    if (w->shape[i] && w->count > SIZE_MAX / 16 / w->shape[i]) { /* 8 * count must not wrap */
      rc = tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'shape[%u]': %u: too many values",
                        path, i, w->shape[i]);
      goto out;
    }
    w->count *= w->shape[i];
  }
  size_t body = head + 4 * (size_t)ndims, need = body + 8 * w->count + 4;
  if (len != need) {
    rc = tk_error_set(err, TK_EPARSE, -1, "weights %s: %zu bytes, its shape needs %zu (%s)", path,
                      len, need, len < need ? "cut short" : "bytes left over");
    goto out;
  }
  uint32_t crc = (uint32_t)crc32(0L, buf, (uInt)(need - 4));
  if (crc != get32(buf + need - 4)) {
    rc = tk_error_set(err, TK_EPARSE, -1, "weights %s: field 'crc32': checksum mismatch (the "
                      "file is damaged)", path);
    goto out;
  }
  w->values = malloc(w->count * sizeof *w->values + 1);
  if (!w->values) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "weights %s: out of memory", path);
    goto out;
  }
  for (size_t i = 0; i < w->count; i++) {
    uint64_t bits = (uint64_t)get32(buf + body + 8 * i) |
                    (uint64_t)get32(buf + body + 8 * i + 4) << 32;
    memcpy(&w->values[i], &bits, sizeof bits);
  }
out:
  free(buf);
  if (rc) tk_weights_free(w);
  return rc;
}

int tk_weights_save(const char *path, const tk_weights *w, tk_error *err) {
  size_t head = 8 + 4 + 32 + 4 + 4, body = head + 4 * (size_t)w->ndims;
  size_t len = body + 8 * w->count + 4;
  uint8_t *buf = calloc(1, len);
  if (!buf) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  memcpy(buf, MAGIC, 8);
  put32(buf + 8, TK_WEIGHTS_FORMAT);
  memcpy(buf + 12, w->model, strnlen(w->model, 31));
  put32(buf + 44, w->feature_version);
  put32(buf + 48, w->ndims);
  for (uint32_t i = 0; i < w->ndims; i++) put32(buf + head + 4 * i, w->shape[i]);
  for (size_t i = 0; i < w->count; i++) {
    uint64_t bits;
    memcpy(&bits, &w->values[i], sizeof bits);
    put32(buf + body + 8 * i, (uint32_t)bits);
    put32(buf + body + 8 * i + 4, (uint32_t)(bits >> 32));
  }
  put32(buf + len - 4, (uint32_t)crc32(0L, buf, (uInt)(len - 4)));
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  int rc = 0;
  if (!f || fwrite(buf, 1, len, f) != len) rc = TK_EIO;
  if (f && fclose(f)) rc = TK_EIO;
  if (!rc && rename(tmp, path)) rc = TK_EIO;
  free(buf);
  if (rc) return tk_error_set(err, rc, -1, "weights %s: cannot write: %s", path, strerror(errno));
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
