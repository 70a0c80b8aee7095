/* harness/games/daifugo/serve.c — `taikai serve SPEC [--port P] [--host H] [--games N] ...`: a UECda
 * server (protocol 20070, docs/uecda.md). Clients connect for the spec's external seats, plugins
 * play the others, and the blocks of the tournament are played through the daifugo engine, the
 * same deals as `taikai run` for the same seed, into the same outputs: the command is `taikai
 * run`'s (tk_run_tournament: options, the output folder's new / continue / refuse decision,
 * --logs, --records, the table), with this file's play hook in place of the worker pool.
 *
 * The clients' sockets live in this process, so units are played in order here, each by the
 * referee's loop (harness/core/loop.h) as a worker plays it: a client's seat is a remote seat
 * (its act reads the client's table), each plugin seat is isolated in a host process of its own
 * (harness/core/seat_host.h), so a plugin that hangs, crashes or runs out of memory is stopped
 * and charged as in `taikai run`, and the loop's observer sends the tables the protocol sends
 * around each decision. This file holds only the protocol. A fault of a seat
 * (a client that disconnects, passes the time limit or sends a table that is no set of cards; a
 * plugin's crash, exit, time-out, error or illegal action under "forfeit") puts the fallback in
 * that seat from that decision to the end of the unit (no replay: the clients have seen the
 * games), with the forfeit result. A client's connection is closed and its seat stays the
 * fallback's to the end of the run (every later unit carries the fault); a plugin's host is
 * started again for the next unit, as the pool replaces a worker. */
#include <arpa/inet.h>
#include <errno.h>
#include <libgen.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daifugo_cmd.h"
#include "confine.h"
#include "lobby.h"
#include "loop.h"
#include "output.h"
#include "runargs.h"
#include "seat_host.h"
#include "taikai/daifugo.h"
#include "uecda.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai serve SPEC [--port P] [--host H] [--games N | --walls N] [--seed S]\n"
          "                         [--out DIR] [--resume] [--logs[=gz|run|run,gz]] [--records]\n"
          "                         [--quiet] [--no-html] [--handshake-ms MS]\n"
          "\n"
          "A UECda server (protocol 20070, as the contest's reference server speaks it; see\n"
          "docs/uecda.md). SPEC is a daifugo tournament with format \"seated\": agents[i] is\n"
          "player id i. Agents written {\"external\": true, \"label\": ...} are clients: the k-th\n"
          "connection to send a good profile takes the k-th external seat and is told its\n"
          "player id. The other seats are plugins, each played in a process of its own. The\n"
          "games are the spec's blocks, dealt as `taikai run` deals them, and the outputs are\n"
          "those of `taikai run`: spec.json, games.jsonl, summary.json, report.md and\n"
          "report.html in the output folder.\n"
          "\n"
          "  --port P    TCP port (default 42485; 0: any free port)\n"
          "  --host H    address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)\n"
          "  --games N   games to play: a multiple of the block (rules.block_games, 100), or\n"
          "              fewer than one block (then one block of N games)\n"
          "  --walls N   blocks to play (overrides \"walls\")\n"
          "  --seed S    tournament seed (overrides \"seed\")\n"
          "  --out DIR   output folder (overrides \"output\")\n"
          "  --resume    continue the interrupted run in the output folder; an error if the\n"
          "              folder holds no run\n"
          "  --logs      also write every game as JSON lines, one file per block:\n"
          "              DIR/logs/unit-NNNNNNNN.jsonl (docs/daifugo.md; taikai replay checks them)\n"
          "  --logs=gz   the same, gzip-compressed (also --logs-gzip)\n"
          "  --logs=run  one file for the run, block after block: DIR/logs/run.jsonl\n"
          "              (--logs=run,gz: DIR/logs/run.jsonl.gz; taikai run --help)\n"
          "  --records   also write every seat's decisions to DIR/records.tkr (taikai\n"
          "              records DIR), a client's as the server saw them\n"
          "  --quiet     no progress on stderr\n"
          "  --no-html   no report.html\n"
          "  --handshake-ms MS\n"
          "              a connection's limit for sending its profile table, counted from its\n"
          "              accept (default 5000). Connections are accepted and read side by side,\n"
          "              so a silent or slow one never delays another's handshake; one without\n"
          "              a whole 20070 profile in time is closed, naming its address, and takes\n"
          "              no seat\n"
          "\n"
          "Once listening, it prints \"taikai serve: listening on HOST:PORT\" on stderr (the port\n"
          "bound, also with --port 0). A client that disconnects, sends no whole table within the\n"
          "spec's time_limit_ms, or sends a table that is no set of cards (a cell of rows 0-4\n"
          "other than 0, 1, 2; a 1 where no card is; two jokers) is a fault of its seat (in\n"
          "games.jsonl and summary.json); its connection is closed and the referee's fallback\n"
          "plays the seat to the end. A plugin seat that crashes, exits, passes the time limits\n"
          "(time_limit_ms, game_time_limit_ms) or the memory limit, or returns an error is\n"
          "stopped and its fault recorded as `taikai run` records it; the fallback plays it to\n"
          "the end of that block and a new process plays it from the next. An illegal play is\n"
          "answered 8 and counted as a pass, as the server does (illegal_policy \"forfeit\" makes\n"
          "it a fault instead). fault_policy \"abort\" ends the run after the block of the first\n"
          "fault.\n"
          "\n"
          "An output folder holding an interrupted run of the same tournament is continued, as\n"
          "by `taikai run`: the blocks already in its games.jsonl are kept (never played to the\n"
          "clients again), the clients connect again and play the others; a folder holding\n"
          "another tournament's run is refused. SIGINT or SIGTERM stops the run: finished blocks\n"
          "are kept and a partial summary is written.\n"
          "\n"
          "Exit status: 0 done; 1 the run failed; 2 bad usage, or a spec, plugin, port or output\n"
          "folder refused; 3 stopped by the fault policy \"abort\"; 130 / 143 stopped by SIGINT /\n"
          "SIGTERM (3, 130, 143: partial results saved, run the same command again to finish).\n");
}

