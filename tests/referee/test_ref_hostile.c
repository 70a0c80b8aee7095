/* tests/referee/test_ref_hostile.c — the referee against plugins written to break it: storms of
 * crashes and hangs at every -j (each fault recorded, the run complete, the bytes identical
 * across -j); agents that write through the view and legal actions they are given (the action
 * is still checked against the game itself, in solo and riichi, under both illegal policies);
 * agents that write into or close descriptors (workers hold only their two pipes, so the run's
 * files are out of reach, and a closed pipe is that agent's fault); agents that fork (the child
 * dies with its worker and holds neither the run's lock nor its files after taikai exits, and
 * a crash after a fork is a crash, not a time-out; a program an agent runs starts with no signal
 * ignored or blocked). */
#include <signal.h>
#include <sys/file.h>

#define WORK TK_WORK_DIR "-hostile" /* not inside test_ref_e2e's folder, which it removes */
#include "e2e_util.h"

#define FX TK_FIXTURE_DIR

/* Consecutive faults per storm: fewer under the sanitizers, whose crash reports take time. */
#ifdef TK_SANITIZED
enum { STORM = 30 };
#else
enum { STORM = 150 };
#endif

static const char *spec(const char *name, const char *game, int walls, const char *agents,
                        const char *extra) {
  static char path[1200];
  char text[4096];
  snprintf(path, sizeof path, "%s/%s.json", WORK, name);
  snprintf(text, sizeof text,
           "{\"game\": \"%s\", \"seed\": 21, \"walls\": %d, \"agents\": %s, \"output\": \"%s/%s\"%s}\n",
           game, walls, agents, WORK, name, extra);
  write_file(path, text);
  return path;
}

static json_t *summary(const char *name) {
  char p[1200];
  snprintf(p, sizeof p, "%s/%s/summary.json", WORK, name);
  json_t *j = json_load_file(p, 0, NULL);
  if (!j) TK_FAILF("%s: no summary.json", p);
  return j;
}

static void test_storms(void) {
  /* a crash in every game: STORM consecutive worker deaths at each -j */
  const char *agents = "[{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": "
                       "{\"how\": \"segv\", \"turn\": 3}}, {\"plugin\": \"tsumogiri\"}]";
  const char *jobs[] = {"1", "2", "3"};
  for (int j = 0; j < 3; j++) {
    char name[32];
    snprintf(name, sizeof name, "crash-j%s", jobs[j]);
    const char *a[] = {"run", spec(name, "solo", STORM, agents, ""), "-j", jobs[j], "--quiet", NULL};
    int rc = taikai(a);
    if (rc) TK_FAILF("%s: exit %d: %s", name, rc, err_buf);
    json_t *s = summary(name);
    if (!s) continue;
    TK_EQ(agent_int(s, 0, "games"), STORM, name);
    TK_EQ(agent_int(s, 0, "faults"), STORM, name);
    TK_EQ(agent_int(s, 1, "faults"), 0, name);
    CU_ASSERT(json_is_true(json_object_get(s, "complete")));
    json_decref(s);
  }
  CU_ASSERT(same_bytes(WORK "/crash-j1/games.jsonl", WORK "/crash-j2/games.jsonl"));
  CU_ASSERT(same_bytes(WORK "/crash-j1/games.jsonl", WORK "/crash-j3/games.jsonl"));
  /* a hang in every game, each killed at the 150 ms limit (long enough that a loaded machine
   * does not push an ordinary call past it) */
  const char *hang = "[{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": "
                     "{\"how\": \"hang\", \"turn\": 2}}]";
  for (int j = 1; j < 3; j++) {
    char name[32];
    snprintf(name, sizeof name, "hang-j%s", jobs[j]);
    const char *a[] = {"run", spec(name, "solo", STORM / 5, hang, ", \"time_limit_ms\": 150"), "-j",
                       jobs[j], "--quiet", NULL};
    int rc = taikai(a);
    if (rc) TK_FAILF("%s: exit %d: %s", name, rc, err_buf);
    json_t *s = summary(name);
    if (!s) continue;
    TK_EQ(agent_int(s, 0, "faults"), STORM / 5, name);
    TK_EQ(agent_kind(s, 0, "timeout"), STORM / 5, name);
    json_decref(s);
  }
  CU_ASSERT(same_bytes(WORK "/hang-j2/games.jsonl", WORK "/hang-j3/games.jsonl"));
}

