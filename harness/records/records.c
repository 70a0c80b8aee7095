/* harness/records/records.c — the decision-record format of taikai/records.h: the writer the
 * referee's workers use (a unit built in memory, deflated, written whole by the parent in unit
 * order) and the streaming reader trainers use. Every read is bounds-checked: a truncated or
 * corrupt file is an error naming the file and the offset, never a crash. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "taikai/file.h"
#include "taikai/records.h"

static const char MAGIC[8] = {'T', 'K', 'R', 'E', 'C', 'O', 'R', 'D'};
static const char UNIT_MAGIC[4] = {'U', 'N', 'I', 'T'};
enum { HEAD_FIXED = 80, UNIT_HEAD = 16, RAW_HEAD = 24, SEAT_FIXED = 8 };
enum { RAW_MAX = 1u << 30 }; /* a unit's raw bytes, refused beyond (a corrupt length) */

/* ------------------------------------------------------------------ little-endian helpers */

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
  return v;
}
static uint64_t get64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static int reserve(uint8_t **p, size_t *cap, size_t need) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap : 4096;
  while (c < need) c *= 2;
  uint8_t *n = realloc(*p, c);
  if (!n) return TK_ENOMEM;
  *p = n;
  *cap = c;
  return 0;
}

/* ------------------------------------------------------------------ writing */

int tk_records_write_header(FILE *f, const tk_records_header *h) {
  uint8_t head[HEAD_FIXED];
  memcpy(head, MAGIC, 8);
  uint32_t v[9] = {TK_RECORDS_FORMAT, h->abi_version, h->types_version, h->view_size,
                   h->legal_size,     h->action_size, h->nseats,        h->nfields,
                   h->nagents};
  for (int i = 0; i < 9; i++) put32(head + 8 + 4 * i, v[i]);
  memset(head + 44, 0, 32);
  memcpy(head + 44, h->game, strnlen(h->game, 31));
  size_t names = 0;
  for (uint32_t i = 0; i < h->nfields; i++) names += strlen(h->field[i]) + 1;
  for (uint32_t i = 0; i < h->nagents; i++) names += strlen(h->agent[i]) + 1;
  put32(head + 76, (uint32_t)names);
  if (fwrite(head, 1, sizeof head, f) != sizeof head) return TK_EIO;
  for (uint32_t i = 0; i < h->nfields + h->nagents; i++) {
    const char *s = i < h->nfields ? h->field[i] : h->agent[i - h->nfields];
    if (fwrite(s, 1, strlen(s) + 1, f) != strlen(s) + 1) return TK_EIO;
  }
  return 0;
}

void tk_records_builder_init(tk_records_builder *b, size_t view_size, size_t legal_size,
                             size_t action_size) {
  memset(b, 0, sizeof *b);
  b->view_size = view_size;
  b->legal_size = legal_size;
  b->action_size = action_size;
}

void tk_records_builder_free(tk_records_builder *b) {
  if (!b) return;
  free(b->buf);
  free(b->packed);
  memset(b, 0, sizeof *b);
}

void tk_records_builder_reset(tk_records_builder *b) {
  b->len = 0;
  b->ndecisions = 0;
}

int tk_records_builder_add(tk_records_builder *b, uint32_t seat, uint32_t agent,
                           const void *view, const void *legal, const void *action) {
  size_t size = 8 + b->view_size + b->legal_size + b->action_size;
  if (reserve(&b->buf, &b->cap, b->len + size)) return TK_ENOMEM;
  uint8_t *p = b->buf + b->len;
  put32(p, seat);
  put32(p + 4, agent);
  p += 8;
  memcpy(p, view, b->view_size);
  memcpy(p + b->view_size, legal, b->legal_size);
  memcpy(p + b->view_size + b->legal_size, action, b->action_size);
  b->len += size;
  b->ndecisions++;
  return 0;
}

