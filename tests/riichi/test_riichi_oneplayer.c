/* tests/riichi/test_riichi_oneplayer.c — the one-player policy as an agent and its trainer:
 * - the sparse weights file: a save / load round trip, and damaged or foreign files refused
 *   with the file and the field named (wrong ndims, cut short, an index out of order, another
 *   model);
 * - the trainer on a record set made here, whose right answer is known: the teacher is the
 *   policy itself (rop_decide) with known weights W* (normal shanten and effective tiles, row
 *   2.5), a vector of the model's own space; the trainer must agree with it on most held-out
 *   decisions (far above zero weights, which play the first candidate), find the same numbers of examples as counted here, and write the same bytes
 *   twice; the paper's hand filter (--filter paper) keeps exactly the examples of the hands'
 *   clean winners and first riichi declarers, as counted here while playing; bad input (a foreign records file, a truncated one, an unknown teacher) refused
 *   naming the file;
 * - the plugin end to end: `taikai run` of a riichi tournament with the trained weights, and
 *   bad weights refused before any game with the file named. */
#include "e2e_util.h"
#include "riichi_oneplayer/policy.h"
#include "riichi_oneplayer/weights_io.h"
#include "taikai/agent.h"
#include "taikai/records.h"
#include "taikai/weights.h"

#define WORK TK_WORK_DIR

static double *WSTAR; /* the teacher's weights */

static void star_weights(void) {
  static double w[ROF_FEATURES];
  for (int sh = 0; sh < 15; sh++)
    for (int calls = 0; calls < 5; calls++)
      for (int uk = 0; uk < 21; uk++) w[ROF_OFF_2_5 + (sh * 5 + calls) * 21 + uk] = -100.0 * sh + uk;
  WSTAR = w;
}

