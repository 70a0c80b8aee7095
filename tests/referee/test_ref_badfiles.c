/* tests/referee/test_ref_badfiles.c — end to end: every file taikai reads or hashes must be a
 * regular file. A spec, a plugin's own `file` entry, a weights parameter, a run folder's
 * spec.json, games.jsonl or summary.json, a reference table, notes, a log to replay or a record
 * to import that is a FIFO or a device (/dev/zero, /dev/urandom) is refused at once with the
 * path named and exit 2; nothing is read forever and no open blocks. A hang would end in the
 * child's alarm (e2e_util.h, e2e_hang_s) and fail the test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WORK TK_WORK_DIR "-badfiles"
#include "e2e_util.h"

#define FX(name) TK_FIXTURE_DIR "/" name ".so"

static char spec_path[1400];

/* Runs taikai and expects exit 2 with `needle` on stderr. */
static void refused(const char *what, const char *const *args, const char *needle) {
  int rc = taikai(args);
  if (rc != 2) TK_FAILF("%s: exit %d, expected 2; stderr: %.600s", what, rc, err_buf);
  if (!strstr(err_buf, needle)) TK_FAILF("%s: stderr lacks \"%s\": %.600s", what, needle, err_buf);
}

static void fifo(const char *path) {
  unlink(path);
  if (mkfifo(path, 0644)) TK_FAILF("mkfifo %s", path);
}

static void link_to(const char *target, const char *path) {
  unlink(path);
  if (symlink(target, path)) TK_FAILF("symlink %s -> %s", path, target);
}

static void spec_with(const char *agent_json) {
  char text[2000];
  snprintf(text, sizeof text, "{\"game\": \"solo\", \"seed\": 3, \"walls\": 4, \"agents\": "
           "[%s, {\"plugin\": \"tsumogiri\"}]}\n", agent_json);
  write_file(spec_path, text);
}

static void test_specs(void) {
  const char *fi = W("spec.fifo");
  fifo(fi);
  const char *a[] = {"run", fi, "--out", W("o1"), NULL};
  refused("a FIFO as the spec", a, "spec.fifo: is a FIFO, not a regular file");
  const char *b[] = {"run", "/dev/zero", "--out", W("o1"), NULL};
  refused("/dev/zero as the spec", b, "/dev/zero: is a character device, not a regular file");
  const char *c[] = {"run", work_dir, "--out", W("o1"), NULL};
  refused("a folder as the spec", c, "is a folder, not a regular file");
}

static void test_agent_files(void) {
  spec_with("{\"plugin\": \"" FX("names_file") "\"}");
  setenv("FX_FILE_PATH", "/dev/zero", 1);
  const char *a[] = {"run", spec_path, "--out", W("o2"), NULL};
  refused("a plugin's file entry /dev/zero", a,
          "data file /dev/zero: is a character device, not a regular file");
  setenv("FX_FILE_PATH", W("data.fifo"), 1);
  fifo(W("data.fifo"));
  refused("a plugin's file entry a FIFO", a, "data.fifo: is a FIFO, not a regular file");
  unsetenv("FX_FILE_PATH");

  static const char *const dev[] = {"/dev/zero", "/dev/urandom"};
  for (int i = 0; i < 2; i++) {
    char agent[200];
    snprintf(agent, sizeof agent, "{\"plugin\": \"" FX("weighted") "\", \"params\": "
             "{\"weights\": \"%s\"}}", dev[i]);
    spec_with(agent);
    refused("a weights parameter naming a device", a, "is a character device, not a regular");
  }
  fifo(W("w.fifo"));
  char agent[1800];
  snprintf(agent, sizeof agent, "{\"plugin\": \"" FX("weighted") "\", \"params\": {\"weights\": "
           "\"%s\"}}", W("w.fifo"));
  spec_with(agent);
  refused("a weights parameter naming a FIFO", a, "w.fifo: is a FIFO, not a regular file");
}

/* A finished run, then its files replaced one by one. */
static void test_run_folder(void) {
  spec_with("{\"plugin\": \"greedy\"}");
  static char out[1200], sum[1200];
  snprintf(out, sizeof out, "%s/r", work_dir);
  snprintf(sum, sizeof sum, "%s/r/summary.json", work_dir);
  const char *run[] = {"run", spec_path, "--out", out, "--quiet", NULL};
  if (taikai(run)) {
    TK_FAILF("the run: %s", err_buf);
    return;
  }
  const char *files[] = {"games.jsonl", "spec.json", "summary.json"};
  const char *report[] = {"report", sum, NULL};
  for (int i = 0; i < 3; i++) {
    char keep[1700], path[1600];
    snprintf(path, sizeof path, "%s/r/%s", work_dir, files[i]);
    snprintf(keep, sizeof keep, "%s.keep", path);
    rename(path, keep);
    for (int form = 0; form < 2; form++) {
      if (form) fifo(path);
      else link_to("/dev/zero", path);
      char what[200];
      snprintf(what, sizeof what, "resume with %s %s", files[i], form ? "a FIFO" : "/dev/zero");
      refused(what, run, files[i]);
      if (!strstr(err_buf, "not a regular file")) TK_FAILF("%s: %.600s", what, err_buf);
      snprintf(what, sizeof what, "report with %s %s", files[i], form ? "a FIFO" : "/dev/zero");
      if (i == 1) continue; /* report reads spec.json only through the chain, below */
      refused(what, report, files[i]);
      if (!strstr(err_buf, "not a regular file")) TK_FAILF("%s: %.600s", what, err_buf);
    }
    unlink(path);
    rename(keep, path);
  }
  /* the run is whole again: it resumes (nothing to play) */
  if (taikai(run)) TK_FAILF("the run after its files came back: %s", err_buf);
}

static void test_other_inputs(void) {
  fifo(W("x.fifo"));
  const char *ref[] = {"report", W("r/summary.json"), "--reference", W("x.fifo"), NULL};
  refused("a FIFO as --reference", ref, "x.fifo: is a FIFO");
  const char *notes[] = {"report", W("r/summary.json"), "--reference",
                         TK_SOURCE_DIR "/arenas/solo/table-5-1.reference.json", "--notes",
                         "/dev/zero", NULL};
  refused("/dev/zero as --notes", notes, "/dev/zero: is a character device");
  const char *replay[] = {"replay", W("x.fifo"), NULL};
  int rc = taikai(replay);
  if (rc == 0 || rc < 0 || !strstr(err_buf, "x.fifo: not a file or a folder"))
    TK_FAILF("replay of a FIFO: exit %d: %.600s", rc, err_buf);
  const char *import[] = {"import", "tenhou", "/dev/zero", "--out", W("imp"), NULL};
  rc = taikai(import);
  if (rc == 0 || rc < 0 || !strstr(err_buf, "/dev/zero: is a character device"))
    TK_FAILF("import of /dev/zero: exit %d: %.600s", rc, err_buf);
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  snprintf(spec_path, sizeof spec_path, "%s/spec-in.json", work_dir);
  CU_TestInfo tests[] = {
      {"specs", test_specs},
      {"an agent's files and weights", test_agent_files},
      {"a run folder's files", test_run_folder},
      {"references, notes, logs, records to import", test_other_inputs},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("files that are not regular files", tests);
}
