/* tests/referee/test_ref_mpi.c — `taikai run --mpi` end to end. In a build without MPI: the
 * option is refused with a message. With -DTAIKAI_MPI=ON (make test-mpi): runs under mpirun
 * (3 and 4 ranks, oversubscribed) write the same bytes as a local run — solo, and daifugo with
 * --logs=gz and --records, and with --logs=run,gz — and a run whose rank 1 is killed (SIGKILL)
 * mid-run keeps a prefix of the local run's games.jsonl and finishes, locally or under mpirun,
 * with the local run's bytes. */
#include <dirent.h>

#include "e2e_util.h"

static const char *SOLO_SPEC = TK_SOURCE_DIR "/arenas/solo/greedy-vs-tsumogiri.json";

#ifndef TK_MPIRUN

static void test_refused_without_mpi(void) {
  CU_ASSERT(e2e_begin(TK_WORK_DIR "-mpi") == 0);
  const char *args[] = {"run", SOLO_SPEC, "--walls", "5", "--out", W("out"), "--mpi", NULL};
  int rc = taikai(args);
  TK_EQ(rc, 2, err_buf);
  CU_ASSERT(strstr(err_buf, "--mpi: this taikai was built without MPI") != NULL);
  CU_ASSERT(strstr(err_buf, "-DTAIKAI_MPI=ON") != NULL);
  CU_ASSERT(!exists(W("out")));
}

#else

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) ? -1 : (long)st.st_size;
}

/* Starts `mpirun --oversubscribe -n np taikai ARGS` (as root if need be), its output in
 * W("stdout.txt") and W("stderr.txt"). */
