/* harness/cmd/hand.c — `taikai hand`: shanten, waits, effective tiles and the score of a hand,
 * as text or as one JSON object (format in docs/hand.md, "taikai hand"). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "handargs.h"
#include "taikai/solve.h"

static json_t *kinds_json(uint64_t mask) {
  json_t *a = json_array();
  for (int k = 0; k < TK_KINDS; k++)
    if (mask >> k & 1) json_array_append_new(a, json_string(tk_tile_str((tk_tile)k)));
  return a;
}

static void kinds_text(uint64_t mask, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int k = 0; k < TK_KINDS; k++)
    if (mask >> k & 1) {
      int w = snprintf(buf + len, cap - len, "%s%s", len ? " " : "", tk_tile_str((tk_tile)k));
      if (w < 0 || (size_t)w >= cap - len) break;
      len += (size_t)w;
    }
}

static const char *const WIND[4] = {"E", "S", "W", "N"};

static void decomp_text(const tk_score *s, const tk_hand_args *a, char *buf, size_t cap) {
  const tk_decomp *d = &s->decomp;
  size_t len = 0;
#define ADD(...)                                                              \
  do {                                                                        \
    int w_ = snprintf(buf + len, cap - len, __VA_ARGS__);                     \
    if (w_ > 0 && (size_t)w_ < cap - len) len += (size_t)w_;                  \
  } while (0)
  buf[0] = '\0';
  if (d->form == TK_HAND_CHIITOI) {
    for (int i = 0; i < 7; i++) ADD("%s%s%s", i ? " " : "", tk_tile_str(d->pairs[i]), tk_tile_str(d->pairs[i]));
  } else if (d->form == TK_HAND_KOKUSHI) {
    ADD("thirteen orphans, pair %s", tk_tile_str(d->pair));
  } else {
    for (int i = 0; i < d->nmelds; i++) {
      int k = d->meld_kind[i];
      if (d->meld_type[i] == TK_GROUP_SEQ)
        ADD("%s%d%d%d%c", i ? " " : "", k % 9 + 1, k % 9 + 2, k % 9 + 3, "mpsz"[k / 9]);
      else
        ADD("%s%c%c%s", i ? " " : "", tk_tile_str((tk_tile)k)[0], tk_tile_str((tk_tile)k)[0], tk_tile_str((tk_tile)k));
    }
    ADD("%s%c%s", d->nmelds ? " " : "", tk_tile_str(d->pair)[0], tk_tile_str(d->pair));
    for (int c = 0; c < a->ncalls; c++) {
      char t[16];
      tk_tiles_format(a->call_tiles[c], a->call_ntiles[c], t, sizeof t);
      static const char *const CALL[] = {"chi", "pon", "minkan", "ankan", "kakan"};
      ADD(" [%s %s]", CALL[a->calls[c].type], t);
    }
  }
#undef ADD
}

/* --solve: the solver's result for the concealed counts `c`, best first (by the objective, then
 * kind order). Returns 0 or 2 after printing the error. */
static int solve_hand(const tk_hand_args *a, const uint8_t *c, tk_solve_result *r, int *order) {
  tk_solver *s = tk_solver_new();
  if (!s) {
    fprintf(stderr, "taikai hand: --solve: out of memory\n");
    return 2;
  }
  tk_solve_opts o = {.draws = a->draws, .objective = a->objective,
                     .dora_indicator = a->ctx.ndora ? a->ctx.dora[0] : TK_TILE_NONE,
                     .max_states = a->max_states,
                     .first_mode = a->detours >= 0 ? TK_SOLVE_DETOUR : TK_SOLVE_EXACT,
                     .detours = a->detours >= 0 ? a->detours : 0};
  /* Tenhou rules: the four-player scorer (a tsumo, riichi when closed; solve.h) */
  tk_solve_riichi rs;
  if (a->ctx.ruleset == TK_RULES_TENHOU) {
    tk_solve_riichi_init(&rs, a->ctx.seat_wind, a->ctx.round_wind, a->ctx.dora, a->ctx.ndora,
                         a->calls, a->ncalls);
    o.score = tk_solve_riichi_points;
    o.score_ctx = &rs;
  }
  tk_error e;
  tk_error_clear(&e);
  int rc = tk_solve(s, c, a->seen, &o, r, &e);
  tk_solver_free(s);
  if (rc < 0) {
    fprintf(stderr, "taikai hand: --solve: %s\n", e.msg + (strncmp(e.msg, "solve: ", 7) ? 0 : 7));
    return 2;
  }
  for (int i = 0; i < r->n; i++) order[i] = i;
  for (int i = 1; i < r->n; i++)
    for (int j = i; j > 0; j--) {
      const tk_solve_choice *x = &r->c[order[j]], *y = &r->c[order[j - 1]];
      double vx = a->objective == TK_SOLVE_POINTS ? x->points : x->win;
      double vy = a->objective == TK_SOLVE_POINTS ? y->points : y->win;
      if (order[j] == r->best || (order[j - 1] != r->best && vx > vy)) {
        int t = order[j];
        order[j] = order[j - 1];
        order[j - 1] = t;
      } else {
        break;
      }
    }
  return 0;
}

