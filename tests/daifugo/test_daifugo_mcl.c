/* tests/daifugo/test_daifugo_mcl.c — the daifugo_mcl plugin (linked statically) and its playout
 * policy: playouts of the learned policy finish every game with legal moves (no pass on a new
 * table, and with playout_pass false none unless forced) for α 0, 0.6 and 1; α 0 plays h's argmax; a decision replays from its seed and depends
 * on the weights; parameter and weights-file errors name the field; a short tournament through
 * the `taikai` binary, whose spec.json records the weights file's hash; the trainer
 * daifugo_mcl_train on records of that binary; and every shipped weights file loads and plays. */
#include <dirent.h>
#include <math.h>

#include "daifugo_mcl/policy.h"
#include "dt.h"
#include "e2e_util.h"
#include "taikai/agent.h"
#include "taikai/weights.h"

const tk_agent_descriptor *taikai_agent_entry_daifugo_mcl(void);

#define AP_FILE TK_MCL_DIR "/daifugo_mcl_ap.tkw"
#define NN_FILE TK_MCL_DIR "/daifugo_mcl_nn.tkw"

static tk_weights AP, NN;
static tk_daifugo_legal L;

static int load_weights(void) {
  const uint32_t ap_shape[2] = {DMCL_BP, DMCL_CP}, nn_shape[2] = {16, DMCL_NN_ROW};
  tk_error err;
  tk_error_clear(&err);
  if (tk_weights_load(AP_FILE, DMCL_MODEL_AP, DMCL_FEATURE_VERSION, 2, ap_shape, &AP, &err) ||
      tk_weights_load(NN_FILE, DMCL_MODEL_NN, DMCL_FEATURE_VERSION, 2, nn_shape, &NN, &err)) {
    fprintf(stderr, "test_daifugo_mcl: %s\n", err.msg);
    return -1;
  }
  return 0;
}

/* Games from random deals played to the end by the policy: every move is in the legal list, no
 * pass on a new table while something else is legal, every game ends. */
static void playouts_finish(void) {
  const double alphas[3] = {0, 0.6, 1};
  tk_rng r;
  tk_rng_seed(&r, 21);
  for (int learner = 0; learner < 2; learner++)
    for (int ai = 0; ai < 6; ai++) {
      dmcl_policy pol = {.alpha = alphas[ai % 3], .no_pass = ai >= 3};
      if (dmcl_model_init(&pol.md, learner, 16, learner ? NN.values : AP.values)) {
        TK_FAILF("learner %d: dmcl_model_init failed", learner);
        return;
      }
      long bad = 0, moves = 0, passes = 0, forced = 0;
      for (int game = 0; game < 40; game++) {
        uint64_t hand[5] = {0};
        int c[53];
        for (int i = 0; i < 53; i++) c[i] = i;
        for (int i = 52; i > 0; i--) {
          int j = (int)tk_rng_below(&r, (uint32_t)i + 1), t = c[i];
          c[i] = c[j], c[j] = t;
        }
        for (int i = 0; i < 53; i++)
          hand[i % 5] |= c[i] == 52 ? TK_DAIFUGO_JOKER : TK_DAIFUGO_CARD(c[i] / 13, 1 + c[i] % 13);
        const uint8_t seats[5] = {0, 1, 2, 3, 4};
        tk_daifugo_game g;
        tk_daifugo_game_setup(&g, hand, seats, game % 5, 20, (uint64_t)game, NULL);
        int steps = 0;
        while (!g.over && steps < 2000) {
          tk_daifugo_move m;
          dmcl_policy_move(&pol, &g, &r, &m);
          tk_daifugo_game_legal(&g, &L);
          int found = 0;
          for (int i = 0; i < L.n; i++)
            found |= L.a[i].kind == m.kind && L.a[i].cards == m.cards && L.a[i].jcell == m.jcell;
          if (!found || (g.top.kind == TK_DAIFUGO_PASS && m.kind == TK_DAIFUGO_PASS && L.n > 1))
            bad++;
          passes += m.kind == TK_DAIFUGO_PASS;
          forced += m.kind == TK_DAIFUGO_PASS && L.n == 1;
          tk_daifugo_game_play(&g, &m);
          steps++, moves++;
        }
        if (!g.over) TK_FAILF("learner %d alpha %.1f game %d: not over after 2000 moves", learner,
                              pol.alpha, game);
      }
      if (bad) TK_FAILF("learner %d alpha %.1f: %ld of %ld moves illegal or a lead pass", learner,
                        pol.alpha, bad, moves);
      /* with no_pass the pass is played only when forced; without, and α > 0, every rank has a
       * chance, so the pass is played by choice too (α 0 plays the argmax, which may never be
       * the pass: the greedy teacher's AP never ranks it first) */
      if (pol.no_pass && passes != forced)
        TK_FAILF("learner %d alpha %.1f no_pass: %ld passes, %ld of them forced", learner,
                 pol.alpha, passes, forced);
      if (!pol.no_pass && pol.alpha > 0 && passes == forced)
        TK_FAILF("learner %d alpha %.1f: the pass was never chosen when a play was legal "
                 "(%ld passes, all forced)", learner, pol.alpha, passes);
      dmcl_model_free(&pol.md);
    }
}

