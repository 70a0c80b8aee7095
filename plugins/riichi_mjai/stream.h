/* plugins/riichi_mjai/stream.h — the mjai event stream of one seat, rebuilt from the views the
 * referee gives at that seat's decisions (the plugin ABI passes no events to an agent).
 *
 * At each decision, tk_mjai_stream_update() appends the events since the seat's previous
 * decision as mjai JSON objects separated by commas (the caller wraps them in [ ]). What a seat
 * cannot see is masked as mjai masks it: other players' draws and starting hands are "?".
 * What the views do not hold is not sent (docs/riichi.md, "External mjai bots"):
 *   - the end of a hand (hora, ryukyoku and the discards after the seat's last decision in that
 *     hand): the next start_kyoku follows an end_kyoku, and its scores carry the outcome;
 *   - a hand in which the seat had no decision at all.
 * Everything else (draws, discards with their tsumogiri flag, calls with their consumed tiles,
 * closed and added kans with their replacement draws, riichi and its acceptance, every dora
 * indicator at the engine's point) is exact. Where the rest of the view allows several orders
 * of plays (which turn of a seat a kan came in, the order of two kans, which seat called which
 * tile), every order is tried and the one whose hash of plays equals the view's
 * (tk_riichi_view.plays) is kept; two that do (a 24-bit collision) make the update report the
 * decision as `ambiguous`, the first in turn order kept. */
#ifndef TK_MJAI_STREAM_H
#define TK_MJAI_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "taikai/riichi.h"

/* A growable text buffer. */
typedef struct tk_mjai_buf {
  char *s;
  size_t n, cap;
  int oom; /* an allocation failed: the text is cut short */
} tk_mjai_buf;

void tk_mjai_buf_clear(tk_mjai_buf *b);
void tk_mjai_buf_free(tk_mjai_buf *b);
void tk_mjai_buf_printf(tk_mjai_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Appends `ev` as one mjai JSON object as seat `viewer` receives it (a comma first unless `b` is
 * empty): other seats' tsumo tiles and start_kyoku hands as "?". Returns 0, or -1 for an event
 * type not sent this way (start_game: tk_mjai_start_game; hora, ryukyoku: not sent to bots). */
int tk_mjai_event(tk_mjai_buf *b, const tk_riichi_event *ev, int viewer);

/* Appends start_game as seat `viewer` receives it: "id": viewer, "names" player0..player3, and
 * the rules as mjai-family bots read them (and our logs write them): "kyoku_first" 0 for a
 * hanchan (`length` 2), 4 for an east-only game; "aka_flag" true with red fives. */
void tk_mjai_start_game(tk_mjai_buf *b, int viewer, int length, int red_fives);

enum { TK_MJAI_DRAW = 0, TK_MJAI_ACT, TK_MJAI_AFTER_DISCARD, TK_MJAI_AFTER_KAN };

typedef struct tk_mjai_stream {
  int seat;
  uint8_t length, red_fives; /* the game's rules (tk_riichi_info), for start_game */
  int in_game, in_hand;   /* start_game / this hand's start_kyoku were sent */
  uint8_t round, honba;   /* the hand being sent */
  uint8_t turn, stage;    /* where the rebuilt play stands: TK_MJAI_* of seat `turn` */
  uint8_t nriver[4];      /* discards sent, per seat */
  uint8_t nmelds[4];      /* melds sent, per seat */
  uint8_t mtype[4][4];    /* the type each sent meld had (a pon later made a kakan) */
  uint8_t ndora;          /* indicators sent */
  uint8_t pending;        /* open or added kans whose indicator turns at the next discard */
  int32_t scores[4];      /* points as last sent */
  uint8_t reach_sent;     /* the seat's own reach event was already sent (in the exchange
                             where it declared): not sent again before its dahai */
  uint32_t plays;         /* tk_riichi_plays_hash of the plays sent this hand */
  uint8_t after_call;     /* ACT: the turn seat called a chi or pon: it discards, no kan */
  /* choices of the branch being tried (stream.c, settle) */
  uint8_t caller;         /* AFTER_DISCARD: the seat that called it, or TK_RIICHI_NOBODY: find it */
  uint8_t accepted;       /* AFTER_DISCARD: its reach_accepted was sent */
  uint8_t choice;         /* ACT: 0 find it; 1 discard; 2 the closed kan; 3 + i the added kan of
                             meld i */
} tk_mjai_stream;

/* A new game for `seat` under the rules `length` (1 east-only, 2 hanchan) and `red_fives`. */
void tk_mjai_stream_begin(tk_mjai_stream *st, int seat, int length, int red_fives);

/* Appends the events between the previous decision and `v` (a view of st->seat). Sets
 * *ambiguous to 1 when several orders of plays explain the view (see above), else 0. Returns 0, or -1
 * when the view cannot follow the events sent (a view of another game or seat). */
int tk_mjai_stream_update(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b,
                          int *ambiguous);

/* Appends the end of the game: end_kyoku if a hand was sent, then end_game with the final
 * points. */
void tk_mjai_stream_end(tk_mjai_stream *st, const int32_t points[4], tk_mjai_buf *b);

#endif
