/* tests/sdk/test_sdk_install.c — the installed SDK, end to end, as a user in another repository
 * uses it: `cmake --install` of this build into a prefix of the test's own, then the prefix
 * moved (an install is relocatable); the installed taikai finds libtaikai, its agents and their
 * default weights with TAIKAI_PLUGIN_PATH unset; the C template (share/taikai/template/c) is
 * built out of tree with find_package(taikai) and the C++ one with its pkg-config Makefile; each
 * plays its tournament against the installed agents, both templates building without a warning;
 * every installed preset is accepted and plays; every installed header compiles as C++. The
 * tests run in order, each on the previous one's files. */
#include <glob.h>

#include "e2e_util.h"
#include "taikai/agent.h"

static char prefix[1200]; /* the moved install */
static char log_path[1200];

/* Prints `cmd`, its exit status `rc` and the end of its output (log_path). */
static void show_failure(const char *cmd, int rc) {
  static char buf[1 << 15];
  slurp(log_path, buf, sizeof buf);
  size_t n = strlen(buf);
  fprintf(stderr, "\n$ %s\nexit %d; output (end):\n%s\n", cmd, rc, n > 4000 ? buf + n - 4000 : buf);
}

/* Runs `cmd` through sh with stdout and stderr into W("cmd.log"). Returns the exit status. */
static int sh_quiet(const char *cmd) {
  char full[8192];
  snprintf(log_path, sizeof log_path, "%s", W("cmd.log"));
  snprintf(full, sizeof full, "(%s) > '%s' 2>&1", cmd, log_path);
  int st = system(full);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* sh_quiet, printing the command and its output's end on a non-zero status. */
static int sh(const char *cmd) {
  int rc = sh_quiet(cmd);
  if (rc) show_failure(cmd, rc);
  return rc;
}

static int file_has(const char *path, const char *text) {
  static char buf[1 << 16];
  slurp(path, buf, sizeof buf);
  return strstr(buf, text) != NULL;
}

/* The number of lines of `path`. */
static long lines_of(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long n = 0;
  for (int c; (c = getc(f)) != EOF;) n += c == '\n';
  fclose(f);
  return n;
}

static void install_and_move(void) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' --install '%s' --prefix '%s'", TK_CMAKE, TK_BUILD_DIR,
           W("staging"));
  if (sh(cmd)) {
    TK_FAILF("cmake --install failed (log %s)", log_path);
    return;
  }
  snprintf(prefix, sizeof prefix, "%s", W("moved-prefix"));
  if (rename(W("staging"), prefix)) TK_FAILF("cannot move the install to %s", prefix);
  const char *expect[] = {"bin/taikai",
                          TK_INSTALL_LIBDIR "/libtaikai.so",
                          TK_INSTALL_LIBDIR "/libtaikai_data.a",
                          TK_INSTALL_LIBDIR "/pkgconfig/taikai.pc",
                          TK_INSTALL_LIBDIR "/cmake/taikai/taikaiConfig.cmake",
                          TK_INSTALL_LIBDIR "/cmake/taikai/TaikaiPlugin.cmake",
                          TK_INSTALL_PLUGINDIR "/greedy.so",
                          TK_INSTALL_PLUGINDIR "/riichi_greedy.so",
                          TK_INSTALL_PLUGINDIR "/daifugo_mcl.so",
                          TK_INSTALL_PLUGINDIR "/daifugo_mcl_ap_mc.tkw",
                          TK_INSTALL_PLUGINDIR "/solo_linear.tkw",
                          "include/taikai/agent.h",
                          "include/taikai/daifugo.h",
                          "include/taikai/kuhn.h",
                          TK_INSTALL_PLUGINDIR "/kuhn_nash.so",
                          "share/taikai/arenas/kuhn/nash-vs-nash.json",
                          "share/taikai/template/c/my_kuhn.c",
                          "share/taikai/arenas/solo/greedy-vs-tsumogiri.json",
                          "share/taikai/template/c/my_solo.c",
                          "share/taikai/template/cpp/my_agent.cpp",
                          "share/taikai/scripts/slurm-shards.sh",
                          NULL};
  for (int i = 0; expect[i]; i++) {
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", prefix, expect[i]);
    if (!exists(p)) TK_FAILF("the install lacks %s", expect[i]);
    else CU_PASS(expect[i]);
  }
}

