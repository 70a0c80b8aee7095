/* tests/referee/test_ref_faults.c — the referee under faults, end to end: each test
 * runs real tournaments with the `taikai` binary and plugins broken on purpose
 * (fixtures/misbehave.c and the crash, hang and illegal fixtures), and checks the exit status,
 * games.jsonl, summary.json, report.md and what reached stdout and stderr.
 *
 * Groups (each a ctest entry: test_ref_faults GROUP): crash (act, begin_game, end_game;
 * signals, exit, error returns; -j independence), lifecycle (create in a worker, create
 * refused by the trial, destroy, an agent printing to stdout), time (per-call and per-game limits), memory, policy
 * (forfeit, skip, abort, illegal substitute), resume (the same folder again, another spec,
 * plugin or taikai version), folders (torn and corrupt games.jsonl, folder refusals), kill (SIGKILL at
 * random points, then resume: byte-identical summary), signals (SIGINT/SIGTERM), input (bad
 * flags, plugin paths and output folders). Under sanitizers a crash may end the worker through
 * the sanitizer's own exit instead of the signal, so kinds "crash" and "exit" are both
 * accepted there. */
#include "e2e_util.h"

#define FX TK_FIXTURE_DIR

#ifdef TK_SANITIZED
static const int sanitized = 1;
#else
static const int sanitized = 0;
#endif

/* Writes W(<name>.json): a solo tournament on `walls` walls of `agents` (a JSON array), with
 * `extra` top-level fields (", ..." or ""), output W(<name>). Returns the spec's path. */
static const char *spec(const char *name, int walls, const char *agents, const char *extra) {
  static char path[1200];
  char file[256], text[4096];
  snprintf(file, sizeof file, "%s.json", name);
  snprintf(path, sizeof path, "%s", W(file));
  snprintf(text, sizeof text,
           "{\"game\": \"solo\", \"seed\": 11, \"walls\": %d, \"agents\": %s, \"output\": \"%s\"%s}\n",
           walls, agents, W(name), extra);
  write_file(path, text);
  return path;
}

/* A misbehave agent labelled "bad" with the given params (JSON object text). */
static const char *bad_agent(const char *params) {
  static char buf[1400];
  snprintf(buf, sizeof buf, "{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": %s}",
           params);
  return buf;
}

static json_t *load_summary(const char *name) {
  char p[300];
  snprintf(p, sizeof p, "%s/summary.json", name);
  json_t *j = json_load_file(W(p), 0, NULL);
  if (!j) TK_FAILF("%s: no summary.json", W(p));
  return j;
}

static int load_games(const char *name, json_t **lines, int max) {
  char p[300];
  snprintf(p, sizeof p, "%s/games.jsonl", name);
  return load_lines(W(p), lines, max);
}

static json_t *seat0(json_t *line) { return json_array_get(json_object_get(line, "seats"), 0); }

static const char *fault_field(json_t *line, const char *key) {
  return json_string_value(json_object_get(json_object_get(seat0(line), "fault_info"), key));
}

static long long fault_int(json_t *line, const char *key) {
  return (long long)json_integer_value(json_object_get(json_object_get(seat0(line), "fault_info"), key));
}

static int is_crash_kind(const char *k) {
  return k && (!strcmp(k, "crash") || (sanitized && !strcmp(k, "exit")));
}

/* ================================================================== crash */

/* A crash in act, begin_game or end_game (SIGSEGV, SIGABRT, SIGFPE) on the even walls: those
 * games are faults of the agent, with the signal, the entry point and the decision; the odd
 * walls and the other agent are untouched and the run finishes. */
static void test_crash_entry_points(void) {
  static const struct {
    const char *how, *entry;
    int signal;
  } cases[] = {{"segv", "act", 11}, {"abort", "begin_game", 6}, {"fpe", "end_game", 8}};
  for (int c = 0; c < 3; c++) {
    char name[64], params[256], agents[2048];
    snprintf(name, sizeof name, "crash-%s", cases[c].entry);
    snprintf(params, sizeof params, "{\"how\": \"%s\", \"entry\": \"%s\", \"walls_mod\": 2}",
             cases[c].how, cases[c].entry);
    snprintf(agents, sizeof agents, "[%s, {\"plugin\": \"tsumogiri\"}]", bad_agent(params));
    const char *args[] = {"run", spec(name, 6, agents, ""), "-j", "2", "--quiet", NULL};
    int rc = taikai(args);
    if (rc) TK_FAILF("%s: exit %d: %s", name, rc, err_buf);
    json_t *sum = load_summary(name);
    if (!sum) continue;
    TK_EQ(agent_int(sum, 0, "games"), 6, name);
    TK_EQ(agent_int(sum, 0, "faults"), 3, name);
    TK_EQ(agent_kind(sum, 0, "crash") + (sanitized ? agent_kind(sum, 0, "exit") : 0), 3, name);
    TK_EQ(agent_int(sum, 1, "faults"), 0, name);
    TK_EQ(agent_int(sum, 1, "games"), 6, name);
    CU_ASSERT(json_is_true(json_object_get(sum, "complete")));
    json_decref(sum);
    json_t *lines[12];
    int n = load_games(name, lines, 12);
    TK_EQ(n, 12, name);
    for (int i = 0; i < n; i++) {
      int wall = i / 2, bad = i % 2 == 0;
      json_t *s = seat0(lines[i]);
      if (bad && wall % 2 == 0) {
        if (!is_crash_kind(fault_field(lines[i], "kind")))
          TK_FAILF("%s unit %d: kind %s", name, i, fault_field(lines[i], "kind"));
        CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "entry"), cases[c].entry);
        TK_EQ(fault_int(lines[i], "seat"), 0, "seat");
        if (!sanitized || c == 1) TK_EQ(fault_int(lines[i], "signal"), cases[c].signal, name);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(s, "label")), "bad");
        if (c == 0) {
          const char *d = fault_field(lines[i], "decision");
          if (!d || strncmp(d, "turn 3: hand ", 13) || !strstr(d, ", drew "))
            TK_FAILF("%s unit %d: decision %s", name, i, d ? d : "(none)");
        }
      } else {
        CU_ASSERT_PTR_NULL(json_object_get(s, "fault"));
        CU_ASSERT(json_integer_value(json_object_get(s, "turn")) > 0);
      }
    }
    free_lines(lines, n);
  }
}

