/* plugins/riichi_oneplayer/train.c — `riichi_oneplayer_train`: trains the one-player policy's
 * weights by averaged perceptron on a teacher's riichi decisions (records or mjai logs), and
 * reports the held-out agreement as paper 000's table 4 (discards, calls, passes).
 *
 *   riichi_oneplayer_train INPUT... [--teacher WHO[,WHO...]] --out FILE [--epochs N]
 *                          [--holdout M] [--seed S] [--train-units U] [--filter paper|none]
 *                          [--skip-bad-games]
 *   riichi_oneplayer_train INPUT... [--teacher ...] --evaluate WEIGHTS [--holdout M] [...]
 *     prints the agreement of existing weights with the inputs' examples (held out, the others,
 *     all), and trains nothing: e.g. how close the default weights play to human records.
 *
 * Inputs. Records of `taikai run --records` (records.tkr), and mjai logs (*.jsonl, *.jsonl.gz,
 * one game or several one after the other; a folder: its logs in name order) of any source:
 * `taikai run --logs`, `taikai import tenhou`, other mjai writers. A log is replayed through
 * the engine by the reader of `taikai replay` (harness/games/riichi/riichi_log.h), which rebuilds at
 * every decision the view and legal actions the referee gives an agent, and the move made; the
 * examples below are then drawn the same way from either source. The teachers are the agents
 * whose label (records), the players whose start_game name (logs), or the seats (0-3) --teacher
 * lists; every player without it. A log the engine refuses (rules it cannot replay, a move that
 * is not legal, a damaged line) stops training with the file, its line and the reason, or, with
 * --skip-bad-games, is left out and counted.
 *
 * Examples. Every decision of a teacher becomes a ranking example over the
 * policy's candidates (rop_candidates), the teacher's move being the candidate it played:
 * - at an own draw, the discard of that tile, or that kan ("discards" in the table);
 * - at a call opportunity, pass ("passes"), or the chi / pon together with the discard the
 *   teacher made at its next decision ("calls"), or the open kan ("calls").
 * The paper's data filter: wins and riichi declarations are played by rule, not learned, so a
 * decision where a win or a riichi is legal is skipped, as are the discard right after one's own
 * chi / pon (part of the call's example) and decisions with fewer than two candidates (in riichi,
 * the drawn tile). A move that is none of the candidates (the nine-terminals draw) is skipped,
 * and so is a chi / pon that did not happen (another seat's pon or ron took the tile: its
 * discard is unknown). `--filter paper` adds the paper's hand-level filter (paper_hands below),
 * meant for records of players who also defend (humans, mixed tables); "none" is the default.
 *
 * Agreement (table 4): a discard or a pass agrees when the policy's first candidate is the
 * teacher's; a call agrees when the policy makes the same call (the same exposed tiles), its
 * following discard aside, as the paper counts (exact + call-only matches); the exact share is
 * printed beside it.
 *
 * Training. The units whose wall % M == M - 1 are held out (M = 10: a tenth; a log game's number
 * in the order read stands for its wall: read_log_game); the others are
 * visited in an order shuffled from S in each epoch. At each step the candidate the current
 * weights rank first (ties: the first candidate, as rop_decide plays) is compared with the
 * teacher's; when they differ the weights move by +1 on the teacher's features and -1 on the
 * other's. The averaged weights w - u / c, where u sums each update times its step number c, are
 * the average over every step, at a cost proportional to the active features of the two
 * candidates per update. The features of every candidate are computed once and kept. The
 * weights written are the nonzero averaged ones (weights_io.h); the same command reproduces them
 * byte for byte. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "opts.h"
#include "policy.h"
#include "riichi_log.h"
#include "taikai/records.h"
#include "taikai/rng.h"
#include "taikai/sha256.h"
#include "weights_io.h"

enum { CAT_DISCARD, CAT_CALL, CAT_PASS, NCAT };
static const char *const CAT_NAME[NCAT] = {"discards", "calls", "passes"};

typedef struct example {
  uint64_t cand;   /* index of its first candidate in pool.cand */
  uint16_t n;      /* candidates */
  uint16_t teacher;/* the teacher's candidate */
  uint8_t cat;
} example;

/* Every candidate's features, one after another: candidate i is feat[cand[i] .. cand[i + 1]). */
typedef struct pool {
  uint32_t *feat;
  size_t nfeat, capfeat;
  uint64_t *cand;
  size_t ncand, capcand;
  uint8_t *act; /* each candidate's legal index (its call form at a call opportunity) */
  size_t capact;
} pool;

typedef struct set {
  example *x;
  size_t n, cap;
} set;

static void *grow(void *p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 4096;
  while (c < need) c *= 2;
  void *q = realloc(p, c * size);
  if (!q) {
    fprintf(stderr, "riichi_oneplayer_train: out of memory\n");
    exit(1);
  }
  *cap = c;
  return q;
}

static void push_example(set *s, const example *e) {
  s->x = grow(s->x, &s->cap, s->n + 1, sizeof *s->x);
  s->x[s->n++] = *e;
}

