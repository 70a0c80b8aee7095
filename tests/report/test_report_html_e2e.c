/* tests/report/test_report_html_e2e.c — end to end: the report.html that `taikai run`, `taikai
 * gate` and `taikai report` write. A small tournament of each game (solo, riichi, daifugo), a
 * gate and a report against a reference with hostile text; each page is checked by
 * tests/report/html_check.py (Python's html.parser: strict tag balance, nothing fetched, the
 * expected table rows and sections). Also: the same page whatever -j, and --no-html. Skips,
 * passing with a message, when python3 is absent. */
#include "e2e_util.h"

static int have_python;

/* Runs html_check.py on `path` with `checks` (its options, shell-quoted by the caller). */
static int check_html(const char *path, const char *checks) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "python3 '%s' '%s' %s > '%s' 2>&1", TK_CHECK_HTML, path, checks,
           W("check.txt"));
  int rc = system(cmd);
  char out[8192];
  slurp(W("check.txt"), out, sizeof out);
  if (rc) TK_FAILF("%s: html_check.py %s:\n%s", path, checks, out);
  else CU_PASS(path);
  return rc;
}

static void run_spec(const char *spec, const char *walls, const char *jobs, const char *out) {
  const char *args[] = {"run", spec, "--walls", walls, "-j", jobs, "--out", out, "--quiet", NULL};
  TK_EQ(taikai(args), 0, err_buf);
  TK_EQ(strstr(out_buf, "report.html") != NULL, 1, "the run names report.html among its files");
}

static char path_buf[4][2048];
static const char *in(const char *dir, const char *file, int k) {
  snprintf(path_buf[k], sizeof path_buf[k], "%s/%s", dir, file);
  return path_buf[k];
}

static void solo(void) {
  if (!have_python) return;
  const char *spec = TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json";
  run_spec(spec, "300", "2", W("j2/solo"));
  check_html(in(W("j2/solo"), "report.html", 0),
             "--row greedy --row tsumogiri --row random --svg 3 --text 'Results' "
             "--text 'Paired differences' --text 'points/game: agent − greedy' "
             "--text 'points/game against walls played (from games.jsonl)'");
  char html[1 << 17];
  slurp(in(W("j2/solo"), "report.html", 0), html, sizeof html);
  TK_EQ(strstr(html, "Rank distribution") == NULL, 1, "no ranks in a one-player game");
  /* the convergence chart ends on the summary's value: its last point is the final estimate,
   * which the bracket at the right spans */
  TK_EQ(strstr(html, "the bar at the right end is its final 95% interval") != NULL, 1, "legend");
  /* -j 1 writes the same bytes (folders of the same name) */
  run_spec(spec, "300", "1", W("j1/solo"));
  TK_EQ(same_bytes(in(W("j1/solo"), "report.html", 0), in(W("j2/solo"), "report.html", 1)), 1,
        "report.html independent of -j");
  /* --no-html: none written */
  const char *args[] = {"run", spec, "--walls", "20", "--out", W("nohtml"), "--quiet", "--no-html", NULL};
  TK_EQ(taikai(args), 0, err_buf);
  TK_EQ(exists(W("nohtml/summary.json")) && !exists(W("nohtml/report.html")), 1, "--no-html");
  TK_EQ(strstr(out_buf, "report.html") == NULL, 1, "and not named");
}

static void riichi(void) {
  if (!have_python) return;
  run_spec(TK_SOURCE_DIR "/arenas/riichi/greedy-vs-tsumogiri.json", "6", "2", W("riichi"));
  check_html(in(W("riichi"), "report.html", 0),
             "--row greedy --row tsumogiri --svg 4 --text 'Rank distribution' "
             "--text 'mean rank: agent − tsumogiri' --text '1st' --text '4th'");
}

static void daifugo(void) {
  if (!have_python) return;
  run_spec(TK_SOURCE_DIR "/arenas/daifugo/greedy-vs-random.json", "4", "2", W("daifugo"));
  check_html(in(W("daifugo"), "report.html", 0),
             "--row greedy --row random --svg 4 --text 'Rank distribution' --text 'daihinmin' "
             "--text 'mean place: agent − random'");
}

static void gate(void) {
  if (!have_python) return;
  const char *args[] = {"gate", TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json",
                        "--candidate", "greedy", "--baseline", "tsumogiri", "--metric",
                        "win_rate", "--bounds", "0,0.2", "--max-walls", "400", "-j", "2",
                        "--out", W("gate"), "--quiet", NULL};
  TK_EQ(taikai(args), 0, out_buf);
  check_html(in(W("gate"), "report.html", 0),
             "--row greedy --row tsumogiri --svg 4 --text 'Sequential test (taikai gate)' "
             "--text 'H1 accepted: the candidate passes' --text 'accept H1' --text 'accept H0' "
             "--text 'LLR at each look' --text 'win rate %: agent − tsumogiri'");
}