/* α 0 plays the move of highest h (checked against dmcl_h on the positions of a few games). */
static void alpha0_is_argmax(void) {
  dmcl_policy pol = {.alpha = 0};
  if (dmcl_model_init(&pol.md, DMCL_AP, 0, AP.values)) {
    TK_FAILF("dmcl_model_init failed");
    return;
  }
  tk_rng r, deal;
  tk_rng_seed(&r, 8);
  tk_rng_seed(&deal, 9);
  long checked = 0;
  for (int game = 0; game < 10; game++) {
    uint64_t hand[5] = {0};
    for (int i = 0; i < 53; i++) {
      uint64_t card = i == 52 ? TK_DAIFUGO_JOKER : TK_DAIFUGO_CARD(i / 13, 1 + i % 13);
      hand[tk_rng_below(&deal, 5)] |= card;
    }
    const uint8_t seats[5] = {0, 1, 2, 3, 4};
    tk_daifugo_game g;
    if (tk_daifugo_game_setup(&g, hand, seats, 0, 20, 1, NULL)) continue;
    while (!g.over) {
      tk_daifugo_game_legal(&g, &L);
      int first = g.top.kind == TK_DAIFUGO_PASS && L.n > 1;
      dmcl_pos p;
      dmcl_pos_of_game(&g, &p);
      double best = -INFINITY;
      for (int i = first; i < L.n; i++) best = fmax(best, dmcl_h(&pol.md, &p, &L.a[i]));
      tk_daifugo_move m;
      dmcl_policy_move(&pol, &g, &r, &m);
      double hm = dmcl_h(&pol.md, &p, &m);
      if (hm != best) /* AP's sums are exact on its grid: the argmax, bit for bit */
        TK_FAILF("game %d: alpha 0 played h %.4f, the best is %.4f", game, hm, best);
      checked++;
      tk_daifugo_game_play(&g, &m);
    }
  }
  if (checked < 100) TK_FAILF("only %ld positions", checked);
  dmcl_model_free(&pol.md);
}

