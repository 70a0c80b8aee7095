/* plugins/riichi_sampler/eval.c — build/riichi_sampler_eval: paper 003's evaluation of opponent-
 * hand samplers (rsamp.h) and predictors (rs_eval.h) on mjai logs, where every hand is known.
 *
 * Positions: every own-turn discard of a player (a discard or a riichi declaration; forced ones
 * in riichi included), seen from that player (the viewer), with the game before the discard.
 * Games are numbered in the order read (as the trainers number them); game g is held out when
 * g % M == M - 1 (--holdout M), and by default only held-out games are evaluated, so that a
 * learned sampler trained with the same M is measured on games it did not see. A position is
 * kept when a hash of (--seed, game, log line) falls below --keep, and the run stops after
 * --positions kept: the choice depends on nothing else (not on the samplers, not on -j).
 *
 * Per position and entrant: a sampler draws --samples games from the viewer's view with an rng
 * seeded from --seed and the position (every sampler gets the same seed), and its samples are
 * counted into an rs_pred; a predictor gives its rs_pred directly. The metrics (rs_eval.h,
 * docs/riichi-samplers.md "Evaluation") compare it with the three opponents' true hands. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opts.h"
#include "riichi_log.h"
#include "direct.h"
#include "rs_eval.h"
#include "rsamp.h"
#include "taikai/rng.h"

#define PROG "riichi_sampler_eval"
#define MAX_ENTRANTS 16
#define MAX_INPUTS 64

/* ---------------------------------------------------------------- predictors
 * The "direct prediction" entrants: each opens its model from a file (NULL: its default) and
 * gives an rs_predict_fn. */
typedef int (*rs_predictor_open_fn)(const char *file, rs_predict_fn *fn, void **ctx,
                                    void (**free_ctx)(void *), tk_error *err);

/* "direct": paper 003's direct baseline (direct.h), riichi_direct.tkw by default. */
static int direct_predict(void *ctx, const tk_riichi_view *v, rs_pred *out, tk_error *err) {
  double sh[3][7], wait[3][34];
  if (rs_direct_predict(ctx, v, sh, wait))
    return tk_error_set(err, TK_ENOMEM, -1, "predictor 'direct': out of memory");
  memset(out, 0, sizeof *out);
  for (int o = 0; o < 3; o++) {
    for (int s = 0; s < 7 && s < RS_SHANTEN_N; s++) out->shanten[o][s] = sh[o][s];
    for (int t = 0; t < TK_KINDS; t++) out->wait[o][t] = wait[o][t];
  }
  return 0;
}
static void direct_free(void *ctx) {
  rs_direct_free(ctx);
  free(ctx);
}
static int direct_open(const char *file, rs_predict_fn *fn, void **ctx, void (**free_ctx)(void *),
                       tk_error *err) {
  char path[4096];
  if (file && file[0]) snprintf(path, sizeof path, "%s", file);
  else if (rs_default_file((const void *)direct_open, "riichi_direct.tkw", "predictor 'direct'",
                           path, sizeof path, err))
    return TK_ENOTFOUND;
  rs_direct *m = calloc(1, sizeof *m);
  if (!m) return tk_error_set(err, TK_ENOMEM, -1, "predictor 'direct': out of memory");
  int rc = rs_direct_load(m, path, err);
  if (rc) {
    free(m);
    return rc;
  }
  *fn = direct_predict, *ctx = m, *free_ctx = direct_free;
  return 0;
}

static const struct {
  const char *name;
  rs_predictor_open_fn open;
} predictors[] = {
    {"direct", direct_open},
    {NULL, NULL},
};

static const char *predictor_names(void) {
  static char buf[256];
  if (!buf[0]) {
    for (size_t i = 0; predictors[i].name; i++)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "",
               predictors[i].name);
    if (!buf[0]) snprintf(buf, sizeof buf, "none yet");
  }
  return buf;
}

/* ---------------------------------------------------------------- entrants */
typedef struct entrant {
  char label[64];         /* the column's name: the sampler's, "#2" etc. when repeated */
  const char *name;       /* as given */
  const char *options;    /* --sampler-options, or NULL */
  const char *file;       /* --sampler-file / --predictor-file, or NULL */
  int predictor;          /* 1: a predictor, 0: a sampler */
  rs_sampler *s;
  rs_predict_fn predict;
  void *pctx;
  void (*pfree)(void *);
  rs_eval_acc acc;
} entrant;

typedef struct cli {
  entrant e[MAX_ENTRANTS];
  int n;
} cli;

static int opt_add(void *dest, const char *spelling, const char *value, int predictor,
                   tk_error *err) {
  cli *c = dest;
  if (c->n == MAX_ENTRANTS)
    return tk_error_set(err, TK_EINVAL, -1, "%s: at most %d entrants", spelling, MAX_ENTRANTS);
  entrant *e = &c->e[c->n++];
  memset(e, 0, sizeof *e);
  e->name = value;
  e->predictor = predictor;
  return 0;
}
static int opt_sampler(void *d, const char *sp, const char *v, tk_error *err) {
  return opt_add(d, sp, v, 0, err);
}
static int opt_predictor(void *d, const char *sp, const char *v, tk_error *err) {
  return opt_add(d, sp, v, 1, err);
}
/* --sampler-options, --sampler-file and --predictor-file belong to the entrant named just before
 * them, which must be of their kind and not have one yet. */