/* ------------------------------------------------------------------ the server's state */

typedef struct seat {
  int external;        /* a client plays it */
  int fd;              /* its connection, -1 when closed (or a plugin seat) */
  char name[TK_UECDA_NAME_MAX + 1]; /* the profile's name */
  int dead;            /* faulted earlier: the fallback plays it for the rest of the run */
  tk_fault dead_fault; /* that fault, with the unit it happened in */
  uint64_t dead_unit;
} seat;

typedef struct serve {
  const tk_run *r;
  const char *host;        /* --host, --port */
  uint64_t port;
  uint64_t games;          /* --games, 0: none */
  uint64_t handshake_ms;   /* --handshake-ms: a connection's limit for its profile */
  int listen_fd;
  int accepted;            /* every external seat has its client */
  seat seats[TK_DAIFUGO_PLAYERS];
  /* The loop (harness/core/loop.h) plays every unit: plugin seats isolated in host processes,
   * client seats remote, no replay after a fault (the clients have seen the games), and this
   * file's observer sending the tables the protocol sends. */
  tk_loop loop;
  int loop_ready;
  tk_seat_agent agents[TK_DAIFUGO_PLAYERS];
  tk_remote_seat remote;
  tk_loop_observer observer;
  uint64_t units;          /* the run's units */
  int quiet;
  /* the unit in play */
  int last_unit;           /* this unit ends the run: its last game's int is 2 */
  uint32_t announced;      /* the game whose start tables were sent */
  uint64_t pending[TK_DAIFUGO_PLAYERS]; /* the daifugo's second card to give */
  int play;                /* the decision in play is a play (not a give) */
  tk_daifugo_game before;  /* the game, the classes and the game number before it */
  uint8_t cls[TK_DAIFUGO_PLAYERS];
  uint32_t game;
} serve;

