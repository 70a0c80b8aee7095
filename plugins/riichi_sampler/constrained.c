/* plugins/riichi_sampler/constrained.c — paper 003's S1 sampler: the hidden hands uniform over
 * the arrangements of the unseen tiles in which every opponent in closed riichi holds a hand it
 * could hold (constrained.h, docs/riichi-samplers.md "constrained"). */
#include "constrained.h"

#include <stdlib.h>
#include <string.h>

#include "rsamp_internal.h"

int rs_cons_valid(const uint8_t c[TK_KINDS], uint64_t river) {
  if (tk_shanten(c) != 0) return 0;
  uint64_t w = tk_waits(c);
  return w && !(w & river);
}

/* The descent's objective: 0 exactly on valid hands; 1 for a tenpai hand with some waits in its
 * river and some not, 2 for one without a wait outside its river, 2 + 3 x shanten above tenpai.
 * The descent is Metropolis on exp(-penalty): an uphill move of +4 (from a tenpai hand with a
 * furiten wait to a 1-shanten one) passes with probability e^-4, enough to leave a tenpai shape
 * whose every one-tile change stays furiten (a plain descent got stuck there on 9 of about 4,500
 * riichi seats drawn by the tests), while the steps between shanten levels keep it heading to tenpai. */
static int penalty(const uint8_t c[TK_KINDS], uint64_t river) {
  int sh = tk_shanten(c);
  if (sh > 0) return 2 + 3 * sh;
  uint64_t w = tk_waits(c);
  if (!(w & ~river)) return 2;
  return (w & river) ? 1 : 0;
}

/* One proposal for seat s: its tile i and pool tile j (both uniform) swap. A swap of two tiles
 * of one kind leaves the counts, hence validity, unchanged and is always accepted. With `pen`
 * NULL the new hand is accepted iff valid (the chain); otherwise with probability
 * min(1, exp(*pen - its penalty)) (the descent), and *pen is updated. Returns 1 when accepted. */
static int step(rs_chain *c, int s, tk_rng *rng, int *pen) {
  int i = (int)tk_rng_below(rng, (uint32_t)c->n[s]);
  int j = (int)tk_rng_below(rng, (uint32_t)c->npool);
  uint8_t a = c->tiles[s][i], b = c->pool[j];
  int ka = tk_tile_kind(a), kb = tk_tile_kind(b);
  uint8_t *cnt = c->cnt[s];
  if (ka != kb) {
    cnt[ka]--;
    cnt[kb]++;
    int ok;
    if (pen) {
      static const double up[] = {1, 0.36787944117144233, 0.1353352832366127, 0.049787068367863944,
                                  0.018315638888734179, 0.006737946999085467, 0.0024787521766663585};
      int p = penalty(cnt, c->river[s]), d = p - *pen;
      ok = d <= 0 || (d < 7 && tk_rng_double(rng) < up[d]);
      if (ok) *pen = p;
    } else {
      ok = rs_cons_valid(cnt, c->river[s]);
    }
    if (!ok) {
      cnt[ka]++;
      cnt[kb]--;
      return 0;
    }
  }
  c->tiles[s][i] = b;
  c->pool[j] = a;
  return 1;
}

void rs_chain_run(rs_chain *c, const rs_cons_opts *o, tk_rng *rng, rs_cons_stats *st) {
  if (c->npool <= 0) return;
  for (int s = 0; s < c->nseat; s++) {
    c->failed[s] = 0;
    if (st) st->seats++;
    int pen = penalty(c->cnt[s], c->river[s]);
    if (!pen) continue;
    /* the descent may fail: keep the start to restore it (the uniform hand stays) */
    uint8_t tiles[14], cnt[TK_KINDS], pool[TK_RIICHI_TILES];
    memcpy(tiles, c->tiles[s], sizeof tiles);
    memcpy(cnt, c->cnt[s], sizeof cnt);
    memcpy(pool, c->pool, (size_t)c->npool);
    int t = 0;
    for (; t < o->init_steps && pen > 0; t++) step(c, s, rng, &pen);
    if (st) st->init_steps += (uint64_t)t;
    if (pen > 0) {
      memcpy(c->tiles[s], tiles, sizeof tiles);
      memcpy(c->cnt[s], cnt, sizeof cnt);
      memcpy(c->pool, pool, (size_t)c->npool);
      c->failed[s] = 1;
      if (st) st->fallbacks++;
    }
  }
  uint64_t prop = 0, acc = 0;
  for (int w = 0; w < o->sweeps; w++)
    for (int s = 0; s < c->nseat; s++)
      if (!c->failed[s])
        for (int i = 0; i < c->n[s]; i++, prop++) acc += (uint64_t)step(c, s, rng, NULL);
  if (st) {
    st->proposals += prop;
    st->accepted += acc;
  }
}

