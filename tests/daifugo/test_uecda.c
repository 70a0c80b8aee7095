/* tests/daifugo/test_uecda.c — the UECda protocol: the table codec on known answers; `taikai
 * serve` against five Python clients written from the spec (200 games); a byte capture of one
 * client's connection through a loopback proxy, parsed by a state machine of the spec's message
 * sequence with nothing left over in either direction; clients that disconnect, stall, write
 * half a message or garbage at every point of the sequence, each a fault of its seat with the
 * units already played kept; `taikai client` (our plugins on a UECda server) against `taikai
 * serve`. Servers listen on port 0 and the test reads the port they print. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include "uecda.h"

#define WORK TK_WORK_DIR "-uecda"
#include "e2e_util.h"
#include "serve_util.h"

/* ------------------------------------------------------------------ the codec */

static void test_codec(void) {
  tk_uecda_table t;
  memset(&t, 0, sizeof t);
  t.c[0][0] = 20070;
  t.c[7][14] = -5; /* sent as 0 */
  t.c[2][3] = 0x01020304;
  uint8_t b[TK_UECDA_TABLE_BYTES];
  tk_uecda_pack(&t, b);
  /* 20070 = 0x00004e66, big-endian at offset 0 */
  TK_EQ(b[0], 0, "byte 0");
  TK_EQ(b[2], 0x4e, "byte 2");
  TK_EQ(b[3], 0x66, "byte 3");
  size_t off = 4 * (2 * 15 + 3);
  TK_EQ(b[off], 1, "cell [2][3] first byte");
  TK_EQ(b[off + 3], 4, "cell [2][3] last byte");
  TK_EQ(b[479], 0, "a negative cell is sent as 0");
  tk_uecda_table u;
  tk_uecda_unpack(b, &u);
  TK_EQ(u.c[0][0], 20070, "round trip");
  TK_EQ(u.c[2][3], 0x01020304, "round trip");

  /* a hand: S3 (row 0, col 1), C2 (row 3, col 13), the joker at [4][1] */
  memset(&t, 0, sizeof t);
  uint64_t hand = TK_DAIFUGO_CARD(0, 1) | TK_DAIFUGO_CARD(3, 13) | TK_DAIFUGO_JOKER;
  tk_uecda_put_hand(&t, hand);
  TK_EQ(t.c[0][1], 1, "S3");
  TK_EQ(t.c[3][13], 1, "C2");
  TK_EQ(t.c[4][1], 2, "joker");
  TK_EQ(tk_uecda_get_hand(&t) == hand, 1, "hand round trip");

  /* decode: a sequence with the joker at the top end (column 14), and garbage */
  tk_uecda_sub s;
  tk_error e;
  memset(&t, 0, sizeof t);
  t.c[1][12] = 1, t.c[1][13] = 1, t.c[1][14] = 2;
  t.c[5][0] = 77; /* rows 5..7 are ignored */
  tk_error_clear(&e);
  TK_EQ(tk_uecda_decode(&t, &s, &e), 0, e.msg);
  TK_EQ(s.n, 3, "cards");
  TK_EQ(s.jcell, 16 * 1 + 14, "joker cell");
  static const struct { int r, c, v; const char *why; } bad[] = {
      {0, 5, 7, "holds 7"}, {2, 0, 1, "holds 1"}, {4, 3, 1, "row 4"}, {3, 6, -1, "holds -1"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memset(&t, 0, sizeof t);
    t.c[bad[i].r][bad[i].c] = bad[i].v;
    tk_error_clear(&e);
    TK_EQ(tk_uecda_decode(&t, &s, &e), TK_EPARSE, bad[i].why);
    if (!strstr(e.msg, bad[i].why)) TK_FAILF("decode: '%s' does not say '%s'", e.msg, bad[i].why);
  }
  memset(&t, 0, sizeof t);
  t.c[0][4] = 2, t.c[4][1] = 2;
  tk_error_clear(&e);
  TK_EQ(tk_uecda_decode(&t, &s, &e), TK_EPARSE, "two jokers");
  if (!strstr(e.msg, "both hold a joker")) TK_FAILF("two jokers: %s", e.msg);

  /* match: against a game's legal list, a single joker in any cell */
  tk_daifugo_legal l;
  memset(&l, 0, sizeof l);
  l.n = 3;
  l.a[0].kind = TK_DAIFUGO_PASS;
  l.a[1] = (tk_daifugo_move){.cards = TK_DAIFUGO_CARD(2, 5), .kind = TK_DAIFUGO_SINGLE, .n = 1};
  l.a[2] = (tk_daifugo_move){.cards = TK_DAIFUGO_JOKER, .kind = TK_DAIFUGO_JOKER1, .n = 1,
                             .jcell = TK_DAIFUGO_NOCELL};
  memset(&t, 0, sizeof t);
  tk_uecda_decode(&t, &s, &e);
  TK_EQ(tk_uecda_match(&s, &l), 0, "all zeros = pass");
  t.c[2][5] = 1;
  tk_uecda_decode(&t, &s, &e);
  TK_EQ(tk_uecda_match(&s, &l), 1, "D7");
  memset(&t, 0, sizeof t);
  t.c[3][9] = 2;
  tk_uecda_decode(&t, &s, &e);
  TK_EQ(tk_uecda_match(&s, &l), 2, "a joker in [3][9] is the single joker");
  memset(&t, 0, sizeof t);
  t.c[0][5] = 1;
  tk_uecda_decode(&t, &s, &e);
  TK_EQ(tk_uecda_match(&s, &l), -1, "S7 is not listed");
}

/* ------------------------------------------------------------------ servers and clients */

static const char *SPEC_ONE_EXTERNAL =
    "{\"game\": \"daifugo\", \"seed\": 11, \"walls\": 3, \"format\": \"seated\",\n"
    " \"rules\": {\"block_games\": 6},\n"
    " \"time_limit_ms\": %d, \"fault_policy\": \"%s\", \"illegal_policy\": \"substitute\",\n"
    " \"agents\": [{\"external\": true, \"label\": \"remote\"},\n"
    "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g1\"},\n"
    "   {\"plugin\": \"daifugo_random\", \"label\": \"r2\"},\n"
    "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g3\"},\n"
    "   {\"plugin\": \"daifugo_random\", \"label\": \"r4\"}]}\n";

/* The misbehaving client's table: four plugins that pass except on a new table, where they
 * lead their lowest single; the client leads too, so it goes out first when it leads and meets
 * the exchange as daifugo or fugo. */
static const char *SPEC_FAULTS =
    "{\"game\": \"daifugo\", \"seed\": 11, \"walls\": 3, \"format\": \"seated\",\n"
    " \"rules\": {\"block_games\": 6},\n"
    " \"time_limit_ms\": %d, \"fault_policy\": \"%s\", \"illegal_policy\": \"substitute\",\n"
    " \"agents\": [{\"external\": true, \"label\": \"remote\"},\n"
    "   {\"plugin\": \"daifugo_pass\", \"label\": \"p1\"},\n"
    "   {\"plugin\": \"daifugo_pass\", \"label\": \"p2\"},\n"
    "   {\"plugin\": \"daifugo_pass\", \"label\": \"p3\"},\n"
    "   {\"plugin\": \"daifugo_pass\", \"label\": \"p4\"}]}\n";

static int connect_to(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) {
    if (fd >= 0) close(fd);
    return -1;
  }
  tk_uecda_nodelay(fd);
  return fd;
}