static tk_daifugo_block *block_of(serve *sv) { return sv->loop.state; }

static void close_seat(seat *st) {
  if (st->fd >= 0) close(st->fd);
  st->fd = -1;
}

/* The observer's `faulted`: a client's connection is closed (the stream cannot be trusted after
 * a stall or garbage) and its seat stays the fallback's to the end of the run. */
static void on_faulted(void *ctx, tk_loop *l, int p, const tk_fault *f) {
  serve *sv = ctx;
  seat *st = &sv->seats[p];
  if (!st->external) return;
  close_seat(st);
  st->dead = 1;
  st->dead_fault = *f;
  st->dead_unit = ((const tk_daifugo_block *)l->state)->block;
}

/* Seat p's client faults now: the decision it was at named, charged through the loop. */
static void seat_fault(serve *sv, int p, int kind, int entry, const char *detail) {
  tk_fault f;
  memset(&f, 0, sizeof f);
  f.kind = kind;
  f.entry = entry;
  if (kind == TK_FAULT_TIMEOUT) f.limit_ms = sv->r->spec.time_limit_ms;
  snprintf(f.detail, sizeof f.detail, "%s", detail);
  tk_daifugo_block *b = block_of(sv);
  tk_daifugo_view *v = sv->loop.view;
  if (tk_daifugo_to_act(b) == p && !tk_daifugo_view_of(b, p, v))
    sv->r->game->describe(v, f.decision, sizeof f.decision);
  else
    snprintf(f.decision, sizeof f.decision, "game %u, player %d", b->game, p);
  tk_loop_fault(&sv->loop, p, &f);
}

/* A failed read or write of seat p's connection: its fault. `what` names the message. */
static void io_fault(serve *sv, int p, int entry, const char *what, int reading, size_t got,
                     size_t len) {
  char detail[160];
  int e = errno;
  if (reading && e == ETIMEDOUT) {
    snprintf(detail, sizeof detail, "no whole %s within the limit (%zu of %zu bytes)", what, got,
             len);
    seat_fault(sv, p, TK_FAULT_TIMEOUT, entry, detail);
    return;
  }
  if (reading && e == ECONNRESET)
    snprintf(detail, sizeof detail, "disconnected: the connection closed after %zu of the %zu "
             "bytes of %s", got, len, what);
  else
    snprintf(detail, sizeof detail, "disconnected: %s %s failed: %s", reading ? "reading" :
             "sending", what, strerror(e));
  seat_fault(sv, p, TK_FAULT_ERROR, entry, detail);
}

static int send_table(serve *sv, int p, const tk_uecda_table *t, int entry, const char *what) {
  seat *st = &sv->seats[p];
  if (st->fd < 0) return -1;
  if (tk_uecda_send_table(st->fd, t)) {
    io_fault(sv, p, entry, what, 0, 0, TK_UECDA_TABLE_BYTES);
    return -1;
  }
  return 0;
}

static int send_int(serve *sv, int p, int32_t v, const char *what) {
  seat *st = &sv->seats[p];
  if (st->fd < 0) return -1;
  if (tk_uecda_send_int(st->fd, v)) {
    io_fault(sv, p, TK_ENTRY_ACT, what, 0, 0, TK_UECDA_INT_BYTES);
    return -1;
  }
  return 0;
}

/* Reads a submission table from seat p's client and decodes it; -1 after a fault. */
static int recv_sub(serve *sv, int p, const char *what, tk_uecda_sub *s) {
  seat *st = &sv->seats[p];
  tk_uecda_table t;
  size_t got = 0;
  if (tk_uecda_recv_table(st->fd, &t, sv->r->spec.time_limit_ms, &got)) {
    io_fault(sv, p, TK_ENTRY_ACT, what, 1, got, TK_UECDA_TABLE_BYTES);
    return -1;
  }
  tk_error e;
  tk_error_clear(&e);
  if (tk_uecda_decode(&t, s, &e)) {
    char detail[160];
    snprintf(detail, sizeof detail, "sent a malformed %s: %.100s", what, e.msg);
    seat_fault(sv, p, TK_FAULT_ERROR, TK_ENTRY_ACT, detail);
    return -1;
  }
  return 0;
}