static int opt_attach(cli *c, const char *spelling, const char *value, int predictor, int file,
                      tk_error *err) {
  entrant *e = c->n ? &c->e[c->n - 1] : NULL;
  if (!e || e->predictor != predictor)
    return tk_error_set(err, TK_EINVAL, -1, "%s '%s': give it after the %s it belongs to",
                        spelling, value, predictor ? "--predictor" : "--sampler");
  const char **slot = file ? &e->file : &e->options;
  if (*slot)
    return tk_error_set(err, TK_EINVAL, -1, "%s '%s': %s '%s' has one already ('%s')", spelling,
                        value, predictor ? "predictor" : "sampler", e->name, *slot);
  *slot = value;
  return 0;
}
static int opt_soptions(void *d, const char *sp, const char *v, tk_error *err) {
  return opt_attach(d, sp, v, 0, 0, err);
}
static int opt_sfile(void *d, const char *sp, const char *v, tk_error *err) {
  return opt_attach(d, sp, v, 0, 1, err);
}
static int opt_pfile(void *d, const char *sp, const char *v, tk_error *err) {
  return opt_attach(d, sp, v, 1, 1, err);
}

/* ---------------------------------------------------------------- the run */
typedef struct position {
  tk_riichi_game g;
  int seat, line;
} position;

typedef struct run {
  cli *c;
  int k, holdout, which, skip_bad, quiet;
  double keep;
  uint64_t seed;
  size_t max_positions;
  tk_riichi_game *samples; /* k games of scratch */
  /* the current game's candidate positions (a replay may make two passes: begin resets them) */
  position *pos;
  size_t npos, cap;
  unsigned long long cur_game, cur_decisions; /* the current game's, this pass */
  int oom;
  /* totals */
  unsigned long long games, games_used, bad_games, decisions;
  size_t positions;
  double wall0, last_progress;
  int stop_error;
} run;

enum { GAMES_HELD, GAMES_TRAIN, GAMES_ALL };
static const char *const games_choices[] = {"held", "train", "all", NULL};

static double wall_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Is the position (game, line) kept? A hash of the seed and the position below keep. */
static int kept(const run *r, unsigned long long game, int line) {
  if (r->keep >= 1) return 1;
  uint64_t h = tk_mix64(r->seed ^ tk_mix64(game * 0x9E3779B97F4A7C15ull + (uint64_t)line));
  return (double)(h >> 11) * 0x1p-53 < r->keep;
}

static void on_begin(void *ctx) {
  run *r = ctx;
  r->npos = 0, r->cur_decisions = 0;
}

static void on_decision(void *ctx, const tk_riichi_game *g, int seat, const tk_riichi_action *a,
                        int line) {
  run *r = ctx;
  if (g->phase != TK_RIICHI_PHASE_SELF) return;
  if (a->type != TK_RIICHI_DISCARD && a->type != TK_RIICHI_RIICHI) return;
  r->cur_decisions++;
  if (!kept(r, r->cur_game, line)) return;
  if (r->npos == r->cap) {
    size_t c = r->cap ? 2 * r->cap : 64;
    position *p = realloc(r->pos, c * sizeof *p);
    if (!p) {
      r->oom = 1;
      return;
    }
    r->pos = p, r->cap = c;
  }
  r->pos[r->npos++] = (position){*g, seat, line};
}

/* Evaluates one position with every entrant. Returns 0, or an exit status (message printed). */
static int evaluate(run *r, const position *p, const char *path, long first) {
  tk_riichi_view v;
  tk_riichi_view_of(&p->g, p->seat, &v);
  rs_truth t;
  if (rs_truth_of(&p->g, p->seat, &t)) {
    fprintf(stderr, PROG ": %s:%ld: an opponent of seat %d does not hold 3k+1 concealed tiles\n",
            path, p->line + first - 1, p->seat);
    return 1;
  }
  int turn = v.nriver[p->seat] + 1, fold = (int)(r->positions & 1);
  uint64_t stream = tk_mix64(r->cur_game * 0x9E3779B97F4A7C15ull + (uint64_t)p->line);
  for (int i = 0; i < r->c->n; i++) {
    entrant *e = &r->c->e[i];
    rs_pred pred;
    tk_error err;
    tk_error_clear(&err);
    int rc;
    double t0 = cpu_now();
    if (e->predictor) {
      rc = e->predict(e->pctx, &v, &pred, &err);
      e->acc.cpu_s += cpu_now() - t0;
    } else {
      tk_rng rng;
      tk_rng_seed2(&rng, r->seed, stream);
      rc = e->s->s.sample(e->s->s.ctx, &v, &p->g.rules, &rng, r->k, r->samples, &err);
      e->acc.cpu_s += cpu_now() - t0; /* the sampling call alone */
      e->acc.samples += (unsigned long long)r->k;
      if (!rc) rc = rs_pred_from_games(r->samples, r->k, p->seat, &pred, &err);
    }
    if (rc) {
      fprintf(stderr, PROG ": %s:%ld: %s '%s' at seat %d's discard: %s\n", path,
              p->line + first - 1, e->predictor ? "predictor" : "sampler", e->label, p->seat,
              err.msg[0] ? err.msg : tk_strerror(rc));
      return 1;
    }
    if (rs_eval_add(&e->acc, &pred, &t, turn, fold)) {
      fprintf(stderr, PROG ": out of memory\n");
      return 1;
    }
  }
  r->positions++;
  return 0;
}