/* The legal index of action `a` in l (a discard by its tile alone; a chi / pon by its two
 * consumed tiles in either order, as the engine accepts them and logs may write them), or -1. */
static int legal_index(const tk_riichi_legal *l, const tk_riichi_action *a) {
  for (int i = 0; i < l->n; i++) {
    const tk_riichi_action *b = &l->a[i];
    if (b->type != a->type || b->tile != a->tile) continue;
    if ((a->type == TK_RIICHI_CHI || a->type == TK_RIICHI_PON) &&
        !(b->consumed[0] == a->consumed[0] && b->consumed[1] == a->consumed[1]) &&
        !(b->consumed[0] == a->consumed[1] && b->consumed[1] == a->consumed[0]))
      continue;
    return i;
  }
  return -1;
}

typedef struct counts {
  size_t decisions, kept[NCAT], rule, after_call, forced, other, overridden, unmatched, filtered;
} counts;

/* Turns decision `d` (the next decision of the same seat in its unit: `next`, or NULL) into an
 * example of `s`; returns 0, or -1 for a malformed view (message printed). */
static int add_decision(const char *file, uint64_t unit, const tk_riichi_view *v,
                        const tk_riichi_legal *l, const tk_riichi_action *act,
                        const tk_riichi_action *next, pool *p, set *s, counts *k) {
  k->decisions++;
  for (int i = 0; i < l->n; i++) {
    int t = l->a[i].type;
    if (t == TK_RIICHI_TSUMO || t == TK_RIICHI_RON || t == TK_RIICHI_RIICHI) {
      k->rule++;
      return 0;
    }
  }
  if (v->phase == TK_RIICHI_PHASE_SELF && v->after_call) {
    k->after_call++;
    return 0;
  }
  static rop_cand c[ROP_MAX_CANDS];
  int n = rop_candidates(v, l, c, ROP_MAX_CANDS);
  if (n < 2) {
    k->forced++;
    return 0;
  }
  int ai = legal_index(l, act), teacher = -1, cat;
  if (v->phase == TK_RIICHI_PHASE_SELF) {
    cat = CAT_DISCARD;
    for (int i = 0; i < n && teacher < 0 && ai >= 0; i++) {
      const tk_riichi_action *b = &l->a[c[i].action];
      if (act->type == TK_RIICHI_DISCARD ? b->type == TK_RIICHI_DISCARD &&
                                               (b->tile & 0x7f) == (act->tile & 0x7f)
                                         : c[i].action == ai)
        teacher = i;
    }
  } else if (act->type == TK_RIICHI_PASS) {
    cat = CAT_PASS;
    for (int i = 0; i < n && teacher < 0; i++)
      if (l->a[c[i].action].type == TK_RIICHI_PASS) teacher = i;
  } else {
    cat = CAT_CALL;
    int needs_discard = act->type == TK_RIICHI_CHI || act->type == TK_RIICHI_PON;
    if (needs_discard && (!next || next->type != TK_RIICHI_DISCARD)) {
      k->overridden++;
      return 0;
    }
    for (int i = 0; i < n && teacher < 0 && ai >= 0; i++)
      if (c[i].action == ai && (!needs_discard || c[i].discard == (next->tile & 0x7f)))
        teacher = i;
  }
  if (teacher < 0) {
    if (act->type == TK_RIICHI_KYUUSHU) k->other++;
    else k->unmatched++;
    return 0;
  }
  example e = {.cand = p->ncand, .n = (uint16_t)n, .teacher = (uint16_t)teacher, .cat = (uint8_t)cat};
  p->cand = grow(p->cand, &p->capcand, p->ncand + (size_t)n + 1, sizeof *p->cand);
  p->act = grow(p->act, &p->capact, p->ncand + (size_t)n + 1, sizeof *p->act);
  for (int i = 0; i < n; i++) {
    p->feat = grow(p->feat, &p->capfeat, p->nfeat + ROF_MAX_ACTIVE, sizeof *p->feat);
    tk_error err;
    tk_error_clear(&err);
    int nf = rof_features(&c[i].hand, &c[i].ctx, p->feat + p->nfeat, NULL, &err);
    if (nf < 0) {
      fprintf(stderr, "riichi_oneplayer_train: %s: unit %llu: seat %d: %s\n", file,
              (unsigned long long)unit, v->seat, err.msg);
      return -1;
    }
    p->act[p->ncand] = c[i].action;
    p->cand[p->ncand++] = p->nfeat;
    p->nfeat += (size_t)nf;
  }
  p->cand[p->ncand] = p->nfeat; /* the end of the last candidate (overwritten by the next) */
  push_example(s, &e);
  k->kept[cat]++;
  return 0;
}

static double score(const double *w, const pool *p, uint64_t ci) {
  double s = 0;
  for (uint64_t j = p->cand[ci]; j < p->cand[ci + 1]; j++) s += w[p->feat[j]];
  return s;
}

