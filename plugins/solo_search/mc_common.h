/* plugins/solo_search/mc_common.h — helpers shared by the three Monte Carlo plugins (mc,
 * komatsu, alpha): their common parameters, the argmax with its tie-break, the unseen tiles.
 * Internal to the plugins (hidden visibility). */
#ifndef TAIKAI_PLUGINS_MC_COMMON_H
#define TAIKAI_PLUGINS_MC_COMMON_H

#include <stdint.h>

#include "taikai/common.h"
#include "taikai/rng.h"
#include "taikai/solo.h"

#if defined(__GNUC__)
#define TK__MC_HIDDEN __attribute__((visibility("hidden")))
#else
#define TK__MC_HIDDEN
#endif

enum { TK__TIE_FIRST = 0, TK__TIE_RANDOM = 1 };
/* Where the future draws of a playout come from ("sample_from"): the tiles the player has not
 * seen (4 - held - own discards - dora indicator; the default), or every tile it does not hold
 * (4 - held: discards and the indicator forgotten, a reading of the thesis's "assume random
 * future tiles" that a simpler implementation would make). */
enum { TK__SAMPLE_UNSEEN = 0, TK__SAMPLE_NOT_HELD = 1 };
enum { TK__MC_MAX_PLAYOUTS = 10000000 };

/* The parameters of the three Monte Carlo plugins. */
typedef struct tk__mc_params {
  int playouts;      /* N: "playouts", 1..10^7 (default 1000) */
  int tie_break;     /* TK__TIE_*: "tie_break", "first" (default) or "random" */
  int sample_from;   /* TK__SAMPLE_*: "sample_from", "unseen" (default) or "not_held" */
  int extra_draws;   /* "extra_draws", 0..TK__MC_MAX_EXTRA_DRAWS (default 0): a playout imagines
                        the draws left plus this many (capped by the tiles it samples from); 1
                        reads the thesis's "remaining turns" as counting the current one */
  int alpha_milli;   /* "alpha" in thousandths (alpha plugin only; default 800) */
  int prefer_points; /* "prefer_points" (alpha plugin only; default 0) */
} tk__mc_params;
enum { TK__MC_MAX_EXTRA_DRAWS = 4 };

/* Parses the parameters from the JSON object text `params_json` into `*out` (defaults above).
 * "alpha" (a number 0 <= x <= 1 that is a multiple of 0.001) and "prefer_points" (a boolean)
 * are accepted only with `with_alpha`; every other name is refused. Returns 0 or a negative
 * TK_E code with `err` naming the agent `name` and the parameter. */
TK__MC_HIDDEN int tk__mc_parse(const char *name, const char *params_json, int with_alpha,
                               tk__mc_params *out, tk_error *err);

/* The number of future draws a playout imagines at view `v`: the draws left plus `extra`,
 * at most `n` (the tiles sampled from). */
static inline int tk__mc_future_draws(const tk_solo_view *v, int extra, int n) {
  int d = v->draws - v->turn + extra;
  return d > n ? n : d;
}

/* The argmax of `value` over the kinds of `legal`: ties go to the lowest kind (TK__TIE_FIRST, the
 * thesis's argmax over its sorted hand), or uniformly among the tied kinds drawn from `rng`
 * (TK__TIE_RANDOM). */
TK__MC_HIDDEN int tk__mc_argmax(const int64_t *value, const tk_solo_legal *legal, int tie_break,
                                tk_rng *rng);

/* Writes the tiles future draws are sampled from to `out` (room for TK_SOLO_WALL_TILES),
 * ascending, and returns their number: with TK__SAMPLE_UNSEEN the tiles the player has not seen
 * (kind k repeated v->unseen[k] times), with TK__SAMPLE_NOT_HELD those it does not hold
 * (4 - v->hand[k] times). */
TK__MC_HIDDEN int tk__mc_unseen_tiles(const tk_solo_view *v, int sample_from, uint8_t *out);

/* Moves a uniform sample of `d` of the `n` tiles of `t` to t[0..d-1] (partial Fisher-Yates; the
 * rest of `t` is permuted). d <= n. */
static inline void tk__mc_sample(uint8_t *t, int n, int d, tk_rng *rng) {
  for (int i = 0; i < d; i++) {
    int j = i + (int)tk_rng_below(rng, (uint32_t)(n - i));
    uint8_t x = t[i];
    t[i] = t[j];
    t[j] = x;
  }
}

#endif
