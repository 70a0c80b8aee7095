/* plugins/riichi_greedy/greedy.c — riichi agent "riichi_greedy": efficiency play.
 *   - wins whenever it can (tsumo, ron);
 *   - discards: among the legal discards, those leaving the minimum shanten (every form:
 *     standard, seven pairs, thirteen orphans), then the most unseen effective tiles, unseen =
 *     4 - own hand - every visible copy (rivers, melds, dora indicators, the discard itself);
 *     ties: the lowest kind; of a five held plain and red, the plain one goes first;
 *   - declares riichi with that discard as soon as it is legal (closed tenpai);
 *   - pons only yakuhai (dragons, its seat wind, the round wind); no chi, no kan, never the
 *     nine-terminals draw. In riichi it discards the drawn tile.
 * Parameter: {"ukeire": false} drops the effective-tile count (among the minimum-shanten
 * discards the lowest kind goes): the deliberately weakened copy the CI strength gate must tell
 * apart (tests/riichi, test_riichi_gate).
 * Deterministic: it keeps no state beyond its parameter. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "taikai/agent.h"
#include "taikai/mahjong.h"
#include "taikai/riichi.h"

typedef struct agent {
  int ukeire; /* 1: break shanten ties by unseen effective tiles; 0: by the lowest kind */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p || !json_is_object(p)) {
    tk_error_set(err, TK_EPARSE, -1, "riichi_greedy: params: %s",
                 p ? "expected an object" : jerr.text);
    json_decref(p);
    return NULL;
  }
  int ukeire = 1;
  const char *key;
  json_t *v;
  json_object_foreach(p, key, v) {
    if (!strcmp(key, "ukeire") && json_is_boolean(v)) {
      ukeire = json_is_true(v);
      continue;
    }
    if (strcmp(key, "ukeire")) {
      tk_error_set(err, TK_EINVAL, -1,
                   "riichi_greedy: params: unknown field \"%s\" (known: ukeire)", key);
    } else {
      char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
      tk_error_set(err, TK_EINVAL, -1,
                   "riichi_greedy: params: \"ukeire\" must be true or false, not %.60s%s",
                   text ? text : "?", text && strlen(text) > 60 ? "..." : "");
      free(text);
    }
    json_decref(p);
    return NULL;
  }
  json_decref(p);
  agent *a = malloc(sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "riichi_greedy: out of memory");
    return NULL;
  }
  a->ukeire = ukeire;
  return a;
}
static void destroy(tk_agent_instance *self) { free(self); }
static int begin_game(tk_agent_instance *self, const void *info) { return 0; }

static int find(const tk_riichi_legal *l, int type) {
  for (int i = 0; i < l->n; i++)
    if (l->a[i].type == type) return i;
  return -1;
}

static int react(const tk_riichi_view *v, const tk_riichi_legal *l) {
  int i = find(l, TK_RIICHI_RON);
  if (i >= 0) return i;
  int k = tk_tile_kind(v->last_tile);
  int yakuhai = k >= TK_HAKU || k == TK_EAST + v->seat_wind || k == TK_EAST + v->round_wind;
  if (yakuhai) {
    int best = -1;
    for (int j = 0; j < l->n; j++) /* prefer keeping a red five */
      if (l->a[j].type == TK_RIICHI_PON &&
          (best < 0 || tk_tile_is_red(l->a[best].consumed[1]) > tk_tile_is_red(l->a[j].consumed[1])))
        best = j;
    if (best >= 0) return best;
  }
  return find(l, TK_RIICHI_PASS);
}

static int self_turn(const tk_riichi_view *v, const tk_riichi_legal *l, int use_ukeire) {
  int i = find(l, TK_RIICHI_TSUMO);
  if (i >= 0) return i;
  if (v->riichi[v->seat]) return find(l, TK_RIICHI_DISCARD);
  uint8_t c[TK_KINDS], seen[TK_KINDS];
  memcpy(c, v->hand, TK_KINDS);
  memcpy(seen, v->seen, TK_KINDS);
  /* shanten after each discard kind, then unseen effective tiles for the minimum ones only */
  int8_t sh[TK_KINDS];
  int best_sh = 99;
  memset(sh, 99, sizeof sh);
  for (int j = 0; j < l->n; j++) {
    if (l->a[j].type != TK_RIICHI_DISCARD) continue;
    int k = tk_tile_kind(l->a[j].tile);
    if (sh[k] != 99) continue;
    c[k]--;
    sh[k] = (int8_t)tk_shanten(c);
    c[k]++;
    if (sh[k] < best_sh) best_sh = sh[k];
  }
  int best_kind = -1, best_n = -1;
  for (int k = 0; k < TK_KINDS; k++) {
    if (sh[k] != best_sh) continue;
    int n = 0;
    if (use_ukeire) {
      c[k]--;
      seen[k]++;
      tk_ukeire(c, seen, TK_FORM_ALL, &n, NULL);
      seen[k]--;
      c[k]++;
    }
    if (n > best_n) {
      best_n = n;
      best_kind = k;
    }
  }
  if (best_kind < 0) return -1;
  /* the entry for that kind: riichi if legal; a plain five before the red; the drawn copy
     (tsumogiri) when it is the plain one */
  int pick = -1, score = -1;
  for (int j = 0; j < l->n; j++) {
    const tk_riichi_action *a = &l->a[j];
    if ((a->type != TK_RIICHI_DISCARD && a->type != TK_RIICHI_RIICHI) ||
        tk_tile_kind(a->tile) != best_kind)
      continue;
    int s = (a->type == TK_RIICHI_RIICHI) * 4 + !tk_tile_is_red(a->tile) * 2 + a->tsumogiri;
    if (s > score) score = s, pick = j;
  }
  return pick;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  const tk_riichi_view *v = view;
  const tk_riichi_legal *l = legal;
  int i = v->phase == TK_RIICHI_PHASE_REACT ? react(v, l) : self_turn(v, l, ((const agent *)self)->ukeire);
  if (i < 0) return TK_ESTATE;
  *(tk_riichi_action *)action = l->a[i];
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "riichi_greedy",
    .version = "1.1.0",
    .game = "riichi",
    .types_version = TK_RIICHI_TYPES_VERSION,
    .description = "riichi: min-shanten discards with most unseen effective tiles; riichi at "
                   "tenpai; wins when it can; pons yakuhai only",
    .params_json = "{\"ukeire\": true}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(riichi_greedy) { return &descriptor; }