/* The candidate `w` ranks first (ties: the first). */
static int best_of(const double *w, const pool *p, const example *e) {
  int best = 0;
  double top = 0;
  for (int i = 0; i < e->n; i++) {
    double s = score(w, p, e->cand + (uint64_t)i);
    if (i == 0 || s > top) best = i, top = s;
  }
  return best;
}

/* Agreement per category. A call agrees, as in the paper's table 4, when the call form (the
 * same legal call: exposed tiles) is the teacher's, whatever the following discard; `exact`
 * (may be NULL) also counts the calls whose discard agrees. */
static void agreement(const double *w, const pool *p, const set *s, size_t agree[NCAT],
                      size_t total[NCAT], size_t *exact) {
  memset(agree, 0, NCAT * sizeof *agree);
  memset(total, 0, NCAT * sizeof *total);
  if (exact) *exact = 0;
  for (size_t i = 0; i < s->n; i++) {
    const example *e = &s->x[i];
    int b = best_of(w, p, e);
    total[e->cat]++;
    if (e->cat == CAT_CALL) {
      agree[e->cat] += p->act[e->cand + (uint64_t)b] == p->act[e->cand + e->teacher];
      if (exact) *exact += b == e->teacher;
    } else {
      agree[e->cat] += b == e->teacher;
    }
  }
}

static double pct(size_t a, size_t n) { return n ? 100.0 * (double)a / (double)n : 0.0; }

static void usage(FILE *f) {
  fprintf(f, "usage: riichi_oneplayer_train INPUT... [--teacher WHO[,WHO...]] --out FILE "
             "[--epochs N] [--holdout M] [--seed S] [--train-units U] [--filter paper|none] "
             "[--skip-bad-games]\n"
             "       riichi_oneplayer_train INPUT... [--teacher ...] --evaluate WEIGHTS [...]: the "
             "agreement of WEIGHTS, no training\n"
             "INPUT: records (taikai run --records: records.tkr), an mjai log (*.jsonl, "
             "*.jsonl.gz; one game or many), or a folder of logs (a run folder: its logs/)\n"
             "WHO: an agent label (records), a player name (a log's start_game names), or a seat "
             "0-3; without --teacher every player is a teacher\n");
}

/* Is `label` one of the comma-separated `list`? */
static int listed(const char *list, const char *label) {
  size_t n = strlen(label);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && !strncmp(p, label, n)) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

/* One decision of a game, whichever the source: records.tkr, or an mjai log replayed. */
typedef struct dec {
  tk_riichi_view v;
  tk_riichi_legal l;
  tk_riichi_action a;
  uint8_t seat, teacher; /* teacher: the player is one of --teacher */
} dec;

typedef struct decs {
  dec *d;
  size_t n, cap;
} decs;

/* --filter paper: paper 000's data filter (section 4; riichi-agents.md 2.2) on top of the one
 * above. Only the hands of (a) a player who won while no seat was in riichi, or (b) the first
 * player to declare riichi are kept, and of those only the decisions before that player's
 * riichi. A hand of a game is a run of decisions with the same (round, honba). */
static int paper_filter;
enum { MAX_HANDS = 256, NONE = 0xffffffffu };

typedef struct hand_keep {
  uint8_t keep;          /* seats whose decisions are kept */
  uint8_t first_riichi;  /* seat, or 0xff */
  uint32_t riichi_at[4]; /* index of each seat's riichi decision in the game, or NONE */
} hand_keep;

/* The hand index of each decision (hand_of[i]) and what to keep of each hand. Returns the
 * number of hands (at most MAX_HANDS; later hands share the last entry, never kept). */
static int paper_hands(const decs *g, uint16_t *hand_of, hand_keep *hk) {
  int nh = 0, key = -1;
  for (uint32_t i = 0; i < g->n; i++) {
    const tk_riichi_view *v = &g->d[i].v;
    const tk_riichi_action *a = &g->d[i].a;
    int k = v->round << 8 | v->honba;
    if (k != key && nh < MAX_HANDS) {
      key = k;
      hand_keep *n = &hk[nh++];
      n->keep = 0;
      n->first_riichi = 0xff;
      for (int s = 0; s < 4; s++) n->riichi_at[s] = NONE;
    }
    hand_of[i] = (uint16_t)(nh - 1);
    hand_keep *h = &hk[nh - 1];
    int seat = g->d[i].seat & 3;
    if (a->type == TK_RIICHI_RIICHI && h->riichi_at[seat] == NONE) {
      h->riichi_at[seat] = i;
      if (h->first_riichi == 0xff) h->first_riichi = (uint8_t)seat;
    }
    if (a->type == TK_RIICHI_TSUMO || a->type == TK_RIICHI_RON) {
      int riichi = 0;
      for (int s = 0; s < 4; s++) riichi |= v->riichi[s] != 0;
      if (!riichi) h->keep |= (uint8_t)(1u << seat);
    }
  }
  for (int i = 0; i < nh; i++)
    if (hk[i].first_riichi != 0xff) hk[i].keep |= (uint8_t)(1u << hk[i].first_riichi);
  if (nh == MAX_HANDS) hk[nh - 1].keep = 0;
  return nh;
}

