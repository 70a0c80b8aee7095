/* plugins/kuhn_nash/nash.c — Kuhn poker agent "kuhn_nash": the equilibrium of Kuhn (1950) with
 * its parameter "alpha" in [0, 1/3] (default 0.2), as tk_kuhn_nash gives it (taikai/kuhn.h;
 * docs/kuhn.md, "The equilibrium"): at each decision it takes the aggressive move (bet, or call
 * facing a bet) with the equilibrium's probability, drawn from a generator re-seeded in
 * begin_game. Against any opponent player 0 gets at least -1/18 a hand in expectation and player
 * 1 at least +1/18; every alpha gives the same value. The default is a decimal that spec.json
 * records exactly (it keeps 12 significant digits: 1/6 would be resumed or merged as
 * 0.166666666667, another member of the family but not the same bytes). */
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include "taikai/agent.h"
#include "taikai/kuhn.h"
#include "taikai/rng.h"

typedef struct agent {
  double alpha;
  tk_rng rng; /* re-seeded at every begin_game */
} agent;

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  if (!json_is_object(p)) {
    json_decref(p);
    tk_error_set(err, TK_EPARSE, jerr.position, "kuhn_nash: params: %s", jerr.text);
    return NULL;
  }
  double alpha = 0.2;
  json_t *v = json_object_get(p, "alpha");
  if (v) {
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    int ok = json_is_number(v) && isfinite(json_number_value(v)) && json_number_value(v) >= 0 &&
             json_number_value(v) <= 1.0 / 3.0;
    if (!ok) {
      tk_error_set(err, TK_ERANGE, -1,
                   "kuhn_nash: params: field 'alpha': expected a number from 0 to 1/3 "
                   "(0.3333333333333333), got %s",
                   s ? s : "?");
      free(s);
      json_decref(p);
      return NULL;
    }
    free(s);
    alpha = json_number_value(v);
  }
  json_decref(p);
  agent *a = malloc(sizeof *a);
  if (!a) {
    tk_error_set(err, TK_ENOMEM, -1, "kuhn_nash: out of memory");
    return NULL;
  }
  a->alpha = alpha;
  tk_rng_seed(&a->rng, seed);
  return a;
}
static void destroy(tk_agent_instance *self) { free(self); }
static int begin_game(tk_agent_instance *self, const void *info) {
  tk_rng_seed(&((agent *)self)->rng, ((const tk_game_head *)info)->seed);
  return 0;
}
static int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  agent *a = self;
  const tk_kuhn_legal *l = legal;
  int is = tk_kuhn_infoset(view);
  if (l->n != 2 || is < 0) return TK_ESTATE;
  double p = tk_kuhn_nash(a->alpha, is);
  /* one draw per decision, even where p is 0 or 1, so the stream's use does not depend on p */
  double u = tk_rng_double(&a->rng);
  ((tk_kuhn_action *)action)->move = l->a[u < p ? 1 : 0];
  return 0;
}
static void end_game(tk_agent_instance *self, const void *result) {}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "kuhn_nash",
    .version = "1.0.0",
    .game = "kuhn",
    .types_version = TK_KUHN_TYPES_VERSION,
    .description = "kuhn: Kuhn's equilibrium with parameter alpha in [0, 1/3] (value -1/18 as "
                   "player 0)",
    .params_json = "{\"alpha\": 0.2}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
};

TK_AGENT_ENTRY(kuhn_nash) { return &descriptor; }
