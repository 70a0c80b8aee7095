/* harness/games/daifugo/uecda_client.c — `taikai client PLUGIN [--host H] [--port P] [--name N]
 * [--params JSON] [--seed S]`: one of our daifugo plugins playing on a UECda server (protocol
 * 20070, docs/uecda.md), so our agents can enter an existing server's games.
 *
 * The server owns the game; this side rebuilds what the plugin may know from the tables it is
 * sent: the hand and the counts, seats and classes of every table, and every accepted play
 * (a field table whose cards differ from the last one's is a play of the player it names; one
 * whose cards are unchanged is a pass, or a refused submission). Legal actions come from the
 * engine (tk_daifugo_game_legal over the hand, the table, the revolution and the lock), so a
 * plugin sees the same view and list it would see in `taikai run`, except what the protocol
 * never says: the cards the daifugo and fugo received in the exchange ("received" stays 0), and
 * the block and game numbers (counted here: a game-start table without classes opens a block). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daifugo_cmd.h"
#include "loader.h"
#include "opts.h"
#include "uecda.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai client PLUGIN [--host H] [--port P] [--name NAME] [--params JSON]\n"
          "                            [--seed S] [--quiet]\n"
          "\n"
          "Connects to a UECda server (protocol 20070: the contest's reference server, or\n"
          "`taikai serve`) and plays every game of its run with the daifugo agent PLUGIN: a path\n"
          "to a .so, or a name looked up as `taikai run` does, in $TAIKAI_PLUGIN_PATH, then in\n"
          "plugins/ beside the taikai executable, then in the installed agents'\n"
          "../lib/taikai/plugins from the executable's folder (when it exists; `taikai plugins`\n"
          "lists the folders). See docs/uecda.md.\n"
          "\n"
          "  --host H       server address (default 127.0.0.1)\n"
          "  --port P       server port (default 42485)\n"
          "  --name NAME    the name sent in the profile (default: the plugin's name; the server\n"
          "                 keeps 9 characters)\n"
          "  --params JSON  the agent's parameters, a JSON object (`taikai plugins` lists them)\n"
          "  --seed S       the agent's seed (default 1): create gets it, and each block's\n"
          "                 begin_game a seed derived from it and the block number\n"
          "  --quiet        no summary line at the end\n"
          "\n"
          "It prints the games played and its finishing places at the end. Exit status: 0 the\n"
          "server's run ended (its final 2); 1 the connection or the server failed, or the agent\n"
          "returned an error; 2 bad usage, or a plugin refused.\n");
}

typedef struct client {
  int fd, me;
  const tk_agent_descriptor *d;
  tk_agent_instance *inst;
  uint64_t seed;
  uint64_t games, block, game_in_block;
  int quiet;
  tk_daifugo_view v;        /* what the agent may know, kept up to date from the tables */
  tk_daifugo_legal l;
  tk_daifugo_view agent_v;
  tk_daifugo_legal agent_l;
  uint64_t field;           /* the cards of the last field table (the joker bit included) */
  int field_jcell;
  long places[5];           /* games finished in each place, as observed */
  long plays, passes, refused;
} client;

static int fail(const char *what) {
  fprintf(stderr, "taikai client: %s\n", what);
  return 1;
}

/* The engine's move for the cards of a field table (the notation's classifier names its
 * shape). */
static int move_of(const tk_uecda_sub *s, tk_daifugo_move *m) {
  char text[256] = "", card[16];
  size_t n = 0;
  for (uint64_t c = s->cards & ~TK_DAIFUGO_JOKER; c; c &= c - 1) {
    tk_daifugo_card_str(c & -c, card, sizeof card);
    n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", n ? " " : "", card);
  }
  if (s->jcell >= 0) {
    int r = s->jcell >> 4, c = s->jcell & 15;
    if (s->n == 1) {
      n += (size_t)snprintf(text + n, sizeof text - n, "%sJK", n ? " " : "");
    } else {
      char cell[8];
      if (c == 0 || c == 14) snprintf(cell, sizeof cell, "%c%c", "SHDCX"[r], c ? '>' : '<');
      else {
        tk_daifugo_card_str(TK_DAIFUGO_CARD(0, c), card, sizeof card);
        snprintf(cell, sizeof cell, "%c%c", "SHDCX"[r], card[1]);
      }
      n += (size_t)snprintf(text + n, sizeof text - n, "%sJK[%s]", n ? " " : "", cell);
    }
  }
  tk_error e;
  tk_error_clear(&e);
  return tk_daifugo_move_parse(text, m, &e);
}

