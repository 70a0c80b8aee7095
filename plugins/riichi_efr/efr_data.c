/* plugins/riichi_efr/efr_data.c — reading the EFR trainer's data from mjai logs (efr_data.h).
 * Files are streamed by tk_riichi_log_games (riichi_log.h), one game at a time, so a corpus of
 * any size needs the memory of one game besides what is kept. */
#include "efr_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

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

typedef struct read_ctx {
  efr_data *d;
  tk_error *err;
} read_ctx;

/* One game of a log file (tk_riichi_log_game_fn), named by its file and first line. */
static int on_game(void *ctx, const char *path, const char *text, size_t len, long first) {
  if (!len) return 0; /* an empty file: no game */
  read_ctx *r = ctx;
  char where[4200];
  snprintf(where, sizeof where, "%s (game from line %ld)", path, first);
  return efr_data_game(where, text, len, r->d, r->err);
}

int efr_data_read(const char *path, efr_data *d, tk_error *err) {
  read_ctx r = {d, err};
  return tk_riichi_log_games(path, on_game, &r, err);
}

void efr_data_free(efr_data *d) {
  free(d->pt);
  free(d->hand);
  memset(d, 0, sizeof *d);
}
