/* tests/daifugo/test_daifugo_draw.c — the playouts' fast paths against the slow ones:
 * - tk_daifugo_random_play draws uniformly among the plays tk_daifugo_game_legal lists (each
 *   draw a listed play with every field equal; every play drawn; chi-square per position and
 *   pooled over all positions), on positions of random games of every table kind and on
 *   hand-made hands with the longest lists (new tables with the joker, quads, long suits);
 * - tk_daifugo_playout (and tk_daifugo_playout_until, stopping when a player goes out) leaves
 *   the game byte for byte as a loop of tk_daifugo_random_play and tk_daifugo_game_play does
 *   from the same stream (so its plays have the same distribution), on random positions with
 *   revolutions, locks, players out, passes pending and short sennichite counts;
 * - the engine's inline copy of the generator gives tk_rng_next's and tk_rng_below's stream. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dt.h"
#include "internal.h"
#include "unit.h"

static tk_daifugo_legal L;
static tk_daifugo_block B;

/* Deals game `deal` of seed `seed` into g with `senn` passes ending it by sennichite. */
static void deal_game(tk_daifugo_game *g, uint64_t seed, uint64_t deal, int senn) {
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 1;
  tk_daifugo_block_init(&B, &rules, seed, deal, NULL);
  tk_error err;
  tk_error_clear(&err);
  if (tk_daifugo_game_setup(g, B.g.hand, B.g.seat_of, B.g.turn, senn, deal, &err))
    TK_FAILF("setup: %s", err.msg);
}

/* One action of g->turn, random: half the time a sequence if one is listed, a third of the
 * time a group if one is listed (so that those tables are met often), else uniformly any
 * listed action, the pass included. */
static void random_step(tk_daifugo_game *g, tk_rng *pick) {
  tk_daifugo_game_legal(g, &L);
  int seqs = 0, groups = 0;
  for (int i = 1; i < L.n; i++) seqs += L.a[i].kind == TK_DAIFUGO_SEQ, groups += L.a[i].kind == TK_DAIFUGO_GROUP;
  int want = seqs && tk_rng_below(pick, 2) ? TK_DAIFUGO_SEQ
             : groups && tk_rng_below(pick, 3) == 0 ? TK_DAIFUGO_GROUP : -1;
  int k = want < 0 ? (int)tk_rng_below(pick, L.n)
                   : (int)tk_rng_below(pick, (uint32_t)(want == TK_DAIFUGO_SEQ ? seqs : groups));
  for (int i = 1; want >= 0 && i < L.n; i++)
    if (L.a[i].kind == want && k-- == 0) {
      k = i;
      break;
    }
  tk_daifugo_game_play(g, &L.a[k]);
}

/* A game in the middle of a random game: deal `deal`, then up to `steps` random actions,
 * stopping before the end. */
static void random_position(tk_daifugo_game *g, uint64_t seed, uint64_t deal, int steps, int senn,
                            tk_rng *pick) {
  deal_game(g, seed, deal, senn);
  for (int i = 0; i < steps; i++) {
    tk_daifugo_game next = *g;
    random_step(&next, pick);
    if (next.over) break;
    *g = next;
  }
}

/* Finds `m` in L (every field equal); -1 if absent. */
static int find(const tk_daifugo_move *m) {
  for (int i = 0; i < L.n; i++)
    if (!memcmp(&L.a[i], m, sizeof *m)) return i;
  return -1;
}

typedef struct uniform_stats {
  long positions, draws, leads, long_lists, groups, locked, jokers, sequences;
  double chi2, df; /* pooled over positions */
} uniform_stats;

