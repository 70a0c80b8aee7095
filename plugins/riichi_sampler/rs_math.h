/* plugins/riichi_sampler/rs_math.h — exp, log and cos(2 pi u) from IEEE-754 +, -, x, / and the
 * exact ldexp/frexp alone, for the sampler's noise (Box-Muller) and activations (SiLU).
 *
 * Why not libm: glibc picks among variants of exp, log, cos and expf at run time by CPU (FMA or
 * not: ifunc), and they need not agree in the last bit; the sampler promises the same samples
 * for the same rng state on every machine (a tournament is byte-identical for a seed), so its
 * few transcendental functions are computed here in a fixed order of basic operations, which
 * IEEE-754 rounds the same everywhere (the sources are compiled with -ffp-contract=off so that
 * no compiler fuses them). Accuracy: a few units in the last place of a double over the ranges
 * used, far below what a float network can tell apart. */
#ifndef RIICHI_SAMPLER_RS_MATH_H
#define RIICHI_SAMPLER_RS_MATH_H

#include <math.h>

/* e^x for |x| < 700 (beyond: clamped). */
static inline double rs_exp(double x) {
  if (x > 700) x = 700;
  if (x < -700) x = -700;
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  double kf = x * 1.4426950408889634; /* x / ln 2, rounded to the nearest integer below */
  int k = (int)(kf < 0 ? kf - 0.5 : kf + 0.5);
  double r = (x - k * ln2_hi) - k * ln2_lo; /* |r| <= 0.35 */
  /* Taylor to r^13 / 13!: 0.35^14 / 14! < 1e-16 */
  double p = 1.0 / 6227020800.0;
  static const double inv[13] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                                 1.0 / 362880.0, 1.0 / 40320.0, 1.0 / 5040.0, 1.0 / 720.0,
                                 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0};
  for (int i = 0; i < 13; i++) p = p * r + inv[i];
  return ldexp(p, k);
}

/* ln x for x > 0. */
static inline double rs_log(double x) {
  int e;
  double m = frexp(x, &e); /* x = m 2^e, m in [0.5, 1) */
  if (m < 0.70710678118654752) m *= 2, e--;
  double s = (m - 1) / (m + 1), s2 = s * s; /* |s| < 0.172 */
  /* ln m = 2 (s + s^3/3 + ... + s^21/21): the next term < 1e-17 */
  double p = 1.0 / 21;
  for (int i = 19; i >= 1; i -= 2) p = p * s2 + 1.0 / i;
  return 2 * s * p + e * 0.69314718055994530942;
}

/* cos(2 pi u) for any finite u (floor is exact). */
static inline double rs_cos2pi(double u) {
  u -= floor(u);
  double v = u - (u >= 0.5 ? 1.0 : 0.0); /* [-0.5, 0.5): cos is even and 2 pi-periodic */
  if (v < 0) v = -v;
  int neg = 0;
  if (v > 0.25) v = 0.5 - v, neg = 1; /* cos(pi - a) = -cos(a) */
  double t = 6.283185307179586477 * v, t2 = t * t; /* t in [0, pi/2] */
  /* Taylor to t^22 / 22!: (pi/2)^24 / 24! < 1e-19 */
  double p = 0;
  double c = 1;
  double terms[12];
  for (int i = 0; i < 12; i++) {
    terms[i] = c;
    c = -c / ((2 * i + 1) * (2 * i + 2));
  }
  for (int i = 11; i >= 0; i--) p = p * t2 + terms[i];
  return neg ? -p : p;
}

#endif
