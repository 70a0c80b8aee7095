/* plugins/daifugo_search/exchange_train.c — `daifugo_search_exchange_train`: makes and measures
 * daifugo_search's learned exchange policy (exchange.h).
 *
 *   daifugo_search_exchange_train generate --out FILE [--positions N] [--seed S]
 *       [--playouts P] [--mcl-weights PATH]
 *   daifugo_search_exchange_train train --in FILE --out WEIGHTS [--seed S] [--epochs E]
 *       [--rate ETA] [--l2 L] [--holdout K] [--soft T]
 *   daifugo_search_exchange_train eval --in FILE --weights WEIGHTS [--holdout K] [--seed S]
 *       [--playouts P] [--mcl-weights PATH] [--time]
 *
 * generate: plays blocks 0, 1, 2, … of 100 games with seed S (plays drawn uniformly among the
 * non-pass plays from stream `block` of tk_mix64(S); the exchange positions depend only on the
 * deal and the classes) and labels every exchange decision of the daifugo and the fugo with the
 * teacher: daifugo_mcl's Monte Carlo exchange (dmc_decide, its default parameters but
 * exchange_playouts P, the learned playouts of --mcl-weights), the k-th teacher call drawing
 * from stream k of tk_mix64(S + 1). The daifugo's pair is one evaluation (dmc's "top2"): its
 * first card is the call's choice, its second the best mean of the same evaluation but the first
 * card, which is what dmc's second call computes from the same generator state (an exact tie of
 * two means aside, which dmc breaks by its own random order and this tool by the weaker card).
 * The teacher's choice is applied, so the second position is the one the teacher would meet.
 * Stops once N positions are written (N + 1 when the daifugo's pair straddles N).
 *
 * The positions file (text; this file is its one writer and one reader): the line
 * "dsx-positions 1", then one line per position, fields separated by one space:
 *   game number (1-based, global), game index in block, player, to_give, cls[5], seat_of[5],
 *   count[5], hand, given, received, teacher's card (hex card sets), ncand, then ncand fields
 *   CARD:MEAN (hex card, the teacher's mean score -2..+2, %.6f; -2 for a card it did not try,
 *   which only a one-card hand's shortcut leaves), every card of the hand.
 *
 * train: holds out the positions of games whose number is a multiple of K, and fits a linear
 * softmax over each position's cards by SGD on the log-likelihood of the teacher's card (with
 * --soft T > 0, on the soft targets softmax(mean / T)), weights from 0, L2 penalty L, rate
 * ETA / (1 + epoch / 10), epoch e visiting the training positions in an order shuffled from
 * stream e of tk_mix64(S). Prints per epoch the training loss and, on the held-out positions,
 * the agreement with the teacher; writes the last epoch's weights.
 *
 * eval: on the held-out positions, the agreement with the teacher of the weights' choice
 * (dsx_choose), of daifugo_mcl's Monte Carlo exchange with P playouts (a fresh decision, the
 * k-th held-out position drawing from stream k of tk_mix64(S); S defaults to 7, apart from the
 * teacher's tk_mix64(1 + 1) of generate's default seed), and of the referee's fallback
 * (the lowest card). --time adds the mean time of one dsx_choose call (not reproducible).
 *
 * Exit status: 0; 1 for a damaged file or a failure while running; 2 for a usage error or a
 * file that cannot be opened. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dmc.h"
#include "exchange.h"
#include "daifugo_mcl/policy.h"
#include "daifugo_mcl/setup.h"
#include "opts.h"
#include "taikai/daifugo.h"
#include "taikai/rng.h"
#include "taikai/weights.h"

#define NAME "daifugo_search_exchange_train"
#define MCL_WEIGHTS "daifugo_mcl_ap.tkw"
enum { MAX_CAND = 16 }; /* cards of a hand at an exchange: 13 at most (11 dealt, 2 received) */

/* ------------------------------------------------------------ positions */

typedef struct cand {
  uint64_t card;
  double mean;
  int nf;
  int idx[DSX_MAX_ACTIVE];
  double val[DSX_MAX_ACTIVE];
} cand;

typedef struct position {
  uint64_t number;       /* global game number */
  uint32_t game;         /* game index in block */
  uint8_t player, to_give, cls[5], seat_of[5], count[5];
  uint64_t hand, given, received, teacher;
  int ncand;
  cand c[MAX_CAND];
} position;

typedef struct store {
  position *p;
  size_t n, cap;
} store;

static position *store_add(store *s) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 1024;
    position *q = realloc(s->p, cap * sizeof *q);
    if (!q) return NULL;
    s->p = q, s->cap = cap;
  }
  memset(&s->p[s->n], 0, sizeof s->p[0]);
  return &s->p[s->n++];
}