/* Training games read so far, and the most to keep (--train-units; 0 = all): a learning curve
 * trains on the first U training games of the same files, against the same held-out set. */
static unsigned long long train_units, max_train_units;

/* The examples of one game's decisions `g` (every seat's, in the order they were made), into
 * `s`; `what` names the game in messages. Returns 0, or 2 after a message. */
static int add_game(const char *what, uint64_t unit, const decs *g, pool *p, set *s, counts *k) {
  static uint16_t hand_of[1 << 16];
  static hand_keep hk[MAX_HANDS];
  if (paper_filter && g->n > (1u << 16)) {
    fprintf(stderr, "riichi_oneplayer_train: %s: %zu decisions, more than --filter paper handles "
            "(65536)\n", what, g->n);
    return 2;
  }
  if (paper_filter) paper_hands(g, hand_of, hk);
  for (size_t i = 0; i < g->n; i++) {
    const dec *d = &g->d[i];
    if (!d->teacher) continue;
    if (paper_filter) {
      const hand_keep *hh = &hk[hand_of[i]];
      int seat = d->seat & 3;
      if (!(hh->keep >> seat & 1) || (hh->riichi_at[seat] != NONE && i > hh->riichi_at[seat])) {
        k->filtered++;
        continue;
      }
    }
    /* a chi / pon's discard: the seat's next decision, if it is the discard after that call
     * (another seat's pon or ron may have taken the tile instead) */
    const tk_riichi_action *next = NULL;
    if (d->v.phase == TK_RIICHI_PHASE_REACT &&
        (d->a.type == TK_RIICHI_CHI || d->a.type == TK_RIICHI_PON))
      for (size_t j = i + 1; j < g->n; j++) {
        if (g->d[j].seat != d->seat) continue;
        if (g->d[j].v.phase == TK_RIICHI_PHASE_SELF && g->d[j].v.after_call) next = &g->d[j].a;
        break;
      }
    if (d->l.n > TK_RIICHI_MAX_LEGAL || d->v.nhand > 14) {
      fprintf(stderr, "riichi_oneplayer_train: %s: a malformed decision (legal.n %u, view.nhand "
              "%u)\n", what, d->l.n, d->v.nhand);
      return 2;
    }
    if (add_decision(what, unit, &d->v, &d->l, &d->a, next, p, s, k)) return 2;
  }
  return 0;
}

static int push_dec(decs *g, const dec *d) {
  if (g->n == g->cap) {
    size_t cap = g->cap ? 2 * g->cap : 512;
    dec *nd = realloc(g->d, cap * sizeof *nd);
    if (!nd) return -1;
    g->d = nd;
    g->cap = cap;
  }
  g->d[g->n++] = *d;
  return 0;
}

static const char *teacher_list; /* --teacher, or NULL: every player */

/* Is the player `name` in seat `seat` a teacher? --teacher lists labels (records), player names
 * (a log's start_game "names"), or seats 0-3; without it every player is. */
static int is_teacher(const char *name, int seat) {
  if (!teacher_list) return 1;
  char digit[2] = {(char)('0' + seat), '\0'};
  return (name && listed(teacher_list, name)) || (seat >= 0 && listed(teacher_list, digit));
}

/* A tile field of a record: a kind below TK_KINDS (with the red flag), or TK_TILE_NONE where
 * `none` allows it. */
static int tile_ok(uint8_t t, int none) {
  return (none && t == TK_TILE_NONE) || (t & ~TK_TILE_RED) < TK_KINDS;
}

/* Checks the fields of a recorded decision that the features and filters index with (counts,
 * tiles, action types, list lengths). Returns NULL, or `why` holding the field and its value. */
