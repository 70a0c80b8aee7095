/* harness/cmd/serve.c — `taikai serve SPEC [--port P] [--host H] [--games N] ...`: a UECda
 * server (protocol 20070, docs/uecda.md). Clients connect for the spec's external seats, plugins
 * play the others, and the blocks of the tournament are played through the daifugo engine, the
 * same deals as `taikai run` for the same seed, into the same outputs: the command is `taikai
 * run`'s (tk_run_tournament: options, the output folder's new / continue / refuse decision,
 * --logs, --records, the table), with this file's play hook in place of the worker pool.
 *
 * The clients' sockets live in this process, so units are played in order here. Each plugin
 * seat is played by a host process of its own (harness/core/seat_host.h), so a plugin that hangs,
 * crashes or runs out of memory is stopped and charged as in `taikai run`. A fault of a seat
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

#include "commands.h"
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
          "  --records   also write the plugin seats' decisions to DIR/records.tkr (taikai\n"
          "              records DIR); a client's decisions are not recorded\n"
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
  tk_seat_host host;   /* a plugin seat's process (host.pid 0: none running) */
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
  void *state;             /* the game adapter's unit state (state_size bytes) ... */
  tk_daifugo_block *b;      /* ... whose first member is the block */
  tk_records_builder rb;   /* --records: the plugin seats' decisions of the unit */
  tk_daifugo_legal *legal;
  tk_daifugo_view *view;
  tk_daifugo_info info;
  uint64_t units;          /* the run's units */
  int quiet;
  /* the unit in play */
  unsigned fallback;       /* seats played by the fallback in this unit */
  tk_fault fault[TK_DAIFUGO_PLAYERS];
  int illegal[TK_DAIFUGO_PLAYERS];
  char illegal_first[TK_DAIFUGO_PLAYERS][192];
  uint64_t pending[TK_DAIFUGO_PLAYERS]; /* the daifugo's second card to give */
  int last_unit;           /* this unit ends the run: its last game's int is 2 */
} serve;

static void close_seat(seat *st) {
  if (st->fd >= 0) close(st->fd);
  st->fd = -1;
}

/* Seat p faults now: the fallback plays it from here; a client's connection is closed (the
 * stream cannot be trusted after a stall or garbage) and the seat stays the fallback's. */
static void seat_fault_is(serve *sv, int p, const tk_fault *fault) {
  if (sv->fallback >> p & 1) return;
  tk_fault *f = &sv->fault[p];
  *f = *fault;
  f->seat = p;
  /* the decision: a plugin's as the loop describes it (its act's view, else none), a
   * client's the one it was at */
  seat *st = &sv->seats[p];
  if (f->decision[0] || (!st->external && f->entry != TK_ENTRY_ACT)) {
  } else if (tk_daifugo_to_act(sv->b) == p && !tk_daifugo_view_of(sv->b, p, sv->view)) {
    sv->r->game->describe(sv->view, f->decision, sizeof f->decision);
  } else {
    snprintf(f->decision, sizeof f->decision, "game %u, player %d", sv->b->game, p);
  }
  sv->fallback |= 1u << p;
  if (st->external) {
    close_seat(st);
    st->dead = 1;
    st->dead_fault = *f;
    st->dead_unit = sv->b->block;
  }
}

