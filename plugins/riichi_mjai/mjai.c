/* plugins/riichi_mjai/mjai.c — riichi agent "riichi_mjai": an external program that speaks the
 * mjai protocol (docs/riichi.md, "External mjai bots") plays the seat.
 *
 * Parameter "command": the program and its arguments, split at spaces and tabs; a word may be
 * quoted with '...' or "..." to hold blanks (no escapes inside quotes; no shell: no variables,
 * globbing or redirection). The program is found through PATH when the first word has no '/'.
 * Parameter "files": more paths (at most 2) that make the bot what it is (a model, a config).
 * The descriptor's `file` names the program, the script its first non-option argument names
 * when that is a regular file, and those files: the referee hashes them with the run. A fault's
 * reason, with the line the bot sent, is kept for `last_error` (the fault's message).
 *
 * Programs are started when a game needs one: at begin_game, a program not playing in the current
 * game takes the seat, or a new one is started. So an instance runs as many programs as seats it
 * plays in one game (one as a duplicate's candidate, three as its baseline), each kept across
 * games (an mjai bot resets on start_game). At each decision a program receives one line, a
 * JSON array of the mjai events since its previous decision (stream.h), and answers one line
 * holding one mjai action object, as the bot runners of mjai-compatible bots do; a "reach"
 * answer gets the line [{"type":"reach","actor":S}] back and must then be answered with the
 * declaring "dahai". At the end of a game it receives end_kyoku and end_game and answers one
 * line (its content is ignored).
 *
 * Each program runs under a keeper (taikai/proc.h, tk_proc_spawn), a process started from the
 * worker that owns the program's whole process tree: it starts the program with default signals
 * and an empty mask, is its subreaper (so a daemon the program leaves behind, `setsid` or not,
 * becomes the keeper's child), and when the program exits, when it gets SIGTERM, or when the
 * worker dies (PR_SET_PDEATHSIG), kills every process of the tree, reaps them, and exits. The
 * program's stdin and stdout are two sockets, so a program that closes its stdout is seen at
 * once. A program that cannot be run (its exec fails) is an error of the begin_game that
 * starts it (TK_EIO, "cannot run ...: " and the reason).
 *
 * Every answer is checked against the legal actions. An answer that is not a JSON object of a
 * known type is TK_EPARSE, a well-formed but illegal one TK_EILLEGAL, the program exiting or
 * closing its output TK_EIO: each a fault of the seat (the referee replays the game with its
 * fallback there), printed on stderr with the line the program sent, and the program's tree is
 * killed at once (a program is started again at the next begin_game). A program that hangs is
 * stopped by the referee's per-call limit: the worker is killed, and the keeper then kills the
 * tree. At the end (destroy) the programs' stdins are closed; each gets STOP_WAIT_MS to exit,
 * then its tree is killed (tk_proc_end). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <jansson.h>

#include "stream.h"
#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/proc.h"
#include "taikai/riichi.h"

enum {
  MAX_WORDS = 64,
  MAX_LINE = 1 << 20,
  STOP_WAIT_MS = 1000, /* destroy: how long a program has to exit once its stdin is closed */
  KILL_WAIT_MS = 1000  /* how long a keeper has to kill its tree before it is killed itself */
};

typedef struct bot {
  pid_t pid;          /* the keeper of the program (0: none running) */
  int to, from;       /* our ends of the sockets: the program's stdin, its stdout */
  int seat;           /* the seat it plays in the current game */
  int playing;        /* begin_game was called and end_game not yet */
  tk_mjai_stream st;
  char in[4096];      /* bytes read past the last line */
  size_t nin;
} bot;

typedef struct agent {
  char *words;        /* the command's words, NUL-separated */
  char *argv[MAX_WORDS + 1];
  bot bots[4];        /* at most one per seat of a game */
  tk_mjai_buf buf;
  char *line;         /* the last answer line */
  char error[TK_ERROR_MSG_MAX]; /* the last fault, with the line the bot sent (last_error) */
  /* the files that make the bot what it is (descriptor's `file`): the program, the script
   * its first non-option argument names when that is a file, the "files" parameter's */
  int nfiles;
  char file_path[TK_AGENT_MAX_FILES][4096];
  char file_role[TK_AGENT_MAX_FILES][16];
} agent;

