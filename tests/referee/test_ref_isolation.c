/* tests/referee/test_ref_isolation.c — end to end: an agent with "isolation": "process" runs in
 * a process of its own (a seat host forked by the worker), so what its code does reaches no
 * part of the referee: a forged result message, junk on every descriptor, a closed pipe, the
 * shared memory it can reach scribbled, a crash in a thread it started, a child it forked that
 * crashes, each is charged to that agent (the honest agent beside it has no fault), the run
 * completes, and -j 1 and -j 2 write the same bytes (junk written from descriptor 5 up reaches
 * nothing at all: the host holds only its two pipes). SIGTERM sent by an isolated agent to the
 * referee is refused (harness/core/confine.h), as are ptrace and reading the worker's memory;
 * from an agent in the worker it stops the run cleanly (exit 143, a partial summary), and the
 * same command finishes it with the bytes of a run the signal never reached. An isolated agent
 * that behaves plays the same games as in the worker. */
#include <signal.h>

#define WORK TK_WORK_DIR "-isolation"
#include "e2e_util.h"

#define FX TK_FIXTURE_DIR

static const char *spec(const char *name, int walls, const char *params, const char *iso) {
  static char path[1200];
  char text[4096];
  snprintf(path, sizeof path, "%s/%s.json", WORK, name);
  snprintf(text, sizeof text,
           "{\"game\": \"solo\", \"seed\": 23, \"walls\": %d, \"time_limit_ms\": 20000, "
           "\"agents\": [{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", "
           "\"isolation\": \"%s\", \"params\": %s}, {\"plugin\": \"greedy\"}]}\n",
           walls, iso, params);
  write_file(path, text);
  return path;
}

static int same_file(const char *a, const char *b, const char *name) {
  char pa[1400], pb[1400];
  snprintf(pa, sizeof pa, "%s/%s/%s", WORK, a, name);
  snprintf(pb, sizeof pb, "%s/%s/%s", WORK, b, name);
  return same_bytes(pa, pb);
}

static json_t *summary(const char *name) {
  char p[1200];
  snprintf(p, sizeof p, "%s/%s/summary.json", WORK, name);
  return json_load_file(p, 0, NULL);
}

/* Plays `params` isolated at -j 1 and -j 2: both complete, every game of the bad agent is its
 * fault (`faulted` of `walls`: how many of its games it breaks), none of greedy's, same bytes. */
static void hostile(const char *how, const char *params, int walls, int faulted) {
  char n1[64], n2[64], out[1300];
  snprintf(n1, sizeof n1, "%s-j1", how);
  snprintf(n2, sizeof n2, "%s-j2", how);
  const char *jobs[2] = {"1", "2"};
  const char *names[2] = {n1, n2};
  for (int k = 0; k < 2; k++) {
    snprintf(out, sizeof out, "%s/%s", WORK, names[k]);
    const char *a[] = {"run", spec(names[k], walls, params, "process"), "--out", out, "-j",
                       jobs[k], "--records", "--quiet", NULL};
    int rc = taikai(a);
    if (rc) {
      TK_FAILF("%s -j %s: exit %d: %.500s", how, jobs[k], rc, err_buf);
      return;
    }
  }
  json_t *s = summary(n1);
  TK_EQ(agent_int(s, 0, "games"), walls, how);
  TK_EQ(agent_int(s, 0, "faults"), faulted, how);
  TK_EQ(agent_int(s, 1, "faults"), 0, how);
  CU_ASSERT(json_is_true(json_object_get(s, "complete")));
  json_decref(s);
  static const char *const files[] = {"games.jsonl", "games.chain", "summary.json",
                                      "records.tkr"};
  for (int f = 0; f < 4; f++)
    if (!same_file(n1, n2, files[f])) TK_FAILF("%s: %s differs between -j 1 and -j 2", how, files[f]);
}

static void test_forged(void) {
  hostile("forge", "{\"how\": \"forge\", \"turn\": 3}", 6, 6);
  /* junk into every descriptor from 5 up: the host holds none of them, nothing is reached */
  hostile("write_fds", "{\"how\": \"write_fds\", \"turn\": 3}", 6, 0);
  hostile("close_pipe", "{\"how\": \"close_pipe\", \"turn\": 3}", 6, 6);
}

