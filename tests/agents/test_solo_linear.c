/* tests/agents/test_solo_linear.c — the learned agent end to end: records of its teacher from
 * `taikai run --records`, its trainer run twice giving the same weights byte for byte with a
 * held-out agreement well above chance, the plugin playing with its default weights (found
 * beside it) and with trained ones passed as a parameter, and every kind of bad weights file
 * refused before the run with the file and the field named. The weights library's sparse
 * format 2 is tested here too: its bytes against the documented layout, round trips, the
 * older [nnz, 2] rows read back, and every refusal. */
#include <math.h>
#include <zlib.h>

#include "e2e_util.h"
#include "taikai/records.h"
#include "taikai/rng.h"
#include "taikai/solo.h"
#include "taikai/weights.h"

#define WORK TK_WORK_DIR

/* Runs the trainer with `args` (NULL-terminated), its stdout to W("train.txt"). */
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

static void test_train_and_play(void) {
  const char *rec[] = {"run", TK_SOURCE_DIR "/plugins/solo_linear/teacher.json", "--walls", "600",
                       "--out", W("teacher"), "--records", "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(rec), 0, "teacher's records");
  const char *t1[] = {W("teacher/records.tkr"), "--teacher", "greedy", "--epochs", "3", "--out",
                      W("a.tkw"), NULL};
  const char *t2[] = {W("teacher/records.tkr"), "--teacher", "greedy", "--epochs", "3", "--out",
                      W("b.tkw"), NULL};
  TK_EQ(train(t1), 0, "train a");
  const char *agree = strstr(out_buf, "held-out agreement with 'greedy': ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(agree);
  double pct = atof(agree + strlen("held-out agreement with 'greedy': "));
  if (pct < 60) TK_FAILF("held-out agreement %.2f %%, expected well above chance (about 7 %%)", pct);
  TK_EQ(train(t2), 0, "train b");
  CU_ASSERT(same_bytes(W("a.tkw"), W("b.tkw")));
  const char *bad[] = {W("teacher/records.tkr"), "--teacher", "nobody", "--out", W("c.tkw"), NULL};
  TK_EQ(train(bad), 2, "unknown teacher");
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "no agent labelled 'nobody'"));

  /* the plugin: default weights found beside it, and the trained ones as a parameter */
  char spec[2048];
  snprintf(spec, sizeof spec,
           "{\"game\": \"solo\", \"seed\": 3, \"walls\": 300, \"agents\": [{\"plugin\": "
           "\"solo_linear\"}, {\"plugin\": \"solo_linear\", \"label\": \"trained\", \"params\": "
           "{\"weights\": \"%s\"}}, {\"plugin\": \"tsumogiri\"}], \"output\": \"%s\"}\n",
           W("a.tkw"), W("play"));
  write_file(W("play.json"), spec);
  const char *play[] = {"run", W("play.json"), "-j", "2", "--quiet", NULL};
  int rc = taikai(play);
  if (rc) TK_FAILF("play: exit %d: %s", rc, err_buf);
  json_t *sum = json_load_file(W("play/summary.json"), 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  json_t *agents = json_object_get(sum, "agents");
  for (int i = 0; i < 2; i++) {
    double win = json_number_value(json_object_get(
        json_object_get(json_array_get(agents, (size_t)i), "win_rate"), "value"));
    if (win < 0.08) TK_FAILF("agent %d wins %.3f of 300 games: it does not play like its teacher (greedy: ~0.19)", i, win);
  }
  json_decref(sum);
}

static void expect_refused(const char *name, const char *weights, const char *want) {
  char spec[2048];
  snprintf(spec, sizeof spec,
           "{\"game\": \"solo\", \"walls\": 2, \"agents\": [{\"plugin\": \"solo_linear\", "
           "\"params\": {\"weights\": \"%s\"}}], \"output\": \"%s\"}\n", weights, W(name));
  char path[1300];
  snprintf(path, sizeof path, "%s.json", W(name));
  write_file(path, spec);
  const char *a[] = {"run", path, "--quiet", NULL};
  TK_EQ(taikai(a), 2, name);
  if (!strstr(err_buf, want) || !strstr(err_buf, weights))
    TK_FAILF("%s: expected '%s' and the file in: %s", name, want, err_buf);
}

static void test_bad_weights(void) {
  const uint32_t shape[1] = {496};
  tk_weights w;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_weights_load(TK_PLUGIN_DIR "/solo_linear.tkw", "solo_linear", 1, 1,
                                        shape, &w, &e), 0);
  /* another model, another feature version, another shape */
  snprintf(w.model, sizeof w.model, "other_model");
  CU_ASSERT_EQUAL(tk_weights_save(W("model.tkw"), &w, &e), 0);
  snprintf(w.model, sizeof w.model, "solo_linear");
  w.feature_version = 9;
  CU_ASSERT_EQUAL(tk_weights_save(W("version.tkw"), &w, &e), 0);
  w.feature_version = 1;
  w.shape[0] = w.count = 400;
  CU_ASSERT_EQUAL(tk_weights_save(W("shape.tkw"), &w, &e), 0);
  w.shape[0] = w.count = 496;
  /* values that are not finite: format 1 stores any f64 */
  double keep7 = w.values[7], keep3 = w.values[3];
  w.values[7] = NAN;
  CU_ASSERT_EQUAL(tk_weights_save(W("nan.tkw"), &w, &e), 0);
  w.values[7] = keep7;
  w.values[3] = -INFINITY;
  CU_ASSERT_EQUAL(tk_weights_save(W("inf.tkw"), &w, &e), 0);
  w.values[3] = keep3;
  tk_weights_free(&w);
  /* cut short, a byte flipped, not a weights file at all */
  static char buf[1 << 16];
  FILE *f = fopen(TK_PLUGIN_DIR "/solo_linear.tkw", "rb");
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  f = fopen(W("short.tkw"), "wb");
  fwrite(buf, 1, n - 100, f);
  fclose(f);
  buf[n / 2] ^= 1;
  f = fopen(W("flipped.tkw"), "wb");
  fwrite(buf, 1, n, f);
  fclose(f);
  write_file(W("text.tkw"), "weights? no\n");
  expect_refused("model", W("model.tkw"), "field 'model': 'other_model', expected 'solo_linear'");
  expect_refused("version", W("version.tkw"), "field 'feature_version': 9");
  expect_refused("shape", W("shape.tkw"), "field 'shape[0]': 400, expected 496");
  expect_refused("short", W("short.tkw"), "cut short");
  expect_refused("flipped", W("flipped.tkw"), "field 'crc32'");
  expect_refused("text", W("text.tkw"), "not a taikai weights file");
  expect_refused("missing", W("nowhere.tkw"), "No such file");
  expect_refused("nan", W("nan.tkw"), "field 'values[7]': nan (a weight must be finite)");
  expect_refused("inf", W("inf.tkw"), "field 'values[3]': -inf (a weight must be finite)");
  /* not a regular file: refused at once, never read (nor waited on: a FIFO with no writer) */
  unlink(W("fifo.tkw"));
  CU_ASSERT_EQUAL_FATAL(mkfifo(W("fifo.tkw"), 0600), 0);
  expect_refused("fifo", W("fifo.tkw"), "is a FIFO");
  expect_refused("zero", "/dev/zero", "is a character device");
  expect_refused("urandom", "/dev/urandom", "is a character device");
}

