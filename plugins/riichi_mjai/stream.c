/* plugins/riichi_mjai/stream.c — one seat's mjai event stream rebuilt from its views
 * (stream.h). The play is replayed from the hand's start in the engine's order: the turn seat
 * draws, may make a closed or added kan (then a replacement draw), discards; a discard is then
 * called (the caller's next meld names it as `from`) or passes to the next seat. Indicators turn
 * where the engine turns them: a closed kan's at once, an open or added kan's after the next
 * discard or kan. */
#include "stream.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tk_mjai_buf_clear(tk_mjai_buf *b) {
  b->n = 0;
  b->oom = 0;
  if (b->s) b->s[0] = '\0';
}

void tk_mjai_buf_free(tk_mjai_buf *b) {
  free(b->s);
  memset(b, 0, sizeof *b);
}

void tk_mjai_buf_printf(tk_mjai_buf *b, const char *fmt, ...) {
  for (;;) {
    size_t room = b->cap - b->n;
    va_list ap;
    va_start(ap, fmt);
    int w = room ? vsnprintf(b->s + b->n, room, fmt, ap) : -1;
    va_end(ap);
    if (w >= 0 && (size_t)w < room) {
      b->n += (size_t)w;
      return;
    }
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (w >= 0 && cap < b->n + (size_t)w + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
      b->oom = 1;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
}

static const char *tile(int t) { return t == TK_TILE_NONE ? "?" : tk_tile_mjai((tk_tile)t); }

static void tiles(tk_mjai_buf *b, const uint8_t *t, int n) {
  tk_mjai_buf_printf(b, "[");
  for (int i = 0; i < n; i++) tk_mjai_buf_printf(b, "%s\"%s\"", i ? "," : "", tile(t[i]));
  tk_mjai_buf_printf(b, "]");
}

static void ints(tk_mjai_buf *b, const char *key, const int32_t *v) {
  tk_mjai_buf_printf(b, ",\"%s\":[%d,%d,%d,%d]", key, (int)v[0], (int)v[1], (int)v[2], (int)v[3]);
}

int tk_mjai_event(tk_mjai_buf *b, const tk_riichi_event *ev, int viewer) {
  static const char *const type[TK_RIICHI_EV_COUNT] = {
      "start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan",
      "dora", "reach", "reach_accepted", "hora", "ryukyoku", "end_kyoku", "end_game"};
  if (ev->type >= TK_RIICHI_EV_COUNT || ev->type == TK_RIICHI_EV_START_GAME ||
      ev->type == TK_RIICHI_EV_HORA || ev->type == TK_RIICHI_EV_RYUKYOKU)
    return -1;
  tk_mjai_buf_printf(b, "%s{\"type\":\"%s\"", b->n ? "," : "", type[ev->type]);
  switch (ev->type) {
    case TK_RIICHI_EV_START_KYOKU: {
      static const char *const wind[4] = {"E", "S", "W", "N"};
      tk_mjai_buf_printf(b,
                         ",\"bakaze\":\"%s\",\"dora_marker\":\"%s\",\"kyoku\":%d,\"honba\":%d,"
                         "\"kyotaku\":%d,\"oya\":%d",
                         wind[ev->round / 4 % 4], tile(ev->tile), ev->round % 4 + 1, ev->honba,
                         ev->sticks, ev->dealer);
      ints(b, "scores", ev->scores);
      tk_mjai_buf_printf(b, ",\"tehais\":[");
      for (int s = 0; s < 4; s++) {
        static const uint8_t hidden[13] = {TK_TILE_NONE, TK_TILE_NONE, TK_TILE_NONE, TK_TILE_NONE,
                                           TK_TILE_NONE, TK_TILE_NONE, TK_TILE_NONE, TK_TILE_NONE,
                                           TK_TILE_NONE, TK_TILE_NONE, TK_TILE_NONE, TK_TILE_NONE,
                                           TK_TILE_NONE};
        if (s) tk_mjai_buf_printf(b, ",");
        tiles(b, s == viewer ? ev->tehais[s] : hidden, 13);
      }
      tk_mjai_buf_printf(b, "]");
      break;
    }
    case TK_RIICHI_EV_TSUMO:
      tk_mjai_buf_printf(b, ",\"actor\":%d,\"pai\":\"%s\"", ev->actor,
                         ev->actor == viewer ? tile(ev->tile) : "?");
      break;
    case TK_RIICHI_EV_DAHAI:
      tk_mjai_buf_printf(b, ",\"actor\":%d,\"pai\":\"%s\",\"tsumogiri\":%s", ev->actor,
                         tile(ev->tile), ev->tsumogiri ? "true" : "false");
      break;
    case TK_RIICHI_EV_CHI:
    case TK_RIICHI_EV_PON:
    case TK_RIICHI_EV_DAIMINKAN:
      tk_mjai_buf_printf(b, ",\"actor\":%d,\"target\":%d,\"pai\":\"%s\",\"consumed\":", ev->actor,
                         ev->target, tile(ev->tile));
      tiles(b, ev->consumed, ev->nconsumed);
      break;
    case TK_RIICHI_EV_KAKAN:
      tk_mjai_buf_printf(b, ",\"actor\":%d,\"pai\":\"%s\",\"consumed\":", ev->actor,
                         tile(ev->tile));
      tiles(b, ev->consumed, ev->nconsumed);
      break;
    case TK_RIICHI_EV_ANKAN:
      tk_mjai_buf_printf(b, ",\"actor\":%d,\"consumed\":", ev->actor);
      tiles(b, ev->consumed, ev->nconsumed);
      break;
    case TK_RIICHI_EV_DORA:
      tk_mjai_buf_printf(b, ",\"dora_marker\":\"%s\"", tile(ev->tile));
      break;
    case TK_RIICHI_EV_REACH:
      tk_mjai_buf_printf(b, ",\"actor\":%d", ev->actor);
      break;
    case TK_RIICHI_EV_REACH_ACCEPTED:
      tk_mjai_buf_printf(b, ",\"actor\":%d", ev->actor);
      ints(b, "deltas", ev->deltas);
      ints(b, "scores", ev->scores);
      break;
    case TK_RIICHI_EV_END_GAME:
      ints(b, "scores", ev->scores);
      break;
    default:
      break;
  }
  tk_mjai_buf_printf(b, "}");
  return 0;
}

void tk_mjai_start_game(tk_mjai_buf *b, int viewer, int length, int red_fives) {
  tk_mjai_buf_printf(b,
                     "%s{\"type\":\"start_game\",\"id\":%d,\"names\":[\"player0\",\"player1\","
                     "\"player2\",\"player3\"],\"kyoku_first\":%d,\"aka_flag\":%s}",
                     b->n ? "," : "", viewer, length == 2 ? 0 : 4, red_fives ? "true" : "false");
}

/* ------------------------------------------------------------ the rebuilt play */

static void ev0(tk_riichi_event *ev, int type, int actor) {
  memset(ev, 0, sizeof *ev);
  ev->type = (uint8_t)type;
  ev->actor = (int8_t)actor;
  ev->target = -1;
  ev->tile = TK_TILE_NONE;
}

static void simple(tk_mjai_stream *st, tk_mjai_buf *b, int type, int actor, int t) {
  tk_riichi_event ev;
  ev0(&ev, type, actor);
  ev.tile = (uint8_t)t;
  tk_mjai_event(b, &ev, st->seat);
}

static void dora(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b) {
  if (st->ndora < v->ndora && st->ndora < 5) simple(st, b, TK_RIICHI_EV_DORA, -1, v->dora[st->ndora++]);
}

static void flip_pending(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b) {
  for (; st->pending; st->pending--) dora(st, v, b);
}

void tk_mjai_stream_begin(tk_mjai_stream *st, int seat, int length, int red_fives) {
  memset(st, 0, sizeof *st);
  st->seat = seat;
  st->length = (uint8_t)length;
  st->red_fives = (uint8_t)red_fives;
  st->caller = TK_RIICHI_NOBODY;
}

/* Is the last discard of `s` a riichi declaration still waiting for its reactions? */
static int riichi_pending(const tk_riichi_view *v, int s) {
  return v->phase == TK_RIICHI_PHASE_REACT && v->actor == s &&
         v->last_from == TK_RIICHI_FROM_DISCARD && v->nriver[s] > 0 &&
         (v->river[s][v->nriver[s] - 1].flags & TK_RIICHI_DECLARED);
}

static void start_hand(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b) {
  tk_riichi_event ev;
  ev0(&ev, TK_RIICHI_EV_START_KYOKU, -1);
  int accepted = 0;
  for (int s = 0; s < 4; s++) {
    int paid = v->riichi[s] && !riichi_pending(v, s);
    accepted += paid;
    ev.scores[s] = v->scores[s] + 1000 * paid;
  }
  ev.round = v->round;
  ev.honba = v->honba;
  ev.sticks = (uint8_t)(v->sticks - accepted);
  ev.dealer = v->dealer;
  ev.tile = v->dora[0];
  /* the seat has not acted yet this hand: its tiles are its starting 13 and the drawn tile */
  int n = 0, skip = v->phase == TK_RIICHI_PHASE_SELF && v->drawn != TK_TILE_NONE;
  memset(ev.tehais, TK_TILE_NONE, sizeof ev.tehais);
  for (int i = 0; i < v->nhand && n < 13; i++) {
    if (skip && v->tiles[i] == v->drawn) {
      skip = 0;
      continue;
    }
    ev.tehais[st->seat][n++] = v->tiles[i];
  }
  tk_mjai_event(b, &ev, st->seat);
  memcpy(st->scores, ev.scores, sizeof st->scores);
  st->in_hand = 1;
  st->round = v->round;
  st->honba = v->honba;
  st->turn = v->dealer;
  st->stage = TK_MJAI_DRAW;
  memset(st->nriver, 0, sizeof st->nriver);
  memset(st->nmelds, 0, sizeof st->nmelds);
  memset(st->mtype, 0, sizeof st->mtype);
  st->ndora = 1;
  st->pending = 0;
  st->caller = TK_RIICHI_NOBODY;
  st->accepted = st->choice = st->after_call = st->reach_sent = 0;
  st->plays = 0;
}

/* Is sent meld `i` of `s` a pon that the view shows as an added kan? */
static int new_kakan(const tk_mjai_stream *st, const tk_riichi_view *v, int s, int i) {
  return i < st->nmelds[s] && st->mtype[s][i] == TK_CALL_PON && v->melds[s][i].type == TK_CALL_KAKAN;
}

static int any_kakan(const tk_mjai_stream *st, const tk_riichi_view *v, int s) {
  for (int i = 0; i < st->nmelds[s]; i++)
    if (new_kakan(st, v, s, i)) return 1;
  return 0;
}

static int new_ankan(const tk_mjai_stream *st, const tk_riichi_view *v, int s) {
  return st->nmelds[s] < v->nmelds[s] && v->melds[s][st->nmelds[s]].type == TK_CALL_ANKAN;
}

/* Has `s` an own action (discard, closed or added kan) the stream has not sent? */
static int has_own_action(const tk_mjai_stream *st, const tk_riichi_view *v, int s) {
  return st->nriver[s] < v->nriver[s] || new_ankan(st, v, s) || any_kakan(st, v, s);
}

/* The `n` tiles `t` other than one copy of `skip`. */
static int others(const uint8_t *t, int n, int skip, uint8_t *out) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (skip != TK_TILE_NONE && t[i] == skip) {
      skip = TK_TILE_NONE;
      continue;
    }
    out[k++] = t[i];
  }
  return k;
}

