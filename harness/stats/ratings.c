/* harness/stats/ratings.c — the Plackett–Luce data set (distinct games with their counts and
 * clusters), Hunter's MM fit, and the cluster resampling (Newton steps from the full fit:
 * first with the full data's information (the chord method), then with the resample's own;
 * MM when they do not settle). Invariant: pat_* hold each distinct game once; game_pat and
 * game_key list every game added, in order. */
#include "ratings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

enum { MAX_N = 64 };

struct tk_pl {
  int m;                        /* agents */
  int top;                      /* 1 + the highest agent index added */
  /* distinct games: codes[pat_off[p] .. + pat_len[p]) = agent * 2 + (ties with the next) */
  int32_t *codes;
  size_t ncodes, cap_codes;
  uint32_t *pat_off, *pat_len;
  size_t npat, cap_pat;
  uint32_t *hash;               /* open addressing: pattern + 1, 0 empty */
  size_t hcap;
  /* every game */
  uint32_t *game_pat;
  uint64_t *game_key;
  size_t ngames, cap_games;
  uint64_t *agent_games;
  /* clusters (built on first use after an add): games of cluster c are
   * cl_pat[cl_start[c] .. cl_start[c + 1]) */
  int clusters_ok;
  size_t ncl;
  size_t *cl_start;
  uint32_t *cl_pat;
  double *w;                    /* weight of each pattern in the current fit */
};

tk_pl *tk_pl_new(int nagents) {
  if (nagents < 1) return NULL;
  tk_pl *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->m = nagents;
  d->agent_games = calloc((size_t)nagents, sizeof *d->agent_games);
  if (!d->agent_games) {
    free(d);
    return NULL;
  }
  return d;
}

void tk_pl_free(tk_pl *d) {
  if (!d) return;
  free(d->codes);
  free(d->pat_off);
  free(d->pat_len);
  free(d->hash);
  free(d->game_pat);
  free(d->game_key);
  free(d->agent_games);
  free(d->cl_start);
  free(d->cl_pat);
  free(d->w);
  free(d);
}

int tk_pl_shrink(tk_pl *d, int nagents) {
  if (nagents < d->top || nagents < 1 || nagents > d->m) return TK_EINVAL;
  d->m = nagents;
  return 0;
}

static uint64_t hash_codes(const int32_t *c, int n) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) h = (h ^ (uint32_t)c[i]) * 1099511628211ull;
  return h ^ (h >> 29);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 64;
  while (n < need) n *= 2;
  void *q = realloc(*p, n * elem);
  if (!q) return TK_ENOMEM;
  *p = q;
  *cap = n;
  return 0;
}

