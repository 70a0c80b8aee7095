/* taikai/solve.h — the one-player search: for a hand, the seen tiles and the draws left, every
 * discard's probability of completing the hand and its expected score when the player then
 * plays optimally (expectimax over draws and discards, memoised on the hand).
 *
 * The model (docs/solo-agents.md, "The exact search"). Let r be the hand at the decision (3k+2
 * concealed tiles, or 3k+1 for a hand waiting to draw) and u[k] = 4 - r[k] - seen[k] the unseen
 * copies of kind k. Before each draw the wall holds w[k] = u[k] - max(0, h[k] - r[k]) copies of
 * k, h being the hand at that moment: the copies held beyond the decision's count have left it;
 * each draw is uniform over those tiles. So the state is the hand alone, as in the published
 * exact calculators (whose wall is 4 - h - seen): a tile drawn and discarded again counts as
 * back in the wall, and a drawn copy of a kind whose decision copy was discarded counts as that
 * copy; the decision's discards never return. A complete hand wins at once (the solo rule).
 * Within that model the answers are exact (brute-force tests: tests/test_solve.c). */
#ifndef TAIKAI_SOLVE_H
#define TAIKAI_SOLVE_H

#include "common.h"
#include "mahjong.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the player maximises. Ties (values within TK_SOLVE_TIE_EPS of each other, relative to
 * the larger when it exceeds 1) go, for the points, to the higher win probability; then to the
 * lower kind. The win objective ignores points (they are not computed), which lets its memo
 * merge hands equal up to relabelling the suits, reversing a suit and permuting the honors. */
#define TK_SOLVE_TIE_EPS 1e-12
enum tk_solve_objective {
  TK_SOLVE_WIN = 0,   /* probability of completing the hand */
  TK_SOLVE_POINTS = 1 /* expected points (0 without a win): the solo ruleset's, or those of the
                         scorer given in tk_solve_opts.score */
};

/* A scorer for TK_SOLVE_POINTS: the points of the complete hand `hand` (3k+2 concealed counts;
 * the called melds, which the caller knows, are implied by the count) won by drawing kind
 * `win_kind`; 0 for a hand that does not count as a win (no yaku). It must depend on its
 * arguments and `ctx` only, and be the same function of them for the whole tk_solve call. */
typedef double (*tk_solve_score_fn)(void *ctx, const uint8_t hand[TK_KINDS], int win_kind);

/* How the search ran. The exact mode's states grow fast with the draws to spare (draws left
 * minus shanten + 1): a 1-shanten hand with 8 draws needs over 300,000. Past the cap, the search
 * restarts in the direct mode, whose states are only hands of ever lower shanten (thousands at
 * 3-shanten with 17 draws): a policy of the model, so its values are lower bounds. */
enum tk_solve_mode {
  TK_SOLVE_EXACT = 0,   /* every discard considered: the optimum of the model */
  TK_SOLVE_FORWARD = 1, /* discards that raise the 14-tile hand's shanten skipped (a restricted
                           policy: lower bound; chosen only through first_mode) */
  TK_SOLVE_DIRECT = 2,  /* as forward, and a draw that does not lower the shanten is discarded at
                           once (no change of shape at equal shanten): lower bound, fast */
  TK_SOLVE_DETOUR = 3   /* as direct, plus `detours` moves that do not lower the shanten on any
                           line of play: a drawn tile kept at equal shanten (a change of shape) or
                           a discard that raises it. A hand h has used D(h) + shanten(h) - S0 of
                           them, D(h) being its tiles beyond the decision's counts (sum over k of
                           max(0, h[k] - r[k])) and S0 the decision hand's shanten (a root discard
                           that raises the shanten uses one); while that is below `detours`, every
                           draw is kept or thrown back at choice and every discard is allowed.
                           0 detours is the direct mode's policy, and 2 T + 1 detours (a move
                           may use two: a tile kept that does not help, and a discard that raises
                           the shanten) the exact mode's optimum; between, lower bounds that rise
                           with the budget. Built as the graph of the hands the policy can reach, then
                           valued draw by draw; past max_states nodes the search restarts with
                           one detour fewer, and from one, in the direct mode. */
};