static const char *const OBJECTIVE[] = {"win", "points"};

/* 3k+2 tiles and not complete: a discard with the shanten and effective tiles after it. */
typedef struct discard_info {
  int kind, shanten, count;
  uint64_t mask;
} discard_info;

/* What `taikai hand` prints, computed once for the text and the JSON. */
typedef struct hand_report {
  uint8_t c[TK_KINDS];         /* the concealed tiles' counts */
  char tiles[64];              /* as given, formatted */
  int n, shanten;              /* tiles; shanten over every form */
  uint64_t uk, waits;          /* effective tiles and waits of the hand before the last tile */
  int uk_count, sh_before;
  int complete;                /* 3k+2 tiles that form a win */
  tk_score s;                  /* its score, when complete */
  int rc;                      /* tk_score_hand's: 0 or TK_ENOYAKU */
  discard_info disc[TK_KINDS]; /* each discard, best first */
  int nd;
  tk_solve_result sol;         /* --solve */
  int order[14];
} hand_report;

/* Fills r from a: 0, or 2 after printing why the hand cannot be scored. */
static int analyse(const tk_hand_args *a, hand_report *r) {
  uint8_t *c = r->c;
  memset(c, 0, TK_KINDS);
  for (int i = 0; i < a->ntiles; i++) c[tk_tile_kind(a->tiles[i])]++;
  int n = a->ntiles;
  int shanten = tk_shanten(c);
  tk_tiles_format(a->tiles, a->ntiles, r->tiles, sizeof r->tiles);

  /* 3k+1 tiles: the hand itself; 3k+2 tiles: the hand before the winning / drawn tile. */
  uint8_t before[TK_KINDS];
  memcpy(before, c, TK_KINDS);
  if (n % 3 == 2) before[tk_tile_kind(a->ctx.win_tile)]--;
  int uk_count = 0, sh_before = 0;
  uint64_t uk = tk_ukeire(before, a->seen, TK_FORM_ALL, &uk_count, &sh_before);
  uint64_t waits = sh_before == 0 ? tk_waits(before) : 0;

  int complete = n % 3 == 2 && shanten == -1;
  int rc = 0;
  tk_error serr;
  tk_error_clear(&serr);
  if (complete) rc = tk_score_hand(a->tiles, a->ntiles, a->calls, a->ncalls, &a->ctx, &r->s, &serr);
  if (complete && rc < 0 && rc != TK_ENOYAKU) {
    fprintf(stderr, "taikai hand: %s\n", serr.msg);
    return 2;
  }

  /* 3k+2 tiles and not complete: every discard with the shanten and effective tiles after it */
  discard_info *disc = r->disc;
  int nd = 0;
  if (n % 3 == 2 && !complete)
    for (int k = 0; k < TK_KINDS; k++) {
      if (!c[k]) continue;
      c[k]--;
      disc[nd].kind = k;
      disc[nd].mask = tk_ukeire(c, a->seen, TK_FORM_ALL, &disc[nd].count, &disc[nd].shanten);
      c[k]++;
      nd++;
    }
  /* best first: lower shanten, then more effective tiles, then kind order */
  for (int i = 1; i < nd; i++)
    for (int j = i; j > 0; j--) {
      int sw = disc[j].shanten < disc[j - 1].shanten ||
               (disc[j].shanten == disc[j - 1].shanten && disc[j].count > disc[j - 1].count);
      if (!sw) break;
      discard_info t = disc[j];
      disc[j] = disc[j - 1];
      disc[j - 1] = t;
    }
  r->n = n;
  r->shanten = shanten;
  r->uk = uk;
  r->waits = waits;
  r->uk_count = uk_count;
  r->sh_before = sh_before;
  r->complete = complete;
  r->rc = rc;
  r->nd = nd;
  return 0;
}