static void test_memory_threads_children(void) {
  hostile("scribble_watch", "{\"how\": \"scribble_watch\", \"turn\": 3}", 6, 6);
  hostile("thread_crash", "{\"how\": \"thread_crash\", \"turn\": 3}", 6, 6);
  hostile("fork_crash", "{\"how\": \"fork_crash\", \"turn\": 3, \"walls_mod\": 2}", 6, 3);
  /* a crash is a crash of that seat, with its signal */
  char p[1300];
  snprintf(p, sizeof p, "%s/thread_crash-j1/games.jsonl", WORK);
  static char text[1 << 16];
  slurp(p, text, sizeof text);
  if (!strstr(text, "\"kind\":\"crash\",\"entry\":\"act\",\"seat\":0,\"signal\":11"))
    TK_FAILF("the thread's crash is not charged as a crash in act: %.400s", text);
}

/* The agent sends SIGTERM to the referee in its 3rd game. In the worker it reaches it: the run
 * stops cleanly and the same command finishes it. Isolated, its seat's confinement refuses the
 * signal and the run completes. Either way the bytes are those of a run the signal never
 * reached. */
static void sigterm_case(const char *iso) {
  char counter[1200], params[1400], out[1300], name[64], ref[64];
  snprintf(counter, sizeof counter, "%s/term-%s.count", WORK, iso);
  snprintf(params, sizeof params, "{\"how\": \"term_referee\", \"turn\": 3, \"nth\": 3, "
           "\"counter\": \"%s\"}", counter);
  snprintf(name, sizeof name, "term-%s", iso);
  snprintf(out, sizeof out, "%s/%s", WORK, name);
  const char *a[] = {"run", spec(name, 8, params, iso), "--out", out, "-j", "1", "--quiet", NULL};
  int rc = taikai(a);
  int worker = !strcmp(iso, "worker");
  TK_EQ(rc, worker ? 143 : 0, worker ? "the referee stopped by SIGTERM"
                                     : "the run, the signal refused");
  json_t *s = summary(name);
  CU_ASSERT(worker ? json_is_false(json_object_get(s, "complete"))
                   : json_is_true(json_object_get(s, "complete")));
  json_decref(s);
  if (worker) {
    rc = taikai(a); /* the counter is past 3: the agent sends no more signals */
    if (rc) TK_FAILF("the resumed run: exit %d: %.400s", rc, err_buf);
  }
  /* the reference: the same agent, which never reaches its 3rd signal */
  snprintf(params, sizeof params, "{\"how\": \"term_referee\", \"turn\": 3, \"nth\": 1000, "
           "\"counter\": \"%s.ref\"}", counter);
  snprintf(ref, sizeof ref, "term-%s-ref", iso);
  snprintf(out, sizeof out, "%s/%s", WORK, ref);
  const char *b[] = {"run", spec(ref, 8, params, iso), "--out", out, "--quiet", NULL};
  if (taikai(b)) TK_FAILF("the reference run: %.400s", err_buf);
  if (!same_file(name, ref, "games.jsonl") || !same_file(name, ref, "summary.json"))
    TK_FAILF("%s: the run differs from a run without the signal", iso);
}

static void test_sigterm(void) {
  sigterm_case("worker");
  sigterm_case("process");
}

/* What could reach the referee's processes from an agent, probed without harm in its 3rd
 * decision of each game: in the worker every probe passes (the control: the probes see the
 * difference); isolated, ptrace, reading the worker's memory and signals to the worker, the
 * referee and every process are refused (EPERM), and, for an ordinary user, so is opening the
 * worker's /proc/PID/mem (root may open any). */
