/* tests/fuzz/fuzz_tiles.c — libFuzzer harness for the tile notation (arenas/mahjong/tiles.c):
 * tk_tiles_parse on any bytes, then properties of what it accepts: every tile is a valid kind
 * (red only on fives), formatting and parsing again gives the same tiles, error returns carry
 * a message and a position inside the input; tk_tile_parse1 / tk_tile_from_mjai on the same
 * bytes; and, for a possible hand of 1..14 tiles, shanten, effective tiles and waits agree with
 * each other. Built with -DTAIKAI_FUZZ=ON (tests/fuzz/README.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/mahjong.h"

#define CHECK(c)                                                           \
  do {                                                                     \
    if (!(c)) {                                                            \
      fprintf(stderr, "fuzz_tiles: check failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                             \
    }                                                                      \
  } while (0)

static void check_error(const tk_error *e, int rc, size_t len) {
  CHECK(rc < 0);
  CHECK(e->code == rc);
  CHECK(e->msg[0] != '\0');
  CHECK(memchr(e->msg, '\0', sizeof e->msg) != NULL);
  CHECK(e->position >= -1 && e->position <= (int)len);
}

static void check_hand(const tk_tile *t, int n) {
  uint8_t c[TK_KINDS] = {0};
  tk_error e;
  tk_error_clear(&e);
  if (n < 1 || n > 14 || n % 3 == 0) return;
  if (tk_counts_add(c, t, n, &e) < 0) return; /* a fifth copy */
  CHECK(tk_counts_total(c) == n);
  int sh = tk_shanten(c);
  CHECK(sh >= -1 && sh <= 8);
  for (unsigned f = 1; f <= TK_FORM_ALL; f++) {
    if (!(f & TK_FORM_STANDARD) && n < 13) continue; /* only the standard form below 13 */
    int s = tk_shanten_forms(c, f);
    CHECK(s >= sh);
  }
  if (n % 3 == 2) {
    CHECK((sh == -1) == (tk_is_complete(c) != 0));
    /* discarding never lowers the shanten below (shanten of 14) and the best discard keeps it */
    int best = 99;
    for (int k = 0; k < TK_KINDS; k++)
      if (c[k]) {
        c[k]--;
        int s = tk_shanten(c);
        c[k]++;
        CHECK(s >= sh);
        if (s < best) best = s;
      }
    CHECK(best == (sh < 0 ? 0 : sh));
  } else {
    int count = -1, s2 = -9;
    uint64_t uk = tk_ukeire(c, NULL, TK_FORM_ALL, &count, &s2);
    CHECK(s2 == sh);
    CHECK(count >= 0 && count <= 4 * TK_KINDS);
    CHECK((uk >> TK_KINDS) == 0);
    for (int k = 0; k < TK_KINDS; k++)
      if (uk >> k & 1) {
        CHECK(c[k] < 4);
        c[k]++;
        CHECK(tk_shanten(c) < sh || (sh == 0 && tk_is_complete(c)));
        c[k]--;
      }
    if (sh == 0) {
      uint64_t w = tk_waits(c);
      CHECK(w == uk);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 512) return 0;
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = '\0';
  size_t len = strlen(s); /* the parser sees the string up to the first NUL */
  tk_tile t[160];
  tk_error e;
  tk_error_clear(&e);
  int cap = (int)(len % 17); /* a small capacity too: TK_ERANGE paths */
  int n = tk_tiles_parse(s, t, cap, &e);
  if (n < 0) check_error(&e, n, len);
  else CHECK(n <= cap);
  tk_error_clear(&e);
  n = tk_tiles_parse(s, t, 160, &e);
  if (n < 0) {
    check_error(&e, n, len);
  } else {
    for (int i = 0; i < n; i++) {
      CHECK(tk_tile_kind(t[i]) < TK_KINDS);
      CHECK((t[i] & ~(TK_TILE_RED | 0x3f)) == 0);
      if (tk_tile_is_red(t[i])) CHECK(tk_tile_kind(t[i]) < 27 && tk_tile_kind(t[i]) % 9 == 4);
      const char *str = tk_tile_str(t[i]), *mj = tk_tile_mjai(t[i]);
      CHECK(str && strlen(str) == 2);
      tk_error_clear(&e);
      CHECK(tk_tile_parse1(str, &e) == t[i]);
      tk_error_clear(&e);
      CHECK(tk_tile_from_mjai(mj, &e) == t[i]);
    }
    char buf[2048];
    int flen = tk_tiles_format(t, n, buf, sizeof buf);
    CHECK(flen >= 0 && (size_t)flen < sizeof buf && strlen(buf) == (size_t)flen);
    CHECK(flen <= (int)len); /* the compact form is never longer than the input */
    tk_tile u[160];
    tk_error_clear(&e);
    int m = tk_tiles_parse(buf, u, 160, &e);
    CHECK(m == n);
    CHECK(memcmp(t, u, (size_t)n) == 0);
    char small[8];
    int slen = tk_tiles_format(t, n, small, sizeof small);
    CHECK(slen == flen && strlen(small) == (size_t)(slen < 7 ? slen : 7));
    check_hand(t, n);
  }
  tk_error_clear(&e);
  int one = tk_tile_parse1(s, &e);
  if (one < 0) check_error(&e, one, len);
  else CHECK(tk_tile_kind((tk_tile)one) < TK_KINDS);
  tk_error_clear(&e);
  one = tk_tile_from_mjai(s, &e);
  if (one < 0) CHECK(e.code == one && e.msg[0]);
  else CHECK(!strcmp(tk_tile_mjai((tk_tile)one), s));
  free(s);
  return 0;
}