static void seat_fault(serve *sv, int p, int kind, int entry, const char *detail) {
  tk_fault f;
  memset(&f, 0, sizeof f);
  f.kind = kind;
  f.entry = entry;
  if (kind == TK_FAULT_TIMEOUT) f.limit_ms = sv->r->spec.time_limit_ms;
  snprintf(f.detail, sizeof f.detail, "%s", detail);
  seat_fault_is(sv, p, &f);
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

/* An illegal action of seat p: counted (the first described); a fault under illegal_policy
 * forfeit. Returns 1 if the seat faulted. */
static int illegal(serve *sv, int p, const char *what) {
  char where[192];
  where[0] = '\0';
  if (!tk_daifugo_view_of(sv->b, p, sv->view))
    sv->r->game->describe(sv->view, where, sizeof where);
  if (!sv->illegal[p]++)
    snprintf(sv->illegal_first[p], sizeof sv->illegal_first[p], "%.100s: %.78s, not legal",
             where, what);
  if (sv->r->spec.illegal_policy == TK_ILLEGAL_SUBSTITUTE) return 0;
  char detail[160];
  snprintf(detail, sizeof detail, "%.140s, not legal", what);
  seat_fault(sv, p, TK_FAULT_ILLEGAL, TK_ENTRY_ACT, detail);
  return 1;
}

/* The game-start tables, to each client in class order (player order in a block's first
 * game). */
static void send_start(serve *sv) {
  int order[5];
  for (int p = 0; p < 5; p++) order[p] = p;
  if (sv->b->cls[0] != TK_DAIFUGO_NOBODY)
    for (int p = 0; p < 5; p++) order[sv->b->cls[p]] = p;
  for (int k = 0; k < 5; k++) {
    int p = order[k];
    if (sv->seats[p].fd < 0) continue;
    tk_uecda_table t;
    tk_uecda_start_table(sv->b, p, &t);
    send_table(sv, p, &t, TK_ENTRY_BEGIN, "game-start table");
  }
}

/* ------------------------------------------------------------------ decisions */

/* A plugin seat's decision, asked of its host process (which works on its own copies of the
 * view and legal list); the action checked against the list. Returns 0 with *mv set (recorded
 * for --records when the agent's own action is played); 1 after a fault; or a negative TK_E
 * code (a stop signal, the server's failure) with `err`. */
static int plugin_act(serve *sv, int p, tk_daifugo_move *mv, tk_error *err) {
  const tk_run *r = sv->r;
  r->game->view(sv->state, p, sv->view);
  tk_fault f;
  int ret = 0;
  int rc = tk_seat_host_call(&sv->seats[p].host, r, TK_ENTRY_ACT, sv->view, sv->legal, mv, &ret,
                             &f, err);
  if (rc < 0) return rc;
  if (!rc) {
    seat_fault_is(sv, p, &f);
    return 1;
  }
  if (ret < 0) {
    char detail[160];
    snprintf(detail, sizeof detail, "returned %d (%s)", ret, tk_strerror(ret));
    seat_fault(sv, p, TK_FAULT_ERROR, TK_ENTRY_ACT, detail);
    return 1;
  }
  for (int i = 0; i < sv->legal->n; i++) {
    const tk_daifugo_move *m = &sv->legal->a[i];
    if (m->kind == mv->kind && m->cards == mv->cards && m->jcell == mv->jcell) {
      *mv = *m;
      if (r->records && tk_records_builder_add(&sv->rb, (uint32_t)p, (uint32_t)p, sv->view,
                                               sv->legal, mv))
        return tk_error_set(err, TK_ENOMEM, -1, "out of memory for the records");
      return 0;
    }
  }
  char what[96];
  r->game->describe_action(mv, what, sizeof what);
  if (illegal(sv, p, what)) return 1;
  *mv = tk_daifugo_fallback(sv->legal);
  return 0;
}

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
 * waits in sv->pending), the fugo's one. Cards not held or the wrong count are replaced by the
 * strongest, as the server does (an illegal action, counted). */
static int remote_exchange(serve *sv, int p, tk_daifugo_move *mv) {
  if (sv->pending[p]) {
    uint64_t c = sv->pending[p];
    sv->pending[p] = 0;
    return give_of(sv->legal, c, mv);
  }
  tk_daifugo_view_of(sv->b, p, sv->view);
  int k = sv->view->to_give;
  tk_uecda_sub s;
  if (recv_sub(sv, p, "exchange table", &s)) return -1;
  uint64_t hand = sv->b->g.hand[p], cards = s.cards;
  if (s.n != k || (cards & ~hand)) {
    char what[160], text[120];
    tk_daifugo_cards_str(cards, text, sizeof text);
    snprintf(what, sizeof what, "give %s (%d of %d cards%s)", s.n ? text : "nothing", s.n, k,
             cards & ~hand ? ", not all held" : "");
    if (illegal(sv, p, what)) return -1;
    cards = tk_daifugo_strongest(hand, k);
  }
  uint64_t first = cards & -cards;
  if (k == 2) sv->pending[p] = cards & ~first;
  return give_of(sv->legal, first, mv);
}