/* The report as one JSON object (format in docs/hand.md, "--json") on stdout. */
static void print_json(const tk_hand_args *ap, const hand_report *r) {
  const tk_hand_args a = *ap;
  const char *tiles = r->tiles;
  int shanten = r->shanten, complete = r->complete, rc = r->rc, nd = r->nd;
  int uk_count = r->uk_count, sh_before = r->sh_before;
  uint64_t uk = r->uk, waits = r->waits;
  const tk_score s = r->s;
  const discard_info *disc = r->disc;
  const tk_solve_result sol = r->sol;
  const int *order = r->order;
  json_t *o = json_object();
  json_object_set_new(o, "tiles", json_string(tiles));
  json_object_set_new(o, "ruleset", json_string(a.ctx.ruleset == TK_RULES_SOLO ? "solo" : "tenhou"));
  json_object_set_new(o, "shanten", json_integer(shanten));
  json_object_set_new(o, "waits", kinds_json(waits));
  json_t *u = json_object();
  json_object_set_new(u, "shanten", json_integer(sh_before));
  json_object_set_new(u, "count", json_integer(uk_count));
  json_object_set_new(u, "tiles", kinds_json(uk));
  json_object_set_new(o, "ukeire", u);
  if (nd) {
    json_t *arr = json_array();
    for (int i = 0; i < nd; i++) {
      json_t *d = json_object();
      json_object_set_new(d, "discard", json_string(tk_tile_str((tk_tile)disc[i].kind)));
      json_object_set_new(d, "shanten", json_integer(disc[i].shanten));
      json_object_set_new(d, "ukeire", json_integer(disc[i].count));
      json_object_set_new(d, "tiles", kinds_json(disc[i].mask));
      json_array_append_new(arr, d);
    }
    json_object_set_new(o, "discards", arr);
  }
  json_object_set_new(o, "complete", json_boolean(complete));
  if (complete) {
    json_object_set_new(o, "win", json_string(tk_tile_str(a.ctx.win_tile)));
    json_object_set_new(o, "ron", json_boolean(a.ctx.ron));
    json_object_set_new(o, "seat", json_string(WIND[a.ctx.seat_wind]));
    json_object_set_new(o, "round", json_string(WIND[a.ctx.round_wind]));
    if (rc == TK_ENOYAKU) {
      json_object_set_new(o, "result", json_string("no_yaku"));
      json_object_set_new(o, "han", json_integer(0));
      json_object_set_new(o, "yaku", json_array());
    } else {
      char dbuf[160];
      decomp_text(&s, &a, dbuf, sizeof dbuf);
      json_object_set_new(o, "result", json_string("win"));
      json_object_set_new(o, "han", json_integer(s.han));
      json_object_set_new(o, "fu", json_integer(s.fu));
      json_object_set_new(o, "yakuman", json_integer(s.yakuman));
      json_object_set_new(o, "limit", json_string(tk_limit_name(s.limit, s.yakuman)));
      json_t *y = json_array();
      for (int i = 0; i < s.nyaku; i++)
        json_array_append_new(y, json_pack("{s:s,s:i}", "name", tk_yaku_name(s.yaku[i]), "han", s.yaku_han[i]));
      json_object_set_new(o, "yaku", y);
      json_object_set_new(o, "decomposition", json_string(dbuf));
      json_object_set_new(o, "base", json_integer(s.base));
      json_t *p;
      if (a.ctx.ruleset == TK_RULES_SOLO) p = json_pack("{s:i}", "points", s.total);
      else if (a.ctx.ron) p = json_pack("{s:i}", "ron", s.pay_ron);
      else if (a.ctx.seat_wind == 0) p = json_pack("{s:i}", "all", s.pay_all);
      else p = json_pack("{s:i,s:i}", "dealer", s.pay_dealer, "non_dealer", s.pay_non_dealer);
      json_object_set_new(o, "payment", p);
      json_object_set_new(o, "honba", json_integer(a.ctx.honba));
      json_object_set_new(o, "sticks", json_integer(a.ctx.sticks));
      json_object_set_new(o, "total", json_integer(s.total));
    }
  } else {
    json_object_set_new(o, "result", json_string("incomplete"));
  }
  if (a.solve) {
    json_t *so = json_object();
    json_object_set_new(so, "draws", json_integer(a.draws));
    json_object_set_new(so, "objective", json_string(OBJECTIVE[a.objective]));
    if (a.objective == TK_SOLVE_POINTS)
      json_object_set_new(so, "points_rules", json_string(a.ctx.ruleset == TK_RULES_SOLO ? "solo" : "tenhou"));
    json_object_set_new(so, "mode", json_string(tk_solve_mode_name(sol.mode)));
    json_object_set_new(so, "exact", json_boolean(sol.mode == TK_SOLVE_EXACT));
    json_object_set_new(so, "states", json_integer(sol.states));
    if (sol.mode == TK_SOLVE_DETOUR) json_object_set_new(so, "detours", json_integer(sol.detours));
    json_t *arr = json_array();
    for (int i = 0; i < sol.n; i++) {
      const tk_solve_choice *ch = &sol.c[order[i]];
      json_t *d = json_object();
      json_object_set_new(d, "discard", ch->discard < 0 ? json_null() : json_string(tk_tile_str((tk_tile)ch->discard)));
      json_object_set_new(d, "shanten", json_integer(ch->shanten));
      json_object_set_new(d, "win", json_real(ch->win));
      json_object_set_new(d, "points", a.objective == TK_SOLVE_POINTS ? json_real(ch->points) : json_null());
      json_array_append_new(arr, d);
    }
    json_object_set_new(so, "choices", arr);
    json_object_set_new(o, "solve", so);
  }
  char *text = json_dumps(o, JSON_COMPACT);
  puts(text);
  free(text);
  json_decref(o);
}