/* Writes a solo records file of one unit with one decision of agent 0 ("greedy"), seat `seat`:
 * the view and legal list of a real hand, then `spoil` applied to them. */
static const char *write_solo_records(const char *name, uint32_t seat,
                                      void (*spoil)(tk_solo_view *, tk_solo_legal *)) {
  tk_solo_view v;
  tk_solo_legal l;
  memset(&v, 0, sizeof v);
  memset(&l, 0, sizeof l);
  for (int k = 0; k < 14; k++) v.hand[k] = 1;
  for (int k = 0; k < TK_KINDS; k++) v.unseen[k] = (uint8_t)(4 - v.hand[k]);
  v.drawn = 0;
  v.turn = 1;
  v.draws = 18;
  v.dora_indicator = TK_TILE_NONE;
  for (int k = 0; k < 14; k++) {
    l.mask |= 1ull << k;
    l.kinds[l.n++] = (uint8_t)k;
  }
  tk_solo_action a = {.discard = 0};
  if (spoil) spoil(&v, &l);
  const char *path = W(name);
  FILE *f = fopen(path, "wb");
  tk_records_header h;
  memset(&h, 0, sizeof h);
  h.types_version = TK_SOLO_TYPES_VERSION;
  h.view_size = sizeof v;
  h.legal_size = sizeof l;
  h.action_size = sizeof a;
  h.nseats = 1;
  h.nagents = 1;
  snprintf(h.game, sizeof h.game, "solo");
  h.agent[0] = "greedy";
  CU_ASSERT_EQUAL_FATAL(tk_records_write_header(f, &h), 0);
  tk_records_builder b;
  tk_records_builder_init(&b, sizeof v, sizeof l, sizeof a);
  for (uint64_t unit = 0; unit < 4; unit++) { /* walls 0..3: training and held-out sets */
    tk_records_builder_reset(&b);
    CU_ASSERT_EQUAL(tk_records_builder_add(&b, seat, 0, &v, &l, &a), 0);
    int32_t agent[1] = {0}, kind[1] = {0};
    int64_t field[1][TK_RECORDS_MAX_FIELDS] = {{0}};
    CU_ASSERT_EQUAL(tk_records_builder_pack(&b, unit, unit, 1, 0, agent, kind,
                                            (const int64_t(*)[TK_RECORDS_MAX_FIELDS])field), 0);
    fwrite(b.packed, 1, b.packed_len, f);
  }
  tk_records_builder_free(&b);
  fclose(f);
  return path;
}