/* A client's play: its submission matched against the legal list; answers 9 or 8. */
static int remote_play(serve *sv, int p, tk_daifugo_move *mv) {
  tk_uecda_sub s;
  if (recv_sub(sv, p, "submission table", &s)) return -1;
  int i = tk_uecda_match(&s, sv->legal);
  if (i < 0) {
    tk_daifugo_move m = {.cards = s.cards, .kind = TK_DAIFUGO_SINGLE};
    char what[160], text[120];
    tk_daifugo_cards_str(m.cards, text, sizeof text);
    snprintf(what, sizeof what, "%s%s", text, s.jcell >= 0 ? " (a joker placed)" : "");
    if (illegal(sv, p, what)) return -1;
    *mv = sv->legal->a[0]; /* the server counts it as a pass */
    send_int(sv, p, TK_UECDA_REJECTED, "answer");
    return 0;
  }
  *mv = sv->legal->a[i];
  int accepted = mv->kind != TK_DAIFUGO_PASS || sv->legal->lead;
  send_int(sv, p, accepted ? TK_UECDA_ACCEPTED : TK_UECDA_REJECTED, "answer");
  return 0;
}

/* ------------------------------------------------------------------ a unit: one block */

static void fill_info(serve *sv, uint64_t wall, int p) {
  const tk_game *g = sv->r->game;
  memset(&sv->info, 0, sizeof sv->info);
  g->info(sv->b, p, &sv->info);
  tk_game_head *h = &sv->info.head;
  h->abi_version = TK_AGENT_ABI_VERSION;
  h->struct_size = (uint32_t)g->info_size;
  h->seed = tk_game_seed(sv->r->spec.seed, wall, p, p);
  h->wall = wall;
  h->seat = p;
  h->nseats = g->nseats;
}

/* Calls a plugin seat's begin_game or end_game (`a` the info or the result) in its host. Returns
 * 0 (a fault recorded for the seat), or a negative TK_E code with `err`. */
static int plugin_call(serve *sv, int p, int entry, const void *a, tk_error *err) {
  tk_fault f;
  int ret = 0;
  int rc = tk_seat_host_call(&sv->seats[p].host, sv->r, entry, a, NULL, NULL, &ret, &f, err);
  if (rc < 0) return rc;
  if (!rc) {
    seat_fault_is(sv, p, &f);
  } else if (ret < 0 && entry == TK_ENTRY_BEGIN) {
    char detail[160];
    snprintf(detail, sizeof detail, "returned %d (%s)", ret, tk_strerror(ret));
    seat_fault(sv, p, TK_FAULT_ERROR, entry, detail);
  }
  return 0;
}

/* Seats at a unit's start: a client lost in an earlier unit stays the fallback's, with its
 * fault; a plugin seat's host is started if it has none (create may fault) and begins the
 * unit. Returns 0 or a negative TK_E code. */
static int begin_seats(serve *sv, uint64_t wall, tk_error *err) {
  const tk_run *r = sv->r;
  for (int p = 0; p < 5; p++) {
    seat *st = &sv->seats[p];
    if (st->dead) {
      sv->fault[p] = st->dead_fault;
      snprintf(sv->fault[p].detail, sizeof sv->fault[p].detail, "unit %llu: %.140s",
               (unsigned long long)st->dead_unit, st->dead_fault.detail);
      sv->fallback |= 1u << p;
      continue;
    }
    if (st->external) continue;
    int rc;
    if (!st->host.pid) {
      tk_fault f;
      if ((rc = tk_seat_host_start(&st->host, r, p, p, &f, err)) < 0) return rc;
      if (!rc) {
        seat_fault_is(sv, p, &f);
        continue;
      }
    }
    tk_seat_host_unit(&st->host, sv->b->block);
    if (r->plugins[p].desc->begin_game) {
      fill_info(sv, wall, p);
      if ((rc = plugin_call(sv, p, TK_ENTRY_BEGIN, &sv->info, err))) return rc;
    }
  }
  return 0;
}