/* The decision of the plugin with `params` at the start of a fixed game, in notation. */
static const char *decide(const char *params, uint64_t seed, char *buf, size_t cap) {
  const tk_agent_descriptor *d = taikai_agent_entry_daifugo_mcl();
  tk_error err;
  tk_error_clear(&err);
  tk_agent_instance *a = d->create(params, seed, &err);
  if (!a) {
    snprintf(buf, cap, "(create: %.100s)", err.msg);
    return buf;
  }
  tk_daifugo_game g;
  dt_game(&g, "S3 H3 S5 D6 H9 C9 DT SJ HQ", NULL, "D3 C5 SK", "HA", "C4 D4 S6 S7 H8 CJ", 4);
  dt_play(&g, 4, "C4 D4");
  tk_daifugo_move first;
  tk_daifugo_view v;
  memset(&v, 0, sizeof v);
  v.player = v.turn = g.turn;
  v.decision = TK_DAIFUGO_DECIDE_PLAY;
  v.owner = g.owner;
  for (int p = 0; p < 5; p++) {
    v.count[p] = (uint8_t)__builtin_popcountll(g.hand[p]);
    v.seat_of[p] = g.seat_of[p];
    v.cls[p] = TK_DAIFUGO_NOBODY;
    v.order[p] = TK_DAIFUGO_NOBODY;
  }
  v.out = g.out;
  v.nout = g.nout;
  for (int i = 0; i < g.nout; i++) v.order[i] = g.order[i];
  v.hand = g.hand[g.turn];
  v.played = g.played;
  v.top = g.top;
  tk_daifugo_game_legal(&g, &L);
  if (d->act(a, &v, &L, &first)) snprintf(buf, cap, "(act failed)");
  else tk_daifugo_move_str(&first, buf, cap);
  d->destroy(a);
  return buf;
}

static void decisions_replay(void) {
  char a[128], b[128], c[128];
  const char *ap = "{\"weights\": \"" AP_FILE "\", \"playouts\": 300}";
  decide(ap, 5, a, sizeof a);
  decide(ap, 5, b, sizeof b);
  if (strcmp(a, b)) TK_FAILF("the same seed decided '%s' then '%s'", a, b);
  if (a[0] == '(') TK_FAILF("decision failed: %s", a);
  decide("{\"weights\": \"" NN_FILE "\", \"learner\": \"nn\", \"playouts\": 300}", 5, c, sizeof c);
  if (c[0] == '(') TK_FAILF("NN decision failed: %s", c);
  /* player 0 holds S3 H3 S5 D6 H9 C9 DT SJ HQ over the pair C4 D4: the pair of nines or the
   * pass; whatever it chose must be one of them */
  tk_daifugo_game g;
  dt_game(&g, "S3 H3 S5 D6 H9 C9 DT SJ HQ", NULL, "D3 C5 SK", "HA", "C4 D4 S6 S7 H8 CJ", 4);
  dt_play(&g, 4, "C4 D4");
  if (!dt_legal(&g, a) || !dt_legal(&g, c))
    TK_FAILF("chose '%s' (AP) and '%s' (NN), legal: %s", a, c, dt_legal_str(&g));
}

/* Every weights file shipped beside the plugin (daifugo_mcl_*.tkw: the defaults and the other
 * teachers' rankings that reports and specs name) loads and plays a legal move: a file left
 * behind by a change of the features or the format fails here, naming it. */
static void shipped_weights(void) {
  DIR *dir = opendir(TK_MCL_DIR);
  if (!dir) TK_FAILF("cannot list %s", TK_MCL_DIR);
  int n = 0, ok = 0;
  struct dirent *e;
  tk_daifugo_game g;
  dt_game(&g, "S3 H3 S5 D6 H9 C9 DT SJ HQ", NULL, "D3 C5 SK", "HA", "C4 D4 S6 S7 H8 CJ", 4);
  dt_play(&g, 4, "C4 D4");
  while ((e = readdir(dir))) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "daifugo_mcl_", 12) || len < 5 || strcmp(e->d_name + len - 4, ".tkw"))
      continue;
    int nn = !strncmp(e->d_name, "daifugo_mcl_nn", 14);
    char params[512], move[128];
    snprintf(params, sizeof params, "{\"weights\": \"%s/%s\", \"learner\": \"%s\", "
             "\"playouts\": 100}", TK_MCL_DIR, e->d_name, nn ? "nn" : "ap");
    decide(params, 3, move, sizeof move);
    n++;
    if (move[0] == '(' || !dt_legal(&g, move))
      TK_FAILF("%s: %s (legal: %s)", e->d_name, move, dt_legal_str(&g));
    else ok++;
  }
  closedir(dir);
  if (n < 8) TK_FAILF("%d shipped weights files in %s, expected at least 8", n, TK_MCL_DIR);
  printf("  %d shipped weights files, %d load and play\n", n, ok);
}