/* The view and legal actions of position `p` as the block showed them. */
static void position_view(const position *p, tk_daifugo_view *v, tk_daifugo_legal *l) {
  memset(v, 0, sizeof *v);
  v->player = p->player;
  v->decision = TK_DAIFUGO_DECIDE_EXCHANGE;
  v->to_give = p->to_give;
  v->turn = v->owner = TK_DAIFUGO_NOBODY;
  memcpy(v->count, p->count, 5);
  memcpy(v->seat_of, p->seat_of, 5);
  memcpy(v->cls, p->cls, 5);
  v->game = p->game;
  v->hand = p->hand, v->given = p->given, v->received = p->received;
  memset(l, 0, sizeof *l);
  l->player = p->player;
  l->decision = TK_DAIFUGO_DECIDE_EXCHANGE;
  for (uint64_t h = p->hand; h; h &= h - 1) { /* as tk_daifugo_legal_of lists them */
    tk_daifugo_move *m = &l->a[l->n++];
    m->kind = TK_DAIFUGO_GIVE;
    m->cards = h & -h;
    m->n = 1;
    m->jcell = TK_DAIFUGO_NOCELL;
  }
}

static void write_position(FILE *f, const position *p) {
  fprintf(f, "%llu %u %u %u", (unsigned long long)p->number, p->game, p->player, p->to_give);
  for (int i = 0; i < 5; i++) fprintf(f, " %u", p->cls[i]);
  for (int i = 0; i < 5; i++) fprintf(f, " %u", p->seat_of[i]);
  for (int i = 0; i < 5; i++) fprintf(f, " %u", p->count[i]);
  fprintf(f, " %llx %llx %llx %llx %d", (unsigned long long)p->hand,
          (unsigned long long)p->given, (unsigned long long)p->received,
          (unsigned long long)p->teacher, p->ncand);
  for (int k = 0; k < p->ncand; k++)
    fprintf(f, " %llx:%.6f", (unsigned long long)p->c[k].card, p->c[k].mean);
  fputc('\n', f);
}

/* The reader's cursor over one line; errors name the file, the line and the field. */
typedef struct cursor {
  const char *path;
  long line;
  char *at;
} cursor;

static int bad(const cursor *c, const char *field, const char *why, const char *tok) {
  fprintf(stderr, NAME ": %s:%ld: field %s: %s (got '%.40s')\n", c->path, c->line, field, why,
          tok ? tok : "end of line");
  return 1;
}

/* The next space-separated token, NUL-terminated in place, or NULL at the end of the line. */
static char *token(cursor *c) {
  while (*c->at == ' ') c->at++;
  if (!*c->at || *c->at == '\n') return NULL;
  char *t = c->at;
  while (*c->at && *c->at != ' ' && *c->at != '\n') c->at++;
  if (*c->at) *c->at++ = 0;
  return t;
}

static int read_u64(cursor *c, const char *field, int base, uint64_t max, uint64_t *out) {
  char *t = token(c), *end;
  if (!t) return bad(c, field, "missing", NULL);
  errno = 0;
  unsigned long long x = strtoull(t, &end, base);
  if (*end || errno || t[0] == '-' || x > max)
    return bad(c, field, base == 16 ? "not a hex number in range" : "not a number in range", t);
  *out = x;
  return 0;
}

static int read_u8s(cursor *c, const char *field, uint64_t max, uint8_t *out, int n) {
  for (int i = 0; i < n; i++) {
    uint64_t x;
    if (read_u64(c, field, 10, max, &x)) return 1;
    out[i] = (uint8_t)x;
  }
  return 0;
}

