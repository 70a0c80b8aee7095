/* arenas/daifugo/notation.c — cards and moves to and from text ("S3 S4 JK[S5]", "pass",
 * "give C3"); a parsed move's kind, size, rank and suit set are derived from its cells, so this
 * file is also the shape classifier of a submitted set of cells. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char SUITS[] = "SHDCX";
static const char RANKS[] = "<3456789TJQKA2>";

static int put(char *buf, size_t size, size_t at, const char *s) {
  size_t n = strlen(s);
  if (size && at < size) {
    size_t k = at + n < size ? n : size - at - 1;
    memcpy(buf + at, s, k);
    buf[at + k] = 0;
  }
  return (int)n;
}

int tk_daifugo_card_str(uint64_t card, char *buf, size_t size) {
  char t[4];
  if (card == TK_DAIFUGO_JOKER) return put(buf, size, 0, "JK");
  if (!card || (card & (card - 1)) || !(card & TK_DAIFUGO_REAL)) return put(buf, size, 0, "??");
  int b = tk__df_ctz(card);
  t[0] = SUITS[b >> 4];
  t[1] = RANKS[b & 15];
  t[2] = 0;
  return put(buf, size, 0, t);
}

int tk_daifugo_cards_str(uint64_t set, char *buf, size_t size) {
  size_t at = 0;
  if (size) buf[0] = 0;
  for (uint64_t s = set; s; s &= s - 1) {
    char t[4];
    tk_daifugo_card_str(s & -s, t, sizeof t);
    if (at) at += (size_t)put(buf, size, at, " ");
    at += (size_t)put(buf, size, at, t);
  }
  return (int)at;
}

int tk_daifugo_move_str(const tk_daifugo_move *m, char *buf, size_t size) {
  if (size) buf[0] = 0;
  if (m->kind == TK_DAIFUGO_PASS) return put(buf, size, 0, "pass");
  size_t at = 0;
  if (m->kind == TK_DAIFUGO_GIVE) at += (size_t)put(buf, size, at, "give ");
  at += (size_t)tk_daifugo_cards_str(m->cards & ~TK_DAIFUGO_JOKER, buf + (at < size ? at : 0),
                                     at < size ? size - at : 0);
  if (m->cards & TK_DAIFUGO_JOKER) {
    char t[8] = "JK";
    if (m->jcell != TK_DAIFUGO_NOCELL && (m->jcell >> 4) <= 4 && (m->jcell & 15) <= 14)
      snprintf(t, sizeof t, "JK[%c%c]", SUITS[m->jcell >> 4], RANKS[m->jcell & 15]);
    if (m->cards & ~TK_DAIFUGO_JOKER) at += (size_t)put(buf, size, at, " ");
    at += (size_t)put(buf, size, at, t);
  }
  return (int)at;
}

static int suit_of(char c) {
  const char *p = c ? strchr(SUITS, c) : NULL;
  return p ? (int)(p - SUITS) : -1;
}
static int rank_of(char c) {
  const char *p = c ? strchr(RANKS, c) : NULL;
  return p ? (int)(p - RANKS) : -1;
}

/* Parses the card tokens of `text` from `pos`: real cards into *set, the joker into *joker
 * (1 bare, 2 with a cell in *jcell). */
static int parse_tokens(const char *text, size_t pos, uint64_t *set, int *joker, int *jcell,
                        tk_error *err) {
  *set = 0;
  *joker = 0;
  *jcell = TK_DAIFUGO_NOCELL;
  size_t i = pos;
  for (;;) {
    while (text[i] == ' ') i++;
    if (!text[i]) break;
    if (text[i] == 'J' && text[i + 1] == 'K') {
      if (*joker)
        return tk_error_set(err, TK_EPARSE, (int)i, "daifugo cards: a second joker at position %zu", i);
      *joker = 1;
      i += 2;
      if (text[i] == '[') {
        int s = suit_of(text[i + 1]), r = s >= 0 ? rank_of(text[i + 2]) : -1;
        if (s < 0)
          return tk_error_set(err, TK_EPARSE, (int)(i + 1),
                              "daifugo cards: '%c' at position %zu is no row (S H D C X)",
                              text[i + 1] ? text[i + 1] : ' ', i + 1);
        if (r < 0)
          return tk_error_set(err, TK_EPARSE, (int)(i + 2),
                              "daifugo cards: '%c' at position %zu is no column (< 3-9 T J Q K A 2 >)",
                              text[i + 2] ? text[i + 2] : ' ', i + 2);
        if (text[i + 3] != ']')
          return tk_error_set(err, TK_EPARSE, (int)(i + 3),
                              "daifugo cards: expected ']' at position %zu", i + 3);
        *joker = 2;
        *jcell = 16 * s + r;
        i += 4;
      }
    } else {
      int s = suit_of(text[i]);
      if (s < 0 || s > 3)
        return tk_error_set(err, TK_EPARSE, (int)i,
                            "daifugo cards: '%c' at position %zu is no suit (S H D C) or joker (JK)",
                            text[i], i);
      int r = rank_of(text[i + 1]);
      if (r < 1 || r > 13)
        return tk_error_set(err, TK_EPARSE, (int)(i + 1),
                            "daifugo cards: '%c' at position %zu is no rank (3-9 T J Q K A 2)",
                            text[i + 1] ? text[i + 1] : ' ', i + 1);
      uint64_t c = TK_DAIFUGO_CARD(s, r);
      if (*set & c)
        return tk_error_set(err, TK_EPARSE, (int)i, "daifugo cards: %c%c twice (position %zu)",
                            text[i], text[i + 1], i);
      *set |= c;
      i += 2;
    }
    if (text[i] && text[i] != ' ')
      return tk_error_set(err, TK_EPARSE, (int)i,
                          "daifugo cards: '%c' at position %zu: cards are separated by spaces",
                          text[i], i);
  }
  return 0;
}