/* Errors name the parameter or the weights file and field. */
static void params_and_files(void) {
  static const struct {
    const char *params, *want;
  } cases[] = {
      {"{\"alpha\": 1.5}", "alpha must be a number from 0 to 1, got 1.5"},
      {"{\"alpha\": \"x\"}", "alpha must be a number from 0 to 1, got \"x\""},
      {"{\"learner\": \"svm\"}", "learner must be \"ap\" or \"nn\", got \"svm\""},
      {"{\"hidden\": 0}", "hidden must be an integer from 1 to 256, got 0"},
      {"{\"playout_pass\": 0}", "playout_pass must be true or false, got 0"},
      {"{\"weights\": 7}", "weights must be a path (a string), got 7"},
      {"{\"playouts\": 0}", "playouts"},
      {"{\"colour\": 1}", "unknown parameter 'colour'"},
      {"{\"weights\": \"/nonexistent/w.tkw\"}", "/nonexistent/w.tkw"},
      {"{\"weights\": \"" NN_FILE "\"}", "field 'model'"},
      {"{\"weights\": \"" NN_FILE "\", \"learner\": \"nn\", \"hidden\": 8}", "field 'shape[0]'"},
      {"{\"weights\": \"" AP_FILE "\", \"learner\": \"nn\"}", "field 'model'"},
  };
  const tk_agent_descriptor *d = taikai_agent_entry_daifugo_mcl();
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tk_error err;
    tk_error_clear(&err);
    tk_agent_instance *a = d->create(cases[i].params, 1, &err);
    if (a) {
      TK_FAILF("params %s accepted", cases[i].params);
      d->destroy(a);
    } else if (!strstr(err.msg, cases[i].want)) {
      TK_FAILF("params %s: error '%s' does not say '%s'", cases[i].params, err.msg, cases[i].want);
    } else {
      CU_PASS(cases[i].want);
    }
  }
}

