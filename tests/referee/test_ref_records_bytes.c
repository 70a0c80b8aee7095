/* tests/referee/test_ref_records_bytes.c — records.tkr is a function of the spec alone: for each
 * game (solo, riichi, daifugo) two identical runs with --records give the same bytes, the second
 * run with its heap poisoned (MALLOC_PERTURB_: every malloc'd byte not written is 0x5a, every
 * freed one 0xa5) and an agent whose actions carry garbage in their reserved bytes
 * (fixtures/sloppy.c, TK_FX_PADDING): a view, legal list or action byte the referee or the
 * engine leaves unwritten, or an agent's padding recorded, makes them differ. */
#include "taikai/records.h"

#define WORK TK_WORK_DIR "-records-bytes"
#include "e2e_util.h"

/* Runs `spec` twice into WORK/<name>-clean and WORK/<name>-poisoned and compares the records. */
static void same_records(const char *name, const char *spec_body) {
  char spec[1200], clean[1200], poisoned[1200], a[1300], b[1300];
  snprintf(spec, sizeof spec, "%s/%s.json", WORK, name);
  snprintf(clean, sizeof clean, "%s/%s-clean", WORK, name);
  snprintf(poisoned, sizeof poisoned, "%s/%s-poisoned", WORK, name);
  write_file(spec, spec_body);
  const char *r1[] = {"run", spec, "-j", "1", "--records", "--out", clean, "--quiet", NULL};
  TK_EQ(taikai(r1), 0, name);
  setenv("MALLOC_PERTURB_", "165", 1);
  setenv("TK_FX_PADDING", "165", 1);
  const char *r2[] = {"run", spec, "-j", "2", "--records", "--out", poisoned, "--quiet", NULL};
  TK_EQ(taikai(r2), 0, name);
  unsetenv("MALLOC_PERTURB_");
  unsetenv("TK_FX_PADDING");
  snprintf(a, sizeof a, "%s/records.tkr", clean);
  snprintf(b, sizeof b, "%s/records.tkr", poisoned);
  if (!same_bytes(a, b)) TK_FAILF("%s: %s and %s differ", name, a, b);
  /* and the records hold decisions */
  tk_records *r;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_records_open(a, &r, &e), 0);
  tk_records_unit u;
  long long decisions = 0;
  while (tk_records_next(r, &u, &e) == 1) decisions += u.ndecisions;
  tk_records_close(r);
  if (decisions < 100) TK_FAILF("%s: %lld decisions recorded", name, decisions);
}

static void test_solo(void) {
  same_records("solo", "{\"game\": \"solo\", \"seed\": 7, \"walls\": 30, \"agents\": "
                       "[{\"plugin\": \"greedy\"}, {\"plugin\": \"tsumogiri\"}, "
                       "{\"plugin\": \"random\"}]}\n");
}

static void test_riichi(void) {
  same_records("riichi", "{\"game\": \"riichi\", \"seed\": 3, \"walls\": 1, \"format\": "
                         "\"duplicate\", \"agents\": [{\"plugin\": \"riichi_greedy\"}, "
                         "{\"plugin\": \"" TK_FIXTURE_DIR "/sloppy_riichi.so\"}], "
                         "\"rules\": {\"length\": \"east\"}}\n");
}

static void test_daifugo(void) {
  same_records("daifugo", "{\"game\": \"daifugo\", \"seed\": 11, \"walls\": 1, \"format\": "
                          "\"duplicate\", \"agents\": [{\"plugin\": \"daifugo_random\"}, "
                          "{\"plugin\": \"" TK_FIXTURE_DIR "/sloppy_daifugo.so\"}], "
                          "\"rules\": {\"block_games\": 4}}\n");
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"solo", test_solo},
      {"riichi", test_riichi},
      {"daifugo", test_daifugo},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("records.tkr: the same bytes whatever the memory held", tests);
}
