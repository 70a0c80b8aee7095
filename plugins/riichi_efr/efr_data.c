/* plugins/riichi_efr/efr_data.c — reading the EFR trainer's data from mjai logs (efr_data.h).
 * Files are streamed (zlib reads plain and gzip, several members in a row), one game at a time,
 * so a corpus of any size needs the memory of one game besides what is kept. */
#include "efr_data.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include <zlib.h>

#include "riichi_log.h"

enum { MAX_HANDS = 256 };

/* Whether text[0 .. len) holds pat[0 .. n). */
static int has(const char *text, size_t len, const char *pat, size_t n) {
  for (size_t i = 0; i + n <= len; i++)
    if (text[i] == pat[0] && !memcmp(text + i, pat, n)) return 1;
  return 0;
}

static void *grow(void *p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 1024;
  while (c < need) c *= 2;
  void *q = realloc(p, c * size);
  if (q) *cap = c;
  return q;
}

typedef struct hook_ctx {
  rm_efr_state s[MAX_HANDS];
  int n, over;
  unsigned hands; /* g->hands of the last boundary recorded */
} hook_ctx;

static void on_begin(void *ctx) {
  hook_ctx *h = ctx;
  h->n = 0;
  h->over = 0;
  h->hands = 0;
}

/* The first decision of each hand: the boundary before it. */
static void on_decision(void *ctx, const tk_riichi_game *g, int seat, const tk_riichi_action *a,
                        int line) {
  (void)seat, (void)a, (void)line;
  hook_ctx *h = ctx;
  if (g->hands == h->hands) return;
  h->hands = g->hands;
  if (h->n == MAX_HANDS) {
    h->over = 1;
    return;
  }
  rm_efr_state *s = &h->s[h->n++];
  memcpy(s->scores, g->scores, sizeof s->scores);
  s->round = g->round;
  s->honba = g->honba;
  s->sticks = g->sticks;
}

static int ints4(json_t *o, const char *key, int32_t out[4]) {
  json_t *a = json_object_get(o, key);
  if (json_array_size(a) != 4) return -1;
  for (int i = 0; i < 4; i++) {
    json_t *v = json_array_get(a, i);
    if (!json_is_integer(v)) return -1;
    out[i] = (int32_t)json_integer_value(v);
  }
  return 0;
}

/* The outcome of the hand that started at boundary `b` (dealer `dealer`): its lines from
 * start_kyoku to end_kyoku, parsed into `x` (absolute seats first, turned relative last). */
typedef struct hand_acc {
  int32_t start[4], end[4];
  int started, ended, nhora, nriichi, kind, winner, payer, dealer_tenpai;
  int honba, sticks, dealer, round;
} hand_acc;

static int line_type(const char *line, size_t len, const char *type) {
  char pat[40];
  int n = snprintf(pat, sizeof pat, "\"type\":\"%s\"", type);
  return has(line, len, pat, (size_t)n);
}

/* Reads one outcome line into `h`; returns 0 or -1 (a field missing). */
static int outcome_line(const char *line, size_t len, hand_acc *h) {
  int hora = line_type(line, len, "hora"), draw = !hora && line_type(line, len, "ryukyoku");
  int start = !hora && !draw && line_type(line, len, "start_kyoku");
  if (!hora && !draw && !start) {
    if (line_type(line, len, "reach_accepted")) h->nriichi++;
    return 0;
  }
  json_t *o = json_loadb(line, len, 0, NULL);
  if (!o) return -1;
  int rc = 0;
  if (start) {
    memset(h, 0, sizeof *h);
    h->started = 1;
    h->honba = (int)json_integer_value(json_object_get(o, "honba"));
    h->sticks = (int)json_integer_value(json_object_get(o, "kyotaku"));
    h->dealer = (int)json_integer_value(json_object_get(o, "oya")) & 3;
    rc = ints4(o, "scores", h->start);
  } else if (hora) {
    if (!h->nhora++) {
      int w = (int)json_integer_value(json_object_get(o, "actor")) & 3;
      int t = (int)json_integer_value(json_object_get(o, "target")) & 3;
      json_t *pao = json_object_get(o, "pao");
      h->kind = w == t ? EFR_TSUMO : EFR_RON;
      h->winner = w;
      h->payer = json_is_integer(pao) ? (int)json_integer_value(pao) & 3 : w == t ? -1 : t;
    }
    h->dealer_tenpai |= (int)json_integer_value(json_object_get(o, "actor")) == h->dealer;
    rc = ints4(o, "scores", h->end);
    h->ended = 1;
  } else {
    const char *r = json_string_value(json_object_get(o, "reason"));
    int exhaustive = r && (!strcmp(r, "fanpai") || !strcmp(r, "nagashimangan"));
    h->kind = exhaustive ? EFR_DRAW : EFR_ABORT;
    h->dealer_tenpai = json_is_true(json_array_get(json_object_get(o, "tenpais"), h->dealer));
    rc = ints4(o, "scores", h->end);
    h->ended = 1;
  }
  json_decref(o);
  return rc;
}