static void five_copies(tk_solo_view *v, tk_solo_legal *l) { v->hand[0] = 5; }
static void kind_out_of_range(tk_solo_view *v, tk_solo_legal *l) { l->kinds[3] = 200; }
static void n_out_of_range(tk_solo_view *v, tk_solo_legal *l) { l->n = 250; }

/* The trainer refuses a decision whose fields are out of range (the reader's: seat; the game's:
 * hand counts, legal list) with the file, the unit, the decision and the field's value. */
static void test_trainer_refuses(void) {
  struct {
    const char *name;
    uint32_t seat;
    void (*spoil)(tk_solo_view *, tk_solo_legal *);
    int status;
    const char *want;
  } cases[] = {
      {"ok.tkr", 0, NULL, 0, NULL},
      {"seat.tkr", 100000000, NULL, 2, "decision 0: seat 100000000 out of range"},
      {"five.tkr", 0, five_copies, 1, "view.hand[0] 5"},
      {"kind.tkr", 0, kind_out_of_range, 1, "legal.kinds[3] 200 is not a kind held"},
      {"n.tkr", 0, n_out_of_range, 1, "legal.n 250 out of range"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *path = write_solo_records(cases[i].name, cases[i].seat, cases[i].spoil);
    const char *t[] = {path, "--teacher", "greedy", "--epochs", "1", "--holdout", "2", "--out",
                       W("refused.tkw"), NULL};
    int rc = train(t);
    if (cases[i].status == 0 ? rc != 0 : rc == 0)
      TK_FAILF("%s: solo_linear_train exited %d: %s", cases[i].name, rc, out_buf);
    if (cases[i].want && (!strstr(out_buf, cases[i].want) || !strstr(out_buf, path)))
      TK_FAILF("%s: expected '%s' and the file in: %s", cases[i].name, cases[i].want, out_buf);
  }
}

/* Every loader of the weights library (the plugins' and trainers' one way in) refuses values
 * that are not finite with the file and the index, and a path that is not a regular file with
 * TK_EINVAL at once. */
static void test_loaders_refuse(void) {
  const uint32_t shape[1] = {496}, dense[1] = {1000};
  const char *bad[] = {"/dev/zero", "/dev/urandom", W("fifo.tkw")};
  for (int i = 0; i < 3; i++) {
    tk_weights w;
    tk_weights_sparse s;
    static double d[1000];
    size_t nnz;
    tk_error e;
    tk_error_clear(&e);
    TK_EQ(tk_weights_load(bad[i], "solo_linear", 1, 1, shape, &w, &e), TK_EINVAL, bad[i]);
    if (!strstr(e.msg, bad[i])) TK_FAILF("%s: '%s'", bad[i], e.msg);
    tk_error_clear(&e);
    TK_EQ(tk_weights_sparse_load(bad[i], "solo_linear", 1, 1, dense, &s, &e), TK_EINVAL, bad[i]);
    tk_error_clear(&e);
    TK_EQ(tk_weights_sparse_load_dense(bad[i], "solo_linear", 1, 1, dense, d, &nnz, &e),
          TK_EINVAL, bad[i]);
  }
  /* format-1 rows (index, value) with a value not finite: the sparse loaders */
  tk_weights r = {.model = "rows", .feature_version = 1, .ndims = 2, .shape = {2, 2}, .count = 4};
  double v[4] = {1, 0.5, 4, INFINITY};
  r.values = v;
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("rows_inf.tkw"), &r, &e), 0);
  tk_weights_sparse s;
  static double d[1000];
  size_t nnz;
  tk_error_clear(&e);
  TK_EQ(tk_weights_sparse_load(W("rows_inf.tkw"), "rows", 1, 1, dense, &s, &e), TK_EPARSE, "rows");
  if (!strstr(e.msg, "rows_inf.tkw") || !strstr(e.msg, "must be finite")) TK_FAILF("'%s'", e.msg);
  tk_weights_sparse_free(&s);
  tk_error_clear(&e);
  TK_EQ(tk_weights_sparse_load_dense(W("rows_inf.tkw"), "rows", 1, 1, dense, d, &nnz, &e),
        TK_EPARSE, "rows dense");
}