/* A short tournament: mcl (default weights, 100 playouts) against four greedy copies. */
static void tournament(void) {
  char spec[1024];
  snprintf(spec, sizeof spec,
           "{\"game\": \"daifugo\", \"seed\": 4, \"walls\": 1, \"format\": \"duplicate\", "
           "\"agents\": [{\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}, {\"plugin\": "
           "\"daifugo_mcl\", \"label\": \"mcl\", \"params\": {\"playouts\": 100, "
           "\"exchange_playouts\": 100}}], \"rules\": {\"block_games\": 6}, \"output\": \"%s\"}\n",
           W("run"));
  write_file(W("mcl.json"), spec);
  const char *args[] = {"run", W("mcl.json"), "-j", "2", "--quiet", NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("taikai run: exit %d: %s", rc, err_buf);
  json_t *lines[8];
  int n = load_lines(W("run/games.jsonl"), lines, 8);
  TK_EQ(n, 5, "units of one duplicate wall");
  for (int i = 0; i < n; i++) json_decref(lines[i]);
  char text[1 << 14];
  slurp(W("run/spec.json"), text, sizeof text);
  if (!strstr(text, "daifugo_mcl_ap_mc.tkw") || !strstr(text, "\"sha256\""))
    TK_FAILF("spec.json does not record the default weights file: %.400s", text);
}

static int train(const char *args) { return run_program(TK_TRAIN_BIN, args); }

/* The trainer end to end: greedy records from the taikai binary, AP and NN weights that load
 * with the plugin's expectations, the same bytes from the same command, agreement lines, and
 * bad input refused with exit 2 and a message naming it. */
static void trainer(void) {
  char spec[1024], args[2048];
  snprintf(spec, sizeof spec,
           "{\"game\": \"daifugo\", \"seed\": 9, \"walls\": 2, \"format\": \"duplicate\", "
           "\"agents\": [{\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}, {\"plugin\": "
           "\"daifugo_greedy\", \"label\": \"greedy-copy\"}], \"rules\": {\"block_games\": 10}, "
           "\"output\": \"%s\"}\n",
           W("rec"));
  write_file(W("rec.json"), spec);
  const char *targs[] = {"run", W("rec.json"), "--records", "--quiet", NULL};
  int rc = taikai(targs);
  if (rc) {
    TK_FAILF("taikai run --records: exit %d: %s", rc, err_buf);
    return;
  }
  char rec[1600]; /* W's buffers rotate: keep a copy */
  snprintf(rec, sizeof rec, "%s", W("rec/records.tkr"));
  for (int learner = 0; learner < 2; learner++) {
    const char *name = learner ? "nn" : "ap";
    for (int k = 0; k < 2; k++) {
      snprintf(args, sizeof args, "'%s' --learner %s --one-unit-per-wall --train 300 --held 200 "
               "--every 100 --runs 2 --hidden 4 --out '%s'", rec, name, W(k ? "b.tkw" : "a.tkw"));
      rc = train(args);
      if (rc) TK_FAILF("%s: exit %d: %s", name, rc, err_buf);
    }
    if (!strstr(out_buf, "kept") || !strstr(out_buf, "       300 ") || !strstr(out_buf, "run 2: best"))
      TK_FAILF("%s: the output lacks the counts, the 300-position row or run 2: %s", name, out_buf);
    if (!same_bytes(W("a.tkw"), W("b.tkw"))) TK_FAILF("%s: the same command wrote other bytes", name);
    const uint32_t shape[2] = {learner ? 4u : DMCL_BP, learner ? DMCL_NN_ROW : DMCL_CP};
    tk_weights w;
    tk_error err;
    tk_error_clear(&err);
    if (tk_weights_load(W("a.tkw"), learner ? DMCL_MODEL_NN : DMCL_MODEL_AP, DMCL_FEATURE_VERSION,
                        2, shape, &w, &err))
      TK_FAILF("%s: %s", name, err.msg);
    else tk_weights_free(&w);
  }
  static const struct {
    const char *args, *want;
  } bad[] = {
      {"REC --learner svm --out X", "--learner: 'svm' is not one of ap, nn (see daifugo_mcl_train --help)"},
      {"REC --learner ap --out X --train 0", "--train: '0' is not a whole number from 1 to 10000000"},
      {"REC --learner ap --out X --teacher nobody", "no agent labelled 'nobody'"},
      {"REC --learner ap --out X --train 100000", "--train 100000 and --held 10000 need 110000"},
      {"/nonexistent.tkr --learner ap --out X", "/nonexistent.tkr"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char a[2048];
    const char *r = strstr(bad[i].args, "REC");
    if (r) snprintf(a, sizeof a, "'%s'%s", rec, r + 3);
    else snprintf(a, sizeof a, "%s", bad[i].args);
    rc = train(a);
    if (rc != 2 || !strstr(err_buf, bad[i].want))
      TK_FAILF("%s: exit %d, stderr '%s' (expected 2 and '%s')", bad[i].args, rc, err_buf, bad[i].want);
  }
}

/* The first integer after `label` in `text`, or -1. */
static long number_after(const char *text, const char *label) {
  const char *p = strstr(text, label);
  return p ? strtol(p + strlen(label), NULL, 10) : -1;
}

/* daifugo_mcl_teacher_noise on the trainer test's greedy records: it keeps exactly the trainer's
 * positions, its counts add up, the same command prints the same text, bad input exits 2. */
static void teacher_noise(void) {
  char rec[1600], args[2048];
  static char first[sizeof out_buf];
  snprintf(rec, sizeof rec, "%s", W("rec/records.tkr"));
  snprintf(args, sizeof args, "'%s' --learner ap --one-unit-per-wall --train 300 --held 200 "
           "--out '%s'", rec, W("n.tkw"));
  if (train(args)) {
    TK_FAILF("trainer: %s", err_buf);
    return;
  }
  long kept = number_after(out_buf, "play decisions: ");
  CU_ASSERT(kept > 500);
  snprintf(args, sizeof args, "'%s' --one-unit-per-wall --skip 0 --positions 40 --repeats 2 "
           "--playouts 60 --oracle 200", rec);
  int rc = run_program(TK_NOISE_BIN, args);
  if (rc) {
    TK_FAILF("exit %d: %s", rc, err_buf);
    return;
  }
  snprintf(first, sizeof first, "%s", out_buf);
  TK_EQ(strtol(first, NULL, 10), kept, "the trainer's kept positions");
  if (!strstr(first, "40 asked again") || !strstr(first, "of 80)") || !strstr(first, "of 40)"))
    TK_FAILF("the counts do not add up to 40 positions and 80 repeats: %s", first);
  /* the margin bins share the decisions without a shortcut */
  long decided = number_after(first, "repeat 1 (score -2 .. +2), "), sum = 0;
  for (const char *p = strstr(first, "margin"); p && (p = strstr(p, " (")); p += 2)
    sum += strtol(p + 2, NULL, 10);
  TK_EQ(sum, decided, "the margin bins' counts over the decided positions");
  rc = run_program(TK_NOISE_BIN, args);
  if (rc || strcmp(first, out_buf)) TK_FAILF("the same command printed other text: %s", out_buf);
  snprintf(args, sizeof args, "'%s' --one-unit-per-wall --skip 0 --positions 200 --repeats 0", rec);
  rc = run_program(TK_NOISE_BIN, args);
  double share = 0;
  const char *p = strstr(out_buf, "mean of 1 / (candidates with those features)");
  if (rc || !p) TK_FAILF("--repeats 0: exit %d: %s%s", rc, out_buf, err_buf);
  else share = strtod(p + strlen("mean of 1 / (candidates with those features)"), NULL);
  CU_ASSERT(share > 0.5 && share <= 1.0);
  static const struct {
    const char *args, *want;
  } bad[] = {
      {"REC --repeats 65", "--repeats: '65' is not a whole number from 0 to 64"},
      {"REC --playouts 0", "--playouts: '0' is not a whole number from 1 to "},
      {"REC --skip 0 --positions 100000000", "positions kept; --skip 0 and --positions 100000000"},
      {"REC --teacher nobody", "no agent labelled 'nobody'"},
      {"/nonexistent.tkr", "/nonexistent.tkr"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char a[2048];
    const char *r = strstr(bad[i].args, "REC");
    if (r) snprintf(a, sizeof a, "'%s'%s", rec, r + 3);
    else snprintf(a, sizeof a, "%s", bad[i].args);
    rc = run_program(TK_NOISE_BIN, a);
    if (rc != 2 || !strstr(err_buf, bad[i].want))
      TK_FAILF("%s: exit %d, stderr '%s' (expected 2 and '%s')", bad[i].args, rc, err_buf,
               bad[i].want);
  }
}

int main(void) {
  if (load_weights()) return 1;
  if (e2e_begin(TK_WORK_DIR "-mcl")) return 1;
  CU_TestInfo tests[] = {
      {"policy playouts are legal and finish (AP, NN; alpha 0, 0.6, 1)", playouts_finish},
      {"alpha 0 plays h's argmax", alpha0_is_argmax},
      {"a decision replays from its seed (AP, NN)", decisions_replay},
      {"parameter and weights errors", params_and_files},
      {"every shipped weights file loads and plays", shipped_weights},
      {"a short tournament through taikai", tournament},
      {"the trainer: records to weights, reproducible, bad input", trainer},
      {"the teacher-noise tool on the trainer's positions", teacher_noise},
      CU_TEST_INFO_NULL,
  };
  int rc = tk_unit_run("daifugo_mcl", tests);
  tk_weights_free(&AP);
  tk_weights_free(&NN);
  return rc;
}
