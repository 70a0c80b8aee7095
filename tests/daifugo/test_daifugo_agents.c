/* tests/daifugo/test_daifugo_agents.c — the baseline agents' choices on hand-made positions:
 * daifugo_greedy (most cards, lowest rank in the current order, the tie-breaks of the spec, the
 * lowest cards in the exchange, never the joker), daifugo_random (never passes on a new table,
 * replays from its seed) and daifugo_pass (the fallback); then whole blocks of them through the
 * block API (every action accepted). */
#include <stdio.h>
#include <string.h>

#include "dt.h"
#include "taikai/agent.h"
#include "unit.h"

const tk_agent_descriptor *taikai_agent_entry_daifugo_greedy(void);
const tk_agent_descriptor *taikai_agent_entry_daifugo_random(void);
const tk_agent_descriptor *taikai_agent_entry_daifugo_pass(void);

static tk_daifugo_legal L;

/* The move `d` chooses for g->turn, in notation. */
static const char *choice(const tk_agent_descriptor *d, tk_agent_instance *inst,
                          const tk_daifugo_game *g) {
  static char buf[128];
  tk_daifugo_view v;
  memset(&v, 0, sizeof v);
  v.player = g->turn;
  v.decision = TK_DAIFUGO_DECIDE_PLAY;
  v.turn = g->turn;
  v.hand = g->hand[g->turn];
  v.top = g->top;
  v.rev = g->rev;
  v.lock = g->lock;
  tk_daifugo_game_legal(g, &L);
  tk_daifugo_move m;
  if (d->act(inst, &v, &L, &m)) return "(error)";
  tk_daifugo_move_str(&m, buf, sizeof buf);
  return buf;
}

#define CHOOSES(d, inst, g, want)                                                             \
  do {                                                                                        \
    const char *got_ = choice((d), (inst), (g));                                              \
    if (strcmp(got_, (want))) TK_FAILF("line %d: chose '%s', expected '%s'", __LINE__, got_, (want)); \
  } while (0)

static void greedy_plays(void) {
  const tk_agent_descriptor *d = taikai_agent_entry_daifugo_greedy();
  tk_agent_instance *a = d->create("{}", 0, NULL);
  tk_daifugo_game g;
  dt_game(&g, "S3 H3 D5 D6 D7 C9", "", "", "", NULL, 0);
  CHOOSES(d, a, &g, "D5 D6 D7"); /* three cards beat a pair */
  dt_game(&g, "S4 H4 D9 C9 SK", "", "", "", NULL, 0);
  CHOOSES(d, a, &g, "S4 H4"); /* equal size: the lowest rank */
  g.rev = 1;
  CHOOSES(d, a, &g, "D9 C9"); /* in revolution the higher column is the lower rank */
  /* The joker makes a pair of the lowest card; its cell gives the lowest suit set. */
  dt_game(&g, "S5 H9 JK", "", "", "", NULL, 0);
  CHOOSES(d, a, &g, "S5 JK[H5]");
  /* Without the joker first, at equal size and rank. */
  dt_game(&g, "S5 H5 JK", "", "", "", NULL, 0);
  CHOOSES(d, a, &g, "S5 H5 JK[D5]"); /* the triple with the joker has more cards */
  dt_game(&g, "S7 H7", "S5 H5 JK", "", "", NULL, 0);
  dt_play(&g, 0, "S7 H7");
  CHOOSES(d, a, &g, "pass");
  dt_game(&g, "S4 H4", "S5 H5 JK", "", "", NULL, 0);
  dt_play(&g, 0, "S4 H4");
  CHOOSES(d, a, &g, "S5 H5"); /* plain pair before S5 JK[H5] and the others */
  /* The joker's cell avoids a lock when it can: S9 JK[D9] (♠♦) rather than JK[H9] (♠♥). */
  dt_game(&g, "S7 H7 C3", "S9 JK", "", "", NULL, 0);
  dt_play(&g, 0, "S7 H7");
  CHOOSES(d, a, &g, "S9 JK[D9]");
  /* Sequences rank by their weakest card: 4-5-6 before 9-T-J; in revolution the reverse. */
  dt_game(&g, "S4 S5 S6 H9 HT HJ", "", "", "", NULL, 0);
  CHOOSES(d, a, &g, "S4 S5 S6");
  g.rev = 1;
  CHOOSES(d, a, &g, "H9 HT HJ");
  /* It passes only when nothing else is legal. */
  dt_game(&g, "SA C4", "S3 H4 S2", "", "", NULL, 0);
  dt_play(&g, 0, "SA");
  CHOOSES(d, a, &g, "S2");
  dt_game(&g, "SA C4", "S3 H4", "", "", NULL, 0);
  dt_play(&g, 0, "SA");
  CHOOSES(d, a, &g, "pass");
  /* Over a single, the joker ranks above every card. */
  dt_game(&g, "S9 C4", "SK JK", "", "", NULL, 0);
  dt_play(&g, 0, "S9");
  CHOOSES(d, a, &g, "SK");
  d->destroy(a);
}

