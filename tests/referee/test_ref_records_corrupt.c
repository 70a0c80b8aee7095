/* tests/referee/test_ref_records_corrupt.c — the records reader on crafted files whose checksums
 * are valid but whose fields are out of range (a decision's seat or agent, a seat's agent or
 * fault kind, the header's counts, sizes and names): each is refused by tk_records_open or
 * tk_records_next with the file, the unit and the field and its value named, and `taikai records
 * --dump` exits 1 with that message instead of crashing; a FIFO or a device is refused at once. */
#include <sys/stat.h>

#include "taikai/records.h"

#define WORK TK_WORK_DIR "-records-corrupt"
#include "e2e_util.h"

enum { VIEW = 12, LEGAL = 6, ACTION = 2 };

/* What the crafted file gets wrong (one thing at a time). */
typedef struct craft {
  uint32_t nseats, nfields, nagents; /* the header's */
  uint32_t dec_seat, dec_agent;      /* the first decision's */
  int32_t seat_agent, fault_kind;    /* seat 0's */
  uint32_t unit_nseats;              /* the unit's */
} craft;

static craft good(void) {
  return (craft){.nseats = 2, .nfields = 1, .nagents = 2, .dec_seat = 1, .dec_agent = 1,
                 .seat_agent = 0, .fault_kind = 0, .unit_nseats = 2};
}

/* Writes a file of one unit with two decisions, with the library's own writer (so the unit's
 * checksum is valid whatever it holds). */
static const char *write_crafted(const char *name, craft c) {
  const char *path = W(name);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  tk_records_header h;
  memset(&h, 0, sizeof h);
  h.abi_version = 1;
  h.types_version = 1;
  h.view_size = VIEW;
  h.legal_size = LEGAL;
  h.action_size = ACTION;
  h.nseats = c.nseats;
  h.nfields = c.nfields;
  h.nagents = c.nagents;
  snprintf(h.game, sizeof h.game, "crafted");
  static const char *fields[TK_RECORDS_MAX_FIELDS + 1], *agents[TK_RECORDS_MAX_AGENTS + 1];
  for (int i = 0; i <= TK_RECORDS_MAX_FIELDS; i++) fields[i] = "points";
  for (int i = 0; i <= TK_RECORDS_MAX_AGENTS; i++) agents[i] = i % 2 ? "b" : "a";
  memcpy(h.field, fields, sizeof h.field);
  memcpy(h.agent, agents, sizeof h.agent);
  if (c.nfields > TK_RECORDS_MAX_FIELDS) h.nfields = 0; /* written by hand below */
  if (c.nagents > TK_RECORDS_MAX_AGENTS) h.nagents = 1;
  CU_ASSERT_EQUAL_FATAL(tk_records_write_header(f, &h), 0);
  tk_records_builder b;
  tk_records_builder_init(&b, VIEW, LEGAL, ACTION);
  uint8_t view[VIEW] = {1}, legal[LEGAL] = {2}, action[ACTION] = {3};
  CU_ASSERT_EQUAL(tk_records_builder_add(&b, c.dec_seat, c.dec_agent, view, legal, action), 0);
  CU_ASSERT_EQUAL(tk_records_builder_add(&b, 0, 0, view, legal, action), 0);
  int32_t agent[TK_RECORDS_MAX_SEATS] = {c.seat_agent, 1}, kind[TK_RECORDS_MAX_SEATS] = {
                                                               c.fault_kind};
  int64_t field[TK_RECORDS_MAX_SEATS][TK_RECORDS_MAX_FIELDS] = {{10}, {20}};
  uint32_t n = c.unit_nseats > TK_RECORDS_MAX_SEATS ? TK_RECORDS_MAX_SEATS : c.unit_nseats;
  CU_ASSERT_EQUAL(tk_records_builder_pack(&b, 7, 3, n, h.nfields, agent, kind,
                                          (const int64_t(*)[TK_RECORDS_MAX_FIELDS])field), 0);
  fwrite(b.packed, 1, b.packed_len, f);
  tk_records_builder_free(&b);
  fclose(f);
  /* the header's counts beyond what the writer takes: patched in place */
  if (c.nfields != h.nfields || c.nagents != h.nagents) {
    FILE *g = fopen(path, "r+b");
    uint8_t v[4];
    uint32_t x = c.nfields != h.nfields ? c.nfields : c.nagents;
    for (int i = 0; i < 4; i++) v[i] = (uint8_t)(x >> (8 * i));
    fseek(g, c.nfields != h.nfields ? 36 : 40, SEEK_SET);
    fwrite(v, 1, 4, g);
    fclose(g);
  }
  return path;
}

