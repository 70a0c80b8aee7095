/* tests/daifugo/test_daifugo_moves.c — move generation against an independent brute force: on
 * random positions (hand, table, revolution, lock) every subset of the hand with every joker
 * placement (none, alone, or in any of the 5 x 15 table cells) is judged by a legality test
 * written here from the spec, on the UECda table of cells; the generator must list exactly the
 * accepted ones, each once, with the kind, size, rank and suit set of that judgement. Also the
 * hand-checked count of the worst hand (11 consecutive cards of one suit and the joker). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt.h"
#include "unit.h"

typedef struct judged {
  int ok;
  int kind, n, rank, suits;
} judged;

/* Judges real cards `r` plus the joker (0 none, 1 alone, 2 in `cell`) against the table, from the
 * spec alone: the shape from the cells, then the following rules. */
static judged judge(uint64_t r, int joker, int cell, const tk_daifugo_move *top, int rev, int lock) {
  judged j = {0, 0, 0, 0, 0};
  int rows[16], cols[16], k = 0;
  for (int row = 0; row < 4; row++)
    for (int col = 1; col <= 13; col++)
      if (r & TK_DAIFUGO_CARD(row, col)) rows[k] = row, cols[k] = col, k++;
  if (joker == 1) {
    if (k) return j;
    j.kind = TK_DAIFUGO_JOKER1;
    j.n = 1;
    j.ok = top->kind == TK_DAIFUGO_PASS || top->kind == TK_DAIFUGO_SINGLE;
    return j;
  }
  if (joker == 2) rows[k] = cell / 16, cols[k] = cell % 16, k++;
  if (k == 0) return j;
  int same_col = 1, same_row = 1;
  for (int i = 1; i < k; i++) same_col &= cols[i] == cols[0], same_row &= rows[i] == rows[0];
  unsigned set = 0;
  for (int i = 0; i < k; i++) set |= 1u << rows[i];
  if (joker == 2 && cell / 16 == 4 && !(same_col && k == 5)) return j;
  if (k == 1) {
    if (joker) return j; /* a joker in a cell alone is written as the single joker */
    j.kind = TK_DAIFUGO_SINGLE, j.rank = cols[0];
  } else if (same_col) {
    if (cols[0] < 1 || cols[0] > 13) return j;
    if (k == 5 && set != 31) return j;
    j.kind = TK_DAIFUGO_GROUP, j.rank = cols[0];
  } else if (same_row && k >= 3) {
    int lo = 99, hi = -1;
    for (int i = 0; i < k; i++) lo = cols[i] < lo ? cols[i] : lo, hi = cols[i] > hi ? cols[i] : hi;
    if (hi - lo + 1 != k) return j;
    j.kind = TK_DAIFUGO_SEQ, j.rank = lo;
  } else {
    return j;
  }
  j.n = k;
  j.suits = (int)set;
  if (top->kind == TK_DAIFUGO_PASS) return j.ok = 1, j;
  if (top->kind == TK_DAIFUGO_JOKER1) {
    j.ok = j.kind == TK_DAIFUGO_SINGLE && rows[0] == 0 && cols[0] == 1;
    return j;
  }
  if (j.kind != top->kind || j.n != top->n) return j;
  if (lock && j.suits != top->suits) return j;
  if (j.kind == TK_DAIFUGO_SEQ) {
    int lo = j.rank, hi = j.rank + j.n - 1, tlo = top->rank, thi = top->rank + top->n - 1;
    j.ok = rev ? hi < tlo : lo > thi;
  } else {
    j.ok = rev ? j.rank < top->rank : j.rank > top->rank;
  }
  return j;
}

typedef struct key {
  uint64_t cards;
  int jcell;
} key;

static int key_cmp(const void *a, const void *b) {
  const key *x = a, *y = b;
  if (x->cards != y->cards) return x->cards < y->cards ? -1 : 1;
  return (x->jcell > y->jcell) - (x->jcell < y->jcell);
}

static key bf[1 << 16], gen[TK_DAIFUGO_MAX_LEGAL];
static tk_daifugo_legal L;

