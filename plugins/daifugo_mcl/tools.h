/* plugins/daifugo_mcl/tools.h — what the programs of this folder (daifugo_mcl_train,
 * daifugo_mcl_teacher_noise) share besides the features: their integer arguments and the order
 * in which the trainer's run with a given seed takes the kept positions, which the noise tool
 * must repeat to work on the same held-out set. */
#ifndef DAIFUGO_MCL_TOOLS_H
#define DAIFUGO_MCL_TOOLS_H

#include <stddef.h>
#include <stdlib.h>

#include "taikai/rng.h"

/* *out = v as a base-10 integer in [lo, hi]; returns 0, or -1 (NULL, not a number, trailing
 * characters, out of range) leaving *out unchanged. */
static inline int dmcl_parse_long(const char *v, long lo, long hi, long *out) {
  char *end = NULL;
  if (!v) return -1;
  long x = strtol(v, &end, 10);
  if (end == v || *end || x < lo || x > hi) return -1;
  *out = x;
  return 0;
}

/* idx = 0 .. n-1 shuffled by Fisher-Yates from tk_rng_seed(seed); *rng is left after it (the
 * trainer's NN draws its initial weights from it next). */
static inline void dmcl_shuffle(size_t *idx, size_t n, unsigned long long seed, tk_rng *rng) {
  tk_rng_seed(rng, seed);
  for (size_t i = 0; i < n; i++) idx[i] = i;
  for (size_t i = n - 1; i > 0 && n > 0; i--) {
    size_t j = (size_t)(tk_rng_next(rng) % (i + 1));
    size_t t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
}

#endif