/* A game starts: its start table (the hand, classes, seats, counts as dealt). */
static int on_start(client *c, const tk_uecda_table *t) {
  tk_daifugo_view *v = &c->v;
  int reset = 1;
  for (int p = 0; p < 5; p++) reset &= t->c[6][5 + p] == 0;
  if (reset && c->games) c->block++, c->game_in_block = 0;
  if (reset && c->d->begin_game) {
    if (c->games && c->d->end_game) {
      tk_daifugo_totals tot;
      memset(&tot, 0, sizeof tot);
      tot.games = (int32_t)c->games;
      c->d->end_game(c->inst, &tot);
    }
    tk_daifugo_info info;
    memset(&info, 0, sizeof info);
    info.head.abi_version = TK_AGENT_ABI_VERSION;
    info.head.struct_size = sizeof info;
    info.head.seed = c->seed ^ (0x9e3779b97f4a7c15ull * (c->block + 1));
    info.head.wall = c->block;
    info.head.seat = c->me;
    info.head.nseats = 5;
    info.types_version = TK_DAIFUGO_TYPES_VERSION;
    tk_daifugo_rules r = tk_daifugo_default_rules();
    info.block_games = r.block_games;
    info.seat_period = r.seat_period;
    info.sennichite = r.sennichite;
    info.block = c->block;
    int rc = c->d->begin_game(c->inst, &info);
    if (rc < 0) return fail("the agent's begin_game returned an error");
  }
  memset(v, 0, sizeof *v);
  v->player = (uint8_t)c->me;
  v->turn = v->owner = TK_DAIFUGO_NOBODY;
  v->top.jcell = TK_DAIFUGO_NOCELL;
  v->game = (uint32_t)c->game_in_block;
  v->hand = tk_uecda_get_hand(t);
  for (int p = 0; p < 5; p++) {
    v->count[p] = (uint8_t)t->c[6][p];
    v->cls[p] = reset ? TK_DAIFUGO_NOBODY : (uint8_t)t->c[6][5 + p];
    int at = t->c[6][10 + p];
    if (at >= 0 && at < 5) v->seat_of[at] = (uint8_t)p;
  }
  if (!reset) { /* the counts after the automatic transfers, as the engine's view has them */
    static const int moved[5] = {2, 1, 0, -1, -2};
    for (int p = 0; p < 5; p++)
      if (v->cls[p] < 5) v->count[p] = (uint8_t)(v->count[p] + moved[v->cls[p]]);
  }
  c->field = 0;
  c->field_jcell = -1;
  return 0;
}

