/* tests/riichi/test_riichi_nn002.c — paper 002's network (plugins/riichi_nn002):
 * - the 820 inputs of a hand-built view, bit by bit (thermometer codes, relative seats);
 * - the gradient of one step against finite differences of the loss, for the paper's rule
 *   (sigmoid outputs, squared error, no biases: they stay 0) and the improved one;
 * - learning: trained on positions whose discard is a fixed rule of the hand, the network's
 *   agreement rises far above the baseline;
 * - the weights file's round trip and refusals;
 * - the plugin: a duplicate run against riichi_greedy the same at -j 1 and -j 2, only legal
 *   moves, no calls, and a bad parameter refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn.h"
#include "taikai/mahjong.h"
#include "taikai/weights.h"
#include "unit.h"

static int has(const uint16_t *x, int n, int bit) {
  for (int i = 0; i < n; i++)
    if (x[i] == bit) return 1;
  return 0;
}

static void encoding(void) {
  tk_riichi_view v;
  memset(&v, 0, sizeof v);
  v.seat = 1;
  v.riichi[3] = 1; /* two seats to the right of seat 1 */
  v.riichi[2] = 1; /* the seat to its right */
  v.hand[0] = 1;   /* 1m */
  v.hand[27] = 3;  /* East x3 */
  v.nriver[2] = 2; /* seat 2 (right of seat 1) discarded 5p twice */
  v.river[2][0].tile = 13, v.river[2][1].tile = 13 | TK_TILE_RED;
  v.seen[13] = 2;
  v.seen[0] = 3; /* three 1m visible elsewhere */
  uint16_t x[NN_MAX_ACTIVE];
  int n = nn_encode(&v, x);
  TK_EQ(has(x, n, NN_OFF_RIICHI + 2), 1, "seat 3's riichi is the across seat's bit");
  TK_EQ(has(x, n, NN_OFF_RIICHI + 0), 0, "no own riichi");
  TK_EQ(has(x, n, NN_OFF_RIICHI + 1), 1, "seat 2's riichi is the right seat's bit");
  TK_EQ(has(x, n, NN_OFF_RIICHI + 3), 0, "the left seat (seat 0) has none");
  TK_EQ(has(x, n, NN_OFF_HAND + 0), 1, "1m once: bit (0, 0)");
  TK_EQ(has(x, n, NN_OFF_HAND + 1), 0, "1m once: not bit (0, 1)");
  TK_EQ(has(x, n, NN_OFF_HAND + 4 * 27 + 2), 1, "East three times: bit (27, 2)");
  TK_EQ(has(x, n, NN_OFF_HAND + 4 * 27 + 3), 0, "East three times: not bit (27, 3)");
  TK_EQ(has(x, n, NN_OFF_RIVER + 136 * 1 + 4 * 13 + 1), 1, "the right seat's river: 5p twice (red counted)");
  TK_EQ(has(x, n, NN_OFF_RIVER + 136 * 0 + 4 * 13), 0, "not in the own river");
  TK_EQ(has(x, n, NN_OFF_UNSEEN + 4 * 0), 0, "1m: 4 - 1 - 3 = 0 unseen");
  TK_EQ(has(x, n, NN_OFF_UNSEEN + 4 * 13 + 1), 1, "5p: 2 unseen");
  TK_EQ(has(x, n, NN_OFF_UNSEEN + 4 * 13 + 2), 0, "5p: not 3 unseen");
  TK_EQ(has(x, n, NN_OFF_UNSEEN + 4 * 27), 1, "East: 1 unseen");
  /* 2 riichi + 4 hand + 2 river + unseen: 34 kinds x 4 minus 5p's 2, 1m's 4 and East's 3 */
  TK_EQ(n, 2 + 4 + 2 + (34 * 4 - 4 - 2 - 3), "the number of active inputs");
  for (int i = 1; i < n; i++)
    if (x[i] <= x[i - 1]) TK_FAILF("inputs not ascending at %d", i);
}

