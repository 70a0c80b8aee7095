/* tests/riichi/rt.h — helpers for the riichi engine's tests: scripted walls, a table that
 * records every event, one-line actions, and the invariant checker used by the soak test. */
#ifndef TAIKAI_TESTS_RIICHI_RT_H
#define TAIKAI_TESTS_RIICHI_RT_H

#include "taikai/riichi.h"
#include "unit.h"

enum { RT_MAX_EVENTS = 4096 };

typedef struct rt {
  tk_riichi_game g;
  tk_riichi_sink sink;
  int nev;
  tk_riichi_event ev[RT_MAX_EVENTS];
  int check;      /* 1: run rt_check_game after every action and check every hora */
  int failures;   /* invariant failures seen (each also reported through CUnit) */
  char last_err[256];
} rt;

/* Builds a wall for a hand with dealer `dealer`: hands[s] (13 tiles, compact notation, by
 * absolute seat; NULL = filled), the live draws in order, the replacement tiles, the dora
 * indicators and the ura indicators (any may be NULL or shorter). Every other position gets
 * the leftover tiles in ascending order. Returns 0, or -1 (message on stderr) if a string does
 * not parse or uses a fifth copy. */
int rt_wall(uint8_t wall[TK_RIICHI_TILES], int dealer, const char *const hands[4],
            const char *live, const char *rinshan, const char *dora, const char *ura);

/* Starts a table: tk_riichi_init with `rules` (NULL = defaults) and deals `wall`
 * (NULL = generated from seed 1, game 0). Events are recorded from start_game on. */
void rt_start(rt *t, const tk_riichi_rules *rules, const uint8_t *wall);
/* Sets scores (and honba, sticks) before the first deal: call between tk_riichi_init and
 * the deal, i.e. use rt_init + rt_deal. */
void rt_init(rt *t, const tk_riichi_rules *rules);
int rt_deal(rt *t, const uint8_t *wall);

/* Applies an action for `seat`: `type` an enum tk_riichi_act, tiles in compact notation (NULL
 * when not needed); returns tk_riichi_apply's code. DISCARD/RIICHI with tile NULL = the drawn
 * tile (tsumogiri). */
int rt_do(rt *t, int seat, int type, const char *tile, const char *c0, const char *c1);
/* Every seat still to answer a reaction passes. */
void rt_pass(rt *t);
/* Plays tsumogiri for the seat to move and passes every reaction, `n` times (a turn each). */
void rt_tsumogiri(rt *t, int n);
/* Tsumogiri and passes until the hand ends (phase DEAL or OVER). */
void rt_to_end(rt *t);
/* Is (type, tile) among `seat`'s legal actions? tile NULL matches any. */
int rt_can(const rt *t, int seat, int type, const char *tile);
/* The last event of `type` (NULL if none); `nth_last` = 0 for the last, 1 for the one before. */
const tk_riichi_event *rt_find(const rt *t, int type, int nth_last);
/* Number of events of `type`. */
int rt_count(const rt *t, int type);
/* Parses one tile ("5m", "0m", "E", "7z"); aborts the test on a bad string. */
uint8_t rt_tile(const char *s);

/* Checks the invariants of a game between decisions; returns the number of violations and
 * prints each. `hands_ok` also checks the cached shanten/waits. */
int rt_check_game(const tk_riichi_game *g);
/* Checks a hora event against tk_score_hand of the same hand and its deltas; returns the
 * number of violations. */
int rt_check_hora(const tk_riichi_event *ev);

/* A policy for rt_play: chooses one of `legal` for the seat. */
typedef int (*rt_policy)(void *ctx, const tk_riichi_view *v, const tk_riichi_legal *l,
                         tk_riichi_action *out);
/* Plays a whole game from a fresh init (generated walls): policies by seat. Checks every
 * invariant after every action when t->check. Returns 0, or the first negative code. */
int rt_play(rt *t, const tk_riichi_rules *rules, uint64_t seed, uint64_t game_index,
            rt_policy policy[4], void *ctx[4], long *actions);

/* Assertions shared by the scenario tests (they need tests/unit.h): an event's four point
 * deltas, and the four scores of `t`'s game, each seat checked and reported on its own. */
#define DELTAS(a, b, c, d, ev)                                                                \
  do {                                                                                        \
    const tk_riichi_event *ev_ = (ev);                                                        \
    if (!ev_) TK_FAILF("line %d: no event", __LINE__);                                        \
    else {                                                                                    \
      TK_EQ(ev_->deltas[0], a, "delta 0");                                                    \
      TK_EQ(ev_->deltas[1], b, "delta 1");                                                    \
      TK_EQ(ev_->deltas[2], c, "delta 2");                                                    \
      TK_EQ(ev_->deltas[3], d, "delta 3");                                                    \
    }                                                                                         \
  } while (0)
#define SCORES(t, a, b, c, d)                                                                 \
  do {                                                                                        \
    TK_EQ((t)->g.scores[0], a, "score of seat 0");                                            \
    TK_EQ((t)->g.scores[1], b, "score of seat 1");                                            \
    TK_EQ((t)->g.scores[2], c, "score of seat 2");                                            \
    TK_EQ((t)->g.scores[3], d, "score of seat 3");                                            \
  } while (0)
/* A draw event's tenpai flags as one number, seat 0 first: 1001 = the dealer and seat 3. */
static inline int rt_tenpai_code(const tk_riichi_event *e) {
  return e ? e->tenpai[0] * 1000 + e->tenpai[1] * 100 + e->tenpai[2] * 10 + e->tenpai[3] : -1;
}

#endif