/* exit() inside act, and an error return: faults of their own kinds. */
static void test_exit_and_error(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s]", bad_agent("{\"how\": \"exit\", \"turn\": 2, \"walls_mod\": 2}"));
  const char *args[] = {"run", spec("exit", 4, agents, ""), "-j", "2", "--quiet", NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("exit: exit %d: %s", rc, err_buf);
  json_t *lines[4];
  int n = load_games("exit", lines, 4);
  TK_EQ(n, 4, "exit lines");
  for (int i = 0; i < n; i += 2) {
    CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "kind"), "exit");
    if (!sanitized) TK_EQ(fault_int(lines[i], "exit_status"), 7, "exit status");
    CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(seat0(lines[i]), "fault")),
                                  "exit: the agent ended its worker process"));
  }
  CU_ASSERT_PTR_NULL(json_object_get(seat0(lines[1]), "fault"));
  free_lines(lines, n);
  json_t *sum = load_summary("exit");
  TK_EQ(agent_kind(sum, 0, "exit"), 2, "exit kind");
  json_decref(sum);

  snprintf(agents, sizeof agents, "[%s]", bad_agent("{\"how\": \"error\", \"turn\": 4, \"walls_mod\": 3}"));
  const char *args2[] = {"run", spec("error", 6, agents, ""), "--quiet", NULL};
  rc = taikai(args2);
  if (rc) TK_FAILF("error: exit %d: %s", rc, err_buf);
  n = load_games("error", lines, 4);
  CU_ASSERT_STRING_EQUAL(fault_field(lines[0], "kind"), "error");
  CU_ASSERT_STRING_EQUAL(fault_field(lines[0], "detail"), "returned -1 (invalid argument)");
  /* the decision it failed at; the game itself is played out by the fallback (tsumogiri) */
  CU_ASSERT_PTR_NOT_NULL(strstr(fault_field(lines[0], "decision"), "turn 4: hand "));
  CU_ASSERT(json_integer_value(json_object_get(seat0(lines[0]), "turn")) >= 4);
  CU_ASSERT(json_is_false(json_object_get(seat0(lines[0]), "won")));
  free_lines(lines, n);
  sum = load_summary("error");
  TK_EQ(agent_kind(sum, 0, "error"), 2, "error kind");
  json_decref(sum);
}

/* create crashes in a worker (its 2nd call: the 1st is the trial): the unit being played is
 * the agent's fault, the worker is replaced and the run goes on. */
static void test_create_crash_in_worker(void) {
  unlink(W("create.count"));
  char params[512], agents[2048];
  snprintf(params, sizeof params,
           "{\"how\": \"segv\", \"entry\": \"create\", \"nth\": 2, \"counter\": \"%s\"}",
           W("create.count"));
  snprintf(agents, sizeof agents, "[%s, {\"plugin\": \"tsumogiri\"}]", bad_agent(params));
  const char *args[] = {"run", spec("create-crash", 3, agents, ""), "-j", "1", "--quiet", NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("exit %d: %s", rc, err_buf);
  json_t *lines[6];
  int n = load_games("create-crash", lines, 6);
  TK_EQ(n, 6, "lines");
  if (n == 6) {
    CU_ASSERT(is_crash_kind(fault_field(lines[0], "kind")));
    CU_ASSERT_STRING_EQUAL(fault_field(lines[0], "entry"), "create");
    for (int i = 1; i < 6; i++) CU_ASSERT_PTR_NULL(json_object_get(seat0(lines[i]), "fault"));
  }
  free_lines(lines, n);
  json_t *sum = load_summary("create-crash");
  TK_EQ(agent_int(sum, 0, "faults"), 1, "one fault");
  json_decref(sum);
}

/* A create that crashes, hangs or fails every time is refused before the run, in a trial
 * process, and nothing is written. Only the hanging case has a short limit: the others end at
 * once, except that a sanitizer's crash report (symbolised on a loaded machine) can take more
 * than a second, and that must not turn a crash into a timeout. */
static void test_create_refused(void) {
  static const struct {
    const char *params, *needle, *limit;
  } cases[] = {
      {"{\"how\": \"segv\", \"entry\": \"create\"}", "create crashed: killed by signal",
       ", \"time_limit_ms\": 30000"},
      {"{\"how\": \"error\", \"entry\": \"create\"}", "create failed: misbehave: create fails on purpose",
       ", \"time_limit_ms\": 30000"},
      {"{\"how\": \"hang\", \"entry\": \"create\"}", "create did not return within 300 ms",
       ", \"time_limit_ms\": 300"},
      {"{\"how\": \"exit\", \"entry\": \"create\"}", "create ended its process with exit status",
       ", \"time_limit_ms\": 30000"},
  };
  for (int c = 0; c < 4; c++) {
    char name[64], agents[2048];
    snprintf(name, sizeof name, "create-refused-%d", c);
    snprintf(agents, sizeof agents, "[%s]", bad_agent(cases[c].params));
    const char *args[] = {"run", spec(name, 3, agents, cases[c].limit), NULL};
    int rc = taikai(args);
    TK_EQ(rc, 2, cases[c].params);
    if (!strstr(err_buf, cases[c].needle) && !(sanitized && c == 0 && strstr(err_buf, "create ended")))
      TK_FAILF("%s: message lacks \"%s\": %s", cases[c].params, cases[c].needle, err_buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "agent 'bad'"));
    if (exists(W(name))) TK_FAILF("%s: output folder created", name);
  }
}

/* destroy crashes as a worker retires: a warning, the results stand. */
static void test_destroy_crash(void) {
  unlink(W("destroy.count"));
  char params[512], agents[2048];
  snprintf(params, sizeof params,
           "{\"how\": \"segv\", \"entry\": \"destroy\", \"nth\": 2, \"counter\": \"%s\"}",
           W("destroy.count"));
  snprintf(agents, sizeof agents, "[%s]", bad_agent(params));
  const char *args[] = {"run", spec("destroy-crash", 3, agents, ""), "-j", "1", NULL};
  int rc = taikai(args);
  TK_EQ(rc, 0, "exit status");
  if (!strstr(err_buf, "warning: agent 'bad'") || !strstr(err_buf, "in destroy"))
    TK_FAILF("no destroy warning: %s", err_buf);
  json_t *sum = load_summary("destroy-crash");
  TK_EQ(agent_int(sum, 0, "faults"), 0, "no fault");
  TK_EQ(agent_int(sum, 0, "games"), 3, "games");
  json_decref(sum);
}

