/* tests/daifugo/test_daifugo_features.c — daifugo_mcl's features and ranking
 * (plugins/daifugo_mcl/features.h, policy.h): every group of Table 2's units on hand-made
 * positions whose answer is worked out in a comment; then properties on positions of random
 * blocks: the view and the game give the same units, every one-hot item has its one unit, the
 * per-position scorers equal the full-list h for AP and NN, the 8-cut unit is on exactly when
 * the engine cuts; and the rank draw (footnote 4's
 * numbers, α 0 and 1, ties at random). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daifugo_mcl/features.h"
#include "daifugo_mcl/policy.h"
#include "dt.h"
#include "unit.h"

static tk_daifugo_move mv(const char *text) {
  tk_daifugo_move m;
  tk_error err;
  tk_error_clear(&err);
  memset(&m, 0, sizeof m);
  if (!strcmp(text, "pass")) {
    m.kind = TK_DAIFUGO_PASS;
    m.jcell = TK_DAIFUGO_NOCELL;
  } else if (tk_daifugo_move_parse(text, &m, &err)) {
    TK_FAILF("bad move '%s': %s", text, err.msg);
  }
  return m;
}

/* Compares a list of units with the expected one; `what` names the check. */
static void same_units(const uint8_t *got, int n, const int *want, int nwant, const char *what) {
  int ok = n == nwant;
  for (int i = 0; ok && i < n; i++) ok = got[i] == want[i];
  if (ok) {
    CU_PASS(what);
    return;
  }
  char g[512] = "", w[512] = "";
  for (int i = 0; i < n; i++) snprintf(g + strlen(g), sizeof g - strlen(g), " %d", got[i]);
  for (int i = 0; i < nwant; i++) snprintf(w + strlen(w), sizeof w - strlen(w), " %d", want[i]);
  TK_FAILF("%s: units [%s ], expected [%s ]", what, g, w);
}

static void check_b(const dmcl_pos *p, const char *move, const int *want, int nwant) {
  uint8_t b[DMCL_MAX_B];
  tk_daifugo_move m = mv(move);
  same_units(b, dmcl_move_b(p, &m, b), want, nwant, move);
}

/* Position A: player 2 to move, seats = ids (after 2 come 3, 4, 0, 1). It holds
 * S3 H3 D3 S7 H7 S8 S9 ST JK (9 cards); played this game: S4 H4 D4 C4 S5 H5 D6, the pair S5 H5
 * on the table (owner 0); player 1 is out, player 3 passed; counts 0:10 1:0 2:9 3:1 4:26.
 *   C' by hand:
 *   - revolution no: 0
 *   - unseen (not held, not played) per column, unit 2 + 3(col-1) + min(k, 2):
 *     3s: C3 -> 1 -> 3; 4s: none -> 5; 5s: D5 C5 -> 2 -> 10; 6s: S6 H6 C6 -> 13; 7s: D7 C7 -> 16;
 *     8s: H8 D8 C8 -> 19; 9s -> 22; Ts -> 25; J Q K A 2 (all four) -> 28 31 34 37 40;
 *     joker held -> unseen "no" -> 41
 *   - out or passed among the others: players 1 and 3 -> 2 -> 84 + 2 = 86
 *   - in seat order 3 (passed) 4 0 1 (out): 89+1 = 90, 91, 93, 95+1 = 96
 *   - our size 9 -> "9+" -> 97 + 5 = 102
 *   - the others ascending 0 1 10 26 -> buckets 0 1 6 6 -> 103, 111, 123, 130
 *   - table rank: the 5s, column 3 -> 131 + 2 = 133; table not new -> 144 */