/* libtaikai's SONAME carries the plugin ABI, and the binary and a plugin need that name. */
static void soname_follows_abi(void) {
  char cmd[4096], want[64];
  snprintf(want, sizeof want, "libtaikai.so.%u", TK_AGENT_ABI_VERSION);
  snprintf(cmd, sizeof cmd,
           "objdump -p '%s/" TK_INSTALL_LIBDIR "/libtaikai.so' | grep SONAME && "
           "objdump -p '%s/bin/taikai' | grep NEEDED && "
           "objdump -p '%s/" TK_INSTALL_PLUGINDIR "/greedy.so' | grep NEEDED",
           prefix, prefix, prefix);
  if (sh(cmd)) {
    TK_FAILF("objdump failed");
    return;
  }
  static char out[1 << 14];
  slurp(log_path, out, sizeof out);
  int n = 0;
  for (const char *p = out; (p = strstr(p, want)); p += strlen(want)) n++;
  TK_EQ(n, 3, want); /* SONAME, the binary's NEEDED, the plugin's NEEDED */
}

/* The moved install plays with its own agents: no TAIKAI_PLUGIN_PATH, a preset from
 * share/taikai, and a learned agent whose default weights lie beside it. */
static void installed_binary_runs(void) {
  char cmd[8192];
  unsetenv("TAIKAI_PLUGIN_PATH");
  snprintf(cmd, sizeof cmd, "'%s/bin/taikai' plugins", prefix);
  CU_ASSERT_EQUAL_FATAL(sh(cmd), 0);
  char where[1400];
  snprintf(where, sizeof where, "%s/" TK_INSTALL_PLUGINDIR "/greedy.so", prefix);
  if (!file_has(log_path, where)) TK_FAILF("taikai plugins does not list %s", where);

  snprintf(cmd, sizeof cmd,
           "cd '%s' && '%s/bin/taikai' run '%s/share/taikai/arenas/solo/greedy-vs-tsumogiri.json'"
           " --walls 200 --quiet --out preset",
           work_dir, prefix, prefix);
  CU_ASSERT_EQUAL_FATAL(sh(cmd), 0);
  TK_EQ(lines_of(W("preset/games.jsonl")), 600, "preset games (3 agents x 200 walls)");

  write_file(W("linear.json"),
             "{\"game\": \"solo\", \"seed\": 7, \"walls\": 100, \"format\": \"field\","
             " \"agents\": [{\"plugin\": \"solo_linear\"}, {\"plugin\": \"greedy\"}]}");
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s/bin/taikai' run linear.json --quiet --out linear",
           work_dir, prefix);
  CU_ASSERT_EQUAL_FATAL(sh(cmd), 0);
  snprintf(where, sizeof where, "%s/" TK_INSTALL_PLUGINDIR "/solo_linear.tkw", prefix);
  if (!file_has(W("linear/spec.json"), "solo_linear.tkw"))
    TK_FAILF("linear/spec.json does not record the default weights %s", where);
  TK_EQ(lines_of(W("linear/games.jsonl")), 200, "solo_linear run games");
}

/* Whether the spec file `path` has an external seat (a client's: `taikai serve` plays it). */
static int has_external_seat(const char *path) {
  json_error_t jerr;
  json_t *spec = json_load_file(path, 0, &jerr), *a;
  size_t i;
  int external = 0;
  json_array_foreach(json_object_get(spec, "agents"), i, a) external |=
      json_is_true(json_object_get(a, "external"));
  json_decref(spec);
  return external;
}

/* Every preset in share/taikai/arenas is accepted by the moved install (its plugins, weights
 * and schema found) and plays: `taikai run --walls 1` (`taikai serve --port 0` for a spec with
 * external seats), stopped by SIGINT after `secs` seconds at most. Exit 0 (played) passes, and
 * so does 130 with the run's spec.json written (the folder was accepted: everything the spec
 * names was found and the play had begun), which bounds the cost of the presets whose one wall
 * takes minutes. 130 without spec.json is a stop before the acceptance, on a slow machine:
 * tried again with 30 s. Anything else fails with the command's output. */
