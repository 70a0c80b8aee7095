/* taikai/rng.h — explicit-state random numbers for rules engines and agents.
 *
 * tk_rng is xoshiro256** (Blackman & Vigna), seeded through SplitMix64. tk_rng_seed2 derives
 * an independent stream from (seed, counter) so that e.g. wall i of a tournament is a pure
 * function of (seed, i): a counter-based construction, independent of the order in which
 * walls are dealt or of the number of worker processes. */
#ifndef TAIKAI_RNG_H
#define TAIKAI_RNG_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_rng {
  uint64_t s[4]; /* xoshiro256** state, never all zero */
} tk_rng;

/* Seeds `r` from one 64-bit seed. */
TK_API void tk_rng_seed(tk_rng *r, uint64_t seed);
/* Seeds `r` from (seed, stream): distinct streams give independent sequences. */
TK_API void tk_rng_seed2(tk_rng *r, uint64_t seed, uint64_t stream);
/* Next 64 random bits. */
TK_API uint64_t tk_rng_next(tk_rng *r);
/* Uniform integer in [0, n) without modulo bias; n must be > 0. */
TK_API uint32_t tk_rng_below(tk_rng *r, uint32_t n);
/* Uniform double in [0, 1). */
TK_API double tk_rng_double(tk_rng *r);
/* SplitMix64 finaliser: a good 64-bit mixing function (used for seed derivation). */
TK_API uint64_t tk_mix64(uint64_t x);

#ifdef __cplusplus
}
#endif
#endif