static void position_a(tk_daifugo_view *v) {
  memset(v, 0, sizeof *v);
  v->player = v->turn = 2;
  v->decision = TK_DAIFUGO_DECIDE_PLAY;
  v->owner = 0;
  v->passed = 1u << 3;
  v->out = 1u << 1;
  v->nout = 1;
  const uint8_t count[5] = {10, 0, 9, 1, 26};
  for (int q = 0; q < 5; q++) v->count[q] = count[q], v->seat_of[q] = (uint8_t)q;
  v->hand = dt_cards("S3 H3 D3 S7 H7 S8 S9 ST JK");
  v->played = dt_cards("S4 H4 D4 C4 S5 H5 D6");
  v->top = mv("S5 H5");
}

static void fixed_units(void) {
  tk_daifugo_view v;
  position_a(&v);
  dmcl_pos p;
  TK_EQ(dmcl_pos_of_view(&v, &p), 0, "position A");
  const int want[] = {0,  3,  5,  10, 13, 16, 19, 22,  25,  28,  31,  34,  37, 40,
                      41, 86, 90, 91, 93, 96, 102, 103, 111, 123, 130, 133, 144};
  same_units(p.fixed, p.nfixed, want, (int)(sizeof want / sizeof *want), "position A fixed C'");
  /* not the viewer's turn: refused */
  v.turn = 3;
  TK_EQ(dmcl_pos_of_view(&v, &p), -1, "view of a player not to move");
}

/* Position A's moves.
 * - S7 H7 over the 5s: 7 - 5 = 2 steps -> DIFF+1 = 1; two cards -> 5; column 5 -> RANK+4 = 12;
 *   no revolution 25; same suits ♠♥ as the table, not locked before -> lock 28; no 8 -> 29;
 *   a group -> TYPE+2 = 33.
 * - S8 JK[H8]: 3 steps -> 2; two cards 5; column 6 -> 13; 25; suits ♠♥ -> 28; an 8 -> 30; 33.
 * - pass: revolution, lock, 8-cut "no" (25 27 29) and TYPE+0 = 31.
 * Hand after S7 H7 (S3 H3 D3 S8 S9 ST JK), unit 43 + 3(col-1) + min(k, 2): 3s 3 -> 45;
 * 4s..7s none -> 46 49 52 55; 8 9 T one each -> 59 62 65; J..2 none -> 67 70 73 76 79;
 * joker held -> 83. */
static void move_units(void) {
  tk_daifugo_view v;
  position_a(&v);
  dmcl_pos p;
  dmcl_pos_of_view(&v, &p);
  check_b(&p, "S7 H7", (const int[]){1, 5, 12, 25, 28, 29, 33}, 7);
  check_b(&p, "S8 JK[H8]", (const int[]){2, 5, 13, 25, 28, 30, 33}, 7);
  check_b(&p, "pass", (const int[]){25, 27, 29, 31}, 4);
  uint8_t c[14];
  dmcl_hand_units(v.hand & ~mv("S7 H7").cards, DMCL_C_AFTER, c);
  same_units(c, 14, (const int[]){45, 46, 49, 52, 55, 59, 62, 65, 67, 70, 73, 76, 79, 83}, 14,
             "hand after S7 H7");
  /* the whole list: the bias, B' + 1, then the fixed and after units + 36, merged */
  uint8_t f[DMCL_MAX_ACTIVE];
  tk_daifugo_move m = mv("S7 H7");
  int n = dmcl_features(&p, &m, f);
  TK_EQ(n, 1 + 7 + 27 + 14, "active features of S7 H7");
  TK_EQ(f[0], 0, "the bias first");
  TK_EQ(f[1], 2, "DIFF+1 as feature 2");
  TK_EQ(f[8], 36, "C' 0 (no revolution) as feature 36");
  TK_EQ(f[n - 1], 36 + 144, "the table-not-new unit last");
  for (int i = 1; i < n; i++)
    if (f[i] <= f[i - 1]) TK_FAILF("features not ascending at %d: %d then %d", i, f[i - 1], f[i]);
}