static const char *decision_error(const dec *x, char *why, size_t cap) {
  const tk_riichi_view *v = &x->v;
#define BAD(...) return (snprintf(why, cap, __VA_ARGS__), why)
  if (v->seat > 3) BAD("view.seat %u out of range (0..3)", v->seat);
  if (v->phase != TK_RIICHI_PHASE_SELF && v->phase != TK_RIICHI_PHASE_REACT)
    BAD("view.phase %u is not a decision's", v->phase);
  if (v->nhand > 14) BAD("view.nhand %u out of range (0..14)", v->nhand);
  for (int i = 0; i < v->nhand; i++)
    if (!tile_ok(v->tiles[i], 0)) BAD("view.tiles[%d] %u is not a tile", i, v->tiles[i]);
  for (int k = 0; k < TK_KINDS; k++)
    if (v->hand[k] > 4 || v->seen[k] > 4)
      BAD("view.hand[%d] %u, view.seen[%d] %u (at most 4)", k, v->hand[k], k, v->seen[k]);
  if (v->ndora > 5) BAD("view.ndora %u out of range (0..5)", v->ndora);
  for (int i = 0; i < v->ndora; i++)
    if (!tile_ok(v->dora[i], 0)) BAD("view.dora[%d] %u is not a tile", i, v->dora[i]);
  if (!tile_ok(v->drawn, 1)) BAD("view.drawn %u is not a tile", v->drawn);
  if (!tile_ok(v->last_tile, 1)) BAD("view.last_tile %u is not a tile", v->last_tile);
  for (int s = 0; s < 4; s++) {
    if (v->nmelds[s] > 4) BAD("view.nmelds[%d] %u out of range (0..4)", s, v->nmelds[s]);
    if (v->nriver[s] > TK_RIICHI_MAX_RIVER)
      BAD("view.nriver[%d] %u out of range (0..%d)", s, v->nriver[s], TK_RIICHI_MAX_RIVER);
    for (int m = 0; m < v->nmelds[s]; m++)
      for (int t = 0; t < 4; t++)
        if (!tile_ok(v->melds[s][m].tiles[t], t == 3))
          BAD("view.melds[%d][%d].tiles[%d] %u is not a tile", s, m, t, v->melds[s][m].tiles[t]);
    for (int i = 0; i < v->nriver[s]; i++)
      if (!tile_ok(v->river[s][i].tile, 0))
        BAD("view.river[%d][%d].tile %u is not a tile", s, i, v->river[s][i].tile);
  }
  if (x->l.n > TK_RIICHI_MAX_LEGAL)
    BAD("legal.n %u out of range (0..%d)", x->l.n, TK_RIICHI_MAX_LEGAL);
  for (int i = 0; i <= x->l.n; i++) {
    const tk_riichi_action *a = i < x->l.n ? &x->l.a[i] : &x->a;
    const char *what = i < x->l.n ? "legal.a" : "action";
    int at = i < x->l.n ? i : 0;
    if (a->type >= TK_RIICHI_ACT_COUNT) BAD("%s[%d].type %u out of range", what, at, a->type);
    if (!tile_ok(a->tile, 1) || !tile_ok(a->consumed[0], 1) || !tile_ok(a->consumed[1], 1))
      BAD("%s[%d]: tile %u, consumed %u %u: not tiles", what, at, a->tile, a->consumed[0],
          a->consumed[1]);
  }
#undef BAD
  return NULL;
}

static int read_records(const char *in, long holdout, decs *g, pool *p, set *train, set *held,
                        counts *k) {
  tk_error err;
  tk_error_clear(&err);
  tk_records *r;
  if (tk_records_open_game(in, "riichi", TK_RIICHI_TYPES_VERSION, sizeof(tk_riichi_view),
                           sizeof(tk_riichi_legal), sizeof(tk_riichi_action), &r, &err)) {
    fprintf(stderr, "riichi_oneplayer_train: %s\n", err.msg);
    return 2;
  }
  const tk_records_header *h = tk_records_header_of(r);
  uint8_t who[TK_RECORDS_MAX_AGENTS] = {0};
  int any = 0;
  for (uint32_t i = 0; i < h->nagents; i++) any |= who[i] = (uint8_t)is_teacher(h->agent[i], -1);
  if (!any) {
    fprintf(stderr, "riichi_oneplayer_train: %s: no agent labelled '%s' (agents:", in,
            teacher_list);
    for (uint32_t i = 0; i < h->nagents; i++) fprintf(stderr, " %s", h->agent[i]);
    fprintf(stderr, ")\n");
    tk_records_close(r);
    return 2;
  }
  tk_records_unit u;
  int rc;
  while ((rc = tk_records_next(r, &u, &err)) == 1) {
    set *s = u.wall % (uint64_t)holdout == (uint64_t)holdout - 1 ? held : train;
    if (s == train && max_train_units && train_units++ >= max_train_units) continue;
    g->n = 0;
    for (uint32_t i = 0; i < u.ndecisions; i++) {
      tk_records_decision d;
      tk_records_decision_at(r, &u, i, &d);
      dec x;
      memcpy(&x.v, d.view, sizeof x.v);
      memcpy(&x.l, d.legal, sizeof x.l);
      memcpy(&x.a, d.action, sizeof x.a);
      x.seat = (uint8_t)d.seat; /* < nseats (4): the reader checks it */
      x.teacher = who[d.agent];
      char why[160];
      if (decision_error(&x, why, sizeof why)) {
        fprintf(stderr, "riichi_oneplayer_train: %s: unit %llu: decision %u: %s\n", in,
                (unsigned long long)u.unit, i, why);
        tk_records_close(r);
        return 2;
      }
      if (push_dec(g, &x)) {
        fprintf(stderr, "riichi_oneplayer_train: out of memory\n");
        tk_records_close(r);
        return 1;
      }
    }
    char what[1100];
    snprintf(what, sizeof what, "%s: unit %llu", in, (unsigned long long)u.unit);
    if ((rc = add_game(what, u.unit, g, p, s, k))) {
      tk_records_close(r);
      return rc;
    }
  }
  tk_records_close(r);
  if (rc < 0) {
    fprintf(stderr, "riichi_oneplayer_train: %s\n", err.msg);
    return 2;
  }
  return 0;
}