/* Checks one position; returns the number of legal plays. */
static int check_position(uint64_t hand, const tk_daifugo_move *top, int rev, int lock, long pos) {
  tk_daifugo_game g;
  uint64_t hands[5] = {hand, 0, 0, 0, 0};
  hands[1] = TK_DAIFUGO_DECK & ~hand & ~top->cards;
  uint8_t seats[5] = {0, 1, 2, 3, 4};
  tk_daifugo_game_setup(&g, hands, seats, 0, 20, 1, NULL);
  g.top = *top;
  g.rev = (uint8_t)rev;
  g.lock = (uint8_t)lock;
  tk_daifugo_game_legal(&g, &L);
  if (L.n < 1 || L.a[0].kind != TK_DAIFUGO_PASS) {
    TK_FAILF("position %ld: the pass is not first", pos);
    return 0;
  }
  int ng = 0, nb = 0, fails = 0;
  for (int i = 1; i < L.n; i++) {
    const tk_daifugo_move *m = &L.a[i];
    gen[ng].cards = m->cards;
    gen[ng].jcell = m->jcell;
    ng++;
    uint64_t real = m->cards & ~TK_DAIFUGO_JOKER;
    int joker = !(m->cards & TK_DAIFUGO_JOKER) ? 0 : m->jcell == TK_DAIFUGO_NOCELL ? 1 : 2;
    judged j = judge(real, joker, m->jcell, top, rev, lock);
    if (!j.ok || (m->cards & ~hand) || j.kind != m->kind || j.n != m->n || j.rank != m->rank ||
        j.suits != m->suits) {
      char buf[128];
      tk_daifugo_move_str(m, buf, sizeof buf);
      if (fails++ < 3)
        TK_FAILF("position %ld: generated '%s' (kind %d n %d rank %d suits %d) judged ok %d kind %d "
                 "n %d rank %d suits %d", pos, buf, m->kind, m->n, m->rank, m->suits, j.ok, j.kind,
                 j.n, j.rank, j.suits);
    }
  }
  /* Every subset of the real cards, with every joker placement. */
  uint64_t real = hand & TK_DAIFUGO_REAL;
  int has_joker = (hand & TK_DAIFUGO_JOKER) != 0;
  uint64_t sub = 0;
  do {
    if (judge(sub, 0, 0, top, rev, lock).ok && sub) bf[nb].cards = sub, bf[nb].jcell = TK_DAIFUGO_NOCELL, nb++;
    if (has_joker) {
      if (!sub && judge(0, 1, 0, top, rev, lock).ok)
        bf[nb].cards = TK_DAIFUGO_JOKER, bf[nb].jcell = TK_DAIFUGO_NOCELL, nb++;
      for (int row = 0; row < 5; row++)
        for (int col = 0; col < 15; col++) {
          int cell = 16 * row + col;
          if (row < 4 && (sub & (UINT64_C(1) << cell))) continue;
          if (judge(sub, 2, cell, top, rev, lock).ok)
            bf[nb].cards = sub | TK_DAIFUGO_JOKER, bf[nb].jcell = cell, nb++;
        }
    }
    sub = (sub - real) & real;
  } while (sub);
  qsort(gen, (size_t)ng, sizeof *gen, key_cmp);
  qsort(bf, (size_t)nb, sizeof *bf, key_cmp);
  for (int i = 1; i < ng; i++)
    if (!key_cmp(&gen[i], &gen[i - 1])) TK_FAILF("position %ld: a play listed twice", pos), fails++;
  if (ng != nb || memcmp(gen, bf, sizeof *gen * (size_t)ng)) {
    char h[256];
    tk_daifugo_cards_str(hand, h, sizeof h);
    TK_FAILF("position %ld: hand %s, top kind %d n %d rank %d suits %d, rev %d lock %d: generator "
             "%d plays, brute force %d", pos, h, top->kind, top->n, top->rank, top->suits, rev,
             lock, ng, nb);
  }
  return ng;
}