/* Revolution in effect (rev 1), player 0 to move, seats = ids.
 * - table H9 (column 7), strength in revolution 14 - col: 7.
 *   S4 (col 2, strength 12): 5 steps -> DIFF+4 = 4; a single: no count unit; column 2 -> RANK+1
 *   = 9; 25 27 29; single -> 32.  S7 (col 5, strength 9): 2 steps -> 1, RANK+4 = 12.
 *   H5 (col 3, strength 11): 4 steps -> 3, RANK+2 = 10; on the ♥ table it locks (28) unless
 *   the suits were locked already (27: the play does not cause the lock).
 * - table: the single joker. S3 is the ♠3-cut in revolution -> RANK+16 = 24; no difference.
 *   The table rank is all zero (no unit 131..143).
 * - new table: S9 H9 D9 C9 is a revolution: four cards -> 7; column 7 -> 14; rev yes 26;
 *   no lock 27; no 8 29; group 33. The sequence S4 S5 S6 ranks by its weakest card in
 *   revolution, the 6 (column 4) -> 11; S6 S7 S8 contains the 8 -> 30; S3 S4 S5 S6 S7 (five)
 *   revolts -> 26, ranks by the 7 (column 5) -> 12. JK alone in revolution -> RANK+14 = 22. */
static void revolution_units(void) {
  tk_daifugo_view v;
  memset(&v, 0, sizeof v);
  v.decision = TK_DAIFUGO_DECIDE_PLAY;
  v.rev = 1;
  for (int q = 0; q < 5; q++) v.count[q] = 8, v.seat_of[q] = (uint8_t)q;
  v.count[0] = 12;
  v.hand = dt_cards("S3 S4 S5 S6 S7 S8 S9 SJ D9 C9 H5 JK");
  v.played = dt_cards("H9");
  v.top = mv("H9");
  dmcl_pos p;
  dmcl_pos_of_view(&v, &p);
  check_b(&p, "S4", (const int[]){4, 9, 25, 27, 29, 32}, 6);
  check_b(&p, "S7", (const int[]){1, 12, 25, 27, 29, 32}, 6);
  v.top = mv("H9");
  v.lock = 1;
  dmcl_pos_of_view(&v, &p);
  check_b(&p, "H5", (const int[]){3, 10, 25, 27, 29, 32}, 6);
  v.lock = 0;
  dmcl_pos_of_view(&v, &p);
  check_b(&p, "H5", (const int[]){3, 10, 25, 28, 29, 32}, 6);
  v.lock = 0;
  v.top = mv("JK");
  v.hand &= ~TK_DAIFUGO_JOKER;
  dmcl_pos_of_view(&v, &p);
  check_b(&p, "S3", (const int[]){24, 25, 27, 29, 32}, 5);
  for (int i = 0; i < p.nfixed; i++)
    if (p.fixed[i] >= DMCL_C_TABLE && p.fixed[i] < DMCL_C_TABLE + 13)
      TK_FAILF("a table rank unit (%d) under the single joker", p.fixed[i]);
  v.top = mv("pass");
  v.hand |= TK_DAIFUGO_JOKER | dt_cards("H9");
  v.played = 0;
  dmcl_pos_of_view(&v, &p);
  check_b(&p, "S9 H9 D9 C9", (const int[]){7, 14, 26, 27, 29, 33}, 6);
  check_b(&p, "S4 S5 S6", (const int[]){6, 11, 25, 27, 29, 34}, 6);
  check_b(&p, "S6 S7 S8", (const int[]){6, 13, 25, 27, 30, 34}, 6);
  check_b(&p, "S3 S4 S5 S6 S7", (const int[]){7, 12, 26, 27, 29, 34}, 6);
  check_b(&p, "JK", (const int[]){22, 25, 27, 29, 32}, 5);
  /* our 12 cards -> "9+" (102); the others 8 8 8 8 -> "6-8" each: 103+5, 110+5, 117+5, 124+5;
   * new table -> 145, revolution -> 1 */
  int seen = 0;
  for (int i = 0; i < p.nfixed; i++) {
    int u = p.fixed[i];
    seen += u == 1 || u == 102 || u == 108 || u == 115 || u == 122 || u == 129 || u == 145;
  }
  TK_EQ(seen, 7, "revolution, sizes and new-table units of the new table");
}