/* Splits `cmd` into a->argv. Returns the number of words or -1 (an unclosed quote, too many
 * words). */
static int split(agent *a, const char *cmd) {
  size_t n = strlen(cmd);
  a->words = malloc(n + 1);
  if (!a->words) return -1;
  char *o = a->words;
  int argc = 0;
  const char *p = cmd;
  for (;;) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    if (argc == MAX_WORDS) return -1;
    a->argv[argc++] = o;
    while (*p && *p != ' ' && *p != '\t') {
      if (*p == '\'' || *p == '"') {
        char q = *p++;
        while (*p && *p != q) *o++ = *p++;
        if (*p != q) return -1;
        p++;
      } else {
        *o++ = *p++;
      }
    }
    *o++ = '\0';
  }
  a->argv[argc] = NULL;
  return argc;
}

/* Is `prog` an executable file (through PATH when it has no '/')? Its path goes to `out`. */
static int findable(const char *prog, char *out, size_t cap) {
  if (strchr(prog, '/')) {
    snprintf(out, cap, "%s", prog);
    return access(prog, X_OK) == 0;
  }
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  for (const char *p = path;; ) {
    const char *e = strchr(p, ':');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    snprintf(out, cap, "%.*s/%s", (int)len, len ? p : ".", prog);
    struct stat sb;
    if (!stat(out, &sb) && S_ISREG(sb.st_mode) && !access(out, X_OK)) return 1;
    if (!e) return 0;
    p = e + 1;
  }
}

static int regular_file(const char *path) {
  struct stat sb;
  return !stat(path, &sb) && S_ISREG(sb.st_mode);
}

static void add_file(agent *a, const char *role, const char *path) {
  if (a->nfiles == TK_AGENT_MAX_FILES) return;
  snprintf(a->file_role[a->nfiles], sizeof a->file_role[0], "%s", role);
  snprintf(a->file_path[a->nfiles], sizeof a->file_path[0], "%s", path);
  a->nfiles++;
}

/* ------------------------------------------------------------------ the programs */

/* Stops the programs of bots[0..n-1] (tk_proc_end): closes their stdins and gives them
 * `grace_ms` to exit (0: none), then signals each tree (SIGTERM: its keeper kills it), and
 * kills a keeper that does not end within KILL_WAIT_MS (with its process group). Whatever
 * happens, no bot is running after it. */
static void stop_bots(bot **bots, int n, int grace_ms) {
  tk_proc_ending end[4];
  for (int i = 0; i < n; i++) {
    bot *b = bots[i];
    end[i] = (tk_proc_ending){.pid = b->pid > 0 ? b->pid : 0, .stdin_fd = b->to};
    if (b->from >= 0) close(b->from);
    b->to = b->from = -1;
    b->nin = 0;
    b->playing = 0;
    b->pid = 0;
  }
  tk_proc_end(end, n, grace_ms, KILL_WAIT_MS);
}

static void stop(bot *b) { stop_bots(&b, 1, 0); }

/* Starts the program of `a` for bot `b` under its keeper (tk_proc_spawn: default signals, the
 * sockets as its stdin and stdout and no other descriptor, the keeper in a group of its own,
 * dying with the worker, subreaper of the program's tree). Returns 0 or TK_EIO with the
 * reason in `err`. */
