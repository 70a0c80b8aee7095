/* tests/riichi/test_riichi_mcp_gate.c — the CI guard of paper 000's figure 4 (MCP, policy
 * opponents): success rises with the number of training examples.
 *
 * The committed default weights of riichi_mcp (plugins/riichi_mcp/riichi_mcp.tkw, about 10^6
 * examples) and the snapshot of the same training run after 10^4 examples
 * (tests/data/riichi_mcp_snapshot_10000.tkw) play target mode h = 1 on the same hands of
 * riichi_mcp_eval (seed 1001, policy opponents, as the report's figure 4). The guard holds when
 * the default's 95 % Wilson interval lies wholly above the snapshot's. The hands are dealt from
 * the seed, so the outcome is a function of the code and the two files: a change to the features,
 * the target mode, the engine or the policy that undoes what the training learned fails here.
 * reports/riichi-mcp-table-5.md has the full curve. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../unit.h"

enum { HANDS = 400 };

static int sh(const char *cmd) {
  int rc = system(cmd);
  return rc == -1 ? -1 : rc >> 8;
}

/* Target mode h = 1 of weights `w` on the guard's hands: its success rate and 95 % interval.
 * Returns 0, or -1 after a failure message. */
static int success(const char *w, const char *tag, double *rate, double ci[2]) {
  char cmd[4096], out[1024];
  snprintf(out, sizeof out, "%s/gate-%s.json", TK_WORK_DIR, tag);
  snprintf(cmd, sizeof cmd,
           "%s --weights %s --opponents policy --seed 1001 -n %d --mcp %s --targets 1 -j 2 "
           "--out %s > %s/gate-%s.txt",
           TK_EVAL_BIN, TK_OP_WEIGHTS, HANDS, w, out, TK_WORK_DIR, tag);
  if (sh(cmd)) {
    TK_FAILF("riichi_mcp_eval failed: %s", cmd);
    return -1;
  }
  json_error_t je;
  json_t *root = json_load_file(out, 0, &je);
  if (!root) {
    TK_FAILF("%s: %s", out, je.text);
    return -1;
  }
  int found = 0;
  size_t i;
  json_t *r;
  json_array_foreach(json_object_get(root, "rows"), i, r) {
    if (strcmp(json_string_value(json_object_get(r, "agent")), "mcp-1")) continue;
    *rate = json_number_value(json_object_get(r, "rate"));
    ci[0] = json_number_value(json_array_get(json_object_get(r, "ci"), 0));
    ci[1] = json_number_value(json_array_get(json_object_get(r, "ci"), 1));
    found = 1;
  }
  json_decref(root);
  if (!found) TK_FAILF("%s: no mcp-1 row", out);
  return found ? 0 : -1;
}

static void test_rises(void) {
  double lo_rate, lo_ci[2], hi_rate, hi_ci[2];
  if (success(TK_SNAPSHOT, "snapshot", &lo_rate, lo_ci)) return;
  if (success(TK_DEFAULT, "default", &hi_rate, hi_ci)) return;
  printf("\n  MCP target 1, policy opponents, %d hands: 10^4 examples %.4f [%.4f, %.4f], default "
         "%.4f [%.4f, %.4f]\n",
         HANDS, lo_rate, lo_ci[0], lo_ci[1], hi_rate, hi_ci[0], hi_ci[1]);
  if (!(hi_ci[0] > lo_ci[1]))
    TK_FAILF("the default weights' success %.4f [%.4f, %.4f] is not above the 10^4-example "
             "snapshot's %.4f [%.4f, %.4f]",
             hi_rate, hi_ci[0], hi_ci[1], lo_rate, lo_ci[0], lo_ci[1]);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"MCP success rises with the training examples (figure 4, small)", test_rises},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_mcp_gate", tests);
}