/* Hand-size buckets at their edges, through the others' counts: 3 -> 3, 4 -> 4-5 (4), 5 -> 4,
 * 6 -> 6-8 (5); ours 1 -> bucket 0 (97). */
static void size_buckets(void) {
  tk_daifugo_view v;
  memset(&v, 0, sizeof v);
  v.decision = TK_DAIFUGO_DECIDE_PLAY;
  const uint8_t count[5] = {1, 3, 4, 5, 6};
  for (int q = 0; q < 5; q++) v.count[q] = count[q], v.seat_of[q] = (uint8_t)q;
  v.hand = dt_cards("S3");
  dmcl_pos p;
  dmcl_pos_of_view(&v, &p);
  int want[] = {97, 103 + 3, 110 + 4, 117 + 4, 124 + 5};
  int seen = 0;
  for (int i = 0; i < p.nfixed; i++)
    for (int k = 0; k < 5; k++) seen += p.fixed[i] == want[k];
  TK_EQ(seen, 5, "size buckets 1 / 3 4 5 6");
}

/* ---- properties on random blocks */

/* Item ranges of the 182 features and whether exactly one unit is always on (else at most one). */
static const struct {
  int lo, n, exact;
} items[] = {
    {0, 1, 1},                       /* bias */
    {1 + DMCL_B_DIFF, 5, 0},         {1 + DMCL_B_COUNT, 3, 0},  {1 + DMCL_B_RANK, 17, 0},
    {1 + DMCL_B_REV, 2, 1},          {1 + DMCL_B_LOCK, 2, 1},   {1 + DMCL_B_EIGHT, 2, 1},
    {1 + DMCL_B_TYPE, 4, 1},         {36 + DMCL_C_REVNOW, 2, 1}, {36 + DMCL_C_NFP, 5, 1},
    {36 + DMCL_C_MYSIZE, 6, 1},      {36 + DMCL_C_TABLE, 13, 0}, {36 + DMCL_C_NEW, 2, 1},
};

static void check_items(const uint8_t *f, int n, const char *ctx) {
  uint8_t on[DMCL_FEATURES] = {0};
  for (int i = 0; i < n; i++) on[f[i]] = 1;
  for (size_t k = 0; k < sizeof items / sizeof *items; k++) {
    int c = 0;
    for (int u = 0; u < items[k].n; u++) c += on[items[k].lo + u];
    if (c > 1 || (items[k].exact && c != 1))
      TK_FAILF("%s: item at feature %d has %d units on", ctx, items[k].lo, c);
  }
  /* per-column groups of three (unseen, after, each other's passed pair and size group) */
  for (int base = 36 + DMCL_C_UNSEEN; base <= 36 + DMCL_C_AFTER; base += DMCL_C_AFTER - DMCL_C_UNSEEN) {
    for (int col = 0; col < 13; col++)
      if (on[base + 3 * col] + on[base + 3 * col + 1] + on[base + 3 * col + 2] != 1)
        TK_FAILF("%s: column %d of the group at %d", ctx, col + 1, base);
    if (on[base + 39] + on[base + 40] != 1) TK_FAILF("%s: joker units at %d", ctx, base);
  }
  for (int k = 0; k < 4; k++) {
    if (on[36 + DMCL_C_PASSED + 2 * k] + on[36 + DMCL_C_PASSED + 2 * k + 1] != 1)
      TK_FAILF("%s: passed units of other %d", ctx, k);
    int c = 0;
    for (int u = 0; u < 7; u++) c += on[36 + DMCL_C_SIZES + 7 * k + u];
    if (c != 1) TK_FAILF("%s: size units of other %d: %d", ctx, k, c);
  }
}