/* An agent printing to stdout on every call never reaches the referee's stdout. */
static void test_stdout(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s, {\"plugin\": \"greedy\"}]",
           bad_agent("{\"how\": \"stdout\", \"turn\": 0}"));
  const char *args[] = {"run", spec("stdout", 5, agents, ""), "-j", "2", "--quiet", NULL};
  int rc = taikai(args);
  TK_EQ(rc, 0, "exit status");
  if (strstr(out_buf, "MISBEHAVE")) TK_FAILF("an agent's print reached stdout:\n%s", out_buf);
  if (strncmp(out_buf, "agent ", 6)) TK_FAILF("stdout does not start with the table:\n%s", out_buf);
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "MISBEHAVE"));
  json_t *lines[10];
  int n = load_games("stdout", lines, 10);
  TK_EQ(n, 10, "lines");
  for (int i = 0; i < n; i++) CU_ASSERT_PTR_NOT_NULL(lines[i]);
  free_lines(lines, n);
  json_t *sum = load_summary("stdout");
  TK_EQ(agent_int(sum, 0, "faults"), 0, "faults");
  json_decref(sum);
}

/* Fault lines are a function of the unit: -j 1 and -j 3 write the same bytes. */
static void test_faults_jobs_identical(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s, {\"plugin\": \"random\"}]",
           bad_agent("{\"how\": \"segv\", \"turn\": 5, \"walls_mod\": 3}"));
  spec("ident", 30, agents, "");
  const char *a1[] = {"run", W("ident.json"), "-j", "1", "--out", W("ident-1"), "--quiet", NULL};
  const char *a3[] = {"run", W("ident.json"), "-j", "3", "--out", W("ident-3"), "--quiet", NULL};
  TK_EQ(taikai(a1), 0, "-j 1");
  TK_EQ(taikai(a3), 0, "-j 3");
  CU_ASSERT(same_bytes(W("ident-1/games.jsonl"), W("ident-3/games.jsonl")));
  CU_ASSERT(same_bytes(W("ident-1/summary.json"), W("ident-3/summary.json")));
  CU_ASSERT(same_bytes(W("ident-1/report.md"), W("ident-3/report.md")));
}

/* ================================================================== time */

static void test_hang_call_limit(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s, {\"plugin\": \"tsumogiri\"}]",
           bad_agent("{\"how\": \"hang\", \"turn\": 2, \"walls_mod\": 2}"));
  const char *args[] = {"run", spec("hang", 4, agents, ", \"time_limit_ms\": 300"), "-j", "2",
                        "--quiet", NULL};
  TK_EQ(taikai(args), 0, "exit status");
  json_t *lines[8];
  int n = load_games("hang", lines, 8);
  TK_EQ(n, 8, "lines");
  for (int i = 0; i < n; i += 4) {
    CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "kind"), "timeout");
    CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "limit"), "call");
    TK_EQ(fault_int(lines[i], "limit_ms"), 300, "limit_ms");
    CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(seat0(lines[i]), "fault")),
                                  "timeout: no decision within 300 ms in act (turn 2: hand"));
  }
  free_lines(lines, n);
  json_t *sum = load_summary("hang");
  TK_EQ(agent_int(sum, 0, "timeouts"), 2, "timeouts");
  TK_EQ(agent_int(sum, 1, "faults"), 0, "others");
  json_decref(sum);
  if (!strstr(out_buf, "timeout")) TK_FAILF("the stdout table does not show time-outs:\n%s", out_buf);
}

/* Sleeping past the limit (returning late) and hanging in begin_game are time-outs too. */
static void test_sleep_and_begin(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s]",
           bad_agent("{\"how\": \"sleep\", \"sleep_ms\": 400, \"turn\": 3, \"walls_mod\": 2}"));
  const char *args[] = {"run", spec("sleep", 4, agents, ", \"time_limit_ms\": 200"), "-j", "2",
                        "--quiet", NULL};
  TK_EQ(taikai(args), 0, "exit status");
  json_t *sum = load_summary("sleep");
  TK_EQ(agent_int(sum, 0, "timeouts"), 2, "sleep timeouts");
  json_decref(sum);
  json_t *sl[4];
  int ns = load_games("sleep", sl, 4);
  for (int i = 0; i < ns; i += 2) { /* asleep, it uses no CPU: caught by the idle limit */
    CU_ASSERT_STRING_EQUAL(fault_field(sl[i], "limit"), "idle");
    TK_EQ(fault_int(sl[i], "limit_ms"), 200, "idle limit_ms (time_limit_ms by default)");
  }
  free_lines(sl, ns);

  snprintf(agents, sizeof agents, "[%s]",
           bad_agent("{\"how\": \"hang\", \"entry\": \"begin_game\", \"walls_mod\": 2}"));
  const char *args2[] = {"run", spec("begin-hang", 3, agents, ", \"time_limit_ms\": 200"), "-j",
                         "2", "--quiet", NULL};
  TK_EQ(taikai(args2), 0, "exit status");
  json_t *lines[3];
  int n = load_games("begin-hang", lines, 3);
  TK_EQ(n, 3, "lines");
  CU_ASSERT_STRING_EQUAL(fault_field(lines[0], "entry"), "begin_game");
  CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(seat0(lines[0]), "fault")),
                                "timeout: begin_game did not return within 200 ms"));
  CU_ASSERT_PTR_NULL(json_object_get(seat0(lines[1]), "fault"));
  free_lines(lines, n);
}

/* The clock: limits are CPU time by default, so sleeping within idle_limit_ms is no fault
 * however long it is against time_limit_ms, and computing past time_limit_ms is; with
 * "clock": "wall" a sleep past the limit is a per-call time-out, as a wall clock sees it. The
 * wall-clock run's limit is 1 s, so that a starved machine does not stretch the agent's
 * create, timed by the same clock in the trial before the run, past it. */