static uint32_t view_plays(const tk_riichi_view *v) {
  return (uint32_t)v->plays[0] | (uint32_t)v->plays[1] << 8 | (uint32_t)v->plays[2] << 16;
}

/* Has every play the view shows been sent, in the view's order? (Checked where the rebuilt
 * play reaches the decision: a play that stops there otherwise took a wrong branch.) */
static int done(const tk_mjai_stream *st, const tk_riichi_view *v) {
  for (int s = 0; s < 4; s++)
    if (st->nriver[s] != v->nriver[s] || st->nmelds[s] != v->nmelds[s] || any_kakan(st, v, s))
      return 0;
  return st->plays == view_plays(v);
}

static void played(tk_mjai_stream *st, int s, int type, int tile) {
  st->plays = tk_riichi_plays_hash(st->plays, s, type, tile);
}

static int play(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b, int *ambiguous);

/* At a point where the view allows several plays (which seat called a discard; a kan now, which
 * one, or a discard first), each is tried on a copy, in order; the first that reaches the
 * decision with everything sent is kept. Two that do make the decision ambiguous. */
static int settle(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b, int *ambiguous,
                  const tk_mjai_stream *tries, int ntries, size_t n0) {
  tk_mjai_stream kept;
  int ok = 0;
  size_t kept_n = 0;
  char *kept_s = NULL;
  for (int i = 0; i < ntries; i++) {
    tk_mjai_stream c = tries[i];
    b->n = n0;
    if (b->s) b->s[n0] = '\0';
    int amb = 0;
    if (play(&c, v, b, &amb)) continue;
    if (ok++) {
      *ambiguous = 1;
      break;
    }
    *ambiguous |= amb;
    kept = c;
    kept_n = b->n;
    kept_s = malloc(b->n - n0 + 1);
    if (!kept_s) return -1;
    memcpy(kept_s, b->s + n0, b->n - n0 + 1);
  }
  if (!ok) return -1;
  b->n = n0;
  if (b->s) b->s[n0] = '\0';
  tk_mjai_buf_printf(b, "%s", kept_s);
  free(kept_s);
  if (b->n != kept_n) return -1;
  *st = kept;
  return 0;
}