int rs_constrained_hands(const rs_cons_opts *o, const tk_riichi_view *v,
                         const tk_riichi_rules *rules, tk_rng *rng, uint8_t hands[4][TK_KINDS],
                         uint8_t red[4], unsigned *given, rs_cons_stats *st, tk_error *err) {
  uint8_t unseen[TK_KINDS], ru;
  if (v->seat > 3 || rs_unseen(v, rules, unseen, &ru))
    return tk_error_set(err, TK_EINVAL, -1, "sampler: the view is not consistent");
  /* the unseen tiles, shuffled: a uniform arrangement (hands in seat order, then the walls) */
  uint8_t all[TK_RIICHI_TILES];
  int n = 0;
  for (int k = 0; k < TK_KINDS; k++)
    for (int c = 0; c < unseen[k]; c++)
      all[n++] = (uint8_t)(c == 0 && k < 27 && k % 9 == 4 && (ru >> (k / 9) & 1) ? k | TK_TILE_RED : k);
  for (int i = n - 1; i > 0; i--) {
    int j = (int)tk_rng_below(rng, (uint32_t)i + 1);
    uint8_t t = all[i];
    all[i] = all[j];
    all[j] = t;
  }
  /* constrained seats take their tiles out; the others' hands and the walls form the pool,
   * the hands first so that their positions are the pool's first ones after the chain */
  rs_chain ch;
  memset(&ch, 0, sizeof ch);
  int seat_of[4], start[4], used = 0;
  for (int s = 0; s < 4; s++) {
    start[s] = used;
    if (s == v->seat) continue;
    used += rs_concealed(v, s);
  }
  if (used > n) return tk_error_set(err, TK_EINVAL, -1, "sampler: the view is not consistent");
  int constrained[4] = {0};
  for (int s = 0; s < 4; s++) {
    if (s == v->seat || !v->riichi[s]) continue;
    int closed = 1;
    for (int i = 0; i < v->nmelds[s] && i < 4; i++) closed &= v->melds[s][i].type == TK_CALL_ANKAN;
    if (!closed) continue;
    constrained[s] = 1;
    int c = ch.nseat++;
    seat_of[c] = s;
    ch.n[c] = rs_concealed(v, s);
    for (int i = 0; i < ch.n[c]; i++) {
      ch.tiles[c][i] = all[start[s] + i];
      ch.cnt[c][tk_tile_kind(ch.tiles[c][i])]++;
    }
    for (int i = 0; i < v->nriver[s] && i < TK_RIICHI_MAX_RIVER; i++)
      ch.river[c] |= 1ULL << tk_tile_kind(v->river[s][i].tile);
  }
  int pstart[4];
  for (int s = 0; s < 4; s++) {
    pstart[s] = ch.npool;
    if (s == v->seat || constrained[s]) continue;
    for (int i = 0; i < rs_concealed(v, s); i++) ch.pool[ch.npool++] = all[start[s] + i];
  }
  for (int i = used; i < n; i++) ch.pool[ch.npool++] = all[i];
  if (st) st->samples++;
  if (ch.nseat) rs_chain_run(&ch, o, rng, st);
  memset(hands, 0, 4 * TK_KINDS);
  memset(red, 0, 4);
  *given = 0;
  for (int s = 0; s < 4; s++) {
    if (s == v->seat) continue;
    *given |= 1u << s;
    const uint8_t *t = NULL;
    int nt = rs_concealed(v, s);
    if (constrained[s]) {
      for (int c = 0; c < ch.nseat; c++)
        if (seat_of[c] == s) t = ch.tiles[c];
    } else {
      t = ch.pool + pstart[s];
    }
    for (int i = 0; i < nt; i++) {
      hands[s][tk_tile_kind(t[i])]++;
      if (tk_tile_is_red(t[i])) red[s] |= (uint8_t)(1u << (tk_tile_kind(t[i]) / 9));
    }
  }
  return 0;
}

