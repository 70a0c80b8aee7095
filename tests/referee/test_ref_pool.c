/* tests/referee/test_ref_pool.c — the worker pool's dispatch policy and figures: chunk sizes
 * (guided self-scheduling, bounded), the schedule model's known answers (order, chunking, the
 * parent's cost, its serial bound), and a real pool run's figures (units, commands, each unit's
 * CPU) with its records still in unit order. No figure is compared with a time. */
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "run.h"
#include "unit.h"

#define PLUGIN(name) TK_PLUGIN_DIR "/" name ".so"

static void test_chunk(void) {
  TK_EQ(tk_pool_chunk(0, 16), 0, "nothing left");
  TK_EQ(tk_pool_chunk(1000, 4), 62, "left / (4 jobs)");
  TK_EQ(tk_pool_chunk(130000, 16), TK_POOL_CHUNK_MAX, "capped");
  TK_EQ(tk_pool_chunk(63, 16), 1, "the tail: one unit at a time");
  TK_EQ(tk_pool_chunk(128, 2), 16, "left / (4 jobs)");
  TK_EQ(tk_pool_chunk(8, 0), 2, "no jobs counts as one");
  /* the whole sequence for 10 units on one worker: 2, 2, then ones */
  uint64_t left = 10, seq[16], k = 0;
  while (left && k < 16) left -= seq[k++] = tk_pool_chunk(left, 1);
  TK_EQ(k, 8, "commands for 10 units, -j 1");
  TK_EQ(seq[0], 2, "first chunk");
  TK_EQ(seq[1], 2, "second chunk");
  TK_EQ(seq[2], 1, "third chunk");
}

static void test_model(void) {
  int64_t eq[4] = {5, 5, 5, 5};
  TK_EQ(tk_pool_model(eq, 4, 2, 0), 10, "four equal units on two workers");
  int64_t first_long[4] = {100, 1, 1, 1}, last_long[4] = {1, 1, 1, 100};
  TK_EQ(tk_pool_model(first_long, 4, 2, 0), 100, "the long unit first");
  TK_EQ(tk_pool_model(last_long, 4, 2, 0), 101, "the long unit last waits for a worker");
  int64_t zero[4] = {0, 0, 0, 0};
  TK_EQ(tk_pool_model(zero, 4, 4, 5), 20, "the parent's serial work bounds the run");
  int64_t two[2] = {10, 10};
  TK_EQ(tk_pool_model(two, 2, 2, 1), 11, "the parent's cost per unit on the workers' cores");
  TK_EQ(tk_pool_model(two, 2, 8, 0), 10, "more workers than units");
  TK_EQ(tk_pool_model(two, 0, 2, 0), 0, "no units");
  /* chunks of units 1..40 on three workers (an independent simulation gives these) */
  int64_t ramp[40], ones[64];
  for (int i = 0; i < 40; i++) ramp[i] = i + 1;
  for (int i = 0; i < 64; i++) ones[i] = 1;
  TK_EQ(tk_pool_model(ramp, 40, 3, 0), 290, "ramp, -j 3");
  TK_EQ(tk_pool_model(ramp, 40, 3, 2), 316, "ramp, -j 3, parent 2 per unit");
  TK_EQ(tk_pool_model(ones, 64, 2, 0), 32, "64 equal units, -j 2");
  TK_EQ(tk_pool_model(ramp, 40, 1, 0), 820, "one worker: the sum");
}

/* ---- a real pool run */

typedef struct seen {
  uint64_t next, bad;
} seen;

static int sink(void *ctx, tk_unit_rec *rec, const void *records, size_t records_len) {
  (void)records, (void)records_len;
  seen *s = ctx;
  if (rec->unit != s->next) s->bad++;
  s->next = rec->unit + 1;
  return 0;
}

static void run_pool(int jobs, uint64_t walls, uint64_t want_commands) {
  tk_spec spec;
  tk_run r;
  tk_error e;
  tk_error_clear(&e);
  char text[512];
  snprintf(text, sizeof text, "{\"game\": \"solo\", \"walls\": %llu, \"agents\": [{\"plugin\": \""
           PLUGIN("greedy") "\", \"label\": \"greedy\"}]}", (unsigned long long)walls);
  int rc = tk_spec_parse(text, "pool.json", &spec, &e);
  if (!rc) rc = tk_run_prepare(&r, &spec, NULL, &e);
  if (rc) {
    TK_FAILF("prepare: %s", e.msg);
    return;
  }
  int64_t *cpu = calloc(walls + 1, sizeof *cpu);
  for (uint64_t i = 0; i <= walls; i++) cpu[i] = -1;
  tk_pool_keep_unit_cpu(cpu, walls);
  seen s = {0, 0};
  rc = tk_pool_run(&r, 0, walls, jobs, sink, &s, NULL, NULL, &e);
  tk_pool_keep_unit_cpu(NULL, 0);
  TK_EQ(rc, 0, e.msg);
  tk_pool_stats st;
  tk_pool_last_stats(&st);
  TK_EQ(s.bad, 0, "records in unit order");
  TK_EQ(s.next, walls, "every unit");
  TK_EQ(st.units, walls, "units counted");
  TK_EQ(st.jobs, jobs, "jobs");
  TK_EQ(st.commands, want_commands, "one command per chunk of tk_pool_chunk");
  int64_t sum = 0, max = 0;
  for (uint64_t i = 0; i < walls; i++) {
    if (cpu[i] < 0) TK_FAILF("unit %llu: no CPU time kept", (unsigned long long)i);
    sum += cpu[i];
    if (cpu[i] > max) max = cpu[i];
  }
  TK_EQ(cpu[walls], -1, "nothing kept past the cap");
  TK_EQ(sum, st.unit_cpu_ns, "the kept times sum to the units' CPU");
  TK_EQ(max, st.unit_cpu_max_ns, "the longest unit");
  CU_ASSERT(st.parent_cpu_ns >= 0);
  free(cpu);
  tk_run_free(&r);
}

static void test_run_one_worker(void) {
  run_pool(1, 10, 8);
  /* chunks of up to 64 units reach the parent about 50 at a read (a worker writes 64 KB at a
   * time): the sink takes them in slices of 16, and a slice that lost or repeated a unit
   * would break the order */
  run_pool(1, 300, 21);
}
/* the chunk sequence depends only on the units left, whichever worker asks: 31 for 100, -j 2 */
static void test_run_two_workers(void) { run_pool(2, 100, 31); }

int main(void) {
  CU_TestInfo tests[] = {
      {"chunk", test_chunk},
      {"model", test_model},
      {"run_one_worker", test_run_one_worker},
      {"run_two_workers", test_run_two_workers},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee pool", tests);
}