/* mjai logs. Each game is replayed through the engine (tk_riichi_log_replay_hooked, the reader
 * of `taikai replay`), which rebuilds every decision of every seat as the referee gives it.
 * Games are numbered in the order they are read (files in the order given, a folder's files in
 * name order, a file's games in order), from 0: that number stands for the records' wall in
 * --holdout (a run's logs, read in unit order, number the games as the run numbers its units;
 * that is the wall when every wall is played once). */
static int skip_bad;                       /* --skip-bad-games */
static unsigned long long log_games, bad_games, no_teacher_games;

typedef struct hook_ctx {
  decs *g;
  uint8_t teacher[4];
  int oom;
} hook_ctx;

static void on_begin(void *ctx) { ((hook_ctx *)ctx)->g->n = 0; }

static void on_decision(void *ctx, const tk_riichi_game *game, int seat, const tk_riichi_action *a,
                        int line) {
  (void)line;
  hook_ctx *h = ctx;
  dec x;
  tk_riichi_view_of(game, seat, &x.v);
  tk_riichi_legal_of(game, seat, &x.l);
  x.a = *a;
  x.seat = (uint8_t)seat;
  x.teacher = h->teacher[seat & 3];
  if (push_dec(h->g, &x)) h->oom = 1;
}

/* One game: the lines text[0 .. len) of `path`, starting at the file's line `first`. */
static int read_log_game(const char *path, const char *text, size_t len, long first, long holdout,
                         decs *g, pool *p, set *train, set *held, counts *k) {
  hook_ctx hc = {g, {0}, 0};
  /* the players' names: start_game's "names" */
  const char *eol = memchr(text, '\n', len);
  json_t *sg = json_loadb(text, eol ? (size_t)(eol - text) : len, 0, NULL);
  json_t *names = json_object_get(sg, "names");
  int any = 0;
  for (int s = 0; s < 4; s++)
    any |= hc.teacher[s] = (uint8_t)is_teacher(json_string_value(json_array_get(names, s)), s);
  json_decref(sg);
  unsigned long long game = log_games++;
  if (!any) { /* no teacher at this table: nothing to learn (the game is not replayed) */
    no_teacher_games++;
    return 0;
  }
  tk_riichi_replay *out = malloc(sizeof *out);
  if (!out) {
    fprintf(stderr, "riichi_oneplayer_train: out of memory\n");
    return 1;
  }
  tk_riichi_replay_hooks hooks = {on_begin, on_decision, &hc};
  tk_error err;
  tk_error_clear(&err);
  int e = tk_riichi_log_replay_game(path, text, len, first, &hooks, out, &err);
  if (hc.oom || e == TK_ENOMEM) {
    free(out);
    fprintf(stderr, "riichi_oneplayer_train: out of memory\n");
    return 1;
  }
  if (e) {
    fprintf(stderr, "riichi_oneplayer_train: %s%s\n", err.msg, tk_riichi_log_skip_note(skip_bad));
    if (out->rules_note[0]) fprintf(stderr, "  note: %s\n", out->rules_note);
    free(out);
    if (!skip_bad) return 2;
    bad_games++;
    return 0;
  }
  free(out);
  set *s = game % (uint64_t)holdout == (uint64_t)holdout - 1 ? held : train;
  if (s == train && max_train_units && train_units++ >= max_train_units) return 0;
  char what[1100];
  snprintf(what, sizeof what, "%s:%ld", path, first);
  return add_game(what, game, g, p, s, k);
}

typedef struct log_ctx {
  long holdout;
  decs *g;
  pool *p;
  set *train, *held;
  counts *k;
} log_ctx;

static int on_log_game(void *ctx, const char *path, const char *text, size_t len, long first) {
  log_ctx *c = ctx;
  return read_log_game(path, text, len, first, c->holdout, c->g, c->p, c->train, c->held, c->k);
}

/* A log file, a folder of them or a run folder (tk_riichi_log_games): every game in them, each
 * from its start_game line. Returns 0, or read_log_game's 1 or 2, or 2 (1 when out of memory)
 * after a message when a file cannot be read. */
static int read_log(const char *path, long holdout, decs *g, pool *p, set *train, set *held,
                    counts *k) {
  log_ctx c = {holdout, g, p, train, held, k};
  tk_error err;
  tk_error_clear(&err);
  int rc = tk_riichi_log_games(path, on_log_game, &c, &err);
  if (rc < 0) {
    fprintf(stderr, "riichi_oneplayer_train: %s\n", err.msg);
    return rc == TK_ENOMEM ? 1 : 2;
  }
  return rc;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && !strcmp(s + n - m, suffix);
}

/* An input: a folder of logs, a log (*.jsonl, *.jsonl.gz), or records. */
static int read_input(const char *in, long holdout, decs *g, pool *p, set *train, set *held,
                      counts *k) {
  struct stat st;
  if ((!stat(in, &st) && S_ISDIR(st.st_mode)) || ends_with(in, ".jsonl") ||
      ends_with(in, ".jsonl.gz"))
    return read_log(in, holdout, g, p, train, held, k);
  return read_records(in, holdout, g, p, train, held, k);
}