/* The report as text on stdout. */
static void print_text(const tk_hand_args *ap, const hand_report *r) {
  const tk_hand_args a = *ap;
  const char *tiles = r->tiles;
  int n = r->n, shanten = r->shanten, complete = r->complete, rc = r->rc, nd = r->nd;
  int uk_count = r->uk_count;
  uint64_t uk = r->uk, waits = r->waits;
  const tk_score s = r->s;
  const discard_info *disc = r->disc;
  const tk_solve_result sol = r->sol;
  const int *order = r->order;
  char buf[256];
  printf("hand      %s", tiles);
  for (int i = 0; i < a.ncalls; i++) {
    char t[16];
    tk_tiles_format(a.call_tiles[i], a.call_ntiles[i], t, sizeof t);
    printf(" +%s", t);
  }
  printf("  (%s, seat %s, round %s)\n", a.ctx.ruleset == TK_RULES_SOLO ? "solo rules" : "Tenhou rules",
         WIND[a.ctx.seat_wind], WIND[a.ctx.round_wind]);
  if (shanten == -1 && n % 3 == 2) printf("shanten   -1 (complete)\n");
  else printf("shanten   %d%s\n", shanten, shanten == 0 ? " (tenpai)" : "");
  if (n % 3 == 1 || complete) {
    if (waits) {
      kinds_text(waits, buf, sizeof buf);
      printf("waits     %s%s\n", buf, complete ? "  (before the winning tile)" : "");
    }
    kinds_text(uk, buf, sizeof buf);
    if (!complete || !waits) printf("ukeire    %d tiles: %s\n", uk_count, buf);
  }
  if (nd) {
    printf("discards  (shanten after, unseen effective tiles)\n");
    for (int i = 0; i < nd; i++) {
      kinds_text(disc[i].mask, buf, sizeof buf);
      printf("  %-3s %2d  %3d  %s\n", tk_tile_str((tk_tile)disc[i].kind), disc[i].shanten, disc[i].count, buf);
    }
  }
  if (a.solve) {
    char how[96] = "";
    if (sol.mode == TK_SOLVE_DETOUR)
      snprintf(how, sizeof how, " (%d detour%s%s: a lower bound)", sol.detours, sol.detours == 1 ? "" : "s",
               sol.detours < a.detours ? ", fewer than asked: the state cap fired" : "");
    else if (sol.mode != TK_SOLVE_EXACT)
      snprintf(how, sizeof how, " (the state cap fired: an approximation, a lower bound)");
    printf("solve     %d draws left, maximising %s; %s search, %ld states%s\n", a.draws,
           a.objective != TK_SOLVE_POINTS ? "win probability"
           : a.ctx.ruleset == TK_RULES_SOLO ? "expected points (solo rules)"
           : "expected points (Tenhou rules, each win a tsumo, riichi when closed)",
           tk_solve_mode_name(sol.mode), sol.states, how);
    printf("  %-7s  %7s  %9s  %s\n", "discard", "win", "points", "shanten after");
    for (int i = 0; i < sol.n; i++) {
      const tk_solve_choice *ch = &sol.c[order[i]];
      char pts[32] = "-";
      if (a.objective == TK_SOLVE_POINTS) snprintf(pts, sizeof pts, "%.1f", ch->points);
      printf("  %-7s  %7.4f  %9s  %d\n", ch->discard < 0 ? "-" : tk_tile_str((tk_tile)ch->discard), ch->win, pts,
             ch->shanten);
    }
  }
  if (!complete) return;
  if (rc == TK_ENOYAKU) {
    printf("result    complete, but no yaku: not a valid win (dora are not yaku)\n");
    return;
  }
  decomp_text(&s, &a, buf, sizeof buf);
  printf("win       %s by %s: %s\n", tk_tile_str(a.ctx.win_tile), a.ctx.ron ? "ron" : "tsumo", buf);
  printf("yaku     ");
  for (int i = 0; i < s.nyaku; i++)
    printf(" %s %d%s", tk_yaku_name(s.yaku[i]), s.yaku_han[i], i + 1 < s.nyaku ? "," : "");
  printf("\n");
  if (s.yakuman) printf("value     %s\n", tk_limit_name(s.limit, s.yakuman));
  else printf("value     %d han %d fu%s%s\n", s.han, s.fu, s.limit ? ", " : "", s.limit ? tk_limit_name(s.limit, 0) : "");
  if (a.ctx.ruleset == TK_RULES_SOLO) printf("points    %d\n", s.total);
  else if (a.ctx.ron) printf("payment   ron %d\n", s.pay_ron);
  else if (a.ctx.seat_wind == 0) printf("payment   tsumo %d all\n", s.pay_all);
  else printf("payment   tsumo %d / %d (dealer / non-dealer)\n", s.pay_dealer, s.pay_non_dealer);
  if (a.ctx.ruleset != TK_RULES_SOLO)
    printf("total     %d (honba %d, riichi sticks %d)\n", s.total, a.ctx.honba, a.ctx.sticks);
}

int tk_cmd_hand(int argc, char **argv) {
  tk_hand_args a;
  tk_error err;
  tk_error_clear(&err);
  if (tk_hand_args_parse(argc, argv, &a, &err) < 0) {
    fprintf(stderr, "taikai hand: %s\n", err.msg);
    return 2;
  }
  if (a.help) {
    fputs(tk_hand_usage, stdout);
    return 0;
  }
  hand_report r;
  memset(&r, 0, sizeof r);
  int rc = analyse(&a, &r);
  if (rc) return rc;
  if (a.solve && (rc = solve_hand(&a, r.c, &r.sol, r.order))) return rc;
  if (a.json) print_json(&a, &r);
  else print_text(&a, &r);
  return 0;
}