/* Draws 40 times per play at g's decision and checks the draws against the list. */
static void check_uniform(const tk_daifugo_game *g, tk_rng *r, uniform_stats *st, const char *ctx) {
  static int counts[TK_DAIFUGO_MAX_LEGAL];
  tk_daifugo_game_legal(g, &L);
  int plays = L.n - 1;
  tk_daifugo_move m;
  tk_daifugo_game copy = *g;
  if (plays == 0) {
    tk_daifugo_random_play(g, r, &m);
    if (m.kind != TK_DAIFUGO_PASS) TK_FAILF("%s: a play drawn where only the pass is legal", ctx);
    return;
  }
  memset(counts, 0, sizeof counts);
  int draws = 40 * plays;
  for (int d = 0; d < draws; d++) {
    tk_daifugo_random_play(g, r, &m);
    int i = find(&m);
    if (i < 1) {
      char buf[96];
      tk_daifugo_move_str(&m, buf, sizeof buf);
      TK_FAILF("%s: drew '%s' (kind %d, n %d, rank %d, suits %d, jcell %d), not a listed play", ctx,
               buf, m.kind, m.n, m.rank, m.suits, m.jcell);
      return;
    }
    counts[i]++;
  }
  if (memcmp(&copy, g, sizeof copy)) TK_FAILF("%s: random_play changed the game", ctx);
  double chi2 = 0, e = 40.0;
  for (int i = 1; i < L.n; i++) {
    if (!counts[i]) {
      char buf[96];
      tk_daifugo_move_str(&L.a[i], buf, sizeof buf);
      TK_FAILF("%s: play '%s' (%d of %d) never drawn in %d draws", ctx, buf, i, plays, draws);
    }
    chi2 += (counts[i] - e) * (counts[i] - e) / e;
  }
  double df = plays - 1;
  if (plays > 1 && chi2 > df + 10 * sqrt(2 * df) + 20)
    TK_FAILF("%s: chi-square %.1f over %d plays", ctx, chi2, plays);
  st->chi2 += chi2;
  st->df += df;
  st->positions++;
  st->draws += draws;
  st->leads += L.lead;
  st->long_lists += plays > 40;
  st->groups += g->top.kind == TK_DAIFUGO_GROUP;
  st->sequences += g->top.kind == TK_DAIFUGO_SEQ;
  st->locked += g->lock;
  st->jokers += (g->hand[g->turn] & TK_DAIFUGO_JOKER) != 0;
}