int tk_records_builder_pack(tk_records_builder *b, uint64_t unit, uint64_t wall,
                            uint32_t nseats, uint32_t nfields, const int32_t *agent,
                            const int32_t *fault_kind,
                            const int64_t (*field)[TK_RECORDS_MAX_FIELDS]) {
  size_t seats = (size_t)nseats * (SEAT_FIXED + 8 * (size_t)nfields);
  size_t raw_len = RAW_HEAD + seats + b->len;
  uint8_t *raw = malloc(raw_len);
  if (!raw) return TK_ENOMEM;
  put64(raw, unit);
  put64(raw + 8, wall);
  put32(raw + 16, nseats);
  put32(raw + 20, b->ndecisions);
  uint8_t *p = raw + RAW_HEAD;
  for (uint32_t s = 0; s < nseats; s++) {
    put32(p, (uint32_t)agent[s]);
    put32(p + 4, (uint32_t)fault_kind[s]);
    p += SEAT_FIXED;
    for (uint32_t i = 0; i < nfields; i++, p += 8) put64(p, (uint64_t)field[s][i]);
  }
  if (b->len) memcpy(p, b->buf, b->len);
  uLongf packed = compressBound((uLong)raw_len);
  if (reserve(&b->packed, &b->packed_cap, UNIT_HEAD + packed)) {
    free(raw);
    return TK_ENOMEM;
  }
  int zr = compress2(b->packed + UNIT_HEAD, &packed, raw, (uLong)raw_len, 6);
  uint32_t crc = (uint32_t)crc32(0L, raw, (uInt)raw_len);
  free(raw);
  if (zr != Z_OK) return TK_ENOMEM;
  memcpy(b->packed, UNIT_MAGIC, 4);
  put32(b->packed + 4, (uint32_t)packed);
  put32(b->packed + 8, (uint32_t)raw_len);
  put32(b->packed + 12, crc);
  b->packed_len = UNIT_HEAD + packed;
  return 0;
}

/* ------------------------------------------------------------------ reading */

struct tk_records {
  FILE *f;
  char *path;
  tk_records_header h;
  char *names;            /* the header's names block */
  uint64_t offset;        /* of the next unit */
  uint8_t *packed, *raw;
  size_t packed_cap, raw_cap;
};

/* A corrupt file: the file, where (a byte offset, or the unit and its offset) and what, with the
 * field and its value. */
static int fail(tk_error *err, const tk_records *r, uint64_t off, const char *what) {
  return tk_error_set(err, TK_EPARSE, -1, "%s: %s at byte offset %llu", r->path, what,
                      (unsigned long long)off);
}

/* The header's fields, each with the range a reader accepts. */
typedef struct head_field {
  const char *name;
  uint32_t *at, lo, hi;
} head_field;

/* Parses the fixed header `head` into r->h; returns the names' length in *names, or TK_EPARSE
 * naming the first field out of range and its value. */
