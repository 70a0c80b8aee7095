/* harness/games/daifugo/uecda.c — UECda tables and messages (see uecda.h). A card's bit in the engine,
 * 16 * row + column, is its cell in the table, so cards and tables convert cell by cell. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "uecda.h"

void tk_uecda_pack(const tk_uecda_table *t, uint8_t out[TK_UECDA_TABLE_BYTES]) {
  for (int r = 0; r < TK_UECDA_ROWS; r++)
    for (int c = 0; c < TK_UECDA_COLS; c++) {
      int32_t v = t->c[r][c];
      uint32_t n = htonl((uint32_t)(v >= 0 ? v : 0));
      memcpy(out + 4 * (r * TK_UECDA_COLS + c), &n, 4);
    }
}

void tk_uecda_unpack(const uint8_t in[TK_UECDA_TABLE_BYTES], tk_uecda_table *t) {
  for (int r = 0; r < TK_UECDA_ROWS; r++)
    for (int c = 0; c < TK_UECDA_COLS; c++) {
      uint32_t n;
      memcpy(&n, in + 4 * (r * TK_UECDA_COLS + c), 4);
      t->c[r][c] = (int32_t)ntohl(n);
    }
}

static void put_cards(tk_uecda_table *t, uint64_t cards) {
  for (int r = 0; r < 4; r++)
    for (int c = 1; c <= 13; c++)
      if (cards & TK_DAIFUGO_CARD(r, c)) t->c[r][c] = 1;
}

void tk_uecda_put_hand(tk_uecda_table *t, uint64_t hand) {
  put_cards(t, hand);
  if (hand & TK_DAIFUGO_JOKER) t->c[4][1] = 2;
}

void tk_uecda_put_move(tk_uecda_table *t, const tk_daifugo_move *m) {
  put_cards(t, m->cards);
  if (!(m->cards & TK_DAIFUGO_JOKER)) return;
  if (m->jcell != TK_DAIFUGO_NOCELL && (m->kind == TK_DAIFUGO_GROUP || m->kind == TK_DAIFUGO_SEQ))
    t->c[m->jcell >> 4][m->jcell & 15] = 2;
  else
    t->c[4][1] = 2; /* a single joker, or a given one */
}

uint64_t tk_uecda_get_hand(const tk_uecda_table *t) {
  uint64_t h = 0;
  for (int r = 0; r < 4; r++)
    for (int c = 1; c <= 13; c++)
      if (t->c[r][c] == 1) h |= TK_DAIFUGO_CARD(r, c);
  for (int r = 0; r < 5; r++)
    for (int c = 0; c < TK_UECDA_COLS; c++)
      if (t->c[r][c] == 2) h |= TK_DAIFUGO_JOKER;
  return h;
}

int tk_uecda_decode(const tk_uecda_table *t, tk_uecda_sub *s, tk_error *err) {
  memset(s, 0, sizeof *s);
  s->jcell = -1;
  for (int r = 0; r < 5; r++)
    for (int c = 0; c < TK_UECDA_COLS; c++) {
      int32_t v = t->c[r][c];
      if (v == 0) continue;
      if (v == 1 && r < 4 && c >= 1 && c <= 13) {
        s->cards |= TK_DAIFUGO_CARD(r, c);
        s->n++;
        continue;
      }
      if (v == 2) {
        if (s->jcell >= 0)
          return tk_error_set(err, TK_EPARSE, -1, "cells [%d][%d] and [%d][%d] both hold a joker "
                              "(2)", s->jcell >> 4, s->jcell & 15, r, c);
        s->jcell = 16 * r + c;
        s->cards |= TK_DAIFUGO_JOKER;
        s->n++;
        continue;
      }
      if (v == 1)
        return tk_error_set(err, TK_EPARSE, -1, "cell [%d][%d] holds 1, but %s holds no card "
                            "(only a joker, 2)", r, c, r == 4 ? "row 4" : "that column");
      return tk_error_set(err, TK_EPARSE, -1, "cell [%d][%d] holds %ld (a card cell holds 0, 1 or "
                          "2)", r, c, (long)v);
    }
  return 0;
}

int tk_uecda_match(const tk_uecda_sub *s, const tk_daifugo_legal *l) {
  if (s->n == 0) return l->n > 0 && l->a[0].kind == TK_DAIFUGO_PASS ? 0 : -1;
  for (int i = 0; i < l->n; i++) {
    const tk_daifugo_move *m = &l->a[i];
    if (m->cards != s->cards) continue;
    if (m->kind == TK_DAIFUGO_JOKER1) return i; /* the joker alone, in any cell */
    if (m->kind == TK_DAIFUGO_GROUP || m->kind == TK_DAIFUGO_SEQ) {
      if (m->jcell == TK_DAIFUGO_NOCELL ? s->jcell < 0 : s->jcell == m->jcell) return i;
      continue;
    }
    if (m->kind == TK_DAIFUGO_SINGLE) return i;
  }
  return -1;
}

/* ------------------------------------------------------------------ tables from a block */

/* [6][5..9]: each player's class as the server shows it: its place in this game once it is out
 * (the server's mibun[] is overwritten as players finish), else the previous game's class (0
 * in a block's first game). */
static void row6(const tk_daifugo_game *g, const uint8_t cls[5], const uint8_t count[5],
                 tk_uecda_table *t) {
  for (int p = 0; p < 5; p++) {
    t->c[6][p] = count[p];
    t->c[6][5 + p] = cls[p] == TK_DAIFUGO_NOBODY ? 0 : cls[p];
    t->c[6][10 + p] = g->at_seat[p];
  }
  for (int k = 0; k < g->nout; k++) t->c[6][5 + g->order[k]] = k;
}