/* The exchange: one GIVE per card held, asked once per card to give. */
static int exchange(client *c, int k) {
  tk_daifugo_view *v = &c->v;
  uint64_t give = 0;
  v->decision = TK_DAIFUGO_DECIDE_EXCHANGE;
  for (int i = 0; i < k; i++) {
    v->to_give = (uint8_t)(k - i);
    memset(&c->l, 0, offsetof(tk_daifugo_legal, a));
    c->l.player = (uint8_t)c->me;
    c->l.decision = TK_DAIFUGO_DECIDE_EXCHANGE;
    for (uint64_t h = v->hand; h; h &= h - 1) {
      tk_daifugo_move *m = &c->l.a[c->l.n++];
      memset(m, 0, sizeof *m);
      m->kind = TK_DAIFUGO_GIVE;
      m->cards = h & -h;
      m->n = 1;
      m->jcell = TK_DAIFUGO_NOCELL;
    }
    c->agent_v = *v;
    c->agent_l = c->l;
    tk_daifugo_move m;
    memset(&m, 0xff, sizeof m);
    if (c->d->act(c->inst, &c->agent_v, &c->agent_l, &m) < 0)
      return fail("the agent's act returned an error in the exchange");
    uint64_t card = m.kind == TK_DAIFUGO_GIVE && !(m.cards & (m.cards - 1)) ? m.cards & v->hand : 0;
    if (!card) card = tk_daifugo_fallback(&c->l).cards; /* not a card held: the lowest */
    give |= card;
    v->hand &= ~card;
    v->given |= card;
    /* the card reaches its receiver at once (the daihinmin's from the daifugo, the hinmin's
     * from the fugo), as in the engine's view */
    int to = v->cls[c->me] == 0 ? 4 : 3;
    v->count[c->me]--;
    for (int p = 0; p < 5; p++)
      if (v->cls[p] == to) v->count[p]++;
  }
  v->decision = TK_DAIFUGO_DECIDE_NONE;
  v->to_give = 0;
  tk_uecda_table t;
  memset(&t, 0, sizeof t);
  tk_uecda_put_hand(&t, give);
  if (tk_uecda_send_table(c->fd, &t)) return fail("sending the exchange table failed");
  return 0;
}

/* A hand table: the counts and the hand; our decision when [5][2] says so. */
static int on_hand(client *c, const tk_uecda_table *t) {
  tk_daifugo_view *v = &c->v;
  v->hand = tk_uecda_get_hand(t);
  for (int p = 0; p < 5; p++) v->count[p] = (uint8_t)t->c[6][p];
  v->rev = (uint8_t)(t->c[5][6] != 0);
  v->lock = (uint8_t)(t->c[5][7] != 0);
  v->turn = (uint8_t)t->c[5][3];
  if (t->c[5][4]) { /* a new table */
    memset(&v->top, 0, sizeof v->top);
    v->top.jcell = TK_DAIFUGO_NOCELL;
    v->passed = 0;
  }
  if (!t->c[5][2]) return 0;
  tk_daifugo_game g;
  memset(&g, 0, sizeof g);
  g.hand[c->me] = v->hand;
  g.top = v->top;
  g.rev = v->rev;
  g.lock = v->lock;
  g.turn = (uint8_t)c->me;
  tk_daifugo_game_legal(&g, &c->l);
  v->decision = TK_DAIFUGO_DECIDE_PLAY;
  c->agent_v = *v;
  c->agent_l = c->l;
  tk_daifugo_move m;
  memset(&m, 0xff, sizeof m);
  if (c->d->act(c->inst, &c->agent_v, &c->agent_l, &m) < 0)
    return fail("the agent's act returned an error");
  v->decision = TK_DAIFUGO_DECIDE_NONE;
  int listed = 0;
  for (int i = 0; i < c->l.n && !listed; i++)
    listed = c->l.a[i].kind == m.kind && c->l.a[i].cards == m.cards && c->l.a[i].jcell == m.jcell;
  if (!listed) m = tk_daifugo_fallback(&c->l); /* the referee's substitute for an illegal one */
  tk_uecda_table sub;
  memset(&sub, 0, sizeof sub);
  if (m.kind != TK_DAIFUGO_PASS) tk_uecda_put_move(&sub, &m);
  /* A single joker goes in a card's row, not at [4][1]: the reference server reads a 2 in row 4
   * as a card of a fifth suit and refuses the play (docs/uecda.md, "Against the reference
   * server"). Its row is the locked suit's under a lock (the table's single card), else row 0;
   * its column 14, above every card. */
  if (m.kind == TK_DAIFUGO_JOKER1) {
    int row = 0;
    for (int r = 0; v->lock && r < 4; r++)
      if (v->top.cards & (TK_DAIFUGO_SUIT_LANE << (16 * r))) row = r;
    sub.c[4][1] = 0;
    sub.c[row][14] = 2;
  }
  int32_t answer;
  if (tk_uecda_send_table(c->fd, &sub) || tk_uecda_recv_int(c->fd, &answer, 0, NULL))
    return fail("the server closed the connection at our submission");
  if (m.kind == TK_DAIFUGO_PASS) c->passes++;
  else c->plays++;
  if (answer != TK_UECDA_ACCEPTED && m.kind != TK_DAIFUGO_PASS) {
    c->refused++;
    char text[128];
    tk_daifugo_move_str(&m, text, sizeof text);
    fprintf(stderr, "taikai client: the server answered %d to %s, legal by our rules\n", answer,
            text);
  }
  return 0;
}