static double ap_w[DMCL_CROSSED];
static double nn_w[5 * DMCL_NN_ROW];

/* Plays random blocks; at every play decision compares the view's and the game's positions and
 * every legal move's features, checks the items, and the scorers against the full-list h. */
static void random_positions(void) {
  tk_rng wr;
  tk_rng_seed(&wr, 7);
  /* AP: values off any grid, so that the rounding at load is exercised */
  for (int i = 0; i < DMCL_CROSSED; i++) ap_w[i] = (tk_rng_double(&wr) - 0.5) * 2000;
  for (int i = 0; i < 5 * DMCL_NN_ROW; i++) nn_w[i] = tk_rng_double(&wr) - 0.5;
  dmcl_model ap, nn;
  if (dmcl_model_init(&ap, DMCL_AP, 0, ap_w) || dmcl_model_init(&nn, DMCL_NN, 5, nn_w)) {
    TK_FAILF("dmcl_model_init failed");
    return;
  }
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 10;
  static tk_daifugo_block b;
  static tk_daifugo_view v;
  static tk_daifugo_legal l;
  tk_rng r;
  tk_rng_seed(&r, 11);
  long positions = 0, moves = 0, failures = 0;
  for (uint64_t blk = 0; blk < 4 && failures < 5; blk++) {
    tk_daifugo_block_init(&b, &rules, 99, blk, NULL);
    int who;
    while ((who = tk_daifugo_to_act(&b)) >= 0 && failures < 5) {
      tk_daifugo_legal_of(&b, who, &l);
      if (b.phase == TK_DAIFUGO_PHASE_PLAY) {
        tk_daifugo_view_of(&b, who, &v);
        dmcl_pos pv, pg;
        if (dmcl_pos_of_view(&v, &pv)) {
          TK_FAILF("block %llu game %u: the view of the player to move refused",
                   (unsigned long long)blk, b.game);
          failures++;
        }
        dmcl_pos_of_game(&b.g, &pg);
        if (memcmp(&pv, &pg, sizeof pv)) {
          TK_FAILF("block %llu game %u: view and game positions differ", (unsigned long long)blk,
                   b.game);
          failures++;
        }
        /* the AP scorer reads only what the core position holds */
        dmcl_pos pc;
        dmcl_pos_of_game_core(&b.g, &pc);
        dmcl_scorer sa, sn;
        dmcl_scorer_init(&sa, &ap, &pc);
        dmcl_scorer_init(&sn, &nn, &pg);
        positions++;
        for (int i = 0; i < l.n; i++) {
          uint8_t fv[DMCL_MAX_ACTIVE], fg[DMCL_MAX_ACTIVE];
          int nv = dmcl_features(&pv, &l.a[i], fv), ng = dmcl_features(&pg, &l.a[i], fg);
          char ctx[96], ms[64];
          tk_daifugo_move_str(&l.a[i], ms, sizeof ms);
          snprintf(ctx, sizeof ctx, "block %llu game %u move %s", (unsigned long long)blk, b.game, ms);
          if (nv != ng || memcmp(fv, fg, (size_t)nv)) TK_FAILF("%s: view and game units differ", ctx), failures++;
          check_items(fg, ng, ctx);
          double slow = dmcl_h(&ap, &pg, &l.a[i]), fast = dmcl_scorer_rank_key(&sa, &l.a[i]);
          if (slow != fast) TK_FAILF("%s: AP scorer %.17g, full list %.17g", ctx, fast, slow), failures++;
          slow = dmcl_h(&nn, &pg, &l.a[i]);
          fast = 1 / (1 + exp(-dmcl_scorer_rank_key(&sn, &l.a[i])));
          if (fabs(slow - fast) > 1e-12) TK_FAILF("%s: NN scorer %.15f, full list %.15f", ctx, fast, slow), failures++;
          moves++;
        }
      }
      tk_daifugo_move m = l.a[tk_rng_below(&r, l.n)];
      if (b.phase == TK_DAIFUGO_PHASE_PLAY && l.n > 1 && m.kind == TK_DAIFUGO_PASS &&
          tk_rng_below(&r, 4)) m = l.a[1 + tk_rng_below(&r, l.n - 1)];
      tk_daifugo_apply(&b, who, &m, NULL);
    }
  }
  if (positions < 1000) TK_FAILF("only %ld positions visited", positions);
  printf("\n  %ld positions, %ld moves compared\n", positions, moves);
  dmcl_model_free(&ap);
  dmcl_model_free(&nn);
}

