/* harness/games/daifugo/uecda.h — the UECda protocol (number 20070) as bytes and tables: the 8 x 15 table
 * of int32 in network byte order (480 bytes), the tables the server sends built from a daifugo
 * block (taikai/daifugo.h), submissions decoded into the engine's moves, and socket I/O of whole
 * messages (one write() per message, as the reference server and client expect). Shared by
 * `taikai serve` (the server side) and `taikai client` (a plugin playing on a UECda server).
 * The layout and the message sequence are docs/uecda.md's. */
#ifndef TAIKAI_HARNESS_UECDA_H
#define TAIKAI_HARNESS_UECDA_H

#include <stddef.h>
#include <stdint.h>

#include "taikai/daifugo.h"

enum {
  TK_UECDA_ROWS = 8,
  TK_UECDA_COLS = 15,
  TK_UECDA_TABLE_BYTES = 480, /* 8 * 15 * 4 */
  TK_UECDA_INT_BYTES = 4,
  TK_UECDA_PROTOCOL = 20070,  /* [0][0] of a client's profile table */
  TK_UECDA_PORT = 42485,      /* the reference server's default port */
  TK_UECDA_NAME_MAX = 9,      /* profile name characters the reference server keeps */
  TK_UECDA_ACCEPTED = 9,      /* the answer to an accepted submission (or a pass on a new table) */
  TK_UECDA_REJECTED = 8,      /* to anything else (counted as a pass) */
  TK_UECDA_GO_ON = 0, TK_UECDA_GAME_OVER = 1, TK_UECDA_ALL_OVER = 2 /* after each field table */
};

typedef struct tk_uecda_table {
  int32_t c[TK_UECDA_ROWS][TK_UECDA_COLS]; /* host byte order */
} tk_uecda_table;

/* The 480 bytes of `t`, every cell big-endian, a negative cell sent as 0 (the server's
 * htonl(x*(x>=0))). */
void tk_uecda_pack(const tk_uecda_table *t, uint8_t out[TK_UECDA_TABLE_BYTES]);
void tk_uecda_unpack(const uint8_t in[TK_UECDA_TABLE_BYTES], tk_uecda_table *t);

/* Cards of a hand into rows 0..3 (1 per card), the joker as [4][1] = 2. */
void tk_uecda_put_hand(tk_uecda_table *t, uint64_t hand);
/* A move as a submission or a field: its real cards as 1, its joker as 2 in its cell (a single
 * joker at [4][1]); a pass or a give puts only its cards (a given joker at [4][1]). */
void tk_uecda_put_move(tk_uecda_table *t, const tk_daifugo_move *m);
/* Every card of rows 0..3 (value 1) and the joker (a 2 anywhere in rows 0..4) of `t` as a hand. */
uint64_t tk_uecda_get_hand(const tk_uecda_table *t);

/* A decoded submission: the real cards (rows 0..3, value 1), and the joker's cell if a 2 is
 * present (16 * row + column). */
typedef struct tk_uecda_sub {
  uint64_t cards; /* real cards; TK_DAIFUGO_JOKER added when a joker is present */
  int jcell;      /* the joker's cell, -1 without a joker */
  int n;          /* cards with the joker */
} tk_uecda_sub;

/* Decodes rows 0..4 of a submission (rows 5..7 are ignored, as the server does). A table that is
 * no set of cards at all is refused with TK_EPARSE naming the cell and its value: a value other
 * than 0, 1 or 2, a 1 in columns 0 or 14 or in row 4, more than one 2. Anything else decodes,
 * legal or not. */
int tk_uecda_decode(const tk_uecda_table *t, tk_uecda_sub *s, tk_error *err);
/* The index in `l` (a play decision) of the play submitted, or -1 when it is none of them (an
 * illegal play, answered 8). A single joker matches whatever its cell; a pass (no card) is
 * a[0]. */
int tk_uecda_match(const tk_uecda_sub *s, const tk_daifugo_legal *l);

/* ---- tables the server sends, from a block (player ids 0..4) */

/* The game-start table of `player` for the game now dealt (before the exchange): the hand as
 * the spec says (the daifugo and fugo after receiving, the others as dealt), [5][0] = 1,
 * [5][1] = cards to give, [5][3] = 6, the other cells of row 5 0, row 6 with the counts as
 * dealt. */
void tk_uecda_start_table(const tk_daifugo_block *b, int player, tk_uecda_table *t);
/* The hand table of `player` at a play decision of b->g.turn ([5][2] = 1 for the mover). */
void tk_uecda_hand_table(const tk_daifugo_block *b, int player, tk_uecda_table *t);
/* The field table after `actor` played `m` (the move applied: a pass for a pass or a refused
 * submission) on `before` (the game as it was before the move; `cls` the previous game's
 * classes): the last accepted cards, before any clear ([5][4] = 0 while cards show), rows 5 and
 * 6 after the move. */
void tk_uecda_field_table(const tk_daifugo_game *before, const uint8_t cls[5], int actor,
                          const tk_daifugo_move *m, tk_uecda_table *t);

/* ---- sockets: whole messages */

/* Writes `len` bytes with one write() call (TCP_NODELAY set on the socket beforehand); a short
 * write is finished by more calls. Returns 0, or -1 with errno (EPIPE: the peer closed). */
int tk_uecda_send(int fd, const void *buf, size_t len);
int tk_uecda_send_table(int fd, const tk_uecda_table *t);
int tk_uecda_send_int(int fd, int32_t v);
/* Reads exactly `len` bytes, looping, within `timeout_ms` (0: no limit). Returns 0; or -1 with
 * *got the bytes read: errno ETIMEDOUT (the time ran out), ECONNRESET (the peer closed: EOF or
 * a reset) or another errno. */
int tk_uecda_recv(int fd, void *buf, size_t len, int timeout_ms, size_t *got);
int tk_uecda_recv_table(int fd, tk_uecda_table *t, int timeout_ms, size_t *got);
int tk_uecda_recv_int(int fd, int32_t *v, int timeout_ms, size_t *got);
/* Sets TCP_NODELAY (ignored where it does not apply). */
void tk_uecda_nodelay(int fd);

#endif
