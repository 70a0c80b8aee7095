/* tests/agents/test_solo_linear.c — the learned agent end to end: records of its teacher from
 * `taikai run --records`, its trainer run twice giving the same weights byte for byte with a
 * held-out agreement well above chance, the plugin playing with its default weights (found
 * beside it) and with trained ones passed as a parameter, and every kind of bad weights file
 * refused before the run with the file and the field named. */
#include "e2e_util.h"
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

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"train_and_play", test_train_and_play},
      {"bad_weights", test_bad_weights},
      {"any_dimension", test_any_dimension},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("solo_linear, a learned agent", tests);
}