/* Finite differences of the loss against the step's change, one weight at a time. */
static void gradient(void) {
  for (int improved = 0; improved <= 1; improved++) {
    tk_rng rng;
    tk_rng_seed(&rng, 5);
    nn_model m;
    tk_error err = {0};
    TK_EQ(nn_init(&m, 4, improved, 0.5, &rng, &err), 0, "init");
    const uint16_t x[] = {3, 17, 200, 650, 800};
    const int nx = 5, target = 7;
    double h[4], o[NN_KINDS];
    /* the analytic step with eta: Δw = -eta dE/dw */
    nn_model c;
    TK_EQ(nn_init(&c, 4, improved, 0.5, &rng, &err), 0, "init copy");
    const double eta = 1e-3;
    static const struct { int v; int row, col; } probe[] = {
        {0, 0, 17}, {0, 3, 800}, {0, 2, NN_INPUTS}, {1, 7, 1}, {1, 0, 3}, {1, 7, 4}};
    for (size_t p = 0; p < sizeof probe / sizeof probe[0]; p++) {
      double *wm = probe[p].v ? &m.v[(size_t)probe[p].row * 5 + probe[p].col]
                              : &m.w[(size_t)probe[p].row * (NN_INPUTS + 1) + probe[p].col];
      /* numerical dE/dw */
      double keep = *wm, eps = 1e-6;
      *wm = keep + eps;
      nn_forward(&m, x, nx, h, o);
      double up = nn_loss(&m, o, target);
      *wm = keep - eps;
      nn_forward(&m, x, nx, h, o);
      double down = nn_loss(&m, o, target);
      *wm = keep;
      double num = (up - down) / (2 * eps);
      memcpy(c.w, m.w, sizeof(double) * 4 * (NN_INPUTS + 1));
      memcpy(c.v, m.v, sizeof(double) * NN_KINDS * 5);
      nn_step(&c, x, nx, target, eta, h, o);
      double *wc = probe[p].v ? &c.v[(size_t)probe[p].row * 5 + probe[p].col]
                              : &c.w[(size_t)probe[p].row * (NN_INPUTS + 1) + probe[p].col];
      double ana = -(*wc - keep) / eta;
      int bias = probe[p].v ? probe[p].col == 4 : probe[p].col == NN_INPUTS;
      if (bias && !improved) {
        TK_EQ(*wc == keep, 1, "the paper's rule leaves the biases alone");
        continue;
      }
      if (fabs(num - ana) > 1e-6 * (1 + fabs(num)))
        TK_FAILF("%s rule, probe %zu: dE/dw numerical %.9g, the step's %.9g",
                 improved ? "improved" : "paper's", p, num, ana);
      else
        CU_PASS("gradient");
    }
    nn_free(&m);
    nn_free(&c);
  }
}

/* Hands of 14 random tiles; the "player" discards the highest honor held, else the lowest
 * terminal, else the kind of most copies (first). */
static int rule(const uint8_t c[NN_KINDS]) {
  for (int k = 33; k >= 27; k--)
    if (c[k]) return k;
  for (int k = 0; k < 27; k++)
    if (c[k] && (k % 9 == 0 || k % 9 == 8)) return k;
  int best = -1;
  for (int k = 0; k < 27; k++)
    if (c[k] && (best < 0 || c[k] > c[best])) best = k;
  return best;
}

static void learning(void) {
  tk_rng rng;
  tk_rng_seed(&rng, 9);
  nn_model m;
  tk_error err = {0};
  TK_EQ(nn_init(&m, 40, 0, 0.05, &rng, &err), 0, "init");
  double h[40], o[NN_KINDS];
  int hit_before = 0, hit_after = 0, baseline = 0;
  const int N = 6000, TEST = 1000;
  for (int pass = 0; pass < 3; pass++) {
    tk_rng data;
    tk_rng_seed(&data, 77);
    for (int i = 0; i < N + TEST; i++) {
      tk_riichi_view v;
      memset(&v, 0, sizeof v);
      for (int t = 0; t < 14;) {
        int k = (int)tk_rng_below(&data, NN_KINDS);
        if (v.hand[k] < 4) v.hand[k]++, t++;
      }
      uint16_t x[NN_MAX_ACTIVE];
      int nx = nn_encode(&v, x);
      int target = rule(v.hand);
      if (i < N) {
        if (pass < 2) nn_step(&m, x, nx, target, 0.5, h, o);
        continue;
      }
      nn_forward(&m, x, nx, h, o);
      int k = nn_pick(o, v.hand);
      if (pass == 0) hit_before += k == target;
      if (pass == 2) hit_after += k == target;
      /* baseline: the lowest kind held */
      int low = 0;
      while (!v.hand[low]) low++;
      baseline += pass == 2 && low == target;
    }
  }
  if (!(hit_after > 2 * baseline && hit_after > TEST / 2))
    TK_FAILF("agreement after training %d of %d (during the first pass %d; lowest kind %d)",
             hit_after, TEST, hit_before, baseline);
  else
    CU_PASS("learns");
  /* the file's round trip */
  char path[600], cmd[700];
  snprintf(cmd, sizeof cmd, "mkdir -p %s", TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "work folder");
  snprintf(path, sizeof path, "%s/nn.tkw", TK_WORK_DIR);
  TK_EQ(nn_save(path, &m, &err), 0, "save");
  nn_model r;
  TK_EQ(nn_load(path, &r, &err), 0, "load");
  TK_EQ(r.hidden, 40, "hidden units from the file");
  TK_EQ(memcmp(r.w, m.w, sizeof(double) * 40 * (NN_INPUTS + 1)) == 0 &&
            memcmp(r.v, m.v, sizeof(double) * NN_KINDS * 41) == 0,
        1, "the same weights");
  nn_free(&r);
  /* refusals: another row length, another model */
  tk_weights w;
  memset(&w, 0, sizeof w);
  snprintf(w.model, sizeof w.model, "%s", NN_MODEL);
  w.feature_version = NN_VERSION;
  w.ndims = 2, w.shape[0] = 3, w.shape[1] = 100, w.count = 300;
  double z[300] = {0};
  w.values = z;
  TK_EQ(tk_weights_save(path, &w, &err), 0, "save a wrong shape");
  tk_error_clear(&err);
  TK_EQ(nn_load(path, &r, &err) != 0, 1, "a row of 100 is refused");
  if (!strstr(err.msg, path)) TK_FAILF("the message '%s' does not name the file", err.msg);
  snprintf(w.model, sizeof w.model, "riichi_efr");
  w.shape[1] = NN_ROW, w.shape[0] = 1, w.count = NN_ROW;
  double z2[NN_ROW] = {0};
  w.values = z2;
  TK_EQ(tk_weights_save(path, &w, &err), 0, "save another model");
  TK_EQ(nn_load(path, &r, &err) != 0, 1, "another model's file is refused");
  nn_free(&m);
}