/* The 8-cut unit against the engine: over random blocks, every legal play's DMCL_B_EIGHT unit is
 * "yes" exactly when the engine clears the table right after it for an 8 (the play made on a
 * copy with nobody passed, so that only a cut clears it; the ♠3 over the joker also clears, but
 * is not an 8). daifugo_mcl keeps its own copy of the rule: this keeps the two the same. */
static void eight_unit_matches_engine(void) {
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 10;
  static tk_daifugo_block b;
  static tk_daifugo_legal l;
  tk_rng r;
  tk_rng_seed(&r, 34);
  long plays = 0, cuts = 0, seq8_first = 0, failures = 0;
  for (uint64_t blk = 0; blk < 30 && failures < 5; blk++) {
    tk_daifugo_block_init(&b, &rules, 2024, blk, NULL);
    int who;
    while ((who = tk_daifugo_to_act(&b)) >= 0 && failures < 5) {
      tk_daifugo_legal_of(&b, who, &l);
      if (b.phase == TK_DAIFUGO_PHASE_PLAY) {
        dmcl_pos p;
        dmcl_pos_of_game(&b.g, &p);
        for (int i = 0; i < l.n; i++) {
          const tk_daifugo_move *m = &l.a[i];
          if (m->kind == TK_DAIFUGO_PASS) continue;
          uint8_t u[DMCL_MAX_B];
          int n = dmcl_move_b(&p, m, u), eight = -1;
          for (int k = 0; k < n; k++)
            if (u[k] == DMCL_B_EIGHT || u[k] == DMCL_B_EIGHT + 1) eight = u[k] - DMCL_B_EIGHT;
          tk_daifugo_game g = b.g;
          g.passed = 0;
          int spade3 = b.g.top.kind == TK_DAIFUGO_JOKER1 && m->kind == TK_DAIFUGO_SINGLE &&
                       m->cards == TK_DAIFUGO_CARD(0, 1);
          tk_daifugo_game_play(&g, m);
          if (g.over) continue; /* the game ended: nothing cleared */
          int cut = g.cleared && !spade3;
          plays++;
          cuts += cut;
          seq8_first += cut && m->kind == TK_DAIFUGO_SEQ && m->rank == TK_DAIFUGO_COL_8;
          if (eight != cut) {
            char ms[64];
            tk_daifugo_move_str(m, ms, sizeof ms);
            TK_FAILF("block %llu game %u: %s: the 8-cut unit says %d, the engine %s the table",
                     (unsigned long long)blk, b.game, ms, eight, cut ? "cleared" : "kept");
            failures++;
          }
        }
      }
      tk_daifugo_move m = l.a[tk_rng_below(&r, l.n)];
      if (b.phase == TK_DAIFUGO_PHASE_PLAY && l.n > 1 && m.kind == TK_DAIFUGO_PASS &&
          tk_rng_below(&r, 4)) m = l.a[1 + tk_rng_below(&r, l.n - 1)];
      tk_daifugo_apply(&b, who, &m, NULL);
    }
  }
  printf("\n  %ld plays, %ld cut (%ld sequences from an 8)\n", plays, cuts, seq8_first);
  if (plays < 50000 || cuts < 2500 || seq8_first < 40)
    TK_FAILF("too few cases: %ld plays, %ld cuts, %ld sequences from an 8", plays, cuts,
             seq8_first);
}