static int rehash(tk_pl *d, size_t cap) {
  uint32_t *h = calloc(cap, sizeof *h);
  if (!h) return TK_ENOMEM;
  for (size_t p = 0; p < d->npat; p++) {
    size_t i = hash_codes(d->codes + d->pat_off[p], (int)d->pat_len[p]) & (cap - 1);
    while (h[i]) i = (i + 1) & (cap - 1);
    h[i] = (uint32_t)p + 1;
  }
  free(d->hash);
  d->hash = h;
  d->hcap = cap;
  return 0;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int tk_pl_add(tk_pl *d, const int *agent, const unsigned char *tie_next, int n, uint64_t cluster) {
  if (n < 1 || n > MAX_N) return TK_EINVAL;
  int a[MAX_N];
  int32_t c[MAX_N];
  for (int k = 0; k < n; k++) {
    if (agent[k] < 0 || agent[k] >= d->m) return TK_EINVAL;
    a[k] = agent[k];
  }
  /* a canonical order inside each tie group, so equal games are stored once */
  for (int s = 0, e; s < n; s = e) {
    for (e = s + 1; e < n && tie_next && tie_next[e - 1]; e++) {}
    qsort(a + s, (size_t)(e - s), sizeof *a, cmp_int);
    for (int k = s; k < e; k++) c[k] = a[k] * 2 + (k + 1 < e);
  }
  if (d->hcap < 2 * (d->npat + 1) && rehash(d, d->hcap ? 2 * d->hcap : 1024)) return TK_ENOMEM;
  size_t i = hash_codes(c, n) & (d->hcap - 1);
  uint32_t p = UINT32_MAX;
  for (; d->hash[i]; i = (i + 1) & (d->hcap - 1)) {
    uint32_t q = d->hash[i] - 1;
    if (d->pat_len[q] == (uint32_t)n && !memcmp(d->codes + d->pat_off[q], c, (size_t)n * sizeof *c)) {
      p = q;
      break;
    }
  }
  if (p == UINT32_MAX) {
    if (grow((void **)&d->codes, &d->cap_codes, d->ncodes + (size_t)n, sizeof *d->codes)) return TK_ENOMEM;
    size_t cap = d->cap_pat;
    if (grow((void **)&d->pat_off, &cap, d->npat + 1, sizeof *d->pat_off)) return TK_ENOMEM;
    cap = d->cap_pat;
    if (grow((void **)&d->pat_len, &cap, d->npat + 1, sizeof *d->pat_len)) return TK_ENOMEM;
    d->cap_pat = cap;
    memcpy(d->codes + d->ncodes, c, (size_t)n * sizeof *c);
    d->pat_off[d->npat] = (uint32_t)d->ncodes;
    d->pat_len[d->npat] = (uint32_t)n;
    d->ncodes += (size_t)n;
    p = (uint32_t)d->npat++;
    d->hash[i] = p + 1;
  }
  size_t cap = d->cap_games;
  if (grow((void **)&d->game_pat, &cap, d->ngames + 1, sizeof *d->game_pat)) return TK_ENOMEM;
  cap = d->cap_games;
  if (grow((void **)&d->game_key, &cap, d->ngames + 1, sizeof *d->game_key)) return TK_ENOMEM;
  d->cap_games = cap;
  d->game_pat[d->ngames] = p;
  d->game_key[d->ngames++] = cluster;
  for (int k = 0; k < n; k++) {
    int dup = 0;
    for (int j = 0; j < k; j++) dup |= agent[j] == agent[k];
    if (!dup) d->agent_games[agent[k]]++;
    if (agent[k] + 1 > d->top) d->top = agent[k] + 1;
  }
  d->clusters_ok = 0;
  return 0;
}

uint64_t tk_pl_agent_games(const tk_pl *d, int agent) {
  return agent >= 0 && agent < d->m ? d->agent_games[agent] : 0;
}
uint64_t tk_pl_games(const tk_pl *d) { return d->ngames; }

static const uint64_t *sort_keys;
static int cmp_game(const void *a, const void *b) {
  uint64_t x = sort_keys[*(const size_t *)a], y = sort_keys[*(const size_t *)b];
  if (x != y) return (x > y) - (x < y);
  return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Builds the cluster lists and the weight array. Returns 0 or TK_ENOMEM. */
static int build_clusters(tk_pl *d) {
  if (d->clusters_ok) return 0;
  size_t n = d->ngames;
  size_t *idx = malloc((n ? n : 1) * sizeof *idx);
  free(d->cl_start);
  free(d->cl_pat);
  free(d->w);
  d->cl_start = malloc((n + 1) * sizeof *d->cl_start);
  d->cl_pat = malloc((n ? n : 1) * sizeof *d->cl_pat);
  d->w = calloc(d->npat ? d->npat : 1, sizeof *d->w);
  if (!idx || !d->cl_start || !d->cl_pat || !d->w) {
    free(idx);
    return TK_ENOMEM;
  }
  for (size_t g = 0; g < n; g++) idx[g] = g;
  sort_keys = d->game_key; /* qsort has no context argument; single-threaded use */
  qsort(idx, n, sizeof *idx, cmp_game);
  d->ncl = 0;
  for (size_t k = 0; k < n; k++) {
    if (!k || d->game_key[idx[k]] != d->game_key[idx[k - 1]]) d->cl_start[d->ncl++] = k;
    d->cl_pat[k] = d->game_pat[idx[k]];
  }
  d->cl_start[d->ncl] = n;
  free(idx);
  d->clusters_ok = 1;
  return 0;
}

uint64_t tk_pl_clusters(tk_pl *d) { return build_clusters(d) ? 0 : d->ncl; }

/* One pass over the weighted distinct games at strengths g = exp(theta): den[a] = the sum, over
 * each seat of agent a and each choosing group whose risk set holds that seat, of
 * w * (group size) / (risk set's strength); win[a] = weighted seats of a in choosing groups;
 * lose[a] = weighted seats of a in a risk set that chose others. Returns the log-likelihood. */
static double pass(const tk_pl *d, const double *theta, const double *g, double *den, double *win,
                   double *lose) {
  int m = d->m;
  memset(den, 0, (size_t)m * sizeof *den);
  memset(win, 0, (size_t)m * sizeof *win);
  memset(lose, 0, (size_t)m * sizeof *lose);
  double ll = 0, S[MAX_N + 1];
  for (size_t p = 0; p < d->npat; p++) {
    double w = d->w[p];
    if (w == 0) continue;
    const int32_t *c = d->codes + d->pat_off[p];
    int n = (int)d->pat_len[p];
    S[n] = 0;
    for (int k = n - 1; k >= 0; k--) S[k] = S[k + 1] + g[c[k] >> 1];
    double acc = 0;
    for (int s = 0, e; s < n; s = e) {
      for (e = s + 1; e < n && (c[e - 1] & 1); e++) {}
      if (e < n) { /* a choosing group: places s..e-1 out of the risk set s..n-1 */
        int ds = e - s;
        acc += ds / S[s];
        double lg = 0;
        for (int k = s; k < e; k++) {
          lg += theta[c[k] >> 1];
          win[c[k] >> 1] += w;
        }
        for (int k = e; k < n; k++) lose[c[k] >> 1] += w;
        ll += w * (lg - ds * log(S[s]));
      }
      for (int k = s; k < e; k++) den[c[k] >> 1] += w * acc;
    }
  }
  return ll;
}

static double prior_ll(const tk_pl_opts *o, const double *theta, int m) {
  double ll = 0;
  for (int a = 0; a < m && o->prior > 0; a++)
    ll += o->prior / 2 * theta[a] - o->prior * log1p(exp(theta[a]));
  return ll;
}

static void centre(double *theta, int m) {
  double mean = 0;
  for (int a = 0; a < m; a++) mean += theta[a] / m;
  for (int a = 0; a < m; a++) theta[a] -= mean;
}

static void opts_defaults(const tk_pl_opts *o, tk_pl_opts *out) {
  *out = o ? *o : (tk_pl_opts){0};
  if (!(out->tol > 0)) out->tol = 1e-9;
  if (out->max_iter <= 0) out->max_iter = 100000;
  if (!(out->prior >= 0)) out->prior = 0;
}

/* The likelihood does not change when every log-strength moves by one amount; the prior alone
 * fixes that amount, at the c where sum_a sigmoid(theta_a + c) = m / 2. Moves theta there
 * (MM would get there at the pace of the prior's few virtual games). */
static void prior_shift(double *theta, int m) {
  double lo = -60, hi = 60;
  for (int it = 0; it < 100; it++) {
    double c = (lo + hi) / 2, f = 0;
    for (int a = 0; a < m; a++) f += 1 / (1 + exp(-(theta[a] + c)));
    if (f > m / 2.0) hi = c;
    else lo = c;
  }
  for (int a = 0; a < m; a++) theta[a] += (lo + hi) / 2;
}

/* MM on the current weights from `theta` (in/out, centred on return). */
static int mm(tk_pl *d, const tk_pl_opts *o, double *theta, int *iterations, tk_error *err) {
  int m = d->m, rc = 0;
  double *g = calloc(5 * (size_t)m, sizeof *g);
  if (!g) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  double *den = g + m, *win = den + m, *lose = win + m, *gn = lose + m;
  for (int a = 0; a < m; a++) g[a] = exp(theta[a]);
  pass(d, theta, g, den, win, lose);
  if (o->prior == 0)
    for (int a = 0; a < m; a++)
      if (win[a] == 0 || lose[a] == 0) {
        rc = tk_error_set(err, TK_ERANGE, -1,
                          "agent %d is %s: its maximum-likelihood strength is %s (use a prior)", a,
                          win[a] == 0 ? "never ahead of another seat" : "never behind another seat",
                          win[a] == 0 ? "0" : "infinite");
        goto done;
      }
  int it = 0;
  for (;; it++) {
    if (it >= o->max_iter) {
      rc = tk_error_set(err, TK_ESTATE, -1, "the MM fit did not converge in %d iterations", it);
      goto done;
    }
    if (it) pass(d, theta, g, den, win, lose);
    double lmean = 0, delta = 0;
    for (int a = 0; a < m; a++) {
      double num = win[a] + o->prior / 2, dd = den[a] + (o->prior > 0 ? o->prior / (g[a] + 1) : 0);
      gn[a] = num / dd;
      lmean += log(gn[a]) / m;
    }
    for (int a = 0; a < m; a++) gn[a] = log(gn[a]) - (o->prior == 0 ? lmean : 0);
    if (o->prior > 0) prior_shift(gn, m);
    for (int a = 0; a < m; a++) {
      double t = gn[a];
      if (!isfinite(t)) {
        rc = tk_error_set(err, TK_ERANGE, -1, "agent %d: the MM fit left the finite range", a);
        goto done;
      }
      delta = fmax(delta, fabs(t - theta[a]));
      theta[a] = t;
      g[a] = exp(t);
    }
    if (delta < o->tol) break;
  }
  if (iterations) *iterations = it + 1;
  centre(theta, m);
done:
  free(g);
  return rc;
}

static void set_counts(tk_pl *d) {
  memset(d->w, 0, d->npat * sizeof *d->w);
  for (size_t g = 0; g < d->ngames; g++) d->w[d->game_pat[g]] += 1;
}

int tk_pl_fit(tk_pl *d, const tk_pl_opts *opts, double *theta, int *iterations, tk_error *err) {
  tk_pl_opts o;
  opts_defaults(opts, &o);
  if (build_clusters(d)) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  set_counts(d);
  for (int a = 0; a < d->m; a++) theta[a] = 0;
  return mm(d, &o, theta, iterations, err);
}

double tk_pl_loglik(tk_pl *d, const double *theta) {
  if (build_clusters(d)) return NAN;
  set_counts(d);
  int m = d->m;
  double *g = malloc(4 * (size_t)m * sizeof *g);
  if (!g) return NAN;
  for (int a = 0; a < m; a++) g[a] = exp(theta[a]);
  double ll = pass(d, theta, g, g + m, g + 2 * m, g + 3 * m);
  free(g);
  return ll;
}

/* -H at theta on the current weights (the observed information of log-strengths), into h
 * (m x m), the prior's part included; a multiple of 11' is added when there is no prior, whose
 * null direction (a common shift) it fills. */
static void information(const tk_pl *d, const tk_pl_opts *o, const double *theta, gsl_matrix *h) {
  int m = d->m;
  gsl_matrix_set_zero(h);
  int ag[MAX_N];
  double cnt[MAX_N], pr[MAX_N];
  for (size_t p = 0; p < d->npat; p++) {
    double w = d->w[p];
    if (w == 0) continue;
    const int32_t *c = d->codes + d->pat_off[p];
    int n = (int)d->pat_len[p];
    for (int s = 0, e; s < n; s = e) {
      for (e = s + 1; e < n && (c[e - 1] & 1); e++) {}
      if (e >= n) break;
      int na = 0;
      double S = 0;
      for (int k = s; k < n; k++) {
        int a = c[k] >> 1, j = 0;
        while (j < na && ag[j] != a) j++;
        if (j == na) {
          ag[na] = a;
          cnt[na++] = 0;
        }
        cnt[j] += 1;
        S += exp(theta[a]);
      }
      for (int j = 0; j < na; j++) pr[j] = cnt[j] * exp(theta[ag[j]]) / S;
      double f = w * (e - s);
      for (int i = 0; i < na; i++)
        for (int j = 0; j < na; j++) {
          double v = f * ((i == j ? pr[i] : 0) - pr[i] * pr[j]);
          *gsl_matrix_ptr(h, (size_t)ag[i], (size_t)ag[j]) += v;
        }
    }
  }
  double diag = 0;
  for (int a = 0; a < m; a++) {
    if (o->prior > 0) {
      double sg = 1 / (1 + exp(-theta[a]));
      *gsl_matrix_ptr(h, (size_t)a, (size_t)a) += o->prior * sg * (1 - sg);
    }
    diag += gsl_matrix_get(h, (size_t)a, (size_t)a) / m;
  }
  if (o->prior == 0)
    for (int a = 0; a < m; a++)
      for (int b = 0; b < m; b++) *gsl_matrix_ptr(h, (size_t)a, (size_t)b) += (diag > 0 ? diag : 1) / m;
}

int tk_pl_resample(tk_pl *d, const tk_pl_opts *opts, const double *theta0, int resamples,
                   uint64_t seed, double *out, tk_error *err) {
  tk_pl_opts o;
  opts_defaults(opts, &o);
  if (build_clusters(d)) return tk_error_set(err, TK_ENOMEM, -1, "out of memory");
  int m = d->m, rc = 0;
  gsl_matrix *h = gsl_matrix_alloc((size_t)m, (size_t)m), *hr = gsl_matrix_alloc((size_t)m, (size_t)m);
  gsl_vector *grad = gsl_vector_alloc((size_t)m), *step = gsl_vector_alloc((size_t)m);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  double *buf = malloc(7 * (size_t)m * sizeof *buf);
  if (!h || !hr || !grad || !step || !rng || !buf) {
    rc = tk_error_set(err, TK_ENOMEM, -1, "out of memory");
    goto done;
  }
  double *theta = buf, *prev = buf + m, *g = prev + m, *den = g + m, *win = den + m,
         *lose = win + m, *st = lose + m;
  /* The chord method: every resample's Newton steps use the full data's information at theta0,
   * which is close to each resample's own, so a few cheap steps settle it. */
  set_counts(d);
  information(d, &o, theta0, h);
  if (gsl_linalg_cholesky_decomp1(h)) {
    rc = tk_error_set(err, TK_ERANGE, -1, "the information matrix is singular (an agent without games and no prior?)");
    goto done;
  }
  gsl_rng_set(rng, (unsigned long)seed);
  size_t ncl = d->ncl;
  for (int r = 0; r < resamples; r++) {
    memset(d->w, 0, d->npat * sizeof *d->w);
    for (size_t j = 0; j < ncl; j++) {
      size_t cl = (size_t)gsl_rng_uniform_int(rng, (unsigned long)ncl);
      for (size_t k = d->cl_start[cl]; k < d->cl_start[cl + 1]; k++) d->w[d->cl_pat[k]] += 1;
    }
    memcpy(theta, theta0, (size_t)m * sizeof *theta);
    double llprev = -INFINITY;
    int ok = 0, halvings = 0, own = 0; /* own: the resample's own information (Newton), not theta0's */
    for (int it = 0; it < 200 && !ok; it++) {
      for (int a = 0; a < m; a++) g[a] = exp(theta[a]);
      double ll = pass(d, theta, g, den, win, lose) + prior_ll(&o, theta, m);
      if (!(ll >= llprev - 1e-12 * fabs(llprev))) { /* overshot: half the last step */
        if (++halvings > 8 && !own) { /* the chord's direction is poor: Newton from prev */
          memcpy(theta, prev, (size_t)m * sizeof *theta);
          own = 1;
          llprev = -INFINITY;
          continue;
        }
        for (int a = 0; a < m; a++) {
          st[a] /= 2;
          theta[a] = prev[a] + st[a];
        }
        continue;
      }
      halvings = 0;
      llprev = ll;
      if (it >= 6) own = 1; /* slow: this resample is far from the full data */
      if (own) {
        information(d, &o, theta, hr);
        if (gsl_linalg_cholesky_decomp1(hr)) break;
      }
      for (int a = 0; a < m; a++) {
        double gr = win[a] - g[a] * den[a];
        if (o.prior > 0) gr += o.prior / 2 - o.prior / (1 + exp(-theta[a]));
        gsl_vector_set(grad, (size_t)a, gr);
      }
      gsl_linalg_cholesky_solve(own ? hr : h, grad, step);
      double mx = 0;
      for (int a = 0; a < m; a++) {
        prev[a] = theta[a];
        st[a] = gsl_vector_get(step, (size_t)a);
        theta[a] += st[a];
        mx = fmax(mx, fabs(st[a]));
      }
      if (!isfinite(mx)) break;
      ok = mx < o.tol;
    }
    if (!ok) { /* the chord did not settle: MM from the full fit */
      memcpy(theta, theta0, (size_t)m * sizeof *theta);
      if ((rc = mm(d, &o, theta, NULL, err))) goto done;
    }
    centre(theta, m);
    memcpy(out + (size_t)r * (size_t)m, theta, (size_t)m * sizeof *theta);
  }
done:
  gsl_matrix_free(h);
  gsl_matrix_free(hr);
  gsl_vector_free(grad);
  gsl_vector_free(step);
  gsl_rng_free(rng);
  free(buf);
  return rc;
}