static void greedy_exchange(void) {
  const tk_agent_descriptor *d = taikai_agent_entry_daifugo_greedy();
  tk_agent_instance *a = d->create("{}", 0, NULL);
  const char *hands[] = {"S3 C3 D4 JK S2", "S3 D4 JK S2", "JK S2"};
  const char *want[] = {"give C3", "give S3", "give S2"};
  for (int k = 0; k < 3; k++) {
    uint64_t h = dt_cards(hands[k]);
    memset(&L, 0, sizeof L);
    L.decision = TK_DAIFUGO_DECIDE_EXCHANGE;
    for (; h; h &= h - 1) {
      tk_daifugo_move *m = &L.a[L.n++];
      m->kind = TK_DAIFUGO_GIVE, m->cards = h & -h, m->n = 1, m->jcell = TK_DAIFUGO_NOCELL;
    }
    tk_daifugo_view v;
    memset(&v, 0, sizeof v);
    v.decision = TK_DAIFUGO_DECIDE_EXCHANGE;
    tk_daifugo_move m;
    d->act(a, &v, &L, &m);
    char buf[32];
    tk_daifugo_move_str(&m, buf, sizeof buf);
    if (strcmp(buf, want[k])) TK_FAILF("hand %s: gave '%s', expected '%s'", hands[k], buf, want[k]);
  }
  d->destroy(a);
}

static void random_and_pass(void) {
  const tk_agent_descriptor *r = taikai_agent_entry_daifugo_random();
  const tk_agent_descriptor *p = taikai_agent_entry_daifugo_pass();
  tk_agent_instance *ri = r->create("{}", 5, NULL), *pi = p->create("{}", 0, NULL);
  tk_daifugo_info info;
  memset(&info, 0, sizeof info);
  info.head.seed = 17;
  r->begin_game(ri, &info);
  tk_daifugo_game g;
  dt_game(&g, "S4 H4 D9 C9 SK JK", "", "", "", NULL, 0);
  char first[64];
  snprintf(first, sizeof first, "%s", choice(r, ri, &g));
  int passes = 0;
  for (int i = 0; i < 200; i++) passes += !strcmp(choice(r, ri, &g), "pass");
  TK_EQ(passes, 0, "random never passes on a new table");
  r->begin_game(ri, &info);
  if (strcmp(choice(r, ri, &g), first)) TK_FAILF("random does not replay from its seed");
  dt_game(&g, "S3 C4", "S5 H9 D2", "", "", NULL, 0);
  dt_play(&g, 0, "S3");
  for (int i = 0; i < 200; i++) passes += !strcmp(choice(r, ri, &g), "pass");
  if (passes == 0 || passes == 200) TK_FAILF("random passed %d times of 200 over a single", passes);
  CHOOSES(p, pi, &g, "pass");
  dt_game(&g, "S5 H9 C4 JK", "", "", "", NULL, 0);
  CHOOSES(p, pi, &g, "C4");
  r->destroy(ri);
  p->destroy(pi);
}

/* Whole blocks: greedy, random and pass seated together; every action accepted. */
static void blocks_of_agents(void) {
  const tk_agent_descriptor *d[3] = {taikai_agent_entry_daifugo_greedy(),
                                     taikai_agent_entry_daifugo_random(),
                                     taikai_agent_entry_daifugo_pass()};
  tk_agent_instance *inst[5];
  const tk_agent_descriptor *seat[5];
  for (int p = 0; p < 5; p++) seat[p] = d[p % 3], inst[p] = seat[p]->create("{}", (uint64_t)p, NULL);
  static tk_daifugo_block b;
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  rules.block_games = 50;
  long actions = 0;
  int greedy_points = 0;
  for (uint64_t blk = 0; blk < 4; blk++) {
    tk_daifugo_block_init(&b, &rules, 8, blk, NULL);
    uint32_t game = (uint32_t)-1;
    while (!tk_daifugo_is_over(&b)) {
      if (b.game != game) {
        game = b.game;
        for (int p = 0; p < 5; p++) {
          tk_daifugo_info info;
          tk_daifugo_info_fill(&b, p, blk * 1000 + game * 5 + (uint64_t)p, &info);
          seat[p]->begin_game(inst[p], &info);
        }
      }
      int p = tk_daifugo_to_act(&b);
      tk_daifugo_view v;
      tk_daifugo_view_of(&b, p, &v);
      tk_daifugo_legal_of(&b, p, &L);
      tk_daifugo_move m;
      tk_error err;
      tk_error_clear(&err);
      if (seat[p]->act(inst[p], &v, &L, &m) || tk_daifugo_apply(&b, p, &m, &err)) {
        TK_FAILF("block %llu game %u: player %d's action refused: %s", (unsigned long long)blk,
                 b.game, p, err.msg);
        return;
      }
      actions++;
    }
    greedy_points += b.totals.paper_points[0] + b.totals.paper_points[3];
  }
  printf("\nagents: 200 games, %ld actions; greedy (2 seats) %+d paper points\n", actions,
         greedy_points);
  for (int p = 0; p < 5; p++) seat[p]->destroy(inst[p]);
}

int main(void) {
  CU_TestInfo tests[] = {
      {"greedy: most cards, lowest rank, tie-breaks, passes last", greedy_plays},
      {"greedy: gives its lowest cards, never the joker", greedy_exchange},
      {"random: no pass on a new table, replays; pass: the fallback", random_and_pass},
      {"blocks of greedy, random and pass: every action accepted", blocks_of_agents},
      CU_TEST_INFO_NULL,
  };
  return tk_unit_run("daifugo_agents", tests);
}