static void test_confined(void) {
  const char *isos[2] = {"worker", "process"};
  for (int k = 0; k < 2; k++) {
    char counter[1200], params[1400], out[1300], name[64];
    snprintf(counter, sizeof counter, "%s/probe-%s.txt", WORK, isos[k]);
    unlink(counter);
    snprintf(params, sizeof params, "{\"how\": \"probe_parents\", \"turn\": 3, "
             "\"counter\": \"%s\"}", counter);
    snprintf(name, sizeof name, "probe-%s", isos[k]);
    snprintf(out, sizeof out, "%s/%s", WORK, name);
    const char *a[] = {"run", spec(name, 3, params, isos[k]), "--out", out, "-j", "1", "--quiet",
                       NULL};
    int rc = taikai(a);
    if (rc) TK_FAILF("%s: exit %d: %.400s", name, rc, err_buf);
    char text[4096];
    slurp(counter, text, sizeof text);
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), lines++) {
#ifdef TK_SANITIZED /* ptrace is let through for LeakSanitizer (confine.c) */
      const char *want = k ? "ptrace=ESRCH vm=EPERM kill_parent=EPERM kill_grandparent=EPERM "
                             "kill_all=EPERM mem="
                           : "ptrace=ESRCH vm=EFAULT kill_parent=ok ";
#else
      const char *want = k ? "ptrace=EPERM vm=EPERM kill_parent=EPERM kill_grandparent=EPERM "
                             "kill_all=EPERM mem="
                           : "ptrace=ESRCH vm=EFAULT kill_parent=ok "; /* the grandparent:
                                                      * the test's, of another user's perhaps */
#endif
      if (strncmp(line, want, strlen(want))) TK_FAILF("%s: '%s', expected '%s...'", name, line,
                                                      want);
      if (k && geteuid() != 0 && !strstr(line, "mem=EACCES"))
        TK_FAILF("%s: '%s': the worker's memory open to the agent", name, line);
    }
    TK_EQ(lines, 3, "probes, one a game");
  }
}

/* An isolated agent that calls exit() is charged an exit with its status, in every build (under
 * AddressSanitizer the leak checker runs at that exit, and must be let work: confine.c). */
static void test_exit_status(void) {
  char out[1300];
  snprintf(out, sizeof out, "%s/exit7", WORK);
  const char *a[] = {"run", spec("exit7", 2, "{\"how\": \"exit\", \"turn\": 3}", "process"),
                     "--out", out, "-j", "1", "--quiet", NULL};
  int rc = taikai(a);
  if (rc) TK_FAILF("exit7: exit %d: %.400s", rc, err_buf);
  char p[1400];
  snprintf(p, sizeof p, "%s/games.jsonl", out);
  static char text[1 << 16];
  slurp(p, text, sizeof text);
  if (!strstr(text, "\"kind\":\"exit\",\"entry\":\"act\",\"seat\":0,\"exit_status\":7"))
    TK_FAILF("an isolated agent's exit(7) is not charged as an exit with status 7: %.400s", text);
}

/* Behaving, an isolated agent plays exactly the games it plays in the worker. */
static void test_same_games(void) {
  char o1[1300], o2[1300];
  snprintf(o1, sizeof o1, "%s/calm-process", WORK);
  snprintf(o2, sizeof o2, "%s/calm-worker", WORK);
  const char *a[] = {"run", spec("calm-process", 20, "{\"how\": \"none\"}", "process"), "--out",
                     o1, "-j", "2", "--quiet", NULL};
  const char *b[] = {"run", spec("calm-worker", 20, "{\"how\": \"none\"}", "worker"), "--out",
                     o2, "-j", "2", "--quiet", NULL};
  if (taikai(a) || taikai(b)) TK_FAILF("calm runs: %.400s", err_buf);
  if (!same_file("calm-process", "calm-worker", "games.jsonl"))
    TK_FAILF("an isolated agent played other games than in the worker");
  const char *bad[] = {"run", spec("bad-iso", 2, "{}", "thread"), "--quiet", NULL};
  TK_EQ(taikai(bad), 2, "isolation \"thread\"");
  if (!strstr(err_buf, "agents[0].isolation")) TK_FAILF("stderr: %s", err_buf);
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"forged messages, junk and a closed pipe: the agent's faults", test_forged},
      {"shared memory, threads and children: the agent's faults", test_memory_threads_children},
      {"SIGTERM to the referee: refused isolated; in the worker a clean stop, then the same "
       "bytes", test_sigterm},
      {"isolated: ptrace, memory and signals of the referee refused", test_confined},
      {"isolated: exit() is an exit with its status", test_exit_status},
      {"behaving: the same games as in the worker; bad values refused", test_same_games},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("isolation: process", tests);
}