/* TK_WEIGHTS_ANY takes a dimension's size from the file (sparse files: their row count), still
 * checking the others and the byte count. */
static void test_any_dimension(void) {
  double v[6] = {1, 2, 3, 4, 5, 6};
  tk_weights w = {.model = "sparse", .feature_version = 1, .ndims = 2, .shape = {3, 2},
                  .count = 6, .values = v};
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("any.tkw"), &w, &e), 0);
  tk_weights r;
  const uint32_t any2[2] = {TK_WEIGHTS_ANY, 2}, any3[2] = {TK_WEIGHTS_ANY, 3};
  CU_ASSERT_EQUAL_FATAL(tk_weights_load(W("any.tkw"), "sparse", 1, 2, any2, &r, &e), 0);
  TK_EQ(r.shape[0], 3, "the file's rows");
  TK_EQ(r.count, 6, "values");
  CU_ASSERT_EQUAL(r.values[5], 6);
  tk_weights_free(&r);
  CU_ASSERT_EQUAL(tk_weights_load(W("any.tkw"), "sparse", 1, 2, any3, &r, &e), TK_EABI);
  if (!strstr(e.msg, "field 'shape[1]': 2, expected 3")) TK_FAILF("message: %s", e.msg);
  /* a header claiming 2^31 rows over a file of a few bytes */
  static char buf[256];
  FILE *f = fopen(W("any.tkw"), "rb");
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  buf[55] = (char)0x80; /* shape[0]'s high byte, at 52..55 */
  f = fopen(W("huge.tkw"), "wb");
  fwrite(buf, 1, n, f);
  fclose(f);
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_weights_load(W("huge.tkw"), "sparse", 1, 2, any2, &r, &e), TK_EPARSE);
  if (!strstr(e.msg, "112 bytes, its shape needs 34359738480 (cut short)")) TK_FAILF("message: %s", e.msg);
}

/* ---- format 2, sparse ---- */

static void put_bytes(const char *path, const uint8_t *b, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(b, 1, n, f) != n) TK_FAILF("cannot write %s", path);
  if (f) fclose(f);
}

static size_t get_bytes(const char *path, uint8_t *b, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(b, 1, cap, f);
  fclose(f);
  return n;
}

