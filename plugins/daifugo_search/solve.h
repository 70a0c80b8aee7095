/* plugins/daifugo_search/solve.h — the exact searches of the `daifugo_search` agent: the mate
 * test (can `me` go out by its own plays, whatever the unseen cards?) and the two-player ending
 * solver (perfect information once three players are out). Both drive the engine's public API
 * only (tk_daifugo_game_legal / _play / _can_play), so every rule (passes and clears, 8-cuts,
 * the ♠3 over a lone joker, lock, revolution, sennichite) is the engine's. A static library
 * (`tk_daifugo_search_solve`) compiled with hidden visibility into the plugin. Deterministic; no
 * allocation after dsol_two_new. */
#ifndef TAIKAI_PLUGINS_DSOL_SOLVE_H
#define TAIKAI_PLUGINS_DSOL_SOLVE_H

#include <stdint.h>

#include "taikai/common.h"
#include "taikai/daifugo.h"

#if defined(__GNUC__)
#define DSOL_HIDDEN __attribute__((visibility("hidden")))
#else
#define DSOL_HIDDEN
#endif

/* Results besides 1 (proven) and 0 (disproven). */
enum {
  DSOL_UNKNOWN = -1, /* the node budget (or a fixed work bound) ran out first */
  DSOL_EARG = -2     /* a precondition does not hold (named in each contract) */
};

/* ------------------------------------------------------------ the mate test */

/* A budget that keeps a mate test near 0.1 ms at worst (1.6 µs on average at the decisions of
 * random games; solve.c's cost note). */
enum { DSOL_MATE_NODES = 256 };

/* Whether `me` can go out by a sequence of its own plays that no other player can interrupt,
 * however the cards `unseen` (not played, not in me's hand) are held. Preconditions (else
 * DSOL_EARG): `g` not over, g->turn == me. The other hands of `g` count only by their sizes: a
 * player holding k cards cannot answer a play of more than k.
 * Each play but the last (which empties the hand) must leave me to act (an 8-cut, the ♠3 over a
 * lone joker, every other player already passed on this table) or be unbeatable by any player
 * still to act on the table holding every unseen card; the others then pass and me acts over
 * its own play (it may play over it, or pass to clear the table and lead). A pass of me counts
 * only when it clears the table to me; a line that reaches the sennichite count is refused; the
 * order after each play (revolution, lock) is the engine's.
 * Returns 1 with `*first` (may be NULL; written only then) the line's first move; 0 when no such
 * line exists; DSOL_UNKNOWN when `max_nodes` decisions of me were expanded (or 1,024 moves were
 * pending) first. `*nodes` (may be NULL): decisions expanded. Work: at most max_nodes legal
 * lists, and per listed move at most two plays (with the others' passes) and two
 * tk_daifugo_game_can_play. */
DSOL_HIDDEN int dsol_mate(const tk_daifugo_game *g, int me, uint64_t unseen, int max_nodes,
                          tk_daifugo_move *first, int *nodes);

/* ------------------------------------------------------------ the two-player ending solver */

/* The solver's memory: a transposition table and a move stack, allocated once. */
typedef struct dsol_two dsol_two;

/* A table of 2^tt_bits entries of 32 bytes (10..26; 16 = 2 MiB is a good default) and a move
 * stack of 65,536 moves (1 MiB). Returns the solver (owned by the caller: dsol_two_free), or
 * NULL with `err` (may be NULL) set: TK_ERANGE for tt_bits, TK_ENOMEM. */
DSOL_HIDDEN dsol_two *dsol_two_new(int tt_bits, tk_error *err);
/* Frees `s`; NULL is a no-op. */
DSOL_HIDDEN void dsol_two_free(dsol_two *s);

/* Solves a game in which exactly two players hold cards, `me` one of them, and g's hands are
 * the true ones (perfect information): 1 if me can force going out before the other, 0 if not.
 * A game ended by sennichite counts as not going out first (its places are drawn: a coin toss
 * is no proven win), so 0 means the other can force its own going out or a sennichite. Every
 * legal action is searched, the pass included, on every table (minimax with a transposition
 * table; the result is exact, not a heuristic). Either player may be to act.
 * `*best` (may be NULL; written only when 1 or 0 is returned) gets g->turn's move: a move that
 * achieves the result best for the mover
 * (for me: a winning move when 1; for the other: a move that keeps me from winning when 0), or
 * else the first move of the mover's ordering (plays that empty the hand, then 8-cuts, then
 * more cards before fewer, the pass last).
 * Returns 1, 0, DSOL_UNKNOWN when more than `max_nodes` positions would be searched, the move
 * stack filled or a line ran past 512 actions (the caller then falls back to sampling), or
 * DSOL_EARG (`s` NULL, g over, not exactly two holders, me not one of them). `*nodes` (may be
 * NULL): positions searched. The table is cleared at each call (a generation count), so calls
 * are independent and the result is a function of (g, me, max_nodes) only. */
DSOL_HIDDEN int dsol_two_solve(dsol_two *s, const tk_daifugo_game *g, int me, long max_nodes,
                               tk_daifugo_move *best, long *nodes);

#endif