enum { CHOOSE = 0, CHOOSE_DISCARD, CHOOSE_ANKAN, CHOOSE_KAKAN }; /* + meld index */

/* The turn seat `t`'s next own play (st->choice): found when the view allows one, else each
 * allowed one tried (settle). Returns 1 when the play was settled whole, 0 to go on with
 * st->choice set, -1 when nothing fits. */
static int choose(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b, int *ambiguous,
                  int t) {
  if (st->choice != CHOOSE) return 0;
  tk_mjai_stream tries[6];
  int n = 0;
  if (!st->after_call) {
    if (new_ankan(st, v, t)) tries[n++] = *st, tries[n - 1].choice = CHOOSE_ANKAN;
    for (int i = 0; i < st->nmelds[t]; i++)
      if (new_kakan(st, v, t, i)) tries[n++] = *st, tries[n - 1].choice = (uint8_t)(CHOOSE_KAKAN + i);
  }
  if (st->nriver[t] < v->nriver[t]) tries[n++] = *st, tries[n - 1].choice = CHOOSE_DISCARD;
  if (n == 0) return -1;
  if (n == 1) {
    st->choice = tries[0].choice;
    return 0;
  }
  return settle(st, v, b, ambiguous, tries, n, b->n) ? -1 : 1;
}

/* The play's step results: go on to the next stage, or stop with 0 (reached the decision) or
 * -1 (nothing fits). */
