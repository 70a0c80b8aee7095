/* plugins/riichi_efr/efr_data.h — what the EFR trainer learns from: the hand boundaries of
 * complete games with the games' final ranks, and each hand's outcome as a score change (the
 * Monte-Carlo cross-check's per-hand distribution), read from mjai logs.
 *
 * Every game is replayed through the engine (harness/games/riichi/riichi_log.h); a boundary is
 * the game at the first decision of a hand (nothing has moved since the deal). Each hand's
 * outcome comes from its hora / ryukyoku / reach_accepted lines, checked against the next
 * boundary. Games are numbered from 0 in the order read (files in the order given, a folder's
 * logs in name order, a file's games in order); a game without end_game (a log cut short) is
 * skipped and counted. */
#ifndef RIICHI_EFR_DATA_H
#define RIICHI_EFR_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "efr.h"

/* A hand boundary of a complete game. */
typedef struct efr_point {
  rm_efr_state s;
  uint8_t rank[4];  /* the game's final ranks (tk_riichi_ranks of end_game's scores) */
  uint32_t game;    /* the game's number */
} efr_point;

typedef struct efr_data {
  efr_point *pt;
  size_t npt, cap_pt;
  efr_hand *hand;
  size_t nhand, cap_hand;
  uint64_t games;      /* games read, complete or not (the next game's number) */
  uint64_t incomplete; /* games without end_game, skipped */
} efr_data;

/* Reads `path` — a log (*.jsonl, *.jsonl.gz: one game or many), a folder of them (name order),
 * or a run folder (holding spec.json: its logs/) — appending to `d`. Returns 0, or TK_EIO /
 * TK_EPARSE / TK_EINVAL (a game the engine cannot replay, an outcome that disagrees with the
 * next hand) / TK_ENOMEM with the file and line in `err`. */
int efr_data_read(const char *path, efr_data *d, tk_error *err);

/* Reads one game's log text (lines text[0 .. len)), numbered d->games; `where` names it in
 * messages. As efr_data_read. */
int efr_data_game(const char *where, const char *text, size_t len, efr_data *d, tk_error *err);

void efr_data_free(efr_data *d);

#endif