static int preset_plays(const char *preset, const char *out, int secs) {
  char cmd[8192];
  int serve = has_external_seat(preset);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && timeout --preserve-status -s INT %d '%s/bin/taikai' %s '%s' --walls 1%s "
           "--quiet --no-html --out '%s'",
           work_dir, secs, prefix, serve ? "serve" : "run", preset, serve ? " --port 0" : "",
           out);
  int rc = sh_quiet(cmd);
  char spec[1400];
  snprintf(spec, sizeof spec, "%s/%s/spec.json", work_dir, out);
  if (rc == 130 && !exists(spec) && secs < 30) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s/%s'", work_dir, out);
    sh(cmd);
    return preset_plays(preset, out, 30);
  }
  if (rc == 0 || (rc == 130 && exists(spec))) return 0;
  show_failure(cmd, rc);
  return rc;
}

static void every_installed_preset_plays(void) {
  char pattern[1400];
  snprintf(pattern, sizeof pattern, "%s/share/taikai/arenas/*/*.json", prefix);
  glob_t g;
  if (glob(pattern, 0, NULL, &g)) {
    TK_FAILF("no preset matches %s", pattern);
    return;
  }
  int presets = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    const char *p = g.gl_pathv[i];
    size_t len = strlen(p);
    if (len > 15 && !strcmp(p + len - 15, ".reference.json")) continue; /* a table, no spec */
    char out[256];
    const char *game = p + strlen(prefix) + strlen("/share/taikai/arenas/");
    snprintf(out, sizeof out, "presets/%.*s", (int)(len - (game - p) - 5), game);
    int64_t t0 = now_ms();
    int rc = preset_plays(p, out, 2);
    if (rc) TK_FAILF("the installed preset %s does not play (exit %d; log above)", p, rc);
    else CU_PASS(p);
    fprintf(stderr, "  %s: %.1f s\n", game, (now_ms() - t0) / 1000.0);
    presets++;
  }
  globfree(&g);
  if (presets < 10) TK_FAILF("only %d presets installed in %s", presets, pattern);
}

/* The C template, out of tree: with its pkg-config Makefile and with find_package(taikai),
 * both without a warning (-Werror); its plugins export only the entry point, and each plays its
 * spec (fewer walls) against the installed agents. */
static void c_template_builds_and_plays(void) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s/share/taikai/template' '%s'", W("tpl"),
           prefix, W("tpl"));
  CU_ASSERT_EQUAL_FATAL(sh(cmd), 0);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && PKG_CONFIG_PATH='%s/" TK_INSTALL_LIBDIR "/pkgconfig' make "
           "CFLAGS='-O2 -Wall -Wextra -Werror' && rm -rf build",
           W("tpl/c"), prefix);
  if (sh(cmd)) TK_FAILF("the C template's make (warnings as errors) failed");
  snprintf(cmd, sizeof cmd,
           "cd '%s' && '%s' -S . -B build -DCMAKE_PREFIX_PATH='%s' "
           "-DCMAKE_C_FLAGS='-Wall -Wextra -Werror' && '%s' --build build",
           W("tpl/c"), TK_CMAKE, prefix, TK_CMAKE);
  CU_ASSERT_EQUAL_FATAL(sh(cmd), 0);
  snprintf(cmd, sizeof cmd, "cd '%s' && sh '%s/tests/referee/check_exports.sh' build/my_solo.so "
           "build/my_riichi.so build/my_daifugo.so build/my_kuhn.so", W("tpl/c"), TK_SOURCE_DIR);
  CU_ASSERT_EQUAL(sh(cmd), 0);
  const char *games[] = {"solo", "riichi", "daifugo", "kuhn"};
  const char *walls[] = {"200", "10", "2", "300"};
  const long lines[] = {800, 40, 10, 600}; /* 4 agents field; 4 seatings; 5 seatings; 2 */
  for (int i = 0; i < 4; i++) {
    snprintf(cmd, sizeof cmd,
             "cd '%s' && TAIKAI_PLUGIN_PATH=build '%s/bin/taikai' run %s.json --walls %s "
             "--quiet --out runs/%s",
             W("tpl/c"), prefix, games[i], walls[i], games[i]);
    if (sh(cmd)) {
      TK_FAILF("the C template's %s tournament failed", games[i]);
      continue;
    }
    char p[1400];
    snprintf(p, sizeof p, "%s/runs/%s/games.jsonl", W("tpl/c"), games[i]);
    TK_EQ(lines_of(p), lines[i], games[i]);
    snprintf(p, sizeof p, "%s/runs/%s/summary.json", W("tpl/c"), games[i]);
    char label[32];
    snprintf(label, sizeof label, "\"my_%s\"", games[i]);
    if (!file_has(p, label)) TK_FAILF("%s does not hold %s", p, label);
  }
}