/* The game-start tables, to each client in class order (player order in a block's first
 * game). */
static void send_start(serve *sv) {
  tk_daifugo_block *b = block_of(sv);
  int order[5];
  for (int p = 0; p < 5; p++) order[p] = p;
  if (b->cls[0] != TK_DAIFUGO_NOBODY)
    for (int p = 0; p < 5; p++) order[b->cls[p]] = p;
  for (int k = 0; k < 5; k++) {
    int p = order[k];
    if (sv->seats[p].fd < 0) continue;
    tk_uecda_table t;
    tk_uecda_start_table(b, p, &t);
    send_table(sv, p, &t, TK_ENTRY_BEGIN, "game-start table");
  }
}

/* ------------------------------------------------------------------ a client's decisions */

/* The GIVE of `card` in the exchange list. */
static int give_of(const tk_daifugo_legal *l, uint64_t card, tk_daifugo_move *mv) {
  for (int i = 0; i < l->n; i++)
    if (l->a[i].cards == card) {
      *mv = l->a[i];
      return 0;
    }
  return -1;
}

/* A client's exchange: the daifugo's table gives two cards (applied one at a time: the second
 * waits in sv->pending), the fugo's one. Cards not held or the wrong count are an illegal
 * action, replaced by the strongest, as the server does. */
static int remote_exchange(serve *sv, int p, const tk_daifugo_legal *legal, tk_daifugo_move *mv,
                           char *what, size_t cap) {
  if (sv->pending[p]) {
    uint64_t c = sv->pending[p];
    sv->pending[p] = 0;
    give_of(legal, c, mv);
    return TK_REMOTE_CHOSEN;
  }
  tk_daifugo_block *b = block_of(sv);
  const tk_daifugo_view *v = sv->loop.view;
  int k = v->to_give;
  tk_uecda_sub s;
  if (recv_sub(sv, p, "exchange table", &s)) return TK_REMOTE_CHOSEN; /* charged */
  uint64_t hand = b->g.hand[p], cards = s.cards;
  int rc = TK_REMOTE_CHOSEN;
  if (s.n != k || (cards & ~hand)) {
    char text[120];
    tk_daifugo_cards_str(cards, text, sizeof text);
    snprintf(what, cap, "give %s (%d of %d cards%s)", s.n ? text : "nothing", s.n, k,
             cards & ~hand ? ", not all held" : "");
    cards = tk_daifugo_strongest(hand, k);
    rc = TK_REMOTE_ILLEGAL;
  }
  uint64_t first = cards & -cards;
  if (k == 2) sv->pending[p] = cards & ~first;
  give_of(legal, first, mv);
  return rc;
}

/* A client's play: its submission matched against the legal list, answered 9 or 8; one that
 * matches no legal play is an illegal action, counted as a pass as the server does (answered 8
 * when illegal_policy lets the game go on). */
static int remote_play(serve *sv, int p, const tk_daifugo_legal *legal, tk_daifugo_move *mv,
                       char *what, size_t cap) {
  tk_uecda_sub s;
  if (recv_sub(sv, p, "submission table", &s)) return TK_REMOTE_CHOSEN; /* charged */
  int i = tk_uecda_match(&s, legal);
  if (i < 0) {
    char text[120];
    tk_daifugo_cards_str(s.cards, text, sizeof text);
    snprintf(what, cap, "%s%s", text, s.jcell >= 0 ? " (a joker placed)" : "");
    *mv = legal->a[0];
    if (sv->r->spec.illegal_policy == TK_ILLEGAL_SUBSTITUTE)
      send_int(sv, p, TK_UECDA_REJECTED, "answer");
    return TK_REMOTE_ILLEGAL;
  }
  *mv = legal->a[i];
  int accepted = mv->kind != TK_DAIFUGO_PASS || legal->lead;
  send_int(sv, p, accepted ? TK_UECDA_ACCEPTED : TK_UECDA_REJECTED, "answer");
  return TK_REMOTE_CHOSEN;
}

