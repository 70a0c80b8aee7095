/* plugins/riichi_mcp/mcp_io.c — the example file (mcp_io.h). */
#include "mcp_io.h"

#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "taikai/file.h"

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static size_t putv(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

void mcx_header_encode(const mcx_header *h, uint8_t *buf) {
  memcpy(buf, MCX_MAGIC, 8);
  put32(buf + 8, MCX_FORMAT);
  put32(buf + 12, h->feature_version);
  put32(buf + 16, h->opponents);
  put32(buf + 20, h->max_turn);
  put32(buf + 24, (uint32_t)h->seed);
  put32(buf + 28, (uint32_t)(h->seed >> 32));
  memcpy(buf + 32, h->weights_sha, 32);
  put32(buf + 64, (uint32_t)crc32(0L, buf, 64));
}

size_t mcx_record_encode(const mcx_example *e, uint64_t prev_hand, uint8_t *buf) {
  size_t n = putv(buf, e->hand - prev_hand); /* prev_hand = UINT64_MAX wraps to hand + 1 */
  buf[n++] = e->label;
  n += putv(buf + n, e->n);
  uint32_t prev = 0;
  for (int i = 0; i < e->n; i++) {
    n += putv(buf + n, e->f[i] - prev);
    prev = e->f[i];
  }
  put32(buf + n, (uint32_t)crc32(0L, buf, (uInt)n));
  return n + 4;
}

int mcx_open(mcx_reader *r, const char *path, tk_error *err) {
  memset(r, 0, sizeof *r);
  r->path = path;
  r->prev_hand = UINT64_MAX;
  int fd = tk_file_open(path, TK_FILE_ANY_SIZE, NULL, err); /* a FIFO or a device: refused */
  if (fd < 0) return fd;
  if (!(r->f = fdopen(fd, "rb"))) {
    close(fd);
    return tk_error_set(err, TK_EIO, -1, "%s: cannot open", path);
  }
  uint8_t b[MCX_HEADER_BYTES];
  if (fread(b, 1, sizeof b, r->f) != sizeof b) {
    mcx_close(r);
    return tk_error_set(err, TK_EPARSE, -1, "%s: header: cut short (%d bytes expected)", path,
                        MCX_HEADER_BYTES);
  }
  const char *bad = NULL;
  if (memcmp(b, MCX_MAGIC, 8)) bad = "magic (not an MCP example file)";
  else if (get32(b + 8) != MCX_FORMAT) bad = "format";
  else if (get32(b + 64) != (uint32_t)crc32(0L, b, 64)) bad = "checksum";
  if (bad) {
    mcx_close(r);
    return tk_error_set(err, TK_EPARSE, -1, "%s: header: bad %s", path, bad);
  }
  r->h.feature_version = get32(b + 12);
  r->h.opponents = get32(b + 16);
  r->h.max_turn = get32(b + 20);
  r->h.seed = get32(b + 24) | (uint64_t)get32(b + 28) << 32;
  memcpy(r->h.weights_sha, b + 32, 32);
  r->good_end = MCX_HEADER_BYTES;
  return 0;
}

/* Reads a varint into *v, appending its bytes to buf at *len. Returns 0, -1 at EOF. */
static int getv(FILE *f, uint64_t *v, uint8_t *buf, size_t *len, size_t cap) {
  uint64_t x = 0;
  for (int s = 0; s < 64; s += 7) {
    int c = fgetc(f);
    if (c == EOF || *len >= cap) return -1;
    buf[(*len)++] = (uint8_t)c;
    x |= (uint64_t)(c & 0x7f) << s;
    if (!(c & 0x80)) {
      *v = x;
      return 0;
    }
  }
  return -1;
}

int mcx_next(mcx_reader *r, mcx_example *e, tk_error *err) {
  uint8_t buf[MCX_RECORD_MAX];
  size_t len = 0;
  uint64_t v, rec = r->records;
  int c = fgetc(r->f);
  if (c == EOF) return 0;
  ungetc(c, r->f);
  const char *field = "hand";
  if (getv(r->f, &v, buf, &len, sizeof buf)) goto torn;
  if (v == 0) goto bad;
  e->hand = r->prev_hand + v;
  field = "label";
  if ((c = fgetc(r->f)) == EOF) goto torn;
  buf[len++] = (uint8_t)c;
  if (c >= MCX_CLASSES) goto bad;
  e->label = (uint8_t)c;
  field = "n";
  if (getv(r->f, &v, buf, &len, sizeof buf)) goto torn;
  if (v > MCX_MAX_FEATURES) goto bad;
  e->n = (uint16_t)v;
  field = "index";
  uint64_t prev = 0;
  for (int i = 0; i < e->n; i++) {
    if (getv(r->f, &v, buf, &len, sizeof buf)) goto torn;
    if ((i > 0 && v == 0) || prev + v > UINT32_MAX) goto bad;
    prev += v;
    e->f[i] = (uint32_t)prev;
  }
  field = "checksum";
  uint8_t cb[4];
  if (fread(cb, 1, 4, r->f) != 4) goto torn;
  if (get32(cb) != (uint32_t)crc32(0L, buf, (uInt)len)) goto bad;
  r->prev_hand = e->hand;
  r->records++;
  r->good_end = ftell(r->f);
  return 1;
torn:
  return tk_error_set(err, TK_EPARSE, -1, "%s: record %llu: %s: cut short (torn file)", r->path,
                      (unsigned long long)rec, field);
bad:
  return tk_error_set(err, TK_EPARSE, -1, "%s: record %llu: bad %s", r->path,
                      (unsigned long long)rec, field);
}

void mcx_close(mcx_reader *r) {
  if (r->f) fclose(r->f);
  r->f = NULL;
}