static void test_clock(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s]",
           bad_agent("{\"how\": \"sleep\", \"sleep_ms\": 300, \"turn\": 2}"));
  char wall_agents[2048];
  snprintf(wall_agents, sizeof wall_agents, "[%s]",
           bad_agent("{\"how\": \"sleep\", \"sleep_ms\": 3000, \"turn\": 2}"));
  const char *cpu[] = {"run", spec("clock-cpu", 2, agents, ", \"time_limit_ms\": 100, "
                                   "\"idle_limit_ms\": 5000"), "--quiet", NULL};
  TK_EQ(taikai(cpu), 0, "exit status");
  json_t *sum = load_summary("clock-cpu");
  TK_EQ(agent_int(sum, 0, "faults"), 0, "a sleep of 300 ms within a 100 ms CPU limit");
  json_decref(sum);
  const char *wall[] = {"run", spec("clock-wall", 2, wall_agents, ", \"time_limit_ms\": 1000, "
                                    "\"clock\": \"wall\""), "--quiet", NULL};
  TK_EQ(taikai(wall), 0, "exit status");
  json_t *lines[2];
  int n = load_games("clock-wall", lines, 2);
  TK_EQ(n, 2, "lines");
  for (int i = 0; i < n; i++) {
    CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "limit"), "call");
    TK_EQ(fault_int(lines[i], "limit_ms"), 1000, "limit_ms");
  }
  free_lines(lines, n);
  snprintf(agents, sizeof agents, "[%s]",
           bad_agent("{\"how\": \"busy\", \"sleep_ms\": 300, \"turn\": 2}"));
  const char *busy[] = {"run", spec("clock-busy", 2, agents, ", \"time_limit_ms\": 100"),
                        "--quiet", NULL};
  TK_EQ(taikai(busy), 0, "exit status");
  n = load_games("clock-busy", lines, 2);
  TK_EQ(n, 2, "lines");
  for (int i = 0; i < n; i++) {
    CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "kind"), "timeout");
    CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "limit"), "call");
  }
  free_lines(lines, n);
  /* "idle_limit_ms" belongs to the CPU clock */
  const char *both[] = {"run", spec("clock-both", 2, agents, ", \"clock\": \"wall\", "
                                    "\"idle_limit_ms\": 100"), "--quiet", NULL};
  TK_EQ(taikai(both), 2, "idle_limit_ms with a wall clock");
  if (!strstr(err_buf, "idle_limit_ms")) TK_FAILF("stderr: %s", err_buf);
}

/* The per-game limit: 40 ms of CPU per decision, 300 ms per game, no per-call limit. */
static void test_game_limit(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s]",
           bad_agent("{\"how\": \"busy\", \"sleep_ms\": 40, \"turn\": 0}"));
  const char *args[] = {"run",
                        spec("game-limit", 2, agents,
                             ", \"time_limit_ms\": 0, \"game_time_limit_ms\": 300"),
                        "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(args), 0, "exit status");
  json_t *lines[2];
  int n = load_games("game-limit", lines, 2);
  TK_EQ(n, 2, "lines");
  for (int i = 0; i < n; i++) {
    CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "kind"), "timeout");
    CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "limit"), "game");
    TK_EQ(fault_int(lines[i], "limit_ms"), 300, "limit");
  }
  free_lines(lines, n);
  /* 0 means no limit: the same agent sleeping 50 ms once is fine */
  snprintf(agents, sizeof agents, "[%s]",
           bad_agent("{\"how\": \"sleep\", \"sleep_ms\": 50, \"turn\": 3}"));
  const char *args2[] = {"run", spec("no-limit", 2, agents, ", \"time_limit_ms\": 0"), "--quiet",
                         NULL};
  TK_EQ(taikai(args2), 0, "exit status");
  json_t *sum = load_summary("no-limit");
  TK_EQ(agent_int(sum, 0, "faults"), 0, "no faults without limits");
  json_decref(sum);
}

/* ================================================================== memory */

static void test_memory_leak(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s, {\"plugin\": \"greedy\"}]",
           bad_agent("{\"how\": \"leak\", \"leak_mb\": 16, \"turn\": 2, \"walls_mod\": 2}"));
  const char *args[] = {"run", spec("leak", 4, agents, ", \"memory_limit_mb\": 384"), "-j", "2",
                        "--quiet", NULL};
  int rc = taikai(args);
  if (rc) TK_FAILF("exit %d: %s", rc, err_buf);
  json_t *lines[8];
  int n = load_games("leak", lines, 8);
  TK_EQ(n, 8, "lines");
  for (int i = 0; i < n; i++) {
    int faulted = i % 2 == 0 && (i / 2) % 2 == 0;
    if (faulted) {
      CU_ASSERT_STRING_EQUAL(fault_field(lines[i], "kind"), "memory");
      TK_EQ(fault_int(lines[i], "limit_mb"), 384, "limit_mb");
      CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(seat0(lines[i]), "fault")),
                                    "memory: over the 384 MB memory limit in act (turn 2"));
    } else {
      CU_ASSERT_PTR_NULL(json_object_get(seat0(lines[i]), "fault"));
    }
  }
  free_lines(lines, n);
  json_t *sum = load_summary("leak");
  TK_EQ(agent_kind(sum, 0, "memory"), 2, "memory faults");
  TK_EQ(agent_int(sum, 1, "faults"), 0, "greedy");
  json_decref(sum);
}

/* ================================================================== policy */

