/* plugins/solo_opt/solo_opt.c — one-player mahjong played by the search of taikai/solve.h: at
 * each discard, every kind held is valued by its probability of completing the hand within the
 * draws left ("objective": "win") or by its expected points ("points"), the player then playing
 * optimally in the search's model, and the best is discarded (ties: solve.h). The seen tiles are
 * the view's: own discards and the dora indicator (4 - held - unseen). "mode" is the search mode
 * tried first ("exact"; "direct": no change of shape at equal shanten, a lower bound and far
 * cheaper; "detour": the direct mode plus "detours" moves that do not lower the shanten on each
 * line of play, default 1, read by that mode only); "max_states" is the exact mode's cap (the
 * detour mode's, in nodes) before it falls back (solve.h). A position too
 * large even for the direct mode (TK_ERANGE: past its own cap, which bounds the memory) is
 * decided by the greedy rule instead: least shanten, then most unseen effective tiles, then the
 * lowest kind. Deterministic: no randomness. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "taikai/agent.h"
#include "taikai/solo.h"
#include "taikai/solve.h"

typedef struct agent {
  tk_solver *solver;
  tk_solve_opts opts; /* objective, first mode, cap, detours; draws and dora set per decision */
  long decisions, fallbacks, greedy; /* statistics: decisions, those a cap sent to a cheaper mode
                                        or budget, those decided by the greedy rule */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!p) {
    tk_error_set(err, TK_EPARSE, jerr.position, "solo_opt: params: %s", jerr.text);
    return NULL;
  }
  tk_solve_opts o = {.objective = TK_SOLVE_WIN, .first_mode = TK_SOLVE_DIRECT};
  const char *key;
  json_t *v;
  int bad = 0, detours_set = 0;
  json_object_foreach(p, key, v) {
    const char *s = json_string_value(v);
    if (!strcmp(key, "objective")) {
      if (s && !strcmp(s, "win")) o.objective = TK_SOLVE_WIN;
      else if (s && !strcmp(s, "points")) o.objective = TK_SOLVE_POINTS;
      else bad = tk_error_set(err, TK_EINVAL, -1, "solo_opt: objective must be \"win\" or \"points\"");
    } else if (!strcmp(key, "mode")) {
      if (s && !strcmp(s, "exact")) o.first_mode = TK_SOLVE_EXACT;
      else if (s && !strcmp(s, "direct")) o.first_mode = TK_SOLVE_DIRECT;
      else if (s && !strcmp(s, "detour")) o.first_mode = TK_SOLVE_DETOUR;
      else bad = tk_error_set(err, TK_EINVAL, -1, "solo_opt: mode must be \"exact\", \"direct\" or \"detour\"");
    } else if (!strcmp(key, "detours")) {
      if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 2 * TK_SOLVE_MAX_DRAWS + 1) {
        char *given = json_dumps(v, JSON_ENCODE_ANY);
        bad = tk_error_set(err, TK_EINVAL, -1, "solo_opt: detours %s is not an integer from 0 to %d",
                           given ? given : "?", 2 * TK_SOLVE_MAX_DRAWS + 1);
        free(given);
      }
      else o.detours = (int)json_integer_value(v);
      detours_set = 1;
    } else if (!strcmp(key, "max_states")) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 100000000)
        bad = tk_error_set(err, TK_EINVAL, -1, "solo_opt: max_states must be an integer from 1 to 100000000");
      else o.max_states = (long)json_integer_value(v);
    } else {
      bad = tk_error_set(err, TK_EINVAL, -1, "solo_opt: unknown parameter '%s'", key);
    }
    if (bad) break;
  }
  json_decref(p);
  if (bad) return NULL;
  if (!detours_set) o.detours = 1;
  agent *a = calloc(1, sizeof *a);
  if (a) a->solver = tk_solver_new();
  if (!a || !a->solver) {
    if (a) free(a);
    tk_error_set(err, TK_ENOMEM, -1, "solo_opt: out of memory");
    return NULL;
  }
  a->opts = o;
  return a;
}

static void destroy(tk_agent_instance *self) {
  agent *a = self;
  if (!a) return;
  tk_solver_free(a->solver);
  free(a);
}

static int begin_game(tk_agent_instance *self, const void *info) { return 0; }

/* The greedy rule for positions too large for the search. */
static int greedy_choice(const tk_solo_view *v, void *action) {
  uint8_t c[TK_KINDS];
  memcpy(c, v->hand, TK_KINDS);
  uint8_t seen[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) seen[k] = (uint8_t)(4 - v->hand[k] - v->unseen[k]);
  int best = -1, best_sh = 99, best_n = -1;
  for (int k = 0; k < TK_KINDS; k++) {
    if (!c[k]) continue;
    c[k]--;
    int n, sh;
    tk_ukeire(c, seen, TK_FORM_ALL, &n, &sh);
    c[k]++;
    if (sh < best_sh || (sh == best_sh && n > best_n)) {
      best = k;
      best_sh = sh;
      best_n = n;
    }
  }
  if (best < 0) return TK_ESTATE;
  ((tk_solo_action *)action)->discard = (uint8_t)best;
  return 0;
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_solo_view *v = view;
  uint8_t seen[TK_KINDS];
  for (int k = 0; k < TK_KINDS; k++) seen[k] = (uint8_t)(4 - v->hand[k] - v->unseen[k]);
  tk_solve_opts o = a->opts;
  o.draws = v->draws - v->turn;
  o.dora_indicator = v->dora_indicator;
  tk_solve_result r;
  int rc = tk_solve(a->solver, v->hand, seen, &o, &r, NULL);
  if (rc == TK_ERANGE) {
    a->greedy++;
    return greedy_choice(v, action);
  }
  if (rc < 0) return rc;
  a->decisions++;
  a->fallbacks += r.mode != o.first_mode || (r.mode == TK_SOLVE_DETOUR && r.detours != o.detours);
  int k = r.c[r.best].discard;
  if (k < 0 || !(((const tk_solo_legal *)legal)->mask >> k & 1)) return TK_ESTATE;
  ((tk_solo_action *)action)->discard = (uint8_t)k;
  return 0;
}

static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "solo_opt",
    .version = "1.1.0",
    .game = "solo",
    .types_version = TK_SOLO_TYPES_VERSION,
    .description = "expectimax over draws and discards (taikai/solve.h): best win probability or expected points",
    .params_json = "{\"objective\": \"win\", \"mode\": \"direct\", \"max_states\": 100000, \"detours\": 1}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(solo_opt) { return &descriptor; }
