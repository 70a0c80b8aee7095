/* plugins/daifugo_search/solve.c — the mate test and the two-player ending solver (solve.h).
 * Both are depth-first searches over copies of a tk_daifugo_game, the engine deciding every
 * transition; moves wait on a bounded stack (no list of 8 KiB per level on the C stack).
 *
 * Cost (one-off runs on the project's shared 2-core VM, RelWithDebInfo; not tests):
 * - dsol_mate at every decision of 2,000 games of uniformly random play (219,037 calls, budget
 *   DSOL_MATE_NODES): 1.5 µs a call, 3.8 decisions expanded on average; 11 % found a mate, 0.15 %
 *   ran out of budget.
 * - dsol_two_solve (2^16 entries) at the moment the third player went out in those games: 12
 *   positions and 6.6 µs a call on average, 2,094 positions at most. On random endings of k
 *   cards each, 100 per k, budget 200,000 positions (about 0.2 µs a position): k = 5: 209
 *   positions, 33 µs; 6: 624, 95 µs; 7: 2,608, 0.34 ms; 8: 9,004, 1.2 ms; 9: 27,261, 2.9 ms
 *   (6 unknown); 10: 26 unknown; 11: 58 unknown (the budget's 45 ms).
 *   The pass-count bounds of the table (two_entry) save 3-5 % of the positions there.
 * - Not done, measured worse on the same endings: the mate test tried at each position of the
 *   two-player search (a third fewer positions, each 0.5 µs dearer); the pass before the plays
 *   over a table (7 times the positions at k = 8); fewer cards before more (2.5 times). */
#include "solve.h"

#include <stdlib.h>
#include <string.h>

#define BIT(p) (1u << (p))

/* ------------------------------------------------------------ move ordering */

enum { ORDER_KEYS = 16 };

/* 1 if `m` clears the table whatever follows: an 8 in it (a sequence through the 8's column
 * counts, the joker standing there too), or the ♠3 alone over a lone joker. */
static int cuts(const tk_daifugo_game *g, const tk_daifugo_move *m) {
  if (m->kind == TK_DAIFUGO_SEQ) return m->rank <= TK_DAIFUGO_COL_8 && TK_DAIFUGO_COL_8 < m->rank + m->n;
  if (m->kind == TK_DAIFUGO_SINGLE && m->cards == TK_DAIFUGO_CARD(0, 1) &&
      g->top.kind == TK_DAIFUGO_JOKER1)
    return 1;
  return (m->kind == TK_DAIFUGO_SINGLE || m->kind == TK_DAIFUGO_GROUP) && m->rank == TK_DAIFUGO_COL_8;
}

/* The mover's preference, higher first: a play that empties its hand, an 8-cut, then more cards
 * before fewer; the pass last. */
static int order_key(const tk_daifugo_game *g, const tk_daifugo_move *m) {
  if (m->kind == TK_DAIFUGO_PASS) return 0;
  if (m->cards == g->hand[g->turn]) return ORDER_KEYS - 1;
  if (cuts(g, m)) return ORDER_KEYS - 2;
  return m->n < ORDER_KEYS - 3 ? m->n : ORDER_KEYS - 3;
}

/* Writes the `n` moves of `in` to `out` by descending order_key, stable within a key. */
static void order_moves(const tk_daifugo_game *g, const tk_daifugo_move *in, int n,
                        tk_daifugo_move *out) {
  uint8_t key[TK_DAIFUGO_MAX_LEGAL];
  int start[ORDER_KEYS] = {0};
  for (int i = 0; i < n; i++) start[key[i] = (uint8_t)order_key(g, &in[i])]++;
  for (int k = ORDER_KEYS - 1, at = 0; k >= 0; k--) {
    int c = start[k];
    start[k] = at;
    at += c;
  }
  for (int i = 0; i < n; i++) out[start[key[i]]++] = in[i];
}

static uint64_t mix64(uint64_t x) {
  x ^= x >> 31;
  x *= UINT64_C(0x7fb5d329728ea185);
  x ^= x >> 27;
  x *= UINT64_C(0x81dadef4bc2dd44d);
  x ^= x >> 33;
  return x;
}

/* ------------------------------------------------------------ the mate test */