int rs_cons_option(const char *sampler, const char *key, json_t *val, rs_cons_opts *o,
                   tk_error *err) {
  int *dest = !strcmp(key, "sweeps") ? &o->sweeps : !strcmp(key, "init_steps") ? &o->init_steps : NULL;
  if (!dest) return 0;
  int lo = dest == &o->sweeps ? 0 : 1, hi = 1000000;
  json_int_t x = json_is_integer(val) ? json_integer_value(val) : -1;
  if (!json_is_integer(val) || x < lo || x > hi) {
    char *txt = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
    tk_error_set(err, TK_EINVAL, -1, "sampler '%s': option '%s': bad value %s (an integer in %d..%d)",
                 sampler, key, txt ? txt : "?", lo, hi);
    free(txt);
    return TK_EINVAL;
  }
  *dest = (int)x;
  return 1;
}

static int sample_constrained(void *ctx, const tk_riichi_view *view, const tk_riichi_rules *rules,
                              tk_rng *rng, int k, tk_riichi_game *out, tk_error *err) {
  rs_cons_ctx *c = ctx;
  for (int i = 0; i < k; i++) {
    uint8_t hands[4][TK_KINDS], red[4];
    unsigned given;
    int rc = rs_constrained_hands(&c->o, view, rules, rng, hands, red, &given, &c->st, err);
    if (!rc) rc = tk_riichi_from_view_hands(&out[i], view, rules, given, hands, red, rng, err);
    if (rc) return rc;
  }
  return 0;
}

int rs_open_constrained(rs_sampler *s, const char *options_json, const char *file, tk_error *err) {
  if (file && file[0])
    return tk_error_set(err, TK_EINVAL, -1, "sampler 'constrained' takes no weights file (got '%s')", file);
  rs_cons_ctx *c = calloc(1, sizeof *c);
  if (!c) return tk_error_set(err, TK_ENOMEM, -1, "sampler 'constrained': out of memory");
  c->o.sweeps = RS_CONS_SWEEPS;
  c->o.init_steps = RS_CONS_INIT_STEPS;
  s->s.ctx = c;
  s->free_ctx = free;
  s->s.name = "constrained";
  s->s.sample = sample_constrained;
  json_error_t jerr;
  json_t *j = json_loads(options_json && options_json[0] ? options_json : "{}", 0, &jerr);
  if (!j || !json_is_object(j)) {
    json_decref(j);
    return tk_error_set(err, TK_EINVAL, -1, "sampler 'constrained': options: %s",
                        j ? "expected a JSON object" : jerr.text);
  }
  const char *key;
  json_t *val;
  int rc = 0;
  json_object_foreach(j, key, val) {
    int r = rs_cons_option("constrained", key, val, &c->o, err);
    if (r < 0 || r == TK_EINVAL) {
      rc = TK_EINVAL;
      break;
    }
    if (r == 0) {
      char *txt = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
      rc = tk_error_set(err, TK_EINVAL, -1,
                        "sampler 'constrained': unknown option '%s' (value %s; known: sweeps, init_steps)",
                        key, txt ? txt : "?");
      free(txt);
      break;
    }
  }
  json_decref(j);
  return rc;
}

const rs_cons_stats *rs_sampler_cons_stats(const rs_sampler *s) {
  if (!s || !s->s.ctx || (strcmp(s->name, "constrained") && strcmp(s->name, "weighted"))) return NULL;
  return &((const rs_cons_ctx *)s->s.ctx)->st;
}