static int have_python(void) { return system("python3 -c 'import socket, struct' 2>/dev/null") == 0; }

static pid_t python_client(int port, const char *name, int games, const char *log) {
  char p[16], g[16];
  snprintf(p, sizeof p, "%d", port);
  snprintf(g, sizeof g, "%d", games);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    alarm(300);
    execlp("python3", "python3", TK_SOURCE_DIR "/tests/daifugo/uecda_client.py", "--port", p,
           "--name", name, "--games", g, (char *)NULL);
    _exit(127);
  }
  return pid;
}

/* Five Python clients (written from the spec) play 200 games: every answer they check agrees,
 * the run is whole, the outputs are taikai run's. */
static void test_python_clients(void) {
  if (!have_python()) {
    printf("\n  SKIPPED: python3 is not installed: the five-client test needs it\n");
    return;
  }
  int port;
  pid_t server = serve_start(TK_SOURCE_DIR "/arenas/daifugo/serve-5-external.json", W("py5"),
                             "200", &port);
  if (!port) return;
  pid_t c[5];
  char log[5][64];
  for (int i = 0; i < 5; i++) {
    snprintf(log[i], sizeof log[i], "py-client-%d.txt", i);
    char name[16];
    snprintf(name, sizeof name, "py%d", i);
    c[i] = python_client(port, name, 200, W(log[i]));
    sleep_ms(20);
  }
  for (int i = 0; i < 5; i++) {
    int st = wait_status(c[i]);
    char text[4096];
    slurp(W(log[i]), text, sizeof text);
    if (st) TK_FAILF("python client %d exited %d: %s", i, st, text);
    if (!strstr(text, " 200 games")) TK_FAILF("python client %d: %s", i, text);
  }
  TK_EQ(taikai_wait(server), 0, err_buf);
  json_t *lines[4];
  int n = load_lines(W("py5/games.jsonl"), lines, 4);
  TK_EQ(n, 2, "two blocks of 100 games");
  for (int i = 0; i < n; i++) {
    char *text = json_dumps(lines[i], 0);
    if (!text || strstr(text, "fault")) TK_FAILF("unit %d has a fault", i);
    free(text);
    json_t *seats = json_object_get(lines[i], "seats");
    long long pts = 0;
    for (int s = 0; s < 5; s++) {
      json_t *x = json_array_get(seats, (size_t)s);
      TK_EQ(json_integer_value(json_object_get(x, "games")), 100, "games per block");
      pts += json_integer_value(json_object_get(x, "points"));
    }
    TK_EQ(pts, 1500, "points 5+4+3+2+1 per game over 100 games");
  }
  free_lines(lines, n);
  json_t *sum = json_load_file(W("py5/summary.json"), 0, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  for (int i = 0; i < 5; i++) TK_EQ(agent_int(sum, i, "games"), 200, "summary games");
  json_decref(sum);
}

/* ------------------------------------------------------------------ the capture */

typedef struct stream {
  uint8_t *b;
  size_t len, cap, pos;
} stream;

static void stream_add(stream *s, const uint8_t *p, size_t n) {
  if (s->len + n > s->cap) {
    s->cap = (s->len + n) * 2;
    s->b = realloc(s->b, s->cap);
  }
  memcpy(s->b + s->len, p, n);
  s->len += n;
}

/* Forwards one client connection to the server on `port`, recording both directions, until
 * both sides close. Returns the listening port it was given to serve on. */
static void proxy(int lfd, int port, stream *up, stream *down) {
  int c = accept(lfd, NULL, NULL);
  int s = connect_to(port);
  if (c < 0 || s < 0) {
    TK_FAILF("proxy: cannot connect");
    return;
  }
  tk_uecda_nodelay(c);
  int open_c = 1, open_s = 1;
  uint8_t buf[65536];
  while (open_c || open_s) {
    struct pollfd p[2] = {{open_c ? c : -1, POLLIN, 0}, {open_s ? s : -1, POLLIN, 0}};
    if (poll(p, 2, 60000) <= 0) break;
    if (p[0].revents) {
      ssize_t r = read(c, buf, sizeof buf);
      if (r > 0) {
        stream_add(up, buf, (size_t)r);
        tk_uecda_send(s, buf, (size_t)r);
      } else {
        open_c = 0;
        shutdown(s, SHUT_WR);
      }
    }
    if (p[1].revents) {
      ssize_t r = read(s, buf, sizeof buf);
      if (r > 0) {
        stream_add(down, buf, (size_t)r);
        tk_uecda_send(c, buf, (size_t)r);
      } else {
        open_s = 0;
        shutdown(c, SHUT_WR);
      }
    }
  }
  close(c);
  close(s);
}

static int take(stream *s, size_t n, int32_t *out) {
  if (s->len - s->pos < n) return -1;
  for (size_t i = 0; i < n / 4; i++) {
    uint32_t v;
    memcpy(&v, s->b + s->pos + 4 * i, 4);
    out[i] = (int32_t)ntohl(v);
  }
  s->pos += n;
  return 0;
}

/* The spec's message sequence as a state machine over both directions of the capture. Returns
 * the games parsed, or -1 with a failure recorded. */
static int parse_capture(stream *up, stream *down, int *exchanges, int *moves) {
  int32_t t[120], v;
#define T(r, c) t[(r) * 15 + (c)]
#define NEED(cond, ...)      \
  do {                       \
    if (!(cond)) {           \
      TK_FAILF(__VA_ARGS__); \
      return -1;             \
    }                        \
  } while (0)
  NEED(!take(up, 480, t), "no profile table");
  NEED(T(0, 0) == 20070, "profile protocol %d", T(0, 0));
  NEED(!take(down, 4, &v), "no player id");
  int me = v;
  NEED(me >= 0 && me < 5, "player id %d", me);
  int games = 0;
  for (;;) {
    NEED(!take(down, 480, t), "game %d: no game-start table", games + 1);
    NEED(T(5, 0) == 1 && T(5, 3) == 6, "game %d: game-start [5][0]=%d [5][3]=%d", games + 1,
         T(5, 0), T(5, 3));
    /* the other cells of row 5 are 0, as the reference server's source sets them */
    NEED(!T(5, 2) && !T(5, 4) && !T(5, 5) && !T(5, 6) && !T(5, 7),
         "game %d: game-start row 5: %d %d %d %d %d at [5][2], [5][4..7]", games + 1, T(5, 2),
         T(5, 4), T(5, 5), T(5, 6), T(5, 7));
    if (T(5, 1)) {
      NEED(!take(up, 480, t), "game %d: no exchange table", games + 1);
      ++*exchanges;
    }
    int end;
    do {
      NEED(!take(down, 480, t), "game %d: no hand table", games + 1);
      NEED(T(5, 0) == 0, "game %d: hand table in the exchange phase", games + 1);
      int mover = T(5, 3);
      NEED(mover >= 0 && mover < 5, "game %d: mover %d", games + 1, mover);
      NEED(T(5, 2) == (mover == me), "game %d: [5][2] = %d", games + 1, T(5, 2));
      if (mover == me) {
        NEED(!take(up, 480, t), "game %d: no submission", games + 1);
        NEED(!take(down, 4, &v), "game %d: no answer", games + 1);
        NEED(v == 8 || v == 9, "game %d: answer %d", games + 1, v);
        ++*moves;
      }
      NEED(!take(down, 480, t), "game %d: no field table", games + 1);
      NEED(T(5, 3) == mover, "game %d: field [5][3] = %d, mover %d", games + 1, T(5, 3), mover);
      NEED(!take(down, 4, &v), "game %d: no end-of-turn int", games + 1);
      end = v;
      NEED(end >= 0 && end <= 2, "game %d: end-of-turn int %d", games + 1, end);
    } while (end == 0);
    games++;
    if (end == 2) break;
  }
#undef T
#undef NEED
  return games;
}

static void test_capture(void) {
  if (!have_python()) {
    printf("\n  SKIPPED: python3 is not installed: the capture test proxies its client\n");
    return;
  }
  char spec[2048];
  snprintf(spec, sizeof spec, SPEC_ONE_EXTERNAL, 10000, "forfeit");
  write_file(W("one.json"), spec);
  int port;
  pid_t server = serve_start(W("one.json"), W("capture"), NULL, &port);
  if (!port) return;
  int lfd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t al = sizeof a;
  CU_ASSERT_FATAL(lfd >= 0 && !bind(lfd, (struct sockaddr *)&a, sizeof a) && !listen(lfd, 1));
  getsockname(lfd, (struct sockaddr *)&a, &al);
  pid_t client = python_client(ntohs(a.sin_port), "captured", 18, W("capture-client.txt"));
  stream up = {0}, down = {0};
  proxy(lfd, port, &up, &down);
  close(lfd);
  int st = wait_status(client);
  char text[4096];
  slurp(W("capture-client.txt"), text, sizeof text);
  if (st) TK_FAILF("client exited %d: %s", st, text);
  TK_EQ(taikai_wait(server), 0, err_buf);
  int exchanges = 0, moves = 0;
  int games = parse_capture(&up, &down, &exchanges, &moves);
  TK_EQ(games, 18, "games in the capture (3 blocks of 6)");
  TK_EQ(up.len - up.pos, 0, "client-to-server bytes left over");
  TK_EQ(down.len - down.pos, 0, "server-to-client bytes left over");
  if (moves < 18) TK_FAILF("only %d moves captured", moves);
  /* the daifugo or fugo gives in some of the 15 exchange games, never in a block's first */
  if (exchanges < 1 || exchanges > 15) TK_FAILF("%d exchange tables", exchanges);
  free(up.b);
  free(down.b);
}

/* ------------------------------------------------------------------ misbehaving clients */

enum at { AT_PROFILE, AT_START, AT_EXCHANGE, AT_MOVE, AT_NONMOVER };
enum act { DO_CLOSE, DO_HALF, DO_GARBAGE, DO_STALL, DO_HALF_STALL, DO_ILLEGAL };

/* DO_ILLEGAL: the answer the server sent to the illegal submission (-1: none); at an
 * exchange, the hand before it, the cards to give and the hand the next hand table shows. */
static int32_t illegal_answer;
static uint64_t ex_before, ex_after;
static int ex_give;

/* A C client that leads its lowest card on a new table, passes otherwise, and gives its lowest
 * cards, until the `nth` event of
 * kind `at` (counted from 1): then it closes, writes half a table and closes, writes a table
 * that is no set of cards, or stalls for `stall_ms`. Returns the events seen before the end
 * (the run's end or the misbehaviour). */
static int bad_client(int port, enum at at, int nth, enum act what, int stall_ms) {
  int fd = connect_to(port);
  if (fd < 0) return -1;
  int count[5] = {0};
  tk_uecda_table t;
  memset(&t, 0, sizeof t);
  t.c[0][0] = TK_UECDA_PROTOCOL;
  t.c[1][0] = 'c';
  int32_t v;
#define EVENT(kind)                                                     \
  (++count[kind] == nth && at == (kind))
#define MISBEHAVE()                                                     \
  do {                                                                  \
    tk_uecda_table g_;                                                  \
    memset(&g_, 0, sizeof g_);                                          \
    uint8_t b_[TK_UECDA_TABLE_BYTES];                                   \
    if (what == DO_HALF || what == DO_HALF_STALL) {                     \
      tk_uecda_pack(&g_, b_);                                           \
      tk_uecda_send(fd, b_, 200);                                       \
      if (what == DO_HALF_STALL) sleep_ms(stall_ms);                    \
    } else if (what == DO_GARBAGE) {                                    \
      g_.c[1][7] = 5;                                                   \
      tk_uecda_send_table(fd, &g_);                                     \
    } else if (what == DO_STALL) {                                      \
      sleep_ms(stall_ms);                                               \
    }                                                                   \
    close(fd);                                                          \
    return count[at];                                                   \
  } while (0)
  if (EVENT(AT_PROFILE)) MISBEHAVE();
  if (tk_uecda_send_table(fd, &t) || tk_uecda_recv_int(fd, &v, 30000, NULL)) goto out;
  int me = v;
  for (;;) {
    if (tk_uecda_recv_table(fd, &t, 30000, NULL)) goto out;
    if (EVENT(AT_START)) MISBEHAVE();
    int give = t.c[5][1];
    if (give) {
      int ev = EVENT(AT_EXCHANGE);
      if (ev && what != DO_ILLEGAL) MISBEHAVE();
      uint64_t hand = tk_uecda_get_hand(&t) & ~TK_DAIFUGO_JOKER, g = 0;
      for (int k = 0; k < give + ev; k++) g |= (hand & ~g) & -(hand & ~g); /* ev: one too many */
      if (ev) {
        ex_before = tk_uecda_get_hand(&t);
        ex_give = give;
      }
      tk_uecda_table x;
      memset(&x, 0, sizeof x);
      tk_uecda_put_hand(&x, g);
      tk_uecda_send_table(fd, &x);
    }
    int32_t end;
    do {
      if (tk_uecda_recv_table(fd, &t, 30000, NULL)) goto out;
      if (ex_before && !ex_after) ex_after = tk_uecda_get_hand(&t);
      if (t.c[5][3] == me) {
        int ev = EVENT(AT_MOVE);
        if (ev && what != DO_ILLEGAL) MISBEHAVE();
        tk_uecda_table sub;
        memset(&sub, 0, sizeof sub);
        uint64_t hand = tk_uecda_get_hand(&t), real = hand & ~TK_DAIFUGO_JOKER;
        if (ev) { /* the lowest card it does not hold */
          uint64_t out = 0;
          for (int c = 1; c <= 13 && !out; c++)
            for (int r = 0; r < 4 && !out; r++)
              if (!(real & TK_DAIFUGO_CARD(r, c))) out = TK_DAIFUGO_CARD(r, c);
          tk_uecda_put_hand(&sub, out);
        } else if (t.c[5][4]) { /* a new table: the lowest column, or the joker alone */
          uint64_t low = 0;
          for (int c = 1; c <= 13 && !low; c++)
            for (int r = 0; r < 4 && !low; r++) low = real & TK_DAIFUGO_CARD(r, c);
          tk_uecda_put_hand(&sub, low ? low : hand & TK_DAIFUGO_JOKER);
        }
        tk_uecda_send_table(fd, &sub);
        if (tk_uecda_recv_int(fd, &v, 30000, NULL)) goto out;
        if (ev) illegal_answer = v;
      } else if (EVENT(AT_NONMOVER)) {
        MISBEHAVE();
      }
      if (tk_uecda_recv_table(fd, &t, 30000, NULL) || tk_uecda_recv_int(fd, &end, 30000, NULL))
        goto out;
    } while (end == 0);
    if (end == 2) break;
  }
out:
  close(fd);
  return count[at];
#undef EVENT
#undef MISBEHAVE
}

typedef struct fault_case {
  const char *name;
  enum at at;
  int nth;
  enum act what;
  const char *kind;    /* fault_info.kind */
  const char *says;    /* in the fault's reason or its fault_info.detail */
  int unit;            /* the unit it happens in (its block's games are 6) */
} fault_case;

/* Plays the one-external spec with a misbehaving client; checks the fault in its seat, in the
 * unit where it happened and every later one, and the units before it whole. */
static void run_fault_case(const fault_case *fc, const char *policy) {
  char spec[2048], out[64];
  snprintf(spec, sizeof spec, SPEC_FAULTS, 1000, policy);
  write_file(W("fault.json"), spec);
  snprintf(out, sizeof out, "fault-%s-%s", fc->name, policy);
  int port;
  pid_t server = serve_start(W("fault.json"), W(out), NULL, &port);
  if (!port) return;
  int seen = bad_client(port, fc->at, fc->nth, fc->what, 3000);
  if (seen != fc->nth) {
    TK_FAILF("%s: the client met %d events, not %d", fc->name, seen, fc->nth);
    kill(server, SIGTERM); /* it may still wait for a client */
  }
  int st = taikai_wait(server);
  int abort_ = !strcmp(policy, "abort");
  if (st != (abort_ ? 3 : 0)) TK_FAILF("%s (%s): exit %d: %s", fc->name, policy, st, err_buf);
  char path[128];
  snprintf(path, sizeof path, "%s/games.jsonl", out);
  json_t *lines[8];
  int n = load_lines(W(path), lines, 8);
  int first_fault = -1;
  for (int i = 0; i < n; i++) {
    json_t *s0 = json_array_get(json_object_get(lines[i], "seats"), 0);
    json_t *fi = json_object_get(s0, "fault_info");
    const char *reason = json_string_value(json_object_get(s0, "fault"));
    for (int s = 1; s < 5; s++)
      if (json_object_get(json_array_get(json_object_get(lines[i], "seats"), (size_t)s), "fault"))
        TK_FAILF("%s: unit %d: a plugin seat faulted", fc->name, i);
    if (!fi) {
      if (first_fault >= 0) TK_FAILF("%s: unit %d has no fault after unit %d's", fc->name, i,
                                     first_fault);
      TK_EQ(json_integer_value(json_object_get(s0, "games")), 6, "a whole block");
      continue;
    }
    if (first_fault < 0) first_fault = i;
    if (first_fault != fc->unit)
      TK_FAILF("%s: the fault is in unit %d, not %d", fc->name, first_fault, fc->unit);
    const char *kind = json_string_value(json_object_get(fi, "kind"));
    if (!kind || strcmp(kind, fc->kind))
      TK_FAILF("%s: unit %d: fault kind %s, expected %s", fc->name, i, kind ? kind : "(none)",
               fc->kind);
    const char *detail = json_string_value(json_object_get(fi, "detail"));
    if (!(reason && strstr(reason, fc->says)) && !(detail && strstr(detail, fc->says)))
      TK_FAILF("%s: unit %d: the fault '%s' (detail '%s') does not say '%s'", fc->name, i,
               reason ? reason : "(none)", detail ? detail : "(none)", fc->says);
    TK_EQ(json_integer_value(json_object_get(s0, "daihinmin")), 6, "forfeit: every game last");
  }
  if (first_fault < 0) TK_FAILF("%s (%s): no fault recorded: %s", fc->name, policy, err_buf);
  TK_EQ(n, abort_ ? first_fault + 1 : 3, "units written");
  free_lines(lines, n);
  json_t *sum = json_load_file(W(strcat(strcpy(path, out), "/summary.json")), 0, NULL);
  if (!sum) TK_FAILF("%s: no summary.json", fc->name);
  else if (abort_ && !json_is_false(json_object_get(sum, "complete")))
    TK_FAILF("%s: an aborted run's summary is not marked incomplete", fc->name);
  json_decref(sum);
}

static const fault_case CASES[] = {
    {"start-close", AT_START, 1, DO_CLOSE, "error", "disconnected", 0},
    {"start-later", AT_START, 8, DO_CLOSE, "error", "disconnected", 1},
    {"exchange-close", AT_EXCHANGE, 1, DO_CLOSE, "error", "0 of the 480 bytes of exchange table", 0},
    {"exchange-half", AT_EXCHANGE, 1, DO_HALF, "error", "after 200 of the 480 bytes", 0},
    {"exchange-garbage", AT_EXCHANGE, 1, DO_GARBAGE, "error", "cell [1][7] holds 5", 0},
    {"exchange-stall", AT_EXCHANGE, 1, DO_STALL, "timeout", "within 1000 ms", 0},
    {"move-close", AT_MOVE, 1, DO_CLOSE, "error", "after 0 of the 480 bytes of submission", 0},
    {"move-half", AT_MOVE, 3, DO_HALF, "error", "after 200 of the 480 bytes of submission", 0},
    {"move-garbage", AT_MOVE, 5, DO_GARBAGE, "error", "malformed submission table", 0},
    {"move-stall", AT_MOVE, 2, DO_STALL, "timeout", "no decision within 1000 ms", 0},
    {"move-half-stall", AT_MOVE, 4, DO_HALF_STALL, "timeout",
     "no whole submission table within the limit (200 of 480 bytes)", 0},
    {"nonmover-close", AT_NONMOVER, 4, DO_CLOSE, "error", "disconnected", 0},
};

/* A client's table that is a set of cards but no legal action: under illegal_policy
 * "substitute" counted (the first described) and replaced as the server does (a play by a pass,
 * answered 8; a wrong exchange by the strongest cards), the game going on with no fault; under
 * "forfeit" a fault of kind illegal, the seat the fallback's to the end. */
static void illegal_case(enum at at, int nth, const char *policy, const char *says) {
  char spec[2048], out[64];
  snprintf(spec, sizeof spec, SPEC_FAULTS, 1000, "forfeit");
  if (!strcmp(policy, "forfeit")) { /* illegal_policy too */
    char *p = strstr(spec, "\"substitute\"");
    memmove(p + 9, p + 12, strlen(p + 12) + 1);
    memcpy(p, "\"forfeit\"", 9);
  }
  write_file(W("illegal.json"), spec);
  snprintf(out, sizeof out, "illegal-%s-%d-%s", at == AT_MOVE ? "move" : "give", nth, policy);
  int port;
  pid_t server = serve_start(W("illegal.json"), W(out), NULL, &port);
  if (!port) return;
  illegal_answer = -1;
  ex_before = ex_after = 0;
  int seen = bad_client(port, at, nth, DO_ILLEGAL, 0);
  if (seen < nth) TK_FAILF("%s: the client met %d events, not %d", out, seen, nth);
  TK_EQ(taikai_wait(server), 0, err_buf);
  int forfeit = !strcmp(policy, "forfeit");
  if (at == AT_MOVE) TK_EQ(illegal_answer, forfeit ? -1 : TK_UECDA_REJECTED, "the answer");
  if (at == AT_EXCHANGE && !forfeit && ex_before != 0 &&
      (ex_before & ~ex_after) != tk_daifugo_strongest(ex_before, ex_give))
    TK_FAILF("%s: the hand %llx after the exchange is not %llx less its %d strongest cards", out,
             (unsigned long long)ex_after, (unsigned long long)ex_before, ex_give);
  if (at == AT_EXCHANGE && !forfeit && (!ex_before || !ex_after))
    TK_FAILF("%s: the client saw no hand before or after its exchange", out);
  char path[128];
  snprintf(path, sizeof path, "%s/games.jsonl", out);
  json_t *lines[8];
  int n = load_lines(W(path), lines, 8);
  TK_EQ(n, 3, "units written");
  for (int i = 0; i < n; i++) {
    json_t *s0 = json_array_get(json_object_get(lines[i], "seats"), 0);
    json_t *fi = json_object_get(s0, "fault_info");
    int illegal = (int)json_integer_value(json_object_get(s0, "illegal"));
    const char *first = json_string_value(json_object_get(s0, "illegal_first"));
    const char *kind = json_string_value(json_object_get(fi, "kind"));
    const char *detail = json_string_value(json_object_get(fi, "detail"));
    if (i == 0) {
      TK_EQ(illegal, 1, "the unit's illegal actions");
      if (!first || !strstr(first, says) || !strstr(first, "not legal"))
        TK_FAILF("%s: illegal_first '%s' does not say '%s'", out, first ? first : "(none)", says);
    } else {
      TK_EQ(illegal, 0, "a later unit's illegal actions");
    }
    if (forfeit) {
      if (!kind || strcmp(kind, "illegal"))
        TK_FAILF("%s: unit %d: fault kind %s, expected illegal", out, i, kind ? kind : "(none)");
      if (!detail || !strstr(detail, says))
        TK_FAILF("%s: unit %d: fault detail '%s' does not say '%s'", out, i,
                 detail ? detail : "(none)", says);
      TK_EQ(json_integer_value(json_object_get(s0, "daihinmin")), 6, "forfeit: every game last");
    } else if (fi) {
      TK_FAILF("%s: unit %d: a fault under illegal_policy substitute", out, i);
    }
    TK_EQ(json_integer_value(json_object_get(s0, "games")), 6, "a whole block");
  }
  free_lines(lines, n);
}

static void test_illegal(void) {
  illegal_case(AT_MOVE, 2, "substitute", ": ");   /* "game 0, player 0: ...: H3, not legal" */
  illegal_case(AT_EXCHANGE, 1, "substitute", "give ");
  illegal_case(AT_MOVE, 2, "forfeit", ", not legal");
}

static void test_faults(void) {
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) run_fault_case(&CASES[i], "forfeit");
}

