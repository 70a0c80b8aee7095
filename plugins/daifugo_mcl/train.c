/* plugins/daifugo_mcl/train.c — `daifugo_mcl_train`: learns daifugo_mcl's ranking h (AP or NN,
 * policy.h) from a teacher's play decisions in decision-record files (taikai run --records), as
 * paper 001 §3 and §5.1 do, and prints the agreement with the teacher on held-out positions
 * every `--every` training positions (the shape of the paper's tables 3 and 4).
 *
 *   daifugo_mcl_train RECORDS... --learner ap|nn --out FILE [--teacher LABEL]... [--seed S]
 *       [--runs R] [--train N] [--held M] [--every K] [--hidden H] [--rate ETA]
 *       [--one-unit-per-wall]
 *
 * Positions kept: the play decisions of the teacher agents (every agent unless --teacher names
 * some) where more than the pass is legal, no legal play empties the hand, and the teacher did
 * not pass on a new table. --one-unit-per-wall keeps the first unit of each wall only: a
 * duplicate run of a deterministic teacher plays the same games in every unit of a wall.
 * Run r (0 .. R-1) shuffles the kept positions with seed S + r, trains on the first N (one
 * pass, in that order) and holds out the next M. Candidates of a position are its legal moves,
 * the pass left out on a new table; a position gives (candidates - 1) pairs (p a move not
 * played, q the teacher's).
 * - AP: ω starts at 0; for each pair, if h(q) <= h(p) then ω += f(q) - f(p) over the crossed
 *   units (the printed rule with its sign corrected, docs/daifugo-agents.md); the snapshot is
 *   the average of ω over every pair so far (ω^0 included).
 * - NN: weights drawn uniformly from [-0.1, 0.1] with the run's seed; for each pair, one step
 *   of gradient descent with rate ETA on E = σ(h(p) - h(q)) by backpropagation.
 * Agreement: the share of held-out positions whose teacher move has the highest h, a tie at the
 * top counting 1/(tied moves) (the expected agreement of the policy's random tie-break).
 * The weights written are run 0's snapshot of highest held-out agreement (the earliest of
 * equals): the same command writes the same bytes, whatever R. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features.h"
#include "opts.h"
#include "tools.h"
#include "policy.h"
#include "taikai/daifugo.h"
#include "taikai/records.h"
#include "taikai/rng.h"
#include "taikai/weights.h"

#define MAX_FILES 64
#define MAX_TEACHERS 16
#define MAX_SNAPS 1024

/* Every kept position's candidates, each a feature list (ascending; f[0] = the bias, then the
 * B' units 1..35, then the C' units) in one pool. */
typedef struct store {
  uint8_t *pool;
  size_t npool, cappool;
  uint32_t *moff;   /* per candidate: offset of its list in pool */
  uint8_t *mlen;    /* per candidate: list length */
  size_t nm, capm;
  uint32_t *first;  /* per position: its first candidate */
  uint16_t *n;      /* per position: candidates */
  uint16_t *teacher;/* per position: the teacher's candidate */
  size_t np, capp;
} store;

static int grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap : 1024;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * size);
  if (!q) return -1;
  *p = q;
  *cap = c;
  return 0;
}

static void store_free(store *s) {
  free(s->pool);
  free(s->moff);
  free(s->mlen);
  free(s->first);
  free(s->n);
  free(s->teacher);
}

/* Adds a position; returns 0, or -1 when out of memory. */
static int store_add(store *s, const dmcl_pos *p, const tk_daifugo_move *c, int n, int teacher) {
  /* the arrays of one count share its capacity: grow each from the same old value */
  size_t cp = s->capp, cm = s->capm;
  if (grow((void **)&s->first, &cp, s->np + 1, sizeof *s->first)) return -1;
  cp = s->capp;
  if (grow((void **)&s->n, &cp, s->np + 1, sizeof *s->n)) return -1;
  if (grow((void **)&s->teacher, &s->capp, s->np + 1, sizeof *s->teacher)) return -1;
  if (grow((void **)&s->moff, &cm, s->nm + (size_t)n, sizeof *s->moff)) return -1;
  if (grow((void **)&s->mlen, &s->capm, s->nm + (size_t)n, sizeof *s->mlen)) return -1;
  if (grow((void **)&s->pool, &s->cappool, s->npool + (size_t)n * DMCL_MAX_ACTIVE, 1)) return -1;
  s->first[s->np] = (uint32_t)s->nm;
  s->n[s->np] = (uint16_t)n;
  s->teacher[s->np] = (uint16_t)teacher;
  s->np++;
  for (int i = 0; i < n; i++) {
    int nf = dmcl_features(p, &c[i], s->pool + s->npool);
    s->moff[s->nm] = (uint32_t)s->npool;
    s->mlen[s->nm] = (uint8_t)nf;
    s->nm++;
    s->npool += (size_t)nf;
  }
  return 0;
}

