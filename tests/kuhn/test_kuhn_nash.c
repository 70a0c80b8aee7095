/* tests/kuhn/test_kuhn_nash.c — the equilibrium family (tk_kuhn_nash) computed exactly: player
 * 0's expected value over the six deals is -1/18 for several alpha, and no pure strategy of
 * either player gains anything against it (exploitability 0), while it does gain against a
 * strategy off the family (the best response is able to find a gain). Then the kuhn_nash
 * plugin itself (loaded from the build): its moves follow tk_kuhn_nash at each of the twelve
 * decisions, and an alpha out of range is refused naming the field and the value. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "taikai/kuhn.h"
#include "unit.h"

/* A strategy: the probability of the aggressive move at each information set. */
typedef struct strategy {
  double p[TK_KUHN_INFOSETS];
} strategy;

static strategy nash(double alpha) {
  strategy s;
  for (int i = 0; i < TK_KUHN_INFOSETS; i++) s.p[i] = tk_kuhn_nash(alpha, i);
  return s;
}

/* Player 0's expected chips from the hand `g` with the players' strategies. */
static double value(const tk_kuhn_game *g, const strategy *s0, const strategy *s1) {
  int seat = tk_kuhn_to_act(g);
  if (seat < 0) return g->chips[0];
  tk_kuhn_view v;
  tk_kuhn_legal l;
  tk_kuhn_view_of(g, seat, &v);
  tk_kuhn_legal_of(g, &l);
  double p = (seat ? s1 : s0)->p[tk_kuhn_infoset(&v)], ev = 0;
  for (int k = 0; k < 2; k++) {
    double w = k ? p : 1 - p;
    if (w == 0) continue;
    tk_kuhn_game next = *g;
    tk_kuhn_action a = {l.a[k]};
    tk_kuhn_apply(&next, seat, &a, NULL);
    ev += w * value(&next, s0, s1);
  }
  return ev;
}

/* Player 0's expected value over the six equally likely deals. */
static double expected(const strategy *s0, const strategy *s1) {
  double ev = 0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      if (a == b) continue;
      tk_kuhn_game g;
      uint8_t c[2] = {(uint8_t)a, (uint8_t)b};
      tk_kuhn_init(&g, c, NULL);
      ev += value(&g, s0, s1) / 6.0;
    }
  return ev;
}

/* The best value `seat` can get against the other's strategy `s`: the maximum over its 64 pure
 * strategies (one move at each of its six information sets), as seat's own chips. */
static double best_response(int seat, const strategy *s) {
  double best = -INFINITY;
  for (int bits = 0; bits < 64; bits++) {
    strategy pure = *s;
    int k = 0;
    for (int i = 0; i < TK_KUHN_INFOSETS; i++) {
      int situation = i / 3, owner = situation == 1 || situation == 2;
      if (owner == seat) pure.p[i] = bits >> k++ & 1;
    }
    double v = seat ? -expected(s, &pure) : expected(&pure, s);
    if (v > best) best = v;
  }
  return best;
}

static void test_value(void) {
  const double alphas[] = {0, 1.0 / 12, 1.0 / 6, 0.25, 1.0 / 3};
  for (size_t i = 0; i < sizeof alphas / sizeof *alphas; i++) {
    strategy s = nash(alphas[i]);
    double v = expected(&s, &s);
    if (fabs(v - (-1.0 / 18)) > 1e-12)
      TK_FAILF("alpha %.6f: player 0's value %.17g, expected -1/18 = %.17g", alphas[i], v,
               -1.0 / 18);
    /* mixing two members of the family: player 1's part does not depend on alpha */
    strategy s0 = nash(alphas[i]), s1 = nash(1.0 / 3 - alphas[i]);
    v = expected(&s0, &s1);
    if (fabs(v - (-1.0 / 18)) > 1e-12)
      TK_FAILF("alpha %.6f vs %.6f: %.17g", alphas[i], 1.0 / 3 - alphas[i], v);
  }
}

static void test_exploitability(void) {
  const double alphas[] = {0, 1.0 / 6, 1.0 / 3};
  for (size_t i = 0; i < sizeof alphas / sizeof *alphas; i++) {
    strategy s = nash(alphas[i]);
    double br1 = best_response(1, &s), br0 = best_response(0, &s);
    /* exploitability: what the best responses gain over the equilibrium's values */
    double gain1 = br1 - 1.0 / 18, gain0 = br0 - (-1.0 / 18);
    if (fabs(gain1) > 1e-12 || fabs(gain0) > 1e-12)
      TK_FAILF("alpha %.6f: best response gains %.3g as player 1, %.3g as player 0",
               alphas[i], gain1, gain0);
  }
  /* off the family: player 0 betting a J with probability 1/2 is exploitable */
  strategy s = nash(1.0 / 6);
  s.p[0 * 3 + TK_KUHN_J] = 0.5;
  CU_ASSERT(best_response(1, &s) > 1.0 / 18 + 0.01);
  /* and a uniformly random player loses chips to the equilibrium in both seats */
  strategy r;
  for (int i = 0; i < TK_KUHN_INFOSETS; i++) r.p[i] = 0.5;
  strategy n = nash(0.2); /* kuhn_nash's default: arenas/kuhn/nash-vs-random.reference.json */
  double v0 = expected(&n, &r), v1 = -expected(&r, &n);
  if (fabs(v0 - 11.0 / 90) > 1e-12 || fabs(v1 - 1.0 / 6) > 1e-12)
    TK_FAILF("nash (alpha 0.2) against random: %.17g as player 0 (11/90), %.17g as player 1 (1/6)",
             v0, v1);
  CU_ASSERT(isnan(tk_kuhn_nash(0.1, -1)) && isnan(tk_kuhn_nash(0.1, TK_KUHN_INFOSETS)));
}