enum { PLAY_ON = 1 };

/* Sends the turn seat `t`'s kan `choice` (CHOOSE_ANKAN, or CHOOSE_KAKAN + its meld) and turns
 * the indicators the engine turns with it. */
static void send_kan(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b, int t,
                     int choice) {
  tk_riichi_event ev;
  if (choice >= CHOOSE_KAKAN) {
    int i = choice - CHOOSE_KAKAN;
    const tk_riichi_meld *m = &v->melds[t][i];
    ev0(&ev, TK_RIICHI_EV_KAKAN, t);
    ev.tile = m->added;
    ev.nconsumed = (uint8_t)others(m->tiles, 4, m->added, ev.consumed);
    tk_mjai_event(b, &ev, st->seat);
    played(st, t, TK_RIICHI_KAKAN, m->added);
    st->mtype[t][i] = TK_CALL_KAKAN;
    flip_pending(st, v, b);
    st->pending++;
  } else if (choice == CHOOSE_ANKAN) {
    const tk_riichi_meld *m = &v->melds[t][st->nmelds[t]];
    ev0(&ev, TK_RIICHI_EV_ANKAN, t);
    ev.nconsumed = 4;
    memcpy(ev.consumed, m->tiles, 4);
    tk_mjai_event(b, &ev, st->seat);
    played(st, t, TK_RIICHI_ANKAN, tk_tile_kind(m->tiles[0]));
    st->mtype[t][st->nmelds[t]++] = TK_CALL_ANKAN;
    flip_pending(st, v, b);
    dora(st, v, b);
  }
}