/* Plays the unit's games, announcing each to the clients. Returns 0 or a negative TK_E code. */
static int play_games(serve *sv, tk_error *err) {
  const tk_run *r = sv->r;
  const tk_game *g = r->game;
  tk_daifugo_block *b = sv->b;
  uint32_t announced = UINT32_MAX;
  int abort_policy = r->spec.fault_policy == TK_POLICY_ABORT;
  int rc;
  for (;;) {
    if (tk_run_stop_signal)
      return tk_error_set(err, TK_ESTATE, -1, "interrupted by signal %d", (int)tk_run_stop_signal);
    int p = g->to_act(sv->state, err);
    if (p == -1) break;
    if (p < 0) return p;
    if (p >= 5) return tk_error_set(err, TK_ESTATE, -1, "daifugo: player %d to act", p);
    if (b->game != announced) {
      send_start(sv);
      announced = b->game;
    }
    g->legal(sv->state, p, sv->legal);
    seat *st = &sv->seats[p];
    tk_daifugo_move mv;
    int play = sv->legal->decision == TK_DAIFUGO_DECIDE_PLAY;
    if (play)
      for (int q = 0; q < 5; q++) {
        if (sv->seats[q].fd < 0) continue;
        tk_uecda_table t;
        tk_uecda_hand_table(b, q, &t);
        send_table(sv, q, &t, TK_ENTRY_ACT, "hand table");
      }
    int fallback = 1; /* the seat is the fallback's, or faulted at this decision */
    if (!(sv->fallback >> p & 1)) {
      if (st->external) {
        fallback = (play ? remote_play(sv, p, &mv) : remote_exchange(sv, p, &mv)) != 0;
      } else {
        if ((rc = plugin_act(sv, p, &mv, err)) < 0) return rc;
        fallback = rc;
      }
    }
    if (fallback) mv = tk_daifugo_fallback(sv->legal);
    tk_daifugo_game before = b->g;
    uint8_t cls[5];
    memcpy(cls, b->cls, sizeof cls);
    uint32_t game = b->game;
    if ((rc = g->apply(sv->state, p, &mv, err))) return rc;
    if (!play) continue;
    int over = b->game != game || tk_daifugo_is_over(b);
    int last = over && tk_daifugo_is_over(b) && (sv->last_unit || (abort_policy && sv->fallback));
    tk_uecda_table field;
    tk_uecda_field_table(&before, cls, p, &mv, &field);
    for (int q = 0; q < 5; q++) {
      if (sv->seats[q].fd < 0) continue;
      if (!send_table(sv, q, &field, TK_ENTRY_ACT, "field table"))
        send_int(sv, q, last ? TK_UECDA_ALL_OVER : over ? TK_UECDA_GAME_OVER : TK_UECDA_GO_ON,
                 "end-of-turn int");
    }
  }
  return 0;
}