static int start(agent *a, bot *b, tk_error *err) {
  int in[2], out[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in))
    return tk_error_set(err, TK_EIO, -1, "cannot start %.200s: socketpair: %s", a->argv[0],
                        strerror(errno));
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, out)) {
    close(in[0]);
    close(in[1]);
    return tk_error_set(err, TK_EIO, -1, "cannot start %.200s: socketpair: %s", a->argv[0],
                        strerror(errno));
  }
  tk_proc_opts o = {
      .argv = a->argv,
      .map = {in[1], out[1], -1},
      .new_group = 1,          /* out of the worker's group: the worker's kill leaves the keeper
                                * to clean up */
      .pdeath_signal = SIGTERM, /* the worker's death ends the tree */
      .subreaper = 1,          /* a keeper owns the program's tree */
  };
  pid_t pid;
  int rc = tk_proc_spawn(&o, &pid, err);
  close(in[1]);
  close(out[1]);
  if (rc) {
    close(in[0]);
    close(out[0]);
    return rc;
  }
  b->pid = pid;
  b->to = in[0];
  b->from = out[0];
  b->nin = 0;
  return 0;
}

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  (void)seed;
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p) {
    tk_error_set(err, TK_EPARSE, jerr.position, "riichi_mjai: params: %s", jerr.text);
    return NULL;
  }
  const char *cmd = json_string_value(json_object_get(p, "command"));
  agent *a = calloc(1, sizeof *a);
  if (!a) {
    json_decref(p);
    tk_error_set(err, TK_ENOMEM, -1, "riichi_mjai: out of memory");
    return NULL;
  }
  for (int i = 0; i < 4; i++) a->bots[i].to = a->bots[i].from = -1;
  int argc = cmd ? split(a, cmd) : 0;
  char prog[4096] = "";
  json_t *files = json_object_get(p, "files");
  size_t nextra = json_array_size(files);
  if (argc > 0 && findable(a->argv[0], prog, sizeof prog) && nextra <= TK_AGENT_MAX_FILES - 2) {
    add_file(a, "program", prog);
    for (int i = 1; i < argc; i++) /* an interpreter's script: its first non-option argument */
      if (a->argv[i][0] != '-') {
        if (regular_file(a->argv[i])) add_file(a, "script", a->argv[i]);
        break;
      }
    for (size_t i = 0; i < nextra; i++) {
      const char *f = json_string_value(json_array_get(files, i));
      char role[16];
      snprintf(role, sizeof role, "file-%zu", i + 1);
      if (!f || !regular_file(f)) {
        tk_error_set(err, TK_EINVAL, -1, "riichi_mjai: parameter \"files\"[%zu]: %s%.200s%s "
                     "is not a readable file", i, f ? "\"" : "", f ? f : "not a string",
                     f ? "\"" : "");
        json_decref(p);
        free(a->words);
        free(a);
        return NULL;
      }
      add_file(a, role, f);
    }
  } else if (argc > 0 && prog[0] && nextra > TK_AGENT_MAX_FILES - 2) {
    tk_error_set(err, TK_EINVAL, -1, "riichi_mjai: parameter \"files\": %zu files, at most %d",
                 nextra, TK_AGENT_MAX_FILES - 2);
    json_decref(p);
    free(a->words);
    free(a);
    return NULL;
  }
  if (argc <= 0 || !a->nfiles) {
    if (!cmd || argc == 0)
      tk_error_set(err, TK_EINVAL, -1,
                   "riichi_mjai: parameter \"command\" must name the bot's program (got %s)",
                   cmd ? "\"\"" : "no string");
    else if (argc < 0)
      tk_error_set(err, TK_EINVAL, -1,
                   "riichi_mjai: parameter \"command\": \"%.200s\": an unclosed quote or more "
                   "than %d words", cmd, MAX_WORDS);
    else
      tk_error_set(err, TK_ENOTFOUND, -1,
                   "riichi_mjai: parameter \"command\": program \"%.200s\" not found or not "
                   "executable", a->argv[0]);
    json_decref(p);
    free(a->words);
    free(a);
    return NULL;
  }
  json_decref(p);
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  bot *all[4] = {&a->bots[0], &a->bots[1], &a->bots[2], &a->bots[3]};
  stop_bots(all, 4, STOP_WAIT_MS);
  tk_mjai_buf_free(&a->buf);
  free(a->line);
  free(a->words);
  free(a);
}

/* The bot playing seat `s` in the current game, or NULL. */
static bot *seated(agent *a, int s) {
  for (int i = 0; i < 4; i++)
    if (a->bots[i].playing && a->bots[i].seat == s) return &a->bots[i];
  return NULL;
}