static void free_all(pool *p, set *train, set *held) {
  free(p->feat), free(p->cand), free(p->act), free(train->x), free(held->x);
}

/* The agreement of the weights file `path` with the teacher on held and train, by category.
 * Returns 0, or 2 when the file cannot be read (printed). */
static int evaluate_weights(const char *path, const char *teacher, const pool *p, const set *train,
                            const set *held) {
  tk_error err;
  tk_error_clear(&err);
  double *we = NULL;
  size_t nnz = 0, ag[NCAT], tot[NCAT], agt[NCAT], tott[NCAT], ex = 0, ext = 0;
  if (rop_weights_load(path, &we, &nnz, &err)) {
    fprintf(stderr, "riichi_oneplayer_train: %s\n", err.msg);
    return 2;
  }
  agreement(we, p, held, ag, tot, &ex);
  agreement(we, p, train, agt, tott, &ext);
  printf("agreement of %s (%zu nonzero weights) with '%s' (paper 000 table 4):\n", path, nnz,
         teacher);
  printf("  %-8s %16s %16s %22s\n", "", "held out", "the others", "all");
  for (int i = 0; i < NCAT; i++)
    printf("  %-8s %6.2f %% %7zu  %6.2f %% %7zu  %6.2f %% (%zu of %zu)\n", CAT_NAME[i],
           pct(ag[i], tot[i]), tot[i], pct(agt[i], tott[i]), tott[i],
           pct(ag[i] + agt[i], tot[i] + tott[i]), ag[i] + agt[i], tot[i] + tott[i]);
  printf("  (calls with the same discard too, all: %.2f %%)\n",
         pct(ex + ext, tot[CAT_CALL] + tott[CAT_CALL]));
  free(we);
  return 0;
}

/* The averaged perceptron over `epochs` shuffles (seeded by `seed`) of train, one line per
 * epoch; its weights written to `out` and its held-out agreement printed (t0: the clock at the
 * start, for the CPU time). Returns 0, or 1 (printed). */
