/* arenas/common/rng.c — xoshiro256** seeded through SplitMix64; (seed, stream) derivation. */
#include "taikai/rng.h"

uint64_t tk_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

void tk_rng_seed(tk_rng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) {
    x += 0x9e3779b97f4a7c15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    r->s[i] = z ^ (z >> 31);
  }
  if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1;
}

void tk_rng_seed2(tk_rng *r, uint64_t seed, uint64_t stream) {
  /* Two rounds of mixing so that nearby (seed, stream) pairs give unrelated states. */
  tk_rng_seed(r, tk_mix64(tk_mix64(seed) ^ (stream * 0xd1b54a32d192ed03ULL + 0x8bb84b93962eacc9ULL)));
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tk_rng_next(tk_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint32_t tk_rng_below(tk_rng *r, uint32_t n) {
  /* Lemire's nearly divisionless method. */
  uint64_t m = (uint64_t)(uint32_t)(tk_rng_next(r) >> 32) * n;
  uint32_t l = (uint32_t)m;
  if (l < n) {
    uint32_t t = (uint32_t)(-n) % n;
    while (l < t) {
      m = (uint64_t)(uint32_t)(tk_rng_next(r) >> 32) * n;
      l = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

double tk_rng_double(tk_rng *r) { return (double)(tk_rng_next(r) >> 11) * 0x1.0p-53; }