static int parse_position(cursor *c, position *p) {
  uint64_t x;
  if (read_u64(c, "game number", 10, UINT64_MAX, &p->number)) return 1;
  if (read_u64(c, "game index", 10, TK_DAIFUGO_MAX_BLOCK - 1, &x)) return 1;
  p->game = (uint32_t)x;
  if (read_u64(c, "player", 10, 4, &x)) return 1;
  p->player = (uint8_t)x;
  if (read_u64(c, "to_give", 10, 2, &x)) return 1;
  p->to_give = (uint8_t)x;
  if (read_u8s(c, "cls", 4, p->cls, 5) || read_u8s(c, "seat_of", 4, p->seat_of, 5) ||
      read_u8s(c, "count", TK_DAIFUGO_CARDS, p->count, 5))
    return 1;
  if (read_u64(c, "hand", 16, TK_DAIFUGO_DECK, &p->hand) ||
      read_u64(c, "given", 16, TK_DAIFUGO_DECK, &p->given) ||
      read_u64(c, "received", 16, TK_DAIFUGO_DECK, &p->received) ||
      read_u64(c, "teacher", 16, TK_DAIFUGO_DECK, &p->teacher))
    return 1;
  if ((p->hand & ~TK_DAIFUGO_DECK) || __builtin_popcountll(p->hand) > MAX_CAND)
    return bad(c, "hand", "not a hand of at most 16 cards", "");
  if (__builtin_popcountll(p->teacher) != 1 || !(p->teacher & p->hand))
    return bad(c, "teacher", "not one card of the hand", "");
  if (read_u64(c, "ncand", 10, MAX_CAND, &x)) return 1;
  p->ncand = (int)x;
  if (p->ncand != __builtin_popcountll(p->hand))
    return bad(c, "ncand", "not the number of cards in the hand", "");
  uint64_t seen = 0;
  for (int k = 0; k < p->ncand; k++) {
    char *t = token(c), *end;
    if (!t) return bad(c, "CARD:MEAN", "missing", NULL);
    errno = 0;
    unsigned long long card = strtoull(t, &end, 16);
    if (*end != ':' || errno || __builtin_popcountll(card) != 1 || !(card & p->hand) ||
        (card & seen))
      return bad(c, "CARD:MEAN", "not a card of the hand, once, then ':'", t);
    char *m = end + 1;
    double mean = strtod(m, &end);
    if (*end || end == m || !(mean >= -2 && mean <= 2))
      return bad(c, "CARD:MEAN", "the mean is not a number from -2 to 2", t);
    seen |= card;
    p->c[k].card = card;
    p->c[k].mean = mean;
  }
  char *t = token(c);
  if (t) return bad(c, "end of line", "more fields than ncand says", t);
  return 0;
}

static const char HEADER[] = "dsx-positions 1";

/* Reads a positions file into `s`, computing every candidate's features. Returns 0, 2 (cannot
 * open) or 1 (damaged; the message names the line and the field). */
static int read_positions(const char *path, store *s) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, NAME ": %s: cannot open: %s\n", path, strerror(errno));
    return 2;
  }
  char buf[4096];
  cursor c = {path, 0, NULL};
  int rc = 0;
  while (!rc && fgets(buf, sizeof buf, f)) {
    c.line++;
    c.at = buf;
    if (!strchr(buf, '\n') && !feof(f)) {
      rc = bad(&c, "line", "longer than 4095 characters", buf);
      break;
    }
    if (c.line == 1) {
      if (strncmp(buf, HEADER, sizeof HEADER - 1) || (buf[sizeof HEADER - 1] != '\n' &&
                                                      buf[sizeof HEADER - 1] != 0))
        rc = bad(&c, "header", "not \"dsx-positions 1\"", buf);
      continue;
    }
    position *p = store_add(s);
    if (!p) {
      fprintf(stderr, NAME ": out of memory\n");
      rc = 1;
      break;
    }
    rc = parse_position(&c, p);
    for (int k = 0; !rc && k < p->ncand; k++)
      p->c[k].nf = dsx_features(p->hand, p->c[k].card, p->c[k].idx, p->c[k].val);
  }
  if (!rc && ferror(f)) {
    fprintf(stderr, NAME ": %s: read error\n", path);
    rc = 1;
  }
  if (!rc && c.line == 0) rc = bad(&c, "header", "missing: the file is empty", NULL);
  fclose(f);
  return rc;
}

/* ------------------------------------------------------------ the teacher */