int tk_daifugo_cards_parse(const char *text, uint64_t *set, tk_error *err) {
  int joker, jcell;
  int rc = parse_tokens(text, 0, set, &joker, &jcell, err);
  if (rc) return rc;
  if (joker == 2)
    return tk_error_set(err, TK_EPARSE, (int)(strstr(text, "JK") - text),
                        "daifugo cards: a set of cards has no joker cell (position %d)",
                        (int)(strstr(text, "JK") - text));
  if (joker) *set |= TK_DAIFUGO_JOKER;
  return 0;
}

/* Derives kind, n, rank and suits of real cards `set` plus the joker at `jcell` (or none). */
static int classify(uint64_t set, int joker, int jcell, tk_daifugo_move *m, const char *text,
                    tk_error *err) {
  memset(m, 0, sizeof *m);
  m->jcell = TK_DAIFUGO_NOCELL;
  int nreal = tk__df_popcount(set);
  if (joker == 1 && nreal == 0) {
    m->kind = TK_DAIFUGO_JOKER1;
    m->cards = TK_DAIFUGO_JOKER;
    m->n = 1;
    return 0;
  }
  if (joker == 1)
    return tk_error_set(err, TK_EILLEGAL, -1, "daifugo move '%s': the joker needs its cell, e.g. JK[S5]", text);
  uint64_t cells = set;
  if (joker == 2) {
    if (jcell < 64 && (set & (UINT64_C(1) << jcell)))
      return tk_error_set(err, TK_EILLEGAL, -1, "daifugo move '%s': the joker's cell holds a card", text);
    if (jcell < 64) cells |= UINT64_C(1) << jcell;
  }
  int n = nreal + (joker == 2);
  if (n == 0) return tk_error_set(err, TK_EILLEGAL, -1, "daifugo move '%s': no cards", text);
  m->cards = set | (joker == 2 ? TK_DAIFUGO_JOKER : 0);
  m->n = (uint8_t)n;
  m->jcell = (uint8_t)(joker == 2 ? jcell : TK_DAIFUGO_NOCELL);
  if (n == 1 && !joker) {
    int b = tk__df_ctz(set);
    m->kind = TK_DAIFUGO_SINGLE;
    m->rank = (uint8_t)(b & 15);
    m->suits = (uint8_t)(1 << (b >> 4));
    return 0;
  }
  /* A five-card group: four suits of one column and the joker in row 4 of that column. */
  if (joker == 2 && (jcell >> 4) == 4) {
    int col = jcell & 15;
    if (col >= 1 && col <= 13 && set == tk__df_spread(15, col)) {
      m->kind = TK_DAIFUGO_GROUP;
      m->rank = (uint8_t)col;
      m->suits = 31;
      return 0;
    }
    return tk_error_set(err, TK_EILLEGAL, -1,
                        "daifugo move '%s': a joker in row X makes a five-card group only", text);
  }
  int col0 = tk__df_ctz(cells) & 15;
  if (n >= 2 && n <= 4 && cells == tk__df_spread(tk__df_nibble(cells, col0), col0) && col0 >= 1 &&
      col0 <= 13) {
    m->kind = TK_DAIFUGO_GROUP;
    m->rank = (uint8_t)col0;
    m->suits = (uint8_t)tk__df_nibble(cells, col0);
    return 0;
  }
  int row = tk__df_ctz(cells) >> 4;
  uint64_t lane = cells >> (16 * row);
  if (n >= 3 && lane < 0x8000 && (lane >> tk__df_ctz(lane)) == ((UINT64_C(1) << n) - 1) &&
      !(joker == 2 && (jcell >> 4) != row)) {
    m->kind = TK_DAIFUGO_SEQ;
    m->rank = (uint8_t)tk__df_ctz(lane);
    m->suits = (uint8_t)(1 << row);
    return 0;
  }
  return tk_error_set(err, TK_EILLEGAL, -1,
                      "daifugo move '%s': neither a single, a group of one rank nor a sequence of "
                      "one suit", text);
}

int tk_daifugo_move_parse(const char *text, tk_daifugo_move *m, tk_error *err) {
  size_t pos = 0;
  while (text[pos] == ' ') pos++;
  if (!strcmp(text + pos, "pass")) {
    memset(m, 0, sizeof *m);
    m->jcell = TK_DAIFUGO_NOCELL;
    return 0;
  }
  int give = !strncmp(text + pos, "give ", 5);
  if (give) pos += 5;
  uint64_t set;
  int joker, jcell;
  int rc = parse_tokens(text, pos, &set, &joker, &jcell, err);
  if (rc) return rc;
  if (give) {
    if (tk__df_popcount(set) + (joker != 0) != 1 || joker == 2)
      return tk_error_set(err, TK_EILLEGAL, -1, "daifugo move '%s': give names one card", text);
    memset(m, 0, sizeof *m);
    m->kind = TK_DAIFUGO_GIVE;
    m->cards = joker ? TK_DAIFUGO_JOKER : set;
    m->n = 1;
    m->jcell = TK_DAIFUGO_NOCELL;
    return 0;
  }
  return classify(set, joker, jcell, m, text, err);
}