static void reference(void) {
  if (!have_python) return;
  /* a reference whose title and names are markup: shown as text */
  static char ref[2048]; /* W's buffers rotate */
  snprintf(ref, sizeof ref, "%s", W("ref.json"));
  write_file(ref,
             "{\"title\": \"Table <script>alert(1)</script>\", \"source\": \"a & b\", "
             "\"games\": 10000, \"metrics\": [\"win_rate\", \"points_per_game\"], \"rows\": ["
             "{\"label\": \"greedy\", \"name\": \"<img src=x onerror=alert(1)>\", "
             "\"win_rate\": 0.1891, \"points_per_game\": 739.0},"
             "{\"label\": \"tsumogiri\", \"win_rate\": 0.0, \"points_per_game\": null},"
             "{\"label\": \"komatsu\", \"win_rate\": 0.1127, \"points_per_game\": 904.1}]}\n");
  const char *args[] = {"report", in(W("j2/solo"), "summary.json", 0), "--reference", ref,
                        "--pairs", "tsumogiri", "--out", W("report.md"), NULL};
  TK_EQ(taikai(args), 0, err_buf);
  check_html(in(W("j2/solo"), "report.html", 1),
             "--row '<img src=x onerror=alert(1)>' --row tsumogiri --row komatsu --svg 5 "
             "--text 'Ours beside the published table' --text 'Table <script>alert(1)</script>' "
             "--text 'win rate %: agent − tsumogiri' --text 'published (red diamond, Wilson interval)' "
             "--absent '<script>' --absent '<img'");
  /* --html elsewhere, and --no-html */
  const char *args2[] = {"report", in(W("j2/solo"), "summary.json", 0), "--reference", ref,
                         "--html", W("other.html"), "--out", W("report2.md"), NULL};
  TK_EQ(taikai(args2), 0, err_buf);
  check_html(W("other.html"), "--row komatsu");
  const char *args3[] = {"report", in(W("nohtml"), "summary.json", 0), "--reference", ref,
                         "--no-html", "--out", W("report3.md"), NULL};
  TK_EQ(taikai(args3), 0, err_buf);
  TK_EQ(exists(W("nohtml/report.html")), 0, "report --no-html");
  const char *args4[] = {"report", in(W("nohtml"), "summary.json", 0), "--reference", ref,
                         "--no-html", "--html", W("x.html"), NULL};
  TK_EQ(taikai(args4), 2, "--html and --no-html");
  /* without a reference: the run's page alone, rebuilt (the gate's folder keeps its trace) */
  TK_EQ(remove(in(W("gate"), "report.html", 0)), 0, "removed");
  const char *args5[] = {"report", in(W("gate"), "summary.json", 0), "--pairs", "random", NULL};
  TK_EQ(taikai(args5), 0, err_buf);
  check_html(in(W("gate"), "report.html", 0),
             "--row greedy --text 'LLR at each look' --text 'points/game: agent − random'");
  const char *args6[] = {"report", in(W("gate"), "summary.json", 0), "--pairs", "nobody", NULL};
  TK_EQ(taikai(args6), 2, "an unknown baseline");
  TK_EQ(strstr(err_buf, "no agent labelled 'nobody'") != NULL, 1, err_buf);
  const char *args7[] = {"report", in(W("gate"), "summary.json", 0), "--out", W("x.md"), NULL};
  TK_EQ(taikai(args7), 2, "--out without --reference");
  TK_EQ(strstr(err_buf, "--out needs --reference") != NULL, 1, err_buf);
}

int main(void) {
  if (e2e_begin(TK_WORK_DIR)) {
    fprintf(stderr, "cannot create %s\n", TK_WORK_DIR);
    return 1;
  }
  have_python = system("python3 -c 'import html.parser' > /dev/null 2>&1") == 0;
  if (!have_python) printf("SKIP: python3 not found: report.html is not checked\n");
  CU_TestInfo tests[] = {
      {"solo: the page, -j independence, --no-html", solo},
      {"riichi: rank distribution", riichi},
      {"daifugo: rank distribution", daifugo},
      {"gate: the LLR trace", gate},
      {"report --reference: ours beside the published, escaped", reference},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("report_html_e2e", tests);
}