static void random_play_is_uniform(void) {
  tk_rng r, pick;
  tk_rng_seed(&r, 11);
  tk_rng_seed(&pick, 12);
  uniform_stats st = {0};
  char ctx[96];
  /* Hand-made: the longest lists, and groups over groups with the joker under a lock. */
  static const char *hands[] = {
      "S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK JK",  /* 365 plays */
      "S3 H3 D3 C3 S4 H4 D4 C4 S5 H5 JK",     /* quads, sequences through the joker */
      "S3 S4 S6 S7 H9 HT HQ HK D2 DA JK",     /* gaps the joker fills, both row ends */
      "SA S2 HA H2 DA D2 CA C2 JK S3 C3",
      "S3 H4 D5 C6 S7 H8 D9 CT SJ HQ DK",     /* singles only */
  };
  for (size_t i = 0; i < sizeof hands / sizeof *hands; i++)
    for (int rev = 0; rev < 2; rev++) {
      tk_daifugo_game g;
      dt_game(&g, hands[i], "", "", "", NULL, 0);
      g.rev = (uint8_t)rev;
      snprintf(ctx, sizeof ctx, "hand %zu rev %d", i, rev);
      check_uniform(&g, &r, &st, ctx);
    }
  /* Over a pair with the joker held, locked and not, in both orders. */
  for (int lock = 0; lock < 2; lock++)
    for (int rev = 0; rev < 2; rev++) {
      tk_daifugo_game g;
      dt_game(&g, "S7 H7", "S5 H5 D5 S9 H9 C9 ST DT CT SK HK DK CK JK", "S3", "S4", NULL, 0);
      dt_play(&g, 0, "S7 H7");
      g.lock = (uint8_t)lock;
      g.rev = (uint8_t)rev;
      snprintf(ctx, sizeof ctx, "over a pair lock %d rev %d", lock, rev);
      check_uniform(&g, &r, &st, ctx);
    }
  /* Positions of random games (one in 5 in revolution): every decision over a group or a
   * sequence or with the joker in hand, every 7th of the others, in 2,000 games. */
  for (uint64_t deal = 0; deal < 2000; deal++) {
    tk_daifugo_game g;
    deal_game(&g, 5, deal, 20);
    if (deal % 5 == 0) g.rev ^= 1;
    for (int step = 0; !g.over; step++) {
      if (step % 7 == 0 || g.top.kind == TK_DAIFUGO_GROUP || g.top.kind == TK_DAIFUGO_SEQ ||
          (g.hand[g.turn] & TK_DAIFUGO_JOKER)) {
        snprintf(ctx, sizeof ctx, "deal %llu step %d", (unsigned long long)deal, step);
        check_uniform(&g, &r, &st, ctx);
      }
      random_step(&g, &pick);
    }
  }
  /* The lead of a dealt hand holding the joker (the longest lists of real games), 400 deals. */
  for (uint64_t deal = 0; deal < 400; deal++) {
    tk_daifugo_game g;
    deal_game(&g, 6, deal, 20);
    int p = 0;
    while (!(g.hand[p] & TK_DAIFUGO_JOKER)) p++;
    tk_error err;
    tk_error_clear(&err);
    tk_daifugo_game dealt = g;
    if (tk_daifugo_game_setup(&g, dealt.hand, dealt.seat_of, p, 20, deal, &err))
      TK_FAILF("setup: %s", err.msg);
    g.rev = (uint8_t)(deal & 1);
    snprintf(ctx, sizeof ctx, "joker lead, deal %llu", (unsigned long long)deal);
    check_uniform(&g, &r, &st, ctx);
  }
  double z = (st.chi2 - st.df) / sqrt(2 * st.df);
  printf("\nrandom_play: %ld positions, %ld draws (%ld leads, %ld lists over 40 plays, %ld over "
         "groups, %ld over sequences, %ld locked, %ld holding the joker); pooled chi-square %.0f "
         "on %.0f df, z = %.2f\n", st.positions, st.draws, st.leads, st.long_lists, st.groups,
         st.sequences, st.locked, st.jokers, st.chi2, st.df, z);
  if (fabs(z) > 5) TK_FAILF("pooled chi-square %.0f on %.0f df: z = %.2f", st.chi2, st.df, z);
  if (st.leads < 1000 || st.long_lists < 200 || st.groups < 30 || st.locked < 30 || st.jokers < 100 ||
      st.sequences < 100)
    TK_FAILF("too few positions of a kind: %ld leads, %ld long lists, %ld groups, %ld locked, %ld "
             "jokers, %ld sequences", st.leads, st.long_lists, st.groups, st.locked, st.jokers,
             st.sequences);
}

/* The first field where two games differ, for the message. */
static const char *first_difference(const tk_daifugo_game *a, const tk_daifugo_game *b) {
  if (memcmp(a->hand, b->hand, sizeof a->hand)) return "hand";
  if (a->played != b->played) return "played";
  if (memcmp(&a->top, &b->top, sizeof a->top)) return "top";
  if (memcmp(&a->rng, &b->rng, sizeof a->rng)) return "rng";
  if (a->turn != b->turn || a->owner != b->owner) return "turn/owner";
  if (a->passed != b->passed || a->npass != b->npass) return "passed/npass";
  if (a->out != b->out || a->nout != b->nout || memcmp(a->order, b->order, 5)) return "out/order";
  if (a->rev != b->rev || a->lock != b->lock) return "rev/lock";
  if (a->over != b->over || a->by_sennichite != b->by_sennichite || a->cleared != b->cleared)
    return "over/by_sennichite/cleared";
  return memcmp(a, b, sizeof *a) ? "another byte" : NULL;
}

