/* tests/daifugo/dt.h — helpers of the daifugo tests: games set up from hands in card notation,
 * scripted plays that report the engine's error, legal lists searched by notation, and the
 * invariants every state must keep. */
#ifndef TAIKAI_TESTS_DT_H
#define TAIKAI_TESTS_DT_H
#include "taikai/daifugo.h"

/* Sets up `g` from five hands in notation ("" = no cards; NULL = every card no other hand
 * holds, which leaves no card played), seats = player ids, `leader` leads. 0 or fails the test. */
int dt_game(tk_daifugo_game *g, const char *h0, const char *h1, const char *h2, const char *h3,
            const char *h4, int leader);
/* Plays `text` for `player`; returns the engine's code (the error text in dt_err). */
int dt_play(tk_daifugo_game *g, int player, const char *text);
extern char dt_err[512];
/* 1 if `text` is in g->turn's legal list. */
int dt_legal(const tk_daifugo_game *g, const char *text);
/* The legal list of g->turn as one string ("pass | S3 | ..."), for messages. */
const char *dt_legal_str(const tk_daifugo_game *g);
/* The number of legal actions of g->turn (pass included). */
int dt_nlegal(const tk_daifugo_game *g);
uint64_t dt_cards(const char *text);
/* Checks the invariants of a game (deck partition, order, turn; not the legal list); returns the number of failures
 * (reported through the test runner with `ctx`). */
int dt_check_game(const tk_daifugo_game *g, const char *ctx);
#endif