/* Runs the trainer with `args` (NULL-terminated), stdout and stderr to W("train.txt"). */
static int train(const char *const *args) {
  const char *argv[32];
  int n = 0;
  argv[n++] = TK_TRAIN_BIN;
  for (; *args && n < 31; args++) argv[n++] = *args;
  argv[n] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(W("train.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(o, 2);
    execv(TK_TRAIN_BIN, (char *const *)argv);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  slurp(W("train.txt"), out_buf, sizeof out_buf);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* What the trainer should keep of the teacher's decisions (its data filter, restated). */
typedef struct expect {
  long discards, calls, passes;
  long f_discards, f_calls, f_passes; /* the same under --filter paper */
} expect;

/* The examples of the hand being played, for --filter paper: kept at the hand's end if their
 * seat won with no riichi on the table or declared the hand's first riichi (the paper's filter,
 * restated from the engine's side); a seat's examples after its riichi (a discard or a closed
 * kan) are left out. */
typedef struct hand_buf {
  int n, cat[512], seat[512];
  int keep, first_riichi, in_riichi;
} hand_buf;

static void hand_flush(hand_buf *hb, expect *x) {
  if (hb->first_riichi >= 0) hb->keep |= 1 << hb->first_riichi;
  for (int i = 0; i < hb->n; i++)
    if (hb->keep >> hb->seat[i] & 1) {
      if (hb->cat[i] == 0) x->f_discards++;
      else if (hb->cat[i] == 1) x->f_calls++;
      else x->f_passes++;
    }
  hb->n = 0;
  hb->keep = 0;
  hb->first_riichi = -1;
  hb->in_riichi = 0;
}

static void hand_add(hand_buf *hb, int seat, int cat) {
  if (hb->n < 512 && !(hb->in_riichi >> seat & 1)) hb->seat[hb->n] = seat, hb->cat[hb->n++] = cat;
}

static int has_rule_move(const tk_riichi_legal *l) {
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == TK_RIICHI_TSUMO || l->a[i].type == TK_RIICHI_RON ||
        l->a[i].type == TK_RIICHI_RIICHI)
      return 1;
  return 0;
}

/* Plays `games` east-only games with the teacher (rop_decide under W*) in every seat, writing
 * each game's decisions as one unit (wall = game index) of a records file. */
static void make_records(const char *path, int games, expect *x) {
  memset(x, 0, sizeof *x);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  tk_records_header h;
  memset(&h, 0, sizeof h);
  h.format = TK_RECORDS_FORMAT;
  h.abi_version = TK_AGENT_ABI_VERSION;
  h.types_version = TK_RIICHI_TYPES_VERSION;
  h.view_size = sizeof(tk_riichi_view);
  h.legal_size = sizeof(tk_riichi_legal);
  h.action_size = sizeof(tk_riichi_action);
  h.nseats = 4;
  h.nfields = 0;
  h.nagents = 1;
  snprintf(h.game, sizeof h.game, "riichi");
  h.agent[0] = "star";
  CU_ASSERT_EQUAL_FATAL(tk_records_write_header(f, &h), 0);
  tk_records_builder b;
  tk_records_builder_init(&b, sizeof(tk_riichi_view), sizeof(tk_riichi_legal),
                          sizeof(tk_riichi_action));
  for (int game = 0; game < games; game++) {
    tk_records_builder_reset(&b);
    tk_riichi_game g;
    tk_riichi_init(&g, NULL, 5, (uint64_t)game, NULL, NULL);
    int steps = 0, pending[4] = {0};
    static hand_buf hb;
    hb.n = 0, hb.keep = 0, hb.first_riichi = -1, hb.in_riichi = 0;
    while (!tk_riichi_is_over(&g) && steps++ < 20000) {
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, NULL, NULL);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_view v;
      tk_riichi_legal l;
      tk_riichi_view_of(&g, s, &v);
      tk_riichi_legal_of(&g, s, &l);
      rop_choice ch;
      CU_ASSERT_EQUAL_FATAL(rop_decide(&v, &l, WSTAR, &ch, NULL), 0);
      tk_riichi_action a = l.a[ch.action];
      CU_ASSERT_EQUAL_FATAL(tk_records_builder_add(&b, (uint32_t)s, 0, &v, &l, &a), 0);
      /* a chi / pon counts once its discard comes (another seat's pon or ron may take the tile) */
      if (pending[s] && v.phase == TK_RIICHI_PHASE_SELF && v.after_call) x->calls++, hand_add(&hb, s, 1);
      pending[s] = 0;
      if (!has_rule_move(&l) && !(v.phase == TK_RIICHI_PHASE_SELF && v.after_call)) {
        rop_cand c[ROP_MAX_CANDS];
        if (rop_candidates(&v, &l, c, ROP_MAX_CANDS) >= 2) {
          if (v.phase == TK_RIICHI_PHASE_SELF) x->discards++, hand_add(&hb, s, 0);
          else if (a.type == TK_RIICHI_PASS) x->passes++, hand_add(&hb, s, 2);
          else if (a.type == TK_RIICHI_MINKAN) x->calls++, hand_add(&hb, s, 1);
          else pending[s] = 1;
        }
      }
      if (a.type == TK_RIICHI_RIICHI && hb.first_riichi < 0) hb.first_riichi = s;
      if (a.type == TK_RIICHI_RIICHI) hb.in_riichi |= 1 << s;
      if (a.type == TK_RIICHI_TSUMO || a.type == TK_RIICHI_RON) {
        int riichi = 0;
        for (int q = 0; q < 4; q++) riichi |= v.riichi[q] != 0;
        if (!riichi) hb.keep |= 1 << s;
      }
      CU_ASSERT_EQUAL_FATAL(tk_riichi_apply(&g, s, &a, NULL, NULL), 0);
      if (tk_riichi_phase(&g) == TK_RIICHI_PHASE_DEAL || tk_riichi_is_over(&g)) hand_flush(&hb, x);
    }
    int32_t agent[4] = {0, 0, 0, 0}, fault[4] = {0};
    static int64_t field[TK_RECORDS_MAX_SEATS][TK_RECORDS_MAX_FIELDS];
    CU_ASSERT_EQUAL_FATAL(tk_records_builder_pack(&b, (uint64_t)game, (uint64_t)game, 4, 0, agent,
                                                  fault, field), 0);
    CU_ASSERT_EQUAL_FATAL(fwrite(b.packed, 1, b.packed_len, f), b.packed_len);
  }
  tk_records_builder_free(&b);
  fclose(f);
}

/* Writes a records file of one unit holding the first decision of game 0, as dealt, with `spoil`
 * applied to it. */
static const char *write_spoiled(const char *name, void (*spoil)(tk_riichi_view *,
                                                                  tk_riichi_legal *)) {
  const char *path = W(name);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  tk_records_header h;
  memset(&h, 0, sizeof h);
  h.types_version = TK_RIICHI_TYPES_VERSION;
  h.view_size = sizeof(tk_riichi_view);
  h.legal_size = sizeof(tk_riichi_legal);
  h.action_size = sizeof(tk_riichi_action);
  h.nseats = 4;
  h.nagents = 1;
  snprintf(h.game, sizeof h.game, "riichi");
  h.agent[0] = "star";
  CU_ASSERT_EQUAL_FATAL(tk_records_write_header(f, &h), 0);
  tk_riichi_game g;
  tk_riichi_init(&g, NULL, 5, 0, NULL, NULL);
  tk_riichi_deal(&g, NULL, NULL, NULL);
  int s = tk_riichi_to_act(&g);
  static tk_riichi_view v;
  static tk_riichi_legal l;
  tk_riichi_view_of(&g, s, &v);
  tk_riichi_legal_of(&g, s, &l);
  tk_riichi_action a = l.a[0];
  spoil(&v, &l);
  tk_records_builder b;
  tk_records_builder_init(&b, sizeof v, sizeof l, sizeof a);
  CU_ASSERT_EQUAL_FATAL(tk_records_builder_add(&b, (uint32_t)s, 0, &v, &l, &a), 0);
  int32_t agent[4] = {0}, fault[4] = {0};
  static int64_t field[TK_RECORDS_MAX_SEATS][TK_RECORDS_MAX_FIELDS];
  CU_ASSERT_EQUAL_FATAL(tk_records_builder_pack(&b, 0, 0, 4, 0, agent, fault, field), 0);
  fwrite(b.packed, 1, b.packed_len, f);
  tk_records_builder_free(&b);
  fclose(f);
  return path;
}

static void tile_63(tk_riichi_view *v, tk_riichi_legal *l) { l->a[0].tile = 0x3f; }
static void five_copies(tk_riichi_view *v, tk_riichi_legal *l) { v->hand[3] = 5; }
static void river_long(tk_riichi_view *v, tk_riichi_legal *l) { v->nriver[2] = 200; }
static void melds_many(tk_riichi_view *v, tk_riichi_legal *l) { v->nmelds[1] = 9; }
static void type_bad(tk_riichi_view *v, tk_riichi_legal *l) { l->a[1].type = 77; }

/* A recorded decision whose fields the features would index out of range is refused with the
 * file, the unit, the decision and the field's value (exit 2). */
static void test_malformed_records(void) {
  struct {
    const char *name, *want;
    void (*spoil)(tk_riichi_view *, tk_riichi_legal *);
  } cases[] = {
      {"tile63.tkr", "decision 0: legal.a[0]: tile 63", tile_63},
      {"five.tkr", "decision 0: view.hand[3] 5", five_copies},
      {"river.tkr", "decision 0: view.nriver[2] 200 out of range", river_long},
      {"melds.tkr", "decision 0: view.nmelds[1] 9 out of range", melds_many},
      {"type.tkr", "decision 0: legal.a[1].type 77 out of range", type_bad},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *path = write_spoiled(cases[i].name, cases[i].spoil);
    const char *t[] = {path, "--teacher", "star", "--out", W("malformed.tkw"), NULL};
    TK_EQ(train(t), 2, cases[i].name);
    if (!strstr(out_buf, cases[i].want) || !strstr(out_buf, path))
      TK_FAILF("%s: expected '%s' and the file in: %s", cases[i].name, cases[i].want, out_buf);
  }
}

/* The percentage after `label` in the trainer's output (the final table), or -1. */
static double table_pct(const char *label) {
  const char *t = strstr(out_buf, "paper 000 table 4");
  if (!t) return -1;
  const char *p = strstr(t, label);
  return p ? atof(p + strlen(label)) : -1;
}
/* The count "(a of N)" after `label` in the final table: N, or -1. */
static long table_total(const char *label) {
  const char *t = strstr(out_buf, "paper 000 table 4");
  const char *p = t ? strstr(t, label) : NULL;
  p = p ? strstr(p, " of ") : NULL;
  return p ? atol(p + 4) : -1;
}

static void test_weights_file(void) {
  static double w[ROF_FEATURES];
  memset(w, 0, sizeof w);
  w[0] = 1.5, w[12345] = -2.25, w[ROF_FEATURES - 1] = 1e-300;
  tk_error e;
  tk_error_clear(&e);
  size_t nnz = 0;
  CU_ASSERT_EQUAL_FATAL(rop_weights_save(W("three.tkw"), w, &nnz, &e), 0);
  TK_EQ((long)nnz, 3L, "nonzero weights written");
  double *back = NULL;
  CU_ASSERT_EQUAL_FATAL(rop_weights_load(W("three.tkw"), &back, &nnz, &e), 0);
  TK_EQ((long)nnz, 3L, "rows read");
  CU_ASSERT(!memcmp(back, w, sizeof w));
  free(back);
  struct stat st;
  CU_ASSERT_EQUAL(stat(W("three.tkw"), &st), 0);
  /* header 52 + shape 8 + 3 rows x 16 + crc 4 */
  TK_EQ((long)st.st_size, 52L + 8 + 48 + 4, "file size");

  /* an index out of order, written through the format itself */
  tk_weights tw;
  memset(&tw, 0, sizeof tw);
  snprintf(tw.model, sizeof tw.model, "%s", ROP_MODEL);
  tw.feature_version = ROF_FEATURE_VERSION;
  tw.ndims = 2;
  tw.shape[0] = 2, tw.shape[1] = 2, tw.count = 4;
  double rows[4] = {7, 1.0, 3, 2.0};
  tw.values = rows;
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("order.tkw"), &tw, &e), 0);
  tk_error_clear(&e);
  CU_ASSERT_NOT_EQUAL(rop_weights_load(W("order.tkw"), &back, NULL, &e), 0);
  if (!strstr(e.msg, "order.tkw") || !strstr(e.msg, "values[1][0]"))
    TK_FAILF("index out of order: %s", e.msg);
  /* an index beyond the features */
  rows[0] = 1, rows[2] = ROF_FEATURES;
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("range.tkw"), &tw, &e), 0);
  tk_error_clear(&e);
  CU_ASSERT_NOT_EQUAL(rop_weights_load(W("range.tkw"), &back, NULL, &e), 0);
  if (!strstr(e.msg, "range.tkw") || !strstr(e.msg, "8442546")) TK_FAILF("index range: %s", e.msg);
  /* wrong dimensions: a dense vector (ndims 1), and rows of 3 */
  tw.ndims = 1, tw.shape[0] = 4, tw.count = 4;
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("dense.tkw"), &tw, &e), 0);
  tk_error_clear(&e);
  CU_ASSERT_NOT_EQUAL(rop_weights_load(W("dense.tkw"), &back, NULL, &e), 0);
  if (!strstr(e.msg, "dense.tkw") || !strstr(e.msg, "'ndims': 1, expected 2"))
    TK_FAILF("wrong ndims: %s", e.msg);
  double r3[3] = {1, 2, 3};
  tw.values = r3;
  tw.ndims = 2, tw.shape[0] = 1, tw.shape[1] = 3, tw.count = 3;
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("rows3.tkw"), &tw, &e), 0);
  tk_error_clear(&e);
  CU_ASSERT_NOT_EQUAL(rop_weights_load(W("rows3.tkw"), &back, NULL, &e), 0);
  if (!strstr(e.msg, "rows3.tkw") || !strstr(e.msg, "'shape[1]': 3, expected 2"))
    TK_FAILF("rows of 3: %s", e.msg);
  /* another model */
  tw.values = rows, tw.shape[0] = 2, tw.shape[1] = 2, tw.count = 4;
  rows[2] = 3;
  snprintf(tw.model, sizeof tw.model, "solo_linear");
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("model.tkw"), &tw, &e), 0);
  tk_error_clear(&e);
  CU_ASSERT_NOT_EQUAL(rop_weights_load(W("model.tkw"), &back, NULL, &e), 0);
  if (!strstr(e.msg, "model.tkw") || !strstr(e.msg, "field 'model'")) TK_FAILF("model: %s", e.msg);
  /* cut short */
  char buf[256];
  FILE *f = fopen(W("three.tkw"), "rb");
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  f = fopen(W("short.tkw"), "wb");
  fwrite(buf, 1, n - 20, f);
  fclose(f);
  tk_error_clear(&e);
  CU_ASSERT_NOT_EQUAL(rop_weights_load(W("short.tkw"), &back, NULL, &e), 0);
  if (!strstr(e.msg, "short.tkw") || !strstr(e.msg, "cut short")) TK_FAILF("cut short: %s", e.msg);
  f = fopen(W("tiny.tkw"), "wb");
  fwrite(buf, 1, 30, f);
  fclose(f);
  tk_error_clear(&e);
  CU_ASSERT_NOT_EQUAL(rop_weights_load(W("tiny.tkw"), &back, NULL, &e), 0);
  if (!strstr(e.msg, "tiny.tkw")) TK_FAILF("30 bytes: %s", e.msg);
}

