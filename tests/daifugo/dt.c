/* tests/daifugo/dt.c — helpers of the daifugo tests (see dt.h). */
#include "dt.h"

#include <stdio.h>
#include <string.h>

#include "unit.h"

char dt_err[512];

uint64_t dt_cards(const char *text) {
  uint64_t s = 0;
  tk_error err;
  tk_error_clear(&err);
  if (tk_daifugo_cards_parse(text, &s, &err)) TK_FAILF("bad cards '%s': %s", text, err.msg);
  return s;
}

int dt_game(tk_daifugo_game *g, const char *h0, const char *h1, const char *h2, const char *h3,
            const char *h4, int leader) {
  const char *h[5] = {h0, h1, h2, h3, h4};
  uint64_t hand[5] = {0}, all = 0;
  int rest = -1;
  for (int p = 0; p < 5; p++) {
    if (!h[p]) rest = p;
    else hand[p] = dt_cards(h[p]), all |= hand[p];
  }
  if (rest >= 0) hand[rest] = TK_DAIFUGO_DECK & ~all;
  uint8_t seats[5] = {0, 1, 2, 3, 4};
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_daifugo_game_setup(g, hand, seats, leader, 20, 1, &err);
  if (rc) TK_FAILF("dt_game: %s", err.msg);
  return rc;
}

int dt_play(tk_daifugo_game *g, int player, const char *text) {
  tk_daifugo_move m;
  tk_error err;
  tk_error_clear(&err);
  dt_err[0] = 0;
  int rc = tk_daifugo_move_parse(text, &m, &err);
  if (!rc) rc = tk_daifugo_game_apply(g, player, &m, &err);
  if (rc) snprintf(dt_err, sizeof dt_err, "%.500s", err.msg);
  return rc;
}

int dt_legal(const tk_daifugo_game *g, const char *text) {
  tk_daifugo_move m;
  tk_error err;
  tk_error_clear(&err);
  if (tk_daifugo_move_parse(text, &m, &err)) {
    TK_FAILF("dt_legal: '%s': %s", text, err.msg);
    return 0;
  }
  static tk_daifugo_legal l;
  tk_daifugo_game_legal(g, &l);
  for (int i = 0; i < l.n; i++)
    if (l.a[i].kind == m.kind && l.a[i].cards == m.cards && l.a[i].jcell == m.jcell) return 1;
  return 0;
}

int dt_nlegal(const tk_daifugo_game *g) {
  static tk_daifugo_legal l;
  return tk_daifugo_game_legal(g, &l);
}

const char *dt_legal_str(const tk_daifugo_game *g) {
  static char buf[8192];
  static tk_daifugo_legal l;
  tk_daifugo_game_legal(g, &l);
  size_t at = 0;
  buf[0] = 0;
  for (int i = 0; i < l.n && at + 64 < sizeof buf; i++) {
    if (i) at += (size_t)snprintf(buf + at, sizeof buf - at, " | ");
    at += (size_t)tk_daifugo_move_str(&l.a[i], buf + at, sizeof buf - at);
  }
  return buf;
}

int dt_check_game(const tk_daifugo_game *g, const char *ctx) {
  int f = 0;
  uint64_t all = g->played;
  int held = 0;
  for (int p = 0; p < 5; p++) {
    if (all & g->hand[p]) TK_FAILF("%s: player %d's hand overlaps", ctx, p), f++;
    all |= g->hand[p];
    held += g->hand[p] != 0;
    if (!g->hand[p] != !!(g->out & (1u << p)))
      TK_FAILF("%s: player %d: %d cards but out flag %d", ctx, p,
               __builtin_popcountll(g->hand[p]), (g->out >> p) & 1), f++;
  }
  if (all != TK_DAIFUGO_DECK) TK_FAILF("%s: the 53 cards are not accounted for", ctx), f++;
  unsigned seen = 0;
  for (int k = 0; k < g->nout; k++) {
    if (g->order[k] >= 5 || (seen & (1u << g->order[k]))) TK_FAILF("%s: order[%d] = %d", ctx, k, g->order[k]), f++;
    else seen |= 1u << g->order[k];
  }
  if (g->over) {
    if (g->nout != 5) TK_FAILF("%s: over with %d places", ctx, g->nout), f++;
  } else {
    if (g->nout != 5 - held) TK_FAILF("%s: %d out but %d hold cards", ctx, g->nout, held), f++;
    if (held < 2) TK_FAILF("%s: game goes on with %d holders", ctx, held), f++;
    if (g->turn >= 5 || !g->hand[g->turn] || (g->passed & (1u << g->turn)))
      TK_FAILF("%s: turn %d holds no cards or has passed", ctx, g->turn), f++;
  }
  return f;
}