static void playout_equals_steps(void) {
  tk_rng pick;
  tk_rng_seed(&pick, 21);
  long positions = 0, senn_games = 0, rev_games = 0, out_start = 0, stopped = 0, stop_cleared = 0;
  for (uint64_t deal = 0; deal < 3000; deal++) {
    /* Short sennichite counts make the pass-skipping's exact stop matter. */
    int senn = deal % 3 == 0 ? 2 + (int)(deal / 3 % 6) : 20;
    tk_daifugo_game g;
    random_position(&g, 9, deal, (int)tk_rng_below(&pick, 100), senn, &pick);
    if (deal % 7 == 0) g.rev ^= 1;
    if (deal % 11 == 0 && senn == 20) g.npass = (uint8_t)(17 + deal % 3);
    out_start += g.nout > 0;
    tk_daifugo_game a = g, b = g;
    tk_rng ra, rb;
    tk_rng_seed(&ra, deal);
    rb = ra;
    tk_daifugo_playout(&a, &ra);
    tk_daifugo_move m;
    for (int guard = 0; !b.over && guard < 10000; guard++) {
      tk_daifugo_random_play(&b, &rb, &m);
      tk_daifugo_game_play(&b, &m);
    }
    const char *diff = first_difference(&a, &b);
    if (diff) {
      TK_FAILF("deal %llu (sennichite %d): the playout and the steps differ in %s",
               (unsigned long long)deal, senn, diff);
      break;
    }
    if (memcmp(&ra, &rb, sizeof ra)) TK_FAILF("deal %llu: the streams end apart", (unsigned long long)deal);
    /* Stopping when one player has gone out (each player in turn; one already out leaves the
     * game as it is). */
    int who = (int)(deal % 5);
    a = g, b = g;
    tk_rng_seed(&ra, deal + 1);
    rb = ra;
    tk_daifugo_playout_until(&a, &ra, who);
    for (int guard = 0; !b.over && !(b.out >> who & 1) && guard < 10000; guard++) {
      tk_daifugo_random_play(&b, &rb, &m);
      tk_daifugo_game_play(&b, &m);
    }
    diff = first_difference(&a, &b);
    if (diff) {
      TK_FAILF("deal %llu (sennichite %d): the playout until player %d is out and the steps differ "
               "in %s", (unsigned long long)deal, senn, who, diff);
      break;
    }
    if (memcmp(&ra, &rb, sizeof ra))
      TK_FAILF("deal %llu: the streams end apart (until %d)", (unsigned long long)deal, who);
    stopped += !a.over;
    stop_cleared += !a.over && a.cleared;
    char ctx[64];
    snprintf(ctx, sizeof ctx, "deal %llu after the playout", (unsigned long long)deal);
    dt_check_game(&a, ctx);
    positions++;
    senn_games += a.by_sennichite;
    rev_games += a.rev;
  }
  /* A finished game is left alone. */
  tk_daifugo_game g, copy;
  random_position(&g, 9, 0, 0, 20, &pick);
  tk_rng r;
  tk_rng_seed(&r, 1);
  tk_daifugo_playout(&g, &r);
  copy = g;
  tk_daifugo_playout(&g, &r);
  if (memcmp(&copy, &g, sizeof g)) TK_FAILF("a playout changed a finished game");
  printf("\nplayouts: %ld positions (%ld with players out at the start), %ld ended by sennichite, "
         "%ld in revolution at the end; stopped by a player going out: %ld (%ld with the table "
         "cleared)\n", positions, out_start, senn_games, rev_games, stopped, stop_cleared);
  if (senn_games < 100 || rev_games < 100 || out_start < 100 || stopped < 1000 || stop_cleared < 100)
    TK_FAILF("too few games of a kind: %ld sennichite, %ld revolution, %ld with players out, %ld "
             "stopped, %ld stopped on a cleared table", senn_games, rev_games, out_start, stopped,
             stop_cleared);
}

static void inline_rng_matches(void) {
  tk_rng a, b;
  tk_rng_seed(&a, 31);
  b = a;
  static const uint32_t bounds[] = {1, 2, 3, 5, 7, 53, 366, 1000, 65537, 0x80000001u, 0xfffffffbu};
  int mismatches = 0;
  for (int i = 0; i < 200000; i++) {
    uint32_t n = bounds[i % (sizeof bounds / sizeof *bounds)];
    if (i % 3 == 0) mismatches += tk__df_next(&a) != tk_rng_next(&b);
    else mismatches += tk__df_below(&a, n) != tk_rng_below(&b, n);
  }
  TK_EQ(mismatches, 0, "inline generator against rng.c");
  if (memcmp(&a, &b, sizeof a)) TK_FAILF("the states differ after the same draws");
}

