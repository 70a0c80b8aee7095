/* harness/core/chain.c — games.chain, written by the run's sink and checked on resume, merge
 * and report (chain.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "chain.h"
#include "line.h"
#include "loader.h"
#include "readfile.h"
#include "taikai/file.h"

static const char magic[8] = {'T', 'K', 'C', 'H', 'A', 'I', 'N', '1'};

void tk_chain_identity(const json_t *resolved_spec, uint8_t id[TK_SHA256_BYTES]) {
  json_t *s = json_deep_copy(resolved_spec);
  static const char *const drop[] = {"walls", "units", "output", "shard", "taikai_version"};
  for (size_t i = 0; i < sizeof drop / sizeof *drop; i++) json_object_del(s, drop[i]);
  size_t ai;
  json_t *a;
  json_array_foreach(json_object_get(s, "agents"), ai, a) {
    size_t fi;
    json_t *f;
    json_array_foreach(json_object_get(a, "files"), fi, f) json_object_del(f, "path");
  }
  /* spec.json is written with 12 significant digits: a real printed so, read back and printed
   * again gives the same text, so the identity of the file equals that of the run in memory */
  char *text = json_dumps(s, JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12));
  tk_sha256 c;
  tk_sha256_init(&c);
  tk_sha256_update(&c, "taikai games.chain identity\n", 28);
  if (text) tk_sha256_update(&c, text, strlen(text));
  tk_sha256_final(&c, id);
  free(text);
  json_decref(s);
}

void tk_chain_next(const uint8_t prev[TK_SHA256_BYTES], const char *line, size_t len,
                   uint8_t d[TK_SHA256_BYTES]) {
  tk_sha256 c;
  tk_sha256_init(&c);
  tk_sha256_update(&c, prev, TK_SHA256_BYTES);
  tk_sha256_update(&c, line, len);
  tk_sha256_final(&c, d);
}

int tk_chain_write_header(FILE *f, uint64_t first, const uint8_t id[TK_SHA256_BYTES]) {
  unsigned char h[TK_CHAIN_HEADER];
  memset(h, 0, sizeof h);
  memcpy(h, magic, 8);
  for (int i = 0; i < 8; i++) h[8 + i] = (unsigned char)(first >> (8 * i));
  memcpy(h + 16, id, TK_SHA256_BYTES);
  return fwrite(h, 1, sizeof h, f) == sizeof h ? 0 : TK_EIO;
}

static void hex16(const uint8_t *d, char *out) {
  char full[TK_SHA256_HEX];
  tk_sha256_hex(d, full);
  memcpy(out, full, 16);
  out[16] = '\0';
}

int tk_chain_open(tk_chain_check *c, const char *path, uint64_t first,
                  const uint8_t id[TK_SHA256_BYTES], tk_error *err) {
  memset(c, 0, sizeof *c);
  snprintf(c->path, sizeof c->path, "%s", path);
  uint64_t size = 0;
  int fd = tk_file_open(path, TK_FILE_ANY_SIZE, &size, err);
  if (fd < 0) return fd;
  if (!(c->f = fdopen(fd, "rb"))) {
    close(fd);
    return tk_error_set(err, TK_EIO, -1, "%s: %s", path, strerror(errno));
  }
  unsigned char h[TK_CHAIN_HEADER];
  int rc = 0;
  if (fread(h, 1, sizeof h, c->f) != sizeof h || memcmp(h, magic, 8)) {
    rc = tk_error_set(err, TK_EPARSE, -1, "%s: not a games.chain (no 'TKCHAIN1' header)", path);
  } else {
    uint64_t f0 = 0;
    for (int i = 7; i >= 0; i--) f0 = f0 << 8 | h[8 + i];
    char want[17], got[17];
    hex16(id, want);
    hex16(h + 16, got);
    if (memcmp(h + 16, id, TK_SHA256_BYTES))
      rc = tk_error_set(err, TK_EPARSE, -1, "%s: field 'identity': %s..., but this folder's "
                        "spec.json gives %s...: the chain belongs to another tournament", path,
                        got, want);
    else if (f0 != first)
      rc = tk_error_set(err, TK_EPARSE, -1, "%s: field 'first unit': %llu, but this folder's "
                        "units start at %llu", path, (unsigned long long)f0,
                        (unsigned long long)first);
  }
  if (rc) {
    tk_chain_close(c);
    return rc;
  }
  c->first = first;
  c->entries = (size - TK_CHAIN_HEADER) / TK_CHAIN_ENTRY;
  memcpy(c->prev, id, TK_SHA256_BYTES);
  return 0;
}