/* The committed default weights (format-1 rows) load through the shared sparse reader to the
 * very doubles their rows hold, every other entry zero, and the writer gives their bytes back;
 * the same weights written as format 2
 * load as their float32 rounding, in under 6 bytes a weight against the rows' 16. */
static void test_default_weights(void) {
  const char *path = TK_SOURCE_DIR "/plugins/riichi_oneplayer/riichi_oneplayer.tkw";
  tk_error e;
  tk_error_clear(&e);
  double *d = NULL;
  size_t nnz = 0;
  CU_ASSERT_EQUAL_FATAL(rop_weights_load(path, &d, &nnz, &e), 0);
  tk_weights rows;
  const uint32_t any2[2] = {TK_WEIGHTS_ANY, 2};
  CU_ASSERT_EQUAL_FATAL(tk_weights_load(path, ROP_MODEL, ROF_FEATURE_VERSION, 2, any2, &rows, &e),
                        0);
  TK_EQ((long)nnz, (long)rows.shape[0], "entries read");
  size_t differ = 0, nonzero = 0;
  for (size_t i = 0; i < rows.shape[0]; i++)
    differ += memcmp(&d[(size_t)rows.values[2 * i]], &rows.values[2 * i + 1], sizeof *d) != 0;
  for (size_t i = 0; i < ROF_FEATURES; i++) nonzero += d[i] != 0;
  TK_EQ((long)differ, 0L, "weights differing from their rows, bit for bit");
  TK_EQ((long)nonzero, (long)rows.shape[0], "nonzero entries: the rows' only");
  if (nnz < 1000) TK_FAILF("only %zu default weights", nnz);
  /* the writer keeps format 1: the loaded weights written again are the committed bytes */
  CU_ASSERT_EQUAL_FATAL(rop_weights_save(W("again.tkw"), d, NULL, &e), 0);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", path, W("again.tkw"));
  TK_EQ(system(cmd), 0, "the default weights written again, byte for byte");
  tk_weights dense = {.model = ROP_MODEL, .feature_version = ROF_FEATURE_VERSION, .ndims = 1,
                      .shape = {ROF_FEATURES}, .count = ROF_FEATURES, .values = d};
  size_t n2 = 0;
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_save_dense(W("f32.tkw"), &dense, &n2, &e), 0);
  double *d2 = NULL;
  CU_ASSERT_EQUAL_FATAL(rop_weights_load(W("f32.tkw"), &d2, &n2, &e), 0);
  size_t off = 0;
  for (size_t i = 0; i < ROF_FEATURES; i++) off += d2[i] != (double)(float)d[i];
  TK_EQ((long)off, 0L, "format-2 weights differing from the float32 rounding");
  struct stat st;
  CU_ASSERT_EQUAL(stat(W("f32.tkw"), &st), 0);
  if ((double)st.st_size >= 6.0 * (double)n2)
    TK_FAILF("format 2: %lld bytes for %zu weights", (long long)st.st_size, n2);
  free(d2);
  free(d);
  tk_weights_free(&rows);
}