/* Sets the last 4 bytes to the CRC-32 of the others, as the format says. */
static void fix_crc(uint8_t *b, size_t n) {
  uint32_t c = (uint32_t)crc32(0L, b, (uInt)(n - 4));
  for (int i = 0; i < 4; i++) b[n - 4 + i] = (uint8_t)(c >> (8 * i));
}

/* The tiny model of the layout test: dense shape [3, 100], entries 5, 133, 299. */
static const uint64_t TINY_INDEX[3] = {5, 133, 299};
static const uint32_t TINY_SHAPE[2] = {3, 100};

/* The bytes the layout in weights.h gives for the tiny model, written out by hand. */
static size_t tiny_bytes(uint8_t *b) {
  size_t n = 0;
  memcpy(b, "TKWEIGHT", 8), n = 8;
  const uint8_t format[4] = {2, 0, 0, 0};
  memcpy(b + n, format, 4), n += 4;
  memset(b + n, 0, 32), memcpy(b + n, "tiny", 4), n += 32;
  const uint8_t rest[] = {
      3, 0, 0, 0,                               /* feature_version */
      2, 0, 0, 0, 3, 0, 0, 0, 100, 0, 0, 0,     /* ndims, shape */
      3, 0, 0, 0, 0, 0, 0, 0,                   /* nnz */
      0x05, 0x80, 0x01, 0xa6, 0x01,             /* deltas 5, 128, 166 */
      0x00, 0x00, 0x80, 0x3f,                   /* 1.0f */
      0x00, 0x00, 0x00, 0xbf,                   /* -0.5f */
      0x00, 0x00, 0x50, 0x40,                   /* 3.25f */
      0, 0, 0, 0};                              /* crc32, set below */
  memcpy(b + n, rest, sizeof rest), n += sizeof rest;
  fix_crc(b, n);
  return n;
}

/* The writer's bytes for a tiny model equal the layout documented in weights.h, written out by
 * hand; the reader gives the entries back. */
static void test_sparse_layout(void) {
  uint8_t want[256], got[256];
  size_t n = tiny_bytes(want);
  TK_EQ(n, 52 + 8 + 8 + 5 + 12 + 4, "the documented size");
  uint64_t idx[3] = {5, 133, 299};
  double val[3] = {1.0, -0.5, 3.25};
  tk_weights_sparse s = {.model = "tiny", .feature_version = 3, .ndims = 2, .shape = {3, 100},
                         .nnz = 3, .index = idx, .values = val};
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_save(W("tiny.tkw"), &s, &e), 0);
  TK_EQ(get_bytes(W("tiny.tkw"), got, sizeof got), n, "file size");
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      TK_FAILF("byte %zu: %02x, the layout says %02x", i, got[i], want[i]);
      break;
    }
  put_bytes(W("hand.tkw"), want, n);
  tk_weights_sparse r;
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_load(W("hand.tkw"), "tiny", 3, 2, TINY_SHAPE, &r, &e), 0);
  TK_EQ(r.format, 2, "format");
  TK_EQ(r.nnz, 3, "entries");
  TK_EQ(r.count, 300, "count");
  for (int i = 0; i < 3; i++) {
    TK_EQ(r.index[i], TINY_INDEX[i], "index");
    CU_ASSERT_EQUAL(r.values[i], val[i]);
  }
  tk_weights_sparse_free(&r);
  tk_weights_sparse_free(&r); /* a second free is a no-op */
  double dense[300];
  for (int i = 0; i < 300; i++) dense[i] = 7;
  size_t nnz = 0;
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_load_dense(W("hand.tkw"), "tiny", 3, 2, TINY_SHAPE,
                                                     dense, &nnz, &e), 0);
  TK_EQ(nnz, 3, "entries scattered");
  int others = 0;
  for (int i = 0; i < 300; i++) others += i != 5 && i != 133 && i != 299 && dense[i] != 0;
  TK_EQ(others, 0, "entries absent from the file are zero");
  CU_ASSERT_EQUAL(dense[133], -0.5);
  CU_ASSERT_EQUAL(dense[299], 3.25);
}

