/* tests/test_tiles.c — tile notation: parsing, formatting, mjai names, rejected strings. */
#include <string.h>

#include "taikai/mahjong.h"
#include "taikai/rng.h"
#include "unit.h"

static void test_parse_basic(void) {
  tk_tile t[20];
  tk_error e;
  tk_error_clear(&e);
  int n = tk_tiles_parse("123m456p789s1234567z", t, 20, &e);
  CU_ASSERT_EQUAL_FATAL(n, 16);
  CU_ASSERT_EQUAL(t[0], TK_1M);
  CU_ASSERT_EQUAL(t[3], TK_1P + 3);
  CU_ASSERT_EQUAL(t[8], TK_9S);
  CU_ASSERT_EQUAL(t[9], TK_EAST);
  CU_ASSERT_EQUAL(t[13], TK_HAKU);
  CU_ASSERT_EQUAL(t[14], TK_HATSU);
  CU_ASSERT_EQUAL(t[15], TK_CHUN);
}

static void test_parse_red(void) {
  tk_tile t[4];
  int n = tk_tiles_parse("0m0p0s5m", t, 4, NULL);
  CU_ASSERT_EQUAL_FATAL(n, 4);
  CU_ASSERT_EQUAL(t[0], TK_5M | TK_TILE_RED);
  CU_ASSERT_EQUAL(t[1], TK_5P | TK_TILE_RED);
  CU_ASSERT_EQUAL(t[2], TK_5S | TK_TILE_RED);
  CU_ASSERT_EQUAL(t[3], TK_5M);
  CU_ASSERT_EQUAL(tk_tile_kind(t[0]), TK_5M);
  CU_ASSERT(tk_tile_is_red(t[1]));
  CU_ASSERT(!tk_tile_is_red(t[3]));
}

typedef struct bad_case {
  const char *s;
  int position; /* 0-based position the error must name */
  const char *needle;
} bad_case;

static void test_parse_rejects(void) {
  static const bad_case BAD[] = {
      {"123x", 3, "'x' at position 4"},    {"m123", 0, "'m' at position 1"},
      {"123", 0, "position 1 have no suit"}, {"12m3", 3, "position 4 have no suit"},
      {"8z", 0, "'8z' at position 1"},     {"0z", 0, "'0z' at position 1"},
      {"11z 22z", 3, "' ' at position 4"}, {"123M", 3, "'M' at position 4"},
      {"5mr", 2, "'r' at position 3"},     {"1m\x01", 2, "byte 0x01 at position 3"},
  };
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    tk_tile t[20];
    tk_error e;
    tk_error_clear(&e);
    int n = tk_tiles_parse(BAD[i].s, t, 20, &e);
    if (n != TK_EPARSE) TK_FAILF("'%s' parsed to %d, expected TK_EPARSE", BAD[i].s, n);
    TK_EQ(e.position, BAD[i].position, BAD[i].s);
    if (!strstr(e.msg, BAD[i].needle)) TK_FAILF("'%s': message '%s' lacks '%s'", BAD[i].s, e.msg, BAD[i].needle);
  }
  tk_tile t[3];
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_tiles_parse("1234m", t, 3, &e), TK_ERANGE);
  CU_ASSERT_EQUAL(e.position, 3);
  CU_ASSERT_EQUAL(tk_tiles_parse("", t, 3, NULL), 0);
}

static void test_format_roundtrip(void) {
  tk_rng r;
  tk_rng_seed(&r, 7);
  for (int it = 0; it < 20000; it++) {
    tk_tile t[20], back[20];
    int n = 1 + (int)tk_rng_below(&r, 20);
    for (int i = 0; i < n; i++) {
      int k = (int)tk_rng_below(&r, TK_KINDS);
      t[i] = (tk_tile)k;
      if ((k == TK_5M || k == TK_5P || k == TK_5S) && tk_rng_below(&r, 2)) t[i] |= TK_TILE_RED;
    }
    char buf[64];
    int len = tk_tiles_format(t, n, buf, sizeof buf);
    CU_ASSERT_EQUAL((size_t)len, strlen(buf));
    int m = tk_tiles_parse(buf, back, 20, NULL);
    if (m != n || memcmp(t, back, (size_t)n)) {
      TK_FAILF("round trip of %s gave %d tiles", buf, m);
      return;
    }
  }
  tk_tile t[14];
  int n = tk_tiles_parse("123m0p55p789s1122z", t, 14, NULL);
  char buf[64];
  tk_tiles_format(t, n, buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "123m055p789s1122z");
  /* truncation keeps NUL termination and reports the full length */
  char small[4];
  CU_ASSERT_EQUAL(tk_tiles_format(t, n, small, sizeof small), 17);
  CU_ASSERT_STRING_EQUAL(small, "123");
}