/* TK_MJAI_ACT: the turn seat's kan or discard (with its reach). Returns PLAY_ON, 0 or -1. */
static int step_act(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b,
                    int *ambiguous) {
  const int me = st->seat, t = st->turn;
  /* after its own chi or pon the viewer decides with nothing new to send */
  if (t == me && st->after_call && st->nriver[t] == v->nriver[t])
    return v->phase == TK_RIICHI_PHASE_SELF && done(st, v) ? 0 : -1;
  int rc = choose(st, v, b, ambiguous, t);
  if (rc) return rc > 0 ? 0 : -1;
  int choice = st->choice;
  st->choice = CHOOSE;
  send_kan(st, v, b, t, choice);
  if (choice != CHOOSE_DISCARD) {
    if (v->phase == TK_RIICHI_PHASE_REACT && v->actor == t &&
        v->last_from != TK_RIICHI_FROM_DISCARD && done(st, v)) {
      st->stage = TK_MJAI_AFTER_KAN;
      return 0;
    }
    st->stage = TK_MJAI_DRAW; /* the replacement draw */
    return PLAY_ON;
  }
  const tk_riichi_discard *d = &v->river[t][st->nriver[t]++];
  if ((d->flags & TK_RIICHI_DECLARED) && t == me && st->reach_sent)
    st->reach_sent = 0; /* the bot had its own reach in the exchange that declared it */
  else if (d->flags & TK_RIICHI_DECLARED)
    simple(st, b, TK_RIICHI_EV_REACH, t, TK_TILE_NONE);
  tk_riichi_event ev;
  ev0(&ev, TK_RIICHI_EV_DAHAI, t);
  ev.tile = d->tile;
  ev.tsumogiri = (d->flags & TK_RIICHI_TSUMOGIRI) != 0;
  tk_mjai_event(b, &ev, me);
  played(st, t, (d->flags & TK_RIICHI_DECLARED) ? TK_RIICHI_RIICHI : TK_RIICHI_DISCARD,
         d->tile);
  flip_pending(st, v, b);
  st->after_call = 0;
  st->stage = TK_MJAI_AFTER_DISCARD;
  if (v->phase == TK_RIICHI_PHASE_REACT && v->actor == t &&
      v->last_from == TK_RIICHI_FROM_DISCARD && done(st, v))
    return 0;
  return PLAY_ON;
}

/* Sends seat `caller`'s call of the turn seat `t`'s discard `d` (its next meld in the view) and
 * hands it the turn. */
static void send_call(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b, int t,
                      const tk_riichi_discard *d, int caller) {
  tk_riichi_event ev;
  const tk_riichi_meld *m = &v->melds[caller][st->nmelds[caller]];
  /* a pon the view already shows made into an added kan is sent as the pon it was */
  int type = m->type == TK_CALL_KAKAN ? TK_CALL_PON : m->type;
  int minkan = type == TK_CALL_MINKAN;
  uint8_t called_as[4];
  int n = m->type == TK_CALL_KAKAN ? others(m->tiles, 4, m->added, called_as)
                                   : others(m->tiles, minkan ? 4 : 3, TK_TILE_NONE, called_as);
  ev0(&ev, type == TK_CALL_CHI ? TK_RIICHI_EV_CHI
           : minkan            ? TK_RIICHI_EV_DAIMINKAN
                               : TK_RIICHI_EV_PON,
      caller);
  ev.target = (int8_t)t;
  ev.tile = d->tile;
  ev.nconsumed = (uint8_t)others(called_as, n, d->tile, ev.consumed);
  /* chi and pon name their tiles as the action does (by kind, of a plain and a red five
     the plain first); a daiminkan as its meld (a red five first) */
  int k0 = tk_tile_kind(ev.consumed[0]), k1 = tk_tile_kind(ev.consumed[1]);
  if (!minkan && (k0 > k1 || (k0 == k1 && tk_tile_is_red(ev.consumed[0])))) {
    uint8_t x = ev.consumed[0];
    ev.consumed[0] = ev.consumed[1];
    ev.consumed[1] = x;
  }
  tk_mjai_event(b, &ev, st->seat);
  played(st, caller,
         type == TK_CALL_CHI ? TK_RIICHI_CHI : minkan ? TK_RIICHI_MINKAN : TK_RIICHI_PON,
         d->tile);
  st->mtype[caller][st->nmelds[caller]++] = (uint8_t)type;
  st->turn = (uint8_t)caller;
  if (minkan) {
    st->pending++;
    st->stage = TK_MJAI_DRAW;
  } else {
    st->after_call = 1;
    st->stage = TK_MJAI_ACT;
  }
}

/* TK_MJAI_AFTER_DISCARD: the reach accepted, then the discard passed on or called (the caller
 * found, or each possible one tried). Returns PLAY_ON, 0 or -1. */