/* The remote seats' act (loop.h): a client's decision. */
static int remote_act(void *ctx, tk_loop *l, int p, void *action, char *what, size_t cap,
                      tk_error *err) {
  (void)err;
  serve *sv = ctx;
  const tk_daifugo_legal *legal = l->legal;
  return legal->decision == TK_DAIFUGO_DECIDE_PLAY ? remote_play(sv, p, legal, action, what, cap)
                                                   : remote_exchange(sv, p, legal, action, what,
                                                                     cap);
}

/* ------------------------------------------------------------------ what the clients are told */

/* Before each decision: a new game's start tables, and before a play every client's hand
 * table; the game as it stands is kept for the field table. */
static int on_decision(void *ctx, tk_loop *l, int p, tk_error *err) {
  (void)p;
  serve *sv = ctx;
  if (tk_run_stop_signal)
    return tk_error_set(err, TK_ESTATE, -1, "interrupted by signal %d", (int)tk_run_stop_signal);
  tk_daifugo_block *b = l->state;
  if (b->game != sv->announced) {
    send_start(sv);
    sv->announced = b->game;
  }
  sv->play = ((const tk_daifugo_legal *)l->legal)->decision == TK_DAIFUGO_DECIDE_PLAY;
  if (!sv->play) return 0;
  for (int q = 0; q < 5; q++) {
    if (sv->seats[q].fd < 0) continue;
    tk_uecda_table t;
    tk_uecda_hand_table(b, q, &t);
    send_table(sv, q, &t, TK_ENTRY_ACT, "hand table");
  }
  sv->before = b->g;
  memcpy(sv->cls, b->cls, sizeof sv->cls);
  sv->game = b->game;
  return 0;
}

/* After a play: the field table and the end-of-turn int (1 the game goes on, 0 it is over, 2
 * the run is over: the unit's last game in the run's last unit, or after a fault under
 * fault_policy "abort"). */
static int on_applied(void *ctx, tk_loop *l, int p, tk_error *err) {
  (void)err;
  serve *sv = ctx;
  if (!sv->play) return 0;
  tk_daifugo_block *b = l->state;
  const tk_daifugo_legal *legal = l->legal;
  tk_daifugo_move mv = *(const tk_daifugo_move *)l->action;
  int i = tk_daifugo_legal_find(legal, &mv);
  if (i >= 0) mv = legal->a[i]; /* as the legal list writes it */
  int abort_policy = sv->r->spec.fault_policy == TK_POLICY_ABORT;
  int over = b->game != sv->game || tk_daifugo_is_over(b);
  int last = over && tk_daifugo_is_over(b) &&
             (sv->last_unit || (abort_policy && tk_loop_fallback(l)));
  tk_uecda_table field;
  tk_uecda_field_table(&sv->before, sv->cls, p, &mv, &field);
  for (int q = 0; q < 5; q++) {
    if (sv->seats[q].fd < 0) continue;
    if (!send_table(sv, q, &field, TK_ENTRY_ACT, "field table"))
      send_int(sv, q, last ? TK_UECDA_ALL_OVER : over ? TK_UECDA_GAME_OVER : TK_UECDA_GO_ON,
               "end-of-turn int");
  }
  return 0;
}

/* ------------------------------------------------------------------ connections */

/* Seats a client in each external seat: the k-th connection to send a good profile (protocol
 * 20070 and a name) takes the k-th external seat, in player-id order, and is told its player
 * id. The handshakes run side by side, each within --handshake-ms (harness/games/daifugo/lobby.h). */