/* ---- the learners over feature lists */

typedef struct learner {
  int kind, hidden;
  double rate;
  size_t count;       /* weights */
  double *w, *acc;    /* AP: current and the averaging sum; NN: w only */
  double c;           /* AP: steps + 1 */
  double *snap;       /* the snapshot being evaluated */
  double *g;          /* NN scratch: hidden activations */
} learner;

/* The number of leading B' entries (after the bias) of a list. */
static int nbp(const uint8_t *f, int nf) {
  int k = 1;
  while (k < nf && f[k] <= DMCL_BP) k++;
  return k - 1;
}

static double h_list(const learner *L, const double *w, const uint8_t *f, int nf, double *g) {
  if (L->kind == DMCL_AP) {
    int nb = nbp(f, nf);
    double h = 0;
    for (int i = 1; i <= nb; i++) {
      const double *row = w + (f[i] - 1) * DMCL_CP;
      for (int j = nb + 1; j < nf; j++) h += row[f[j] - 1 - DMCL_BP];
    }
    return h;
  }
  double out = 0;
  for (int j = 0; j < L->hidden; j++) {
    const double *row = w + (size_t)j * DMCL_NN_ROW;
    double z = 0;
    for (int i = 0; i < nf; i++) z += row[f[i]];
    double a = 1 / (1 + exp(-z));
    if (g) g[j] = a;
    out += row[DMCL_FEATURES] * a;
  }
  return 1 / (1 + exp(-out));
}

/* AP: w += sign * crossed units of list f, acc += c * the same. */
static void ap_add(learner *L, const uint8_t *f, int nf, double sign) {
  int nb = nbp(f, nf);
  for (int i = 1; i <= nb; i++) {
    size_t row = (size_t)(f[i] - 1) * DMCL_CP;
    for (int j = nb + 1; j < nf; j++) {
      size_t k = row + (f[j] - 1 - DMCL_BP);
      L->w[k] += sign;
      L->acc[k] += sign * L->c;
    }
  }
}

/* NN: one backpropagation step on h(list) with d E / d h = dh. */
static void nn_step(learner *L, const uint8_t *f, int nf, double h, const double *g, double dh) {
  double dout = dh * h * (1 - h);
  for (int j = 0; j < L->hidden; j++) {
    double *row = L->w + (size_t)j * DMCL_NN_ROW;
    double dz = dout * row[DMCL_FEATURES] * g[j] * (1 - g[j]);
    row[DMCL_FEATURES] -= L->rate * dout * g[j];
    for (int i = 0; i < nf; i++) row[f[i]] -= L->rate * dz;
  }
}

static void train_position(learner *L, const store *s, size_t pos) {
  size_t first = s->first[pos];
  int n = s->n[pos], t = s->teacher[pos];
  const uint8_t *fq = s->pool + s->moff[first + t];
  int nq = s->mlen[first + t];
  double gq[DMCL_MAX_HIDDEN], gp[DMCL_MAX_HIDDEN];
  for (int i = 0; i < n; i++) {
    if (i == t) continue;
    const uint8_t *fp = s->pool + s->moff[first + i];
    int np = s->mlen[first + i];
    if (L->kind == DMCL_AP) {
      if (h_list(L, L->w, fq, nq, NULL) <= h_list(L, L->w, fp, np, NULL)) {
        ap_add(L, fq, nq, +1);
        ap_add(L, fp, np, -1);
      }
      L->c += 1;
    } else {
      double hq = h_list(L, L->w, fq, nq, gq), hp = h_list(L, L->w, fp, np, gp);
      double sd = 1 / (1 + exp(-(hp - hq)));
      double dd = sd * (1 - sd); /* dE/d(hp - hq) */
      nn_step(L, fp, np, hp, gp, dd);
      nn_step(L, fq, nq, hq, gq, -dd);
    }
  }
}

