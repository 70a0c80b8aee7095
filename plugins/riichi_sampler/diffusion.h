/* plugins/riichi_sampler/diffusion.h — paper 003's learned sampler: a DDPM over the 4 x 2 x 34
 * representation (obs.h) conditioned on the observation c, with a cosine noise schedule,
 * classifier-free guidance, inpainting of the viewer's own hand and the paper's discretisation.
 *
 * The denoiser f(x_t, c, t) predicts x0 (through the preconditioning of rs_df_precondition) (in the diffusion's space 2 x0 - 1). It is an MLP
 * (rs_nn.h), not the paper's GPT: a sample runs T steps of the network on one CPU core inside a
 * Monte Carlo agent, and an MLP's cost there is a few small matrix products; a transformer over
 * 4 x 2 x 34 tokens would cost orders of magnitude more per step. Input layout, n[0] = RS_DF_IN:
 *   [0, RS_X_DIM)                x_t
 *   [RS_X_DIM, +RS_OBS_DIM)      c (all zero when dropped)
 *   then RS_DF_TEMB numbers      the time embedding of t (rs_df_temb)
 *   then 1                       1 when c is dropped (the unconditional model), else 0
 * Because x_t enters only the first layer linearly, the sampler computes the parts of the first
 * layer that come from c and from t once per call and per step, and shares x_t's part between
 * the conditional and the unconditional pass.
 *
 * Sampling (rs_df_sample_x0): x_T ~ N(0, I); for t = T..1, x0^ = f_u + w (f_c - f_u) (w the
 * guidance; w = 1: the conditional model alone, one pass) clipped to [-1, 1], then x_{t-1} from
 * the DDPM posterior q(x_{t-1} | x_t, x0^) (or a DDIM step, option eta); after every step the viewer's own row is replaced by
 * its known x0 noised to level t-1 (inpainting). Gaussian noise comes from the caller's tk_rng by
 * Box-Muller: the same rng state gives the same samples (with GSL's CBLAS, on every machine). */
#ifndef RIICHI_SAMPLER_DIFFUSION_H
#define RIICHI_SAMPLER_DIFFUSION_H

#include "obs.h"
#include "rs_nn.h"
#include "rsamp.h"

#define RS_DF_MODEL "rs_diffusion"
enum {
  RS_DF_TEMB = 32,
  RS_DF_IN = RS_X_DIM + RS_OBS_DIM + RS_DF_TEMB + 1,
  RS_DF_MAX_T = 1000
};

/* The cosine schedule of Nichol & Dhariwal (2021) over T steps: alpha_bar(t) =
 * f(t) / f(0), f(t) = cos^2(((t / T) + s) / (1 + s) x pi / 2), s = 0.008; beta_t = 1 -
 * alpha_bar(t) / alpha_bar(t - 1) clipped to at most 0.999, and abar[] recomputed as the
 * product of (1 - beta) so that the two agree. abar[0] = 1, beta[0] = 0; arrays of T + 1. */
void rs_df_schedule(int T, double *abar, double *beta);
/* The sinusoidal embedding of step t of T (t scaled to 0..1000, 16 frequencies). */
void rs_df_temb(int t, int T, float e[RS_DF_TEMB]);
/* A standard normal number from rng (Box-Muller, one draw of two uniforms per number). */
float rs_gauss(tk_rng *rng);

typedef struct rs_diffusion {
  rs_mlp net;
  int T;
  double abar[RS_DF_MAX_T + 1], beta[RS_DF_MAX_T + 1];
  double guidance;          /* 1: conditional only */
  double eta;               /* 1: DDPM's ancestral steps (default); 0: DDIM's deterministic ones */
  int precond;              /* 1: rs_df_precondition's (meta[1] in the file) */
  float *cmu, *cskip, *cout; /* (T + 1) x RS_X_DIM each */
  float *tpart;             /* (T + 1) x H: the time embedding's part of layer 0 */
  float *buf;               /* scratch */
  size_t bufcap;
  /* counters since open, for the docs and the evaluation */
  unsigned long long samples, short_samples, tiles_filled;
  uint8_t sha256[32];
} rs_diffusion;