static int accept_clients(serve *sv, tk_error *err) {
  const tk_run *r = sv->r;
  int32_t ids[TK_DAIFUGO_PLAYERS];
  int n = 0;
  for (int p = 0; p < 5; p++)
    if (sv->seats[p].external && sv->seats[p].fd < 0) ids[n++] = p;
  tk_lobby_guest guests[TK_DAIFUGO_PLAYERS];
  int rc = tk_lobby_fill(sv->listen_fd, n, ids, (int)sv->handshake_ms, stderr, "taikai serve",
                         guests, err);
  if (rc) return rc;
  for (int k = 0; k < n; k++) {
    seat *st = &sv->seats[ids[k]];
    st->fd = guests[k].fd;
    memcpy(st->name, guests[k].name, sizeof st->name);
    if (!sv->quiet)
      fprintf(stderr, "taikai serve: player %d (agent '%s'): client \"%s\" from %s\n", (int)ids[k],
              r->spec.agents[ids[k]].label, st->name, guests[k].addr);
  }
  sv->accepted = 1;
  return 0;
}

/* Ends every plugin seat's process: asked to destroy its agent after a whole run, killed
 * after a failure or a stop. */
static void end_hosts(serve *sv, int ask) {
  if (!sv->loop_ready) return;
  if (ask) {
    tk_loop_destroy_agents(&sv->loop, TK_DAIFUGO_PLAYERS);
    return;
  }
  for (int p = 0; p < 5; p++) {
    tk_seat_agent *a = &sv->agents[p];
    if (!a->isolated) continue;
    tk_seat_host_kill(&a->host);
    tk_seat_host_free(&a->host);
    a->inst = NULL;
  }
}

/* The play hook of tk_run_execute: units in order, each played by the loop and handed to the
 * sink. A client lost in an earlier unit stays the fallback's, with its fault. */
static int serve_play(void *ctx, const tk_run *r, uint64_t first, uint64_t count, tk_sink_fn sink,
                      void *sink_ctx, tk_progress_fn progress, void *progress_ctx,
                      tk_error *err) {
  serve *sv = ctx;
  int rc = 0;
  if (!count) return 0; /* every unit was kept: no client is needed */
  if (!sv->accepted && (rc = accept_clients(sv, err))) return rc;
  sv->loop.logs_dir = r->logs_dir; /* set by tk_run_execute, after serve_hook */
  sv->loop.logs_gzip = r->logs_gzip;
  sv->loop.records = r->records;
  tk_unit_rec *rec = malloc(sizeof *rec);
  if (!rec) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN); /* a peer gone: its write fails, EPIPE */
  for (uint64_t u = first; u < first + count; u++) {
    sv->last_unit = u + 1 == sv->units;
    sv->announced = UINT32_MAX;
    memset(sv->pending, 0, sizeof sv->pending);
    unsigned fallback = 0;
    tk_fault faults[TK_DAIFUGO_PLAYERS];
    memset(faults, 0, sizeof faults);
    for (int p = 0; p < 5; p++) {
      seat *st = &sv->seats[p];
      if (!st->dead) continue;
      faults[p] = st->dead_fault;
      snprintf(faults[p].detail, sizeof faults[p].detail, "unit %llu: %.140s",
               (unsigned long long)st->dead_unit, st->dead_fault.detail);
      fallback |= 1u << p;
    }
    uint64_t wall;
    const int *seating = tk_schedule_unit(&r->sched, u, &wall);
    if ((rc = tk_loop_play(&sv->loop, u, wall, seating, fallback, faults, rec, err))) break;
    const void *records = r->records ? sv->loop.rb.packed : NULL;
    if ((rc = sink(sink_ctx, rec, records, r->records ? sv->loop.rb.packed_len : 0))) break;
    if (progress) progress(progress_ctx, u + 1 - first, count);
  }
  end_hosts(sv, !rc);
  signal(SIGPIPE, old_pipe);
  free(rec);
  return rc;
}

