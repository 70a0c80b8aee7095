/* tests/referee/test_ref_identity.c — what makes a run's agents what they are, and the inputs
 * the referee bounds. Groups (each a ctest entry: test_ref_identity GROUP):
 *   resume: a run stopped partway, its plugin rebuilt with other bytes and the same version:
 *           the resume is refused naming the agent, the file and both hashes, nothing touched;
 *           the bytes restored, it continues; a folder from before hashes is refused; a weights
 *           file (a plugin's declared default, or added with tk_run_add_file) is part of the
 *           identity; `taikai plugins` shows the hash.
 *   inputs: `taikai run /dev/zero`, and the confidence levels at the validator's edges played
 *           to the end (the statistics accept every level the validator accepts). */
#include "e2e_util.h"

#include "output.h"
#include "taikai/sha256.h"

#define FX(name) TK_FIXTURE_DIR "/" name ".so"
#define PLUGIN(name) TK_PLUGIN_DIR "/" name ".so"

static void copy_file(const char *from, const char *to, const char *extra) {
  FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
  if (!a || !b) TK_FAILF("cannot copy %s to %s", from, to);
  char buf[4096];
  for (size_t n; a && b && (n = fread(buf, 1, sizeof buf, a)) > 0;) fwrite(buf, 1, n, b);
  if (b && extra) fputs(extra, b);
  if (a) fclose(a);
  if (b) fclose(b);
}

static void hash_of(const char *path, char hex[TK_SHA256_HEX]) {
  tk_error e;
  tk_error_clear(&e);
  if (tk_sha256_file(path, hex, &e)) TK_FAILF("%s", e.msg);
}

/* Whether err_buf names `hash` whole or by its first 16 digits. */
static int names_hash(const char *hash) {
  char prefix[17];
  snprintf(prefix, sizeof prefix, "%.16s", hash);
  return strstr(err_buf, hash) || strstr(err_buf, prefix);
}

/* ================================================================== resume */

/* greedy from a copy of its plugin beside a misbehave agent that crashes on walls 0 and 3, with
 * fault_policy abort: the first command stops after wall 0, the second after wall 3. */
static void test_rebuilt_plugin(void) {
  char plugin[1200]; /* W's buffers rotate */
  snprintf(plugin, sizeof plugin, "%s", W("greedy-copy.so"));
  copy_file(PLUGIN("greedy"), plugin, NULL);
  char text[2048];
  snprintf(text, sizeof text,
           "{\"game\": \"solo\", \"seed\": 5, \"walls\": 6, \"fault_policy\": \"abort\", "
           "\"output\": \"%s\", \"agents\": [{\"plugin\": \"%s\", \"label\": \"greedy\"}, "
           "{\"plugin\": \"%s\", \"label\": \"bad\", \"params\": {\"how\": \"segv\", "
           "\"walls_mod\": 3}}]}\n", W("rebuilt"), plugin, FX("misbehave"));
  write_file(W("rebuilt.json"), text);
  const char *args[] = {"run", W("rebuilt.json"), "--quiet", NULL};
  TK_EQ(taikai(args), 3, "stopped at wall 0");
  TK_EQ(taikai(args), 3, "continued, stopped at wall 3");
  json_t *lines[16];
  int n = load_lines(W("rebuilt/games.jsonl"), lines, 16);
  TK_EQ(n, 8, "units played before the rebuild");
  free_lines(lines, n);
  json_t *spec = json_load_file(W("rebuilt/spec.json"), 0, NULL);
  json_t *files = json_object_get(json_array_get(json_object_get(spec, "agents"), 0), "files");
  char before[TK_SHA256_HEX], after[TK_SHA256_HEX];
  hash_of(plugin, before);
  TK_EQ(json_array_size(files), 1, "files of agent 0");
  json_t *f0 = json_array_get(files, 0);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "role")), "plugin");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "path")), plugin);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f0, "sha256")), before);
  json_decref(spec);
  static char games[1 << 16], summary[1 << 16], games2[1 << 16], summary2[1 << 16];
  slurp(W("rebuilt/games.jsonl"), games, sizeof games);
  slurp(W("rebuilt/summary.json"), summary, sizeof summary);

  /* the same plugin rebuilt: other bytes, the same name and version */
  copy_file(PLUGIN("greedy"), plugin, "rebuilt");
  hash_of(plugin, after);
  CU_ASSERT(strcmp(before, after) != 0);
  TK_EQ(taikai(args), 2, "resume with a rebuilt plugin");
  if (!strstr(err_buf, "rebuilt: agent 'greedy': "))
    TK_FAILF("message lacks the folder and the agent: %s", err_buf);
  if (!strstr(err_buf, "greedy-copy.so changed since the run started (sha256 "))
    TK_FAILF("message lacks the file: %s", err_buf);
  if (!names_hash(before) || !names_hash(after)) TK_FAILF("message lacks a hash: %s", err_buf);
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "start a new folder or rebuild the plugin as it was"));
  slurp(W("rebuilt/games.jsonl"), games2, sizeof games2);
  slurp(W("rebuilt/summary.json"), summary2, sizeof summary2);
  CU_ASSERT_STRING_EQUAL(games, games2);
  CU_ASSERT_STRING_EQUAL(summary, summary2);

  /* the bytes restored: the same build, the run continues to its end */
  copy_file(PLUGIN("greedy"), plugin, NULL);
  int rc = taikai(args);
  if (rc) TK_FAILF("resume with the plugin restored: exit %d: %s", rc, err_buf);
  n = load_lines(W("rebuilt/games.jsonl"), lines, 16);
  TK_EQ(n, 12, "units after the restored resume");
  free_lines(lines, n);
}

