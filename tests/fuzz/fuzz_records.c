/* tests/fuzz/fuzz_records.c — libFuzzer harness for the decision-record reader
 * (include/taikai/records.h, harness/records/records.c) and `taikai records --dump`, which
 * describes each recorded view and action with its game's functions.
 *
 * Input: one flags byte, then the file's header as it is (80 bytes and the names block of the
 * length it states, cut where the input ends), then units. With flags bit 0 set, each unit is
 * given raw (u16 length, then that many bytes) and the harness deflates it and writes its "UNIT"
 * block with the right lengths and CRC-32, so mutations reach the fields inside (most inputs:
 * otherwise nearly every mutation stops at the checksum); with it clear, the rest is written as
 * it is. Checks besides "no crash, no sanitizer report": a refusal has a TK_E code and a message
 * naming the file; every unit returned has its header's seat count, its seats' agents below
 * nagents and fault kinds below TK_RECORDS_FAULT_KINDS, and every decision's seat and agent in
 * range (a trainer indexes u.field[d.seat] and h->agent[d.agent] with them). Built with
 * -DTAIKAI_FUZZ=ON (tests/fuzz/README.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "commands.h"
#include "taikai/records.h"

#define CHECK(c)                                                                    \
  do {                                                                              \
    if (!(c)) {                                                                     \
      fprintf(stderr, "fuzz_records: check failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                                      \
    }                                                                               \
  } while (0)

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Writes the input as a records file at `path` (see the top of this file). */
static int write_input(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int units = data[0] & 1;
  const uint8_t *p = data + 1, *end = data + size;
  size_t head = (size_t)(end - p) < 80 ? (size_t)(end - p) : 80;
  if (head == 80) {
    uint32_t names = (uint32_t)p[76] | (uint32_t)p[77] << 8 | (uint32_t)p[78] << 16 |
                     (uint32_t)p[79] << 24;
    head = names > (size_t)(end - p) - 80 ? (size_t)(end - p) : 80 + names;
  }
  int ok = fwrite(p, 1, head, f) == head;
  p += head;
  while (ok && p < end) {
    if (!units) {
      ok = fwrite(p, 1, (size_t)(end - p), f) == (size_t)(end - p);
      break;
    }
    size_t n = end - p < 2 ? 0 : (size_t)(p[0] | p[1] << 8);
    p += end - p < 2 ? end - p : 2;
    if (n > (size_t)(end - p)) n = (size_t)(end - p);
    uLongf packed = compressBound((uLong)n);
    uint8_t *buf = malloc(16 + packed);
    if (!buf || compress2(buf + 16, &packed, p, (uLong)n, 1) != Z_OK) {
      free(buf);
      break;
    }
    memcpy(buf, "UNIT", 4);
    put32(buf + 4, (uint32_t)packed);
    put32(buf + 8, (uint32_t)n);
    put32(buf + 12, (uint32_t)crc32(0L, p, (uInt)n));
    ok = fwrite(buf, 1, 16 + packed, f) == 16 + packed;
    free(buf);
    p += n;
  }
  return fclose(f) == 0 && ok ? 0 : -1;
}

static void check_refusal(int rc, const tk_error *e, const char *path) {
  CHECK(rc < 0);
  CHECK(e->code == rc);
  CHECK(e->msg[0] != '\0');
  CHECK(memchr(e->msg, '\0', sizeof e->msg) != NULL);
  CHECK(strstr(e->msg, path) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char path[64];
  snprintf(path, sizeof path, "/tmp/fuzz_records.%d.tkr", (int)getpid());
  if (write_input(path, data, size)) return 0;

  tk_error err;
  tk_error_clear(&err);
  tk_records *r;
  int rc = tk_records_open(path, &r, &err);
  if (rc) {
    check_refusal(rc, &err, path);
  } else {
    const tk_records_header *h = tk_records_header_of(r);
    CHECK(h->nseats >= 1 && h->nseats <= TK_RECORDS_MAX_SEATS);
    CHECK(h->nfields <= TK_RECORDS_MAX_FIELDS && h->nagents <= TK_RECORDS_MAX_AGENTS);
    CHECK(memchr(h->game, '\0', sizeof h->game) != NULL);
    size_t names = 0;
    for (uint32_t i = 0; i < h->nfields; i++) names += strlen(h->field[i]);
    for (uint32_t i = 0; i < h->nagents; i++) names += strlen(h->agent[i]);
    tk_records_unit u;
    uint64_t sum = names;
    while ((rc = tk_records_next(r, &u, &err)) == 1) {
      CHECK(u.nseats == h->nseats);
      for (uint32_t s = 0; s < u.nseats; s++) {
        CHECK(u.agent[s] >= 0 && (uint32_t)u.agent[s] < h->nagents);
        CHECK(u.fault_kind[s] >= 0 && u.fault_kind[s] < TK_RECORDS_FAULT_KINDS);
      }
      for (uint32_t i = 0; i < u.ndecisions; i++) {
        tk_records_decision d;
        tk_records_decision_at(r, &u, i, &d);
        CHECK(d.seat < u.nseats && d.agent < h->nagents);
        sum += strlen(h->agent[d.agent]) + (h->nfields ? (uint64_t)u.field[d.seat][0] : 0);
        const uint8_t *v = d.view, *l = d.legal, *a = d.action;
        sum += v[h->view_size - 1] + l[h->legal_size - 1] + a[h->action_size - 1];
      }
    }
    if (rc < 0) check_refusal(rc, &err, path);
    tk_records_close(r);
    if (sum == 42) fprintf(stderr, " "); /* keep the reads */
  }

  /* the command, as a user runs it: the summary, then every decision described */
  char *dump[] = {"records", path, "--dump", NULL};
  tk_cmd_records(3, dump);
  unlink(path);
  return 0;
}