/* The learned playouts of `path` ("": MCL_WEIGHTS in build/plugins beside this program). */
static int teacher_setup(const char *path, dmcl_policy *pol, tk_weights *w) {
  tk_error err = {0};
  if (dmcl_setup_program(NAME, path, MCL_WEIGHTS, "--mcl-weights", pol, w, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 2;
  }
  return 0;
}

/* Fills the position's view fields from `v`. */
static void position_of_view(const tk_daifugo_view *v, uint64_t number, position *p) {
  p->number = number;
  p->game = v->game;
  p->player = v->player;
  p->to_give = v->to_give;
  memcpy(p->cls, v->cls, 5);
  memcpy(p->seat_of, v->seat_of, 5);
  memcpy(p->count, v->count, 5);
  p->hand = v->hand, p->given = v->given, p->received = v->received;
  p->ncand = 0;
  for (uint64_t h = v->hand; h; h &= h - 1) p->c[p->ncand++].card = h & -h;
}

/* The teacher's mean of `card` in `st` for the legal list `l`, or -INFINITY when unvisited. */
static double mean_of(const dmc_stats *st, const tk_daifugo_legal *l, uint64_t card) {
  for (int k = 0; k < st->ncand; k++)
    if (l->a[st->cand[k]].cards == card) return st->visits[k] ? st->mean[k] : -INFINITY;
  return -INFINITY;
}

static int refused(uint64_t blk, const char *what) {
  fprintf(stderr, NAME ": block %llu: the block refused %s\n", (unsigned long long)blk, what);
  return 1;
}

typedef struct gen_opts {
  const char *out, *mcl;
  uint64_t positions, seed, playouts;
} gen_opts;

static int generate(const gen_opts *o) {
  dmcl_policy pol;
  tk_weights w;
  int rc = teacher_setup(o->mcl, &pol, &w);
  if (rc) return rc;
  FILE *f = fopen(o->out, "w");
  if (!f) {
    fprintf(stderr, NAME ": %s: cannot create: %s\n", o->out, strerror(errno));
    dmcl_setup_free(&pol, &w);
    return 2;
  }
  fprintf(f, "%s\n", HEADER);
  static tk_daifugo_block b;
  static tk_daifugo_legal l;
  static tk_daifugo_view v;
  static dmc_stats st;
  static position pos;
  dmc_params p = dmc_default_params();
  p.exchange_playouts = (int)o->playouts;
  tk_daifugo_rules rules = tk_daifugo_default_rules();
  uint64_t play_seed = tk_mix64(o->seed), teacher_seed = tk_mix64(o->seed + 1);
  uint64_t written = 0, calls = 0;
  clock_t t0 = clock();
  rc = 0;
  for (uint64_t blk = 0; !rc && written < o->positions; blk++) {
    tk_daifugo_block_init(&b, &rules, o->seed, blk, NULL);
    tk_rng play;
    tk_rng_seed2(&play, play_seed, blk);
    while (!rc && !tk_daifugo_is_over(&b)) {
      int who = tk_daifugo_to_act(&b);
      tk_daifugo_legal_of(&b, who, &l);
      tk_daifugo_move m;
      if (l.decision == TK_DAIFUGO_DECIDE_PLAY) {
        if (b.g.turn != who) {
          fprintf(stderr, NAME ": block %llu: the game's turn is not the block's\n",
                  (unsigned long long)blk);
          rc = 1;
          break;
        }
        tk_daifugo_random_play(&b.g, &play, &m);
        if (tk_daifugo_apply(&b, who, &m, NULL)) rc = refused(blk, "a play");
        continue;
      }
      tk_daifugo_view_of(&b, who, &v);
      int role = dsx_role(&v);
      uint64_t number = tk_daifugo_game_number(&rules, blk, v.game);
      if (role < 0) {
        fprintf(stderr, NAME ": block %llu game %u: an exchange decision of class %u\n",
                (unsigned long long)blk, v.game, v.cls[who]);
        rc = 1;
        break;
      }
      tk_rng r;
      tk_rng_seed2(&r, teacher_seed, calls++);
      int k = dmc_decide(&p, &v, &l, dmcl_policy_move, &pol, &r, &st);
      if (k < 0) {
        fprintf(stderr, NAME ": block %llu game %u: the teacher found no decision\n",
                (unsigned long long)blk, v.game);
        rc = 1;
        break;
      }
      position_of_view(&v, number, &pos);
      pos.teacher = l.a[k].cards;
      for (int c = 0; c < pos.ncand; c++) pos.c[c].mean = mean_of(&st, &l, pos.c[c].card);
      for (int c = 0; c < pos.ncand; c++) /* a shortcut or an unvisited card: no mean */
        if (!isfinite(pos.c[c].mean)) pos.c[c].mean = -2;
      write_position(f, &pos);
      written++;
      m = l.a[k];
      if (tk_daifugo_apply(&b, who, &m, NULL)) rc = refused(blk, "the teacher's first card");
      if (role == DSX_ROLE_DAIFUGO_FIRST && tk_daifugo_to_act(&b) == who) {
        /* the second card: the same evaluation's best mean but the first card */
        tk_daifugo_view_of(&b, who, &v);
        tk_daifugo_legal_of(&b, who, &l);
        position q;
        position_of_view(&v, number, &q);
        int best = -1;
        double bm = -INFINITY;
        for (int c = 0; c < pos.ncand; c++)
          for (int d = 0; d < q.ncand; d++)
            if (pos.c[c].card == q.c[d].card) q.c[d].mean = pos.c[c].mean;
        for (int c = 0; c < q.ncand; c++) {
          double mu = q.c[c].mean;
          if (best < 0 || mu > bm ||
              (mu == bm && dsx_weakness(q.c[c].card) < dsx_weakness(q.c[best].card)))
            best = c, bm = mu;
        }
        q.teacher = q.c[best].card;
        write_position(f, &q);
        written++;
        for (int i = 0; i < l.n; i++)
          if (l.a[i].cards == q.teacher) m = l.a[i];
        if (tk_daifugo_apply(&b, who, &m, NULL)) rc = refused(blk, "the teacher's second card");
      }
      if (written % 100 < 2)
        fprintf(stderr, NAME ": %llu positions, %.1f CPU s\n", (unsigned long long)written,
                (double)(clock() - t0) / CLOCKS_PER_SEC);
      if (written >= o->positions) break;
    }
  }
  if (fclose(f) && !rc) {
    fprintf(stderr, NAME ": %s: write error\n", o->out);
    rc = 1;
  }
  dmcl_setup_free(&pol, &w);
  if (!rc)
    printf("%llu positions written to %s: %llu teacher calls of %llu playouts, %.1f CPU s\n",
           (unsigned long long)written, o->out, (unsigned long long)calls,
           (unsigned long long)o->playouts, (double)(clock() - t0) / CLOCKS_PER_SEC);
  return rc;
}

/* ------------------------------------------------------------ training */

static int held_out(const position *p, uint64_t k) { return p->number % k == 0; }

/* Index into p->c of the teacher's card. */
static int teacher_index(const position *p) {
  for (int k = 0; k < p->ncand; k++)
    if (p->c[k].card == p->teacher) return k;
  return 0; /* unreachable: the reader checks the teacher is a card of the hand */
}

static double cand_score(const double *w, const cand *c) {
  double s = 0;
  for (int i = 0; i < c->nf; i++) s += w[c->idx[i]] * c->val[i];
  return s;
}

/* The softmax of the position's scores under role weights `w` into prob; returns the index of
 * the highest score, ties to the weaker card (dsx_choose's rule). */
static int softmax(const double *w, const position *p, double *prob) {
  double s[MAX_CAND], mx = -INFINITY, z = 0;
  int best = -1;
  for (int k = 0; k < p->ncand; k++) {
    s[k] = cand_score(w, &p->c[k]);
    if (best < 0 || s[k] > mx ||
        (s[k] == mx && dsx_weakness(p->c[k].card) < dsx_weakness(p->c[best].card)))
      best = k;
    if (s[k] > mx) mx = s[k];
  }
  for (int k = 0; k < p->ncand; k++) z += prob[k] = exp(s[k] - mx);
  for (int k = 0; k < p->ncand; k++) prob[k] /= z;
  return best;
}

/* The target distribution: the teacher's card, or softmax(mean / T). */
static void targets(const position *p, double soft, double *t) {
  if (soft <= 0) {
    int y = teacher_index(p);
    for (int k = 0; k < p->ncand; k++) t[k] = k == y;
    return;
  }
  double mx = -INFINITY, z = 0;
  for (int k = 0; k < p->ncand; k++) mx = fmax(mx, p->c[k].mean / soft);
  for (int k = 0; k < p->ncand; k++) z += t[k] = exp(p->c[k].mean / soft - mx);
  for (int k = 0; k < p->ncand; k++) t[k] /= z;
}

static int role_of(const position *p) {
  tk_daifugo_view v;
  memset(&v, 0, sizeof v);
  v.player = p->player, v.to_give = p->to_give;
  memcpy(v.cls, p->cls, 5);
  return dsx_role(&v);
}

typedef struct train_opts {
  const char *in, *out;
  uint64_t seed, epochs, holdout;
  double rate, l2, soft;
} train_opts;

/* Agreement with the teacher and mean log-likelihood of its card over the positions of one
 * side of the split. */
static void measure(const dsx_model *m, const store *s, uint64_t holdout, int want_held,
                    long *n, long *agree, double *nll) {
  *n = *agree = 0, *nll = 0;
  double prob[MAX_CAND];
  for (size_t i = 0; i < s->n; i++) {
    const position *p = &s->p[i];
    if (held_out(p, holdout) != want_held) continue;
    int role = role_of(p);
    int best = softmax(m->w + role * DSX_FEATURES, p, prob);
    int y = teacher_index(p);
    ++*n;
    *agree += best == y;
    *nll -= log(fmax(prob[y], 1e-300));
  }
}

static int train(const train_opts *o) {
  store s = {0};
  int rc = read_positions(o->in, &s);
  if (rc) {
    free(s.p);
    return rc;
  }
  for (size_t i = 0; i < s.n; i++)
    if (role_of(&s.p[i]) < 0) {
      fprintf(stderr, NAME ": %s: position %zu: the giver is neither the daifugo nor the fugo "
              "(field cls)\n", o->in, i + 1);
      free(s.p);
      return 1;
    }
  size_t *order = malloc((s.n + 1) * sizeof *order), ntrain = 0;
  if (!order) {
    fprintf(stderr, NAME ": out of memory\n");
    free(s.p);
    return 1;
  }
  for (size_t i = 0; i < s.n; i++)
    if (!held_out(&s.p[i], o->holdout)) order[ntrain++] = i;
  printf("%zu positions: %zu for training, %zu held out (game number %% %llu == 0)\n", s.n,
         ntrain, s.n - ntrain, (unsigned long long)o->holdout);
  static dsx_model m;
  memset(&m, 0, sizeof m);
  uint64_t shuffle_seed = tk_mix64(o->seed);
  double prob[MAX_CAND], t[MAX_CAND];
  for (uint64_t e = 0; e < o->epochs; e++) {
    tk_rng r;
    tk_rng_seed2(&r, shuffle_seed, e);
    for (size_t i = ntrain; i > 1; i--) {
      size_t j = (size_t)(tk_rng_next(&r) % i), x = order[i - 1];
      order[i - 1] = order[j], order[j] = x;
    }
    double eta = o->rate / (1.0 + (double)e / 10.0), loss = 0;
    for (size_t i = 0; i < ntrain; i++) {
      const position *p = &s.p[order[i]];
      double *w = m.w + role_of(p) * DSX_FEATURES;
      softmax(w, p, prob);
      targets(p, o->soft, t);
      for (int k = 0; k < p->ncand; k++) loss -= t[k] * log(fmax(prob[k], 1e-300));
      if (o->l2 > 0)
        for (int f = 0; f < DSX_FEATURES; f++) w[f] -= eta * o->l2 * w[f];
      for (int k = 0; k < p->ncand; k++) {
        double g = prob[k] - t[k];
        const cand *c = &p->c[k];
        for (int f = 0; f < c->nf; f++) w[c->idx[f]] -= eta * g * c->val[f];
      }
    }
    long n, agree, hn, hagree;
    double nll, hnll;
    measure(&m, &s, o->holdout, 0, &n, &agree, &nll);
    measure(&m, &s, o->holdout, 1, &hn, &hagree, &hnll);
    printf("epoch %3llu  train loss %.4f agree %.4f  held-out agree %.4f (%ld of %ld) "
           "log-lik %.4f\n", (unsigned long long)e + 1, ntrain ? loss / (double)ntrain : 0,
           n ? (double)agree / (double)n : 0, hn ? (double)hagree / (double)hn : 0, hagree, hn,
           hn ? -hnll / (double)hn : 0);
  }
  tk_error err = {0};
  rc = dsx_save(o->out, &m, &err);
  if (rc) fprintf(stderr, NAME ": %s\n", err.msg);
  else printf("weights written to %s\n", o->out);
  free(order);
  free(s.p);
  return rc ? 1 : 0;
}

/* ------------------------------------------------------------ evaluation */

typedef struct eval_opts {
  const char *in, *weights, *mcl;
  uint64_t seed, holdout, playouts;
  int time;
} eval_opts;

static void share(const char *what, long k, long n) {
  double p = n ? (double)k / (double)n : 0, se = n ? sqrt(p * (1 - p) / (double)n) : 0;
  printf("%-52s %6.4f ± %.4f (%ld of %ld)\n", what, p, 1.96 * se, k, n);
}

static int eval(const eval_opts *o) {
  static dsx_model m;
  tk_error err = {0};
  if (dsx_load(o->weights, &m, &err)) {
    fprintf(stderr, NAME ": %s\n", err.msg);
    return 2;
  }
  store s = {0};
  int rc = read_positions(o->in, &s);
  if (rc) {
    free(s.p);
    return rc;
  }
  dmcl_policy pol;
  tk_weights w;
  if (o->playouts && (rc = teacher_setup(o->mcl, &pol, &w))) {
    free(s.p);
    return rc;
  }
  dmc_params p = dmc_default_params();
  p.exchange_playouts = (int)(o->playouts ? o->playouts : 1);
  uint64_t seed = tk_mix64(o->seed);
  static tk_daifugo_view v;
  static tk_daifugo_legal l;
  /* agree[chooser][role + 1]: positions whose teacher card the chooser (0 the weights, 1 the
     Monte Carlo exchange, 2 the fallback) gives; column 0 all roles; count[] likewise */
  long n = 0, agree[3][DSX_ROLES + 1] = {{0}}, count[DSX_ROLES + 1] = {0};
  for (size_t i = 0; i < s.n; i++) {
    const position *q = &s.p[i];
    if (!held_out(q, o->holdout)) continue;
    position_view(q, &v, &l);
    int k = dsx_choose(&m, &v, &l), role = dsx_role(&v);
    if (k < 0) {
      fprintf(stderr, NAME ": %s: position %zu: no exchange decision of the daifugo or the fugo "
              "(fields cls, to_give)\n", o->in, i + 1);
      rc = 1;
      break;
    }
    int got[3] = {l.a[k].cards == q->teacher, 0, tk_daifugo_fallback(&l).cards == q->teacher};
    if (o->playouts) {
      tk_rng r;
      tk_rng_seed2(&r, seed, (uint64_t)n);
      int j = dmc_decide(&p, &v, &l, dmcl_policy_move, &pol, &r, NULL);
      got[1] = j >= 0 && l.a[j].cards == q->teacher;
    }
    count[0]++, count[role + 1]++;
    for (int c = 0; c < 3; c++) agree[c][0] += got[c], agree[c][role + 1] += got[c];
    n++;
  }
  if (!rc) {
    printf("%ld held-out positions of %zu (game number %% %llu == 0): %ld daifugo's first "
           "cards, %ld second cards, %ld fugo's cards\n", n, s.n, (unsigned long long)o->holdout,
           count[1], count[2], count[3]);
    char mc[96];
    snprintf(mc, sizeof mc, "daifugo_mcl's exchange, %llu playouts (seed %llu)",
             (unsigned long long)o->playouts, (unsigned long long)o->seed);
    const char *who[3] = {"the weights (dsx_choose)", mc,
                          "the referee's fallback (the lowest card)"};
    static const char *const roles[DSX_ROLES] = {"daifugo's first card", "daifugo's second "
                                                 "card", "fugo's card"};
    for (int c = 0; c < 3; c++) {
      if (c == 1 && !o->playouts) continue;
      share(who[c], agree[c][0], count[0]);
      for (int r = 0; r < DSX_ROLES; r++) {
        char what[64];
        snprintf(what, sizeof what, "  the %s", roles[r]);
        share(what, agree[c][r + 1], count[r + 1]);
      }
    }
  }
  if (!rc && o->time && n) {
    struct timespec a, b;
    long calls = 0;
    volatile int sink = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int rep = 0; rep < 100; rep++)
      for (size_t i = 0; i < s.n; i++) {
        position_view(&s.p[i], &v, &l);
        sink += dsx_choose(&m, &v, &l);
        calls++;
      }
    clock_gettime(CLOCK_MONOTONIC, &b);
    /* the same loop without the choice: position_view's share of the time */
    struct timespec c, d;
    clock_gettime(CLOCK_MONOTONIC, &c);
    for (int rep = 0; rep < 100; rep++)
      for (size_t i = 0; i < s.n; i++) {
        position_view(&s.p[i], &v, &l);
        sink += l.n;
      }
    clock_gettime(CLOCK_MONOTONIC, &d);
    double all = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    double base = (double)(d.tv_sec - c.tv_sec) * 1e9 + (double)(d.tv_nsec - c.tv_nsec);
    printf("dsx_choose: %.2f us a call (%ld calls, the view's set-up subtracted)\n",
           (all - base) / (double)calls / 1000.0, calls);
  }
  if (o->playouts) dmcl_setup_free(&pol, &w);
  free(s.p);
  return rc;
}