typedef struct tk_solve_opts {
  int draws;          /* draws left after this decision, 0..TK_SOLVE_MAX_DRAWS */
  int objective;      /* enum tk_solve_objective */
  int dora_indicator; /* kind, or TK_TILE_NONE: the solo dora for the points */
  long max_states;    /* memoised states (the detour mode: nodes of its graph) allowed before the
                         search falls back to the direct mode; 0 = TK_SOLVE_DEFAULT_STATES. */
  int first_mode;     /* the mode tried first (enum tk_solve_mode; 0 = exact) */
  long max_direct_states; /* the direct mode's own cap (memory: ~0.6 KB a state for the win
                             objective, ~1 KB for the points, the drawn hands' memo included);
                             past it tk_solve fails with TK_ERANGE.
                             0 = TK_SOLVE_DEFAULT_DIRECT_STATES */
  tk_solve_score_fn score;  /* TK_SOLVE_POINTS: the scorer, called once per complete hand and
                               winning kind of the search (its answers are memoised for this
                               call only); hands with melds are then allowed. NULL: the solo
                               ruleset's points (tk_solo_score with dora_indicator), closed
                               hands only. */
  void *score_ctx;          /* passed to `score` */
  int detours;              /* TK_SOLVE_DETOUR: the budget above (0 .. 2 TK_SOLVE_MAX_DRAWS + 1) */
  int keep_shanten;         /* 3k+2 tiles: nonzero values only the discards that keep the hand's
                               shanten (what the published calculators show by default); the
                               others are left out of the result */
} tk_solve_opts;

enum { TK_SOLVE_MAX_DRAWS = 24, TK_SOLVE_DEFAULT_STATES = 100000, TK_SOLVE_DEFAULT_DIRECT_STATES = 1000000 };

typedef struct tk_solve_choice {
  int8_t discard; /* kind discarded, or -1 for a 3k+1-tile hand (no discard) */
  int8_t shanten; /* shanten of the hand after the discard */
  double win;     /* probability of completing the hand under the policy that maximises the
                     objective */
  double points;  /* TK_SOLVE_POINTS: the expected points (the objective); TK_SOLVE_WIN: 0, not
                     computed (except for a complete hand: its points) */
} tk_solve_choice;

typedef struct tk_solve_result {
  int n;                     /* choices: one per kind held (3k+2 tiles; with keep_shanten, per kind
                                whose discard keeps the shanten), or 1 (3k+1 tiles) */
  tk_solve_choice c[14];     /* ascending kind */
  int best;                  /* index of the choice maximising the objective (ties above) */
  int mode;                  /* enum tk_solve_mode that produced the values */
  long states;               /* memoised states of that mode's search */
  long nodes;                /* chance nodes expanded over all modes tried */
  int detours;               /* TK_SOLVE_DETOUR: the budget that answered (a cap lowers it) */
} tk_solve_result;

typedef struct tk_solver tk_solver;

/* A solver: its memo tables, reused across calls. Returns NULL on no memory. */
TK_API tk_solver *tk_solver_new(void);
/* Frees `s` (NULL is a no-op). */
TK_API void tk_solver_free(tk_solver *s);

/* Solves the decision for concealed counts `hand` (3k+2 tiles: one choice per kind held; 3k+1:
 * the hand as it is; the called melds are implied by the count, as in tk_shanten) and `seen`
 * (copies visible outside the hand: rivers, melds, dora indicators; may be NULL). A complete
 * 3k+2 hand has won: every choice is then (1, its points). The solo points are scored only for a
 * closed hand (13 or 14 tiles): with melds and no scorer of its own, TK_SOLVE_POINTS is refused.
 * Deterministic:
 * the same input gives the same output on every machine. Returns 0, or TK_EINVAL (bad counts,
 * draws or objective; detail in `err`), TK_ERANGE (the direct mode's cap reached) or TK_ENOMEM. */
TK_API int tk_solve(tk_solver *s, const uint8_t hand[TK_KINDS], const uint8_t *seen,
                    const tk_solve_opts *opts, tk_solve_result *out, tk_error *err);

/* The four-player scorer (tk_solve_opts.score = tk_solve_riichi_points, score_ctx = a
 * tk_solve_riichi): a complete hand is scored as a tsumo under the Tenhou rules (tk_score_counts)
 * with the seat and round winds, the dora indicators and the melds given, riichi declared when
 * no meld is open (a player who declares at every tenpai), and the points the winner receives
 * without honba or sticks (a dealer 3 x pay_all, else pay_dealer + 2 x pay_non_dealer); 0 when
 * the hand has no yaku. Red fives, ura-dora, ippatsu, haitei, rinshan and ron are outside the
 * model (the counts do not tell a red five from a plain one). */
typedef struct tk_solve_riichi {
  tk_win_ctx w;
  tk_call calls[4];
  int ncalls;
} tk_solve_riichi;

/* Fills `r`: winds 0 E .. 3 N (seat 0 is the dealer), `ndora` indicator kinds, the `ncalls`
 * melds (closed kans included; at most 4 of each are kept). */
TK_API void tk_solve_riichi_init(tk_solve_riichi *r, int seat_wind, int round_wind,
                                 const uint8_t *dora_kinds, int ndora, const tk_call *calls,
                                 int ncalls);
TK_API double tk_solve_riichi_points(void *ctx, const uint8_t hand[TK_KINDS], int win_kind);

/* Name of a mode: "exact", "forward", "direct", "detour". */
TK_API const char *tk_solve_mode_name(int mode);

#ifdef __cplusplus
}
#endif
#endif