static void test_skip(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s, {\"plugin\": \"tsumogiri\"}]",
           bad_agent("{\"how\": \"segv\", \"walls_mod\": 2}"));
  const char *args[] = {"run", spec("skip", 6, agents, ", \"fault_policy\": \"skip\""), "-j", "2",
                        "--quiet", NULL};
  TK_EQ(taikai(args), 0, "exit status");
  json_t *sum = load_summary("skip");
  TK_EQ(agent_int(sum, 0, "games"), 3, "games counted");
  TK_EQ(agent_int(sum, 0, "faults"), 3, "faults");
  TK_EQ(agent_int(sum, 0, "skipped"), 3, "skipped");
  TK_EQ(agent_int(sum, 1, "games"), 6, "other games");
  TK_EQ(json_integer_value(json_object_get(sum, "units_skipped")), 3, "units_skipped");
  TK_EQ(json_integer_value(json_object_get(sum, "units")), 12, "units recorded");
  CU_ASSERT(json_is_true(json_object_get(sum, "complete")));
  json_t *pair = json_array_get(json_object_get(sum, "paired"), 0);
  TK_EQ(json_integer_value(json_object_get(pair, "walls")), 3, "paired walls");
  /* win rate over the 3 walls played, not 6 */
  json_t *wr = json_object_get(json_array_get(json_object_get(sum, "agents"), 0), "win_rate");
  CU_ASSERT(json_is_number(json_object_get(wr, "value")));
  json_decref(sum);
  json_t *lines[12];
  int n = load_games("skip", lines, 12);
  for (int i = 0; i < n; i++)
    TK_EQ(json_is_true(json_object_get(lines[i], "skipped")), i % 2 == 0 && (i / 2) % 2 == 0,
          "skipped flag");
  free_lines(lines, n);
  static char report[1 << 16];
  slurp(W("skip/report.md"), report, sizeof report);
  CU_ASSERT_PTR_NOT_NULL(strstr(report, "## Faults"));
  CU_ASSERT_PTR_NOT_NULL(strstr(report, "3 units skipped"));
}

static void test_abort(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[{\"plugin\": \"tsumogiri\"}, %s]",
           bad_agent("{\"how\": \"segv\", \"walls_mod\": 2}"));
  const char *args[] = {"run", spec("abort", 6, agents, ", \"fault_policy\": \"abort\""), "-j",
                        "2", "--quiet", NULL};
  TK_EQ(taikai(args), 3, "exit status of an abort");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "stopped: fault_policy abort: unit 1 (wall 0): agent 'bad'"));
  json_t *lines[12];
  int n = load_games("abort", lines, 12);
  TK_EQ(n, 2, "lines kept: everything up to the faulted unit");
  free_lines(lines, n);
  json_t *sum = load_summary("abort");
  CU_ASSERT(json_is_false(json_object_get(sum, "complete")));
  const char *why = json_string_value(json_object_get(sum, "stopped"));
  CU_ASSERT(why && strstr(why, "fault_policy abort: unit 1"));
  TK_EQ(json_integer_value(json_object_get(sum, "units")), 2, "units");
  json_decref(sum);
  static char report[1 << 16];
  slurp(W("abort/report.md"), report, sizeof report);
  CU_ASSERT_PTR_NOT_NULL(strstr(report, "**Incomplete run**"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "INCOMPLETE: 2 of 12 units"));
  /* the same command continues after the faulted unit, up to the next fault */
  TK_EQ(taikai(args), 3, "exit status of the second abort");
  n = load_games("abort", lines, 12);
  TK_EQ(n, 6, "lines after the second run");
  free_lines(lines, n);
}

static void test_illegal_policies(void) {
  const char *agents = "[{\"plugin\": \"" FX "/illegal.so\"}, {\"plugin\": \"tsumogiri\"}]";
  const char *args[] = {"run", spec("illegal-sub", 5, agents, ", \"illegal_policy\": \"substitute\""),
                        "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(args), 0, "exit status");
  json_t *sum = load_summary("illegal-sub");
  TK_EQ(agent_int(sum, 0, "faults"), 0, "substituted: no fault");
  TK_EQ(agent_int(sum, 0, "illegal_actions"), 5, "illegal actions counted");
  json_decref(sum);
  json_t *lines[10];
  int n = load_games("illegal-sub", lines, 10);
  for (int i = 0; i < n; i += 2) {
    json_t *s = seat0(lines[i]);
    TK_EQ(json_integer_value(json_object_get(s, "illegal")), 1, "illegal count");
    CU_ASSERT(json_integer_value(json_object_get(s, "turn")) > 3 ||
              json_is_true(json_object_get(s, "won")));
    const char *first = json_string_value(json_object_get(s, "illegal_first"));
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "turn 3: hand "));
    CU_ASSERT_PTR_NOT_NULL(strstr(first, ": discard of "));
    CU_ASSERT_PTR_NOT_NULL(strstr(first, ", not legal"));
  }
  free_lines(lines, n);
  const char *args2[] = {"run", spec("illegal-forfeit", 5, agents, ""), "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(args2), 0, "exit status");
  sum = load_summary("illegal-forfeit");
  TK_EQ(agent_kind(sum, 0, "illegal"), 5, "illegal faults");
  TK_EQ(agent_int(sum, 0, "illegal_actions"), 5, "illegal actions");
  json_decref(sum);
}

/* ================================================================== resume */

static const char *TRIO = "[{\"plugin\": \"greedy\"}, {\"plugin\": \"tsumogiri\"}, "
                          "{\"plugin\": \"random\", \"label\": \"rnd\"}]";

static void test_same_folder(void) {
  const char *sp = spec("again", 30, TRIO, "");
  const char *args[] = {"run", sp, "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(args), 0, "first run");
  static char first[1 << 16];
  slurp(W("again/summary.json"), first, sizeof first);
  /* the same command on a finished run: nothing to play, the same summary */
  TK_EQ(taikai(args), 0, "second run");
  static char second[1 << 16];
  slurp(W("again/summary.json"), second, sizeof second);
  CU_ASSERT_STRING_EQUAL(first, second);
  /* another spec into the folder (fewer walls: more would extend the run): refused, saying
   * what differs; nothing touched */
  const char *other[] = {"run", sp, "--walls", "29", "--quiet", NULL};
  TK_EQ(taikai(other), 2, "other spec");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "walls: 30 there, 29 here"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "cannot resume"));
  slurp(W("again/summary.json"), second, sizeof second);
  CU_ASSERT_STRING_EQUAL(first, second);
  const char *seed[] = {"run", sp, "--seed", "12", "--resume", NULL};
  TK_EQ(taikai(seed), 2, "other seed");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "seed: 11 there, 12 here"));
  /* another taikai version */
  json_t *sj = json_load_file(W("again/spec.json"), 0, NULL);
  json_object_set_new(sj, "taikai_version", json_string("0.0.1-old"));
  json_dump_file(sj, W("again/spec.json"), JSON_INDENT(2));
  json_decref(sj);
  TK_EQ(taikai(args), 2, "other taikai version");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "taikai_version: \"0.0.1-old\" there"));
}