enum { MATE_STACK = 1024, MATE_MEMO = 64 };

/* A decision of me known to start no mate: me's hand, the table and the pass state. */
typedef struct mate_key {
  uint64_t hand; /* 0: an empty slot (me never decides with no cards) */
  uint64_t top;
  uint32_t misc;
} mate_key;

typedef struct mate_ctx {
  int me, budget, nodes, sp;
  uint64_t unseen;
  uint8_t count[5];                    /* cards held by each player at the root */
  tk_daifugo_legal scratch;            /* the list of the decision being expanded */
  tk_daifugo_move stack[MATE_STACK];   /* the viable moves of every decision on the path */
  mate_key memo[MATE_MEMO];            /* direct-mapped, failures only */
} mate_ctx;

static mate_key mate_key_of(const tk_daifugo_game *g, int me) {
  mate_key k = {
      .hand = g->hand[me],
      .top = g->top.cards,
      .misc = (uint32_t)g->top.jcell | (uint32_t)g->rev << 8 | (uint32_t)g->lock << 9 |
              (uint32_t)g->passed << 10 | (uint32_t)g->owner << 15 | (uint32_t)g->npass << 18,
  };
  return k;
}

static unsigned mate_slot(const mate_key *k) {
  return (unsigned)(mix64(k->hand ^ mix64(k->top ^ k->misc)) % MATE_MEMO);
}

/* 1 if no player still to act on the table (holding cards, not passed, not me) could answer
 * a->top holding every unseen card (within its card count). */
static int unbeatable(const mate_ctx *c, const tk_daifugo_game *a) {
  unsigned live = 31u & ~(unsigned)a->out & ~(unsigned)a->passed & ~BIT(c->me);
  for (int q = 0; q < 5; q++) {
    if (!(live & BIT(q)) || c->count[q] < a->top.n) continue;
    /* every eligible player faces the same test: one holding all the unseen cards */
    tk_daifugo_game b = *a;
    b.turn = (uint8_t)q;
    b.hand[q] = c->unseen;
    return !tk_daifugo_game_can_play(&b);
  }
  return 1;
}

/* Plays me's move `m` in `a`, then the others' forced passes. 2: me went out; 1: me decides
 * again in `a`; 0: the move starts no mate (someone may answer, or the game ends). */
static int mate_step(const mate_ctx *c, tk_daifugo_game *a, const tk_daifugo_move *m) {
  int me = c->me;
  tk_daifugo_game_play(a, m);
  if (m->kind != TK_DAIFUGO_PASS && !a->hand[me]) return 2;
  if (a->over) return 0;
  if (a->turn == me) return 1; /* a cut, the others already passed, or a pass that cleared to me */
  if (m->kind == TK_DAIFUGO_PASS || !unbeatable(c, a)) return 0;
  while (a->turn != me) {
    static const tk_daifugo_move pass = {.kind = TK_DAIFUGO_PASS, .jcell = TK_DAIFUGO_NOCELL};
    tk_daifugo_game_play(a, &pass);
    if (a->over) return 0; /* sennichite */
  }
  return 1;
}

static int mate_node(mate_ctx *c, const tk_daifugo_game *g, tk_daifugo_move *first) {
  if (c->nodes >= c->budget) return DSOL_UNKNOWN;
  c->nodes++;
  mate_key k = mate_key_of(g, c->me);
  mate_key *slot = &c->memo[mate_slot(&k)];
  if (slot->hand == k.hand && slot->top == k.top && slot->misc == k.misc) return 0;
  int n = tk_daifugo_game_legal(g, &c->scratch);
  for (int i = 0; i < n; i++)
    if (c->scratch.a[i].cards == g->hand[c->me]) {
      if (first) *first = c->scratch.a[i];
      return 1;
    }
  /* the viable moves, in the scratch list's own slots, then ordered onto the stack */
  int nv = 0;
  for (int i = 0; i < n; i++) {
    tk_daifugo_game a = *g;
    if (mate_step(c, &a, &c->scratch.a[i])) c->scratch.a[nv++] = c->scratch.a[i];
  }
  int base = c->sp;
  if (base + nv > MATE_STACK) return DSOL_UNKNOWN;
  order_moves(g, c->scratch.a, nv, c->stack + base);
  c->sp += nv;
  for (int i = 0; i < nv; i++) {
    const tk_daifugo_move *m = &c->stack[base + i];
    tk_daifugo_game a = *g;
    int r = mate_step(c, &a, m);
    int v = r == 2 ? 1 : mate_node(c, &a, NULL);
    if (v != 0) {
      if (v == 1 && first) *first = *m;
      c->sp = base;
      return v;
    }
  }
  c->sp = base;
  *slot = k;
  return 0;
}