static int parse_head(tk_records *r, const uint8_t *head, uint32_t *names, tk_error *err) {
  tk_records_header *h = &r->h;
  uint32_t *v[9] = {&h->format,    &h->abi_version, &h->types_version,
                    &h->view_size, &h->legal_size,  &h->action_size,
                    &h->nseats,    &h->nfields,     &h->nagents};
  for (int i = 0; i < 9; i++) *v[i] = get32(head + 8 + 4 * i);
  *names = get32(head + 76);
  if (h->format != TK_RECORDS_FORMAT)
    return tk_error_set(err, TK_EPARSE, -1, "%s: records format %u, this reader reads format %u",
                        r->path, h->format, TK_RECORDS_FORMAT);
  const head_field f[] = {
      {"view_size", &h->view_size, 1, TK_RECORDS_MAX_STRUCT},
      {"legal_size", &h->legal_size, 1, TK_RECORDS_MAX_STRUCT},
      {"action_size", &h->action_size, 1, TK_RECORDS_MAX_STRUCT},
      {"nseats", &h->nseats, 1, TK_RECORDS_MAX_SEATS},
      {"nfields", &h->nfields, 0, TK_RECORDS_MAX_FIELDS},
      {"nagents", &h->nagents, 1, TK_RECORDS_MAX_AGENTS},
      {"names_len", names, 0, TK_RECORDS_MAX_NAMES},
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    if (*f[i].at < f[i].lo || *f[i].at > f[i].hi)
      return tk_error_set(err, TK_EPARSE, -1, "%s: header: %s %u out of range (%u..%u)", r->path,
                          f[i].name, *f[i].at, f[i].lo, f[i].hi);
  const uint8_t *game = head + 44;
  if (!memchr(game, '\0', sizeof h->game) || !game[0])
    return tk_error_set(err, TK_EPARSE, -1, "%s: header: the game name is %s", r->path,
                        game[0] ? "not NUL-terminated in its 32 bytes" : "empty");
  memcpy(h->game, game, sizeof h->game);
  return 0;
}

/* Points the header's field names and agent labels into r->names (`len` bytes): exactly
 * nfields + nagents non-empty NUL-terminated names filling the block. */
static int parse_names(tk_records *r, uint32_t len, tk_error *err) {
  tk_records_header *h = &r->h;
  const char *p = r->names, *end = r->names + len;
  for (uint32_t i = 0; i < h->nfields + h->nagents; i++) {
    const char *what = i < h->nfields ? "field name" : "agent label";
    uint32_t k = i < h->nfields ? i : i - h->nfields;
    const char *nul = p < end ? memchr(p, '\0', (size_t)(end - p)) : NULL;
    if (!nul)
      return tk_error_set(err, TK_EPARSE, -1, "%s: header: names_len %u holds fewer than the "
                          "%u field names and %u agent labels (%s %u missing)", r->path, len,
                          h->nfields, h->nagents, what, k);
    if (nul == p)
      return tk_error_set(err, TK_EPARSE, -1, "%s: header: %s %u is empty", r->path, what, k);
    if (i < h->nfields) h->field[k] = p;
    else h->agent[k] = p;
    p = nul + 1;
  }
  if (p != end)
    return tk_error_set(err, TK_EPARSE, -1, "%s: header: names_len %u, but the %u names end "
                        "after %llu bytes", r->path, len, h->nfields + h->nagents,
                        (unsigned long long)(p - r->names));
  return 0;
}

int tk_records_open(const char *path, tk_records **out, tk_error *err) {
  *out = NULL;
  tk_records *r = calloc(1, sizeof *r);
  if (!r || !(r->path = strdup(path))) {
    free(r);
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  }
  int fd = tk_file_open(path, TK_FILE_ANY_SIZE, NULL, err);
  if (fd < 0 || !(r->f = fdopen(fd, "rb"))) {
    int rc = fd < 0 ? fd : tk_error_set(err, TK_EIO, -1, "%s: %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    tk_records_close(r);
    return rc;
  }
  uint8_t head[HEAD_FIXED];
  uint32_t names = 0;
  int rc = 0;
  if (fread(head, 1, sizeof head, r->f) != sizeof head) rc = fail(err, r, 0, "truncated header");
  else if (memcmp(head, MAGIC, 8)) rc = fail(err, r, 0, "not a taikai records file (no TKRECORD)");
  else if ((rc = parse_head(r, head, &names, err))) {
  } else if (!(r->names = malloc((size_t)names + 1)))
    rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  else if (fread(r->names, 1, names, r->f) != names)
    rc = fail(err, r, HEAD_FIXED, "truncated header names");
  else if (!(rc = parse_names(r, names, err)))
    r->offset = HEAD_FIXED + names;
  if (rc) {
    tk_records_close(r);
    return rc;
  }
  *out = r;
  return 0;
}

const tk_records_header *tk_records_header_of(const tk_records *r) { return &r->h; }

int tk_records_expect(const tk_records *r, const char *game, uint32_t types_version,
                      size_t view_size, size_t legal_size, size_t action_size, tk_error *err) {
  const tk_records_header *h = &r->h;
  if (strcmp(h->game, game))
    return tk_error_set(err, TK_EABI, -1, "%s: records of game '%s', expected '%s'", r->path,
                        h->game, game);
  if (h->types_version != types_version || h->view_size != view_size ||
      h->legal_size != legal_size || h->action_size != action_size)
    return tk_error_set(err, TK_EABI, -1,
                        "%s: %s types version %u (view %u, legal %u, action %u bytes); this "
                        "program reads version %u (%zu, %zu, %zu): re-record with this build",
                        r->path, game, h->types_version, h->view_size, h->legal_size,
                        h->action_size, types_version, view_size, legal_size, action_size);
  return 0;
}

int tk_records_open_game(const char *path, const char *game, uint32_t types_version,
                         size_t view_size, size_t legal_size, size_t action_size,
                         tk_records **out, tk_error *err) {
  int rc = tk_records_open(path, out, err);
  if (!rc && (rc = tk_records_expect(*out, game, types_version, view_size, legal_size,
                                     action_size, err))) {
    tk_records_close(*out);
    *out = NULL;
  }
  return rc;
}

/* A unit that contradicts the header: the file, the unit's index and offset, and what. */
#define UNIT_FAIL(fmt, ...)                                                                   \
  tk_error_set(err, TK_EPARSE, -1, "%s: unit %llu (byte offset %llu): " fmt, r->path,         \
               (unsigned long long)u->unit, (unsigned long long)r->offset, __VA_ARGS__)

int tk_records_next(tk_records *r, tk_records_unit *u, tk_error *err) {
  uint8_t head[UNIT_HEAD];
  size_t got = fread(head, 1, sizeof head, r->f);
  if (got == 0 && feof(r->f)) return 0;
  if (got != sizeof head) return fail(err, r, r->offset, "truncated unit header");
  if (memcmp(head, UNIT_MAGIC, 4)) return fail(err, r, r->offset, "no UNIT block");
  uint32_t packed = get32(head + 4), raw_len = get32(head + 8), crc = get32(head + 12);
  if (raw_len > RAW_MAX || raw_len < RAW_HEAD || packed > RAW_MAX) {
    const char *which = packed > RAW_MAX ? "packed_len" : "raw_len";
    return tk_error_set(err, TK_EPARSE, -1, "%s: unit block at byte offset %llu: %s %u out of "
                        "range (raw_len %u..%u, packed_len at most %u)", r->path,
                        (unsigned long long)r->offset, which,
                        packed > RAW_MAX ? packed : raw_len, RAW_HEAD, RAW_MAX, RAW_MAX);
  }
  if (reserve(&r->packed, &r->packed_cap, packed) || reserve(&r->raw, &r->raw_cap, raw_len))
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  if (fread(r->packed, 1, packed, r->f) != packed)
    return fail(err, r, r->offset, "truncated unit (the file ends inside it)");
  uLongf n = raw_len;
  if (uncompress(r->raw, &n, r->packed, packed) != Z_OK || n != raw_len ||
      (uint32_t)crc32(0L, r->raw, (uInt)raw_len) != crc)
    return fail(err, r, r->offset, "corrupt unit (inflate or checksum failed)");
  const tk_records_header *h = &r->h;
  memset(u, 0, sizeof *u);
  u->unit = get64(r->raw);
  u->wall = get64(r->raw + 8);
  u->nseats = get32(r->raw + 16);
  u->ndecisions = get32(r->raw + 20);
  size_t seat = SEAT_FIXED + 8 * (size_t)h->nfields;
  size_t dec = 8 + (size_t)h->view_size + h->legal_size + h->action_size;
  if (u->nseats != h->nseats)
    return UNIT_FAIL("nseats %u, the header says %u", u->nseats, h->nseats);
  if ((uint64_t)RAW_HEAD + u->nseats * seat + (uint64_t)u->ndecisions * dec != raw_len)
    return UNIT_FAIL("ndecisions %u of %zu bytes and %u seats do not fill raw_len %u",
                     u->ndecisions, dec, u->nseats, raw_len);
  const uint8_t *p = r->raw + RAW_HEAD;
  for (uint32_t s = 0; s < u->nseats; s++) {
    u->agent[s] = (int32_t)get32(p);
    u->fault_kind[s] = (int32_t)get32(p + 4);
    if (u->agent[s] < 0 || (uint32_t)u->agent[s] >= h->nagents)
      return UNIT_FAIL("seat %u: agent %d out of range (the header has %u agents)", s,
                       u->agent[s], h->nagents);
    if (u->fault_kind[s] < 0 || u->fault_kind[s] >= TK_RECORDS_FAULT_KINDS)
      return UNIT_FAIL("seat %u: fault_kind %d out of range (0..%d)", s, u->fault_kind[s],
                       TK_RECORDS_FAULT_KINDS - 1);
    p += SEAT_FIXED;
    for (uint32_t i = 0; i < h->nfields; i++, p += 8) u->field[s][i] = (int64_t)get64(p);
  }
  u->decisions = p;
  for (uint32_t i = 0; i < u->ndecisions; i++, p += dec) {
    uint32_t ds = get32(p), da = get32(p + 4);
    if (ds >= u->nseats)
      return UNIT_FAIL("decision %u: seat %u out of range (the unit has %u seats)", i, ds,
                       u->nseats);
    if (da >= h->nagents)
      return UNIT_FAIL("decision %u: agent %u out of range (the header has %u agents)", i, da,
                       h->nagents);
  }
  r->offset += UNIT_HEAD + packed;
  return 1;
}

void tk_records_decision_at(const tk_records *r, const tk_records_unit *u, uint32_t i,
                            tk_records_decision *d) {
  const tk_records_header *h = &r->h;
  size_t dec = 8 + (size_t)h->view_size + h->legal_size + h->action_size;
  const uint8_t *p = u->decisions + (size_t)i * dec;
  d->seat = get32(p);
  d->agent = get32(p + 4);
  d->view = p + 8;
  d->legal = p + 8 + h->view_size;
  d->action = p + 8 + h->view_size + h->legal_size;
}

uint64_t tk_records_offset(const tk_records *r) { return r->offset; }

void tk_records_close(tk_records *r) {
  if (!r) return;
  if (r->f) fclose(r->f);
  free(r->path);
  free(r->names);
  free(r->packed);
  free(r->raw);
  free(r);
}

int tk_records_count(const char *path, uint64_t *units, tk_error *err) {
  *units = 0;
  tk_records *r;
  int rc = tk_records_open(path, &r, err);
  if (rc) return rc;
  tk_records_unit u;
  tk_error e;
  tk_error_clear(&e);
  while (tk_records_next(r, &u, &e) == 1) (*units)++;
  tk_records_close(r);
  return 0;
}

int tk_records_truncate(const char *path, uint64_t units, tk_error *err) {
  tk_records *r;
  int rc = tk_records_open(path, &r, err);
  if (rc) return rc;
  uint64_t kept = 0, end = r->offset;
  tk_records_unit u;
  while (kept < units) {
    tk_error e;
    tk_error_clear(&e);
    int got = tk_records_next(r, &u, &e);
    if (got != 1) break;
    kept++;
    end = r->offset;
  }
  tk_records_close(r);
  if (kept < units)
    return tk_error_set(err, TK_EPARSE, -1, "%s: holds %llu complete units, games.jsonl %llu: "
                        "cannot resume the records", path, (unsigned long long)kept,
                        (unsigned long long)units);
  if (truncate(path, (off_t)end))
    return tk_error_set(err, TK_EIO, -1, "%s: cannot truncate: %s", path, strerror(errno));
  return 0;
}