/* A folder whose spec.json has no hashes (written before they were recorded) is refused. */
static void test_folder_without_hashes(void) {
  char text[1024];
  snprintf(text, sizeof text,
           "{\"game\": \"solo\", \"seed\": 5, \"walls\": 3, \"output\": \"%s\", \"agents\": "
           "[{\"plugin\": \"greedy\"}, {\"plugin\": \"tsumogiri\"}]}\n", W("old"));
  write_file(W("old.json"), text);
  const char *args[] = {"run", W("old.json"), "--quiet", NULL};
  TK_EQ(taikai(args), 0, "first run");
  TK_EQ(taikai(args), 0, "the same run again: continued (nothing left to play)");
  json_t *spec = json_load_file(W("old/spec.json"), 0, NULL);
  json_t *agents = json_object_get(spec, "agents");
  for (size_t i = 0; i < json_array_size(agents); i++)
    json_object_del(json_array_get(agents, i), "files");
  json_dump_file(spec, W("old/spec.json"), JSON_INDENT(2));
  json_decref(spec);
  static char games[1 << 16], games2[1 << 16];
  slurp(W("old/games.jsonl"), games, sizeof games);
  TK_EQ(taikai(args), 2, "a folder without hashes");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "spec.json records no sha256 for agent 'greedy'"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "start a new folder"));
  slurp(W("old/games.jsonl"), games2, sizeof games2);
  CU_ASSERT_STRING_EQUAL(games, games2);
}

/* A plugin that declares default weights (the fixture `weighted`, copied with its weights file
 * into a folder of its own): the weights' hash is in spec.json, and a resume with other weights
 * is refused until they are restored. */