/* The snapshot of the current weights into L->snap. */
static void snapshot(learner *L) {
  if (L->kind == DMCL_AP)
    for (size_t k = 0; k < L->count; k++) L->snap[k] = L->w[k] - L->acc[k] / L->c;
  else
    memcpy(L->snap, L->w, L->count * sizeof *L->snap);
}

static double agreement(const learner *L, const double *w, const store *s, const size_t *idx,
                        size_t n) {
  double agree = 0;
  for (size_t k = 0; k < n; k++) {
    size_t pos = idx[k], first = s->first[pos];
    int m = s->n[pos], t = s->teacher[pos];
    double top = -INFINITY, ht = 0;
    int ties = 0;
    for (int i = 0; i < m; i++) {
      double h = h_list(L, w, s->pool + s->moff[first + i], s->mlen[first + i], NULL);
      if (i == t) ht = h;
      if (h > top) top = h, ties = 1;
      else if (h == top) ties++;
    }
    if (ht == top) agree += 1.0 / ties;
  }
  return n ? agree / (double)n : 0;
}

/* The held-out agreement of weights w split by the teacher's move: its play type (pass, single,
 * group, sequence: the B' unit DMCL_B_TYPE + t) crossed with a new table or not (the C' unit
 * DMCL_C_NEW). agree[k] and count[k] for k = 2 * type + (new table). */
static void agreement_by_kind(const learner *L, const double *w, const store *s,
                              const size_t *idx, size_t n, double agree[8], long count[8]) {
  for (int k = 0; k < 8; k++) agree[k] = 0, count[k] = 0;
  for (size_t k = 0; k < n; k++) {
    size_t pos = idx[k], first = s->first[pos];
    int t = s->teacher[pos];
    const uint8_t *ft = s->pool + s->moff[first + t];
    int nft = s->mlen[first + t], type = 0, lead = 0;
    for (int i = 0; i < nft; i++) {
      if (ft[i] >= 1 + DMCL_B_TYPE && ft[i] < 1 + DMCL_B_TYPE + 4) type = ft[i] - 1 - DMCL_B_TYPE;
      if (ft[i] == 36 + DMCL_C_NEW + 1) lead = 1;
    }
    size_t one = pos;
    double a = agreement(L, w, s, &one, 1);
    agree[2 * type + lead] += a;
    count[2 * type + lead]++;
  }
}

/* ---- reading records */

typedef struct counts {
  size_t decisions, kept, only_pass, empties, lead_pass;
} counts;

typedef struct reading {
  store *s;
  counts *k;
} reading;

static int on_play(void *ctx, const char *path, uint64_t unit, const tk_daifugo_view *v,
                   const tk_daifugo_legal *l, int why, int first, int teacher) {
  reading *rd = ctx;
  counts *k = rd->k;
  k->decisions++;
  dmcl_pos p;
  if (dmcl_pos_of_view(v, &p) || l->n == 0) {
    fprintf(stderr, "daifugo_mcl_train: %s: unit %llu: a play decision of player %u whose view "
            "is not its turn (turn %u)\n", path, (unsigned long long)unit, v->player, v->turn);
    return 1;
  }
  if (why != DMCL_KEEP) {
    if (why == DMCL_SKIP_ONLY_PASS) k->only_pass++;
    else if (why == DMCL_SKIP_EMPTIES) k->empties++;
    else k->lead_pass++;
    return 0;
  }
  if (store_add(rd->s, &p, l->a + first, l->n - first, teacher)) {
    fprintf(stderr, "daifugo_mcl_train: out of memory\n");
    return 1;
  }
  k->kept++;
  return 0;
}