/* AP's rounding at load: the largest |w| 3 puts the grid at 2^-22 (3 = 0.75 x 2^2, and
 * 3 x 2^22 < 2^24 <= 3 x 2^23); each weight moves to its nearest grid point, by at most 2^-23;
 * weights already on the grid stay. */
static void ap_grid(void) {
  static double w[DMCL_CROSSED];
  memset(w, 0, sizeof w);
  w[0] = 3, w[1] = 1.0 / 3, w[2] = -0.1, w[3] = 0.5, w[4] = -2.75, w[DMCL_CROSSED - 1] = 1e-9;
  dmcl_model md;
  if (dmcl_model_init(&md, DMCL_AP, 0, w)) {
    TK_FAILF("dmcl_model_init failed");
    return;
  }
  TK_EQ(md.k, 22, "grid exponent");
  CU_ASSERT_EQUAL(md.unit, ldexp(1, -22));
  CU_ASSERT_EQUAL(md.w[0], 3);
  CU_ASSERT_EQUAL(md.w[1], 1398101 / 4194304.0);  /* round(2^22 / 3) = 1398101.33 -> 1398101 */
  CU_ASSERT_EQUAL(md.w[2], -419430 / 4194304.0);  /* round(-419430.4) */
  CU_ASSERT_EQUAL(md.w[3], 0.5);
  CU_ASSERT_EQUAL(md.w[4], -2.75);
  CU_ASSERT_EQUAL(md.w[DMCL_CROSSED - 1], 0);     /* 1e-9 x 2^22 = 0.004: rounded away */
  for (int i = 0; i < 5; i++)
    if (fabs(md.w[i] - w[i]) > ldexp(1, -23)) TK_FAILF("w[%d] moved by %g", i, md.w[i] - w[i]);
  dmcl_model_free(&md);
  /* all zero: a grid exists and every h is 0 */
  memset(w, 0, sizeof w);
  if (dmcl_model_init(&md, DMCL_AP, 0, w)) TK_FAILF("zero weights refused");
  else dmcl_model_free(&md);
  /* a weight that is not finite is refused, and the model left empty */
  w[7] = NAN;
  CU_ASSERT_EQUAL(dmcl_model_init(&md, DMCL_AP, 0, w), -1);
  CU_ASSERT_PTR_NULL(md.t);
}

/* ---- the rank draw */