static int train_and_save(const char *out, const char *teacher, long epochs,
                          unsigned long long seed, const pool *p, const set *train,
                          const set *held, clock_t t0) {
  double *w = calloc(ROF_FEATURES, sizeof *w), *u = calloc(ROF_FEATURES, sizeof *u);
  double *avg = calloc(ROF_FEATURES, sizeof *avg);
  size_t *order = malloc(train->n * sizeof *order);
  int rc = 1;
  if (!w || !u || !avg || !order) {
    fprintf(stderr, "riichi_oneplayer_train: out of memory\n");
    goto done;
  }
  for (size_t i = 0; i < train->n; i++) order[i] = i;
  size_t ag[NCAT], tot[NCAT], agt[NCAT], tott[NCAT];
  agreement(w, p, held, ag, tot, NULL);
  printf("baseline, zero weights (the first candidate: the lowest tile, pass): held out: discards "
         "%.2f %%, calls %.2f %%, passes %.2f %%\n", pct(ag[0], tot[0]), pct(ag[1], tot[1]),
         pct(ag[2], tot[2]));
  tk_rng rng;
  tk_rng_seed(&rng, seed);
  double c = 1;
  size_t exact = 0;
  for (long ep = 1; ep <= epochs; ep++) {
    for (size_t i = train->n - 1; i > 0; i--) { /* Fisher-Yates */
      size_t j = (size_t)tk_rng_below(&rng, (uint32_t)(i + 1));
      size_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    size_t mistakes = 0;
    for (size_t i = 0; i < train->n; i++, c++) {
      const example *e = &train->x[order[i]];
      int guess = best_of(w, p, e);
      if (guess == e->teacher) continue;
      mistakes++;
      uint64_t ct = e->cand + e->teacher, cg = e->cand + (uint64_t)guess;
      for (uint64_t j = p->cand[ct]; j < p->cand[ct + 1]; j++) w[p->feat[j]] += 1, u[p->feat[j]] += c;
      for (uint64_t j = p->cand[cg]; j < p->cand[cg + 1]; j++) w[p->feat[j]] -= 1, u[p->feat[j]] -= c;
    }
    for (size_t f = 0; f < ROF_FEATURES; f++) avg[f] = w[f] - u[f] / c;
    agreement(avg, p, held, ag, tot, &exact);
    agreement(avg, p, train, agt, tott, NULL);
    printf("epoch %ld: %zu mistakes; held out: discards %.2f %%, calls %.2f %%, passes %.2f %% "
           "(training %.2f / %.2f / %.2f %%)\n", ep, mistakes, pct(ag[0], tot[0]),
           pct(ag[1], tot[1]), pct(ag[2], tot[2]), pct(agt[0], tott[0]), pct(agt[1], tott[1]),
           pct(agt[2], tott[2]));
  }
  tk_error err;
  tk_error_clear(&err);
  size_t nnz = 0;
  char hex[TK_SHA256_HEX];
  if (rop_weights_save(out, avg, &nnz, &err) || tk_sha256_file(out, hex, &err)) {
    fprintf(stderr, "riichi_oneplayer_train: %s\n", err.msg);
    goto done;
  }
  printf("held-out agreement with '%s' (paper 000 table 4):\n", teacher);
  for (int i = 0; i < NCAT; i++)
    printf("  %-8s %6.2f %%  (%zu of %zu)\n", CAT_NAME[i], pct(ag[i], tot[i]), ag[i], tot[i]);
  printf("  (calls with the same discard too: %.2f %%, %zu of %zu)\n", pct(exact, tot[CAT_CALL]),
         exact, tot[CAT_CALL]);
  printf("wrote %s: %zu nonzero weights, sha256 %s (%.1f s CPU)\n", out, nnz, hex,
         (double)(clock() - t0) / CLOCKS_PER_SEC);
  rc = 0;
done:
  free(w), free(u), free(avg), free(order);
  return rc;
}

int main(int argc, char **argv) {
  const char *in[64], *out = NULL, *evaluate = NULL;
  int nin = 0;
  uint64_t epochs = 5, holdout = 10, seed = 1, units = 0;
  static const char *const FILTERS[] = {"none", "paper", NULL};
  const tk_opt opts[] = {
      {.name = "teacher", .kind = TK_OPT_STRING, .dest = &teacher_list, .value = "LABELS"},
      {.name = "evaluate", .kind = TK_OPT_STRING, .dest = &evaluate, .value = "WEIGHTS"},
      {.name = "skip-bad-games", .kind = TK_OPT_FLAG, .dest = &skip_bad},
      {.name = "out", .kind = TK_OPT_STRING, .dest = &out, .value = "FILE"},
      {.name = "epochs", .kind = TK_OPT_U64, .dest = &epochs, .value = "N", .min = 1,
       .max = LONG_MAX},
      {.name = "holdout", .kind = TK_OPT_U64, .dest = &holdout, .value = "M", .min = 2,
       .max = LONG_MAX},
      {.name = "filter", .kind = TK_OPT_CHOICE, .dest = &paper_filter, .choices = FILTERS,
       .value = "paper|none"},
      {.name = "train-units", .kind = TK_OPT_U64, .dest = &units, .value = "N", .min = 1,
       .max = UINT64_MAX},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog("riichi_oneplayer_train", opts, argc, argv, in, 64, &nin);
  if (!prc && nin > 64) {
    fprintf(stderr, "riichi_oneplayer_train: at most 64 inputs\n");
    prc = 2;
  }
  if (prc == 1) usage(stdout);
  if (prc) {
    if (prc == 2) usage(stderr);
    return prc == 1 ? 0 : 2;
  }
  max_train_units = units;
  if (!nin || (!out && !evaluate) || (out && evaluate)) {
    usage(stderr);
    return 2;
  }
  clock_t t0 = clock();
  pool p = {0};
  set train = {0}, held = {0};
  counts k = {0};
  decs g = {0};
  const char *teacher = teacher_list ? teacher_list : "every player";
  for (int i = 0; i < nin; i++) {
    int rc = read_input(in[i], (long)holdout, &g, &p, &train, &held, &k);
    if (rc) {
      free(g.d);
      free_all(&p, &train, &held);
      return rc;
    }
  }
  free(g.d);
  if (log_games)
    printf("mjai logs: %llu games read, %llu replayed, %llu refused by the engine and skipped "
           "(--skip-bad-games), %llu without a teacher\n", log_games,
           log_games - bad_games - no_teacher_games, bad_games, no_teacher_games);
  if (evaluate ? !(train.n + held.n) : !train.n || !held.n) {
    fprintf(stderr, "riichi_oneplayer_train: %zu training and %zu held-out examples of '%s'; "
            "need some of each\n", train.n, held.n, teacher);
    free_all(&p, &train, &held);
    return 2;
  }
  if (paper_filter)
    printf("--filter paper: %zu decisions of '%s' outside the kept hands or after the player's "
           "riichi\n", k.filtered, teacher);
  printf("%zu decisions of '%s': %zu discards, %zu calls, %zu passes kept; skipped %zu with a "
         "legal win or riichi, %zu discards after a call, %zu with one candidate, %zu "
         "nine-terminals, %zu calls that did not happen, %zu unmatched\n", k.decisions, teacher,
         k.kept[CAT_DISCARD], k.kept[CAT_CALL], k.kept[CAT_PASS], k.rule, k.after_call, k.forced,
         k.other, k.overridden, k.unmatched);
  printf("%zu training examples, %zu held out (walls, or logs' game numbers, %% %ld == %ld); "
         "%zu candidates, %.1f active features each\n", train.n, held.n, (long)holdout,
         (long)holdout - 1, p.ncand, (double)p.nfeat / (double)p.ncand);
  int rc = evaluate ? evaluate_weights(evaluate, teacher, &p, &train, &held)
                    : train_and_save(out, teacher, (long)epochs, seed, &p, &train, &held, t0);
  free_all(&p, &train, &held);
  return rc;
}