static int read_file(const char *path, const char *const *teachers, int nteachers,
                     int one_per_wall, store *s, counts *k) {
  reading rd = {s, k};
  return dmcl_each_play("daifugo_mcl_train", path, teachers, nteachers, one_per_wall, on_play,
                        &rd);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: daifugo_mcl_train RECORDS... --learner ap|nn --out FILE [--teacher LABEL]...\n"
          "         [--seed S] [--runs R] [--train N] [--held M] [--every K] [--hidden H]\n"
          "         [--rate ETA] [--one-unit-per-wall]\n"
          "Learns daifugo_mcl's ranking from the play decisions of the teacher agents (all agents\n"
          "unless --teacher names some) in records files of taikai run --records. Defaults:\n"
          "seed 1, 1 run, train 50000, held 10000, every 1000, hidden 16, rate 0.5 (NN only).\n");
}

/* The command line. */
typedef struct config {
  const char *files[MAX_FILES], *teachers[MAX_TEACHERS], *out;
  int nfiles, nteachers, one_per_wall;
  int nn; /* --learner nn (else ap) */
  long runs, ntrain, nheld, every, hidden;
  unsigned long long seed;
  double rate;
} config;

/* Parses the command line into c: 0, 1 after --help (printed), 2 on a usage error (printed). */
static int parse_config(int argc, char **argv, config *c) {
  static const char *const LEARNERS[] = {"ap", "nn", NULL};
  uint64_t runs = 1, ntrain = 50000, nheld = 10000, every = 1000, hidden = DMCL_DEFAULT_HIDDEN,
           seed = 1;
  int have_learner = 0;
  dmcl_list teachers = {c->teachers, 0, MAX_TEACHERS};
  c->rate = 0.5;
  const tk_opt opts[] = {
      {.name = "learner", .kind = TK_OPT_CHOICE, .dest = &c->nn, .choices = LEARNERS,
       .given = &have_learner, .value = "ap|nn", .help = "the averaged perceptron or the NN"},
      {.name = "out", .kind = TK_OPT_STRING, .dest = &c->out, .value = "FILE",
       .help = "the weights file written"},
      {.name = "teacher", .kind = TK_OPT_CALL, .dest = &teachers, .call = dmcl_append_opt,
       .value = "LABEL", .help = "learn from this agent (repeatable; default all)"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S", .help = "run 1's seed"},
      {.name = "runs", .kind = TK_OPT_U64, .dest = &runs, .value = "R", .min = 1, .max = 1000,
       .help = "runs, seeds S..S+R-1"},
      {.name = "train", .kind = TK_OPT_U64, .dest = &ntrain, .value = "N", .min = 1,
       .max = 10000000, .help = "training positions"},
      {.name = "held", .kind = TK_OPT_U64, .dest = &nheld, .value = "M", .min = 1,
       .max = 10000000, .help = "held-out positions"},
      {.name = "every", .kind = TK_OPT_U64, .dest = &every, .value = "K", .min = 1,
       .max = 10000000, .help = "positions between snapshots"},
      {.name = "hidden", .kind = TK_OPT_U64, .dest = &hidden, .value = "H", .min = 1,
       .max = DMCL_MAX_HIDDEN, .help = "the NN's hidden units"},
      {.name = "rate", .kind = TK_OPT_DOUBLE, .dest = &c->rate, .value = "ETA", .lo = 0,
       .hi = 1e6, .open = 1, .help = "the NN's learning rate"},
      {.name = "one-unit-per-wall", .kind = TK_OPT_FLAG, .dest = &c->one_per_wall,
       .help = "the first unit of each wall only"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog("daifugo_mcl_train", opts, argc, argv, c->files, MAX_FILES,
                               &c->nfiles);
  if (!prc && c->nfiles > MAX_FILES) {
    fprintf(stderr, "daifugo_mcl_train: at most %d records files\n", MAX_FILES);
    prc = 2;
  }
  if (prc == 1) usage(stdout);
  if (prc == 2) usage(stderr);
  if (prc) return prc;
  c->nteachers = teachers.n;
  c->runs = (long)runs, c->ntrain = (long)ntrain, c->nheld = (long)nheld;
  c->every = (long)every, c->hidden = (long)hidden, c->seed = seed;
  if (!c->nfiles || !c->out || !have_learner) {
    usage(stderr);
    return 2;
  }
  if (c->ntrain / c->every > MAX_SNAPS) {
    fprintf(stderr, "daifugo_mcl_train: --train %ld / --every %ld gives more than %d snapshots\n",
            c->ntrain, c->every, MAX_SNAPS);
    return 2;
  }
  return 0;
}

/* What the runs give: the held-out agreement of each run's snapshots and run 1's best. */
typedef struct results {
  long nsnap;         /* snapshots per run */
  double *agr;        /* agr[run * nsnap + j]: run's agreement at snapshot j */
  long *at;           /* at[j]: the positions trained at snapshot j */
  double *best;       /* run 1's best snapshot (L.count weights) */
  double best_agr;    /* its agreement */
  long best_at;       /* its positions */
} results;

/* Trains c->runs learners from their seeds on s's positions (idx: s->np entries, reshuffled per
 * run), filling res; one line per run on stderr. */
static void train_runs(const config *c, const store *s, learner *L, size_t *idx, results *res) {
  res->best_agr = -1;
  res->best_at = 0;
  long nsnap = res->nsnap;
  for (long run = 0; run < c->runs; run++) {
    tk_rng rng;
    dmcl_shuffle(idx, s->np, c->seed + (unsigned long long)run, &rng);
    memset(L->acc, 0, L->count * sizeof *L->acc);
    L->c = 1;
    if (L->kind == DMCL_AP) memset(L->w, 0, L->count * sizeof *L->w);
    else
      for (size_t i = 0; i < L->count; i++) L->w[i] = 0.2 * tk_rng_double(&rng) - 0.1;
    const size_t *held = idx + c->ntrain;
    long snap = 0;
    for (long i = 0; i < c->ntrain; i++) {
      train_position(L, s, idx[i]);
      if ((i + 1) % c->every == 0 || i + 1 == c->ntrain) {
        snapshot(L);
        double a = agreement(L, L->snap, s, held, (size_t)c->nheld);
        res->agr[run * nsnap + snap] = a;
        res->at[snap++] = i + 1;
        if (run == 0 && a > res->best_agr) {
          res->best_agr = a;
          res->best_at = i + 1;
          memcpy(res->best, L->snap, L->count * sizeof *res->best);
        }
      }
    }
    fprintf(stderr, "run %ld of %ld (seed %llu): final held-out agreement %.4f\n", run + 1,
            c->runs, c->seed + (unsigned long long)run, res->agr[run * nsnap + nsnap - 1]);
  }
}

/* Prints the learning curve (mean, sd, min and max over runs at each snapshot), each run's best,
 * and run 1's best snapshot's agreement by the teacher's kind of move. idx is reshuffled. */
static void print_results(const config *c, const learner *L, const store *s, size_t *idx,
                          const results *res) {
  long nsnap = res->nsnap, runs = c->runs;
  const double *agr = res->agr;
  printf("%s, %ld training and %ld held-out positions, seeds %llu..%llu\n",
         L->kind == DMCL_AP ? "AP" : "NN", c->ntrain, c->nheld, c->seed,
         c->seed + (unsigned long long)runs - 1);
  if (L->kind == DMCL_NN)
    printf("NN: hidden %ld, rate %g, init uniform [-0.1, 0.1]\n", c->hidden, c->rate);
  printf("%10s %8s %8s %8s %8s\n", "positions", "mean", "sd", "min", "max");
  for (long j = 0; j < nsnap; j++) {
    double sum = 0, sq = 0, lo = 1, hi = 0;
    for (long run = 0; run < runs; run++) {
      double a = agr[run * nsnap + j];
      sum += a, sq += a * a;
      if (a < lo) lo = a;
      if (a > hi) hi = a;
    }
    double mean = sum / (double)runs;
    double sd = runs > 1 ? sqrt(fmax(0, (sq - sum * mean) / (double)(runs - 1))) : 0;
    printf("%10ld %8.4f %8.4f %8.4f %8.4f\n", res->at[j], mean, sd, lo, hi);
  }
  /* the best of each run, as the paper's Table 4 */
  for (long run = 0; run < runs; run++) {
    long bj = 0;
    for (long j = 1; j < nsnap; j++)
      if (agr[run * nsnap + j] > agr[run * nsnap + bj]) bj = j;
    printf("run %ld: best %.4f at %ld\n", run + 1, agr[run * nsnap + bj], res->at[bj]);
  }
  double ag[8];
  long cn[8];
  tk_rng rng; /* run 1's order again: the runs left run R's in idx */
  dmcl_shuffle(idx, s->np, c->seed, &rng);
  agreement_by_kind(L, res->best, s, idx + c->ntrain, (size_t)c->nheld, ag, cn);
  static const char *const type_name[4] = {"pass", "single", "group", "sequence"};
  printf("run 1's written snapshot on its held-out positions, by the teacher's move:\n");
  printf("%-10s %-14s %9s %8s\n", "move", "table", "positions", "agree");
  for (int k = 0; k < 8; k++)
    if (cn[k])
      printf("%-10s %-14s %9ld %8.4f\n", type_name[k / 2], k % 2 ? "new (lead)" : "to follow",
             cn[k], ag[k] / (double)cn[k]);
}

/* Writes run 1's best snapshot to c->out. Returns 0, or 1 (printed). */
static int save_best(const config *c, const learner *L, const results *res) {
  tk_weights tw;
  memset(&tw, 0, sizeof tw);
  snprintf(tw.model, sizeof tw.model, "%s", L->kind == DMCL_AP ? DMCL_MODEL_AP : DMCL_MODEL_NN);
  tw.feature_version = DMCL_FEATURE_VERSION;
  tw.ndims = 2;
  tw.shape[0] = L->kind == DMCL_AP ? DMCL_BP : (uint32_t)c->hidden;
  tw.shape[1] = L->kind == DMCL_AP ? DMCL_CP : DMCL_NN_ROW;
  tw.count = L->count;
  tw.values = res->best;
  tk_error err;
  tk_error_clear(&err);
  if (tk_weights_save(c->out, &tw, &err)) {
    fprintf(stderr, "daifugo_mcl_train: %s\n", err.msg);
    return 1;
  }
  printf("wrote %s: run 1's snapshot at %ld positions, held-out agreement %.4f\n", c->out,
         res->best_at, res->best_agr);
  return 0;
}

int main(int argc, char **argv) {
  static config c;
  int prc = parse_config(argc, argv, &c);
  if (prc) return prc == 1 ? 0 : 2;
  store s = {0};
  counts k = {0};
  for (int i = 0; i < c.nfiles; i++) {
    int rc = read_file(c.files[i], c.teachers, c.nteachers, c.one_per_wall, &s, &k);
    if (rc) {
      store_free(&s);
      return rc;
    }
  }
  printf("%zu play decisions: %zu kept, %zu with only the pass legal, %zu where a play empties "
         "the hand, %zu passes on a new table\n", k.decisions, k.kept, k.only_pass, k.empties,
         k.lead_pass);
  if (s.np < (size_t)(c.ntrain + c.nheld)) {
    fprintf(stderr, "daifugo_mcl_train: %zu positions kept; --train %ld and --held %ld need %ld\n",
            s.np, c.ntrain, c.nheld, c.ntrain + c.nheld);
    store_free(&s);
    return 2;
  }
  learner L = {0};
  L.kind = c.nn ? DMCL_NN : DMCL_AP;
  L.hidden = L.kind == DMCL_NN ? (int)c.hidden : 0;
  L.rate = c.rate;
  L.count = L.kind == DMCL_AP ? DMCL_CROSSED : (size_t)c.hidden * DMCL_NN_ROW;
  L.w = malloc(L.count * sizeof *L.w);
  L.acc = malloc(L.count * sizeof *L.acc);
  L.snap = malloc(L.count * sizeof *L.snap);
  results res = {.nsnap = (c.ntrain + c.every - 1) / c.every};
  res.best = malloc(L.count * sizeof *res.best);
  size_t *idx = malloc(s.np * sizeof *idx);
  res.agr = malloc((size_t)(c.runs * res.nsnap) * sizeof *res.agr);
  res.at = malloc((size_t)res.nsnap * sizeof *res.at);
  if (!L.w || !L.acc || !L.snap || !res.best || !idx || !res.agr || !res.at) {
    fprintf(stderr, "daifugo_mcl_train: out of memory\n");
    return 1;
  }
  train_runs(&c, &s, &L, idx, &res);
  print_results(&c, &L, &s, idx, &res);
  int rc = save_best(&c, &L, &res);
  free(L.w);
  free(L.acc);
  free(L.snap);
  free(res.best);
  free(idx);
  free(res.agr);
  free(res.at);
  store_free(&s);
  return rc;
}