static void rank_probs(void) {
  /* footnote 4: k = 4, α = 0.5 -> 0.533, 0.266, 0.133, 0.066 (8/15, 4/15, 2/15, 1/15) */
  const double want[4] = {8 / 15.0, 4 / 15.0, 2 / 15.0, 1 / 15.0};
  for (int i = 1; i <= 4; i++)
    if (fabs(dmcl_rank_prob(0.5, 4, i) - want[i - 1]) > 1e-12)
      TK_FAILF("p_%d = %.6f, expected %.6f", i, dmcl_rank_prob(0.5, 4, i), want[i - 1]);
  CU_ASSERT_DOUBLE_EQUAL(dmcl_rank_prob(0.5, 4, 1), 0.533, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL(dmcl_rank_prob(0.5, 4, 4), 0.066, 0.001);
  CU_ASSERT_DOUBLE_EQUAL(dmcl_rank_prob(0, 4, 1), 1, 0);
  CU_ASSERT_DOUBLE_EQUAL(dmcl_rank_prob(0, 4, 2), 0, 0);
  CU_ASSERT_DOUBLE_EQUAL(dmcl_rank_prob(1, 4, 3), 0.25, 0);
  /* α = 0.6: the top move ≈ 0.4 with many moves */
  CU_ASSERT_DOUBLE_EQUAL(dmcl_rank_prob(0.6, 30, 1), 0.4, 1e-6);
  /* the draw follows it: 200,000 draws, k = 4 and α = 0.5, each share within 0.005 (4.5 sd) */
  tk_rng r;
  tk_rng_seed(&r, 3);
  long c[4] = {0};
  for (int i = 0; i < 200000; i++) c[dmcl_draw_rank(0.5, 4, &r)]++;
  for (int i = 0; i < 4; i++)
    if (fabs(c[i] / 200000.0 - want[i]) > 0.005)
      TK_FAILF("rank %d drawn %.4f of the time, expected %.4f", i + 1, c[i] / 200000.0, want[i]);
  for (int i = 0; i < 1000; i++) TK_EQ(dmcl_draw_rank(0, 7, &r), 0, "α 0 draws the first");
}

/* dmcl_pick on position A's moves: with weights that rank S8 JK[H8] first (the 8-cut unit
 * weighted), α 0 always plays it; with all-zero weights every move ties and α 0 plays each
 * about equally often; α 1 is uniform. */
static void pick_ties(void) {
  tk_daifugo_view v;
  position_a(&v);
  dmcl_pos p;
  dmcl_pos_of_view(&v, &p);
  const tk_daifugo_move m[3] = {mv("pass"), mv("S7 H7"), mv("S8 JK[H8]")};
  static double w[DMCL_CROSSED];
  memset(w, 0, sizeof w);
  dmcl_policy pol = {.alpha = 0};
  if (dmcl_model_init(&pol.md, DMCL_AP, 0, w)) {
    TK_FAILF("dmcl_model_init failed");
    return;
  }
  tk_rng r;
  tk_rng_seed(&r, 5);
  long c[3] = {0};
  for (int i = 0; i < 30000; i++) c[dmcl_pick(&pol, &p, m, 3, &r)]++;
  for (int i = 0; i < 3; i++)
    if (fabs(c[i] / 30000.0 - 1 / 3.0) > 0.015) TK_FAILF("tie: move %d picked %ld of 30000", i, c[i]);
  w[(DMCL_B_EIGHT + 1) * DMCL_CP + DMCL_C_NEW] = 1; /* 8-cut x table not new */
  dmcl_model_free(&pol.md);
  if (dmcl_model_init(&pol.md, DMCL_AP, 0, w)) {
    TK_FAILF("dmcl_model_init failed");
    return;
  }
  for (int i = 0; i < 1000; i++) TK_EQ(dmcl_pick(&pol, &p, m, 3, &r), 2, "α 0 plays the best");
  pol.alpha = 0.5; /* k = 3: 4/7, 2/7, 1/7 for S8 JK[H8], then the tied pair at random */
  memset(c, 0, sizeof c);
  for (int i = 0; i < 70000; i++) c[dmcl_pick(&pol, &p, m, 3, &r)]++;
  const double want[3] = {1.5 / 7, 1.5 / 7, 4 / 7.0};
  for (int i = 0; i < 3; i++)
    if (fabs(c[i] / 70000.0 - want[i]) > 0.01)
      TK_FAILF("α 0.5: move %d picked %.4f, expected %.4f", i, c[i] / 70000.0, want[i]);
  dmcl_model_free(&pol.md);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"C' units of a hand-made position", fixed_units},
      {"B' and hand-after units of its moves", move_units},
      {"units in revolution, under the joker, on a new table", revolution_units},
      {"hand-size buckets", size_buckets},
      {"view = game, one-hot items, fast h = full h (random blocks)", random_positions},
      {"the 8-cut unit agrees with the engine over random blocks", eight_unit_matches_engine},
      {"AP weights rounded to their grid at load", ap_grid},
      {"rank probabilities and draws (footnote 4)", rank_probs},
      {"pick: argmax, ties at random, α 0.5", pick_ties},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_features", tests);
}