static int begin_game(tk_agent_instance *self, const void *info_) {
  agent *a = self;
  const tk_riichi_info *info = info_;
  int s = info->head.seat;
  if (s < 0 || s > 3) return TK_EINVAL;
  /* begin_game comes in seat order: one for a seat at or below a seat still playing starts
   * another game (the referee gave up the last one after a fault): its bots are free again */
  for (int i = 0; i < 4; i++)
    if (a->bots[i].playing && a->bots[i].seat >= s)
      for (int k = 0; k < 4; k++) a->bots[k].playing = 0;
  bot *b = NULL; /* a running program not playing in this game, else a new one */
  for (int i = 0; i < 4 && !b; i++)
    if (a->bots[i].pid > 0 && !a->bots[i].playing) b = &a->bots[i];
  for (int i = 0; i < 4 && !b; i++)
    if (a->bots[i].pid <= 0) {
      b = &a->bots[i];
      tk_error e;
      tk_error_clear(&e);
      int rc = start(a, b, &e);
      if (rc) {
        snprintf(a->error, sizeof a->error, "%.900s", e.msg); /* "cannot run ...: reason" */
        return rc;
      }
    }
  if (!b) return TK_ESTATE; /* five seats: cannot happen */
  tk_mjai_stream_begin(&b->st, s, info->length, info->red_fives);
  b->seat = s;
  b->playing = 1;
  return 0;
}