static void random_positions(void) {
  tk_rng r;
  tk_rng_seed(&r, 13);
  long total = 0, max = 0;
  int kinds[6] = {0};
  for (long pos = 0; pos < 700; pos++) {
    /* The table: empty, a single joker, or a random lead of a random 10-card hand. */
    tk_daifugo_move top;
    memset(&top, 0, sizeof top);
    top.jcell = TK_DAIFUGO_NOCELL;
    uint64_t other = 0;
    int t = (int)tk_rng_below(&r, 8);
    if (t == 1) {
      top.kind = TK_DAIFUGO_JOKER1, top.cards = TK_DAIFUGO_JOKER, top.n = 1;
    } else if (t > 1) {
      while (__builtin_popcountll(other) < 12) other |= UINT64_C(1) << tk_rng_below(&r, 64);
      other &= TK_DAIFUGO_DECK;
      tk_daifugo_game g;
      uint64_t hands[5] = {other, TK_DAIFUGO_DECK & ~other, 0, 0, 0};
      uint8_t seats[5] = {0, 1, 2, 3, 4};
      tk_daifugo_game_setup(&g, hands, seats, 0, 20, 1, NULL);
      tk_daifugo_game_legal(&g, &L);
      /* Prefer groups and sequences: they are rarer than singles. */
      int k = 1 + (int)tk_rng_below(&r, (uint32_t)L.n - 1);
      if (t > 4) {
        for (int i = 1; i < L.n; i++)
          if (L.a[i].kind == TK_DAIFUGO_SEQ || (L.a[i].kind == TK_DAIFUGO_GROUP && t > 5)) k = i;
      }
      top = L.a[k];
    }
    kinds[top.kind]++;
    int size = 1 + (int)tk_rng_below(&r, 11);
    uint64_t hand = 0;
    uint64_t avail = TK_DAIFUGO_DECK & ~top.cards;
    if (tk_rng_below(&r, 2) && (avail & TK_DAIFUGO_JOKER)) hand |= TK_DAIFUGO_JOKER;
    /* Dense hands (a few suits or ranks) make groups and sequences likely. */
    uint64_t pool = avail;
    if (tk_rng_below(&r, 2)) pool &= UINT64_C(0x00003ffe3ffe) | TK_DAIFUGO_JOKER;
    while (__builtin_popcountll(hand & TK_DAIFUGO_REAL) < size && (pool & ~hand & TK_DAIFUGO_REAL)) {
      uint64_t c = UINT64_C(1) << tk_rng_below(&r, 64);
      if (c & pool & TK_DAIFUGO_REAL) hand |= c;
    }
    int rev = (int)tk_rng_below(&r, 2);
    int lock = top.kind != TK_DAIFUGO_PASS && top.kind != TK_DAIFUGO_JOKER1 && tk_rng_below(&r, 2);
    int n = check_position(hand, &top, rev, lock, pos);
    total += n;
    if (n > max) max = n;
  }
  printf("\nmoves: 700 positions, %ld plays (max %ld); tables: %d empty, %d joker, %d single, %d "
         "group, %d sequence\n", total, max, kinds[0], kinds[4], kinds[1], kinds[2], kinds[3]);
  if (kinds[2] < 20 || kinds[3] < 20) TK_FAILF("too few group (%d) or sequence (%d) tables", kinds[2], kinds[3]);
}

/* The largest list: 11 consecutive spades and the joker on a new table. Singles 11 + 1; pairs
 * of one card and the joker in each of the 3 other suits: 33; sequences inside the 11 cards,
 * n = 3..11: (12 - n) windows x (1 plain + n joker cells) = 300; windows with one end cell
 * outside the 11 (the joker there), n = 3..12, at either end: 20. 365 plays + the pass. */
static void worst_hand(void) {
  tk_daifugo_game g;
  dt_game(&g, "S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK JK", "", "", "", NULL, 0);
  TK_EQ(dt_nlegal(&g), 366, "legal actions");
  if (dt_nlegal(&g) > TK_DAIFUGO_MAX_LEGAL) TK_FAILF("over the bound");
  check_position(g.hand[0], &g.top, 0, 0, -1);
}