int dsol_mate(const tk_daifugo_game *g, int me, uint64_t unseen, int max_nodes,
              tk_daifugo_move *first, int *nodes) {
  if (nodes) *nodes = 0;
  if (!g || me < 0 || me >= 5 || g->over || g->turn != me || max_nodes < 0) return DSOL_EARG;
  mate_ctx c;
  c.me = me;
  c.budget = max_nodes;
  c.nodes = c.sp = 0;
  c.unseen = unseen & ~g->hand[me];
  for (int q = 0; q < 5; q++) c.count[q] = (uint8_t)__builtin_popcountll(g->hand[q]);
  memset(c.memo, 0, sizeof c.memo);
  int v = mate_node(&c, g, first);
  if (nodes) *nodes = c.nodes;
  return v;
}

/* ------------------------------------------------------------ the two-player ending solver */

enum { TWO_STACK = 65536, TWO_MAX_DEPTH = 512 };

/* One position up to the pass count: both hands, the table's cards, and `misc`: bits 0-15 the
 * rest of the key (the table's joker cell, rev, lock, each of the two passed bits, whether me
 * is to act, the owner), 16-31 the generation of the call that stored it (0: empty), 32-39 one
 * more than the largest pass count at which me is known to win (0: none), 40-47 the smallest at
 * which me is known not to (255: none).
 * A larger pass count only brings the sennichite nearer, which never helps me (a line that wins
 * with k passes counted wins with fewer: it meets the same states, none reaching the count), so
 * a win at k is a win at every count below, a loss at k a loss at every count above. */
typedef struct two_entry {
  uint64_t mine, theirs, top, misc;
} two_entry;

#define TWO_KEY UINT64_C(0xffffffff) /* the key and the generation */

struct dsol_two {
  two_entry *tt;
  uint64_t mask;
  uint32_t gen;               /* this call's generation, 1..65535 */
  int me, opp, sp;
  long nodes, budget;
  tk_daifugo_move *stack;     /* TWO_STACK moves: every decision's ordered list on the path */
  tk_daifugo_legal scratch;
};

dsol_two *dsol_two_new(int tt_bits, tk_error *err) {
  if (tt_bits < 10 || tt_bits > 26) {
    tk_error_set(err, TK_ERANGE, -1, "dsol_two_new: tt_bits = %d (10..26)", tt_bits);
    return NULL;
  }
  dsol_two *s = calloc(1, sizeof *s);
  if (s) s->tt = calloc((size_t)1 << tt_bits, sizeof *s->tt);
  if (s) s->stack = malloc(TWO_STACK * sizeof *s->stack);
  if (!s || !s->tt || !s->stack) {
    dsol_two_free(s);
    tk_error_set(err, TK_ENOMEM, -1, "dsol_two_new: out of memory (2^%d entries)", tt_bits);
    return NULL;
  }
  s->mask = ((uint64_t)1 << tt_bits) - 1;
  return s;
}

void dsol_two_free(dsol_two *s) {
  if (!s) return;
  free(s->tt);
  free(s->stack);
  free(s);
}

static uint64_t two_misc(const dsol_two *s, const tk_daifugo_game *g) {
  return (uint64_t)g->top.jcell | (uint64_t)g->rev << 8 | (uint64_t)g->lock << 9 |
         (uint64_t)(g->passed >> s->me & 1u) << 10 | (uint64_t)(g->passed >> s->opp & 1u) << 11 |
         (uint64_t)(g->turn == s->me) << 12 | (uint64_t)g->owner << 13 |
         (uint64_t)s->gen << 16;
}