static void test_default_weights(void) {
  char plugin[1200], weights[1200], text[2600];
  mkdir(W("learned"), 0777);
  snprintf(plugin, sizeof plugin, "%s", W("learned/weighted.so"));
  snprintf(weights, sizeof weights, "%s", W("learned/weighted.weights"));
  copy_file(FX("weighted"), plugin, NULL);
  write_file(weights, "weights, first training\n");
  snprintf(text, sizeof text,
           "{\"game\": \"solo\", \"seed\": 5, \"walls\": 3, \"output\": \"%s\", \"agents\": "
           "[{\"plugin\": \"%s\"}, {\"plugin\": \"greedy\"}]}\n", W("learned-run"), plugin);
  write_file(W("learned.json"), text);
  const char *args[] = {"run", W("learned.json"), "--quiet", NULL};
  int rc = taikai(args);
  if (rc) {
    TK_FAILF("first run: exit %d: %s", rc, err_buf);
    return;
  }
  char first[TK_SHA256_HEX], second[TK_SHA256_HEX];
  hash_of(weights, first);
  json_t *spec = json_load_file(W("learned-run/spec.json"), 0, NULL);
  json_t *files = json_object_get(json_array_get(json_object_get(spec, "agents"), 0), "files");
  TK_EQ(json_array_size(files), 2, "files of the weighted agent");
  json_t *w = json_array_get(files, 1);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(w, "role")), "weights");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(w, "path")), weights);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(w, "sha256")), first);
  json_decref(spec);
  write_file(weights, "weights, second training\n");
  hash_of(weights, second);
  TK_EQ(taikai(args), 2, "resume with other weights");
  if (!strstr(err_buf, "learned-run: agent 'weighted': ") ||
      !strstr(err_buf, "weighted.weights changed since the run started (sha256 ") ||
      !names_hash(first) || !names_hash(second) || !strstr(err_buf, "restore the file as it was"))
    TK_FAILF("message: %s", err_buf);
  write_file(weights, "weights, first training\n");
  rc = taikai(args);
  if (rc) TK_FAILF("resume with the weights restored: exit %d: %s", rc, err_buf);
}

/* Prepares greedy + tsumogiri (from the build's plugins folder). */
static int prepare(tk_run *r) {
  tk_spec spec;
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_spec_parse("{\"game\": \"solo\", \"walls\": 4, \"agents\": [{\"plugin\": \""
                         PLUGIN("greedy") "\", \"label\": \"greedy\"}, {\"plugin\": \""
                         PLUGIN("tsumogiri") "\", \"label\": \"tsumogiri\"}]}",
                         "weights.json", &spec, &e);
  if (!rc) rc = tk_run_prepare(r, &spec, NULL, &e);
  if (rc) TK_FAILF("prepare: %s", e.msg);
  return rc;
}

static int check_dir(tk_run *r, const char *dir, tk_error *e) {
  int existing = 0;
  tk_error_clear(e);
  int rc = tk_outdir_check(r, dir, 0, &existing, e);
  if (!rc && !existing) TK_FAILF("%s: not taken as the same tournament", dir);
  return rc;
}

