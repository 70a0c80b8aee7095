/* plugins/riichi_sampler/constrained.h — paper 003's S1 sampler ("constrained") and what the
 * S2 sampler ("weighted") reuses of it: the Metropolis chain over the concealed hands of the
 * opponents in closed riichi (docs/riichi-samplers.md, "constrained"). Internal to the library;
 * the chain is exposed for the tests, which compare its distribution with exact enumeration. */
#ifndef RIICHI_SAMPLER_CONSTRAINED_H
#define RIICHI_SAMPLER_CONSTRAINED_H

#include <stdint.h>

#include <jansson.h>

#include "rsamp.h"

/* The chain's options (the "constrained" sampler's JSON keys, which "weighted" also takes). */
typedef struct rs_cons_opts {
  int sweeps;     /* Metropolis sweeps per sample; one sweep = one proposal per concealed tile of
                     each constrained seat */
  int init_steps; /* bound on the penalty descent that finds a first valid hand, per seat */
} rs_cons_opts;
enum { RS_CONS_SWEEPS = 16, RS_CONS_INIT_STEPS = 4000 }; /* defaults, chosen in the doc */

/* What a sampler counted since it was opened (for the tests and the benchmarks). */
typedef struct rs_cons_stats {
  uint64_t samples;     /* hand sets drawn (for "weighted": proposals) */
  uint64_t seats;       /* constrained seats met */
  uint64_t fallbacks;   /* of which no valid hand was found within init_steps: uniform hand kept */
  uint64_t proposals;   /* Metropolis proposals after the start (the descent not counted) */
  uint64_t accepted;    /* of which accepted (a swap of two tiles of one kind included) */
  uint64_t init_steps;  /* proposals spent in the descents */
  double ess_sum;       /* "weighted": sum over samples of the effective sample size of the weights */
  uint64_t calls;       /* "weighted": samples drawn (each from its own proposals) */
} rs_cons_stats;

/* The ctx of "constrained", and the first member of "weighted"'s. */
typedef struct rs_cons_ctx {
  rs_cons_opts o;
  rs_cons_stats st;
} rs_cons_ctx;

/* The chain's state: the constrained seats' concealed tiles and the pool they trade with (every
 * tile the viewer cannot see that no other constrained seat holds: the other hidden hands, the
 * live wall, the unrevealed dead wall). The target is the uniform distribution over the
 * arrangements of these tiles (tiles are distinct objects: a red five is not a plain one) in
 * which every seat of the chain satisfies rs_cons_valid. */
typedef struct rs_chain {
  int nseat;
  int n[4];                  /* concealed tiles of each chain seat (13 - 3 x its closed kans) */
  uint8_t tiles[4][14];      /* tk_tile */
  uint8_t cnt[4][TK_KINDS];  /* the same as counts per kind */
  uint64_t river[4];         /* kinds in each seat's own river */
  uint8_t failed[4];         /* set by rs_chain_run: no valid start found, the hand is as given */
  int npool;
  uint8_t pool[TK_RIICHI_TILES];
} rs_chain;

/* Closed riichi tenpai as the engine would hold it: shanten 0 (any form), at least one wait
 * (tk_waits: a kind held 4 times is never one), and none of the waits in `river` (the seat would
 * be furiten; every tile it let go after riichi by tsumogiri is in its river, so those are not
 * waits either). */
int rs_cons_valid(const uint8_t c[TK_KINDS], uint64_t river);

/* Runs the chain from its current state: each seat first descends to a valid hand (Metropolis
 * on exp(-penalty), the penalty 0 exactly on valid hands: constrained.c), at most
 * o->init_steps proposals, else it is
 * restored to its starting hand, marked failed and left out of the chain; then o->sweeps sweeps
 * of swaps (hand tile i, pool tile j, both uniform) accepted iff the new hand is valid. Draws
 * from rng only. */
void rs_chain_run(rs_chain *c, const rs_cons_opts *o, tk_rng *rng, rs_cons_stats *st);

/* One constrained draw of every hidden hand of the view: a uniform arrangement of the unseen
 * tiles, then rs_chain_run over the seats in closed riichi (no meld but closed kans) other than
 * the viewer. On return hands[s] / red[s] hold every non-viewer seat's concealed tiles (as
 * tk_riichi_from_view_hands takes them) and *given the mask of those seats. Returns 0, or
 * TK_EINVAL for an inconsistent view. */
int rs_constrained_hands(const rs_cons_opts *o, const tk_riichi_view *v,
                         const tk_riichi_rules *rules, tk_rng *rng, uint8_t hands[4][TK_KINDS],
                         uint8_t red[4], unsigned *given, rs_cons_stats *st, tk_error *err);

/* Reads the chain's keys ("sweeps", "init_steps") of an options object into o; other keys are
 * left to the caller (whose list of known keys is `known`, for the message). Returns 1 when
 * `key` was one of them, 0 when not, or TK_EINVAL with err naming sampler, key and value. */
int rs_cons_option(const char *sampler, const char *key, json_t *val, rs_cons_opts *o,
                   tk_error *err);

/* Opens "constrained" (rsamp.c's table): options "sweeps", "init_steps". */
int rs_open_constrained(rs_sampler *s, const char *options_json, const char *file, tk_error *err);
/* Opens "weighted" (weighted.c). */
int rs_open_weighted(rs_sampler *s, const char *options_json, const char *file, tk_error *err);

/* "weighted"'s factor for opponent o of the view holding `hand` (counts) with the red fives of
 * `red_bits` (bit u: suit u) now: the log-likelihood of its last hand-cut discard under the
 * softmax, at `temperature`, of the one-player policy's scores (weights `w`) over the discards of
 * the hand it held before it (weighted.c says when that hand is known). *used (may be NULL) is 0
 * when the factor is 1 because that hand is not known, or the discard not in it. For tests. */
double rs_weighted_loglik(const double *w, double temperature, const tk_riichi_view *v, int o,
                          const uint8_t hand[TK_KINDS], int red_bits, int *used);

/* The counters of an opened "constrained" or "weighted" sampler, or NULL for another. */
const rs_cons_stats *rs_sampler_cons_stats(const rs_sampler *s);

#endif
