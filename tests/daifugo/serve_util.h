/* tests/daifugo/serve_util.h — helpers of the end-to-end tests of `taikai serve` and `taikai
 * client` (test_uecda.c, test_serve.c): start a server on port 0 and read the port it prints,
 * start our bridge client, wait for a child. Include after e2e_util.h (W, taikai_start, slurp,
 * err_buf); TK_PLUGIN_DIR and TK_TAIKAI_BIN as for it. */
#ifndef TAIKAI_TESTS_SERVE_UTIL_H
#define TAIKAI_TESTS_SERVE_UTIL_H

/* Starts taikai with `args` (a `serve` command line, NULL-terminated, listening on port 0)
 * and returns its pid; *port gets the port it printed on stderr (0 if it ended first). */
static pid_t serve_start_args(const char *const *args, int *port) {
  unlink(W("stderr.txt")); /* the last server's "listening on" must not be read */
  pid_t pid = taikai_start(args);
  *port = 0;
  for (int i = 0; i < 3000 && !*port; i++) {
    char buf[4096];
    slurp(W("stderr.txt"), buf, sizeof buf); /* empty until the child has opened it */
    const char *p = strstr(buf, "listening on ");
    const char *colon = p ? strchr(p, '\n') : NULL;
    if (colon) {
      const char *c = colon;
      while (c > p && c[-1] != ':') c--;
      *port = atoi(c);
      break;
    }
    if (waitpid(pid, NULL, WNOHANG) == pid) break;
    sleep_ms(10);
  }
  if (!*port) {
    slurp(W("stderr.txt"), err_buf, sizeof err_buf);
    TK_FAILF("taikai serve did not say its port: %s", err_buf);
  }
  return pid;
}

/* Starts `taikai serve SPEC --port 0 --out OUT --quiet [--games N]`. */
static inline pid_t serve_start(const char *spec, const char *out, const char *games,
                                int *port) {
  const char *args[] = {"serve", spec, "--port", "0", "--out", out, "--quiet",
                        games ? "--games" : NULL, games, NULL};
  return serve_start_args(args, port);
}

/* A child's exit status, or minus its signal. */
static int wait_status(pid_t pid) {
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

/* Starts `taikai client PLUGIN --port P` (our agent as a UECda client), its output to `log`. */
static pid_t bridge(int port, const char *plugin, const char *log) {
  char p[16];
  snprintf(p, sizeof p, "%d", port);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    setenv("TAIKAI_PLUGIN_PATH", TK_PLUGIN_DIR, 1);
    alarm(300);
    execl(TK_TAIKAI_BIN, TK_TAIKAI_BIN, "client", plugin, "--port", p, (char *)NULL);
    _exit(127);
  }
  return pid;
}

#endif