/* Random entries over a shape of more than 2^32 entries (varints of up to 5 bytes) come back
 * with the same indices and the float32 rounding of their values, exactly; the same model
 * saved twice gives the same bytes; the dense writer leaves out what rounds to zero. */
static void test_sparse_round_trip(void) {
  enum { N = 5000 };
  static uint64_t idx[N];
  static double val[N];
  tk_rng rng;
  tk_rng_seed(&rng, 77);
  uint64_t at = 0;
  for (int i = 0; i < N; i++) {
    uint64_t r = tk_rng_next(&rng);
    at += 1 + (i % 7 == 0 ? (r % 3000000) : (r % 200)); /* small gaps and large ones */
    idx[i] = at;
    val[i] = ((double)(r >> 11) / 9007199254740992.0 - 0.5) * pow(10, (double)(i % 9) - 4);
  }
  const uint32_t shape[2] = {70000, 70000};
  if (at >= 70000ull * 70000) TK_FAILF("indices beyond the shape: %llu", (unsigned long long)at);
  tk_weights_sparse s = {.model = "round_trip", .feature_version = 5, .ndims = 2,
                         .shape = {70000, 70000}, .nnz = N, .index = idx, .values = val};
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_save(W("rt.tkw"), &s, &e), 0);
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_save(W("rt2.tkw"), &s, &e), 0);
  static uint8_t a[1 << 17], b[1 << 17];
  size_t na = get_bytes(W("rt.tkw"), a, sizeof a), nb = get_bytes(W("rt2.tkw"), b, sizeof b);
  TK_EQ(na, nb, "the same size twice");
  CU_ASSERT(na == nb && !memcmp(a, b, na));
  if (na >= 68 + 4 * (size_t)N + 4 * (size_t)N) /* at most 4 varint bytes + 4 a value would be */
    TK_FAILF("%zu bytes for %d entries: the varints are not compact", na, N);
  tk_weights_sparse r;
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_load(W("rt.tkw"), "round_trip", 5, 2, shape, &r, &e), 0);
  TK_EQ(r.nnz, N, "entries");
  int bad_i = 0, bad_v = 0;
  for (int i = 0; i < N && r.nnz == N; i++) {
    bad_i += r.index[i] != idx[i];
    bad_v += r.values[i] != (double)(float)val[i];
  }
  TK_EQ(bad_i, 0, "indices differing");
  TK_EQ(bad_v, 0, "values differing from their float32 rounding");
  tk_weights_sparse_free(&r);
  /* the dense writer: 1e-50 rounds to a float32 zero and is left out */
  double dense[40] = {0};
  dense[3] = 0.1, dense[17] = 1e-50, dense[39] = -2.5e30;
  tk_weights w = {.model = "dense", .feature_version = 1, .ndims = 2, .shape = {4, 10},
                  .count = 40, .values = dense};
  size_t nnz = 0;
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_save_dense(W("dense2.tkw"), &w, &nnz, &e), 0);
  TK_EQ(nnz, 2, "nonzero float32 entries");
  double back[40];
  const uint32_t shape2[2] = {4, 10};
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_load_dense(W("dense2.tkw"), "dense", 1, 2, shape2, back,
                                                     &nnz, &e), 0);
  CU_ASSERT_EQUAL(back[3], (double)0.1f);
  CU_ASSERT_EQUAL(back[17], 0);
  CU_ASSERT_EQUAL(back[39], (double)-2.5e30f);
}

/* Format-1 [nnz, 2] rows, the older sparse layout, read by the sparse reader with their f64
 * values exactly as stored; a row whose index goes back is refused by row. */