/* Hand-checked small lists. */
static void small_lists(void) {
  tk_daifugo_game g;
  /* S3 H3 D3: 3 singles, 3 pairs, 1 triple. */
  dt_game(&g, "S3 H3 D3", "", "", "", NULL, 0);
  TK_EQ(dt_nlegal(&g), 1 + 3 + 3 + 1, "three 3s");
  /* S3 H3 JK: singles 2 + joker; pairs: S3 H3, S3 JK[H3], H3 JK[S3], then S3 or H3 with the
   * joker in D or C (4); triples S3 H3 JK[D3], S3 H3 JK[C3]. */
  dt_game(&g, "S3 H3 JK", "", "", "", NULL, 0);
  TK_EQ(dt_nlegal(&g), 1 + 3 + 3 + 4 + 2, "two 3s and the joker");
  /* Following a single 5 with S4 S6 S7: S6, S7. */
  dt_game(&g, "H5", "S4 S6 S7", "", "", NULL, 0);
  dt_play(&g, 0, "H5");
  TK_EQ(dt_nlegal(&g), 3, "singles over 5");
}

/* The playout policy's draw (tk_daifugo_random_play) against the listed plays: on positions of
 * random games, every draw is a listed play (the pass only when nothing else is), every play is
 * drawn, and the counts pass a loose chi-square bound of uniformity. */
static void random_play_is_uniform(void) {
  tk_rng r, pick;
  tk_rng_seed(&r, 5);
  tk_rng_seed(&pick, 6);
  static int counts[TK_DAIFUGO_MAX_LEGAL];
  long checked = 0, leads = 0, groups = 0, locked = 0;
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 1;
  static tk_daifugo_block b;
  for (uint64_t deal = 0; checked < 4000; deal++) {
    tk_daifugo_block_init(&b, &rules, 3, deal, NULL);
    tk_daifugo_game g = b.g;
    while (!g.over) {
      tk_daifugo_game_legal(&g, &L);
      int plays = L.n - 1;
      tk_daifugo_move m;
      if (plays == 0) {
        tk_daifugo_random_play(&g, &r, &m);
        if (m.kind != TK_DAIFUGO_PASS) TK_FAILF("a play drawn where only the pass is legal");
      } else if (plays <= 80) {
        memset(counts, 0, sizeof counts);
        int draws = 60 * plays;
        for (int d = 0; d < draws; d++) {
          tk_daifugo_random_play(&g, &r, &m);
          int i;
          for (i = 1; i < L.n; i++)
            if (L.a[i].kind == m.kind && L.a[i].cards == m.cards && L.a[i].jcell == m.jcell &&
                !memcmp(&L.a[i], &m, sizeof m))
              break;
          if (i == L.n) {
            TK_FAILF("position %ld: a drawn move is not a listed play (kind %d)", checked, m.kind);
            break;
          }
          counts[i]++;
        }
        double chi2 = 0, e = 60.0;
        for (int i = 1; i < L.n; i++) {
          if (!counts[i]) TK_FAILF("position %ld: play %d of %d never drawn", checked, i, plays);
          chi2 += (counts[i] - e) * (counts[i] - e) / e;
        }
        double df = plays - 1;
        if (plays > 1 && chi2 > df + 10 * sqrt(2 * df) + 20)
          TK_FAILF("position %ld: chi-square %.1f over %d plays", checked, chi2, plays);
        leads += L.lead;
        groups += g.top.kind == TK_DAIFUGO_GROUP;
        locked += g.lock;
        checked++;
      }
      /* Move on with a uniformly chosen action, the pass included. */
      tk_daifugo_game_play(&g, &L.a[tk_rng_below(&pick, L.n)]);
    }
  }
  printf("\nrandom_play: %ld positions checked (%ld leads, %ld over groups, %ld locked)\n", checked,
         leads, groups, locked);
  if (groups < 30 || locked < 30) TK_FAILF("too few group (%ld) or locked (%ld) tables", groups, locked);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"hand-checked lists", small_lists},
      {"the worst hand: 366 actions", worst_hand},
      {"random positions against the brute force", random_positions},
      {"the playout draw: listed plays, uniformly", random_play_is_uniform},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_moves", tests);
}