static int step_after_discard(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b,
                              int *ambiguous) {
  const int t = st->turn;
  tk_riichi_event ev;
  const tk_riichi_discard *d = &v->river[t][st->nriver[t] - 1];
  if ((d->flags & TK_RIICHI_DECLARED) && !st->accepted) {
    ev0(&ev, TK_RIICHI_EV_REACH_ACCEPTED, t);
    st->scores[t] -= 1000;
    ev.deltas[t] = -1000;
    memcpy(ev.scores, st->scores, sizeof ev.scores);
    tk_mjai_event(b, &ev, st->seat);
    st->accepted = 1;
  }
  if (!(d->flags & TK_RIICHI_CALLED)) {
    st->turn = (uint8_t)((t + 1) % 4);
    st->stage = TK_MJAI_DRAW;
    st->accepted = 0;
    return PLAY_ON;
  }
  int caller = st->caller, candidates = 0;
  if (caller == TK_RIICHI_NOBODY) {
    tk_mjai_stream tries[3];
    for (int k = 1; k < 4; k++) {
      int c = (t + k) % 4;
      if (st->nmelds[c] >= v->nmelds[c]) continue;
      const tk_riichi_meld *m = &v->melds[c][st->nmelds[c]];
      if (m->from != t || m->called != d->tile ||
          (m->type != TK_CALL_CHI && m->type != TK_CALL_PON && m->type != TK_CALL_MINKAN &&
           m->type != TK_CALL_KAKAN))
        continue;
      tries[candidates] = *st;
      tries[candidates++].caller = (uint8_t)c;
    }
    if (!candidates) return -1;
    if (candidates > 1) return settle(st, v, b, ambiguous, tries, candidates, b->n);
    caller = tries[0].caller;
  }
  st->caller = TK_RIICHI_NOBODY;
  st->accepted = 0;
  send_call(st, v, b, t, d, caller);
  return PLAY_ON;
}

/* Plays on from st's point to the decision `v`, appending the events. */
static int play(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b, int *ambiguous) {
  const int me = st->seat;
  for (int guard = 0; guard < 1000; guard++) {
    int t = st->turn, rc;
    switch (st->stage) {
      case TK_MJAI_DRAW:
        if (t == me) {
          if (v->phase != TK_RIICHI_PHASE_SELF || has_own_action(st, v, t)) return -1;
          simple(st, b, TK_RIICHI_EV_TSUMO, t, v->drawn);
          st->stage = TK_MJAI_ACT;
          return done(st, v) ? 0 : -1;
        }
        if (!has_own_action(st, v, t)) return -1;
        simple(st, b, TK_RIICHI_EV_TSUMO, t, TK_TILE_NONE);
        st->stage = TK_MJAI_ACT;
        break;
      case TK_MJAI_ACT:
        if ((rc = step_act(st, v, b, ambiguous)) != PLAY_ON) return rc;
        break;
      case TK_MJAI_AFTER_DISCARD:
        if ((rc = step_after_discard(st, v, b, ambiguous)) != PLAY_ON) return rc;
        break;
      case TK_MJAI_AFTER_KAN: /* nobody robbed the kan: the replacement draw */
        st->stage = TK_MJAI_DRAW;
        break;
      default:
        return -1;
    }
  }
  return -1;
}

int tk_mjai_stream_update(tk_mjai_stream *st, const tk_riichi_view *v, tk_mjai_buf *b,
                          int *ambiguous) {
  *ambiguous = 0;
  if (v->seat != st->seat) return -1;
  if (!st->in_game) {
    tk_mjai_start_game(b, st->seat, st->length, st->red_fives);
    st->in_game = 1;
  }
  if (!st->in_hand || v->round != st->round || v->honba != st->honba) {
    if (st->in_hand) simple(st, b, TK_RIICHI_EV_END_KYOKU, -1, TK_TILE_NONE);
    start_hand(st, v, b);
  }
  tk_mjai_stream c = *st;
  if (play(&c, v, b, ambiguous)) return -1;
  *st = c;
  return b->oom ? -1 : 0;
}

void tk_mjai_stream_end(tk_mjai_stream *st, const int32_t points[4], tk_mjai_buf *b) {
  if (st->in_hand) simple(st, b, TK_RIICHI_EV_END_KYOKU, -1, TK_TILE_NONE);
  tk_riichi_event ev;
  ev0(&ev, TK_RIICHI_EV_END_GAME, -1);
  memcpy(ev.scores, points, sizeof ev.scores);
  tk_mjai_event(b, &ev, st->seat);
  st->in_hand = 0;
  st->in_game = 0;
}