static int play_unit(serve *sv, uint64_t unit, tk_unit_rec *rec, tk_unit_log *lg,
                     tk_error *err) {
  const tk_run *r = sv->r;
  const tk_game *g = r->game;
  uint64_t wall;
  const int *seating = tk_schedule_unit(&r->sched, unit, &wall);
  sv->fallback = 0;
  memset(sv->fault, 0, sizeof sv->fault);
  memset(sv->illegal, 0, sizeof sv->illegal);
  memset(sv->illegal_first, 0, sizeof sv->illegal_first);
  memset(sv->pending, 0, sizeof sv->pending);
  if (r->records) tk_records_builder_reset(&sv->rb);
  /* the log names the seats as the loop does: a seat lost before the unit is the fallback's */
  char names[5][96];
  const char *np[5];
  for (int p = 0; p < 5; p++) {
    snprintf(names[p], sizeof names[p], "%s%s", r->spec.agents[seating[p]].label,
             sv->seats[p].dead ? " (fallback)" : "");
    np[p] = names[p];
  }
  int rc;
  if (r->logs_dir && (rc = tk_unit_log_try(lg, r->logs_dir, r->logs_gzip, unit, err))) return rc;
  tk_unit_start us = {.rules = r->rules, .seed = r->spec.seed, .wall = wall, .nseats = 5,
                      .names = np, .log = lg->f};
  if ((rc = g->start(sv->state, &us, err))) return rc;
  if ((rc = begin_seats(sv, wall, err)) || (rc = play_games(sv, err))) return rc;
  if ((rc = tk_unit_log_close(lg, err))) return rc;
  tk_daifugo_totals totals;
  g->result(sv->state, &totals);
  for (int p = 0; p < 5; p++) {
    seat *st = &sv->seats[p];
    if (st->external || (sv->fallback >> p & 1) || !r->plugins[p].desc->end_game) continue;
    if ((rc = plugin_call(sv, p, TK_ENTRY_END, &totals, err))) return rc;
  }
  memset(rec, 0, tk_unit_rec_size(5));
  rec->unit = unit;
  rec->wall = wall;
  rec->nseats = 5;
  g->fields(sv->state, rec);
  for (int p = 0; p < 5; p++) {
    tk_seat_rec *x = &rec->seat[p];
    x->agent = seating[p];
    x->illegal = sv->illegal[p];
    memcpy(x->illegal_first, sv->illegal_first[p], sizeof x->illegal_first);
    if (sv->fallback >> p & 1) x->fault = sv->fault[p];
  }
  if (sv->fallback) g->forfeit(r->rules, sv->fallback, rec);
  if (r->logs_dir && (rc = tk_unit_log_commit(lg, err))) return rc;
  if (r->records) return tk_records_pack_unit(&sv->rb, g, rec, err);
  return 0;
}

/* ------------------------------------------------------------------ connections */

/* Seats a client in each external seat: the k-th connection to send a good profile (protocol
 * 20070 and a name) takes the k-th external seat, in player-id order, and is told its player
 * id. The handshakes run side by side, each within --handshake-ms (harness/net/lobby.h). */
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
  for (int p = 0; p < 5; p++) {
    if (ask) tk_seat_host_stop(&sv->seats[p].host, sv->r);
    else tk_seat_host_kill(&sv->seats[p].host);
  }
}

/* The play hook of tk_run_execute: units in order, each handed to the sink. */
static int serve_play(void *ctx, const tk_run *r, uint64_t first, uint64_t count, tk_sink_fn sink,
                      void *sink_ctx, tk_progress_fn progress, void *progress_ctx,
                      tk_error *err) {
  serve *sv = ctx;
  int rc = 0;
  if (!count) return 0; /* every unit was kept: no client is needed */
  if (!sv->accepted && (rc = accept_clients(sv, err))) return rc;
  tk_unit_rec *rec = malloc(sizeof *rec);
  tk_unit_log *lg = calloc(1, sizeof *lg);
  if (!rec || !lg) {
    free(rec), free(lg);
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  }
  void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN); /* a host gone: its write fails, EPIPE */
  for (uint64_t u = first; u < first + count; u++) {
    sv->last_unit = u + 1 == sv->units;
    rc = play_unit(sv, u, rec, lg, err);
    tk_unit_log_drop(lg);
    if (rc) break;
    const void *records = r->records ? sv->rb.packed : NULL;
    if ((rc = sink(sink_ctx, rec, records, r->records ? sv->rb.packed_len : 0))) break;
    if (progress) progress(progress_ctx, u + 1 - first, count);
  }
  end_hosts(sv, !rc);
  signal(SIGPIPE, old_pipe);
  free(rec);
  free(lg);
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