/* A field table: an accepted play (cards that differ from the last field's) or a pass. */
static void on_field(client *c, const tk_uecda_table *t) {
  tk_daifugo_view *v = &c->v;
  int actor = t->c[5][3];
  if (actor < 0 || actor > 4) return;
  tk_uecda_sub s;
  tk_error e;
  tk_error_clear(&e);
  if (tk_uecda_decode(t, &s, &e)) return;
  int played = s.n && (s.cards != c->field || s.jcell != c->field_jcell);
  c->field = s.cards;
  c->field_jcell = s.jcell;
  if (played) {
    tk_daifugo_move m;
    if (move_of(&s, &m)) return;
    v->top = m;
    v->owner = (uint8_t)actor;
    v->played |= m.cards;
    v->npass = 0;
    if (v->nhist < TK_DAIFUGO_MAX_HIST) {
      tk_daifugo_played *h = &v->hist[v->nhist++];
      memset(h, 0, sizeof *h);
      h->m = m;
      h->player = (uint8_t)actor;
    }
  } else {
    v->passed |= (uint8_t)(1u << actor);
    v->npass++;
  }
  for (int p = 0; p < 5; p++) {
    v->count[p] = (uint8_t)t->c[6][p];
    if (!v->count[p] && !(v->out >> p & 1)) {
      v->out |= (uint8_t)(1u << p);
      v->order[v->nout++] = (uint8_t)p;
    }
  }
}

static void game_over(client *c) {
  int place = 4;
  for (int k = 0; k < c->v.nout; k++)
    if (c->v.order[k] == c->me) place = k;
  c->places[place]++;
  c->games++;
  c->game_in_block++;
}

static int play(client *c) {
  tk_uecda_table t;
  for (;;) {
    if (tk_uecda_recv_table(c->fd, &t, 0, NULL)) return fail("the server closed the connection");
    if (t.c[5][0] != 1) return fail("a game-start table does not mark the exchange phase");
    if (on_start(c, &t)) return 1;
    if (t.c[5][1] > 0 && exchange(c, t.c[5][1])) return 1;
    int32_t end = 0;
    do {
      if (tk_uecda_recv_table(c->fd, &t, 0, NULL)) return fail("the server closed the connection");
      if (on_hand(c, &t)) return 1;
      if (tk_uecda_recv_table(c->fd, &t, 0, NULL) || tk_uecda_recv_int(c->fd, &end, 0, NULL))
        return fail("the server closed the connection");
      on_field(c, &t);
    } while (end == TK_UECDA_GO_ON);
    game_over(c);
    if (end == TK_UECDA_ALL_OVER) return 0;
  }
}

static int connect_to(const char *host, const char *port) {
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int g = getaddrinfo(host, port, &hints, &res);
  if (g) {
    fprintf(stderr, "taikai client: %s port %s: %s\n", host, port, gai_strerror(g));
    return -1;
  }
  int fd = -1;
  for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen)) {
      close(fd);
      fd = -1;
    }
  }
  if (fd < 0)
    fprintf(stderr, "taikai client: cannot connect to %s port %s: %s\n", host, port,
            strerror(errno));
  freeaddrinfo(res);
  return fd;
}

