/* harness/games/daifugo/daifugo_log.h — JSON-lines logs of daifugo blocks (docs/daifugo.md, "Logs"): the
 * lines of every event, written by the referee adapter (`taikai run --logs`), and a reader that
 * replays a log through the engine (`taikai replay`).
 *
 * One log holds one block (a unit): a start_block line (seed, block index, rules, the agents'
 * names by player id), then per game a deal line, the automatic transfers, the exchange (give),
 * every play and pass, and an end_game line; an end_block line with the block's totals closes
 * it. Cards and plays are in the engine's notation (taikai/daifugo.h: "S3 S4 JK[S5]"). The
 * lines after start_block are a pure function of the block's state before and after each
 * action: the writer and the reader build them with the same functions below, so a replay
 * compares each log line with the engine's line for the same action. */
#ifndef TAIKAI_HARNESS_DAIFUGO_LOG_H
#define TAIKAI_HARNESS_DAIFUGO_LOG_H

#include <stdio.h>

#include <jansson.h>

#include "taikai/daifugo.h"

enum { TK_DAIFUGO_LOG_FORMAT = 1 }; /* start_block's "format" */

/* What the lines of an action need from the block before it is applied (the game it ends may be
 * replaced by the next one's deal). */
typedef struct tk_daifugo_log_pre {
  uint32_t game;      /* game index within the block */
  uint8_t exchange;   /* 1: an exchange decision */
  uint8_t seat;       /* the actor's seat */
  uint8_t to;         /* exchange: the receiver of the card */
  uint8_t reserved;
  int32_t sennichite; /* totals.sennichite */
  uint64_t hand;      /* the actor's hand */
} tk_daifugo_log_pre;

void tk_daifugo_log_pre_of(const tk_daifugo_block *b, int player, tk_daifugo_log_pre *pre);

/* The start_block line (names NULL or entries NULL: "player0" …), a new object or NULL when out
 * of memory. */
json_t *tk_daifugo_log_start_block(const tk_daifugo_block *b, const char *const names[5]);
/* Appends to `lines` the deal line of the game now dealt in `b`, and its automatic transfers
 * (the daihinmin's two strongest cards to the daifugo, the hinmin's strongest to the fugo).
 * Returns 0 or TK_ENOMEM. */
int tk_daifugo_log_deal(const tk_daifugo_block *b, json_t *lines);
/* Appends to `lines` the lines of `player`'s action `m` just applied to `b` (`pre` taken before
 * it): the give, play or pass line; then, if it ended a game, the end_game line and either the
 * next game's deal and transfers or the end_block line. Returns 0 or TK_ENOMEM. */
int tk_daifugo_log_action(const tk_daifugo_log_pre *pre, const tk_daifugo_block *b, int player,
                          const tk_daifugo_move *m, json_t *lines);

/* The writer: lines to a FILE (the loop opens it; plain or compressed is the loop's concern). */
typedef struct tk_daifugo_log {
  FILE *f;   /* borrowed */
  int error; /* set once a write failed or memory ran out */
} tk_daifugo_log;

/* Writes the start_block line and game 0's deal of the block just initialised. */
void tk_daifugo_log_begin(tk_daifugo_log *log, FILE *f, const tk_daifugo_block *b,
                          const char *const names[5]);
/* Writes the lines of tk_daifugo_log_action. */
void tk_daifugo_log_write(tk_daifugo_log *log, const tk_daifugo_log_pre *pre,
                          const tk_daifugo_block *b, int player, const tk_daifugo_move *m);

enum { TK_DAIFUGO_REPLAY_TEXT = 1024 };

typedef struct tk_daifugo_replay {
  int lines;              /* lines read */
  int games;              /* games replayed to their end_game */
  int actions;            /* actions applied (gives, plays, passes) */
  uint64_t block;         /* the block index */
  int32_t points[5];      /* end_block's totals by player id: server scale */
  int32_t paper_points[5];/* the paper's scale */
  /* When the replay fails: */
  int bad_line;                          /* the log's line (1-based); 0 if none */
  char bad_event[32];                    /* that line's "type", "" if none */
  char bad_what[320];                    /* what went wrong */
  char bad_field[32];                    /* the first field that differs, "" if none */
  char expected[TK_DAIFUGO_REPLAY_TEXT]; /* the engine's value of bad_field (else its line) */
  char logged[TK_DAIFUGO_REPLAY_TEXT];   /* the log's value of bad_field (else its line) */
} tk_daifugo_replay;

/* Replays the log in `f` (one block): the block is dealt again from the seed, block index and
 * rules of start_block; each give, play and pass line is applied for its player, who must be the
 * one to act, and must be legal; every line must equal the engine's line for that point of the
 * block (deals and hands, transfers, actions with seats, each game's places, classes, points
 * and sennichite, the block's totals), and the log must end with the block. Returns 0 with `out`
 * filled; TK_EPARSE (a line that is not JSON) or TK_EINVAL (the first mismatch), with the bad_*
 * fields of `out` set and a one-line summary, line number first, in `err`; TK_ENOMEM. */
int tk_daifugo_log_replay(FILE *f, tk_daifugo_replay *out, tk_error *err);

#endif