/* tk_run_add_file: refusals, the resolved spec, and the resume rules for a weights file. */
static void test_weights_file(void) {
  char weights[1200], dir[1200]; /* W's buffers rotate */
  snprintf(weights, sizeof weights, "%s", W("weights.bin"));
  snprintf(dir, sizeof dir, "%s", W("wdir"));
  write_file(weights, "weights version 1\n");
  tk_run r;
  if (prepare(&r)) return;
  tk_error e;
  tk_error_clear(&e);
  TK_EQ(tk_run_add_file(&r, 2, "weights", weights, &e), TK_EINVAL, "no agent 2");
  tk_error_clear(&e);
  TK_EQ(tk_run_add_file(&r, 0, "plugin", weights, &e), TK_EINVAL, "role plugin");
  tk_error_clear(&e);
  TK_EQ(tk_run_add_file(&r, 0, "Weights", weights, &e), TK_EINVAL, "role with a capital");
  tk_error_clear(&e);
  TK_EQ(tk_run_add_file(&r, 0, "weights", W("missing.bin"), &e), TK_EIO, "missing file");
  if (!strstr(e.msg, "agent 'greedy': weights file ") || !strstr(e.msg, "missing.bin"))
    TK_FAILF("message: %s", e.msg);
  tk_error_clear(&e);
  TK_EQ(tk_run_add_file(&r, 0, "weights", weights, &e), 0, e.msg);
  TK_EQ(tk_run_add_file(&r, 0, "weights", weights, &e), TK_EINVAL, "the same role twice");
  if (!strstr(e.msg, "a weights file is already given")) TK_FAILF("message: %s", e.msg);
  json_t *spec = tk_run_resolved_spec(&r);
  json_t *agents = json_object_get(spec, "agents");
  json_t *f0 = json_object_get(json_array_get(agents, 0), "files");
  json_t *f1 = json_object_get(json_array_get(agents, 1), "files");
  TK_EQ(json_array_size(f0), 2, "greedy's files");
  TK_EQ(json_array_size(f1), 1, "tsumogiri's files");
  char hex[TK_SHA256_HEX];
  hash_of(weights, hex);
  json_t *w = json_array_get(f0, 1);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(w, "role")), "weights");
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(w, "path")), weights);
  CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(w, "sha256")), hex);
  hash_of(PLUGIN("greedy"), hex);
  CU_ASSERT_STRING_EQUAL(
      json_string_value(json_object_get(json_array_get(f0, 0), "sha256")), hex);
  /* a folder holding this run's spec.json: the same tournament */
  mkdir(dir, 0777);
  char *text = json_dumps(spec, JSON_INDENT(2));
  json_decref(spec);
  TK_EQ(tk_write_atomic(dir, "spec.json", text, strlen(text), &e), 0, e.msg);
  free(text);
  TK_EQ(check_dir(&r, dir, &e), 0, e.msg);
  tk_run_free(&r);

  /* other weights: refused, naming the agent, the file and both hashes */
  char old_hex[TK_SHA256_HEX], new_hex[TK_SHA256_HEX];
  hash_of(weights, old_hex);
  write_file(weights, "weights version 2\n");
  hash_of(weights, new_hex);
  if (prepare(&r)) return;
  TK_EQ(tk_run_add_file(&r, 0, "weights", weights, &e), 0, e.msg);
  TK_EQ(check_dir(&r, dir, &e), TK_EINVAL, "other weights");
  snprintf(err_buf, sizeof err_buf, "%s", e.msg);
  if (!strstr(e.msg, "wdir: agent 'greedy': ") ||
      !strstr(e.msg, "weights.bin changed since the run started") ||
      !names_hash(old_hex) || !names_hash(new_hex) ||
      !strstr(e.msg, "restore the file as it was"))
    TK_FAILF("message: %s", e.msg);
  tk_run_free(&r);

  /* the weights missing from this run, or a file the run did not start with */
  if (prepare(&r)) return;
  TK_EQ(check_dir(&r, dir, &e), TK_EINVAL, "without the weights");
  if (!strstr(e.msg, "agent 'greedy': the run started with weights file") ||
      !strstr(e.msg, "which this run does not have"))
    TK_FAILF("message: %s", e.msg);
  TK_EQ(tk_run_add_file(&r, 1, "weights", weights, &e), 0, e.msg);
  TK_EQ(check_dir(&r, dir, &e), TK_EINVAL, "weights for the other agent");
  if (!strstr(e.msg, "agent 'greedy': the run started with weights file") &&
      !strstr(e.msg, "agent 'tsumogiri': weights file"))
    TK_FAILF("message: %s", e.msg);
  tk_run_free(&r);
}

/* `taikai plugins` prints each plugin's whole hash, and refuses metadata a report cannot show. */
static void test_plugins_command(void) {
  const char *args[] = {"plugins", PLUGIN("greedy"), NULL};
  TK_EQ(taikai(args), 0, "taikai plugins greedy.so");
  char hex[TK_SHA256_HEX], want[100];
  hash_of(PLUGIN("greedy"), hex);
  snprintf(want, sizeof want, "\n  sha256: %s\n", hex);
  if (!strstr(out_buf, want)) TK_FAILF("output lacks \"%s\": %s", want, out_buf);
  const char *bad[] = {"plugins", FX("meta_name_pipe"), NULL};
  TK_EQ(taikai(bad), 1, "taikai plugins meta_name_pipe.so");
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "refused: "));
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "descriptor field 'name' is \"greedy|x\""));
}

