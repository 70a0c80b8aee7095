/* tests/riichi/test_riichi_soak.c — many east-only games of the riichi_random and riichi_greedy
 * agents with every invariant checked after every action (rt_check_game: 136 tiles accounted
 * for, points + sticks conserved, hand sizes, cached waits, a non-empty legal set) and every win
 * rescored by tk_score_hand (rt_check_hora). Also: determinisation from views reproduces the
 * viewer's legal actions, and a game replays to the same bytes from the same seed.
 *
 * ctest runs 2,000 games; `test_riichi_soak --games N` runs N (the 100,000-game soak). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents.h"
#include "rt.h"
#include "unit.h"

static long games = 2000;

typedef struct seat_agent {
  const tk_agent_descriptor *d;
  tk_agent_instance *inst;
} seat_agent;

static int agent_policy(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                        tk_riichi_action *out) {
  seat_agent *a = ctx;
  return a->d->act(a->inst, v, l, out);
}

/* Plays game `i` with the seats given by bits of `mask` (1 = greedy, 0 = random). */
static int play_one(rt *t, long i, int mask, seat_agent *pool, long *actions) {
  seat_agent seats[4];
  void *ctx[4];
  rt_policy pol[4];
  for (int s = 0; s < 4; s++) {
    seats[s] = pool[(mask >> s & 1) ? 4 + s : s];
    tk_riichi_info info;
    memset(&info, 0, sizeof info);
    info.head.seed = (uint64_t)i * 4 + (uint64_t)s;
    info.head.wall = (uint64_t)i;
    info.head.seat = s;
    seats[s].d->begin_game(seats[s].inst, &info);
    ctx[s] = &seats[s];
    pol[s] = agent_policy;
  }
  return rt_play(t, NULL, 7, (uint64_t)i, pol, ctx, actions);
}

static rt table;

static void soak(void) {
  const tk_agent_descriptor *rnd = taikai_agent_entry_riichi_random();
  const tk_agent_descriptor *gr = taikai_agent_entry_riichi_greedy();
  seat_agent pool[8];
  tk_error err;
  for (int s = 0; s < 4; s++) {
    pool[s].d = rnd;
    pool[s].inst = rnd->create("{}", (uint64_t)s, &err);
    pool[4 + s].d = gr;
    pool[4 + s].inst = gr->create("{}", 0, &err);
  }
  table.check = 1;
  long actions = 0, hands = 0, wins = 0, draws = 0, failures = 0;
  long reasons[TK_RIICHI_DRAW_COUNT] = {0};
  for (long i = 0; i < games; i++) {
    int mask = (int)(i % 16);
    table.failures = 0;
    int rc = play_one(&table, i, mask, pool, &actions);
    if (rc || table.failures) {
      TK_FAILF("game %ld (mask %d): rc %d, %d invariant failures", i, mask, rc, table.failures);
      if (++failures > 5) break;
    }
    hands += table.g.hands;
    int n = table.nev < RT_MAX_EVENTS ? table.nev : RT_MAX_EVENTS;
    for (int e = 0; e < n; e++) {
      if (table.ev[e].type == TK_RIICHI_EV_HORA) wins++;
      if (table.ev[e].type == TK_RIICHI_EV_RYUKYOKU) draws++, reasons[table.ev[e].reason]++;
    }
  }
  printf("\nsoak: %ld games, %ld hands, %ld actions, %ld wins, %ld draws (", games, hands, actions,
         wins, draws);
  for (int r = 0; r < TK_RIICHI_DRAW_COUNT; r++)
    printf("%s%s %ld", r ? ", " : "", tk_riichi_draw_name(r), reasons[r]);
  printf(")\n");
  TK_EQ(failures, 0, "soak failures");
  for (int s = 0; s < 8; s++) pool[s].d->destroy(pool[s].inst);
}

/* At decisions of random games: a game built from the acting seat's view offers it the same
 * legal actions, and playing on from it works. */