static void copy_file(const char *from, const char *to) {
  FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
  if (!a || !b) TK_FAILF("cannot copy %s to %s", from, to);
  int c;
  while (a && b && (c = fgetc(a)) != EOF) fputc(c, b);
  if (a) fclose(a);
  if (b) fclose(b);
}

static void test_plugin_version(void) {
  copy_file(FX "/misbehave.so", W("agent.so"));
  char agents[512];
  snprintf(agents, sizeof agents, "[{\"plugin\": \"%s\", \"label\": \"a\"}]", W("agent.so"));
  const char *args[] = {"run", spec("version", 5, agents, ""), "--quiet", NULL};
  TK_EQ(taikai(args), 0, "first run");
  copy_file(FX "/misbehave_v2.so", W("agent.so"));
  TK_EQ(taikai(args), 2, "another plugin version");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "agents[0].version: \"1.0.0\" there, \"2.0.0\" here"));
}

static void test_torn_and_corrupt(void) {
  const char *sp = spec("torn", 20, TRIO, "");
  const char *full[] = {"run", sp, "--out", W("torn-full"), "--quiet", NULL};
  const char *args[] = {"run", sp, "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(full), 0, "full run");
  TK_EQ(taikai(args), 0, "run");
  static char text[1 << 16];
  slurp(W("torn/games.jsonl"), text, sizeof text);
  char *cut = text;
  for (int i = 0; i < 25 && cut; i++) cut = strchr(cut, '\n') + 1;
  cut[30] = '\0'; /* 25 whole lines and a torn 26th */
  write_file(W("torn/games.jsonl"), text);
  unlink(W("torn/summary.json"));
  TK_EQ(taikai(args), 0, "resumed");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "dropped a torn last line (30 bytes)"));
  CU_ASSERT(same_bytes(W("torn/games.jsonl"), W("torn-full/games.jsonl")));
  CU_ASSERT(same_bytes(W("torn/summary.json"), W("torn-full/summary.json")));
  CU_ASSERT(same_bytes(W("torn/report.md"), W("torn-full/report.md")));
  /* a complete line that is not the one written: refused (its digest does not follow the
   * chain), not guessed */
  slurp(W("torn/games.jsonl"), text, sizeof text);
  char *l3 = strchr(strchr(text, '\n') + 1, '\n') + 1;
  memcpy(l3, "{\"unit\":7", 9);
  write_file(W("torn/games.jsonl"), text);
  TK_EQ(taikai(args), 2, "corrupt line");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "unit 2 (line 3): the line differs from what taikai "
                                         "wrote"));
}

static void test_folder_refusals(void) {
  /* results without spec.json */
  mkdir(W("orphan"), 0777);
  write_file(W("orphan/games.jsonl"), "{}\n");
  const char *a1[] = {"run", spec("x", 3, TRIO, ""), "--out", W("orphan"), NULL};
  TK_EQ(taikai(a1), 2, "orphan results");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "no spec.json"));
  /* --resume with nothing to resume */
  const char *a2[] = {"run", W("x.json"), "--out", W("nothing-here"), "--resume", NULL};
  TK_EQ(taikai(a2), 2, "nothing to resume");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "nothing to resume"));
  CU_ASSERT(!exists(W("nothing-here")));
  /* an existing empty folder takes a new run */
  mkdir(W("empty"), 0777);
  const char *a3[] = {"run", W("x.json"), "--out", W("empty"), "--quiet", NULL};
  TK_EQ(taikai(a3), 0, "empty folder");
  CU_ASSERT(exists(W("empty/summary.json")));
  /* a spec.json that is not JSON */
  write_file(W("empty/spec.json"), "{ torn");
  TK_EQ(taikai(a3), 2, "bad spec.json");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "not a taikai spec.json"));
}

/* ================================================================== kill */

/* The lines of games.jsonl at `path` (0 if it does not exist yet). */
static long lines_of(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  long n = 0;
  for (int c; (c = getc(f)) != EOF;) n += c == '\n';
  fclose(f);
  return n;
}

/* SIGKILL of the referee at random moments, each time resumed by the same command; the final
 * outputs, the decision records included, are byte for byte those of an uninterrupted run.
 * The moments are drawn in progress, not in time, so that how many runs are killed before they
 * finish does not depend on the machine's speed or load: the first run is killed within 15 ms
 * of its start (before or while spec.json is written), each later one once games.jsonl holds a
 * drawn number of lines short of the whole run (the kill then lands wherever the referee is:
 * writing lines, the chain, records, or playing). */