/* The hand in `h` as an efr_hand (seats relative to the dealer). */
static efr_hand hand_of(const hand_acc *h, int round, uint32_t game) {
  int32_t d[4];
  for (int s = 0; s < 4; s++) d[s] = h->end[s] - h->start[s];
  efr_hand x;
  memset(&x, 0, sizeof x);
  x.kind = (uint8_t)h->kind;
  x.payer = 0xff;
  if (h->kind == EFR_RON || h->kind == EFR_TSUMO) {
    d[h->winner] -= 1000 * h->sticks + 300 * h->honba;
    if (h->payer >= 0) d[h->payer] += 300 * h->honba;
    else
      for (int s = 0; s < 4; s++)
        if (s != h->winner) d[s] += 100 * h->honba;
    x.winner = (uint8_t)((h->winner - h->dealer) & 3);
    if (h->payer >= 0) x.payer = (uint8_t)((h->payer - h->dealer) & 3);
  }
  for (int k = 0; k < 4; k++) x.d[k] = d[(h->dealer + k) & 3];
  x.nriichi = (uint8_t)h->nriichi;
  x.renchan = (uint8_t)(h->kind == EFR_ABORT || h->dealer_tenpai);
  x.yame = (uint8_t)(h->kind != EFR_ABORT && h->dealer_tenpai);
  x.round = (uint8_t)round;
  x.game = game;
  return x;
}

/* The outcomes of the game's hands, one per boundary in `hc`, appended to d->hand. */
static int game_hands(const char *where, const char *text, size_t len, const hook_ctx *hc,
                      uint32_t game, efr_data *d, tk_error *err) {
  hand_acc h;
  memset(&h, 0, sizeof h);
  int k = 0, lineno = 0;
  for (const char *p = text, *end = text + len; p < end; lineno++) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
    const char *line = p;
    p += n + 1;
    if (outcome_line(line, n, &h))
      return tk_error_set(err, TK_EPARSE, -1, "%s: line %d of the game: a hand's outcome "
                          "lacks its scores, actor or reason", where, lineno + 1);
    if (!line_type(line, n, "end_kyoku")) continue;
    if (!h.started || !h.ended || k >= hc->n)
      return tk_error_set(err, TK_EINVAL, -1, "%s: line %d of the game: end_kyoku without a "
                          "hand's start and outcome", where, lineno + 1);
    const rm_efr_state *b = &hc->s[k];
    if (memcmp(b->scores, h.start, sizeof h.start) || b->honba != h.honba ||
        b->sticks != h.sticks || (b->round & 3) != h.dealer)
      return tk_error_set(err, TK_EINVAL, -1, "%s: line %d of the game: start_kyoku disagrees "
                          "with the engine's hand %d (scores, honba, kyotaku or oya)",
                          where, lineno + 1, k + 1);
    efr_hand *nh = grow(d->hand, &d->cap_hand, d->nhand + 1, sizeof *nh);
    if (!nh) return tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
    d->hand = nh;
    d->hand[d->nhand++] = hand_of(&h, b->round, game);
    k++;
    memset(&h, 0, sizeof h);
  }
  if (k != hc->n)
    return tk_error_set(err, TK_EINVAL, -1, "%s: %d hands replayed but %d ended by end_kyoku",
                        where, hc->n, k);
  return 0;
}

int efr_data_game(const char *where, const char *text, size_t len, efr_data *d, tk_error *err) {
  uint32_t game = (uint32_t)d->games++;
  if (!has(text, len, "\"end_game\"", 10)) {
    d->incomplete++;
    return 0;
  }
  hook_ctx *hc = malloc(sizeof *hc);
  tk_riichi_replay *out = malloc(sizeof *out);
  FILE *f = fmemopen((void *)text, len, "r");
  if (!hc || !out || !f) {
    if (f) fclose(f);
    free(hc), free(out);
    return tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
  }
  on_begin(hc);
  tk_riichi_replay_hooks hooks = {on_begin, on_decision, hc};
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_riichi_log_replay_hooked(f, &hooks, out, &e);
  fclose(f);
  if (rc)
    rc = tk_error_set(err, rc, -1, "%s: line %d of the game: %s: %s; the engine cannot replay "
                      "it", where, out->bad_line, out->bad_event,
                      out->bad_what[0] ? out->bad_what : e.msg);
  else if (hc->over)
    rc = tk_error_set(err, TK_EINVAL, -1, "%s: more than %d hands", where, MAX_HANDS);
  else
    rc = game_hands(where, text, len, hc, game, d, err);
  if (!rc) {
    uint8_t rank[4];
    tk_riichi_ranks(out->scores, rank);
    efr_point *np = grow(d->pt, &d->cap_pt, d->npt + (size_t)hc->n, sizeof *np);
    if (!np) rc = tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
    else {
      d->pt = np;
      for (int k = 0; k < hc->n; k++) {
        efr_point *p = &d->pt[d->npt++];
        p->s = hc->s[k];
        memcpy(p->rank, rank, sizeof rank);
        p->game = game;
      }
    }
  }
  free(hc), free(out);
  return rc;
}