static void test_train(void) {
  star_weights();
  expect x;
  make_records(W("star.tkr"), 40, &x);
  const char *t1[] = {W("star.tkr"), "--teacher", "star", "--epochs", "4", "--out", W("a.tkw"), NULL};
  int rc = train(t1);
  if (rc) TK_FAILF("trainer: exit %d: %s", rc, out_buf);
  printf("\n%s", out_buf);
  /* the examples found are those counted while playing */
  char want[256];
  snprintf(want, sizeof want, "%ld discards, %ld calls, %ld passes kept", x.discards, x.calls,
           x.passes);
  if (!strstr(out_buf, want)) TK_FAILF("expected '%s' in: %s", want, out_buf);
  if (x.discards < 3000 || x.passes < 300 || x.calls < 20)
    TK_FAILF("too few examples to learn from: %ld / %ld / %ld", x.discards, x.calls, x.passes);
  /* W* ties many discards (equal shanten and effective tiles: the teacher then takes the
   * first), which no weight vector reproduces from features the ties share, so agreement stays
   * below 100 %; it must still be far above the baseline of zero weights */
  double d = table_pct("discards"), p = table_pct("passes"), c = table_pct("calls");
  const char *b = strstr(out_buf, "baseline, zero weights");
  const char *bd = b ? strstr(b, "discards ") : NULL;
  double base_d = bd ? atof(bd + 9) : 100;
  long held_d = table_total("discards");
  if (held_d < 200) TK_FAILF("held-out discards: %ld", held_d);
  if (d < 75 || d < base_d + 30)
    TK_FAILF("held-out discard agreement %.2f %%, expected >= 75 %% and >= baseline %.2f + 30", d,
             base_d);
  if (p < 90) TK_FAILF("held-out pass agreement %.2f %%, expected >= 90 %%", p);
  if (c < 60) TK_FAILF("held-out call agreement %.2f %%, expected >= 60 %%", c);
  /* the trained weights are sparse, and agree with W* far more than zero weights do: zero
   * weights play the first candidate (the lowest tile) */
  double *w = NULL;
  tk_error e;
  tk_error_clear(&e);
  size_t nnz = 0;
  CU_ASSERT_EQUAL_FATAL(rop_weights_load(W("a.tkw"), &w, &nnz, &e), 0);
  if (nnz == 0 || nnz > ROF_FEATURES / 10) TK_FAILF("%zu nonzero weights", nnz);
  free(w);
  /* the same command, the same bytes */
  const char *t2[] = {W("star.tkr"), "--teacher", "star", "--epochs", "4", "--out", W("b.tkw"), NULL};
  TK_EQ(train(t2), 0, "train b");
  CU_ASSERT(same_bytes(W("a.tkw"), W("b.tkw")));
  /* the paper's filter keeps the examples of the hands' clean winners and first riichi
   * declarers, as counted while playing */
  const char *t4[] = {W("star.tkr"), "--teacher", "star", "--epochs", "1", "--filter", "paper",
                      "--out", W("d.tkw"), NULL};
  TK_EQ(train(t4), 0, "train --filter paper");
  snprintf(want, sizeof want, "%ld discards, %ld calls, %ld passes kept", x.f_discards,
           x.f_calls, x.f_passes);
  if (!strstr(out_buf, want)) TK_FAILF("--filter paper: expected '%s' in: %s", want, out_buf);
  if (x.f_discards < 500 || x.f_discards * 2 > x.discards)
    TK_FAILF("--filter paper kept %ld of %ld discards", x.f_discards, x.discards);
  /* another seed shuffles differently */
  const char *t3[] = {W("star.tkr"), "--teacher", "star", "--epochs", "4", "--seed", "2", "--out",
                      W("c.tkw"), NULL};
  TK_EQ(train(t3), 0, "train c");
  CU_ASSERT(!same_bytes(W("a.tkw"), W("c.tkw")));
}