static void test_kill_resume(void) {
  const char *sp = spec("kill", 2500, TRIO, "");
  const char *full[] = {"run", sp, "--out", W("kill-full"), "-j", "2", "--records", "--quiet",
                        NULL};
  TK_EQ(taikai(full), 0, "uninterrupted run");
  long total = lines_of(W("kill-full/games.jsonl"));
  CU_ASSERT_FATAL(total > 100);
  /* the same draws every run, so that a failure can be run again; TK_KILL_SEED=N picks other
   * draws, TK_KILL_SEED=time new ones each run (the seed is printed) */
  unsigned seed = 34;
  const char *ks = getenv("TK_KILL_SEED");
  if (ks && !strcmp(ks, "time")) seed = (unsigned)time(NULL);
  else if (ks && *ks) seed = (unsigned)strtoul(ks, NULL, 10);
  srand(seed);
  printf("\n  kill test: %ld lines, seed %u (TK_KILL_SEED to replay); kills at", total, seed);
  const char *jobs[3] = {"1", "2", "3"};
  const char *args[] = {"run", sp, "-j", "2", "--records", "--quiet", NULL};
  int killed = 0;
  for (int k = 0; k < 6; k++) {
    args[3] = jobs[rand() % 3]; /* resuming does not depend on -j either */
    long have = lines_of(W("kill/games.jsonl"));
    /* a line count between what the folder holds and 90 % of the run: kills 1..5 each take a
     * share of what is left, so each lands before its run ends */
    long room = (total * 9 / 10 - have) / (6 - k);
    long target = have + 1 + rand() % (room > 0 ? room : 1);
    int delay = rand() % 15;
    pid_t pid = taikai_start(args);
    if (k == 0) {
      sleep_ms(delay);
      printf(" %d ms", delay);
    } else {
      while (lines_of(W("kill/games.jsonl")) < target && !taikai_exited(pid)) sleep_ms(1);
      printf(" %ld lines", target);
    }
    kill(pid, SIGKILL);
    int rc = taikai_wait(pid);
    printf(" -j %s (%s)", args[3], rc == -SIGKILL ? "killed" : "had finished");
    killed += rc == -SIGKILL;
    if (rc != -SIGKILL && rc != 0) TK_FAILF("run %d ended with %d: %s", k, rc, err_buf);
  }
  printf("\n");
  TK_EQ(killed >= 5, 1, "the runs after the first are killed before they finish");
  CU_ASSERT(lines_of(W("kill/games.jsonl")) < total);
  int rc = taikai(args);
  if (rc) TK_FAILF("final resume: exit %d: %s", rc, err_buf);
  CU_ASSERT(same_bytes(W("kill/summary.json"), W("kill-full/summary.json")));
  CU_ASSERT(same_bytes(W("kill/games.jsonl"), W("kill-full/games.jsonl")));
  CU_ASSERT(same_bytes(W("kill/report.md"), W("kill-full/report.md")));
  CU_ASSERT(same_bytes(W("kill/records.tkr"), W("kill-full/records.tkr")));
}

/* ================================================================== signals */

static void test_sigint_sigterm(void) {
  char agents[2048];
  snprintf(agents, sizeof agents, "[%s, {\"plugin\": \"tsumogiri\"}]",
           bad_agent("{\"how\": \"sleep\", \"sleep_ms\": 150, \"turn\": 1}"));
  /* 160 walls, about 12 s with -j 2: long enough that the run is still playing when the signal
     comes on a loaded machine, where the concurrent run's refusal below can take seconds under
     ASan */
  enum { WALLS = 160 };
  const char *sp = spec("sig", WALLS, agents, "");
  const int sigs[2] = {SIGINT, SIGTERM};
  for (int i = 0; i < 2; i++) {
    const char *args[] = {"run", sp, "-j", "2", "--out", i ? W("sig-term") : W("sig-int"), NULL};
    pid_t pid = taikai_start(args);
    /* once the run has started (its games.jsonl exists), let it play a while */
    char games[1300];
    snprintf(games, sizeof games, "%s/games.jsonl", i ? W("sig-term") : W("sig-int"));
    for (int t = 0; t < 30000 && !exists(games); t += 10) sleep_ms(10);
    if (i == 0) { /* a second run into the same folder meanwhile is refused */
      const char *again[] = {"run", sp, "--out", W("sig-int"), "--quiet", NULL};
      char so[1300], se[1300];
      snprintf(so, sizeof so, "%s", W("stdout.txt"));
      snprintf(se, sizeof se, "%s", W("stderr.txt"));
      rename(so, W("stdout-1.txt")); /* keep the first run's output files apart */
      rename(se, W("stderr-1.txt"));
      TK_EQ(taikai(again), 2, "concurrent run");
      CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "another taikai run is writing into this folder"));
    }
    /* stopped once it has written a unit (none may be lost), not after a fixed time: a run
       starved of CPU can take seconds over its first unit */
    while (lines_of(games) < 1 && !taikai_exited(pid)) sleep_ms(10);
    kill(pid, sigs[i]);
    int rc = taikai_wait(pid);
    if (i == 0) { /* its output went to the renamed files */
      slurp(W("stdout-1.txt"), out_buf, sizeof out_buf);
      slurp(W("stderr-1.txt"), err_buf, sizeof err_buf);
    }
    TK_EQ(rc, 128 + sigs[i], "exit status 128 + signal");
    json_t *sum = json_load_file(i ? W("sig-term/summary.json") : W("sig-int/summary.json"), 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
    CU_ASSERT(json_is_false(json_object_get(sum, "complete")));
    const char *why = json_string_value(json_object_get(sum, "stopped"));
    CU_ASSERT(why && strstr(why, i ? "SIGTERM" : "SIGINT"));
    long long units = (long long)json_integer_value(json_object_get(sum, "units"));
    if (!(units > 0 && units < 2 * WALLS)) TK_FAILF("%lld units done when stopped", units);
    json_decref(sum);
    json_t *lines[2 * WALLS];
    int n = load_lines(i ? W("sig-term/games.jsonl") : W("sig-int/games.jsonl"), lines, 2 * WALLS);
    TK_EQ(n, units, "every line counted");
    for (int l = 0; l < n; l++) {
      CU_ASSERT_PTR_NOT_NULL(lines[l]);
      TK_EQ(json_integer_value(json_object_get(lines[l], "unit")), l, "in order");
    }
    free_lines(lines, n);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "INCOMPLETE"));
  }
  /* the same command finishes the interrupted run */
  const char *args[] = {"run", sp, "-j", "2", "--out", W("sig-int"), "--quiet", NULL};
  TK_EQ(taikai(args), 0, "finished");
  json_t *sum = json_load_file(W("sig-int/summary.json"), 0, NULL);
  CU_ASSERT(json_is_true(json_object_get(sum, "complete")));
  TK_EQ(json_integer_value(json_object_get(sum, "units")), 2 * WALLS, "units");
  json_decref(sum);
}

/* ================================================================== input */

