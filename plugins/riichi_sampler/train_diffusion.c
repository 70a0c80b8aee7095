/* plugins/riichi_sampler/train_diffusion.c — build/riichi_diffusion_train: paper 003's learned
 * sampler (diffusion.h, --model diffusion) and its direct baseline (direct.h, --model direct)
 * trained on the true hands of mjai logs (taikai's own or imported Tenhou records: every hand
 * is known in a log).
 *
 * Examples: the decisions of every seat while the logs are replayed (tk_riichi_log_replay_hooked
 * gives the full game at each), each kept when tk_mix64(game x 2^20 + its index in the game) %
 * --every == 0 (a spread-out subsample: neighbouring decisions share most of their position);
 * the input is the decider's view (obs.h's c), the truth the 4 concealed hands (x0) or the 3
 * opponents' shanten and waits. Games are numbered in the order read; game g is held out when
 * g % M == M - 1 (--holdout M). Minibatches of --batch in an order shuffled each epoch by
 * --seed, Adam with a cosine-decayed learning rate.
 *
 * The diffusion loss is the mean squared error of the predicted x0 (in 2 x0 - 1) over the
 * 272 values, at a step t uniform in 1..T with c dropped with probability --drop (classifier-free
 * guidance); the held-out loss uses a fixed draw of t, noise and no drop, the same each epoch.
 * After training, --eval-positions held-out positions get one sample each through the
 * discretisation: how often a hand had to be filled at random, the share of an opponent's tiles
 * the sample got right against a uniform draw of the unseen tiles, and the shanten's mean
 * squared error (the paper's table 1 measure, one sample per position). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diffusion.h"
#include "autoregressive.h"
#include "direct.h"
#include "opts.h"
#include "riichi_log.h"
#include "taikai/mahjong.h"
#include "taikai/sha256.h"

#define PROG "riichi_diffusion_train"

typedef struct example {
  uint8_t c[RS_OBS_DIM];
  uint8_t x[RS_X_DIM];
  uint8_t sh[3];
  uint8_t held;
  uint64_t wait[3];
} example;

typedef struct data {
  example *e;
  size_t n, cap, game_start;
  unsigned long long games, bad_games, decisions, index;
  int holdout, every, skip_bad, oom, cur_held;
} data;

static void on_begin(void *ctx) {
  data *d = ctx;
  d->n = d->game_start;
  d->index = 0;
}

static void on_decision(void *ctx, const tk_riichi_game *g, int seat, const tk_riichi_action *a,
                        int line) {
  (void)a, (void)line;
  data *d = ctx;
  unsigned long long i = d->index++;
  if (tk_mix64(d->games << 20 ^ i) % (uint64_t)d->every) return;
  if (g->phase != TK_RIICHI_PHASE_SELF && g->phase != TK_RIICHI_PHASE_REACT) return;
  tk_riichi_view v;
  tk_riichi_view_of(g, seat, &v);
  example ex;
  memset(&ex, 0, sizeof ex);
  if (rs_obs_raw(&v, &g->rules, ex.c)) return;
  rs_x0_raw(g, seat, ex.x);
  for (int r = 1; r < 4; r++) {
    int s = rs_seat_of(seat, r), n = 0;
    for (int k = 0; k < TK_KINDS; k++) n += g->p[s].hand[k];
    if (n != rs_concealed(&v, s)) return; /* not 3k+1 concealed tiles: no shanten */
    int sh = tk_shanten(g->p[s].hand);
    ex.sh[r - 1] = (uint8_t)(sh < 0 ? 0 : sh > 6 ? 6 : sh);
    if (sh == 0) ex.wait[r - 1] = tk_ukeire(g->p[s].hand, NULL, TK_FORM_ALL, NULL, NULL);
  }
  ex.held = (uint8_t)d->cur_held;
  if (d->n == d->cap) {
    size_t c = d->cap ? 2 * d->cap : 4096;
    example *e = realloc(d->e, c * sizeof *e);
    if (!e) {
      d->oom = 1;
      return;
    }
    d->e = e, d->cap = c;
  }
  d->e[d->n++] = ex;
  d->decisions++;
}

