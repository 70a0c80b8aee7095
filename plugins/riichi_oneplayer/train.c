/* plugins/riichi_oneplayer/train.c — `riichi_oneplayer_train`: trains the one-player policy's
 * weights by averaged perceptron on a teacher's riichi decisions (taikai run --records), and
 * reports the held-out agreement as paper 000's table 4 (discards, calls, passes).
 *
 *   riichi_oneplayer_train RECORDS... --teacher LABEL[,LABEL...] --out FILE [--epochs N]
 *                          [--holdout M] [--seed S] [--train-units U] [--filter paper|none]
 *
 * Examples. Every decision of an agent whose label is listed becomes a ranking example over the
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
 * Training. The units whose wall % M == M - 1 are held out (M = 10: a tenth); the others are
 * visited in an order shuffled from S in each epoch. At each step the candidate the current
 * weights rank first (ties: the first candidate, as rop_decide plays) is compared with the
 * teacher's; when they differ the weights move by +1 on the teacher's features and -1 on the
 * other's. The averaged weights w - u / c, where u sums each update times its step number c, are
 * the average over every step, at a cost proportional to the active features of the two
 * candidates per update. The features of every candidate are computed once and kept. The
 * weights written are the nonzero averaged ones (weights_io.h); the same command reproduces them
 * byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "policy.h"
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

/* The legal index of action `a` in l (a discard by its tile alone), or -1. */
static int legal_index(const tk_riichi_legal *l, const tk_riichi_action *a) {
  for (int i = 0; i < l->n; i++) {
    const tk_riichi_action *b = &l->a[i];
    if (b->type != a->type || b->tile != a->tile) continue;
    if ((a->type == TK_RIICHI_CHI || a->type == TK_RIICHI_PON) &&
        (b->consumed[0] != a->consumed[0] || b->consumed[1] != a->consumed[1]))
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
  fprintf(f, "usage: riichi_oneplayer_train RECORDS... --teacher LABEL[,LABEL...] --out FILE "
             "[--epochs N] [--holdout M] [--seed S] [--train-units U] [--filter paper|none]\n");
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

/* --filter paper: paper 000's data filter (section 4; riichi-agents.md 2.2) on top of the one
 * above. Only the hands of (a) a player who won while no seat was in riichi, or (b) the first
 * player to declare riichi are kept, and of those only the decisions before that player's
 * riichi. A hand of a unit is a run of decisions with the same (round, honba). */
static int paper_filter;
enum { MAX_HANDS = 256, NONE = 0xffffffffu };

typedef struct hand_keep {
  uint8_t keep;          /* seats whose decisions are kept */
  uint8_t first_riichi;  /* seat, or 0xff */
  uint32_t riichi_at[4]; /* index of each seat's riichi decision in the unit, or NONE */
} hand_keep;

/* The hand index of each decision (hand_of[i]) and what to keep of each hand. Returns the
 * number of hands (at most MAX_HANDS; later hands share the last entry, never kept). */
static int paper_hands(const tk_records *r, const tk_records_unit *u, uint16_t *hand_of,
                       hand_keep *hk) {
  int nh = 0, key = -1;
  for (uint32_t i = 0; i < u->ndecisions; i++) {
    tk_records_decision d;
    tk_records_decision_at(r, u, i, &d);
    tk_riichi_view v;
    tk_riichi_action a;
    memcpy(&v, d.view, sizeof v);
    memcpy(&a, d.action, sizeof a);
    int k = v.round << 8 | v.honba;
    if (k != key && nh < MAX_HANDS) {
      key = k;
      hand_keep *n = &hk[nh++];
      n->keep = 0;
      n->first_riichi = 0xff;
      for (int s = 0; s < 4; s++) n->riichi_at[s] = NONE;
    }
    hand_of[i] = (uint16_t)(nh - 1);
    hand_keep *h = &hk[nh - 1];
    int seat = (int)(d.seat & 3);
    if (a.type == TK_RIICHI_RIICHI && h->riichi_at[seat] == NONE) {
      h->riichi_at[seat] = i;
      if (h->first_riichi == 0xff) h->first_riichi = (uint8_t)seat;
    }
    if (a.type == TK_RIICHI_TSUMO || a.type == TK_RIICHI_RON) {
      int riichi = 0;
      for (int s = 0; s < 4; s++) riichi |= v.riichi[s] != 0;
      if (!riichi) h->keep |= (uint8_t)(1u << seat);
    }
  }
  for (int i = 0; i < nh; i++)
    if (hk[i].first_riichi != 0xff) hk[i].keep |= (uint8_t)(1u << hk[i].first_riichi);
  if (nh == MAX_HANDS) hk[nh - 1].keep = 0;
  return nh;
}

/* Training units read so far, and the most to keep (--train-units; 0 = all): a learning curve
 * trains on the first U training units of the same files, against the same held-out set. */
static unsigned long long train_units, max_train_units;

static int read_file(const char *in, const char *teacher, long holdout, pool *p, set *train,
                     set *held, counts *k) {
  tk_error err;
  tk_error_clear(&err);
  tk_records *r;
  if (tk_records_open(in, &r, &err)) {
    fprintf(stderr, "riichi_oneplayer_train: %s\n", err.msg);
    return 2;
  }
  if (tk_records_expect(r, "riichi", TK_RIICHI_TYPES_VERSION, sizeof(tk_riichi_view),
                        sizeof(tk_riichi_legal), sizeof(tk_riichi_action), &err)) {
    fprintf(stderr, "riichi_oneplayer_train: %s\n", err.msg);
    tk_records_close(r);
    return 2;
  }
  const tk_records_header *h = tk_records_header_of(r);
  uint8_t who[TK_RECORDS_MAX_AGENTS] = {0};
  int any = 0;
  for (uint32_t i = 0; i < h->nagents; i++) any |= who[i] = (uint8_t)listed(teacher, h->agent[i]);
  if (!any) {
    fprintf(stderr, "riichi_oneplayer_train: %s: no agent labelled '%s' (agents:", in, teacher);
    for (uint32_t i = 0; i < h->nagents; i++) fprintf(stderr, " %s", h->agent[i]);
    fprintf(stderr, ")\n");
    tk_records_close(r);
    return 2;
  }
  tk_records_unit u;
  int rc;
  static uint16_t hand_of[1 << 16];
  static hand_keep hk[MAX_HANDS];
  while ((rc = tk_records_next(r, &u, &err)) == 1) {
    set *s = u.wall % (uint64_t)holdout == (uint64_t)holdout - 1 ? held : train;
    if (s == train && max_train_units && train_units++ >= max_train_units) continue;
    if (paper_filter && u.ndecisions > (1u << 16)) {
      fprintf(stderr, "riichi_oneplayer_train: %s: unit %llu: %u decisions, more than --filter "
              "paper handles (65536)\n", in, (unsigned long long)u.unit, u.ndecisions);
      tk_records_close(r);
      return 2;
    }
    if (paper_filter) paper_hands(r, &u, hand_of, hk);
    for (uint32_t i = 0; i < u.ndecisions; i++) {
      tk_records_decision d;
      tk_records_decision_at(r, &u, i, &d);
      if (d.agent >= h->nagents || !who[d.agent]) continue;
      if (paper_filter) {
        const hand_keep *hh = &hk[hand_of[i]];
        int seat = (int)(d.seat & 3);
        if (!(hh->keep >> seat & 1) || (hh->riichi_at[seat] != NONE && i > hh->riichi_at[seat])) {
          k->filtered++;
          continue;
        }
      }
      tk_riichi_view v;
      tk_riichi_legal l;
      tk_riichi_action act, nx;
      memcpy(&v, d.view, sizeof v);
      memcpy(&l, d.legal, sizeof l);
      memcpy(&act, d.action, sizeof act);
      /* a chi / pon's discard: the seat's next decision, if it is the discard after that call
       * (another seat's pon or ron may have taken the tile instead) */
      const tk_riichi_action *next = NULL;
      if (v.phase == TK_RIICHI_PHASE_REACT && (act.type == TK_RIICHI_CHI || act.type == TK_RIICHI_PON))
        for (uint32_t j = i + 1; j < u.ndecisions; j++) {
          tk_records_decision e;
          tk_records_decision_at(r, &u, j, &e);
          if (e.seat != d.seat) continue;
          tk_riichi_view nv;
          memcpy(&nv, e.view, sizeof nv);
          memcpy(&nx, e.action, sizeof nx);
          if (nv.phase == TK_RIICHI_PHASE_SELF && nv.after_call) next = &nx;
          break;
        }
      if (l.n > TK_RIICHI_MAX_LEGAL || v.nhand > 14) {
        fprintf(stderr, "riichi_oneplayer_train: %s: unit %llu: a malformed decision (legal.n %u, "
                "view.nhand %u)\n", in, (unsigned long long)u.unit, l.n, v.nhand);
        tk_records_close(r);
        return 2;
      }
      if (add_decision(in, u.unit, &v, &l, &act, next, p, s, k)) {
        tk_records_close(r);
        return 2;
      }
    }
  }
  tk_records_close(r);
  if (rc < 0) {
    fprintf(stderr, "riichi_oneplayer_train: %s\n", err.msg);
    return 2;
  }
  return 0;
}

static void free_all(pool *p, set *train, set *held) {
  free(p->feat), free(p->cand), free(p->act), free(train->x), free(held->x);
}

int main(int argc, char **argv) {
  const char *in[64], *teacher = NULL, *out = NULL;
  int nin = 0;
  long epochs = 5, holdout = 10;
  unsigned long long seed = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char *end = NULL;
    if (!strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--teacher") && v) {
      teacher = v, i++;
    } else if (!strcmp(a, "--out") && v) {
      out = v, i++;
    } else if (!strcmp(a, "--epochs") && v && (epochs = strtol(v, &end, 10)) > 0 && !*end) {
      i++;
    } else if (!strcmp(a, "--holdout") && v && (holdout = strtol(v, &end, 10)) > 1 && !*end) {
      i++;
    } else if (!strcmp(a, "--filter") && v && (!strcmp(v, "paper") || !strcmp(v, "none"))) {
      paper_filter = !strcmp(v, "paper"), i++;
    } else if (!strcmp(a, "--train-units") && v && v[0] != '-' &&
               ((max_train_units = strtoull(v, &end, 10)), !*end) && max_train_units > 0) {
      i++;
    } else if (!strcmp(a, "--seed") && v && v[0] != '-' && ((seed = strtoull(v, &end, 10)), !*end)) {
      i++;
    } else if (a[0] != '-' && nin < 64) {
      in[nin++] = a;
    } else {
      fprintf(stderr, "riichi_oneplayer_train: bad argument '%s'%s%s\n", a, v ? " " : "",
              v ? v : "");
      usage(stderr);
      return 2;
    }
  }
  if (!nin || !teacher || !out) {
    usage(stderr);
    return 2;
  }
  clock_t t0 = clock();
  pool p = {0};
  set train = {0}, held = {0};
  counts k = {0};
  for (int i = 0; i < nin; i++) {
    int rc = read_file(in[i], teacher, holdout, &p, &train, &held, &k);
    if (rc) {
      free_all(&p, &train, &held);
      return rc;
    }
  }
  if (!train.n || !held.n) {
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
  printf("%zu training examples, %zu held out (walls %% %ld == %ld); %zu candidates, %.1f "
         "active features each\n", train.n, held.n, holdout, holdout - 1, p.ncand,
         (double)p.nfeat / (double)p.ncand);
  double *w = calloc(ROF_FEATURES, sizeof *w), *u = calloc(ROF_FEATURES, sizeof *u);
  double *avg = calloc(ROF_FEATURES, sizeof *avg);
  size_t *order = malloc(train.n * sizeof *order);
  if (!w || !u || !avg || !order) {
    fprintf(stderr, "riichi_oneplayer_train: out of memory\n");
    free(w), free(u), free(avg), free(order);
    free_all(&p, &train, &held);
    return 1;
  }
  for (size_t i = 0; i < train.n; i++) order[i] = i;
  size_t ag[NCAT], tot[NCAT], agt[NCAT], tott[NCAT];
  agreement(w, &p, &held, ag, tot, NULL);
  printf("baseline, zero weights (the first candidate: the lowest tile, pass): held out: discards "
         "%.2f %%, calls %.2f %%, passes %.2f %%\n", pct(ag[0], tot[0]), pct(ag[1], tot[1]),
         pct(ag[2], tot[2]));
  tk_rng rng;
  tk_rng_seed(&rng, seed);
  double c = 1;
  size_t exact = 0;
  for (long ep = 1; ep <= epochs; ep++) {
    for (size_t i = train.n - 1; i > 0; i--) { /* Fisher-Yates */
      size_t j = (size_t)tk_rng_below(&rng, (uint32_t)(i + 1));
      size_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    size_t mistakes = 0;
    for (size_t i = 0; i < train.n; i++, c++) {
      const example *e = &train.x[order[i]];
      int guess = best_of(w, &p, e);
      if (guess == e->teacher) continue;
      mistakes++;
      uint64_t ct = e->cand + e->teacher, cg = e->cand + (uint64_t)guess;
      for (uint64_t j = p.cand[ct]; j < p.cand[ct + 1]; j++) w[p.feat[j]] += 1, u[p.feat[j]] += c;
      for (uint64_t j = p.cand[cg]; j < p.cand[cg + 1]; j++) w[p.feat[j]] -= 1, u[p.feat[j]] -= c;
    }
    for (size_t f = 0; f < ROF_FEATURES; f++) avg[f] = w[f] - u[f] / c;
    agreement(avg, &p, &held, ag, tot, &exact);
    agreement(avg, &p, &train, agt, tott, NULL);
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
    free(w), free(u), free(avg), free(order);
    free_all(&p, &train, &held);
    return 1;
  }
  printf("held-out agreement with '%s' (paper 000 table 4):\n", teacher);
  for (int i = 0; i < NCAT; i++)
    printf("  %-8s %6.2f %%  (%zu of %zu)\n", CAT_NAME[i], pct(ag[i], tot[i]), ag[i], tot[i]);
  printf("  (calls with the same discard too: %.2f %%, %zu of %zu)\n", pct(exact, tot[CAT_CALL]),
         exact, tot[CAT_CALL]);
  printf("wrote %s: %zu nonzero weights, sha256 %s (%.1f s CPU)\n", out, nnz, hex,
         (double)(clock() - t0) / CLOCKS_PER_SEC);
  free(w), free(u), free(avg), free(order);
  free_all(&p, &train, &held);
  return 0;
}