static void plugin(void) {
  char cmd[4096], spec[600];
  snprintf(spec, sizeof spec, "%s/nn.json", TK_WORK_DIR);
  FILE *f = fopen(spec, "w");
  fprintf(f, "{\"game\": \"riichi\", \"seed\": 13, \"walls\": 3, \"format\": \"duplicate\", "
             "\"agents\": [{\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}, "
             "{\"plugin\": \"riichi_nn002\", \"label\": \"nn\"}], "
             "\"rules\": {\"length\": \"east\"}}\n");
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "rm -rf %s/r1 %s/r2 && " TK_TAIKAI_BIN " run %s --out %s/r1 -j 2 --quiet > /dev/null && "
           TK_TAIKAI_BIN " run %s --out %s/r2 -j 1 --quiet > /dev/null && "
           "cmp -s %s/r1/games.jsonl %s/r2/games.jsonl",
           TK_WORK_DIR, TK_WORK_DIR, spec, TK_WORK_DIR, spec, TK_WORK_DIR, TK_WORK_DIR, TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "the same games at -j 1 and -j 2");
  /* the referee forfeits an illegal move: no fault, and the network never calls */
  snprintf(cmd, sizeof cmd, "grep -q '\"faults\": 0' %s/r1/summary.json", TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "no fault");
  snprintf(cmd, sizeof cmd,
           "python3 -c \"import json; g=[json.loads(l) for l in open('%s/r1/games.jsonl')]; "
           "s=[x for u in g for x in u['seats'] if x['label']=='nn']; "
           "assert len(s)==12 and all(x['calls']==0 for x in s), s\"", TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "12 games of the network, no call in any");
  snprintf(spec, sizeof spec, "%s/bad.json", TK_WORK_DIR);
  f = fopen(spec, "w");
  fprintf(f, "{\"game\": \"riichi\", \"seed\": 13, \"walls\": 1, \"format\": \"duplicate\", "
             "\"agents\": [{\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}, "
             "{\"plugin\": \"riichi_nn002\", \"label\": \"nn\", \"params\": "
             "{\"weights\": \"/nonexistent/nn.tkw\"}}]}\n");
  fclose(f);
  snprintf(cmd, sizeof cmd, TK_TAIKAI_BIN " run %s --out %s/bad --quiet > %s/bad.out 2>&1",
           spec, TK_WORK_DIR, TK_WORK_DIR);
  if (system(cmd) == 0) TK_FAILF("a missing weights file accepted");
  snprintf(cmd, sizeof cmd, "grep -q '/nonexistent/nn.tkw' %s/bad.out", TK_WORK_DIR);
  TK_EQ(system(cmd), 0, "the message names the file");
}

int main(void) {
  CU_TestInfo tests[] = {{"the 820 inputs", encoding},
                         {"one step's gradient", gradient},
                         {"learning a fixed rule; the weights file", learning},
                         {"the plugin", plugin},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("riichi_nn002", tests);
}