/* Sends a->buf as one line and reads one line into a->line. Returns 0 or TK_EIO. */
static int exchange(agent *a, bot *b) {
  tk_mjai_buf_printf(&a->buf, "\n");
  if (a->buf.oom) return TK_ENOMEM;
  for (size_t off = 0; off < a->buf.n;) {
    ssize_t w = send(b->to, a->buf.s + off, a->buf.n - off, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return TK_EIO;
    off += (size_t)w;
  }
  size_t cap = 4096, n = 0;
  free(a->line);
  a->line = malloc(cap);
  if (!a->line) return TK_ENOMEM;
  for (;;) {
    char *nl = memchr(b->in, '\n', b->nin);
    size_t take = nl ? (size_t)(nl - b->in) + 1 : b->nin;
    if (n + take + 1 > cap) {
      while (n + take + 1 > cap) cap *= 2;
      if (cap > MAX_LINE) return TK_EPARSE;
      char *l = realloc(a->line, cap);
      if (!l) return TK_ENOMEM;
      a->line = l;
    }
    memcpy(a->line + n, b->in, take);
    n += take;
    memmove(b->in, b->in + take, b->nin - take);
    b->nin -= take;
    a->line[n] = '\0';
    if (nl) {
      a->line[n - 1] = '\0';
      if (n >= 2 && a->line[n - 2] == '\r') a->line[n - 2] = '\0';
      return 0;
    }
    ssize_t r = read(b->from, b->in, sizeof b->in);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return TK_EIO;
    b->nin = (size_t)r;
  }
}

static int tile_of(json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  if (!s) return -1;
  return tk_tile_from_mjai(s, NULL);
}

/* Finds the legal action the mjai answer `o` names, for the seat of view `v`; `reach`: the
 * answer completes a reach (a dahai then means RIICHI). Returns its index, -1 for an illegal
 * action, -2 for a malformed one. */
static int match(json_t *o, const tk_riichi_view *v, const tk_riichi_legal *l, int reach) {
  const char *type = json_string_value(json_object_get(o, "type"));
  if (!type) return -2;
  json_t *actor = json_object_get(o, "actor");
  if (actor && (!json_is_integer(actor) || json_integer_value(actor) != v->seat)) return -1;
  int self = v->phase == TK_RIICHI_PHASE_SELF;
  int want, t = -1, c0 = -1, c1 = -1, tg = -1;
  if (!strcmp(type, "none")) {
    if (reach) return -1;
    want = TK_RIICHI_PASS;
  } else if (!strcmp(type, "dahai")) {
    want = reach ? TK_RIICHI_RIICHI : TK_RIICHI_DISCARD;
    if ((t = tile_of(o, "pai")) < 0) return -2;
    json_t *tg_ = json_object_get(o, "tsumogiri");
    if (tg_ && !json_is_boolean(tg_)) return -2;
    tg = tg_ ? json_is_true(tg_) : -1;
  } else if (!strcmp(type, "hora")) {
    want = self ? TK_RIICHI_TSUMO : TK_RIICHI_RON;
  } else if (!strcmp(type, "ryukyoku")) {
    want = TK_RIICHI_KYUUSHU;
  } else if (!strcmp(type, "ankan")) {
    want = TK_RIICHI_ANKAN;
    json_t *c = json_object_get(o, "consumed");
    if (!json_is_array(c) || json_array_size(c) != 4) return -2;
    const char *s = json_string_value(json_array_get(c, 0));
    if (!s || (t = tk_tile_from_mjai(s, NULL)) < 0) return -2;
  } else if (!strcmp(type, "kakan") || !strcmp(type, "daiminkan") || !strcmp(type, "pon") ||
             !strcmp(type, "chi")) {
    want = type[0] == 'k' ? TK_RIICHI_KAKAN
           : type[0] == 'd' ? TK_RIICHI_MINKAN
           : type[0] == 'p' ? TK_RIICHI_PON
                            : TK_RIICHI_CHI;
    if ((t = tile_of(o, "pai")) < 0) return -2;
    if (want == TK_RIICHI_PON || want == TK_RIICHI_CHI) {
      json_t *c = json_object_get(o, "consumed");
      if (!json_is_array(c) || json_array_size(c) != 2) return -2;
      const char *s0 = json_string_value(json_array_get(c, 0));
      const char *s1 = json_string_value(json_array_get(c, 1));
      if (!s0 || !s1 || (c0 = tk_tile_from_mjai(s0, NULL)) < 0 ||
          (c1 = tk_tile_from_mjai(s1, NULL)) < 0)
        return -2;
    }
  } else if (!strcmp(type, "reach")) {
    return -1; /* handled by the caller; a second reach is illegal */
  } else {
    return -2;
  }
  for (int i = 0; i < l->n; i++) {
    const tk_riichi_action *x = &l->a[i];
    if (x->type != want) continue;
    switch (want) {
      case TK_RIICHI_DISCARD:
      case TK_RIICHI_RIICHI:
        if (x->tile != t || (tg >= 0 && x->tsumogiri != tg)) continue;
        break;
      case TK_RIICHI_ANKAN:
        if (tk_tile_kind(x->tile) != tk_tile_kind((tk_tile)t)) continue;
        break;
      case TK_RIICHI_KAKAN:
      case TK_RIICHI_MINKAN:
        if (x->tile != t) continue;
        break;
      case TK_RIICHI_PON:
      case TK_RIICHI_CHI:
        if (x->tile != t || !((x->consumed[0] == c0 && x->consumed[1] == c1) ||
                              (x->consumed[0] == c1 && x->consumed[1] == c0)))
          continue;
        break;
      default:
        break;
    }
    return i;
  }
  return -1;
}

/* A fault of seat `s`: printed with the line the program sent and kept for last_error; the
 * program is stopped. */
static int fault(agent *a, bot *b, int s, int rc, const char *what) {
  fprintf(stderr, "riichi_mjai: seat %d: %s; the bot sent: %.300s%s\n", s, what,
          a->line && a->line[0] ? a->line : "(nothing)",
          a->line && strlen(a->line) > 300 ? "..." : "");
  snprintf(a->error, sizeof a->error, "%s; the bot sent: %.900s%s", what,
           a->line && a->line[0] ? a->line : "(nothing)",
           a->line && strlen(a->line) > 900 ? "..." : "");
  free(a->line);
  a->line = NULL;
  if (b) stop(b);
  return rc;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_riichi_view *v = view;
  const tk_riichi_legal *l = legal;
  int s = v->seat;
  if (s > 3) return TK_EINVAL;
  bot *b = seated(a, s);
  free(a->line);
  a->line = NULL;
  if (!b || b->pid <= 0) return fault(a, b, s, TK_ESTATE, "no bot is running");
  tk_mjai_buf_clear(&a->buf);
  tk_mjai_buf_printf(&a->buf, "[");
  tk_mjai_buf inner = {0};
  int amb;
  int rc = tk_mjai_stream_update(&b->st, v, &inner, &amb);
  if (!rc) tk_mjai_buf_printf(&a->buf, "%s]", inner.s ? inner.s : "");
  tk_mjai_buf_free(&inner);
  if (rc) return fault(a, b, s, TK_ESTATE, "the view does not follow the events sent");
  int reach = 0;
  for (;;) {
    rc = exchange(a, b);
    if (rc == TK_EIO) return fault(a, b, s, rc, "the bot exited or closed its output");
    if (rc == TK_EPARSE) return fault(a, b, s, rc, "an answer line longer than 1 MB");
    if (rc) return fault(a, b, s, rc, "out of memory");
    json_error_t jerr;
    json_t *o = json_loads(a->line, 0, &jerr);
    if (!json_is_object(o)) {
      json_decref(o);
      return fault(a, b, s, TK_EPARSE, "an answer that is not one JSON object");
    }
    const char *type = json_string_value(json_object_get(o, "type"));
    json_t *actor = json_object_get(o, "actor");
    if (type && !strcmp(type, "reach") && !reach &&
        (!actor || (json_is_integer(actor) && json_integer_value(actor) == s))) {
      int any = 0;
      for (int i = 0; i < l->n; i++) any |= l->a[i].type == TK_RIICHI_RIICHI;
      json_decref(o);
      if (!any) return fault(a, b, s, TK_EILLEGAL, "reach when it is not legal");
      reach = 1;
      b->st.reach_sent = 1;
      tk_mjai_buf_clear(&a->buf);
      tk_mjai_buf_printf(&a->buf, "[{\"type\":\"reach\",\"actor\":%d}]", s);
      continue;
    }
    int i = match(o, v, l, reach);
    json_decref(o);
    if (i == -2) return fault(a, b, s, TK_EPARSE, "a malformed mjai action");
    if (i < 0) return fault(a, b, s, TK_EILLEGAL, "an illegal action");
    if (l->a[i].type != TK_RIICHI_RIICHI) b->st.reach_sent = 0;
    *(tk_riichi_action *)action = l->a[i];
    return 0;
  }
}

static void end_game(tk_agent_instance *self, const void *result) {
  agent *a = self;
  const tk_riichi_result *r = result;
  /* called once per seat the instance played, in seat order: the lowest still playing */
  for (int s = 0; s < 4; s++) {
    bot *b = seated(a, s);
    if (!b) continue;
    b->playing = 0;
    if (b->pid <= 0) return;
    tk_mjai_buf_clear(&a->buf);
    tk_mjai_buf_printf(&a->buf, "[");
    tk_mjai_buf inner = {0};
    tk_mjai_stream_end(&b->st, r->points, &inner);
    tk_mjai_buf_printf(&a->buf, "%s]", inner.s ? inner.s : "");
    tk_mjai_buf_free(&inner);
    if (exchange(a, b)) fault(a, b, s, TK_EIO, "no answer to end_game");
    return;
  }
}

static void last_error(tk_agent_instance *self, tk_error *err) {
  agent *a = self;
  snprintf(err->msg, sizeof err->msg, "%s", a->error);
  a->error[0] = '\0';
}

static const char *file(tk_agent_instance *self, int i, const char **role) {
  agent *a = self;
  if (i < 0 || i >= a->nfiles) return NULL;
  *role = a->file_role[i];
  return a->file_path[i];
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "riichi_mjai",
    .version = "1.2.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "riichi: an external program speaking mjai JSON lines over stdin/stdout "
                   "(parameter \"command\"; docs/riichi.md)",
    .params_json = "{\"command\": \"\", \"files\": []}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
    .last_error = last_error,
    .file = file,
};

TK_AGENT_ENTRY(riichi_mjai) { return &descriptor; }