static two_entry *two_slot(const dsol_two *s, const tk_daifugo_game *g, uint64_t misc) {
  uint64_t h = mix64(g->hand[s->me] ^ mix64(g->hand[s->opp] ^ mix64(g->top.cards ^ misc)));
  return &s->tt[h & s->mask];
}

/* 1 if `e` holds g's position (up to the pass count) from this call. */
static int two_holds(const dsol_two *s, const two_entry *e, const tk_daifugo_game *g,
                     uint64_t misc) {
  return (e->misc & TWO_KEY) == misc && e->mine == g->hand[s->me] &&
         e->theirs == g->hand[s->opp] && e->top == g->top.cards;
}

/* The value of `g` for me (1 win, 0 not), or DSOL_UNKNOWN; `best` (root only) as in solve.h. */
static int two_node(dsol_two *s, const tk_daifugo_game *g, int depth, tk_daifugo_move *best) {
  if (g->over)
    return !g->by_sennichite && tk_daifugo_place_of(g, s->me) < tk_daifugo_place_of(g, s->opp);
  if (depth >= TWO_MAX_DEPTH || s->nodes >= s->budget) return DSOL_UNKNOWN;
  s->nodes++;
  uint64_t misc = two_misc(s, g);
  two_entry *e = two_slot(s, g, misc);
  int hit = two_holds(s, e, g, misc);
  unsigned win_below = hit ? (unsigned)(e->misc >> 32 & 0xff) : 0;   /* wins at npass < this */
  unsigned loss_from = hit ? (unsigned)(e->misc >> 40 & 0xff) : 255; /* loses at npass >= this */
  if (!best && g->npass < win_below) return 1;
  if (!best && g->npass >= loss_from) return 0;
  int n = tk_daifugo_game_legal(g, &s->scratch);
  int base = s->sp;
  if (base + n > TWO_STACK) return DSOL_UNKNOWN;
  order_moves(g, s->scratch.a, n, s->stack + base);
  s->sp += n;
  int want = g->turn == s->me; /* the value the mover seeks */
  int value = !want, found = 0;
  for (int i = 0; i < n; i++) {
    tk_daifugo_game a = *g;
    tk_daifugo_game_play(&a, &s->stack[base + i]);
    int v = two_node(s, &a, depth + 1, NULL);
    if (v < 0) {
      s->sp = base;
      return v;
    }
    if (v == want) {
      value = want;
      found = i;
      break;
    }
  }
  if (best) *best = s->stack[base + found];
  s->sp = base;
  /* the slot may hold another position now (searched below): start its bounds again if so */
  if (!two_holds(s, e, g, misc)) {
    e->mine = g->hand[s->me];
    e->theirs = g->hand[s->opp];
    e->top = g->top.cards;
    win_below = 0;
    loss_from = 255;
  } else {
    win_below = (unsigned)(e->misc >> 32 & 0xff);
    loss_from = (unsigned)(e->misc >> 40 & 0xff);
  }
  if (value && g->npass + 1u > win_below) win_below = g->npass + 1u;
  if (!value && g->npass < loss_from) loss_from = g->npass;
  e->misc = misc | (uint64_t)win_below << 32 | (uint64_t)loss_from << 40;
  return value;
}

int dsol_two_solve(dsol_two *s, const tk_daifugo_game *g, int me, long max_nodes,
                   tk_daifugo_move *best, long *nodes) {
  if (nodes) *nodes = 0;
  if (!s || !g || g->over || me < 0 || me >= 5 || (g->out & BIT(me)) || g->nout != 3 ||
      max_nodes < 0)
    return DSOL_EARG;
  int opp = -1;
  for (int q = 0; q < 5; q++)
    if (q != me && !(g->out & BIT(q))) opp = q;
  if (opp < 0) return DSOL_EARG;
  if (++s->gen > 0xffff) { /* (generation 0 marks the empty slots) */
    memset(s->tt, 0, (size_t)(s->mask + 1) * sizeof *s->tt);
    s->gen = 1;
  }
  s->me = me;
  s->opp = opp;
  s->sp = 0;
  s->nodes = 0;
  s->budget = max_nodes;
  tk_daifugo_move m;
  int v = two_node(s, g, 0, &m);
  if (v >= 0 && best) *best = m;
  if (nodes) *nodes = s->nodes;
  return v;
}
