/* harness/records/records.c — the decision-record format of taikai/records.h: the writer the
 * referee's workers use (a unit built in memory, deflated, written whole by the parent in unit
 * order) and the streaming reader trainers use. Every read is bounds-checked: a truncated or
 * corrupt file is an error naming the file and the offset, never a crash. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

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

static int fail(tk_error *err, const tk_records *r, uint64_t off, const char *what) {
  return tk_error_set(err, TK_EPARSE, -1, "%s: %s at byte offset %llu", r->path, what,
                      (unsigned long long)off);
}

int tk_records_open(const char *path, tk_records **out, tk_error *err) {
  *out = NULL;
  tk_records *r = calloc(1, sizeof *r);
  if (!r || !(r->path = strdup(path))) {
    free(r);
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  }
  r->f = fopen(path, "rb");
  if (!r->f) {
    int rc = tk_error_set(err, TK_EIO, -1, "%s: %s", path, strerror(errno));
    tk_records_close(r);
    return rc;
  }
  uint8_t head[HEAD_FIXED];
  int rc = 0;
  if (fread(head, 1, sizeof head, r->f) != sizeof head) rc = fail(err, r, 0, "truncated header");
  else if (memcmp(head, MAGIC, 8)) rc = fail(err, r, 0, "not a taikai records file (no TKRECORD)");
  if (!rc) {
    tk_records_header *h = &r->h;
    uint32_t *v[9] = {&h->format,      &h->abi_version, &h->types_version,
                      &h->view_size,   &h->legal_size,  &h->action_size,
                      &h->nseats,      &h->nfields,     &h->nagents};
    for (int i = 0; i < 9; i++) *v[i] = get32(head + 8 + 4 * i);
    memcpy(h->game, head + 44, 31);
    h->game[31] = '\0';
    uint32_t names = get32(head + 76);
    if (h->format != TK_RECORDS_FORMAT)
      rc = tk_error_set(err, TK_EPARSE, -1, "%s: records format %u, this reader reads format %u",
                        path, h->format, TK_RECORDS_FORMAT);
    else if (h->nseats == 0 || h->nseats > TK_RECORDS_MAX_SEATS ||
             h->nfields > TK_RECORDS_MAX_FIELDS || h->nagents > TK_RECORDS_MAX_AGENTS ||
             names > (1u << 20) || h->view_size > (1u << 20) || h->legal_size > (1u << 20) ||
             h->action_size > (1u << 20))
      rc = fail(err, r, 8, "header out of range");
    else if (!(r->names = malloc((size_t)names + 1)))
      rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    else if (fread(r->names, 1, names, r->f) != names)
      rc = fail(err, r, HEAD_FIXED, "truncated header names");
    if (!rc) {
      r->names[names] = '\0';
      const char *p = r->names, *end = r->names + names;
      for (uint32_t i = 0; i < h->nfields + h->nagents && !rc; i++) {
        if (p >= end) rc = fail(err, r, HEAD_FIXED, "header names cut short");
        else if (i < h->nfields) h->field[i] = p;
        else h->agent[i - h->nfields] = p;
        p += strlen(p) + 1;
      }
      r->offset = HEAD_FIXED + names;
    }
  }
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

int tk_records_next(tk_records *r, tk_records_unit *u, tk_error *err) {
  uint8_t head[UNIT_HEAD];
  size_t got = fread(head, 1, sizeof head, r->f);
  if (got == 0 && feof(r->f)) return 0;
  if (got != sizeof head) return fail(err, r, r->offset, "truncated unit header");
  if (memcmp(head, UNIT_MAGIC, 4)) return fail(err, r, r->offset, "no UNIT block");
  uint32_t packed = get32(head + 4), raw_len = get32(head + 8), crc = get32(head + 12);
  if (raw_len > RAW_MAX || raw_len < RAW_HEAD || packed > RAW_MAX)
    return fail(err, r, r->offset, "unit length out of range");
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
  if (u->nseats != h->nseats ||
      (uint64_t)RAW_HEAD + u->nseats * seat + (uint64_t)u->ndecisions * dec != raw_len)
    return fail(err, r, r->offset, "unit size disagrees with the header");
  const uint8_t *p = r->raw + RAW_HEAD;
  for (uint32_t s = 0; s < u->nseats; s++) {
    u->agent[s] = (int32_t)get32(p);
    u->fault_kind[s] = (int32_t)get32(p + 4);
    p += SEAT_FIXED;
    for (uint32_t i = 0; i < h->nfields; i++, p += 8) u->field[s][i] = (int64_t)get64(p);
  }
  u->decisions = p;
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
