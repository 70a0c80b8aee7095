/* tests/referee/test_ref_greedy.c — the greedy agent (plugins/greedy/greedy.c, linked in with
 * TAIKAI_AGENT_STATIC): its pruned effective-tile count equals the kernel's tk_ukeire on many
 * random hands, biased towards seven pairs and thirteen orphans too; and its choice is the
 * thesis's (minimum shanten, most unseen effective tiles, documented tie-breaks). */
#define TAIKAI_AGENT_STATIC 1
#include "../../plugins/greedy/greedy.c"

#include "taikai/rng.h"
#include "unit.h"

/* 13 tiles drawn from a pool of kinds (4 copies each). */
static void random_hand(tk_rng *r, const int *pool, int npool, uint8_t *c) {
  memset(c, 0, TK_KINDS);
  for (int n = 0; n < 13;) {
    int k = pool[tk_rng_below(r, (uint32_t)npool)];
    if (c[k] < 4) c[k]++, n++;
  }
}

static void test_effective_count(void) {
  tk_rng r;
  tk_rng_seed(&r, 2024);
  int all[TK_KINDS], yaochu[13], ny = 0, pairs[10];
  for (int k = 0; k < TK_KINDS; k++) {
    all[k] = k;
    if (tk_kind_is_yaochu(k)) yaochu[ny++] = k;
  }
  int mismatches = 0;
  for (int i = 0; i < 200000 && mismatches < 5; i++) {
    uint8_t c[TK_KINDS], seen[TK_KINDS], unseen[TK_KINDS];
    int mode = i % 3;
    if (mode == 0) random_hand(&r, all, TK_KINDS, c);
    else if (mode == 1) random_hand(&r, yaochu, 13, c);
    else {
      for (int j = 0; j < 10; j++) /* distinct kinds, so the pool holds at least 28 tiles */
        for (int fresh = 0; !fresh;) {
          pairs[j] = (int)tk_rng_below(&r, TK_KINDS);
          fresh = 1;
          for (int q = 0; q < j; q++) fresh &= pairs[q] != pairs[j];
        }
      random_hand(&r, pairs, 7 + (int)tk_rng_below(&r, 4), c);
    }
    for (int k = 0; k < TK_KINDS; k++) {
      seen[k] = (uint8_t)tk_rng_below(&r, (uint32_t)(4 - c[k] + 1));
      if (tk_rng_below(&r, 2)) seen[k] = 0;
      unseen[k] = (uint8_t)(4 - c[k] - seen[k]);
    }
    int want = 0, sh = 0;
    tk_ukeire(c, seen, TK_FORM_ALL, &want, &sh);
    shape h;
    shape_of(c, &h);
    uint64_t has = 0;
    for (int k = 0; k < TK_KINDS; k++)
      if (unseen[k]) has |= 1ull << k;
    int s = h.s, got = effective_count(c, unseen, has, &h);
    if (s != sh || got != want) {
      char buf[64];
      tk_tile t[14];
      int n = 0;
      for (int k = 0; k < TK_KINDS; k++)
        for (int j = 0; j < c[k]; j++) t[n++] = (tk_tile)k;
      tk_tiles_format(t, n, buf, sizeof buf);
      TK_FAILF("%s: shanten %d/%d, effective %d, tk_ukeire %d", buf, s, sh, got, want);
      mismatches++;
    }
  }
  CU_ASSERT_EQUAL(mismatches, 0);
}

/* Algorithm 1 written plainly over the kernel's tk_ukeire: the reference greedy choice. */
static int reference_choice(const tk_solo_view *v, int last) {
  uint8_t c[TK_KINDS], seen[TK_KINDS];
  memcpy(c, v->hand, TK_KINDS);
  int s14 = tk_shanten(c), best = -1, best_n = -1;
  for (int k = 0; k < TK_KINDS; k++) {
    if (!c[k]) continue;
    c[k]--;
    for (int j = 0; j < TK_KINDS; j++) seen[j] = (uint8_t)(4 - c[j] - v->unseen[j]);
    int n = 0, sh = 0;
    tk_ukeire(c, seen, TK_FORM_ALL, &n, &sh);
    c[k]++;
    if (sh != s14) continue;
    if (n > best_n || (last && n == best_n)) {
      best_n = n;
      best = k;
    }
  }
  return best;
}

