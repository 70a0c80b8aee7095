/* tests/report/test_report_html_render.c — end to end: report.html rendered by headless Chromium
 * (Debian's `chromium`) to a PNG, which tests/report/png_check.py (zlib only) must find not
 * blank: enough distinct colours and enough pixels off the background. One run per game (solo,
 * daifugo, riichi), small. Skips, passing with a message, when chromium or python3 is absent
 * (`make test` installs chromium; CI has it). */
#include "e2e_util.h"

static const char *chromium;

static void render(const char *spec, const char *walls, const char *name) {
  if (!chromium) return;
  const char *args[] = {"run", spec, "--walls", walls, "-j", "2", "--out", W(name), "--quiet", NULL};
  TK_EQ(taikai(args), 0, err_buf);
  char html[1200], png[1200], cmd[6000], log[1200];
  snprintf(html, sizeof html, "%s/%s/report.html", work_dir, name);
  snprintf(png, sizeof png, "%s/%s.png", work_dir, name);
  snprintf(log, sizeof log, "%s/%s-chromium.txt", work_dir, name);
  /* a profile of its own (no home folder needed); no sandbox: CI runs as root */
  snprintf(cmd, sizeof cmd,
           "timeout 180 %s --headless --no-sandbox --disable-gpu --hide-scrollbars "
           "--no-first-run --disable-extensions --user-data-dir='%s/profile-%s' "
           "--window-size=1000,1600 --screenshot='%s' 'file://%s' > '%s' 2>&1",
           chromium, work_dir, name, png, html, log);
  int rc = system(cmd);
  char out[8192];
  slurp(log, out, sizeof out);
  if (rc || !exists(png)) {
    TK_FAILF("%s: chromium exited %d without a screenshot:\n%s", name, rc, out);
    return;
  }
  snprintf(cmd, sizeof cmd, "python3 '%s' '%s' 16 0.02 > '%s' 2>&1", TK_CHECK_PNG, png, log);
  rc = system(cmd);
  slurp(log, out, sizeof out);
  printf("%s", out);
  if (rc) TK_FAILF("%s: the render looks blank: %s", name, out);
  else CU_PASS(name);
}

static void solo(void) {
  render(TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json", "200", "solo");
}
static void daifugo(void) {
  render(TK_SOURCE_DIR "/arenas/daifugo/greedy-vs-random.json", "3", "daifugo");
}
static void riichi(void) {
  render(TK_SOURCE_DIR "/arenas/riichi/greedy-vs-tsumogiri.json", "4", "riichi");
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR)) {
    fprintf(stderr, "cannot create %s\n", TK_WORK_DIR);
    return 1;
  }
  if (system("python3 -c 'import zlib' > /dev/null 2>&1")) {
    printf("SKIP: python3 not found: report.html is not rendered\n");
  } else if (!system("command -v chromium > /dev/null 2>&1")) {
    chromium = "chromium";
  } else if (!system("command -v chromium-browser > /dev/null 2>&1")) {
    chromium = "chromium-browser";
  } else {
    printf("SKIP: chromium not found (Debian package `chromium`; `make deps` installs it): "
           "report.html is not rendered\n");
  }
  CU_TestInfo tests[] = {
      {"solo's page renders", solo},
      {"daifugo's page renders", daifugo},
      {"riichi's page renders", riichi},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("report_html_render", tests);
}