static int on_game(void *ctx, const char *path, const char *text, size_t len, long first) {
  data *d = ctx;
  d->cur_held = d->games % (unsigned long long)d->holdout == (unsigned long long)d->holdout - 1;
  d->game_start = d->n;
  d->index = 0;
  tk_riichi_replay_hooks hooks = {on_begin, on_decision, d};
  tk_error err;
  tk_error_clear(&err);
  int e = tk_riichi_log_replay_game(path, text, len, first, &hooks, NULL, &err);
  d->games++;
  if (d->oom || e == TK_ENOMEM) {
    fprintf(stderr, PROG ": out of memory\n");
    return 1;
  }
  if (e) {
    fprintf(stderr, PROG ": %s%s\n", err.msg, tk_riichi_log_skip_note(d->skip_bad));
    d->n = d->game_start;
    if (!d->skip_bad) return 2;
    d->bad_games++;
  }
  return 0;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void c_of(const example *e, float *c) {
  const float *sc = rs_obs_scale();
  for (int i = 0; i < RS_OBS_DIM; i++) c[i] = e->c[i] * sc[i];
}

static void x0s_of(const example *e, float *x) {
  for (int i = 0; i < RS_X_DIM; i++) {
    float v = (i % RS_X_ROW) < TK_KINDS ? e->x[i] * 0.25f : (float)e->x[i];
    x[i] = 2 * v - 1;
  }
}

/* Builds the batch rows of examples idx[0..b): inputs and targets (diffusion: x0s; direct:
 * unused). drop < 0: no drop. */
static void diff_batch(const rs_diffusion *df, const data *d, const size_t *idx, int b,
                       double drop, tk_rng *rng, float *in, float *tgt, int *ts) {
  for (int r = 0; r < b; r++) {
    const example *e = &d->e[idx[r]];
    float c[RS_OBS_DIM], eps[RS_X_DIM];
    c_of(e, c);
    x0s_of(e, tgt + (size_t)r * RS_X_DIM);
    for (int i = 0; i < RS_X_DIM; i++) eps[i] = rs_gauss(rng);
    int t = 1 + (int)tk_rng_below(rng, (uint32_t)df->T);
    ts[r] = t;
    int dropped = drop > 0 && tk_rng_double(rng) < drop;
    rs_df_input(df, tgt + (size_t)r * RS_X_DIM, eps, t, dropped ? NULL : c,
                in + (size_t)r * RS_DF_IN);
  }
}

/* The summed squared error of x0^ = cskip x_t + cout F (out: F) against tgt; dout (may be NULL):
 * its derivative by F over b x RS_X_DIM. */
static double x0_loss(const rs_diffusion *df, int b, const float *in, const int *ts,
                      const float *out, const float *tgt, float *dout) {
  double loss = 0;
  float s = 2.0f / ((float)b * RS_X_DIM);
  for (int r = 0; r < b; r++) {
    size_t o = (size_t)ts[r] * RS_X_DIM;
    const float *km = df->cmu + o, *ks = df->cskip + o, *ko = df->cout + o;
    for (int i = 0; i < RS_X_DIM; i++) {
      size_t at = (size_t)r * RS_X_DIM + i;
      float e = km[i] + ks[i] * in[(size_t)r * RS_DF_IN + i] + ko[i] * out[at] - tgt[at];
      loss += e * e;
      if (dout) dout[at] = s * ko[i] * e;
    }
  }
  return loss;
}

/* Autoregressive rows (autoregressive.h): opponent i at random, the earlier ones' hands whole,
 * a random prefix of opponent i's shuffled tiles; the target is its next tile. */
static void ar_batch(const data *d, const size_t *idx, int b, tk_rng *rng, float *in, int *tgt) {
  for (int r = 0; r < b; r++) {
    const example *e = &d->e[idx[r]];
    float c[RS_OBS_DIM];
    c_of(e, c);
    int i = (int)tk_rng_below(rng, 3), n = 0;
    uint8_t sofar[3][TK_KINDS], list[14];
    memset(sofar, 0, sizeof sofar);
    for (int j = 0; j < i; j++) memcpy(sofar[j], e->x + (j + 1) * RS_X_ROW, TK_KINDS);
    for (int k = 0; k < TK_KINDS; k++)
      for (int m = 0; m < e->x[(i + 1) * RS_X_ROW + k] && n < 14; m++) list[n++] = (uint8_t)k;
    int pre = n > 1 ? (int)tk_rng_below(rng, (uint32_t)n) : 0;
    for (int q = 0; q <= pre && q < n; q++) {
      int w = q + (int)tk_rng_below(rng, (uint32_t)(n - q));
      uint8_t t = list[q];
      list[q] = list[w], list[w] = t;
    }
    for (int q = 0; q < pre; q++) sofar[i][list[q]]++;
    tgt[r] = n ? list[pre] : 0;
    rs_ar_input(c, (const uint8_t(*)[TK_KINDS])sofar, i, n - pre, in + (size_t)r * RS_AR_IN);
  }
}

/* Softmax cross-entropy of the rows' 34 logits against tgt; dout (may be NULL) scaled by s. */
static double ar_loss(int b, const float *out, const int *tgt, float s, float *dout) {
  double loss = 0;
  for (int r = 0; r < b; r++) {
    const float *o = out + (size_t)r * TK_KINDS;
    double mx = o[0], z = 0;
    for (int k = 1; k < TK_KINDS; k++) mx = o[k] > mx ? o[k] : mx;
    for (int k = 0; k < TK_KINDS; k++) z += exp(o[k] - mx);
    loss += -(o[tgt[r]] - mx - log(z));
    if (dout)
      for (int k = 0; k < TK_KINDS; k++)
        dout[(size_t)r * TK_KINDS + k] = s * (float)(exp(o[k] - mx) / z - (k == tgt[r]));
  }
  return loss;
}

/* Mean loss over the examples listed (forward only), with a fixed rng seed. */
static double eval_loss(int direct, int arm, const rs_mlp *m, const rs_diffusion *df, const data *d,
                        const size_t *list, size_t n, int B, float *in, float *tgt, float *out,
                        float *dout, float *sc) {
  tk_rng rng;
  tk_rng_seed(&rng, 0x5eed);
  double loss = 0;
  for (size_t j = 0; j < n; j += (size_t)B) {
    int b = (int)(n - j < (size_t)B ? n - j : (size_t)B);
    if (arm) {
      static int tg[65536];
      ar_batch(d, list + j, b, &rng, in, tg);
      rs_mlp_forward_from(m, 0, b, in, out, sc);
      loss += ar_loss(b, out, tg, 0, NULL);
    } else if (direct) {
      for (int r = 0; r < b; r++) c_of(&d->e[list[j + r]], in + (size_t)r * RS_OBS_DIM);
      rs_mlp_forward_from(m, 0, b, in, out, sc);
      for (int r = 0; r < b; r++) {
        const example *e = &d->e[list[j + r]];
        loss += rs_direct_loss(out + (size_t)r * RS_DIRECT_OUT, e->sh, e->wait, 0,
                               dout + (size_t)r * RS_DIRECT_OUT);
      }
    } else {
      static int ts[65536];
      diff_batch(df, d, list + j, b, -1, &rng, in, tgt, ts);
      rs_mlp_forward_from(m, 0, b, in, out, sc);
      loss += x0_loss(df, b, in, ts, out, tgt, NULL);
    }
  }
  return n ? loss / (double)n / (direct || arm ? 1.0 : RS_X_DIM) : 0;
}

/* The held-out loss at a few fixed steps t (how much the network uses x_t). */
static void loss_by_t(const rs_diffusion *df, const data *d, const size_t *held, size_t nheld) {
  size_t n = nheld < 2000 ? nheld : 2000;
  float *in = malloc(RS_DF_IN * sizeof *in), *out = malloc(RS_X_DIM * sizeof *out);
  int W = 0;
  for (int l = 0; l <= df->net.nl; l++) W = df->net.n[l] > W ? df->net.n[l] : W;
  float *sc = malloc(2 * (size_t)W * sizeof *sc);
  if (!in || !out || !sc) return;
  printf("held-out loss by step t (%zu positions):", n);
  for (int t = 1; t <= df->T; t += t < 4 ? 1 : (df->T / 4 > 1 ? df->T / 4 : 1)) {
    tk_rng rng;
    tk_rng_seed(&rng, 0x5eed);
    double loss = 0;
    for (size_t j = 0; j < n; j++) {
      const example *e = &d->e[held[j]];
      float c[RS_OBS_DIM], x0s[RS_X_DIM], eps[RS_X_DIM];
      c_of(e, c);
      x0s_of(e, x0s);
      for (int i = 0; i < RS_X_DIM; i++) eps[i] = rs_gauss(&rng);
      rs_df_input(df, x0s, eps, t, c, in);
      rs_mlp_forward_from(&df->net, 0, 1, in, out, sc);
      loss += x0_loss(df, 1, in, &t, out, x0s, NULL);
    }
    printf(" t=%d %.5f", t, loss / (double)n / RS_X_DIM);
  }
  printf("\n");
  free(in), free(out), free(sc);
}

/* One sample per held-out position through the discretisation. */
static void eval_samples(rs_diffusion *df, rs_ar *ar, const data *d, const size_t *held,
                         size_t nheld, int npos, uint64_t seed) {
  tk_rng rng;
  tk_rng_seed(&rng, seed ^ 0xe7a1);
  size_t n = nheld < (size_t)npos ? nheld : (size_t)npos;
  double hit = 0, uhit = 0, tiles = 0, se = 0, use = 0, secs = 0;
  unsigned long long shortp = 0, filled = 0, opp = 0;
  double excess = 0, offl = 0, msh = 0, mtrue = 0; /* the rounded counts' sum minus the hand size; the scores */
  for (size_t j = 0; j < n; j++) {
    const example *e = &d->e[held[j * (nheld / n)]];
    float c[RS_OBS_DIM], own[RS_X_ROW], x[RS_X_DIM];
    c_of(e, c);
    for (int i = 0; i < RS_X_ROW; i++)
      own[i] = i < TK_KINDS ? e->x[i] * 0.25f : (float)e->x[i];
    tk_error err;
    double t0 = now();
    int need[3];
    uint8_t unseen[TK_KINDS], hands[3][TK_KINDS], red[3];
    memcpy(unseen, e->c + 34 + 4 * RS_OBS_SEAT + 34, TK_KINDS);
    for (int i = 0; i < 3; i++) need[i] = 13 - 3 * e->c[34 + (i + 1) * RS_OBS_SEAT + 139];
    int f;
    if (ar) {
      f = rs_ar_hands(ar, c, need, unseen, 7, &rng, hands, red);
      memset(x, 0, sizeof x);
    } else {
      if (rs_df_sample_x0(df, c, own, 1, &rng, x, &err)) return;
      f = rs_df_discretise((const float(*)[RS_X_ROW])(x + RS_X_ROW), need, unseen, 7, &rng,
                           hands, red);
    }
    secs += now() - t0;
    if (f < 0) continue;
    for (int i = 0; i < 3 && !ar; i++) {
      int sum = 0;
      for (int k = 0; k < TK_KINDS; k++) {
        float v = x[(i + 1) * RS_X_ROW + k] * 4;
        int q = (int)floorf(v + 0.5f);
        sum += q;
        offl += fabsf(v - (float)q) * 0.25f;
      }
      excess += sum - need[i];
    }
    shortp += f > 0, filled += (unsigned long long)f;
    /* a uniform draw of the same hands from the unseen tiles, for comparison */
    uint8_t uh[3][TK_KINDS] = {{0}}, av[TK_KINDS];
    memcpy(av, unseen, TK_KINDS);
    int pool = 0;
    for (int k = 0; k < TK_KINDS; k++) pool += av[k];
    for (int i = 0; i < 3; i++)
      for (int m = 0; m < need[i] && pool > 0; m++, pool--) {
        int r = (int)tk_rng_below(&rng, (uint32_t)pool), k = 0;
        while (r >= av[k]) r -= av[k++];
        uh[i][k]++, av[k]--;
      }
    for (int i = 0; i < 3; i++) {
      const uint8_t *truth = e->x + (i + 1) * RS_X_ROW;
      for (int k = 0; k < TK_KINDS; k++) {
        hit += hands[i][k] < truth[k] ? hands[i][k] : truth[k];
        uhit += uh[i][k] < truth[k] ? uh[i][k] : truth[k];
      }
      tiles += need[i];
      int s = tk_shanten(hands[i]), us = tk_shanten(uh[i]);
      s = s < 0 ? 0 : s > 6 ? 6 : s, us = us < 0 ? 0 : us > 6 ? 6 : us;
      se += (s - e->sh[i]) * (s - e->sh[i]);
      msh += s, mtrue += e->sh[i];
      use += (us - e->sh[i]) * (us - e->sh[i]);
      opp++;
    }
  }
  if (ar)
    printf("held-out sampling (autoregressive), %zu positions x 1 sample: tiles right %.1f %% "
           "(uniform draw %.1f %%); shanten MSE %.3f (uniform %.3f); %.2f ms a sample (this "
           "binary's CBLAS)\n", n, 100 * hit / (tiles ? tiles : 1), 100 * uhit / (tiles ? tiles : 1),
           se / (double)(opp ? opp : 1), use / (double)(opp ? opp : 1), 1000 * secs / (double)(n ? n : 1));
  else
  printf("held-out sampling, %zu positions x 1 sample (guidance %g, eta %g): hands filled at random in "
         "%llu samples (%llu tiles); tiles right %.1f %% (uniform draw %.1f %%); shanten MSE "
         "%.3f (uniform %.3f); %.2f ms a sample (this binary's CBLAS)\n", n, df->guidance, df->eta, shortp,
         filled, 100 * hit / (tiles ? tiles : 1), 100 * uhit / (tiles ? tiles : 1),
         se / (double)(opp ? opp : 1), use / (double)(opp ? opp : 1), 1000 * secs / (double)(n ? n : 1));
  printf("  mean shanten (6: six or more): samples %.2f, the true hands %.2f\n",
         msh / (double)(opp ? opp : 1), mtrue / (double)(opp ? opp : 1));
  if (!ar)
  printf("  the model's counts, rounded, add up to the hand size %+.2f on average; mean distance "
         "of a value to its reference point %.4f (0.125 at most)\n", excess / (double)(opp ? opp : 1),
         offl / (double)(opp ? opp : 1) / TK_KINDS);
}

int main(int argc, char **argv) {
  const char *in[64], *outp = NULL, *model = "diffusion", *evalf = NULL;
  int nin = 0, hidden = 192, layers = 3, epochs = 8, holdout = 10, every = 4, batch = 256;
  int steps = 20, skip_bad = 0, evalpos = 500;
  double lr = 1e-3, drop = 0.1, guidance = 1, eta = 1;
  int precond = 1;
  uint64_t seed = 1;
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &outp, .value = "FILE", .once = 1,
       .help = "train and write the weights to FILE"},
      {.name = "evaluate", .kind = TK_OPT_STRING, .dest = &evalf, .value = "FILE", .once = 1,
       .help = "measure the diffusion weights in FILE on the held-out positions instead"},
      {.name = "model", .kind = TK_OPT_STRING, .dest = &model, .value = "M",
       .help = "diffusion (paper 003's sampler), direct (its shanten and wait baseline) or "
               "autoregressive (its other baseline, an MLP over tile tokens)"},
      {.name = "hidden", .kind = TK_OPT_INT, .dest = &hidden, .value = "H", .min = 1,
       .max = 4096, .help = "hidden units per layer (192)"},
      {.name = "layers", .kind = TK_OPT_INT, .dest = &layers, .value = "L", .min = 2,
       .max = RS_NN_MAX_LAYERS, .help = "weight layers (3: two hidden layers)"},
      {.name = "steps", .kind = TK_OPT_INT, .dest = &steps, .value = "T", .min = 2,
       .max = RS_DF_MAX_T, .help = "diffusion steps T (20)"},
      {.name = "epochs", .kind = TK_OPT_INT, .dest = &epochs, .value = "N", .min = 1, .max = 1000,
       .help = "passes over the training examples (8)"},
      {.name = "batch", .kind = TK_OPT_INT, .dest = &batch, .value = "B", .min = 1, .max = 65536,
       .help = "minibatch size (256)"},
      {.name = "lr", .kind = TK_OPT_DOUBLE, .dest = &lr, .value = "R", .lo = 0, .hi = 1,
       .open = 1, .help = "Adam's learning rate at the start, cosine-decayed to 0 (0.001)"},
      {.name = "drop", .kind = TK_OPT_DOUBLE, .dest = &drop, .value = "P", .lo = 0, .hi = 1,
       .help = "probability of dropping c in training (0.1, for classifier-free guidance)"},
      {.name = "precondition", .kind = TK_OPT_INT, .dest = &precond, .value = "0|1", .min = 0,
       .max = 1, .help = "1: the preconditioning of rs_df_precondition (default); 0: F is x0^"},
      {.name = "eta", .kind = TK_OPT_DOUBLE, .dest = &eta, .value = "E", .lo = 0, .hi = 1,
       .help = "the held-out sampling's step noise: 1 DDPM (default), 0 DDIM"},
      {.name = "guidance", .kind = TK_OPT_DOUBLE, .dest = &guidance, .value = "W", .lo = 0,
       .hi = 20, .help = "guidance weight of the held-out sampling (1)"},
      {.name = "every", .kind = TK_OPT_INT, .dest = &every, .value = "N", .min = 1, .max = 1000000,
       .help = "keep one decision in N (4)"},
      {.name = "seed", .kind = TK_OPT_U64, .dest = &seed, .value = "S",
       .help = "initial weights, order, noise (1)"},
      {.name = "holdout", .kind = TK_OPT_INT, .dest = &holdout, .value = "M", .min = 2,
       .max = 1000000, .help = "hold out games g with g % M == M-1 (10)"},
      {.name = "eval-positions", .kind = TK_OPT_INT, .dest = &evalpos, .value = "N", .min = 0,
       .max = 1000000, .help = "held-out positions sampled after training (500)"},
      {.name = "skip-bad-games", .kind = TK_OPT_FLAG, .dest = &skip_bad,
       .help = "leave out a game the engine cannot replay (else stop)"},
      {.name = NULL},
  };
  int prc = tk_opts_parse_prog(PROG, opts, argc, argv, in, 64, &nin);
  if (prc == 1) {
    printf("usage: " PROG " INPUT... --out FILE [options]\n"
           "INPUT: an mjai log (*.jsonl, *.jsonl.gz), a folder of logs, or a run folder\n");
    tk_opts_help(stdout, opts);
    return 0;
  }
  int direct = model && !strcmp(model, "direct");
  int arm = model && !strcmp(model, "autoregressive");
  if (!prc && (!model || (!direct && !arm && strcmp(model, "diffusion")))) {
    fprintf(stderr, PROG ": --model is diffusion, direct or autoregressive\n");
    prc = 2;
  }
  if (!prc && (!nin || !outp == !evalf || (evalf && direct))) {
    fprintf(stderr, PROG ": give inputs and one of --out and --evaluate (not direct)\n");
    prc = 2;
  }
  if (prc) return 2;
  data d;
  memset(&d, 0, sizeof d);
  d.holdout = holdout, d.every = every, d.skip_bad = skip_bad;
  double w0 = now();
  for (int i = 0; i < nin; i++) {
    tk_error err;
    tk_error_clear(&err);
    int rc = tk_riichi_log_games(in[i], on_game, &d, &err);
    if (rc) {
      if (rc < 0) fprintf(stderr, PROG ": %s\n", err.msg);
      return rc == 1 || rc == TK_ENOMEM ? 1 : 2;
    }
  }
  size_t ntrain = 0, nheld = 0;
  size_t *tr = malloc((d.n + 1) * sizeof *tr), *he = malloc((d.n + 1) * sizeof *he);
  if (!tr || !he) return 1;
  for (size_t i = 0; i < d.n; i++) {
    if (d.e[i].held) he[nheld++] = i;
    else tr[ntrain++] = i;
  }
  printf("read %llu games (%llu left out) in %.1f s: %zu positions, one decision in %d "
         "(%zu training, %zu held out: games %% %d == %d)\n", d.games, d.bad_games, now() - w0,
         d.n, every, ntrain, nheld, holdout, holdout - 1);
  if (!ntrain || !nheld) {
    fprintf(stderr, PROG ": no training or no held-out position in the inputs\n");
    return 1;
  }
  tk_error err;
  tk_error_clear(&err);
  tk_rng rng;
  tk_rng_seed(&rng, seed);
  rs_diffusion df;
  memset(&df, 0, sizeof df);
  rs_mlp net;
  if (evalf && arm) {
    rs_ar ar;
    if (rs_ar_load(&ar, evalf, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      return 1;
    }
    eval_samples(NULL, &ar, &d, he, nheld, evalpos, seed);
    rs_ar_free(&ar);
    return 0;
  }
  if (evalf) {
    if (rs_df_load(&df, evalf, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      return 1;
    }
    df.guidance = guidance, df.eta = eta;
    loss_by_t(&df, &d, he, nheld);
    eval_samples(&df, NULL, &d, he, nheld, evalpos, seed);
    rs_df_free(&df);
    return 0;
  }
  int n[RS_NN_MAX_LAYERS + 1];
  n[0] = arm ? RS_AR_IN : direct ? RS_OBS_DIM : RS_DF_IN;
  for (int l = 1; l < layers; l++) n[l] = hidden;
  n[layers] = arm ? TK_KINDS : direct ? RS_DIRECT_OUT : RS_X_DIM;
  if (rs_mlp_init(&net, layers, n, &rng, &err)) {
    fprintf(stderr, PROG ": %s\n", err.msg);
    return 1;
  }
  rs_mlp *m = &net;
  if (!direct && !arm) {
    if (rs_df_from_net(&df, &net, steps, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      return 1;
    }
    /* the data's mean and deviation per coordinate, for the preconditioning */
    double sum[RS_X_DIM] = {0}, sq[RS_X_DIM] = {0};
    float mu[RS_X_DIM], sd[RS_X_DIM];
    for (size_t j = 0; j < ntrain; j++) {
      float x[RS_X_DIM];
      x0s_of(&d.e[tr[j]], x);
      for (int i = 0; i < RS_X_DIM; i++) sum[i] += x[i], sq[i] += (double)x[i] * x[i];
    }
    for (int i = 0; i < RS_X_DIM; i++) {
      double mm = sum[i] / (double)ntrain, v = sq[i] / (double)ntrain - mm * mm;
      mu[i] = (float)mm, sd[i] = (float)sqrt(v > 0 ? v : 0);
    }
    if (rs_df_precondition(&df, precond ? mu : NULL, sd, &err)) {
      fprintf(stderr, PROG ": %s\n", err.msg);
      return 1;
    }
    m = &df.net;
  }
  rs_adam adam;
  rs_mlp_cache cache;
  memset(&cache, 0, sizeof cache);
  int W = 0;
  for (int l = 0; l <= layers; l++) W = n[l] > W ? n[l] : W;
  float *inb = malloc((size_t)batch * W * sizeof *inb), *tgt = malloc((size_t)batch * W * sizeof *tgt);
  float *outb = malloc((size_t)batch * W * sizeof *outb), *dout = malloc((size_t)batch * W * sizeof *dout);
  float *sc = malloc(2 * (size_t)batch * W * sizeof *sc);
  int *tbatch = malloc((size_t)batch * sizeof *tbatch);
  if (!inb || !tgt || !outb || !dout || !sc || !tbatch || rs_adam_init(&adam, m, lr, &err)) {
    fprintf(stderr, PROG ": out of memory\n");
    return 1;
  }
  char tinfo[32] = "";
  if (!direct && !arm) snprintf(tinfo, sizeof tinfo, ", T = %d", steps);
  printf("model %s: %d -> %d layers of %d -> %d, %zu parameters%s; batch %d, Adam lr %g "
         "(cosine), %d epochs, seed %llu\n", arm ? "autoregressive" : direct ? "direct" : "diffusion", n[0], layers - 1,
         hidden, n[layers], m->np, tinfo, batch, lr, epochs, (unsigned long long)seed);
  if (!direct && !arm)
    printf("classifier-free guidance: c dropped with probability %g; preconditioning %s\n", drop,
           precond ? "per coordinate (data mean and deviation)" : "none");
  size_t evaln = nheld < 20000 ? nheld : 20000;
  size_t *trsub = malloc(evaln * sizeof *trsub);
  for (size_t i = 0; i < evaln; i++) trsub[i] = tr[i * (ntrain / evaln ? ntrain / evaln : 1) % ntrain];
  printf("epoch   training loss (running)   training loss (fixed draw, %zu)   held-out loss "
         "(%zu)   wall s\n", evaln, evaln);
  size_t steps_total = (ntrain + (size_t)batch - 1) / (size_t)batch * (size_t)epochs, step = 0;
  double t0 = now();
  clock_t c0 = clock();
  for (int ep = 0; ep < epochs; ep++) {
    for (size_t i = ntrain; i > 1; i--) {
      size_t j = tk_rng_below(&rng, (uint32_t)i), t = tr[i - 1];
      tr[i - 1] = tr[j], tr[j] = t;
    }
    double run = 0;
    for (size_t j = 0; j < ntrain; j += (size_t)batch, step++) {
      int b = (int)(ntrain - j < (size_t)batch ? ntrain - j : (size_t)batch);
      adam.lr = lr * 0.5 * (1 + cos(3.141592653589793 * (double)step / (double)steps_total));
      if (arm) {
        ar_batch(&d, tr + j, b, &rng, inb, tbatch);
      } else if (direct) {
        for (int r = 0; r < b; r++) c_of(&d.e[tr[j + r]], inb + (size_t)r * RS_OBS_DIM);
      } else {
        diff_batch(&df, &d, tr + j, b, drop, &rng, inb, tgt, tbatch);
      }
      if (rs_mlp_forward(m, b, inb, outb, &cache, NULL)) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
      }
      if (arm) {
        run += ar_loss(b, outb, tbatch, 1.0f / (float)b, dout);
      } else if (direct) {
        for (int r = 0; r < b; r++) {
          const example *e = &d.e[tr[j + r]];
          run += rs_direct_loss(outb + (size_t)r * RS_DIRECT_OUT, e->sh, e->wait, 1.0f / (float)b,
                                dout + (size_t)r * RS_DIRECT_OUT);
        }
      } else {
        run += x0_loss(&df, b, inb, tbatch, outb, tgt, dout);
      }
      rs_mlp_backward(m, &cache, dout, adam.g);
      rs_adam_step(&adam, m);
    }
    if (!direct && !arm) rs_df_refresh(&df);
    double lt = eval_loss(direct, arm, m, &df, &d, trsub, evaln, batch, inb, tgt, outb, dout, sc);
    double lh = eval_loss(direct, arm, m, &df, &d, he, evaln, batch, inb, tgt, outb, dout, sc);
    printf("%5d   %23.5f   %32.5f   %20.5f   %6.0f\n", ep + 1,
           run / (double)ntrain / (direct || arm ? 1.0 : RS_X_DIM), lt, lh, now() - t0);
    fflush(stdout);
  }
  printf("training: %.0f s wall, %.0f s CPU\n", now() - t0, (double)(clock() - c0) / CLOCKS_PER_SEC);
  int rc = arm      ? rs_mlp_save(outp, m, RS_AR_MODEL, RS_OBS_VERSION, &err)
           : direct ? rs_mlp_save(outp, m, RS_DIRECT_MODEL, RS_OBS_VERSION, &err)
                  : rs_mlp_save(outp, m, RS_DF_MODEL, RS_OBS_VERSION, &err);
  char hex[TK_SHA256_HEX];
  if (rc || tk_sha256_file(outp, hex, &err)) {
    fprintf(stderr, PROG ": %s\n", err.msg);
    return 1;
  }
  printf("wrote %s: sha256 %s\n", outp, hex);
  if (direct) {
    /* held-out: the squared error of the expected shanten, and of the most likely one */
    double se = 0, se1 = 0, brier = 0;
    size_t cnt = 0;
    for (size_t j = 0; j < nheld; j++) {
      const example *e = &d.e[he[j]];
      float c[RS_OBS_DIM], o[RS_DIRECT_OUT];
      c_of(e, c);
      rs_mlp_forward_from(m, 0, 1, c, o, sc);
      for (int i = 0; i < 3; i++) {
        const float *q = o + i * RS_DIRECT_PER;
        double mx = q[0], z = 0, p[RS_DIRECT_SH], ev = 0;
        int best = 0;
        for (int k = 1; k < RS_DIRECT_SH; k++) mx = q[k] > mx ? q[k] : mx;
        for (int k = 0; k < RS_DIRECT_SH; k++) z += p[k] = exp(q[k] - mx);
        for (int k = 0; k < RS_DIRECT_SH; k++) {
          ev += k * p[k] / z;
          if (p[k] > p[best]) best = k;
        }
        se += (ev - e->sh[i]) * (ev - e->sh[i]);
        se1 += (best - e->sh[i]) * (best - e->sh[i]);
        for (int k = 0; k < TK_KINDS; k++) {
          double pw = 1 / (1 + exp(-(double)q[RS_DIRECT_SH + k])), t = (double)(e->wait[i] >> k & 1);
          brier += (pw - t) * (pw - t);
        }
        cnt++;
      }
    }
    printf("held-out (%zu opponents): shanten squared error %.3f (expected value), %.3f (most "
           "likely); wait Brier score %.5f per kind\n", cnt, se / (double)(cnt ? cnt : 1),
           se1 / (double)(cnt ? cnt : 1), brier / (double)(cnt ? cnt : 1) / TK_KINDS);
  }
  if (arm && evalpos) {
    rs_ar ar;
    memset(&ar, 0, sizeof ar);
    if (!rs_ar_load(&ar, outp, &err)) {
      eval_samples(NULL, &ar, &d, he, nheld, evalpos, seed);
      rs_ar_free(&ar);
    }
  }
  if (!direct && !arm && evalpos) {
    df.guidance = guidance, df.eta = eta;
    loss_by_t(&df, &d, he, nheld);
    eval_samples(&df, NULL, &d, he, nheld, evalpos, seed);
  }
  rs_adam_free(&adam);
  rs_mlp_cache_free(&cache);
  if (direct || arm) rs_mlp_free(&net);
  else rs_df_free(&df);
  free(inb), free(tgt), free(outb), free(dout), free(sc), free(tbatch), free(tr), free(he), free(trsub);
  free(d.e);
  return 0;
}