static void test_bad_flags(void) {
  const char *sp = spec("flags", 3, TRIO, "");
  static const struct {
    const char *args[8];
    const char *needle;
  } cases[] = {
      {{"-j", "0"}, "-j: '0' is not a whole number from 1 to 1024 (see taikai run --help)"},
      {{"-j", "two"}, "-j: 'two' is not a whole number"},
      {{"-j2000"}, "-j: '2000' is not a whole number from 1 to 1024"},
      {{"--walls", "0"}, "--walls: '0' is not a whole number from 1 to 1000000000"},
      {{"--walls", "1e3"}, "--walls: '1e3' is not a whole number"},
      {{"--walls"}, "--walls needs a value"},
      {{"--seed", "-1"}, "--seed: '-1' is not a whole number"},
      {{"--seed", "99999999999999999999"}, "--seed: '99999999999999999999' is not a whole number"},
      {{"--seed", "9223372036854775808"}, "--seed: '9223372036854775808' is not a whole number from 0 to 9223372036854775807"},
      {{"--out", ""}, "--out needs a value, got ''"},
      {{"--out"}, "--out needs a value"},
      {{"--walls", "4", "--walls", "5"}, "--walls given twice"},
      {{"--frobnicate"}, "unknown option '--frobnicate' (see taikai run --help)"},
      {{"--resume=yes"}, "--resume takes no value"},
      {{"--walls=2", "-q", "--walls=3"}, "--walls given twice"},
      {{"extra.json"}, "one spec at a time"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const char *args[16] = {"run", sp};
    int n = 2;
    for (int k = 0; k < 8 && cases[c].args[k]; k++) args[n++] = cases[c].args[k];
    args[n] = NULL;
    TK_EQ(taikai(args), 2, cases[c].needle);
    if (!strstr(err_buf, cases[c].needle))
      TK_FAILF("message lacks \"%s\": %s", cases[c].needle, err_buf);
  }
  if (exists(W("flags"))) TK_FAILF("an output folder was created by a refused command");
}

static void test_bad_paths(void) {
  /* plugin paths: a folder, a file that is not a shared object, a missing file */
  mkdir(W("adir.so"), 0777);
  write_file(W("text.so"), "not an ELF file\n");
  const char *plugins[3] = {W("adir.so"), W("text.so"), W("missing.so")};
  const char *needles[3] = {"adir.so", "text.so: cannot load", "missing.so: plugin file not found"};
  for (int i = 0; i < 3; i++) {
    char agents[1400], name[32];
    snprintf(agents, sizeof agents, "[{\"plugin\": \"%s\", \"label\": \"p\"}]", plugins[i]);
    snprintf(name, sizeof name, "path-%d", i);
    const char *args[] = {"run", spec(name, 3, agents, ""), NULL};
    TK_EQ(taikai(args), 2, plugins[i]);
    if (!strstr(err_buf, needles[i])) TK_FAILF("message lacks \"%s\": %s", needles[i], err_buf);
    CU_ASSERT(!exists(W(name)));
  }
  /* output folders: a file, a place that cannot be created */
  write_file(W("afile"), "x\n");
  const char *a1[] = {"run", spec("outs", 3, TRIO, ""), "--out", W("afile"), NULL};
  TK_EQ(taikai(a1), 2, "--out a file");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "exists and is not a folder"));
  const char *a2[] = {"run", W("outs.json"), "--out", "/proc/taikai-cannot-be-here/run", NULL};
  TK_EQ(taikai(a2), 2, "--out under /proc");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "/proc/taikai-cannot-be-here"));
  /* the new spec fields are checked like the others */
  const char *a3[] = {"run", spec("badfield", 3, TRIO, ", \"fault_policy\": \"retry\""), NULL};
  TK_EQ(taikai(a3), 2, "bad fault_policy");
  CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "field 'fault_policy'"));
  CU_ASSERT(!exists(W("badfield")));
}

int main(int argc, char **argv) {
  const char *group = argc > 1 ? argv[1] : "crash";
  snprintf(work_dir, sizeof work_dir, "%s/%s", TK_FAULT_WORK, group);
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", work_dir, work_dir);
  if (system(cmd)) return 1;
  static CU_TestInfo crash[] = {
      {"crash_entry_points", test_crash_entry_points},
      {"exit_and_error", test_exit_and_error},
      {"faults_jobs_identical", test_faults_jobs_identical},
      CU_TEST_INFO_NULL};
  static CU_TestInfo lifecycle[] = {
      {"create_crash_in_worker", test_create_crash_in_worker},
      {"create_refused", test_create_refused},
      {"destroy_crash", test_destroy_crash},
      {"stdout", test_stdout},
      CU_TEST_INFO_NULL};
  static CU_TestInfo timing[] = {{"hang_call_limit", test_hang_call_limit},
                                 {"sleep_and_begin", test_sleep_and_begin},
                                 {"game_limit", test_game_limit},
                                 {"clock", test_clock},
                                 CU_TEST_INFO_NULL};
  static CU_TestInfo memory[] = {{"memory_leak", test_memory_leak}, CU_TEST_INFO_NULL};
  static CU_TestInfo policy[] = {{"skip", test_skip},
                                 {"abort", test_abort},
                                 {"illegal_policies", test_illegal_policies},
                                 CU_TEST_INFO_NULL};
  static CU_TestInfo resume[] = {{"same_folder", test_same_folder},
                                 {"plugin_version", test_plugin_version},
                                 CU_TEST_INFO_NULL};
  static CU_TestInfo folders[] = {{"torn_and_corrupt", test_torn_and_corrupt},
                                  {"folder_refusals", test_folder_refusals},
                                  CU_TEST_INFO_NULL};
  static CU_TestInfo killing[] = {{"kill_resume", test_kill_resume}, CU_TEST_INFO_NULL};
  static CU_TestInfo signals[] = {{"sigint_sigterm", test_sigint_sigterm}, CU_TEST_INFO_NULL};
  static CU_TestInfo input[] = {{"bad_flags", test_bad_flags},
                                {"bad_paths", test_bad_paths},
                                CU_TEST_INFO_NULL};
  static const struct {
    const char *name;
    CU_TestInfo *tests;
  } groups[] = {{"crash", crash},     {"lifecycle", lifecycle},
                {"time", timing},     {"memory", memory},
                {"policy", policy},   {"resume", resume},   {"folders", folders},
                {"kill", killing},
                {"signals", signals}, {"input", input}};
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
    if (!strcmp(group, groups[i].name)) {
      char title[64];
      snprintf(title, sizeof title, "referee faults: %s", group);
      return tk_unit_run(title, groups[i].tests);
    }
  fprintf(stderr, "test_ref_faults: unknown group '%s'\n", group);
  return 2;
}