/* ------------------------------------------------------------ the command line */

static void usage(FILE *f) {
  fprintf(f,
          "usage: " NAME " generate --out FILE [--positions N] [--seed S] [--playouts P]\n"
          "           [--mcl-weights PATH]\n"
          "       " NAME " train --in FILE --out WEIGHTS [--seed S] [--epochs E] [--rate ETA]\n"
          "           [--l2 L] [--holdout K] [--soft T]\n"
          "       " NAME " eval --in FILE --weights WEIGHTS [--holdout K] [--seed S]\n"
          "           [--playouts P] [--mcl-weights PATH] [--time]\n"
          "generate: exchange positions of seeded blocks labelled by daifugo_mcl's Monte Carlo\n"
          "  exchange with P playouts (defaults: N 1000, S 1, P 10000, the learned playouts of\n"
          "  plugins/" MCL_WEIGHTS " beside this program).\n"
          "train: a linear softmax over the cards to give, fitted to the teacher's choices by\n"
          "  SGD (defaults: S 1, E 30, ETA 0.05, L 0.0001, K 5: games whose number is a\n"
          "  multiple of K held out; T 0: the teacher's card, T > 0: softmax(mean / T)).\n"
          "eval: agreement with the teacher on the held-out positions of the weights, of\n"
          "  daifugo_mcl's exchange with P playouts (default 1500; 0 skips it; seed S, default\n"
          "  7: not generate's teacher seed S + 1 of its default S) and of the referee's\n"
          "  fallback; --time: the time of one choice.\n"
          "Exit status: 0; 1 damaged file or failure; 2 usage error or a file not opened.\n");
}