static void test_scribble(void) {
  const char *solo = "[{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": "
                     "{\"how\": \"scribble\", \"turn\": 3}}]";
  const char *a[] = {"run", spec("scribble-sub", "solo", 20, solo, ", \"illegal_policy\": \"substitute\""),
                     "--quiet", NULL};
  TK_EQ(taikai(a), 0, "solo substitute");
  json_t *s = summary("scribble-sub");
  if (s) {
    TK_EQ(agent_int(s, 0, "illegal_actions"), 20, "every scribbled action caught");
    TK_EQ(agent_int(s, 0, "faults"), 0, "substituted");
    json_decref(s);
  }
  const char *b[] = {"run", spec("scribble-ff", "solo", 20, solo, ""), "--quiet", NULL};
  TK_EQ(taikai(b), 0, "solo forfeit");
  if ((s = summary("scribble-ff"))) {
    TK_EQ(agent_kind(s, 0, "illegal"), 20, "forfeited");
    TK_EQ(agent_int(s, 0, "illegal_actions"), 20, "and counted");
    json_decref(s);
  }
  const char *riichi = "[{\"plugin\": \"riichi_tsumogiri\"}, {\"plugin\": \"" FX
                       "/riichi_misbehave.so\", \"label\": \"bad\", \"params\": {\"how\": "
                       "\"scribble\", \"turn\": 5}}]";
  const char *rules = ", \"format\": \"duplicate\", \"rules\": {\"length\": \"east\"}";
  char extra[256];
  snprintf(extra, sizeof extra, "%s, \"illegal_policy\": \"substitute\"", rules);
  const char *c[] = {"run", spec("riichi-sub", "riichi", 3, riichi, extra), "--quiet", NULL};
  TK_EQ(taikai(c), 0, "riichi substitute");
  if ((s = summary("riichi-sub"))) {
    TK_EQ(agent_int(s, 1, "illegal_actions"), 12, "riichi: caught in each of the 12 games");
    TK_EQ(agent_int(s, 1, "faults"), 0, "riichi: substituted");
    json_decref(s);
  }
  const char *d[] = {"run", spec("riichi-ff", "riichi", 3, riichi, rules), "--quiet", NULL};
  TK_EQ(taikai(d), 0, "riichi forfeit");
  if ((s = summary("riichi-ff"))) {
    TK_EQ(agent_kind(s, 1, "illegal"), 12, "riichi: forfeited");
    TK_EQ(agent_int(s, 1, "illegal_actions"), 12, "riichi: illegal actions reported with them");
    json_decref(s);
  }
}