static void from_view(void) {
  tk_rng rng, pick;
  tk_rng_seed(&rng, 99);
  tk_rng_seed(&pick, 5);
  long checked = 0;
  for (int gi = 0; gi < 60; gi++) {
    tk_riichi_game g;
    tk_error err;
    tk_riichi_init(&g, NULL, 3, (uint64_t)gi, NULL, &err);
    while (!tk_riichi_is_over(&g)) {
      if (g.phase == TK_RIICHI_PHASE_DEAL) {
        tk_riichi_deal(&g, NULL, NULL, &err);
        continue;
      }
      int s = tk_riichi_to_act(&g);
      tk_riichi_view v;
      tk_riichi_legal l, l2;
      tk_riichi_view_of(&g, s, &v);
      tk_riichi_legal_of(&g, s, &l);
      if (tk_rng_below(&pick, 8) == 0) {
        tk_riichi_game d;
        tk_error_clear(&err);
        int rc = tk_riichi_from_view(&d, &v, NULL, &rng, &err);
        if (rc) {
          TK_FAILF("from_view: %s", err.msg);
          return;
        }
        int bad = rt_check_game(&d) != 0;
        tk_riichi_legal_of(&d, s, &l2);
        if (bad || l.n != l2.n || memcmp(l.a, l2.a, sizeof(tk_riichi_action) * l.n)) {
          TK_FAILF("game %d: determinised legal set differs (%d vs %d actions)", gi, l.n, l2.n);
          return;
        }
        tk_riichi_view v2;
        tk_riichi_view_of(&d, s, &v2);
        if (memcmp(&v, &v2, sizeof v)) {
          TK_FAILF("game %d: determinised view differs", gi);
          return;
        }
        /* simulate the rest of the hand with random actions */
        tk_rng sim;
        tk_rng_seed(&sim, (uint64_t)checked);
        while (d.phase == TK_RIICHI_PHASE_SELF || d.phase == TK_RIICHI_PHASE_REACT) {
          int ss = tk_riichi_to_act(&d);
          tk_riichi_legal_of(&d, ss, &l2);
          if (tk_riichi_apply(&d, ss, &l2.a[tk_rng_below(&sim, l2.n)], NULL, &err)) {
            TK_FAILF("simulation: %s", err.msg);
            return;
          }
        }
        checked++;
      }
      tk_riichi_apply(&g, s, &l.a[tk_rng_below(&pick, l.n)], NULL, &err);
    }
  }
  printf("\ndeterminised %ld decisions\n", checked);
  TK_EQ(checked > 500, 1, "determinised decisions checked");
}

/* The same seed and game index give the same events. */
static uint64_t hash;
static void hash_event(void *ctx, const tk_riichi_event *ev) {
  char buf[2048];
  int n = tk_riichi_event_json(ev, NULL, buf, sizeof buf);
  for (int i = 0; i < n && i < (int)sizeof buf; i++) hash = (hash ^ (uint8_t)buf[i]) * 0x100000001b3ULL;
}

static uint64_t play_hash(uint64_t seed, uint64_t game) {
  tk_riichi_sink sink = {hash_event, NULL};
  hash = 0xcbf29ce484222325ULL;
  tk_riichi_game g;
  tk_error err;
  tk_riichi_init(&g, NULL, seed, game, &sink, &err);
  const tk_agent_descriptor *gr = taikai_agent_entry_riichi_greedy();
  tk_agent_instance *inst = gr->create("{}", 0, &err);
  while (!tk_riichi_is_over(&g)) {
    if (g.phase == TK_RIICHI_PHASE_DEAL) {
      tk_riichi_deal(&g, NULL, &sink, &err);
      continue;
    }
    int s = tk_riichi_to_act(&g);
    tk_riichi_view v;
    tk_riichi_legal l;
    tk_riichi_action a;
    tk_riichi_view_of(&g, s, &v);
    tk_riichi_legal_of(&g, s, &l);
    gr->act(inst, &v, &l, &a);
    tk_riichi_apply(&g, s, &a, &sink, &err);
  }
  gr->destroy(inst);
  return hash;
}

static void replay(void) {
  for (uint64_t i = 0; i < 20; i++) TK_EQ(play_hash(11, i) == play_hash(11, i), 1, "same bytes");
  TK_EQ(play_hash(11, 0) != play_hash(11, 1), 1, "different games differ");
  TK_EQ(play_hash(11, 0) != play_hash(12, 0), 1, "different seeds differ");
}

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--games")) games = atol(argv[i + 1]);
  CU_TestInfo tests[] = {
      {"soak: random and greedy, every invariant after every action", soak},
      {"determinised views give the same legal actions", from_view},
      {"the same seed replays to the same bytes", replay},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("riichi_soak", tests);
}