/* Streams the games of one log file (plain or gzip) into `d`. */
static int read_file(const char *path, efr_data *d, tk_error *err) {
  gzFile z = gzopen(path, "rb");
  if (!z) return tk_error_set(err, TK_EIO, -1, "%s: cannot open: %s", path, strerror(errno));
  char *game = NULL, *line = malloc(1 << 16);
  size_t glen = 0, gcap = 0;
  int rc = line ? 0 : tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
  long lineno = 0, first = 1;
  char where[4200];
  for (;;) {
    if (rc) break;
    size_t start = glen; /* one line, however long, appended to the game */
    int eof = 0;
    for (;;) {
      if (!gzgets(z, line, 1 << 16)) {
        eof = 1;
        break;
      }
      size_t n = strlen(line);
      char *g = grow(game, &gcap, glen + n + 1, 1);
      if (!g) {
        rc = tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
        break;
      }
      game = g;
      memcpy(game + glen, line, n + 1);
      glen += n;
      if (n && line[n - 1] == '\n') break;
    }
    if (rc) break;
    int errnum = 0;
    const char *zmsg = gzerror(z, &errnum);
    if (errnum < 0) {
      rc = tk_error_set(err, TK_EIO, -1, "%s: line %ld: %s", path, lineno + 1, zmsg);
      break;
    }
    if (glen > start) lineno++;
    int new_game = glen > start && start > 0 &&
                   has(game + start, glen - start, "\"start_game\"", 12) &&
                   has(game + start, glen - start, "\"type\"", 6);
    size_t cut = eof ? glen : new_game ? start : 0;
    if (cut > 0) {
      snprintf(where, sizeof where, "%s (game from line %ld)", path, first);
      rc = efr_data_game(where, game, cut, d, err);
      memmove(game, game + cut, glen - cut);
      glen -= cut;
      first = lineno;
    }
    if (eof) break;
  }
  gzclose(z);
  free(game), free(line);
  return rc;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && !strcmp(s + n - m, suffix);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder's *.jsonl and *.jsonl.gz logs in name order (a run folder: its logs/). */
static int read_dir(const char *arg, efr_data *d, tk_error *err) {
  char dir[4096];
  struct stat st;
  snprintf(dir, sizeof dir, "%s/spec.json", arg);
  if (!stat(dir, &st)) snprintf(dir, sizeof dir, "%s/logs", arg);
  else snprintf(dir, sizeof dir, "%s", arg);
  DIR *dp = opendir(dir);
  if (!dp) return tk_error_set(err, TK_EIO, -1, "%s: cannot open the folder: %s", dir,
                               strerror(errno));
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(dp))) {
    if (e->d_name[0] == '.' || !(ends_with(e->d_name, ".jsonl") || ends_with(e->d_name, ".jsonl.gz")))
      continue;
    char **nn = grow(names, &cap, n + 1, sizeof *nn);
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *name = nn ? malloc(len) : NULL;
    if (nn) names = nn;
    if (!name) {
      rc = tk_error_set(err, TK_ENOMEM, -1, "riichi_efr: out of memory");
      break;
    }
    snprintf(name, len, "%s/%s", dir, e->d_name);
    names[n++] = name;
  }
  closedir(dp);
  if (!rc && !n) rc = tk_error_set(err, TK_ENOTFOUND, -1, "%s: no *.jsonl or *.jsonl.gz log in "
                                   "this folder", dir);
  if (n) qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n && !rc; i++) rc = read_file(names[i], d, err);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}

int efr_data_read(const char *path, efr_data *d, tk_error *err) {
  struct stat st;
  if (stat(path, &st)) return tk_error_set(err, TK_ENOTFOUND, -1, "%s: %s", path, strerror(errno));
  return S_ISDIR(st.st_mode) ? read_dir(path, d, err) : read_file(path, d, err);
}

void efr_data_free(efr_data *d) {
  free(d->pt);
  free(d->hand);
  memset(d, 0, sizeof *d);
}