static void counts_of(const tk_daifugo_game *g, uint8_t count[5]) {
  for (int p = 0; p < 5; p++) count[p] = (uint8_t)__builtin_popcountll(g->hand[p]);
}

static int to_give_of(const tk_daifugo_block *b, int player) {
  if (b->cls[player] == TK_DAIFUGO_NOBODY) return 0;
  return b->cls[player] == 0 ? 2 : b->cls[player] == 1 ? 1 : 0;
}

void tk_uecda_start_table(const tk_daifugo_block *b, int player, tk_uecda_table *t) {
  memset(t, 0, sizeof *t);
  int give = to_give_of(b, player);
  /* the daifugo and the fugo see what they received; the others their hand as dealt (the
   * hinmin and daihinmin before their cards were taken) */
  tk_uecda_put_hand(t, give ? b->g.hand[player] : b->dealt[player]);
  t->c[5][0] = 1;
  t->c[5][1] = give;
  t->c[5][3] = 6; /* [5][2], [5][4..7] stay 0, as the reference server sends them */
  uint8_t count[5];
  for (int p = 0; p < 5; p++) count[p] = (uint8_t)__builtin_popcountll(b->dealt[p]);
  tk_daifugo_game g = b->g;
  g.nout = 0; /* nobody is out before the first play */
  row6(&g, b->cls, count, t);
}

void tk_uecda_hand_table(const tk_daifugo_block *b, int player, tk_uecda_table *t) {
  memset(t, 0, sizeof *t);
  const tk_daifugo_game *g = &b->g;
  tk_uecda_put_hand(t, g->hand[player]);
  t->c[5][2] = g->turn == player;
  t->c[5][3] = g->turn;
  t->c[5][4] = g->top.kind == TK_DAIFUGO_PASS;
  t->c[5][6] = g->rev;
  t->c[5][7] = g->lock;
  uint8_t count[5];
  counts_of(g, count);
  row6(g, b->cls, count, t);
}

void tk_uecda_field_table(const tk_daifugo_game *before, const uint8_t cls[5], int actor,
                          const tk_daifugo_move *m, tk_uecda_table *t) {
  memset(t, 0, sizeof *t);
  tk_daifugo_game g = *before; /* the same rng: a sennichite draw comes out the same */
  tk_daifugo_game_play(&g, m);
  const tk_daifugo_move *shown = m->kind == TK_DAIFUGO_PASS ? &before->top : m;
  tk_uecda_put_move(t, shown);
  int lock = g.lock;
  if (g.cleared || g.over) { /* the lock as the move left it, before the clear */
    if (m->kind == TK_DAIFUGO_PASS) lock = before->lock;
    else if (m->kind == TK_DAIFUGO_JOKER1) lock = 0;
    else
      lock = before->lock || (before->top.kind != TK_DAIFUGO_PASS &&
                              before->top.kind != TK_DAIFUGO_JOKER1 &&
                              before->top.suits == m->suits);
  }
  t->c[5][3] = actor;
  t->c[5][4] = shown->kind == TK_DAIFUGO_PASS;
  t->c[5][6] = g.rev;
  t->c[5][7] = lock;
  uint8_t count[5];
  counts_of(&g, count);
  row6(&g, cls, count, t);
}

/* ------------------------------------------------------------------ sockets */

void tk_uecda_nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int tk_uecda_send(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len) {
    ssize_t w = send(fd, p, len, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    len -= (size_t)w;
  }
  return 0;
}

int tk_uecda_send_table(int fd, const tk_uecda_table *t) {
  uint8_t buf[TK_UECDA_TABLE_BYTES];
  tk_uecda_pack(t, buf);
  return tk_uecda_send(fd, buf, sizeof buf);
}

int tk_uecda_send_int(int fd, int32_t v) {
  uint32_t n = htonl((uint32_t)(v >= 0 ? v : 0));
  return tk_uecda_send(fd, &n, sizeof n);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int tk_uecda_recv(int fd, void *buf, size_t len, int timeout_ms, size_t *got) {
  char *p = buf;
  size_t have = 0;
  int64_t deadline = timeout_ms > 0 ? now_ms() + timeout_ms : 0;
  int rc = 0;
  while (have < len) {
    int wait = -1;
    if (deadline) {
      int64_t left = deadline - now_ms();
      if (left <= 0) {
        errno = ETIMEDOUT;
        rc = -1;
        break;
      }
      wait = (int)left;
    }
    struct pollfd pfd = {fd, POLLIN, 0};
    int k = poll(&pfd, 1, wait);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      rc = -1;
      break;
    }
    if (k == 0) continue; /* the deadline is checked above */
    ssize_t r = recv(fd, p + have, len - have, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0 || (r < 0 && (errno == ECONNRESET || errno == EPIPE))) {
      errno = ECONNRESET;
      rc = -1;
      break;
    }
    if (r < 0) {
      rc = -1;
      break;
    }
    have += (size_t)r;
  }
  if (got) *got = have;
  return rc;
}

int tk_uecda_recv_table(int fd, tk_uecda_table *t, int timeout_ms, size_t *got) {
  uint8_t buf[TK_UECDA_TABLE_BYTES];
  if (tk_uecda_recv(fd, buf, sizeof buf, timeout_ms, got)) return -1;
  tk_uecda_unpack(buf, t);
  return 0;
}

int tk_uecda_recv_int(int fd, int32_t *v, int timeout_ms, size_t *got) {
  uint32_t n;
  if (tk_uecda_recv(fd, &n, sizeof n, timeout_ms, got)) return -1;
  *v = (int32_t)ntohl(n);
  return 0;
}