static int parse(const char *prog, const tk_opt *table, int argc, char **argv) {
  const char *pos[1];
  int npos = 0;
  int rc = tk_opts_parse_prog(prog, table, argc, argv, pos, 1, &npos);
  if (!rc && npos) {
    fprintf(stderr, "%s: unexpected argument '%s' (see %s --help)\n", prog, pos[0], prog);
    rc = 2;
  }
  if (rc == 1) usage(stdout);
  return rc;
}

static int missing(const char *prog, const char *opt) {
  fprintf(stderr, "%s: %s is required (see %s --help)\n", prog, opt, prog);
  return 2;
}

int main(int argc, char **argv) {
  const char *cmd = argc > 1 ? argv[1] : "";
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "generate")) {
    gen_opts o = {.positions = 1000, .seed = 1, .playouts = 10000, .mcl = ""};
    const tk_opt table[] = {
        {.name = "out", .kind = TK_OPT_STRING, .dest = &o.out, .value = "FILE", .once = 1,
         .help = "the positions file to write"},
        {.name = "positions", .kind = TK_OPT_U64, .dest = &o.positions, .value = "N", .min = 1,
         .max = 100000000, .help = "positions to write"},
        {.name = "seed", .kind = TK_OPT_U64, .dest = &o.seed, .value = "S", .help = "the seed"},
        {.name = "playouts", .kind = TK_OPT_U64, .dest = &o.playouts, .value = "P", .min = 1,
         .max = DMC_MAX_PLAYOUTS, .help = "the teacher's playouts per decision"},
        {.name = "mcl-weights", .kind = TK_OPT_STRING, .dest = &o.mcl, .value = "PATH",
         .help = "daifugo_mcl's AP weights"},
        {.name = NULL},
    };
    int rc = parse(NAME " generate", table, argc - 1, argv + 1);
    if (rc) return rc == 1 ? 0 : 2;
    if (!o.out) return missing(NAME " generate", "--out");
    return generate(&o);
  }
  if (!strcmp(cmd, "train")) {
    train_opts o = {.seed = 1, .epochs = 30, .holdout = 5, .rate = 0.05, .l2 = 1e-4};
    const tk_opt table[] = {
        {.name = "in", .kind = TK_OPT_STRING, .dest = &o.in, .value = "FILE", .once = 1,
         .help = "the positions file"},
        {.name = "out", .kind = TK_OPT_STRING, .dest = &o.out, .value = "WEIGHTS", .once = 1,
         .help = "the weights file to write"},
        {.name = "seed", .kind = TK_OPT_U64, .dest = &o.seed, .value = "S", .help = "the seed"},
        {.name = "epochs", .kind = TK_OPT_U64, .dest = &o.epochs, .value = "E", .min = 1,
         .max = 100000, .help = "passes over the training positions"},
        {.name = "rate", .kind = TK_OPT_DOUBLE, .dest = &o.rate, .value = "ETA", .lo = 0,
         .hi = 100, .open = 1, .help = "the first epoch's step"},
        {.name = "l2", .kind = TK_OPT_DOUBLE, .dest = &o.l2, .value = "L", .lo = 0,
         .hi = 1, .help = "the L2 penalty"},
        {.name = "holdout", .kind = TK_OPT_U64, .dest = &o.holdout, .value = "K", .min = 2,
         .max = 1000000, .help = "games whose number is a multiple of K are held out"},
        {.name = "soft", .kind = TK_OPT_DOUBLE, .dest = &o.soft, .value = "T", .lo = 0,
         .hi = 100, .help = "the soft targets' temperature (0: the teacher's card)"},
        {.name = NULL},
    };
    int rc = parse(NAME " train", table, argc - 1, argv + 1);
    if (rc) return rc == 1 ? 0 : 2;
    if (!o.in) return missing(NAME " train", "--in");
    if (!o.out) return missing(NAME " train", "--out");
    return train(&o);
  }
  if (!strcmp(cmd, "eval")) {
    eval_opts o = {.seed = 7, .holdout = 5, .playouts = 1500, .mcl = ""};
    const tk_opt table[] = {
        {.name = "in", .kind = TK_OPT_STRING, .dest = &o.in, .value = "FILE", .once = 1,
         .help = "the positions file"},
        {.name = "weights", .kind = TK_OPT_STRING, .dest = &o.weights, .value = "WEIGHTS",
         .once = 1, .help = "the exchange weights"},
        {.name = "holdout", .kind = TK_OPT_U64, .dest = &o.holdout, .value = "K", .min = 2,
         .max = 1000000, .help = "games whose number is a multiple of K are held out"},
        {.name = "seed", .kind = TK_OPT_U64, .dest = &o.seed, .value = "S",
         .help = "the Monte Carlo exchange's seed"},
        {.name = "playouts", .kind = TK_OPT_U64, .dest = &o.playouts, .value = "P",
         .max = DMC_MAX_PLAYOUTS, .help = "its playouts (0: skip it)"},
        {.name = "mcl-weights", .kind = TK_OPT_STRING, .dest = &o.mcl, .value = "PATH",
         .help = "daifugo_mcl's AP weights"},
        {.name = "time", .kind = TK_OPT_FLAG, .dest = &o.time, .help = "time dsx_choose"},
        {.name = NULL},
    };
    int rc = parse(NAME " eval", table, argc - 1, argv + 1);
    if (rc) return rc == 1 ? 0 : 2;
    if (!o.in) return missing(NAME " eval", "--in");
    if (!o.weights) return missing(NAME " eval", "--weights");
    return eval(&o);
  }
  if (cmd[0]) fprintf(stderr, NAME ": unknown command '%s'\n", cmd);
  usage(stderr);
  return 2;
}