int tk_chain_check_line(tk_chain_check *c, const char *what, const char *line, size_t len,
                        uint64_t unit, tk_error *err) {
  if (c->checked >= c->entries)
    return tk_error_set(err, TK_ERANGE, -1, "%s: unit %llu: no digest (the chain holds %llu "
                        "units)", c->path, (unsigned long long)unit,
                        (unsigned long long)c->entries);
  uint8_t want[TK_SHA256_BYTES], got[TK_SHA256_BYTES];
  if (fread(got, 1, sizeof got, c->f) != sizeof got)
    return tk_error_set(err, TK_EIO, -1, "%s: cannot read: %s", c->path, strerror(errno));
  tk_chain_next(c->prev, line, len, want);
  if (memcmp(want, got, sizeof want))
    return tk_error_set(err, TK_EPARSE, -1, "%s: unit %llu (line %llu): the line differs from "
                        "what taikai wrote (its digest does not follow the chain in %s): the "
                        "folder was changed after the run", what, (unsigned long long)unit,
                        (unsigned long long)(c->checked + 1), c->path);
  memcpy(c->prev, got, sizeof got);
  c->checked++;
  return 0;
}

void tk_chain_close(tk_chain_check *c) {
  if (c->f) fclose(c->f);
  c->f = NULL;
}

/* The first unit of a folder's lines: its shard's, else 0. */
static uint64_t first_unit(const json_t *spec) {
  json_t *u = json_object_get(json_object_get(spec, "shard"), "units");
  return json_is_array(u) ? (uint64_t)json_integer_value(json_array_get(u, 0)) : 0;
}

int tk_chain_verify_dir(const char *dir, uint64_t *units, tk_error *err) {
  *units = 0;
  char path[TK_PATH_MAX + 32], gpath[TK_PATH_MAX + 32], cpath[TK_PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/spec.json", dir);
  json_t *spec = tk_json_load_path(path, 0, err);
  if (!spec) return err ? err->code : TK_EIO;
  uint8_t id[TK_SHA256_BYTES];
  tk_chain_identity(spec, id);
  uint64_t first = first_unit(spec);
  json_decref(spec);
  snprintf(cpath, sizeof cpath, "%s/" TK_CHAIN_FILE, dir);
  tk_error e;
  tk_error_clear(&e);
  if (tk_file_check(cpath, TK_FILE_ANY_SIZE, &e) == TK_ENOTFOUND)
    return tk_error_set(err, TK_ENOTFOUND, -1, "%s: no " TK_CHAIN_FILE ": its lines cannot be "
                        "checked (a folder written before taikai kept digest chains, or one "
                        "whose chain was removed)", dir);
  tk_chain_check c;
  int rc = tk_chain_open(&c, cpath, first, id, err);
  if (rc) return rc;
  gzFile z = tk_games_open(dir, gpath, sizeof gpath, err);
  if (!z) {
    tk_chain_close(&c);
    return err ? err->code : TK_EIO;
  }
  char *line = malloc(TK_LINE_MAX + 2);
  if (!line) {
    gzclose(z);
    tk_chain_close(&c);
    return tk_error_set(err, TK_ENOMEM, -1, "%s: out of memory", gpath);
  }
  uint64_t n = 0;
  while (!rc && gzgets(z, line, TK_LINE_MAX + 2)) {
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n') {
      rc = tk_error_set(err, TK_EPARSE, -1, "%s: line %llu is torn or longer than any line "
                        "taikai writes", gpath, (unsigned long long)n + 1);
      break;
    }
    rc = tk_chain_check_line(&c, gpath, line, len - 1, first + n, err);
    n++;
  }
  int zerr = 0;
  const char *zmsg = gzerror(z, &zerr);
  if (!rc && zerr && zerr != Z_STREAM_END)
    rc = tk_error_set(err, TK_EIO, -1, "%s: cannot read: %s", gpath, zmsg);
  if (!rc && n != c.entries)
    rc = tk_error_set(err, TK_EPARSE, -1, "%s: holds %llu lines but %s holds %llu digests: "
                      "lines were removed from or added to the folder after the run", gpath,
                      (unsigned long long)n, cpath, (unsigned long long)c.entries);
  gzclose(z);
  free(line);
  tk_chain_close(&c);
  *units = n;
  return rc;
}

int tk_chain_vouch(const char *dir, const char *cmd) {
  tk_error e;
  tk_error_clear(&e);
  uint64_t units;
  int rc = tk_chain_verify_dir(dir, &units, &e);
  if (rc == TK_ENOTFOUND) {
    fprintf(stderr, "%s: note: %s\n", cmd, e.msg);
    return 0;
  }
  if (rc) fprintf(stderr, "%s: %s\n", cmd, e.msg);
  return rc ? 2 : 0;
}
