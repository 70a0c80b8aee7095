/* arenas/mahjong/tiles.c — tile notation: compact ("123m0p77z") and mjai ("5mr", "E").
 * Owns the only tables of tile names; every parser reports the offending character and its
 * position through tk_error. */
#include <ctype.h>
#include <string.h>

#include "taikai/mahjong.h"

static const char SUITS[] = "mpsz";
static const char *const MJAI_HONORS[7] = {"E", "S", "W", "N", "P", "F", "C"};

/* "1m".."9m", "1p".., "1s".., "1z".."7z", then red "0m" "0p" "0s". */
static const char TILE_STR[37][3] = {
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p",
    "5p", "6p", "7p", "8p", "9p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s",
    "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z", "0m", "0p", "0s"};
static const char MJAI_STR[37][4] = {
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p",
    "5p", "6p", "7p", "8p", "9p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s",
    "9s", "E",  "S",  "W",  "N",  "P",  "F",  "C",  "5mr", "5pr", "5sr"};

static int tile_index(tk_tile t) {
  int k = tk_tile_kind(t);
  if (k >= TK_KINDS) return -1;
  if (tk_tile_is_red(t)) return (k == TK_5M) ? 34 : (k == TK_5P) ? 35 : (k == TK_5S) ? 36 : -1;
  return k;
}

const char *tk_tile_str(tk_tile t) {
  int i = tile_index(t);
  return i < 0 ? "?" : TILE_STR[i];
}

const char *tk_tile_mjai(tk_tile t) {
  int i = tile_index(t);
  return i < 0 ? "?" : MJAI_STR[i];
}

int tk_dora_of(int k) {
  if (k < 27) return (k % 9 == 8) ? k - 8 : k + 1;
  if (k <= TK_NORTH) return k == TK_NORTH ? TK_EAST : k + 1;
  return k == TK_CHUN ? TK_HAKU : k + 1;
}

int tk_tiles_parse(const char *s, tk_tile *out, int cap, tk_error *err) {
  if (!s) return tk_error_set(err, TK_EINVAL, -1, "no tile string");
  int n = 0;
  int run_start = -1; /* position of the first digit of the pending run */
  for (int i = 0;; i++) {
    char ch = s[i];
    if (ch >= '0' && ch <= '9') {
      if (run_start < 0) run_start = i;
      continue;
    }
    if (ch == '\0') {
      if (run_start >= 0)
        return tk_error_set(err, TK_EPARSE, run_start,
                            "digits at position %d have no suit letter (m, p, s or z) after them",
                            run_start + 1);
      break;
    }
    const char *sp = strchr(SUITS, ch);
    if (!sp) {
      if (isprint((unsigned char)ch))
        return tk_error_set(err, TK_EPARSE, i,
                            "unexpected character '%c' at position %d (expected a digit or m, p, s, z)",
                            ch, i + 1);
      return tk_error_set(err, TK_EPARSE, i, "unexpected byte 0x%02x at position %d",
                          (unsigned char)ch, i + 1);
    }
    if (run_start < 0)
      return tk_error_set(err, TK_EPARSE, i, "suit letter '%c' at position %d has no digits before it",
                          ch, i + 1);
    int suit = (int)(sp - SUITS);
    for (int j = run_start; j < i; j++) {
      int d = s[j] - '0';
      tk_tile t;
      if (suit == 3) {
        if (d < 1 || d > 7)
          return tk_error_set(err, TK_EPARSE, j,
                              "'%c%c' at position %d is not a tile: honors are 1z..7z (E S W N P F C)",
                              s[j], ch, j + 1);
        t = (tk_tile)(27 + d - 1);
      } else if (d == 0) {
        t = (tk_tile)((suit * 9 + 4) | TK_TILE_RED);
      } else {
        t = (tk_tile)(suit * 9 + d - 1);
      }
      if (n >= cap)
        return tk_error_set(err, TK_ERANGE, j, "too many tiles (at most %d) at position %d", cap, j + 1);
      out[n++] = t;
    }
    run_start = -1;
  }
  return n;
}

int tk_tiles_format(const tk_tile *t, int n, char *buf, size_t cap) {
  size_t len = 0;
#define PUT(c)                          \
  do {                                  \
    if (len + 1 < cap) buf[len] = (c);  \
    len++;                              \
  } while (0)
  for (int i = 0; i < n; i++) {
    const char *s = tk_tile_str(t[i]);
    PUT(s[0]);
    if (i + 1 == n || tk_tile_str(t[i + 1])[1] != s[1]) PUT(s[1]);
  }
#undef PUT
  if (cap) buf[len < cap ? len : cap - 1] = '\0';
  return (int)len;
}

int tk_tile_from_mjai(const char *s, tk_error *err) {
  if (!s) return tk_error_set(err, TK_EINVAL, -1, "no tile name");
  for (int i = 0; i < 37; i++)
    if (!strcmp(s, MJAI_STR[i])) return i < 34 ? i : (i == 34 ? TK_5M : i == 35 ? TK_5P : TK_5S) | TK_TILE_RED;
  return tk_error_set(err, TK_EPARSE, 0, "'%s' is not an mjai tile name (1m..9m, 1p..9p, 1s..9s, E S W N P F C, 5mr 5pr 5sr)", s);
}

int tk_tile_parse1(const char *s, tk_error *err) {
  if (!s) return tk_error_set(err, TK_EINVAL, -1, "no tile");
  for (int i = 0; i < 7; i++)
    if (!strcmp(s, MJAI_HONORS[i])) return 27 + i;
  if (strlen(s) == 3 && s[2] == 'r') return tk_tile_from_mjai(s, err);
  tk_tile t[2];
  tk_error e;
  tk_error_clear(&e);
  int n = tk_tiles_parse(s, t, 2, &e);
  if (n == 1) return t[0];
  if (n < 0) return tk_error_set(err, n, e.position, "'%s' is not a tile: %s", s, e.msg);
  return tk_error_set(err, TK_EPARSE, 0, "'%s' is not a single tile", s);
}

int tk_counts_add(uint8_t counts[TK_KINDS], const tk_tile *t, int n, tk_error *err) {
  for (int i = 0; i < n; i++) {
    int k = tk_tile_kind(t[i]);
    if (k >= TK_KINDS) return tk_error_set(err, TK_EINVAL, i, "tile %d is not a tile", i + 1);
    if (counts[k] >= 4)
      return tk_error_set(err, TK_ERANGE, i, "a fifth copy of %s (tile %d)", tk_tile_str((tk_tile)k), i + 1);
    counts[k]++;
  }
  return 0;
}

int tk_counts_total(const uint8_t counts[TK_KINDS]) {
  int s = 0;
  for (int k = 0; k < TK_KINDS; k++) s += counts[k];
  return s;
}