static void test_descriptors(void) {
  const char *w = "[{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": "
                  "{\"how\": \"write_fds\", \"turn\": 2}}, {\"plugin\": \"tsumogiri\"}]";
  const char *sp = spec("fds", "solo", 30, w, "");
  const char *a[] = {"run", sp, "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(a), 0, "write_fds");
  json_t *lines[80];
  int n = load_lines(WORK "/fds/games.jsonl", lines, 80);
  TK_EQ(n, 60, "every line written, none corrupted");
  free_lines(lines, n);
  json_t *s = summary("fds");
  if (s) {
    TK_EQ(agent_int(s, 0, "faults"), 0, "writing into closed descriptors harms nothing");
    json_decref(s);
  }
  TK_EQ(taikai(a), 0, "the folder still continues (nothing left to play)");
  /* closing the result pipe is a fault of that agent, and the run goes on */
  const char *c = "[{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": "
                  "{\"how\": \"close_pipe\", \"turn\": 2, \"walls_mod\": 3}}, {\"plugin\": \"tsumogiri\"}]";
  const char *b[] = {"run", spec("pipe", "solo", 9, c, ""), "-j", "2", "--quiet", NULL};
  int rc = taikai(b);
  if (rc) TK_FAILF("close_pipe: exit %d: %s", rc, err_buf);
  if ((s = summary("pipe"))) {
    TK_EQ(agent_int(s, 0, "faults"), 3, "walls 0, 3, 6");
    TK_EQ(agent_int(s, 1, "faults"), 0, "not the other agent's");
    json_decref(s);
  }
}

/* Pids the fixture wrote, one per line. */
static int read_pids(const char *path, int *pids, int max) {
  FILE *f = fopen(path, "r");
  int n = 0;
  if (!f) return 0;
  while (n < max && fscanf(f, "%d", &pids[n]) == 1) n++;
  fclose(f);
  return n;
}

/* A process that exists and is not a zombie (an orphan's zombie waits for a reaper, which a
 * container's first process may not be). */
static int running(int pid) {
  char path[64], buf[256];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *p = strrchr(buf, ')');
  return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

static int all_dead(const int *pids, int n) {
  for (int t = 0; t < 100; t++) { /* the kill is asynchronous: up to 1 s */
    int alive = 0;
    for (int i = 0; i < n; i++) alive += running(pids[i]);
    if (!alive) return 1;
    sleep_ms(10);
  }
  return 0;
}

static void test_forks(void) {
  const char *agents = "[{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": "
                       "{\"how\": \"fork_sleep\", \"turn\": 2, \"walls_mod\": 2, \"counter\": \""
                       WORK "/pids-sleep\"}}]";
  const char *a[] = {"run", spec("fork", "solo", 6, agents, ""), "-j", "2", "--quiet", NULL};
  TK_EQ(taikai(a), 0, "fork_sleep");
  int pids[64];
  int n = read_pids(WORK "/pids-sleep", pids, 64);
  CU_ASSERT(n >= 3);
  CU_ASSERT(all_dead(pids, n));
  int lock = open(WORK "/fork/.taikai.lock", O_RDWR);
  CU_ASSERT(lock >= 0);
  if (lock >= 0) {
    CU_ASSERT_EQUAL(flock(lock, LOCK_EX | LOCK_NB), 0); /* nobody holds the run's lock */
    close(lock);
  }
  /* a crash after a fork: a crash, found when the worker dies, not at the time limit */
  const char *c = "[{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": "
                  "{\"how\": \"fork_crash\", \"turn\": 2, \"counter\": \"" WORK "/pids-crash\"}}]";
  const char *b[] = {"run", spec("forkcrash", "solo", 4, c, ", \"time_limit_ms\": 20000"), "-j",
                     "2", "--quiet", NULL};
  int rc = taikai(b);
  if (rc) TK_FAILF("fork_crash: exit %d: stderr: %s; stdout: %.400s", rc, err_buf, out_buf);
  json_t *s = summary("forkcrash");
  if (s) {
    TK_EQ(agent_int(s, 0, "faults"), 4, "fork_crash faults");
    TK_EQ(agent_kind(s, 0, "timeout"), 0, "not time-outs");
    json_decref(s);
  }
  n = read_pids(WORK "/pids-crash", pids, 64);
  CU_ASSERT(n >= 4);
  CU_ASSERT(all_dead(pids, n));
}

/* A program an agent runs (fork and exec) starts with default signals: the worker ignores SIGINT
 * and SIGTERM through a handler, which exec resets, not through SIG_IGN, which it keeps. */
static void test_exec_signals(void) {
  const char *agents = "[{\"plugin\": \"" FX "/misbehave.so\", \"label\": \"bad\", \"params\": "
                       "{\"how\": \"exec_signals\", \"turn\": 1, \"counter\": \""
                       WORK "/exec-signals.txt\"}}]";
  unlink(WORK "/exec-signals.txt");
  const char *a[] = {"run", spec("exec-signals", "solo", 2, agents, ""), "-j", "1", "--quiet",
                     NULL};
  TK_EQ(taikai(a), 0, "exec_signals");
  FILE *f = fopen(WORK "/exec-signals.txt", "r");
  char name[40], set[40];
  int n = 0;
  while (f && fscanf(f, "%39s %39s", name, set) == 2) { /* "SigBlk: HEX", "SigIgn: HEX" */
    n++;
    /* every signal clear, glibc's own 32 and 33 included (its sigaction refuses them, so
     * tk_proc_child_defaults resets them through the kernel's) */
    if (strtoull(set, NULL, 16))
      TK_FAILF("a program an agent ran started with %s %s (expected no signal)", name, set);
  }
  if (f) fclose(f);
  TK_EQ(n, 4, "lines of the programs run (two a game)");
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  CU_TestInfo tests[] = {
      {"storms", test_storms},
      {"scribble", test_scribble},
      {"descriptors", test_descriptors},
      {"forks", test_forks},
      {"a program an agent runs starts with default signals", test_exec_signals},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("hostile plugins", tests);
}