static void test_mjai(void) {
  for (int k = 0; k < TK_KINDS; k++) {
    const char *s = tk_tile_mjai((tk_tile)k);
    CU_ASSERT_EQUAL(tk_tile_from_mjai(s, NULL), k);
    CU_ASSERT_EQUAL(tk_tile_parse1(s, NULL), k);
    CU_ASSERT_EQUAL(tk_tile_parse1(tk_tile_str((tk_tile)k), NULL), k);
  }
  CU_ASSERT_STRING_EQUAL(tk_tile_mjai(TK_EAST), "E");
  CU_ASSERT_STRING_EQUAL(tk_tile_mjai(TK_HAKU), "P");
  CU_ASSERT_STRING_EQUAL(tk_tile_mjai(TK_HATSU), "F");
  CU_ASSERT_STRING_EQUAL(tk_tile_mjai(TK_CHUN), "C");
  CU_ASSERT_STRING_EQUAL(tk_tile_mjai(TK_5P | TK_TILE_RED), "5pr");
  CU_ASSERT_EQUAL(tk_tile_from_mjai("5sr", NULL), TK_5S | TK_TILE_RED);
  CU_ASSERT_EQUAL(tk_tile_parse1("0m", NULL), TK_5M | TK_TILE_RED);
  CU_ASSERT_EQUAL(tk_tile_parse1("7z", NULL), TK_CHUN);
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_tile_from_mjai("X", &e), TK_EPARSE);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "'X'"));
  CU_ASSERT_EQUAL(tk_tile_from_mjai("5m ", NULL), TK_EPARSE);
  CU_ASSERT_EQUAL(tk_tile_parse1("12m", NULL), TK_EPARSE);
  CU_ASSERT_EQUAL(tk_tile_parse1("", NULL), TK_EPARSE);
}

static void test_dora_cycle(void) {
  CU_ASSERT_EQUAL(tk_dora_of(TK_9M), TK_1M);
  CU_ASSERT_EQUAL(tk_dora_of(TK_1P), TK_1P + 1);
  CU_ASSERT_EQUAL(tk_dora_of(TK_9S), TK_1S);
  CU_ASSERT_EQUAL(tk_dora_of(TK_NORTH), TK_EAST);
  CU_ASSERT_EQUAL(tk_dora_of(TK_WEST), TK_NORTH);
  CU_ASSERT_EQUAL(tk_dora_of(TK_CHUN), TK_HAKU);
  CU_ASSERT_EQUAL(tk_dora_of(TK_HAKU), TK_HATSU);
}

static void test_counts(void) {
  uint8_t c[TK_KINDS] = {0};
  tk_tile t[5];
  int n = tk_tiles_parse("11111m", t, 5, NULL);
  tk_error e;
  tk_error_clear(&e);
  CU_ASSERT_EQUAL(tk_counts_add(c, t, n, &e), TK_ERANGE);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "fifth copy of 1m"));
  CU_ASSERT_EQUAL(tk_counts_total(c), 4);
}

static CU_TestInfo tests[] = {
    {"parse", test_parse_basic},        {"red fives", test_parse_red},   {"rejected strings", test_parse_rejects},
    {"format round trip", test_format_roundtrip}, {"mjai names", test_mjai}, {"dora cycle", test_dora_cycle},
    {"counts", test_counts},            CU_TEST_INFO_NULL,
};

int main(void) { return tk_unit_run("tiles", tests); }