/* tk_daifugo_game_can_play is "the list holds more than the pass", at every decision of 3,000
 * random games (one in 5 in revolution) and over a pair with the joker in hand, locked and not,
 * in both orders; each table kind is met both with a play and with the pass forced. */
static void can_play_matches_list(void) {
  tk_rng pick;
  tk_rng_seed(&pick, 31);
  long seen[TK_DAIFUGO_JOKER1 + 1][2] = {{0}};
  long bad = 0;
  for (int lock = 0; lock < 2; lock++)
    for (int rev = 0; rev < 2; rev++) {
      tk_daifugo_game g;
      dt_game(&g, "S7 H7", "S5 H5 D5 S9 C9 JK", "S3", "S4", NULL, 0);
      dt_play(&g, 0, "S7 H7");
      g.lock = (uint8_t)lock;
      g.rev = (uint8_t)rev;
      /* pairs with the joker (S9 JK[H9], C9 JK, ...) and, in revolution, S5 H5: the lock keeps
       * only the pair's suits ♠ ♥; the list is the judge */
      int want = tk_daifugo_game_legal(&g, &L) > 1;
      if (tk_daifugo_game_can_play(&g) != want) {
        TK_FAILF("over a pair, lock %d rev %d: can_play %d, the list has %d actions", lock, rev,
                 tk_daifugo_game_can_play(&g), L.n);
        bad++;
      }
    }
  for (uint64_t deal = 0; deal < 3000 && bad < 5; deal++) {
    tk_daifugo_game g;
    deal_game(&g, 8, deal, 20);
    if (deal % 5 == 0) g.rev ^= 1;
    while (!g.over && bad < 5) {
      int want = tk_daifugo_game_legal(&g, &L) > 1, got = tk_daifugo_game_can_play(&g);
      seen[g.top.kind][want]++;
      if (got != want) {
        char top[64];
        tk_daifugo_move_str(&g.top, top, sizeof top);
        TK_FAILF("deal %llu: over %s (rev %d lock %d): can_play %d, the list has %d actions",
                 (unsigned long long)deal, top, g.rev, g.lock, got, L.n);
        bad++;
      }
      random_step(&g, &pick);
    }
    if (g.over && tk_daifugo_game_can_play(&g)) TK_FAILF("deal %llu: can_play after the end",
                                                         (unsigned long long)deal), bad++;
  }
  printf("\ncan_play: forced pass / a play over a single %ld/%ld, the joker %ld/%ld, a group "
         "%ld/%ld, a sequence %ld/%ld; new tables %ld\n", seen[TK_DAIFUGO_SINGLE][0],
         seen[TK_DAIFUGO_SINGLE][1], seen[TK_DAIFUGO_JOKER1][0], seen[TK_DAIFUGO_JOKER1][1],
         seen[TK_DAIFUGO_GROUP][0], seen[TK_DAIFUGO_GROUP][1], seen[TK_DAIFUGO_SEQ][0],
         seen[TK_DAIFUGO_SEQ][1], seen[TK_DAIFUGO_PASS][1]);
  for (int k = TK_DAIFUGO_SINGLE; k <= TK_DAIFUGO_JOKER1; k++)
    for (int w = 0; w < 2; w++)
      if (seen[k][w] < 20) TK_FAILF("table kind %d, can play %d: only %ld positions", k, w, seen[k][w]);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"the inline generator is tk_rng's stream", inline_rng_matches},
      {"random_play: listed plays, uniformly", random_play_is_uniform},
      {"playout(_until) = random_play + game_play, byte for byte", playout_equals_steps},
      {"game_can_play = the list holds more than the pass", can_play_matches_list},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_draw", tests);
}