static void test_sparse_rows(void) {
  double rows[6] = {2, 0.1, 40, -1e-300, 299, 1e300};
  tk_weights w = {.model = "tiny", .feature_version = 3, .ndims = 2, .shape = {3, 2},
                  .count = 6, .values = rows};
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("rows.tkw"), &w, &e), 0);
  tk_weights_sparse r;
  CU_ASSERT_EQUAL_FATAL(tk_weights_sparse_load(W("rows.tkw"), "tiny", 3, 2, TINY_SHAPE, &r, &e), 0);
  TK_EQ(r.format, 1, "format");
  TK_EQ(r.nnz, 3, "rows");
  for (int i = 0; i < 3 && r.nnz == 3; i++) {
    TK_EQ(r.index[i], (uint64_t)rows[2 * i], "index");
    CU_ASSERT_EQUAL(r.values[i], rows[2 * i + 1]); /* no float32 rounding */
  }
  tk_weights_sparse_free(&r);
  rows[2] = 2; /* index 2 again */
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("rows-again.tkw"), &w, &e), 0);
  CU_ASSERT_EQUAL(tk_weights_sparse_load(W("rows-again.tkw"), "tiny", 3, 2, TINY_SHAPE, &r, &e),
                  TK_EPARSE);
  if (!strstr(e.msg, "rows-again.tkw") || !strstr(e.msg, "field 'values[1][0]': 2"))
    TK_FAILF("message: %s", e.msg);
  rows[2] = 300; /* beyond the shape given */
  CU_ASSERT_EQUAL_FATAL(tk_weights_save(W("rows-range.tkw"), &w, &e), 0);
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_weights_sparse_load(W("rows-range.tkw"), "tiny", 3, 2, TINY_SHAPE, &r, &e),
                  TK_EPARSE);
  if (!strstr(e.msg, "rows-range.tkw") || !strstr(e.msg, "field 'values[1][0]': 300") ||
      !strstr(e.msg, "below 300"))
    TK_FAILF("message: %s", e.msg);
}

/* Writes `b` (n bytes) as `name`, the checksum fixed unless `keep_crc`, loads it as the tiny
 * model and checks the refusal: `code`, the file's path and `want` in the message. */
static void sparse_refused(const char *name, uint8_t *b, size_t n, int keep_crc, int code,
                           const char *want) {
  if (!keep_crc) fix_crc(b, n);
  put_bytes(W(name), b, n);
  tk_weights_sparse r;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_weights_sparse_load(W(name), "tiny", 3, 2, TINY_SHAPE, &r, &e);
  TK_EQ(rc, code, name);
  if (!rc) tk_weights_sparse_free(&r);
  if (!strstr(e.msg, W(name)) || !strstr(e.msg, want))
    TK_FAILF("%s: expected the file and '%s' in: %s", name, want, e.msg);
}

/* Every refusal of the sparse reader and writer, each message naming the file, the field and
 * the value. Offsets: shape at 52, nnz at 60, varints at 68 (5, then 0x80 0x01, 0xa6 0x01),
 * values at 73, crc at 85. */