/* The C++ template with the pkg-config one-liner of its Makefile, without a warning
 * (-Werror). */
static void cpp_template_pkg_config(void) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && PKG_CONFIG_PATH='%s/" TK_INSTALL_LIBDIR "/pkgconfig' make "
           "CXXFLAGS='-O2 -Wall -Wextra -Werror' && "
           "sh '%s/tests/referee/check_exports.sh' build/my_cpp.so && "
           "TAIKAI_PLUGIN_PATH=build '%s/bin/taikai' run solo.json --walls 200 --quiet "
           "--out runs/solo",
           W("tpl/cpp"), prefix, TK_SOURCE_DIR, prefix);
  CU_ASSERT_EQUAL_FATAL(sh(cmd), 0);
  char p[1400];
  snprintf(p, sizeof p, "%s/runs/solo/games.jsonl", W("tpl/cpp"));
  TK_EQ(lines_of(p), 600, "C++ template games (3 agents x 200 walls)");
  snprintf(p, sizeof p, "%s/runs/solo/summary.json", W("tpl/cpp"));
  if (!file_has(p, "\"my_cpp\"")) TK_FAILF("%s does not hold my_cpp", p);
}

/* Every installed header compiles as C++11 (pedantic, warnings as errors) and as C11. */
static void headers_compile_as_cpp(void) {
  const char *h[] = {"common.h", "rng.h", "sha256.h", "mahjong.h", "solve.h", "agent.h",
                     "solo.h", "riichi.h", "daifugo.h", "records.h", "weights.h", NULL};
  char src[8192] = "";
  for (int i = 0; h[i]; i++) {
    size_t n = strlen(src);
    snprintf(src + n, sizeof src - n, "#include \"taikai/%s\"\n", h[i]);
  }
  write_file(W("all.cpp"), src);
  write_file(W("all.c"), src);
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && c++ -std=c++11 -Wall -Wextra -pedantic -Werror -fsyntax-only "
           "-I'%s/include' all.cpp && cc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only "
           "-I'%s/include' all.c",
           work_dir, prefix, prefix);
  TK_EQ(sh(cmd), 0, "the headers as C++11 and C11");
}

int main(void) {
  (void)taikai; /* e2e_util.h's runner of the build's binary: this test runs the installed one */
  if (e2e_begin(TK_WORK_DIR "-sdk-install")) {
    fprintf(stderr, "cannot create %s\n", TK_WORK_DIR "-sdk-install");
    return 1;
  }
  CU_TestInfo tests[] = {
      {"install, then move the prefix", install_and_move},
      {"libtaikai's SONAME follows the plugin ABI", soname_follows_abi},
      {"the installed taikai finds its agents and weights", installed_binary_runs},
      {"every installed preset plays", every_installed_preset_plays},
      {"C template: make and find_package(taikai), no warning, three games",
       c_template_builds_and_plays},
      {"C++ template: pkg-config, no warning", cpp_template_pkg_config},
      {"every header compiles as C++11 and C11", headers_compile_as_cpp},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("sdk_install", tests);
}