/* ================================================================== inputs */

static void test_dev_zero(void) {
  const char *args[] = {"run", "/dev/zero", "--out", W("zero"), NULL};
  int64_t t0 = now_ms();
  TK_EQ(taikai(args), 2, "taikai run /dev/zero");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "/dev/zero: is a character device, not a regular file"));
  CU_ASSERT(!exists(W("zero")));
  if (now_ms() - t0 > 20000) TK_FAILF("/dev/zero took %lld ms to refuse", (long long)(now_ms() - t0));
}

/* Two walls (one degree of freedom: the widest Student-t quantile) at each edge of the
 * confidence range the validator accepts: played to the end, every interval a pair of numbers;
 * just past the edge, refused before any game. */
static void test_confidence_edges(void) {
  const char *levels[3] = {"0.5", "0.999", "0.9999999999999999"};
  for (int i = 0; i < 3; i++) {
    char text[1024], name[32], out[64];
    snprintf(name, sizeof name, "conf-%d.json", i);
    snprintf(out, sizeof out, "conf-%d", i);
    snprintf(text, sizeof text,
             "{\"game\": \"solo\", \"seed\": 2, \"walls\": 2, \"confidence\": %s, \"output\": "
             "\"%s\", \"agents\": [{\"plugin\": \"greedy\"}, {\"plugin\": \"tsumogiri\"}, "
             "{\"plugin\": \"random\"}]}\n", levels[i], W(out));
    write_file(W(name), text);
    const char *args[] = {"run", W(name), "--quiet", NULL};
    int rc = taikai(args);
    if (i == 2) {
      TK_EQ(rc, 2, "a level past the edge");
      CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "field 'confidence'"));
      CU_ASSERT(!exists(W(out)));
      continue;
    }
    if (rc) {
      TK_FAILF("confidence %s: exit %d: %s", levels[i], rc, err_buf);
      continue;
    }
    char sp[128];
    snprintf(sp, sizeof sp, "%s/summary.json", out);
    json_t *sum = json_load_file(W(sp), 0, NULL);
    CU_ASSERT(json_is_true(json_object_get(sum, "complete")));
    json_t *greedy = json_array_get(json_object_get(sum, "agents"), 0);
    int finite = 0;
    const char *key;
    json_t *v;
    json_object_foreach(greedy, key, v) {
      json_t *ci = json_object_get(v, "ci");
      finite += json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1));
    }
    if (finite < 2) TK_FAILF("confidence %s: %d metrics of greedy with an interval", levels[i], finite);
    json_decref(sum);
  }
}

int main(int argc, char **argv) {
  const char *group = argc > 1 ? argv[1] : "resume";
  snprintf(work_dir, sizeof work_dir, "%s-identity-%s", TK_WORK_DIR, group); /* beside test_ref_e2e's folder, which it removes */
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", work_dir, work_dir);
  if (system(cmd)) return 1;
  setenv("TAIKAI_PLUGIN_PATH", TK_PLUGIN_DIR, 1);
  static CU_TestInfo resume[] = {{"rebuilt_plugin", test_rebuilt_plugin},
                                 {"folder_without_hashes", test_folder_without_hashes},
                                 {"weights_file", test_weights_file},
                                 {"default_weights", test_default_weights},
                                 {"plugins_command", test_plugins_command},
                                 CU_TEST_INFO_NULL};
  static CU_TestInfo inputs[] = {{"dev_zero", test_dev_zero},
                                 {"confidence_edges", test_confidence_edges},
                                 CU_TEST_INFO_NULL};
  if (!strcmp(group, "resume")) return tk_unit_run("referee identity: resume", resume);
  if (!strcmp(group, "inputs")) return tk_unit_run("referee identity: inputs", inputs);
  fprintf(stderr, "test_ref_identity: unknown group '%s'\n", group);
  return 2;
}