int tk_cmd_client(int argc, char **argv) {
  const char *plugin = NULL, *host = "127.0.0.1", *name = NULL, *params_text = "{}";
  uint64_t seed = 1, port_number = 42485;
  int quiet = 0;
  const tk_opt opts[] = {
      {.name = "host", .kind = TK_OPT_STRING, .dest = &host, .value = "H",
       .help = "the server's address"},
      {.name = "port", .kind = TK_OPT_U64, .dest = &port_number, .value = "P", .min = 1,
       .max = 65535, .help = "the server's port"},
      {.name = "name", .kind = TK_OPT_STRING, .dest = &name, .value = "NAME",
       .help = "the name in the profile"},
      {.name = "params", .kind = TK_OPT_STRING, .dest = &params_text, .value = "JSON",
       .help = "the plugin's parameters"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S",
       .help = "the agent's seed"},
      {.name = "quiet", .short_name = 'q', .kind = TK_OPT_FLAG, .dest = &quiet,
       .help = "no summary line"},
      {.name = NULL},
  };
  const char *pos[2];
  int npos = 0, prc = tk_opts_parse("client", opts, argc, argv, pos, 2, &npos);
  if (prc == 1) usage(stdout);
  if (prc) return prc == 1 ? 0 : 2;
  if (npos > 1) {
    fprintf(stderr, "taikai client: one plugin at a time (got '%s' and '%s')\n", pos[0], pos[1]);
    return 2;
  }
  if (!npos) {
    usage(stderr);
    return 2;
  }
  plugin = pos[0];
  char port[8];
  snprintf(port, sizeof port, "%u", (unsigned)port_number);
  tk_error err;
  tk_error_clear(&err);
  char path[TK_PATH_MAX];
  tk_plugin pl;
  memset(&pl, 0, sizeof pl);
  json_error_t je;
  json_t *given = json_loads(params_text, 0, &je), *params = NULL;
  if (!json_is_object(given)) {
    fprintf(stderr, "taikai client: --params expects a JSON object, got '%s'\n", params_text);
    json_decref(given);
    return 2;
  }
  if (tk_plugin_find(plugin, NULL, path, sizeof path, &err) ||
      tk_plugin_open(&pl, path, "daifugo", &err) ||
      tk_plugin_params(&pl, pl.desc->name, given, &params, &err)) {
    fprintf(stderr, "taikai client: refused: %s\n", err.msg);
    json_decref(given);
    tk_plugin_close(&pl);
    return 2;
  }
  json_decref(given);
  char *ptext = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(params);
  client *c = calloc(1, sizeof *c);
  if (!c || !ptext) {
    free(c);
    free(ptext);
    tk_plugin_close(&pl);
    return fail("out of memory");
  }
  c->fd = -1;
  c->d = pl.desc;
  c->seed = seed;
  c->quiet = quiet;
  c->inst = c->d->create(ptext, seed, &err);
  free(ptext);
  int status = 1;
  if (!c->inst) {
    fprintf(stderr, "taikai client: refused: %s: create failed: %s\n", path, err.msg);
    status = 2;
    goto done;
  }
  if ((c->fd = connect_to(host, port)) < 0) goto done;
  tk_uecda_nodelay(c->fd);
  tk_uecda_table prof;
  memset(&prof, 0, sizeof prof);
  prof.c[0][0] = TK_UECDA_PROTOCOL;
  const char *nm = name ? name : c->d->name;
  for (int i = 0; nm[i] && i < TK_UECDA_COLS; i++) prof.c[1][i] = (unsigned char)nm[i];
  int32_t id;
  if (tk_uecda_send_table(c->fd, &prof) || tk_uecda_recv_int(c->fd, &id, 0, NULL) || id < 0 ||
      id > 4) {
    fail("the server did not answer the profile with a player id");
    goto done;
  }
  c->me = id;
  status = play(c);
  if (!status && c->d->end_game) {
    tk_daifugo_totals tot;
    memset(&tot, 0, sizeof tot);
    tot.games = (int32_t)c->games;
    c->d->end_game(c->inst, &tot);
  }
  if (!quiet)
    printf("player %d (%s): %llu games; places 1-5: %ld %ld %ld %ld %ld; %ld plays, %ld passes%s\n",
           c->me, c->d->name, (unsigned long long)c->games, c->places[0], c->places[1],
           c->places[2], c->places[3], c->places[4], c->plays, c->passes,
           c->refused ? " (some refused: see above)" : "");
done:
  if (c->fd >= 0) close(c->fd);
  if (c->inst) c->d->destroy(c->inst);
  free(c);
  tk_plugin_close(&pl);
  return status;
}