enum { STOP_FULL = 3 }; /* on_game's value once --positions are evaluated */

static int on_game(void *ctx, const char *path, const char *text, size_t len, long first) {
  run *r = ctx;
  unsigned long long game = r->games++;
  int held = game % (unsigned long long)r->holdout == (unsigned long long)r->holdout - 1;
  if ((r->which == GAMES_HELD && !held) || (r->which == GAMES_TRAIN && held)) return 0;
  r->cur_game = game;
  r->npos = 0;
  tk_riichi_replay_hooks hooks = {on_begin, on_decision, r};
  tk_error err;
  tk_error_clear(&err);
  int e = tk_riichi_log_replay_game(path, text, len, first, &hooks, NULL, &err);
  if (r->oom || e == TK_ENOMEM) {
    fprintf(stderr, PROG ": out of memory\n");
    return 1;
  }
  if (e) {
    fprintf(stderr, PROG ": %s%s\n", err.msg, tk_riichi_log_skip_note(r->skip_bad));
    if (!r->skip_bad) return 2;
    r->bad_games++;
    return 0;
  }
  r->games_used++;
  r->decisions += r->cur_decisions;
  for (size_t i = 0; i < r->npos; i++) {
    if (r->max_positions && r->positions >= r->max_positions) return STOP_FULL;
    int rc = evaluate(r, &r->pos[i], path, first);
    if (rc) return rc;
    double now = wall_now();
    if (!r->quiet && now - r->last_progress >= 5) {
      r->last_progress = now;
      fprintf(stderr, PROG ": %zu positions from %llu games (%llu read), %.0f s\n", r->positions,
              r->games_used, r->games, now - r->wall0);
    }
  }
  return r->max_positions && r->positions >= r->max_positions ? STOP_FULL : 0;
}

/* ---------------------------------------------------------------- output */
static const char *const opp_names[4] = {"next (1)", "across (2)", "previous (3)", "all"};
static const char *const opp_keys[4] = {"next", "across", "previous", "all"};
static const char *const class_names[RS_TURN_CLASSES] = {"0", "1", "2", "3", "4+"};

/* Paper 003's figures (spec riichi-agents.md §4.2): table 1 and fig. 4. */
static const struct {
  const char *method;
  double err_mean, err_sd, ece_platt;
} paper[3] = {{"diffusion", 1.00, 0.75, 0.00188},
              {"autoregressive", 1.03, 0.78, 0.00390},
              {"direct", 0.86, 0.64, 0.000801}};

static const char *const DEF_SHANTEN =
    "shanten error: per position and opponent, the RMS over the k samples of (shanten of the "
    "sampled concealed tiles - shanten of the true ones) (for a predicted distribution p: "
    "sqrt(sum_s p(s)(s - true)^2)); mean and sd (n-1) over positions; MSE: the mean over "
    "positions of its square";
static const char *const DEF_TURN =
    "turn: the viewer's discard about to be made (1 = its first; 18 counts 18 and later); per "
    "turn the share of opponents at shanten 0, 1, 2, 3, 4+ in the samples (each position's "
    "samples weigh 1 in all) and in the truth";
static const char *const DEF_CALIB =
    "wait calibration: for every position, opponent and tile kind, p = the fraction of samples "
    "in which the kind is a wait of that opponent (0 in a sample not tenpai) against the true "
    "indicator; 10 equal bins; ECE = sum_b n_b/n |mean p_b - freq_b|; Platt scaling: "
    "sigmoid(a logit(p) + b), p clipped to [1e-4, 1-1e-4] before the logit, fitted by Newton's "
    "method on the even positions and applied to the odd ones, and vice versa; a constant "
    "prediction at the base rate scores ECE 0, so read it with the Brier score and the log loss "
    "(p clipped as for the logit)";
static const char *const DEF_SPEED =
    "samples per second: the samples drawn over the process CPU time of the sampling calls "
    "alone (not the metrics, not the replay)";