static pid_t mpirun_start(int np, const char *const *args) {
  char n[16];
  snprintf(n, sizeof n, "%d", np);
  const char *argv[48];
  int k = 0;
  argv[k++] = TK_MPIRUN;
  argv[k++] = "--oversubscribe";
  argv[k++] = "-n";
  argv[k++] = n;
  argv[k++] = TK_TAIKAI_BIN;
  for (; *args && k < 47; args++) argv[k++] = *args;
  argv[k] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(W("stdout.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(W("stderr.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    setenv("TAIKAI_PLUGIN_PATH", TK_PLUGIN_DIR, 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    alarm(600);
    execv(TK_MPIRUN, (char *const *)argv);
    _exit(127);
  }
  return pid;
}

static int mpirun(int np, const char *const *args) {
  return taikai_wait(mpirun_start(np, args));
}

/* 1 if every regular file of folder `a` (the lock excepted) is in `b` with the same bytes, and
 * `b` has no other; `sub` also compares the folder of that name; records.tkr is compared by
 * its decoded decisions (same_records). */
static int same_records(const char *a, const char *b);
static int same_folder(const char *a, const char *b, const char *sub) {
  DIR *d = opendir(a);
  if (!d) return 0;
  int same = 1, n = 0;
  struct dirent *e;
  char pa[2048], pb[2048];
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
    snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
    if (!strcmp(e->d_name, "records.tkr")) {
      if (!same_records(a, b)) {
        TK_FAILF("%s holds other decisions than %s", pb, pa);
        same = 0;
      }
    } else if (sub && !strcmp(e->d_name, sub)) {
      if (!same_folder(pa, pb, NULL)) {
        TK_FAILF("%s differs from %s", pb, pa);
        same = 0;
      }
    } else if (!same_bytes(pa, pb)) {
      TK_FAILF("%s differs from %s", pb, pa);
      same = 0;
    }
    n++;
  }
  closedir(d);
  if (!(d = opendir(b))) return 0;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n--;
  closedir(d);
  if (n) {
    TK_FAILF("%s and %s hold different numbers of files", a, b);
    same = 0;
  }
  return same;
}

/* 1 if the decision records of run folders `a` and `b` decode to the same decisions
 * (`taikai records --dump`). Not their bytes: a game's legal-actions struct is recorded whole,
 * and the bytes past its used part are not the same from one process to the next, even
 * between two local runs. */
static int same_records(const char *a, const char *b) {
  char cmd[3000], da[1100], db[1100];
  snprintf(da, sizeof da, "%s/records-a.txt", work_dir);
  snprintf(db, sizeof db, "%s/records-b.txt", work_dir);
  snprintf(cmd, sizeof cmd, "'%s' records '%s' --dump > '%s' && '%s' records '%s' --dump > '%s'",
           TK_TAIKAI_BIN, a, da, TK_TAIKAI_BIN, b, db);
  return system(cmd) == 0 && same_bytes(da, db) && file_size(da) > 0;
}

/* Plays SPEC (with `extra` options) locally into W(name), renamed W(name-local); returns 0. */
static int local_reference(const char *spec, const char *name, const char *const *extra) {
  const char *args[24] = {"run", spec, "--out", W(name), "-j", "2", "--quiet"};
  int k = 7;
  for (; *extra; extra++) args[k++] = *extra;
  args[k] = NULL;
  int rc = taikai(args);
  if (rc) {
    TK_FAILF("local run of %s: exit %d: %s", spec, rc, err_buf);
    return -1;
  }
  char to[1100];
  snprintf(to, sizeof to, "%s-local", W(name));
  return rename(W(name), to);
}

static void solo_bytes(void) {
  CU_ASSERT(e2e_begin(TK_WORK_DIR "-mpi-solo") == 0);
  const char *walls[] = {"--walls", "400", NULL};
  CU_ASSERT(local_reference(SOLO_SPEC, "solo", walls) == 0);
  static const struct {
    int np;
    const char *jobs;
  } cases[] = {{3, "1"}, {4, "2"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *args[] = {"run", SOLO_SPEC, "--walls", "400", "--out", W("solo"), "-j",
                          cases[i].jobs, "--mpi", NULL};
    int rc = mpirun(cases[i].np, args);
    TK_EQ(rc, 0, err_buf);
    CU_ASSERT(strstr(out_buf, "wrote ") != NULL); /* rank 0 alone prints the table */
    CU_ASSERT(strstr(strstr(out_buf, "wrote ") + 1, "wrote ") == NULL);
    char local[1100];
    snprintf(local, sizeof local, "%s-local", W("solo"));
    if (!same_folder(local, W("solo"), NULL))
      TK_FAILF("mpirun -n %d -j %s: not the local run's bytes", cases[i].np, cases[i].jobs);
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", W("solo"));
    CU_ASSERT(system(cmd) == 0);
  }
}

/* A spec no rank can prepare (a plugin that does not exist): rank 0 says why once and every
 * rank leaves, exit 2 (the alarm of mpirun_start turns a hang into a failure). */
static void refused_everywhere(void) {
  CU_ASSERT(e2e_begin(TK_WORK_DIR "-mpi-refused") == 0);
  write_file(W("missing.json"),
             "{\"game\": \"solo\", \"seed\": 1, \"walls\": 10, \"agents\": "
             "[{\"plugin\": \"no_such_agent\"}]}");
  const char *args[] = {"run", W("missing.json"), "--out", W("o"), "--mpi", NULL};
  int rc = mpirun(3, args);
  TK_EQ(rc, 2, err_buf);
  CU_ASSERT(strstr(err_buf, "no_such_agent") != NULL);
}

static void daifugo_logs_records(void) {
  CU_ASSERT(e2e_begin(TK_WORK_DIR "-mpi-daifugo") == 0);
  write_file(W("daifugo.json"),
             "{\"game\": \"daifugo\", \"seed\": 7, \"walls\": 6, \"format\": \"duplicate\",\n"
             " \"agents\": [{\"plugin\": \"daifugo_random\", \"label\": \"random\"},\n"
             "            {\"plugin\": \"daifugo_greedy\", \"label\": \"greedy\"}],\n"
             " \"rules\": {\"block_games\": 10}, \"output\": \"unused\"}\n");
  const char *extra[] = {"--logs=gz", "--records", NULL};
  CU_ASSERT(local_reference(W("daifugo.json"), "d", extra) == 0);
  const char *args[] = {"run", W("daifugo.json"), "--out", W("d"), "-j", "2", "--logs=gz",
                        "--records", "--mpi", NULL};
  int rc = mpirun(3, args);
  TK_EQ(rc, 0, err_buf);
  char local[1100];
  snprintf(local, sizeof local, "%s-local", W("d"));
  CU_ASSERT(exists(W("d/records.tkr")));
  CU_ASSERT(exists(W("d/logs/unit-00000029.jsonl.gz")));
  CU_ASSERT(same_folder(local, W("d"), "logs"));
  /* one log file for the run: rank 0 appends the units in order, as a local run does */
  const char *one[] = {"--logs=run,gz", NULL};
  CU_ASSERT(local_reference(W("daifugo.json"), "d1", one) == 0);
  const char *args1[] = {"run", W("daifugo.json"), "--out", W("d1"), "-j", "1", "--logs=run,gz",
                         "--mpi", NULL};
  TK_EQ(mpirun(3, args1), 0, err_buf);
  char a[1200], b[1200];
  snprintf(a, sizeof a, "%s-local/logs/run.jsonl.gz", W("d1"));
  snprintf(b, sizeof b, "%s/logs/run.jsonl.gz", W("d1"));
  if (!same_bytes(a, b)) TK_FAILF("--mpi --logs=run,gz: run.jsonl.gz differs from the local run's");
  snprintf(a, sizeof a, "%s-local/logs/run.index", W("d1"));
  snprintf(b, sizeof b, "%s/logs/run.index", W("d1"));
  if (!same_bytes(a, b)) TK_FAILF("--mpi --logs=run,gz: run.index differs from the local run's");
}

/* The pid of rank `rank` among the children of mpirun `mpirun`, or -1. */
static pid_t rank_pid(pid_t mpirun_pid, int rank) {
  DIR *d = opendir("/proc");
  if (!d) return -1;
  struct dirent *e;
  pid_t found = -1;
  char want[64];
  snprintf(want, sizeof want, "OMPI_COMM_WORLD_RANK=%d", rank);
  while (found < 0 && (e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char path[300], buf[1 << 15];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    slurp(path, buf, sizeof buf);
    const char *p = strrchr(buf, ')');
    int ppid = 0;
    if (!p || sscanf(p + 2, "%*c %d", &ppid) != 1 || ppid != mpirun_pid) continue;
    snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
      if (!strcmp(buf + i, want)) found = (pid_t)atoi(e->d_name);
  }
  closedir(d);
  return found;
}

/* 1 if the complete lines of `part` are the first lines of `whole`. */
static int prefix_lines(const char *part, const char *whole) {
  FILE *a = fopen(part, "rb"), *b = fopen(whole, "rb");
  int ok = a && b;
  static char la[1 << 15], lb[1 << 15];
  while (ok && fgets(la, sizeof la, a)) {
    if (la[strlen(la) - 1] != '\n') break; /* a torn last line: dropped on resume */
    if (!fgets(lb, sizeof lb, b) || strcmp(la, lb)) ok = 0;
  }
  if (a) fclose(a);
  if (b) fclose(b);
  return ok;
}

/* A run whose rank 1 is killed once games.jsonl has lines, then resumed with `resume` ranks
 * (0: locally). */
static void killed_then_resumed(int resume_np) {
  const char *walls = "6000";
  const char *args[] = {"run", SOLO_SPEC, "--walls", walls, "--out", W("k"), "-j", "1",
                        "--mpi", "--quiet", NULL};
  pid_t pid = mpirun_start(3, args);
  int64_t start = now_ms();
  while (file_size(W("k/games.jsonl")) <= 0 && now_ms() - start < 120000) sleep_ms(20);
  pid_t victim = rank_pid(pid, 1);
  CU_ASSERT(victim > 0);
  if (victim > 0) kill(victim, SIGKILL);
  int rc = taikai_wait(pid);
  if (rc == 0) {
    TK_FAILF("the run ended before rank 1 was killed (%s)", err_buf);
    return;
  }
  CU_ASSERT(strstr(err_buf, "exited on signal 9") != NULL || strstr(err_buf, "Killed") != NULL);
  char local[1100], kept[1200];
  snprintf(local, sizeof local, "%s-local", W("k"));
  snprintf(kept, sizeof kept, "%s/games.jsonl", local);
  long before = file_size(W("k/games.jsonl"));
  CU_ASSERT(before > 0);
  CU_ASSERT(prefix_lines(W("k/games.jsonl"), kept)); /* every line written stays right */
  const char *again[] = {"run", SOLO_SPEC, "--walls", walls, "--out", W("k"), "-j", "2",
                         resume_np ? "--mpi" : NULL, NULL};
  rc = resume_np ? mpirun(resume_np, again) : taikai(again);
  TK_EQ(rc, 0, err_buf);
  CU_ASSERT(strstr(err_buf, "continued a run of this tournament") != NULL);
  CU_ASSERT(same_folder(local, W("k"), NULL));
  char cmd[2400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", W("k"));
  CU_ASSERT(system(cmd) == 0);
}

static void rank_killed(void) {
  CU_ASSERT(e2e_begin(TK_WORK_DIR "-mpi-kill") == 0);
  const char *walls[] = {"--walls", "6000", NULL};
  CU_ASSERT(local_reference(SOLO_SPEC, "k", walls) == 0);
  killed_then_resumed(0); /* resumed locally */
  killed_then_resumed(3); /* resumed under mpirun */
}

#endif

int main(void) {
#ifndef TK_MPIRUN
  CU_TestInfo tests[] = {
      {"--mpi refused without MPI", test_refused_without_mpi},
      CU_TEST_INFO_NULL,
  };
#else
  CU_TestInfo tests[] = {
      {"solo: the local run's bytes with 3 and 4 ranks", solo_bytes},
      {"daifugo --logs=gz --records, --logs=run,gz: the local run's bytes", daifugo_logs_records},
      {"a rank killed, resumed locally and under mpirun", rank_killed},
      {"a spec no rank can prepare: exit 2, no hang", refused_everywhere},
      CU_TEST_INFO_NULL,
  };
#endif
  return tk_unit_run("mpi", tests);
}