static void expect_train_refused(const char *const *args, int code, const char *want1,
                                 const char *want2) {
  int rc = train(args);
  if (rc != code || !strstr(out_buf, want1) || (want2 && !strstr(out_buf, want2)))
    TK_FAILF("expected exit %d with '%s' and '%s', got %d: %s", code, want1, want2 ? want2 : "",
             rc, out_buf);
}

static void test_train_refusals(void) {
  /* a records file of another game */
  FILE *f = fopen(W("solo.tkr"), "wb");
  tk_records_header h;
  memset(&h, 0, sizeof h);
  h.format = TK_RECORDS_FORMAT;
  h.abi_version = TK_AGENT_ABI_VERSION;
  h.types_version = 2;
  h.view_size = 64, h.legal_size = 16, h.action_size = 1;
  h.nseats = 1, h.nagents = 1;
  snprintf(h.game, sizeof h.game, "solo");
  h.agent[0] = "star";
  CU_ASSERT_EQUAL_FATAL(tk_records_write_header(f, &h), 0);
  fclose(f);
  const char *a1[] = {W("solo.tkr"), "--teacher", "star", "--out", W("x.tkw"), NULL};
  expect_train_refused(a1, 2, "solo.tkr", "solo");
  /* not a records file */
  write_file(W("text.tkr"), "hello\n");
  const char *a2[] = {W("text.tkr"), "--teacher", "star", "--out", W("x.tkw"), NULL};
  expect_train_refused(a2, 2, "text.tkr", NULL);
  /* truncated inside a unit */
  static char buf[1 << 20];
  f = fopen(W("star.tkr"), "rb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  f = fopen(W("cut.tkr"), "wb");
  fwrite(buf, 1, n / 2, f);
  fclose(f);
  const char *a3[] = {W("cut.tkr"), "--teacher", "star", "--out", W("x.tkw"), NULL};
  expect_train_refused(a3, 2, "cut.tkr", NULL);
  /* an unknown teacher, a missing file, a bad flag */
  const char *a4[] = {W("star.tkr"), "--teacher", "nobody", "--out", W("x.tkw"), NULL};
  expect_train_refused(a4, 2, "no agent labelled 'nobody'", "star.tkr");
  const char *a5[] = {W("none.tkr"), "--teacher", "star", "--out", W("x.tkw"), NULL};
  expect_train_refused(a5, 2, "none.tkr", NULL);
  const char *a6[] = {W("star.tkr"), "--teacher", "star", "--out", W("x.tkw"), "--epochs", "0", NULL};
  expect_train_refused(a6, 2, "--epochs: '0' is not a whole number from 1 to", NULL);
  CU_ASSERT(!exists(W("x.tkw")));
}

static void run_spec(const char *name, const char *weights, int want_rc) {
  char spec[2048];
  snprintf(spec, sizeof spec,
           "{\"game\": \"riichi\", \"seed\": 3, \"walls\": 2, \"format\": \"duplicate\", "
           "\"agents\": [{\"plugin\": \"riichi_oneplayer\", \"label\": \"oneplayer\", \"params\": "
           "{\"weights\": \"%s\"}}, {\"plugin\": \"riichi_greedy\", \"label\": \"greedy\"}], "
           "\"rules\": {\"length\": \"east\"}, \"output\": \"%s\"}\n", weights, W(name));
  char path[1300];
  snprintf(path, sizeof path, "%s.json", W(name));
  write_file(path, spec);
  const char *a[] = {"run", path, "-j", "2", "--quiet", NULL};
  int rc = taikai(a);
  if (rc != want_rc) TK_FAILF("%s: exit %d, expected %d: %s", name, rc, want_rc, err_buf);
}

static void test_plugin_run(void) {
  if (!exists(W("a.tkw"))) {
    TK_FAILF("no trained weights (test_train failed)");
    return;
  }
  run_spec("play", W("a.tkw"), 0);
  json_t *sum = json_load_file(W("play/summary.json"), 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  json_t *a0 = json_array_get(json_object_get(sum, "agents"), 0);
  const char *label = json_string_value(json_object_get(a0, "label"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(label);
  TK_EQ(strcmp(label, "oneplayer"), 0, "agent 0 label");
  char *dump = json_dumps(a0, JSON_COMPACT);
  if (dump && strstr(dump, "\"faults\": {") && !strstr(dump, "\"faults\":{}"))
    printf("agent 0: %s\n", dump);
  free(dump);
  json_decref(sum);
  /* the run's games: 2 walls x 4 seatings, none with a fault */
  json_t *lines[16];
  int n = load_lines(W("play/games.jsonl"), lines, 16);
  TK_EQ(n, 8, "games");
  for (int i = 0; i < n; i++) {
    char *s = json_dumps(lines[i], JSON_COMPACT);
    if (s && strstr(s, "\"fault\"") && !strstr(s, "\"fault\":null")) {
      /* the referee writes a fault object only for a faulted seat */
      json_t *faults = json_object_get(lines[i], "faults");
      if (faults && json_array_size(faults)) TK_FAILF("game %d has a fault: %s", i, s);
    }
    free(s);
  }
  free_lines(lines, n);
  /* bad weights: refused before any game, the file named */
  run_spec("dense", W("dense.tkw"), 2);
  if (!strstr(err_buf, "dense.tkw") || !strstr(err_buf, "ndims")) TK_FAILF("dense: %s", err_buf);
  run_spec("short", W("short.tkw"), 2);
  if (!strstr(err_buf, "short.tkw") || !strstr(err_buf, "cut short")) TK_FAILF("short: %s", err_buf);
  run_spec("missing", W("nowhere.tkw"), 2);
  if (!strstr(err_buf, "nowhere.tkw")) TK_FAILF("missing: %s", err_buf);
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"weights_file", test_weights_file},
      {"default_weights", test_default_weights},
      {"train", test_train},
      {"train_refusals", test_train_refusals},
      {"malformed_records", test_malformed_records},
      {"plugin_run", test_plugin_run},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_oneplayer: the plugin and its trainer", tests);
}