static void print_text(const run *r, const rs_eval_summary *sm) {
  const cli *c = r->c;
  printf("positions: %zu (games read %llu, evaluated %llu, unreplayable %llu; own-turn discards "
         "seen %llu); %d samples each; seed %llu\n\n",
         r->positions, r->games, r->games_used, r->bad_games, r->decisions, r->k,
         (unsigned long long)r->seed);
  printf("Shanten error (mean ± sd over positions; MSE)\n  %s\n", DEF_SHANTEN);
  printf("%-14s", "opponent");
  for (int i = 0; i < c->n; i++) printf(" %26s", c->e[i].label);
  printf("\n");
  for (int o = 0; o < 4; o++) {
    printf("%-14s", opp_names[o]);
    for (int i = 0; i < c->n; i++) {
      char cell[64];
      snprintf(cell, sizeof cell, "%.3f ± %.3f (%.3f)", sm[i].err_mean[o], sm[i].err_sd[o],
               sm[i].mse[o]);
      printf(" %26s", cell);
    }
    printf("\n");
  }
  printf("paper 003 (table 1, all): diffusion 1.00 ± 0.75, autoregressive 1.03 ± 0.78, direct "
         "0.86 ± 0.64\n\nTenpai rate (predicted / true)\n");
  for (int o = 0; o < 3; o++) {
    printf("%-14s", opp_names[o]);
    for (int i = 0; i < c->n; i++) {
      char cell[64];
      snprintf(cell, sizeof cell, "%.3f / %.3f", sm[i].tenpai_pred[o], sm[i].tenpai_true[o]);
      printf(" %26s", cell);
    }
    printf("\n");
  }
  for (int i = 0; i < c->n; i++) {
    const rs_eval_acc *a = &c->e[i].acc;
    printf("\nShanten distribution by turn, %s (samples %% / truth %%)\n  %s\n%4s %6s",
           c->e[i].label, DEF_TURN, "turn", "n");
    for (int s = 0; s < RS_TURN_CLASSES; s++) printf(" %13s", class_names[s]);
    printf("\n");
    for (int b = 0; b < RS_TURNS; b++) {
      if (!a->turn_n[b]) continue;
      printf("%3d%s %6zu", b + 1, b == RS_TURNS - 1 ? "+" : " ", a->turn_n[b]);
      for (int s = 0; s < RS_TURN_CLASSES; s++) {
        char cell[32];
        snprintf(cell, sizeof cell, "%.1f/%.1f", 100 * a->turn_pred[b][s] / a->turn_n[b],
                 100 * a->turn_true[b][s] / a->turn_n[b]);
        printf(" %13s", cell);
      }
      printf("\n");
    }
  }
  printf("\nWait calibration\n  %s\n", DEF_CALIB);
  for (int i = 0; i < c->n; i++) {
    printf("%s: ECE raw %.6f, after Platt %.6f (a, b fitted on even: %.3f, %.3f; on odd: %.3f, "
           "%.3f); Brier %.5f, after Platt %.5f; log loss %.4f, after Platt %.4f; %zu pairs\n"
           "  bin        n   mean p     freq\n",
           c->e[i].label, sm[i].raw.ece, sm[i].platt.ece, sm[i].platt_a[0], sm[i].platt_b[0],
           sm[i].platt_a[1], sm[i].platt_b[1], sm[i].raw.brier, sm[i].platt.brier,
           sm[i].raw.logloss, sm[i].platt.logloss, sm[i].raw.total);
    for (int b = 0; b < RS_BINS; b++)
      printf("  %.1f-%.1f %9zu %8.4f %8.4f\n", b / 10.0, (b + 1) / 10.0, sm[i].raw.n[b],
             sm[i].raw.mean_p[b], sm[i].raw.freq[b]);
  }
  printf("paper 003 (fig. 4, ECE after Platt): diffusion 0.00188, autoregressive 0.00390, direct "
         "0.000801\n\nSpeed\n  %s\n",
         DEF_SPEED);
  for (int i = 0; i < c->n; i++) {
    const rs_eval_acc *a = &c->e[i].acc;
    if (c->e[i].predictor)
      printf("%-20s %.1f positions/s (%.2f CPU s)\n", c->e[i].label,
             a->cpu_s > 0 ? (double)a->positions / a->cpu_s : 0, a->cpu_s);
    else
      printf("%-20s %.0f samples/s (%llu samples, %.2f CPU s)\n", c->e[i].label,
             a->cpu_s > 0 ? (double)a->samples / a->cpu_s : 0, a->samples, a->cpu_s);
  }
}

static json_t *reliability_json(const rs_reliability *rel) {
  json_t *bins = json_array();
  for (int b = 0; b < RS_BINS; b++)
    json_array_append_new(bins, json_pack("{s:f,s:f,s:I,s:f,s:f}", "lo", b / 10.0, "hi",
                                          (b + 1) / 10.0, "n", (json_int_t)rel->n[b], "mean_p",
                                          rel->mean_p[b], "freq", rel->freq[b]));
  return json_pack("{s:f,s:f,s:f,s:I,s:o}", "ece", rel->ece, "brier", rel->brier, "logloss",
                   rel->logloss, "pairs", (json_int_t)rel->total, "bins", bins);
}