static int parse_u64(const char *s, uint64_t max, uint64_t *out) {
  char *end;
  errno = 0;
  if (!s || !*s || *s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v > max) return -1;
  *out = v;
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
  /* the adapter's unit state (harness/games/daifugo.c), which starts with the block */
  size_t state_size = r->game->state_size > sizeof(tk_daifugo_block) ? r->game->state_size
                                                                     : sizeof(tk_daifugo_block);
  sv->state = calloc(1, state_size);
  sv->b = sv->state;
  sv->legal = malloc(sizeof *sv->legal);
  sv->view = malloc(sizeof *sv->view);
  if (!sv->state || !sv->legal || !sv->view) {
    fprintf(stderr, "taikai serve: out of memory\n");
    return 1;
  }
  tk_records_builder_init(&sv->rb, r->game->view_size, r->game->legal_size,
                          r->game->action_size);
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
  int status = 2;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      usage(stdout);
      status = 0;
      goto done;
    } else if (!strcmp(arg, "--port")) {
      if (parse_u64(v, 65535, &sv->port)) {
        fprintf(stderr, "taikai serve: --port expects a port from 0 to 65535, got '%s'\n",
                v ? v : "(nothing)");
        goto done;
      }
      i++;
    } else if (!strcmp(arg, "--host")) {
      if (!v || !*v) {
        fprintf(stderr, "taikai serve: --host expects an address, got '%s'\n", v ? v : "(nothing)");
        goto done;
      }
      sv->host = v;
      i++;
    } else if (!strcmp(arg, "--handshake-ms")) {
      if (parse_u64(v, 3600000, &sv->handshake_ms) || !sv->handshake_ms) {
        fprintf(stderr, "taikai serve: --handshake-ms expects milliseconds from 1 to 3600000, "
                "got '%s'\n", v ? v : "(nothing)");
        goto done;
      }
      i++;
    } else if (!strcmp(arg, "--games")) {
      if (parse_u64(v, 1000000000, &sv->games) || !sv->games) {
        fprintf(stderr, "taikai serve: --games expects a number from 1 to 1000000000, got '%s'\n",
                v ? v : "(nothing)");
        goto done;
      }
      i++;
    } else if (!strcmp(arg, "-j") || !strncmp(arg, "-j", 2) || !strcmp(arg, "--jobs")) {
      fprintf(stderr, "taikai serve: %s: the server plays its blocks in order in one process "
              "(each plugin seat in a process of its own); it takes no -j\n", arg);
      goto done;
    } else {
      int k = tk_run_args_option(&a, "serve", argc, argv, &i);
      if (k < 0) goto done;
      if (k) continue;
      if (arg[0] == '-' && arg[1]) {
        fprintf(stderr, "taikai serve: unknown option '%s' (see taikai serve --help)\n", arg);
        goto done;
      } else if (!a.spec_path) {
        a.spec_path = arg;
      } else {
        fprintf(stderr, "taikai serve: one spec at a time (got '%s' and '%s')\n", a.spec_path,
                arg);
        goto done;
      }
    }
  }
  if (!a.spec_path) {
    usage(stderr);
    goto done;
  }
  if (sv->games && a.walls) {
    fprintf(stderr, "taikai serve: --games and --walls both say how much to play: give one\n");
    goto done;
  }
  a.external_ok = 1;
  a.edit = edit_spec;
  status = tk_run_tournament(&a, "serve", serve_hook, sv);
done:
  for (int p = 0; p < 5; p++) {
    tk_seat_host_kill(&sv->seats[p].host);
    tk_seat_host_free(&sv->seats[p].host);
    close_seat(&sv->seats[p]);
  }
  if (sv->listen_fd >= 0) close(sv->listen_fd);
  tk_records_builder_free(&sv->rb);
  free(sv->state), free(sv->legal), free(sv->view);
  free(sv);
  return status;
}