static void test_fault_abort(void) {
  run_fault_case(&CASES[8], "abort"); /* garbage: the run stops after that block */
  run_fault_case(&CASES[1], "abort"); /* in the second block: the first one kept */
}

/* A connection that fails before its profile is no seat's fault: the seat waits for the next
 * connection; one that says nothing is closed when --handshake-ms passes. */
static void test_profile(void) {
  char spec[2048];
  snprintf(spec, sizeof spec, SPEC_FAULTS, 1000, "forfeit");
  write_file(W("profile.json"), spec);
  int port;
  const char *args[] = {"serve", W("profile.json"), "--port", "0", "--out", W("profile"),
                        "--quiet", "--handshake-ms", "500", NULL};
  pid_t server = serve_start_args(args, &port);
  if (!port) return;
  bad_client(port, AT_PROFILE, 1, DO_HALF, 0);    /* 200 bytes, then closed */
  bad_client(port, AT_PROFILE, 1, DO_STALL, 3000); /* nothing within the handshake limit */
  int fd = connect_to(port);                      /* another protocol */
  tk_uecda_table t;
  memset(&t, 0, sizeof t);
  t.c[0][0] = 20060;
  tk_uecda_send_table(fd, &t);
  int32_t v;
  TK_EQ(tk_uecda_recv_int(fd, &v, 5000, NULL), -1, "protocol 20060 gets no player id");
  close(fd);
  if (bad_client(port, AT_MOVE, 1000000, DO_CLOSE, 0) < 18)
    TK_FAILF("a good client did not play the run's 18 games to the end");
  TK_EQ(taikai_wait(server), 0, err_buf);
  if (!strstr(err_buf, "sent 200 of the 480 bytes of its profile table"))
    TK_FAILF("no notice of the half profile: %s", err_buf);
  if (!strstr(err_buf, "sent protocol 20060, not 20070")) TK_FAILF("no notice: %s", err_buf);
  if (!strstr(err_buf, "sent 0 of the 480 bytes of its profile table within the handshake limit "
                       "(500 ms): closed"))
    TK_FAILF("no notice of the silent connection: %s", err_buf);
  char text[1 << 15];
  slurp(W("profile/games.jsonl"), text, sizeof text);
  if (strstr(text, "fault")) TK_FAILF("a fault recorded: %s", text);
}