static int listen_on(const char *host, uint64_t port, int *fd_out, int *bound, tk_error *err) {
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  char ps[16];
  snprintf(ps, sizeof ps, "%llu", (unsigned long long)port);
  int g = getaddrinfo(host, ps, &hints, &res);
  if (g) return tk_error_set(err, TK_EINVAL, -1, "--host %s: %s", host, gai_strerror(g));
  int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
  int one = 1;
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) || listen(fd, SOMAXCONN)) {
    int e = errno;
    if (fd >= 0) close(fd);
    freeaddrinfo(res);
    return tk_error_set(err, TK_EIO, -1, "cannot listen on %s port %llu: %s", host,
                        (unsigned long long)port, strerror(e));
  }
  freeaddrinfo(res);
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  getsockname(fd, (struct sockaddr *)&ss, &sl);
  *bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                          : ((struct sockaddr_in *)&ss)->sin_port);
  *fd_out = fd;
  return 0;
}

/* tk_run_args.edit: the spec must be daifugo, seated; --games N sets N / block_games blocks, or
 * one block of N games when N is smaller. */
static int edit_spec(void *ctx, tk_spec *spec, tk_error *err) {
  serve *sv = ctx;
  if (strcmp(spec->game, "daifugo") || spec->format != TK_FORMAT_SEATED)
    return tk_error_set(err, TK_EINVAL, -1, "refused: %s: the UECda protocol plays game "
                        "\"daifugo\" with format \"seated\" (agents[i] is player id i), got game "
                        "\"%s\", format \"%s\"", spec->path, spec->game,
                        tk_format_name(spec->format));
  if (!sv->games) return 0;
  json_t *bg = json_object_get(spec->rules, "block_games");
  uint64_t block = bg && json_is_integer(bg) && json_integer_value(bg) > 0
                       ? (uint64_t)json_integer_value(bg)
                       : tk_daifugo_default_rules().block_games;
  if (sv->games < block) {
    json_object_set_new(spec->rules, "block_games", json_integer((json_int_t)sv->games));
    spec->walls = 1;
    return 0;
  }
  if (sv->games % block)
    return tk_error_set(err, TK_EINVAL, -1, "--games %llu is not a multiple of the block's %llu "
                        "games (rules.block_games)", (unsigned long long)sv->games,
                        (unsigned long long)block);
  spec->walls = sv->games / block;
  return 0;
}

/* tk_run_tournament's hook: once the output folder is accepted and locked, the server's state
 * and its socket; its play hook plays the units. */
static int serve_hook(void *ctx, tk_run *r, const char *dir, tk_run_opts *o) {
  serve *sv = ctx;
  if (!dir) return 0;
  tk_error err;
  tk_error_clear(&err);
  sv->r = r;
  if (tk_loop_init(&sv->loop, r->game)) {
    fprintf(stderr, "taikai serve: out of memory\n");
    return 1;
  }
  sv->loop_ready = 1;
  tk_confine_referee(NULL); /* the plugin seats' hosts must not reach the server's memory */
  sv->remote = (tk_remote_seat){.ctx = sv, .act = remote_act};
  sv->observer = (tk_loop_observer){.ctx = sv, .decision = on_decision, .applied = on_applied,
                                    .faulted = on_faulted};
  for (int p = 0; p < 5; p++) {
    tk_seat_agent *a = &sv->agents[p];
    a->index = p;
    a->label = r->spec.agents[p].label;
    if (r->spec.agents[p].external) {
      a->remote = &sv->remote;
    } else {
      a->desc = r->plugins[p].desc;
      a->params = r->params_text[p];
      a->isolated = 1; /* each plugin seat in a process of its own: the server holds sockets */
    }
  }
  tk_loop *l = &sv->loop;
  l->run = r;
  l->rules = r->rules;
  l->seed = r->spec.seed;
  l->illegal_policy = (int)r->spec.illegal_policy;
  l->no_replay = 1;
  l->observer = &sv->observer;
  l->agents = sv->agents;
  sv->units = tk_schedule_units(&r->sched);
  for (int p = 0; p < 5; p++) {
    sv->seats[p].fd = -1;
    sv->seats[p].external = r->spec.agents[p].external;
  }
  int bound = 0;
  if (listen_on(sv->host, sv->port, &sv->listen_fd, &bound, &err)) {
    fprintf(stderr, "taikai serve: %s\n", err.msg);
    return 1;
  }
  fprintf(stderr, "taikai serve: listening on %s:%d\n", sv->host, bound);
  fflush(stderr);
  o->jobs = 1;
  o->play = serve_play;
  o->play_ctx = sv;
  return 0;
}