static int write_json(const char *path, const run *r, const rs_eval_summary *sm,
                      const char *const *inputs, int nin) {
  const cli *c = r->c;
  json_t *in = json_array(), *ents = json_array();
  for (int i = 0; i < nin; i++) json_array_append_new(in, json_string(inputs[i]));
  for (int i = 0; i < c->n; i++) {
    const entrant *e = &c->e[i];
    const rs_eval_acc *a = &e->acc;
    json_t *se = json_object(), *tp = json_object(), *turns = json_array();
    for (int o = 0; o < 4; o++)
      json_object_set_new(se, opp_keys[o],
                          json_pack("{s:f,s:f,s:f,s:I}", "mean", sm[i].err_mean[o], "sd",
                                    sm[i].err_sd[o], "mse", sm[i].mse[o], "n",
                                    (json_int_t)sm[i].npos[o]));
    for (int o = 0; o < 3; o++)
      json_object_set_new(tp, opp_keys[o], json_pack("{s:f,s:f}", "predicted",
                                                     sm[i].tenpai_pred[o], "true",
                                                     sm[i].tenpai_true[o]));
    for (int b = 0; b < RS_TURNS; b++) {
      json_t *ps = json_array(), *ts = json_array();
      for (int s = 0; s < RS_TURN_CLASSES; s++) {
        json_array_append_new(ps, json_real(a->turn_n[b] ? a->turn_pred[b][s] / a->turn_n[b] : 0));
        json_array_append_new(ts, json_real(a->turn_n[b] ? a->turn_true[b][s] / a->turn_n[b] : 0));
      }
      json_array_append_new(turns, json_pack("{s:i,s:I,s:o,s:o}", "turn", b + 1, "n",
                                             (json_int_t)a->turn_n[b], "predicted", ps, "true",
                                             ts));
    }
    json_t *platt = json_pack("{s:o,s:[{s:f,s:f},{s:f,s:f}]}", "reliability",
                              reliability_json(&sm[i].platt), "fits", "a", sm[i].platt_a[0], "b",
                              sm[i].platt_b[0], "a", sm[i].platt_a[1], "b", sm[i].platt_b[1]);
    json_t *je = json_pack(
        "{s:s,s:s,s:s,s:s?,s:s?,s:o,s:o,s:o,s:{s:o,s:o},s:{s:f,s:I,s:I,s:f}}", "label", e->label,
        "name", e->name, "kind", e->predictor ? "predictor" : "sampler", "options", e->options,
        "file", e->file, "shanten_error", se, "tenpai_rate", tp, "shanten_by_turn", turns,
        "wait_calibration", "raw", reliability_json(&sm[i].raw), "platt", platt, "speed",
        "cpu_s", a->cpu_s, "samples", (json_int_t)a->samples, "positions",
        (json_int_t)a->positions, "samples_per_s",
        a->cpu_s > 0 ? (double)(e->predictor ? a->positions : a->samples) / a->cpu_s : 0.0);
    json_array_append_new(ents, je);
  }
  json_t *pp = json_array();
  for (int m = 0; m < 3; m++)
    json_array_append_new(pp, json_pack("{s:s,s:f,s:f,s:f}", "method", paper[m].method,
                                        "shanten_error_mean", paper[m].err_mean,
                                        "shanten_error_sd", paper[m].err_sd, "ece_platt",
                                        paper[m].ece_platt));
  json_t *root = json_pack(
      "{s:o,s:{s:I,s:i,s:i,s:s,s:f,s:I},s:{s:I,s:I,s:I,s:I,s:I},s:{s:s,s:s,s:s,s:s},s:[s,s,s,"
      "s,s],s:o,s:o}",
      "inputs", in, "settings", "seed", (json_int_t)r->seed, "samples", r->k, "holdout",
      r->holdout, "games", games_choices[r->which], "keep", r->keep, "positions_cap",
      (json_int_t)r->max_positions, "counts", "games_read", (json_int_t)r->games, "games_evaluated",
      (json_int_t)r->games_used, "games_unreplayable", (json_int_t)r->bad_games,
      "own_turn_discards", (json_int_t)r->decisions, "positions", (json_int_t)r->positions,
      "definitions", "shanten_error", DEF_SHANTEN, "shanten_by_turn", DEF_TURN,
      "wait_calibration", DEF_CALIB, "speed", DEF_SPEED, "turn_classes", "0", "1", "2", "3", "4+",
      "entrants", ents, "paper", pp);
  if (!root) {
    fprintf(stderr, PROG ": --json %s: out of memory\n", path);
    return 1;
  }
  int rc = json_dump_file(root, path, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
  json_decref(root);
  if (rc) {
    fprintf(stderr, PROG ": --json %s: cannot write the file\n", path);
    return 1;
  }
  return 0;
}

static int write_markdown(const char *path, const run *r, const rs_eval_summary *sm,
                          const char *const *inputs, int nin) {
  const cli *c = r->c;
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, PROG ": --markdown %s: cannot create the file\n", path);
    return 1;
  }
  fprintf(f, "Inputs:");
  for (int i = 0; i < nin; i++) fprintf(f, " `%s`", inputs[i]);
  fprintf(f, "; games %s (holdout %d), %zu positions from %llu games, %d samples each, seed "
             "%llu.\n\n",
          games_choices[r->which], r->holdout, r->positions, r->games_used, r->k,
          (unsigned long long)r->seed);
  /* table 1 */
  fprintf(f, "**Shanten error** (mean ± sd over positions; MSE in brackets). %s.\n\n| opponent |",
          DEF_SHANTEN);
  for (int i = 0; i < c->n; i++) fprintf(f, " %s |", c->e[i].label);
  for (int m = 0; m < 3; m++) fprintf(f, " paper: %s |", paper[m].method);
  fprintf(f, "\n|---|");
  for (int i = 0; i < c->n + 3; i++) fprintf(f, "---|");
  fprintf(f, "\n");
  for (int o = 0; o < 4; o++) {
    fprintf(f, "| %s |", opp_names[o]);
    for (int i = 0; i < c->n; i++)
      fprintf(f, " %.3f ± %.3f (%.3f) |", sm[i].err_mean[o], sm[i].err_sd[o], sm[i].mse[o]);
    for (int m = 0; m < 3; m++)
      if (o == 3) fprintf(f, " %.2f ± %.2f |", paper[m].err_mean, paper[m].err_sd);
      else fprintf(f, " |");
    fprintf(f, "\n");
  }
  fprintf(f, "\n**Tenpai rate**, predicted / true.\n\n| opponent |");
  for (int i = 0; i < c->n; i++) fprintf(f, " %s |", c->e[i].label);
  fprintf(f, "\n|---|");
  for (int i = 0; i < c->n; i++) fprintf(f, "---|");
  fprintf(f, "\n");
  for (int o = 0; o < 3; o++) {
    fprintf(f, "| %s |", opp_names[o]);
    for (int i = 0; i < c->n; i++)
      fprintf(f, " %.3f / %.3f |", sm[i].tenpai_pred[o], sm[i].tenpai_true[o]);
    fprintf(f, "\n");
  }
  /* fig. 4 */
  fprintf(f, "\n**Wait calibration** (fig. 4). %s.\n\n| |", DEF_CALIB);
  for (int i = 0; i < c->n; i++) fprintf(f, " %s |", c->e[i].label);
  for (int m = 0; m < 3; m++) fprintf(f, " paper: %s |", paper[m].method);
  fprintf(f, "\n|---|");
  for (int i = 0; i < c->n + 3; i++) fprintf(f, "---|");
  fprintf(f, "\n| ECE raw |");
  for (int i = 0; i < c->n; i++) fprintf(f, " %.6f |", sm[i].raw.ece);
  fprintf(f, " | | |\n| ECE after Platt |");
  for (int i = 0; i < c->n; i++) fprintf(f, " %.6f |", sm[i].platt.ece);
  for (int m = 0; m < 3; m++) fprintf(f, " %g |", paper[m].ece_platt);
  fprintf(f, "\n| Brier score raw |");
  for (int i = 0; i < c->n; i++) fprintf(f, " %.5f |", sm[i].raw.brier);
  fprintf(f, " | | |\n| Brier score after Platt |");
  for (int i = 0; i < c->n; i++) fprintf(f, " %.5f |", sm[i].platt.brier);
  fprintf(f, " | | |\n| log loss raw |");
  for (int i = 0; i < c->n; i++) fprintf(f, " %.4f |", sm[i].raw.logloss);
  fprintf(f, " | | |\n| log loss after Platt |");
  for (int i = 0; i < c->n; i++) fprintf(f, " %.4f |", sm[i].platt.logloss);
  fprintf(f, " | | |\n\nReliability (raw): per bin, pairs n, mean predicted p, observed "
             "frequency.\n\n| bin |");
  for (int i = 0; i < c->n; i++) fprintf(f, " %s: n | p | freq |", c->e[i].label);
  fprintf(f, "\n|---|");
  for (int i = 0; i < c->n; i++) fprintf(f, "---|---|---|");
  fprintf(f, "\n");
  for (int b = 0; b < RS_BINS; b++) {
    fprintf(f, "| %.1f–%.1f |", b / 10.0, (b + 1) / 10.0);
    for (int i = 0; i < c->n; i++)
      fprintf(f, " %zu | %.4f | %.4f |", sm[i].raw.n[b], sm[i].raw.mean_p[b], sm[i].raw.freq[b]);
    fprintf(f, "\n");
  }
  /* fig. 3 */
  fprintf(f, "\n**Shanten distribution by turn** (fig. 3): %% of opponents at shanten 0 / 1 / 2 "
             "/ 3 / 4+. %s.\n\n| turn | n | truth |", DEF_TURN);
  for (int i = 0; i < c->n; i++) fprintf(f, " %s |", c->e[i].label);
  fprintf(f, "\n|---|---|---|");
  for (int i = 0; i < c->n; i++) fprintf(f, "---|");
  fprintf(f, "\n");
  const rs_eval_acc *a0 = &c->e[0].acc; /* the truth is the same for every entrant */
  for (int b = 0; b < RS_TURNS; b++) {
    if (!a0->turn_n[b]) continue;
    fprintf(f, "| %d%s | %zu |", b + 1, b == RS_TURNS - 1 ? "+" : "", a0->turn_n[b]);
    for (int i = -1; i < c->n; i++) {
      const rs_eval_acc *a = &c->e[i < 0 ? 0 : i].acc;
      for (int s = 0; s < RS_TURN_CLASSES; s++)
        fprintf(f, "%s%.0f", s ? " / " : " ",
                100 * (i < 0 ? a->turn_true[b][s] : a->turn_pred[b][s]) / a->turn_n[b]);
      fprintf(f, " |");
    }
    fprintf(f, "\n");
  }
  fprintf(f, "\n**Speed**. %s.\n\n| | samples/s | samples | CPU s |\n|---|---|---|---|\n",
          DEF_SPEED);
  for (int i = 0; i < c->n; i++) {
    const rs_eval_acc *a = &c->e[i].acc;
    if (c->e[i].predictor)
      fprintf(f, "| %s | %.1f positions/s | – | %.2f |\n", c->e[i].label,
              a->cpu_s > 0 ? (double)a->positions / a->cpu_s : 0, a->cpu_s);
    else
      fprintf(f, "| %s | %.0f | %llu | %.2f |\n", c->e[i].label,
              a->cpu_s > 0 ? (double)a->samples / a->cpu_s : 0, a->samples, a->cpu_s);
  }
  int bad = ferror(f);
  if (fclose(f) || bad) {
    fprintf(stderr, PROG ": --markdown %s: cannot write the file\n", path);
    return 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- main */
int main(int argc, char **argv) {
  static cli c;
  const char *in[MAX_INPUTS], *json_path = NULL, *md_path = NULL;
  int nin = 0, k = 100, holdout = 10, which = GAMES_HELD, skip_bad = 0, quiet = 0;
  int max_positions = 0;
  double keep = 1;
  uint64_t seed = 1;
  const tk_opt opts[] = {
      {.name = "sampler", .kind = TK_OPT_CALL, .dest = &c, .call = opt_sampler, .value = "NAME",
       .help = "evaluate this sampler (repeatable; known: see below)"},
      {.name = "sampler-options", .kind = TK_OPT_CALL, .dest = &c, .call = opt_soptions,
       .value = "JSON", .help = "options of the --sampler just before (a JSON object)"},
      {.name = "sampler-file", .kind = TK_OPT_CALL, .dest = &c, .call = opt_sfile,
       .value = "FILE", .help = "weights of the (learned) --sampler just before"},
      {.name = "predictor", .kind = TK_OPT_CALL, .dest = &c, .call = opt_predictor,
       .value = "NAME", .help = "evaluate this direct predictor (repeatable)"},
      {.name = "predictor-file", .kind = TK_OPT_CALL, .dest = &c, .call = opt_pfile,
       .value = "FILE", .help = "weights of the --predictor just before"},
      {.name = "samples", .kind = TK_OPT_INT, .dest = &k, .value = "K", .once = 1, .min = 1,
       .max = 100000, .help = "samples per position (100, the paper's)"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S", .once = 1,
       .help = "chooses the positions (with --keep) and seeds the samplers (1)"},
      {.name = "keep", .kind = TK_OPT_DOUBLE, .dest = &keep, .value = "P", .once = 1, .lo = 0,
       .hi = 1, .help = "keep each own-turn discard with probability P (1)"},
      {.name = "positions", .kind = TK_OPT_INT, .dest = &max_positions, .value = "N", .once = 1,
       .min = 0, .max = 100000000, .help = "stop after N positions (0: no cap; 0)"},
      {.name = "holdout", .kind = TK_OPT_INT, .dest = &holdout, .value = "M", .once = 1,
       .min = 2, .max = 1000000, .help = "game g is held out when g % M == M-1 (10)"},
      {.name = "games", .kind = TK_OPT_CHOICE, .dest = &which, .value = "WHICH", .once = 1,
       .choices = games_choices, .help = "held (the default), train or all games"},
      {.name = "skip-bad-games", .kind = TK_OPT_FLAG, .dest = &skip_bad,
       .help = "leave out a game the engine cannot replay (else stop)"},
      {.name = "json", .kind = TK_OPT_STRING, .dest = &json_path, .value = "FILE", .once = 1,
       .help = "write every figure to FILE as JSON"},
      {.name = "markdown", .kind = TK_OPT_STRING, .dest = &md_path, .value = "FILE", .once = 1,
       .help = "write the report's tables to FILE"},
      {.name = "quiet", .short_name = 'q', .kind = TK_OPT_FLAG, .dest = &quiet,
       .help = "no progress lines on stderr"},
      {.name = NULL},
  };
  int npos_args = 0;
  int prc = tk_opts_parse_prog(PROG, opts, argc, argv, in, MAX_INPUTS, &npos_args);
  if (prc == 1) {
    printf("usage: " PROG " INPUT... --sampler NAME [--sampler NAME ...] [options]\n"
           "Paper 003's evaluation of opponent-hand samplers on mjai logs (every hand known):\n"
           "shanten error per opponent, shanten distribution by turn, wait-tile calibration (ECE\n"
           "raw and after cross-fitted Platt scaling), samples per second. Positions: each\n"
           "player's own-turn discards, from that player's view, in held-out games.\n"
           "INPUT: an mjai log (*.jsonl, *.jsonl.gz), a folder of logs, or a run folder.\n");
    tk_opts_help(stdout, opts);
    printf("samplers: %s\npredictors: %s\n", rs_sampler_names(), predictor_names());
    return 0;
  }
  if (!prc && npos_args > MAX_INPUTS) {
    fprintf(stderr, PROG ": at most %d inputs (got %d)\n", MAX_INPUTS, npos_args);
    prc = 2;
  }
  if (!prc && !npos_args) {
    fprintf(stderr, PROG ": no input: give mjai logs, folders or run folders (see " PROG
                    " --help)\n");
    prc = 2;
  }
  if (!prc && !c.n) {
    fprintf(stderr, PROG ": nothing to evaluate: give --sampler NAME (known: %s) or --predictor "
                    "NAME (see " PROG " --help)\n", rs_sampler_names());
    prc = 2;
  }
  if (prc) return 2;
  nin = npos_args;
  /* open the entrants; labels are unique (a name given twice gets "#2", ...) */
  for (int i = 0; i < c.n; i++) {
    entrant *e = &c.e[i];
    int same = 0;
    for (int j = 0; j < i; j++) same += !strcmp(c.e[j].name, e->name);
    if (same) snprintf(e->label, sizeof e->label, "%.50s#%d", e->name, same + 1);
    else snprintf(e->label, sizeof e->label, "%.60s", e->name);
    tk_error err;
    tk_error_clear(&err);
    if (!e->predictor) {
      if (!rs_sampler_known(e->name)) {
        fprintf(stderr, PROG ": --sampler '%s': unknown (known: %s)\n", e->name,
                rs_sampler_names());
        return 2;
      }
      int rc = rs_sampler_open(e->name, e->options, e->file, &e->s, &err);
      if (rc) {
        fprintf(stderr, PROG ": --sampler %s%s%s%s%s: %s\n", e->name,
                e->options ? " --sampler-options " : "", e->options ? e->options : "",
                e->file ? " --sampler-file " : "", e->file ? e->file : "", err.msg);
        return rc == TK_EINVAL || rc == TK_ENOTFOUND ? 2 : 1;
      }
    } else {
      size_t p = 0;
      while (predictors[p].name && strcmp(predictors[p].name, e->name)) p++;
      if (!predictors[p].name) {
        fprintf(stderr, PROG ": --predictor '%s': unknown (known: %s)\n", e->name,
                predictor_names());
        return 2;
      }
      int rc = predictors[p].open(e->file, &e->predict, &e->pctx, &e->pfree, &err);
      if (rc) {
        fprintf(stderr, PROG ": --predictor %s%s%s: %s\n", e->name,
                e->file ? " --predictor-file " : "", e->file ? e->file : "", err.msg);
        return rc == TK_EINVAL || rc == TK_ENOTFOUND ? 2 : 1;
      }
    }
  }
  run r;
  memset(&r, 0, sizeof r);
  r.c = &c, r.k = k, r.holdout = holdout, r.which = which, r.skip_bad = skip_bad;
  r.quiet = quiet, r.keep = keep, r.seed = seed, r.max_positions = (size_t)max_positions;
  r.samples = malloc((size_t)k * sizeof *r.samples);
  if (!r.samples) {
    fprintf(stderr, PROG ": out of memory (%d samples)\n", k);
    return 1;
  }
  r.wall0 = r.last_progress = wall_now();
  int status = 0;
  for (int i = 0; i < nin && !status; i++) {
    tk_error err;
    tk_error_clear(&err);
    int rc = tk_riichi_log_games(in[i], on_game, &r, &err);
    if (rc == STOP_FULL) break;
    if (rc < 0) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      status = rc == TK_ENOMEM ? 1 : 2;
    } else if (rc) {
      status = rc;
    }
  }
  if (!status && !r.positions) {
    fprintf(stderr, PROG ": no position evaluated: %llu games read, %llu in the %s games "
                    "(--holdout %d), %llu own-turn discards seen, --keep %g\n",
            r.games, r.games_used, games_choices[which], holdout, r.decisions, keep);
    status = 1;
  }
  rs_eval_summary sm[MAX_ENTRANTS];
  for (int i = 0; i < c.n && !status; i++)
    if (rs_eval_summarize(&c.e[i].acc, &sm[i])) {
      fprintf(stderr, PROG ": out of memory\n");
      status = 1;
    }
  if (!status) {
    print_text(&r, sm);
    if (json_path) status = write_json(json_path, &r, sm, in, nin);
    if (!status && md_path) status = write_markdown(md_path, &r, sm, in, nin);
  }
  for (int i = 0; i < c.n; i++) {
    rs_sampler_close(c.e[i].s);
    if (c.e[i].pfree) c.e[i].pfree(c.e[i].pctx);
    rs_eval_free(&c.e[i].acc);
  }
  free(r.samples);
  free(r.pos);
  return status;
}