/* ------------------------------------------------------------------ silent connections */

/* Five external seats, two blocks of 10 games; a client's limit per message is 10 s, so a
 * server that gives each silent connection that limit in turn holds 50 of them for 500 s. */
static const char *SPEC_SILENT =
    "{\"game\": \"daifugo\", \"seed\": 3, \"walls\": 2, \"format\": \"seated\",\n"
    " \"rules\": {\"block_games\": 10}, \"time_limit_ms\": 10000,\n"
    " \"illegal_policy\": \"substitute\",\n"
    " \"agents\": [{\"external\": true, \"label\": \"e0\"}, {\"external\": true, \"label\": \"e1\"},\n"
    "   {\"external\": true, \"label\": \"e2\"}, {\"external\": true, \"label\": \"e3\"},\n"
    "   {\"external\": true, \"label\": \"e4\"}]}\n";

enum { SILENT_N = 50, SAFETY_MS = 60000 };

/* A loopback connection to `port` that says nothing: a non-blocking connect, left in progress
 * if it is (the server's backlog decides when it completes). */
static int silent_open(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || (connect(fd, (struct sockaddr *)&a, sizeof a) && errno != EINPROGRESS)) {
    if (fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

/* The local "127.0.0.1:PORT" of a connection, as the server names its peer. */
static void local_addr(int fd, char *out, size_t cap) {
  struct sockaddr_in a;
  socklen_t al = sizeof a;
  memset(&a, 0, sizeof a);
  getsockname(fd, (struct sockaddr *)&a, &al);
  snprintf(out, cap, "127.0.0.1:%u", (unsigned)ntohs(a.sin_port));
}

/* Waits (at most `safety_ms`, a safety bound only) until the server has closed each of the n
 * connections (EOF or a reset), counting the bytes each received in got[] (a player id would be
 * 4). Returns how many were closed. */
static int wait_closed(const int *fd, int n, int safety_ms, size_t *got) {
  int closed = 0, done[128] = {0};
  int64_t end = now_ms() + safety_ms;
  for (int i = 0; i < n; i++) got[i] = 0;
  while (closed < n && now_ms() < end) {
    struct pollfd p[128];
    for (int i = 0; i < n; i++) p[i] = (struct pollfd){.fd = done[i] ? -1 : fd[i], .events = POLLIN};
    if (poll(p, (nfds_t)n, 100) <= 0) continue;
    for (int i = 0; i < n; i++) {
      if (done[i] || !p[i].revents) continue;
      char buf[64];
      ssize_t r = recv(fd[i], buf, sizeof buf, MSG_DONTWAIT);
      if (r > 0) got[i] += (size_t)r;
      else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        done[i] = 1;
        closed++;
      }
    }
  }
  return closed;
}

/* A child's exit status, or -1000 (the child killed) when it has not ended within safety_ms. */
static int wait_within(pid_t pid, int safety_ms) {
  int64_t end = now_ms() + safety_ms;
  for (;;) {
    int st = 0;
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
    if (w < 0 && errno != EINTR) return -1001;
    if (now_ms() >= end) {
      kill(pid, SIGKILL);
      waitpid(pid, NULL, 0);
      return -1000;
    }
    sleep_ms(10);
  }
}

/* Five Python clients play the run's 20 games on `port`: each must end within the safety
 * bound with its games, and together they hold the five player ids. */
static void five_clients(int port, const char *tag) {
  pid_t c[5];
  char log[5][64];
  for (int i = 0; i < 5; i++) {
    snprintf(log[i], sizeof log[i], "%s-client-%d.txt", tag, i);
    char name[16];
    snprintf(name, sizeof name, "py%d", i);
    c[i] = python_client(port, name, 20, W(log[i]));
  }
  int ids = 0;
  for (int i = 0; i < 5; i++) {
    int st = wait_within(c[i], 2 * SAFETY_MS);
    char text[4096];
    slurp(W(log[i]), text, sizeof text);
    int me = -1, games = 0;
    const char *p = strstr(text, "player ");
    if (st || !p || sscanf(p, "player %d: %d games", &me, &games) != 2 || games != 20 ||
        me < 0 || me > 4)
      TK_FAILF("%s: python client %d: exit %d%s: %s", tag, i, st,
               st == -1000 ? " (killed: no end within the safety bound)" : "", text);
    else
      ids |= 1 << me;
  }
  TK_EQ(ids, 0x1f, "the five player ids, one to each real client");
}

/* 50 connections that say nothing, then 45 more and 5 that send half a profile beside five
 * real clients: the silent ones are closed, each named by its address, and take no seat; the
 * real clients take the five seats and play the run, whose outputs are the bytes of the same
 * run without the silent connections. */
static void test_silent_connections(void) {
  if (!have_python()) {
    printf("\n  SKIPPED: python3 is not installed: the silent-connection test needs it\n");
    return;
  }
  write_file(W("silent.json"), SPEC_SILENT);
  int port;
  pid_t server = serve_start(W("silent.json"), W("silent-base"), NULL, &port);
  if (!port) return;
  five_clients(port, "silent-base");
  TK_EQ(taikai_wait(server), 0, err_buf);

  server = serve_start(W("silent.json"), W("silent-run"), NULL, &port);
  if (!port) return;
  /* first alone: each is closed once its handshake limit passes, not one after the other */
  int fd[2 * SILENT_N];
  char addr[2 * SILENT_N][32];
  size_t got[2 * SILENT_N];
  for (int i = 0; i < SILENT_N; i++) {
    fd[i] = silent_open(port);
    CU_ASSERT_FATAL(fd[i] >= 0);
  }
  int closed = wait_closed(fd, SILENT_N, SAFETY_MS, got);
  for (int i = 0; i < SILENT_N; i++) local_addr(fd[i], addr[i], sizeof addr[i]);
  if (closed < SILENT_N) {
    TK_FAILF("only %d of %d silent connections were closed within the safety bound (%d s)",
             closed, SILENT_N, SAFETY_MS / 1000);
    kill(server, SIGKILL);
    taikai_wait(server);
    for (int i = 0; i < SILENT_N; i++) close(fd[i]);
    return;
  }
  /* then beside the real clients, 5 of them sending 200 of their profile's 480 bytes */
  for (int i = SILENT_N; i < 2 * SILENT_N; i++) {
    if (i < 2 * SILENT_N - 5) {
      fd[i] = silent_open(port);
    } else {
      fd[i] = connect_to(port);
      uint8_t half[TK_UECDA_TABLE_BYTES] = {0, 0, 0x4e, 0x66}; /* 20070 */
      if (fd[i] >= 0) tk_uecda_send(fd[i], half, 200);
    }
    CU_ASSERT_FATAL(fd[i] >= 0);
    local_addr(fd[i], addr[i], sizeof addr[i]);
  }
  five_clients(port, "silent-run");
  int st = wait_within(server, SAFETY_MS);
  slurp(W("stderr.txt"), err_buf, sizeof err_buf);
  TK_EQ(st, 0, err_buf);
  closed = wait_closed(fd + SILENT_N, SILENT_N, SAFETY_MS, got + SILENT_N);
  TK_EQ(closed, SILENT_N, "the second 50 connections closed");
  for (int i = 0; i < 2 * SILENT_N; i++) {
    if (got[i]) TK_FAILF("connection %d (%s) received %zu bytes (a player id?)", i, addr[i], got[i]);
    char needle[160];
    if (i < SILENT_N)
      snprintf(needle, sizeof needle, "a client from %.31s sent 0 of the 480 bytes of its profile "
               "table within the handshake limit", addr[i]);
    else
      snprintf(needle, sizeof needle, "a client from %.31s ", addr[i]);
    if (!strstr(err_buf, needle)) TK_FAILF("the server did not say '%s': %s", needle, err_buf);
    close(fd[i]);
  }
  if (!strstr(err_buf, "sent 200 of the 480 bytes of its profile table"))
    TK_FAILF("no half profile noted: %s", err_buf);
  if (!same_bytes(W("silent-base/games.jsonl"), W("silent-run/games.jsonl")))
    TK_FAILF("games.jsonl differs from the run without silent connections");
  if (!same_bytes(W("silent-base/summary.json"), W("silent-run/summary.json")))
    TK_FAILF("summary.json differs from the run without silent connections");
  json_t *lines[4];
  int n = load_lines(W("silent-run/games.jsonl"), lines, 4);
  TK_EQ(n, 2, "two blocks");
  for (int i = 0; i < n; i++) {
    char *text = json_dumps(lines[i], 0);
    if (!text || strstr(text, "fault")) TK_FAILF("unit %d has a fault: %s", i, text);
    free(text);
  }
  free_lines(lines, n);
}

/* Bad command lines and specs are refused before listening. */
static void test_refusals(void) {
  write_file(W("run-ext.json"),
             "{\"game\": \"daifugo\", \"format\": \"seated\", \"agents\": ["
             "{\"external\": true, \"label\": \"a\"}, {\"plugin\": \"daifugo_pass\", \"label\": \"b\"},"
             "{\"plugin\": \"daifugo_pass\", \"label\": \"c\"}, {\"plugin\": \"daifugo_pass\", \"label\": \"d\"},"
             "{\"plugin\": \"daifugo_pass\", \"label\": \"e\"}]}");
  const char *run[] = {"run", W("run-ext.json"), "--out", W("run-ext"), NULL};
  TK_EQ(taikai(run), 2, "taikai run refuses external seats");
  if (!strstr(err_buf, "agent 'a' (agents[0]) is external")) TK_FAILF("%s", err_buf);
  const char *games[] = {"serve", W("run-ext.json"), "--games", "150", "--port", "0", NULL};
  TK_EQ(taikai(games), 2, "--games not a multiple of the block");
  if (!strstr(err_buf, "--games 150 is not a multiple of the block's 100")) TK_FAILF("%s", err_buf);
  write_file(W("dup.json"),
             "{\"game\": \"daifugo\", \"format\": \"duplicate\", \"agents\": ["
             "{\"plugin\": \"daifugo_pass\"}, {\"plugin\": \"daifugo_greedy\"}]}");
  const char *dup[] = {"serve", W("dup.json"), NULL};
  TK_EQ(taikai(dup), 2, "serve needs the seated format");
  if (!strstr(err_buf, "format \"duplicate\"")) TK_FAILF("%s", err_buf);
  write_file(W("badext.json"),
             "{\"game\": \"daifugo\", \"format\": \"seated\", \"agents\": ["
             "{\"external\": true, \"plugin\": \"daifugo_pass\", \"label\": \"x\"}]}");
  const char *bad[] = {"serve", W("badext.json"), NULL};
  TK_EQ(taikai(bad), 2, "an external agent with a plugin");
  if (!strstr(err_buf, "agents[0].external': an external agent has no plugin"))
    TK_FAILF("%s", err_buf);
  write_file(W("three.json"),
             "{\"game\": \"daifugo\", \"format\": \"seated\", \"agents\": ["
             "{\"plugin\": \"daifugo_pass\", \"label\": \"a\"}, {\"plugin\": \"daifugo_pass\", \"label\": \"b\"},"
             "{\"plugin\": \"daifugo_pass\", \"label\": \"c\"}]}");
  const char *three[] = {"run", W("three.json"), "--out", W("three"), NULL};
  TK_EQ(taikai(three), 2, "seated needs one agent per seat");
  if (!strstr(err_buf, "format 'seated' puts agents[i] in seat i: it needs exactly 5 agents, got 3"))
    TK_FAILF("%s", err_buf);
  const char *solo[] = {"client", "greedy", "--port", "1", NULL};
  TK_EQ(taikai(solo), 2, "taikai client refuses another game's plugin");
  if (!strstr(err_buf, "refused") || !strstr(err_buf, "daifugo")) TK_FAILF("%s", err_buf);
  const char *params[] = {"client", "daifugo_greedy", "--params", "[1]", NULL};
  TK_EQ(taikai(params), 2, "--params not an object");
  if (!strstr(err_buf, "--params expects a JSON object, got '[1]'")) TK_FAILF("%s", err_buf);
  const char *port[] = {"serve", W("run-ext.json"), "--port", "70000", NULL};
  TK_EQ(taikai(port), 2, "--port out of range");
  if (!strstr(err_buf, "--port: '70000' is not a whole number from 0 to 65535")) TK_FAILF("%s", err_buf);
  const char *hs[] = {"serve", W("run-ext.json"), "--handshake-ms", "0", NULL};
  TK_EQ(taikai(hs), 2, "--handshake-ms 0");
  if (!strstr(err_buf, "--handshake-ms: '0' is not a whole number from 1 to 3600000"))
    TK_FAILF("%s", err_buf);
}

/* ------------------------------------------------------------------ taikai client */

/* The decisions of run folder `dir` (`taikai records --dump`, saved as W(name)) into `l`, a
 * JSON object each; the count, or -1. */
static int dump_records(const char *dir, const char *name, json_t **l, int max) {
  const char *a[] = {"records", dir, "--dump", NULL};
  if (taikai(a) != 0 || rename(W("stdout.txt"), W(name))) {
    TK_FAILF("taikai records %s --dump: %s", dir, err_buf);
    return -1;
  }
  return load_lines(W(name), l, max);
}

/* Our greedy through `taikai client` plays exactly as the same greedy inside `taikai run`:
 * the views and legal lists it rebuilds from the tables lead it to the same moves, so the two
 * runs' games.jsonl are the same bytes, and the server records the client's decisions as the
 * worker recorded the plugin's. */
static void test_bridge_same_games(void) {
  static const char *fmt =
      "{\"game\": \"daifugo\", \"seed\": 5, \"walls\": 2, \"format\": \"seated\",\n"
      " \"rules\": {\"block_games\": 10},\n"
      " \"agents\": [%s,\n"
      "   {\"plugin\": \"daifugo_random\", \"label\": \"r1\"},\n"
      "   {\"plugin\": \"daifugo_random\", \"label\": \"r2\"},\n"
      "   {\"plugin\": \"daifugo_greedy\", \"label\": \"g3\"},\n"
      "   {\"plugin\": \"daifugo_random\", \"label\": \"r4\"}]}\n";
  char spec[2048];
  snprintf(spec, sizeof spec, fmt, "{\"external\": true, \"label\": \"seat0\"}");
  write_file(W("bridge.json"), spec);
  snprintf(spec, sizeof spec, fmt, "{\"plugin\": \"daifugo_greedy\", \"label\": \"seat0\"}");
  write_file(W("bridge-run.json"), spec);
  int port;
  const char *args[] = {"serve", W("bridge.json"), "--port", "0", "--out", W("bridge-serve"),
                        "--quiet", "--records", NULL};
  pid_t server = serve_start_args(args, &port);
  if (!port) return;
  pid_t c = bridge(port, "daifugo_greedy", W("bridge-client.txt"));
  int st = wait_status(c);
  char text[4096];
  slurp(W("bridge-client.txt"), text, sizeof text);
  if (st || !strstr(text, "player 0 (daifugo_greedy): 20 games"))
    TK_FAILF("taikai client exited %d: %s", st, text);
  if (strstr(text, "refused")) TK_FAILF("the server refused a play: %s", text);
  TK_EQ(taikai_wait(server), 0, err_buf);
  const char *run[] = {"run",     W("bridge-run.json"), "--out", W("bridge-run"),
                       "--quiet", "--records",           NULL};
  TK_EQ(taikai(run), 0, err_buf);
  if (!same_bytes(W("bridge-serve/games.jsonl"), W("bridge-run/games.jsonl")))
    TK_FAILF("greedy through taikai client played other games than in taikai run");
  /* the client's decisions are recorded as the server saw them: taikai run's records, but
   * for the order of the daifugo's two exchanged cards (one table holds both; the server
   * applies the lower bit first, greedy gives its weaker card first) */
  static json_t *sv[4096], *rn[4096];
  int ns = dump_records(W("bridge-serve"), "bridge-serve.dump", sv, 4096);
  int nr = dump_records(W("bridge-run"), "bridge-run.dump", rn, 4096);
  TK_EQ(ns, nr, "decisions recorded, served and run");
  int client = 0, swapped = 0;
  for (int i = 0; i < ns && i < nr; i++) {
    const char *ag = json_string_value(json_object_get(sv[i], "agent"));
    client += ag && !strcmp(ag, "seat0");
    if (json_equal(sv[i], rn[i])) continue;
    const char *view = json_string_value(json_object_get(sv[i], "view"));
    if (i + 1 < ns && view && strstr(view, "gives 2") &&
        json_equal(json_object_get(sv[i], "view"), json_object_get(rn[i], "view")) &&
        json_equal(json_object_get(sv[i], "action"), json_object_get(rn[i + 1], "action")) &&
        json_equal(json_object_get(sv[i + 1], "action"), json_object_get(rn[i], "action"))) {
      swapped++;
      client++;
      i++;
      continue;
    }
    TK_FAILF("served records differ from taikai run's at decision %d: %s", i, view ? view : "?");
    break;
  }
  if (client < 100) TK_FAILF("only %d decisions of the client's seat recorded", client);
  free_lines(sv, ns);
  free_lines(rn, nr);
}

/* Five of our agents through `taikai client` fill the contest's five seats. */
static void test_bridge_five(void) {
  int port;
  pid_t server = serve_start(TK_SOURCE_DIR "/arenas/daifugo/serve-5-external.json",
                             W("bridge5"), "100", &port);
  if (!port) return;
  static const char *agents[5] = {"daifugo_greedy", "daifugo_random", "daifugo_pass",
                                  "daifugo_greedy", "daifugo_random"};
  pid_t c[5];
  char log[5][64];
  for (int i = 0; i < 5; i++) {
    snprintf(log[i], sizeof log[i], "bridge5-%d.txt", i);
    c[i] = bridge(port, agents[i], W(log[i]));
  }
  for (int i = 0; i < 5; i++) {
    int st = wait_status(c[i]);
    char text[4096];
    slurp(W(log[i]), text, sizeof text);
    if (st || !strstr(text, "100 games")) TK_FAILF("client %d exited %d: %s", i, st, text);
    if (strstr(text, "refused")) TK_FAILF("client %d: the server refused a play: %s", i, text);
  }
  TK_EQ(taikai_wait(server), 0, err_buf);
  char text[1 << 15];
  slurp(W("bridge5/games.jsonl"), text, sizeof text);
  if (!strstr(text, "\"games\":100") || strstr(text, "fault") || strstr(text, "illegal"))
    TK_FAILF("bridge5: %s", text);
}

int main(void) {
  if (e2e_begin(WORK)) return 1;
  static CU_TestInfo tests[] = {
      {"codec: tables, submissions, matches", test_codec},
      {"refusals before listening", test_refusals},
      {"profiles: bad connections are not seats", test_profile},
      {"five Python clients, 200 games", test_python_clients},
      {"silent connections hold no seat and no handshake", test_silent_connections},
      {"a capture parsed by the message sequence", test_capture},
      {"faults at every point (forfeit)", test_faults},
      {"faults under the abort policy", test_fault_abort},
    {"illegal tables: substituted and counted, or forfeited", test_illegal},
      {"taikai client: greedy plays as in taikai run", test_bridge_same_games},
      {"taikai client: five agents fill the contest's seats", test_bridge_five},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("uecda", tests);
}