/* -j and --jobs: refused (the server plays its blocks in order). */
static int no_jobs(void *dest, const char *spelling, const char *v, tk_error *err) {
  (void)dest;
  (void)v;
  return tk_error_set(err, TK_EINVAL, -1, "%s: the server plays its blocks in order in one "
                      "process (each plugin seat in a process of its own); it takes no -j",
                      spelling);
}

/* Parses serve's command line (run's options, -j refused, and its own) into a and sv: 0, 1 for
 * --help (printed), 2 on a usage error (printed). */
static int serve_args(int argc, char **argv, tk_run_args *a, serve *sv) {
  tk_opt t[TK_RUN_NOPTS + 4];
  int n = tk_run_args_table(a, t, TK_RUN_NOPTS);
  for (int k = 0; k < n; k++)
    if (!strcmp(t[k].name, "jobs"))
      t[k] = (tk_opt){.name = "jobs", .short_name = 'j', .kind = TK_OPT_CALL, .call = no_jobs,
                      .optional = 1, .help = "refused: one process plays the blocks in order"};
  const tk_opt own[] = {
      {.name = "port", .kind = TK_OPT_U64, .dest = &sv->port, .value = "P", .max = 65535,
       .help = "the port to listen on"},
      {.name = "host", .kind = TK_OPT_STRING, .dest = &sv->host, .value = "ADDR",
       .help = "the address to listen on"},
      {.name = "handshake-ms", .kind = TK_OPT_U64, .dest = &sv->handshake_ms, .value = "MS",
       .min = 1, .max = 3600000, .help = "a client's time to say its name"},
      {.name = "games", .kind = TK_OPT_U64, .dest = &sv->games, .value = "N", .min = 1,
       .max = 1000000000, .help = "games to play"},
  };
  memcpy(t + n, own, sizeof own);
  t[n + (int)(sizeof own / sizeof own[0])] = (tk_opt){.name = NULL};
  const char *pos[2];
  int npos = 0, rc = tk_opts_parse("serve", t, argc, argv, pos, 2, &npos);
  if (rc == 1) usage(stdout);
  if (rc) return rc;
  if (npos > 1) {
    fprintf(stderr, "taikai serve: one spec at a time (got '%s' and '%s')\n", pos[0], pos[1]);
    return 2;
  }
  if (!npos) {
    usage(stderr);
    return 2;
  }
  a->spec_path = pos[0];
  if (sv->games && a->walls) {
    fprintf(stderr, "taikai serve: --games and --walls both say how much to play: give one\n");
    return 2;
  }
  return 0;
}

int tk_cmd_serve(int argc, char **argv) {
  tk_run_args a;
  memset(&a, 0, sizeof a);
  serve *sv = calloc(1, sizeof *sv);
  if (!sv) {
    fprintf(stderr, "taikai serve: out of memory\n");
    return 1;
  }
  sv->host = "127.0.0.1";
  sv->port = TK_UECDA_PORT;
  sv->handshake_ms = TK_LOBBY_HANDSHAKE_MS;
  sv->listen_fd = -1;
  int status = serve_args(argc, argv, &a, sv);
  if (status) {
    status = status == 1 ? 0 : 2;
    goto done;
  }
  a.external_ok = 1;
  a.edit = edit_spec;
  sv->quiet = a.quiet;
  status = tk_run_tournament(&a, "serve", serve_hook, sv);
done:
  end_hosts(sv, 0);
  for (int p = 0; p < 5; p++) close_seat(&sv->seats[p]);
  if (sv->listen_fd >= 0) close(sv->listen_fd);
  if (sv->loop_ready) tk_loop_free(&sv->loop);
  free(sv);
  return status;
}