/* Greedy's choices along random games equal the reference's, for both tie-breaks; the random
 * tie-break replays from the game's seed. */
static void test_choices(void) {
  const tk_agent_descriptor *d = taikai_agent_entry_greedy();
  tk_error e;
  tk_error_clear(&e);
  void *first = d->create("{\"tie_break\": \"first\"}", 1, &e);
  void *last = d->create("{\"tie_break\": \"last\"}", 1, &e);
  void *rnd = d->create("{\"tie_break\": \"random\"}", 1, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(first);
  CU_ASSERT_PTR_NOT_NULL_FATAL(last);
  CU_ASSERT_PTR_NOT_NULL_FATAL(rnd);
  tk_rng r;
  tk_rng_seed(&r, 8);
  int decisions = 0, bad = 0;
  for (int w = 0; w < 300 && bad < 5; w++) {
    uint8_t wall[TK_SOLO_WALL_TILES];
    tk_solo_wall(31, (uint64_t)w, wall);
    tk_solo_game g;
    tk_solo_init(&g, wall, NULL, NULL);
    tk_solo_info info = {.head = {.seed = (uint64_t)w, .wall = (uint64_t)w}, .draws = 18, .dora_indicator = g.dora_indicator};
    d->begin_game(rnd, &info);
    while (!tk_solo_is_over(&g)) {
      tk_solo_view v;
      tk_solo_legal l;
      tk_solo_view_of(&g, &v);
      tk_solo_legal_of(&g, &l);
      tk_solo_action a1 = {TK_TILE_NONE}, a2 = {TK_TILE_NONE}, a3 = {TK_TILE_NONE};
      d->act(first, &v, &l, &a1);
      d->act(last, &v, &l, &a2);
      d->act(rnd, &v, &l, &a3);
      int want1 = reference_choice(&v, 0), want2 = reference_choice(&v, 1);
      if (a1.discard != want1 || a2.discard != want2) {
        TK_FAILF("wall %d turn %d: greedy %d/%d, reference %d/%d", w, v.turn, a1.discard,
                 a2.discard, want1, want2);
        bad++;
      }
      if (!(l.mask >> a3.discard & 1)) TK_FAILF("random tie-break chose kind %d", a3.discard);
      decisions++;
      /* move on with a random legal discard so that many shapes are seen */
      tk_solo_action mv = {l.kinds[tk_rng_below(&r, l.n)]};
      tk_solo_apply(&g, &mv, NULL);
    }
  }
  CU_ASSERT(decisions > 3000);
  CU_ASSERT_EQUAL(bad, 0);
  /* replay: the same game seed gives the same random tie-breaks */
  uint8_t wall[TK_SOLO_WALL_TILES];
  tk_solo_wall(31, 5, wall);
  int seq[2][18];
  for (int rep = 0; rep < 2; rep++) {
    tk_solo_game g;
    tk_solo_init(&g, wall, NULL, NULL);
    tk_solo_info info = {.head = {.seed = 12345, .wall = 5}, .draws = 18, .dora_indicator = g.dora_indicator};
    d->begin_game(rnd, &info);
    int n = 0;
    while (!tk_solo_is_over(&g)) {
      tk_solo_view v;
      tk_solo_legal l;
      tk_solo_view_of(&g, &v);
      tk_solo_legal_of(&g, &l);
      tk_solo_action a = {TK_TILE_NONE};
      d->act(rnd, &v, &l, &a);
      seq[rep][n++] = a.discard;
      tk_solo_apply(&g, &a, NULL);
    }
    for (; n < 18; n++) seq[rep][n] = -1;
  }
  CU_ASSERT_EQUAL(memcmp(seq[0], seq[1], sizeof seq[0]), 0);
  d->destroy(first);
  d->destroy(last);
  d->destroy(rnd);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"effective_count", test_effective_count},
      {"choices", test_choices},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("referee greedy", tests);
}