static void test_sparse_refusals(void) {
  uint8_t t[256], b[256];
  size_t n = tiny_bytes(t);
#define FRESH() memcpy(b, t, n)
  FRESH();
  memcpy(b + 12, "tinz", 4);
  sparse_refused("model.tkw", b, n, 0, TK_EABI, "field 'model': 'tinz', expected 'tiny'");
  FRESH();
  b[44] = 4;
  sparse_refused("fv.tkw", b, n, 0, TK_EABI, "field 'feature_version': 4");
  FRESH();
  b[56] = 99;
  sparse_refused("shape.tkw", b, n, 0, TK_EABI, "field 'shape[1]': 99, expected 100");
  FRESH();
  b[48] = 1;
  sparse_refused("ndims.tkw", b, n, 0, TK_EABI, "field 'ndims': 1, expected 2");
  FRESH();
  b[8] = 3;
  sparse_refused("format.tkw", b, n, 0, TK_EPARSE, "field 'format': 3");
  FRESH();
  b[60] = 0x2d, b[61] = 0x01; /* 301 entries in a shape of 300 */
  sparse_refused("nnz.tkw", b, n, 0, TK_EPARSE, "field 'nnz': 301, more than the 300");
  FRESH();
  b[70] = 0x00; /* 0x80 0x00: a delta of 0, index 5 again */
  sparse_refused("again.tkw", b, n, 0, TK_EPARSE, "field 'index[1]': 5 again");
  FRESH();
  b[71] = 0xff; /* delta 255: 133 + 255 = 388 */
  sparse_refused("range.tkw", b, n, 0, TK_EPARSE, "field 'index[2]': 388, not below 300");
  FRESH();
  b[73 + 4] = 0x00, b[73 + 5] = 0x00, b[73 + 6] = 0x80, b[73 + 7] = 0x7f; /* +inf */
  sparse_refused("inf.tkw", b, n, 0, TK_EPARSE, "field 'values[1]': inf");
  FRESH();
  b[74] ^= 1;
  sparse_refused("crc.tkw", b, n, 1, TK_EPARSE, "field 'crc32'");
  FRESH();
  b[60] = 2; /* two entries: the third varint's bytes and a value's are left over */
  sparse_refused("over.tkw", b, n, 0, TK_EPARSE, "bytes left over");
  FRESH();
  memmove(b + n - 4 + 2, b + n - 4, 4); /* two bytes more before the checksum */
  b[n - 4] = b[n - 3] = 0;
  sparse_refused("over2.tkw", b, n + 2, 0, TK_EPARSE, "bytes left over");
  FRESH();
  b[70] = 0x81, b[71] = 0x81, b[72] = 0x81; /* the varints run into the values */
  sparse_refused("runs.tkw", b, n, 0, TK_EPARSE, "cut short in field 'index[");
  FRESH();
  sparse_refused("short.tkw", b, n - 7, 1, TK_EPARSE, "cut short: field 'nnz' 3");
  sparse_refused("head.tkw", b, 63, 1, TK_EPARSE, "cut short before field 'nnz'");
  FRESH();
  sparse_refused("text.tkw", (uint8_t *)memcpy(b, "weights? no, text of some length\n", 34), 34,
                 1, TK_EPARSE, "not a taikai weights file");
#undef FRESH
  /* the dense reader names the sparse format */
  tk_weights w;
  tk_error e;
  tk_error_clear(&e);
  put_bytes(W("f2.tkw"), t, n);
  CU_ASSERT_EQUAL(tk_weights_load(W("f2.tkw"), "tiny", 3, 2, TINY_SHAPE, &w, &e), TK_EPARSE);
  if (!strstr(e.msg, "f2.tkw") || !strstr(e.msg, "field 'format': 2 (sparse)"))
    TK_FAILF("message: %s", e.msg);
  /* the writer refuses what the reader would */
  uint64_t idx[3] = {5, 133, 299};
  double val[3] = {1.0, -0.5, 3.25};
  tk_weights_sparse s = {.model = "tiny", .feature_version = 3, .ndims = 2, .shape = {3, 100},
                         .nnz = 3, .index = idx, .values = val};
  idx[1] = 5;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_weights_sparse_save(W("w.tkw"), &s, &e), TK_EINVAL);
  if (!strstr(e.msg, "w.tkw") || !strstr(e.msg, "entry 1: index 5 after 5")) TK_FAILF("%s", e.msg);
  idx[1] = 133, idx[2] = 300;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_weights_sparse_save(W("w.tkw"), &s, &e), TK_EINVAL);
  if (!strstr(e.msg, "entry 2: index 300, not below 300")) TK_FAILF("%s", e.msg);
  idx[2] = 299, val[0] = 0x1p130; /* beyond float32 (2^128) */
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_weights_sparse_save(W("w.tkw"), &s, &e), TK_EINVAL);
  if (!strstr(e.msg, "entry 0 (index 5): value 1.3611294676837539e+39 (not a finite float32)"))
    TK_FAILF("%s", e.msg);
  val[0] = NAN;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_weights_sparse_save(W("w.tkw"), &s, &e), TK_EINVAL);
  if (!strstr(e.msg, "entry 0 (index 5): value nan")) TK_FAILF("%s", e.msg);
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"train_and_play", test_train_and_play},
      {"bad_weights", test_bad_weights},
      {"loaders_refuse", test_loaders_refuse},
      {"trainer_refuses", test_trainer_refuses},
      {"any_dimension", test_any_dimension},
      {"sparse_layout", test_sparse_layout},
      {"sparse_round_trip", test_sparse_round_trip},
      {"sparse_rows", test_sparse_rows},
      {"sparse_refusals", test_sparse_refusals},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("solo_linear, a learned agent", tests);
}
