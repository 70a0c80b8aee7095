/* arenas/common/sha256.c — SHA-256 as FIPS 180-4 specifies it (sections 4.1.2, 4.2.2, 5.1.1,
 * 5.3.3, 6.2.2), byte-oriented and endian-independent. Invariant: `fill` < 64 between calls;
 * a full block is compressed as soon as it is complete. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "taikai/file.h"
#include "taikai/sha256.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t h[8], const uint8_t *p) {
  uint32_t w[64];
  for (int t = 0; t < 16; t++)
    w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 |
           (uint32_t)p[4 * t + 3];
  for (int t = 16; t < 64; t++) {
    uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
  for (int t = 0; t < 64; t++) {
    uint32_t big1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = k + big1 + ch + K[t] + w[t];
    uint32_t big0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = big0 + maj;
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += k;
}

void tk_sha256_init(tk_sha256 *c) {
  static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(c->h, h0, sizeof h0);
  c->bytes = 0;
  c->fill = 0;
}

void tk_sha256_update(tk_sha256 *c, const void *data, size_t n) {
  const uint8_t *p = data;
  c->bytes += n;
  if (c->fill) {
    size_t take = 64 - c->fill < n ? 64 - c->fill : n;
    memcpy(c->block + c->fill, p, take);
    c->fill += take;
    p += take;
    n -= take;
    if (c->fill < 64) return;
    compress(c->h, c->block);
    c->fill = 0;
  }
  for (; n >= 64; p += 64, n -= 64) compress(c->h, p);
  if (n) memcpy(c->block, p, n);
  c->fill = n;
}

void tk_sha256_final(tk_sha256 *c, uint8_t digest[TK_SHA256_BYTES]) {
  uint64_t bits = c->bytes * 8;
  /* padding: a 1 bit, zeros up to 56 bytes mod 64, the length in bits big-endian */
  c->block[c->fill++] = 0x80;
  if (c->fill > 56) {
    memset(c->block + c->fill, 0, 64 - c->fill);
    compress(c->h, c->block);
    c->fill = 0;
  }
  memset(c->block + c->fill, 0, 56 - c->fill);
  for (int i = 0; i < 8; i++) c->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
  compress(c->h, c->block);
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 4; j++) digest[4 * i + j] = (uint8_t)(c->h[i] >> (24 - 8 * j));
  c->fill = 0;
}

void tk_sha256_hex(const uint8_t digest[TK_SHA256_BYTES], char hex[TK_SHA256_HEX]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < TK_SHA256_BYTES; i++) {
    hex[2 * i] = digits[digest[i] >> 4];
    hex[2 * i + 1] = digits[digest[i] & 15];
  }
  hex[64] = '\0';
}

void tk_sha256_bytes(const void *data, size_t n, char hex[TK_SHA256_HEX]) {
  tk_sha256 c;
  uint8_t d[TK_SHA256_BYTES];
  tk_sha256_init(&c);
  tk_sha256_update(&c, data, n);
  tk_sha256_final(&c, d);
  tk_sha256_hex(d, hex);
}

int tk_sha256_file(const char *path, char hex[TK_SHA256_HEX], tk_error *err) {
  hex[0] = '\0';
  FILE *f;
  int rc = tk_file_fopen(path, "rb", 0, &f, err);
  if (rc) return rc;
  tk_sha256 c;
  tk_sha256_init(&c);
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) tk_sha256_update(&c, buf, n);
  int bad = ferror(f);
  int e = errno;
  fclose(f);
  if (bad) return tk_error_set(err, TK_EIO, -1, "%s: cannot read: %s", path, strerror(e));
  uint8_t d[TK_SHA256_BYTES];
  tk_sha256_final(&c, d);
  tk_sha256_hex(d, hex);
  return 0;
}