/* Makes a model of T steps around `net` (taken over) and precomputes. Returns 0 or TK_E*. */
int rs_df_from_net(rs_diffusion *d, rs_mlp *net, int T, tk_error *err);
/* The preconditioning (after Karras et al. 2022, "EDM", per coordinate and with the data's mean):
 * x0^_i = m_i + k_i (x_t,i - sqrt(ab) m_i) + o_i F_i(x_t, c, t), where m_i and s_i are the mean
 * and standard deviation of coordinate i of 2 x0 - 1 in the training data, ab = alpha_bar(t),
 * k_i = s_i^2 sqrt(ab) / (ab s_i^2 + 1 - ab) (the best linear estimate of x0 from x_t) and
 * o_i = s_i sqrt(1 - ab) / sqrt(ab s_i^2 + 1 - ab) (that estimate's error): the network only
 * corrects the linear estimate, at unit scale. Without it the MLP must carry all 272 values of
 * x_t through its narrower hidden layers to return them at small t, which it did poorly (a
 * first model's held-out loss at t = 1 was 0.028, and its samples were off the count lattice).
 * mu, sd NULL: none (x0^ = F). Stored in net.meta: [1] = 1, [16, 16 + 272) m, then s. */
int rs_df_precondition(rs_diffusion *d, const float *mu, const float *sd, tk_error *err);
/* Recomputes what the sampler precomputes from the weights (after training changed them). */
void rs_df_refresh(rs_diffusion *d);
/* Loads a weights file written by the trainer. Returns 0 or TK_E* naming the file. */
int rs_df_load(rs_diffusion *d, const char *path, tk_error *err);
void rs_df_free(rs_diffusion *d);

/* One training input row: x0s = 2 x0 - 1, the noise eps, step t, c (NULL: dropped). */
void rs_df_input(const rs_diffusion *d, const float *x0s, const float *eps, int t,
                 const float *c, float in[RS_DF_IN]);

/* k samples of x0 in [0, 1] (out: k x RS_X_DIM, viewer-relative rows) for observation c, the
 * viewer's own row own[RS_X_ROW] (in [0, 1]) inpainted. Returns 0 or TK_ENOMEM. */
int rs_df_sample_x0(rs_diffusion *d, const float c[RS_OBS_DIM], const float own[RS_X_ROW], int k,
                    tk_rng *rng, float *out, tk_error *err);

/* The paper's discretisation (§4.1 of the spec). y: the 3 opponents' rows in [0, 1]
 * (viewer-relative 1, 2, 3); need[i]: the tiles opponent i conceals; unseen: copies per kind
 * the viewer cannot see; red_unseen: bit u, suit u's red five is unseen. Each (opponent, kind)
 * gets the count its value is nearest to among {0, .25, .5, .75, 1} x 4 and a score, the
 * distance to it; all 3 x 34 are sorted by score (ties: opponent, then kind) and, in that
 * order, set to min(the tiles the opponent still needs, the unseen copies left, the count
 * indicated), never changed again. An opponent still short then gets tiles drawn uniformly from
 * the unseen copies left (rng), opponents in order. Red: bit u of red[i] when the opponent holds
 * a five of suit u and its flag value is >= 0.5. Returns the tiles filled at random (0 for a
 * trained model, as the paper reports), or -1 when the unseen tiles cannot fill the hands. */
int rs_df_discretise(const float y[3][RS_X_ROW], const int need[3],
                     const uint8_t unseen[TK_KINDS], uint8_t red_unseen, tk_rng *rng,
                     uint8_t hands[3][TK_KINDS], uint8_t red[3]);

/* The sampler (tk_riichi_sample_fn) with an rs_diffusion as ctx. */
int rs_df_sample(void *ctx, const tk_riichi_view *v, const tk_riichi_rules *rules, tk_rng *rng,
                 int k, tk_riichi_game *out, tk_error *err);

/* rsamp.c's opener of "diffusion": options {"guidance": w, "eta": e}: w the classifier-free
 * guidance weight (default 1, the conditional model; w > 1 strengthens the observation, at the
 * cost of a second network pass per step), e in [0, 1] the step's noise (1, DDPM: the paper's;
 * 0, DDIM). */
int rs_df_open(rs_sampler *s, const char *options_json, const char *file, tk_error *err);

#endif