/* ------------------------------------------------------------ the plugin */

static const tk_agent_descriptor *load(void) {
  static const tk_agent_descriptor *d;
  if (d) return d;
  void *h = dlopen(TK_PLUGIN_DIR "/kuhn_nash.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    TK_FAILF("dlopen kuhn_nash.so: %s", dlerror());
    return NULL;
  }
  tk_agent_entry_fn entry = (tk_agent_entry_fn)(uintptr_t)dlsym(h, TK_AGENT_ENTRY_SYMBOL);
  return d = entry ? entry() : NULL;
}

static void test_plugin_frequencies(void) {
  const tk_agent_descriptor *d = load();
  if (!d) return;
  CU_ASSERT_STRING_EQUAL(d->game, "kuhn");
  const double alpha = 0.25;
  tk_error err;
  tk_error_clear(&err);
  tk_agent_instance *a = d->create("{\"alpha\": 0.25}", 1, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  /* every decision: the hand led there, then 20,000 calls, each in a game of its own seed */
  const int moves[4][2] = {{-1, -1}, {TK_KUHN_CHECK, -1}, {TK_KUHN_BET, -1},
                           {TK_KUHN_CHECK, TK_KUHN_BET}};
  for (int situation = 0; situation < 4; situation++)
    for (int card = 0; card < 3; card++) {
      tk_kuhn_game g;
      uint8_t c[2] = {(uint8_t)card, (uint8_t)(card == 0 ? 1 : 0)};
      if (situation == 1 || situation == 2) {
        c[1] = (uint8_t)card;
        c[0] = (uint8_t)(card == 0 ? 1 : 0);
      }
      tk_kuhn_init(&g, c, NULL);
      for (int k = 0; k < 2 && moves[situation][k] >= 0; k++) {
        tk_kuhn_action m = {(uint8_t)moves[situation][k]};
        tk_kuhn_apply(&g, tk_kuhn_to_act(&g), &m, NULL);
      }
      int seat = tk_kuhn_to_act(&g);
      tk_kuhn_view v;
      tk_kuhn_legal l;
      tk_kuhn_view_of(&g, seat, &v);
      tk_kuhn_legal_of(&g, &l);
      int is = tk_kuhn_infoset(&v), aggressive = 0, n = 20000;
      TK_EQ(is, 3 * situation + card, "the decision's infoset");
      for (int i = 0; i < n; i++) {
        tk_kuhn_info info = {{TK_AGENT_ABI_VERSION, sizeof info, (uint64_t)i * 7919 + 13,
                              (uint64_t)i, seat, 2}, (uint8_t)card, {0}};
        tk_kuhn_action out = {0xff};
        CU_ASSERT_EQUAL(d->begin_game(a, &info), 0);
        CU_ASSERT_EQUAL(d->act(a, &v, &l, &out), 0);
        if (!(l.mask >> out.move & 1)) {
          TK_FAILF("infoset %d: illegal move %d", is, out.move);
          break;
        }
        aggressive += out.move == l.a[1];
      }
      double p = tk_kuhn_nash(alpha, is), f = (double)aggressive / n;
      double sd = sqrt(p * (1 - p) / n);
      if (fabs(f - p) > 5 * sd + 1e-12)
        TK_FAILF("infoset %d (situation %d, card %s): aggressive %.4f of the time, expected %.4f",
                 is, situation, tk_kuhn_card_str(card), f, p);
    }
  d->destroy(a);
}

static void test_plugin_params(void) {
  const tk_agent_descriptor *d = load();
  if (!d) return;
  const char *bad[] = {"{\"alpha\": 0.5}", "{\"alpha\": -0.01}", "{\"alpha\": \"1/6\"}",
                       "{\"alpha\": 0.3333334}"};
  const char *shown[] = {"0.5", "-0.01", "\"1/6\"", "0.3333334"};
  for (int i = 0; i < 4; i++) {
    tk_error err;
    tk_error_clear(&err);
    tk_agent_instance *a = d->create(bad[i], 1, &err);
    if (a) {
      TK_FAILF("%s accepted", bad[i]);
      d->destroy(a);
      continue;
    }
    if (!strstr(err.msg, "'alpha'") || !strstr(err.msg, shown[i]))
      TK_FAILF("%s: message '%s' names neither the field nor the value", bad[i], err.msg);
  }
  const char *good[] = {"{\"alpha\": 0}", "{\"alpha\": 0.3333333333333333}", "{}"};
  for (int i = 0; i < 3; i++) {
    tk_error err;
    tk_error_clear(&err);
    tk_agent_instance *a = d->create(good[i], 1, &err);
    if (!a) TK_FAILF("%s refused: %s", good[i], err.msg);
    d->destroy(a);
  }
}

int main(void) {
  CU_TestInfo tests[] = {{"player 0's value is -1/18 for every alpha", test_value},
                         {"a best response gains nothing", test_exploitability},
                         {"kuhn_nash plays tk_kuhn_nash's probabilities", test_plugin_frequencies},
                         {"kuhn_nash refuses alpha out of range", test_plugin_params},
                         CU_TEST_INFO_NULL};
  return tk_unit_run("kuhn equilibrium", tests);
}