/* Reads `path` to its end; returns the first error (0 if none) with its message in *e. */
static int read_all(const char *path, tk_error *e) {
  tk_error_clear(e);
  tk_records *r;
  int rc = tk_records_open(path, &r, e);
  if (rc) return rc;
  tk_records_unit u;
  long long decisions = 0;
  while ((rc = tk_records_next(r, &u, e)) == 1)
    for (uint32_t i = 0; i < u.ndecisions; i++) {
      tk_records_decision d;
      tk_records_decision_at(r, &u, i, &d);
      decisions += u.field[d.seat][0] + d.agent; /* what a trainer does with them */
    }
  tk_records_close(r);
  return rc < 0 ? rc : 0;
}

/* The crafted file is refused with a message holding each of `want` (NULL-terminated), and
 * `taikai records FILE --dump` exits `status` with it. */
static void refused(const char *name, craft c, int status, const char *const *want) {
  const char *path = write_crafted(name, c);
  tk_error e;
  int rc = read_all(path, &e);
  if (rc != TK_EPARSE) TK_FAILF("%s: read returned %d, expected TK_EPARSE ('%s')", name, rc, e.msg);
  for (int i = 0; want[i]; i++)
    if (!strstr(e.msg, want[i])) TK_FAILF("%s: '%s' lacks '%s'", name, e.msg, want[i]);
  if (!strstr(e.msg, path)) TK_FAILF("%s: '%s' does not name the file", name, e.msg);
  const char *a[] = {"records", path, "--dump", NULL};
  TK_EQ(taikai(a), status, name);
  for (int i = 0; want[i]; i++)
    if (!strstr(err_buf, want[i])) TK_FAILF("%s: taikai records said '%s'", name, err_buf);
}

static void test_good(void) {
  tk_error e;
  TK_EQ(read_all(write_crafted("good.tkr", good()), &e), 0, e.msg);
  const char *a[] = {"records", W("good.tkr"), "--dump", NULL};
  TK_EQ(taikai(a), 0, "taikai records --dump of a good file");
}

static void test_decision_fields(void) {
  craft c = good();
  c.dec_seat = 100000000;
  refused("seat.tkr", c, 1,
          (const char *[]){"unit 7", "decision 0", "seat 100000000 out of range", NULL});
  c = good();
  c.dec_seat = 2; /* the first seat past the unit's */
  refused("seat2.tkr", c, 1, (const char *[]){"decision 0", "seat 2 out of range", NULL});
  c = good();
  c.dec_agent = 2;
  refused("agent.tkr", c, 1, (const char *[]){"decision 0", "agent 2 out of range", NULL});
}

static void test_seat_fields(void) {
  craft c = good();
  c.seat_agent = -1;
  refused("seat_agent.tkr", c, 1, (const char *[]){"unit 7", "seat 0: agent -1", NULL});
  c.seat_agent = 2;
  refused("seat_agent2.tkr", c, 1, (const char *[]){"seat 0: agent 2", NULL});
  c = good();
  c.fault_kind = 99;
  refused("fault.tkr", c, 1, (const char *[]){"seat 0: fault_kind 99", NULL});
  c = good();
  c.unit_nseats = 1;
  refused("nseats.tkr", c, 1, (const char *[]){"unit 7", "nseats 1, the header says 2", NULL});
}

static void test_header_fields(void) {
  craft c = good();
  c.nseats = 9;
  c.unit_nseats = 9;
  refused("h_nseats.tkr", c, 2, (const char *[]){"header: nseats 9 out of range", NULL});
  c = good();
  c.nfields = 17;
  refused("h_nfields.tkr", c, 2, (const char *[]){"header: nfields 17 out of range", NULL});
  c = good();
  c.nagents = 0;
  refused("h_nagents.tkr", c, 2, (const char *[]){"header: nagents 0 out of range", NULL});
  /* a names block with one name fewer than nagents says (the count patched after writing) */
  c = good();
  c.nagents = 3;
  c.seat_agent = 0;
  const char *p = write_crafted("h_names.tkr", c);
  FILE *g = fopen(p, "r+b");
  fseek(g, 40, SEEK_SET);
  fwrite((uint8_t[]){4, 0, 0, 0}, 1, 4, g);
  fclose(g);
  tk_error e;
  TK_EQ(read_all(p, &e), TK_EPARSE, "names cut short");
  if (!strstr(e.msg, "agent label 3 missing")) TK_FAILF("names: '%s'", e.msg);
}

static void test_not_regular(void) {
  tk_error e;
  tk_error_clear(&e);
  tk_records *r;
  TK_EQ(tk_records_open("/dev/zero", &r, &e), TK_EINVAL, "/dev/zero");
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/dev/zero"));
  const char *fifo = W("fifo.tkr");
  CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
  tk_error_clear(&e);
  TK_EQ(tk_records_open(fifo, &r, &e), TK_EINVAL, "a FIFO (no writer: would block in open)");
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "FIFO"));
  const char *a[] = {"records", fifo, NULL};
  TK_EQ(taikai(a), 2, "taikai records FIFO");
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"good", test_good},
      {"decision_fields", test_decision_fields},
      {"seat_fields", test_seat_fields},
      {"header_fields", test_header_fields},
      {"not_regular", test_not_regular},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("records reader: crafted files", tests);
}
