/* harness/cmd/handargs.c — parsing of `taikai hand` arguments into tk_hand_args. Every error
 * names the flag and the value; nothing is guessed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handargs.h"
#include "opts.h"
#include "taikai/solve.h"

const char tk_hand_usage[] =
    "usage: taikai hand TILES [options]\n"
    "\n"
    "Shanten, waits and effective tiles of a mahjong hand; for a complete hand its yaku, fu,\n"
    "limit and payments (Tenhou rules, or the one-player rules with --ruleset solo).\n"
    "\n"
    "TILES are the concealed tiles, winning tile included: 123m456p789s1122z (honors 1z..7z =\n"
    "E S W N P F C; 0m 0p 0s = red fives). Called melds are given with --meld, not in TILES.\n"
    "\n"
    "options:\n"
    "  --win TILE          the winning (or last drawn) tile; default: the last tile of TILES\n"
    "  --ron               won on a discard (default: self-drawn, tsumo)\n"
    "  --meld TYPE:TILES   a called meld or closed kan: chi:345m pon:555z minkan:5555p\n"
    "                      ankan:1111s kakan:2222m (repeatable)\n"
    "  --dora TILES        dora indicators (kan dora included), e.g. --dora 1m4z\n"
    "  --ura TILES         ura-dora indicators (count only with riichi)\n"
    "  --riichi | --double-riichi | --ippatsu\n"
    "  --haitei            won on the last tile (haitei for tsumo, houtei for ron; --houtei too)\n"
    "  --rinshan | --chankan\n"
    "  --tenhou            won on the uninterrupted first draw (tenhou as dealer, chiihou\n"
    "                      otherwise; --chiihou too)\n"
    "  --round E|S|W|N     round wind (default E)\n"
    "  --seat E|S|W|N      seat wind (default S, a non-dealer; E is the dealer)\n"
    "  --honba N           counters on the table (300 each to the winner)\n"
    "  --sticks N          riichi sticks on the table (1000 each to the winner)\n"
    "  --seen TILES        other tiles the player can see (rivers), for effective-tile counts\n"
    "                      (--meld, --dora, --ura and --seen accumulate when repeated; any\n"
    "                      other flag may be given once)\n"
    "  --ruleset tenhou|solo   scoring rules (default tenhou); solo: one-player mahjong\n"
    "  --solve             every discard's probability of completing the hand and expected\n"
    "                      points, the player then playing optimally (exact expectimax;\n"
    "                      model in docs/solo-agents.md)\n"
    "  --draws N           draws left after this discard, for --solve (default 17)\n"
    "  --objective win|points  what --solve maximises (default win); points are those of\n"
    "                      --ruleset: Tenhou rules score each win as a tsumo with riichi when\n"
    "                      closed (--seat, --round, --dora, --meld), solo rules as one-player\n"
    "                      mahjong\n"
    "  --max-states N      --solve's state cap before it falls back to an approximation\n"
    "  --detours N         --solve in the detour mode instead of the exact one: the direct\n"
    "                      mode's policy plus N moves that do not lower the shanten on each\n"
    "                      line of play (a lower bound; fast where the exact mode is not)\n"
    "  --json              print one JSON object (format in README.md)\n"
    "  -h, --help          this text\n";

static int wind_of(const char *flag, const char *v, uint8_t *out, tk_error *err) {
  static const char *const W[] = {"E", "S", "W", "N"};
  for (int i = 0; i < 4; i++)
    if (!strcmp(v, W[i]) || (v[0] && !v[1] && v[0] == W[i][0] + 32)) {
      *out = (uint8_t)i;
      return 0;
    }
  return tk_error_set(err, TK_EINVAL, -1, "%s: '%s' is not a wind (E, S, W or N)", flag, v);
}

static int number_of(const char *flag, const char *v, uint16_t *out, tk_error *err) {
  char *end;
  long x = strtol(v, &end, 10);
  if (!*v || *end || x < 0 || x > 1000)
    return tk_error_set(err, TK_EINVAL, -1, "%s: '%s' is not a whole number from 0 to 1000", flag, v);
  *out = (uint16_t)x;
  return 0;
}

static int tiles_of(const char *flag, const char *v, tk_tile *out, int cap, tk_error *err) {
  tk_error e;
  tk_error_clear(&e);
  int n = tk_tiles_parse(v, out, cap, &e);
  if (n < 0) return tk_error_set(err, n, e.position, "%s '%s': %s", flag, v, e.msg);
  if (n == 0) return tk_error_set(err, TK_EINVAL, -1, "%s: no tiles in '%s'", flag, v);
  return n;
}

static int indicators(const char *flag, const char *v, uint8_t *kinds, uint8_t *n, tk_error *err) {
  tk_tile t[TK_MAX_INDICATORS];
  int m = tiles_of(flag, v, t, TK_MAX_INDICATORS, err);
  if (m < 0) return m;
  if (*n + m > TK_MAX_INDICATORS)
    return tk_error_set(err, TK_ERANGE, -1, "%s: at most %d indicators in all", flag, TK_MAX_INDICATORS);
  for (int i = 0; i < m; i++) kinds[(*n)++] = (uint8_t)tk_tile_kind(t[i]);
  return m;
}

static int meld_of(const char *v, tk_hand_args *a, tk_error *err) {
  static const struct {
    const char *name;
    int type, n;
  } TYPES[] = {{"chi", TK_CALL_CHI, 3},       {"pon", TK_CALL_PON, 3},     {"minkan", TK_CALL_MINKAN, 4},
               {"ankan", TK_CALL_ANKAN, 4}, {"kakan", TK_CALL_KAKAN, 4}, {"daiminkan", TK_CALL_MINKAN, 4}};
  if (a->ncalls >= 4) return tk_error_set(err, TK_ERANGE, -1, "--meld '%s': at most 4 melds", v);
  const char *colon = strchr(v, ':');
  int type = -1, need = 0;
  if (colon)
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
      if ((size_t)(colon - v) == strlen(TYPES[i].name) && !strncmp(v, TYPES[i].name, (size_t)(colon - v))) {
        type = TYPES[i].type;
        need = TYPES[i].n;
      }
  if (type < 0)
    return tk_error_set(err, TK_EINVAL, -1,
                        "--meld '%s': expected TYPE:TILES with TYPE one of chi, pon, minkan, ankan, kakan", v);
  tk_tile t[5];
  tk_error e;
  tk_error_clear(&e);
  int n = tk_tiles_parse(colon + 1, t, 5, &e);
  if (n < 0) return tk_error_set(err, n, -1, "--meld '%s': %s", v, e.msg);
  if (n != need) return tk_error_set(err, TK_EINVAL, -1, "--meld '%s': a %.*s has %d tiles, not %d", v, (int)(colon - v), v, need, n);
  int k[4] = {0}, red = 0; /* n is 3 or 4 here */
  for (int i = 0; i < n; i++) {
    k[i] = tk_tile_kind(t[i]);
    red += tk_tile_is_red(t[i]);
  }
  /* sort kinds */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && k[j - 1] > k[j]; j--) {
      int x = k[j];
      k[j] = k[j - 1];
      k[j - 1] = x;
    }
  if (type == TK_CALL_CHI) {
    if (k[0] >= 27 || k[1] != k[0] + 1 || k[2] != k[0] + 2 || k[0] / 9 != k[2] / 9)
      return tk_error_set(err, TK_EINVAL, -1, "--meld '%s': a chi is three consecutive number tiles of one suit", v);
  } else {
    for (int i = 1; i < n; i++)
      if (k[i] != k[0])
        return tk_error_set(err, TK_EINVAL, -1, "--meld '%s': a %s is %d copies of one tile", v,
                            type == TK_CALL_PON ? "pon" : "kan", n);
  }
  int c = a->ncalls++;
  a->calls[c].type = (uint8_t)type;
  a->calls[c].kind = (uint8_t)k[0];
  a->calls[c].red = (uint8_t)red;
  memcpy(a->call_tiles[c], t, (size_t)n);
  a->call_ntiles[c] = n;
  return 0;
}

/* The whole set must be possible: no fifth copy, at most one red five per suit. */
static int check_tiles(tk_hand_args *a, tk_error *err) {
  uint8_t cnt[TK_KINDS] = {0};
  int red[3] = {0, 0, 0};
  for (int i = 0; i < a->ntiles; i++) {
    cnt[tk_tile_kind(a->tiles[i])]++;
    if (tk_tile_is_red(a->tiles[i])) red[tk_tile_kind(a->tiles[i]) / 9]++;
  }
  for (int c = 0; c < a->ncalls; c++)
    for (int i = 0; i < a->call_ntiles[c]; i++) {
      cnt[tk_tile_kind(a->call_tiles[c][i])]++;
      if (tk_tile_is_red(a->call_tiles[c][i])) red[tk_tile_kind(a->call_tiles[c][i]) / 9]++;
    }
  for (int k = 0; k < TK_KINDS; k++)
    if (cnt[k] > 4)
      return tk_error_set(err, TK_ERANGE, -1, "%d copies of %s in the hand and melds (a set has 4)", cnt[k],
                          tk_tile_str((tk_tile)k));
  for (int s = 0; s < 3; s++)
    if (red[s] > 1)
      return tk_error_set(err, TK_ERANGE, -1, "%d red fives of one suit (a set has one: 0%c)", red[s], "mps"[s]);
  if (a->ctx.ruleset == TK_RULES_SOLO && (red[0] + red[1] + red[2]))
    return tk_error_set(err, TK_EINVAL, -1, "--ruleset solo: one-player mahjong has no red fives (0m, 0p, 0s)");
  return 0;
}

/* The parse of one command line: tk_hand_args and what its checks need besides. */
typedef struct hand_parse {
  tk_hand_args *a;
  const char *tiles, *win;
  const char *seen[64]; /* the --seen values, checked once the hand is known */
  int nseen;
  int ron, riichi, double_riichi, ippatsu, rinshan, chankan, haitei, tenhou, max_states;
  int seat_given, round_given, draws_given, objective_given;
} hand_parse;

/* The options' value parsers (tk_opt.call): 0, or a negative TK_E code with err set. */
static int meld_opt(void *d, const char *sp, const char *v, tk_error *err) {
  (void)sp;
  int rc = meld_of(v, ((hand_parse *)d)->a, err);
  return rc < 0 ? rc : 0;
}
static int dora_opt(void *d, const char *sp, const char *v, tk_error *err) {
  tk_win_ctx *c = &((hand_parse *)d)->a->ctx;
  int rc = indicators(sp, v, c->dora, &c->ndora, err);
  return rc < 0 ? rc : 0;
}
static int ura_opt(void *d, const char *sp, const char *v, tk_error *err) {
  tk_win_ctx *c = &((hand_parse *)d)->a->ctx;
  int rc = indicators(sp, v, c->ura, &c->nura, err);
  return rc < 0 ? rc : 0;
}
static int round_opt(void *d, const char *sp, const char *v, tk_error *err) {
  return wind_of(sp, v, &((hand_parse *)d)->a->ctx.round_wind, err);
}
static int seat_opt(void *d, const char *sp, const char *v, tk_error *err) {
  return wind_of(sp, v, &((hand_parse *)d)->a->ctx.seat_wind, err);
}
static int honba_opt(void *d, const char *sp, const char *v, tk_error *err) {
  return number_of(sp, v, &((hand_parse *)d)->a->ctx.honba, err);
}
static int sticks_opt(void *d, const char *sp, const char *v, tk_error *err) {
  return number_of(sp, v, &((hand_parse *)d)->a->ctx.sticks, err);
}
static int seen_opt(void *d, const char *sp, const char *v, tk_error *err) {
  hand_parse *h = d;
  (void)sp;
  if (h->nseen == (int)(sizeof h->seen / sizeof h->seen[0]))
    return tk_error_set(err, TK_ERANGE, -1, "--seen: at most %d times", h->nseen);
  h->seen[h->nseen++] = v;
  return 0;
}
static int draws_opt(void *d, const char *sp, const char *v, tk_error *err) {
  uint16_t x = 0;
  int rc = number_of(sp, v, &x, err);
  if (rc < 0) return rc;
  if (x > TK_SOLVE_MAX_DRAWS)
    return tk_error_set(err, TK_ERANGE, -1, "--draws: '%s' is more than %d", v, TK_SOLVE_MAX_DRAWS);
  ((hand_parse *)d)->a->draws = x;
  return 0;
}
static int objective_opt(void *d, const char *sp, const char *v, tk_error *err) {
  (void)sp;
  if (!strcmp(v, "win")) ((hand_parse *)d)->a->objective = TK_SOLVE_WIN;
  else if (!strcmp(v, "points")) ((hand_parse *)d)->a->objective = TK_SOLVE_POINTS;
  else return tk_error_set(err, TK_EINVAL, -1, "--objective: '%s' is not an objective (win or points)", v);
  return 0;
}
static int ruleset_opt(void *d, const char *sp, const char *v, tk_error *err) {
  (void)sp;
  if (!strcmp(v, "tenhou")) ((hand_parse *)d)->a->ctx.ruleset = TK_RULES_TENHOU;
  else if (!strcmp(v, "solo")) ((hand_parse *)d)->a->ctx.ruleset = TK_RULES_SOLO;
  else return tk_error_set(err, TK_EINVAL, -1, "--ruleset: '%s' is not a ruleset (tenhou or solo)", v);
  return 0;
}

/* Reads argv into h (and h->a): 0, or a negative TK_E code with err set. The list options
 * (--meld, --dora, --ura, --seen) accumulate; any other may be given once, and the two spellings
 * of one condition (--haitei/--houtei, --tenhou/--chiihou) or the two sides of a choice (--ron,
 * --tsumo) count as one option. */
static int read_options(int argc, char **argv, hand_parse *h, tk_error *err) {
  tk_hand_args *a = h->a;
  enum { LAST_TILE = 1, FIRST_DRAW, WIN_KIND };
#define FLAG(n, d, g) {.name = n, .kind = TK_OPT_FLAG, .dest = d, .once = 1, .group = g}
#define CALL(n, f, many) {.name = n, .kind = TK_OPT_CALL, .dest = h, .call = f, .once = !(many)}
  const tk_opt opts[] = {
      FLAG("json", &a->json, 0), FLAG("ron", &h->ron, WIN_KIND), FLAG("tsumo", NULL, WIN_KIND),
      FLAG("riichi", &h->riichi, 0), FLAG("double-riichi", &h->double_riichi, 0),
      FLAG("ippatsu", &h->ippatsu, 0), FLAG("haitei", &h->haitei, LAST_TILE),
      FLAG("houtei", &h->haitei, LAST_TILE), FLAG("rinshan", &h->rinshan, 0),
      FLAG("chankan", &h->chankan, 0), FLAG("tenhou", &h->tenhou, FIRST_DRAW),
      FLAG("chiihou", &h->tenhou, FIRST_DRAW), FLAG("solve", &a->solve, 0),
      {.name = "win", .kind = TK_OPT_STRING, .dest = &h->win, .once = 1, .empty_ok = 1},
      CALL("meld", meld_opt, 1), CALL("dora", dora_opt, 1), CALL("ura", ura_opt, 1),
      CALL("seen", seen_opt, 1), CALL("round", round_opt, 0), CALL("seat", seat_opt, 0),
      CALL("honba", honba_opt, 0), CALL("sticks", sticks_opt, 0), CALL("draws", draws_opt, 0),
      CALL("objective", objective_opt, 0), CALL("ruleset", ruleset_opt, 0),
      {.name = "max-states", .kind = TK_OPT_INT, .dest = &h->max_states, .once = 1, .min = 1,
       .max = 100000000},
      {.name = "detours", .kind = TK_OPT_INT, .dest = &a->detours, .once = 1, .min = 0,
       .max = 2 * TK_SOLVE_MAX_DRAWS + 1},
      {.name = NULL},
  };
#undef FLAG
#undef CALL
  tk_opt t[sizeof opts / sizeof opts[0]];
  memcpy(t, opts, sizeof opts);
  for (tk_opt *o = t; o->name; o++) { /* who counts as given, for the checks after */
    if (o->call == round_opt) o->given = &h->round_given;
    if (o->call == seat_opt) o->given = &h->seat_given;
    if (o->call == draws_opt) o->given = &h->draws_given;
    if (o->call == objective_opt) o->given = &h->objective_given;
  }
  const char *pos[2];
  int npos = 0, rc = tk_opts_parse_err("hand", t, argc, argv, pos, 2, &npos, err);
  if (rc == 1) a->help = 1;
  if (rc) return rc < 0 ? rc : 0;
  if (npos > 1)
    return tk_error_set(err, TK_EINVAL, -1, "unexpected argument '%s': TILES was already given as '%s'", pos[1], pos[0]);
  if (!npos) return tk_error_set(err, TK_EINVAL, -1, "no TILES given (see taikai hand --help)");
  h->tiles = pos[0];
  a->ctx.ron = (uint8_t)h->ron;
  a->ctx.riichi = (uint8_t)h->riichi;
  a->ctx.double_riichi = (uint8_t)h->double_riichi;
  a->ctx.ippatsu = (uint8_t)h->ippatsu;
  a->ctx.rinshan = (uint8_t)h->rinshan;
  a->ctx.chankan = (uint8_t)h->chankan;
  a->max_states = h->max_states;
  return 0;
}

/* The solo ruleset's player is the East dealer of the East round and wins closed by tsumo: any
 * flag saying otherwise is refused. */
static int check_solo(const hand_parse *h, tk_error *err) {
  tk_hand_args *a = h->a;
  if (h->seat_given && a->ctx.seat_wind != 0)
    return tk_error_set(err, TK_EINVAL, -1, "--seat: the solo ruleset's player is always the East dealer");
  if (h->round_given && a->ctx.round_wind != 0)
    return tk_error_set(err, TK_EINVAL, -1, "--round: the solo ruleset is always played in the East round");
  a->ctx.seat_wind = 0;
  a->ctx.round_wind = 0;
  const char *bad = a->ctx.ron ? "--ron" : a->ctx.riichi ? "--riichi" : a->ctx.double_riichi ? "--double-riichi"
                  : a->ctx.ippatsu ? "--ippatsu" : h->haitei ? "--haitei" : a->ctx.rinshan ? "--rinshan"
                  : a->ctx.chankan ? "--chankan" : h->tenhou ? "--tenhou" : a->ctx.nura ? "--ura"
                  : a->ctx.honba ? "--honba" : a->ctx.sticks ? "--sticks" : a->ncalls ? "--meld" : NULL;
  if (bad) return tk_error_set(err, TK_EINVAL, -1, "%s: not part of the solo ruleset (closed self-drawn wins only)", bad);
  return 0;
}

/* The winning tile: --win's, which must be among TILES, else the last of TILES. */
static int win_tile(const hand_parse *h, tk_error *err) {
  tk_hand_args *a = h->a;
  if (!h->win) {
    a->ctx.win_tile = a->tiles[a->ntiles - 1];
    return 0;
  }
  tk_error e;
  tk_error_clear(&e);
  int t = tk_tile_parse1(h->win, &e);
  if (t < 0) return tk_error_set(err, TK_EINVAL, -1, "--win '%s': %s", h->win, e.msg);
  int found = 0;
  for (int i = 0; i < a->ntiles; i++) found |= a->tiles[i] == t;
  if (!found) return tk_error_set(err, TK_EINVAL, -1, "--win '%s': that tile is not among TILES '%s'", h->win, h->tiles);
  a->ctx.win_tile = (uint8_t)t;
  a->win_given = 1;
  return 0;
}

/* a->seen: the copies the player sees outside the concealed hand (melds, dora indicators,
 * --seen), at most 4 of a kind with the hand's. */
static int count_seen(const hand_parse *h, tk_error *err) {
  tk_hand_args *a = h->a;
  int rc;
  for (int c = 0; c < a->ncalls; c++)
    for (int i = 0; i < a->call_ntiles[c]; i++) a->seen[tk_tile_kind(a->call_tiles[c][i])]++;
  for (int i = 0; i < a->ctx.ndora; i++) a->seen[a->ctx.dora[i]]++;
  for (int j = 0; j < h->nseen; j++) {
    tk_tile t[136];
    if ((rc = tiles_of("--seen", h->seen[j], t, 136, err)) < 0) return rc;
    for (int i = 0; i < rc; i++) {
      int k = tk_tile_kind(t[i]);
      if (a->seen[k] >= 4)
        return tk_error_set(err, TK_ERANGE, -1, "--seen '%s': more than 4 copies of %s seen in all", h->seen[j],
                            tk_tile_str((tk_tile)k));
      a->seen[k]++;
    }
  }
  uint8_t hand[TK_KINDS] = {0};
  for (int i = 0; i < a->ntiles; i++) hand[tk_tile_kind(a->tiles[i])]++;
  for (int k = 0; k < TK_KINDS; k++)
    if (hand[k] + a->seen[k] > 4)
      return tk_error_set(err, TK_ERANGE, -1,
                          "%s: %d copies of %s seen in melds, dora indicators and --seen besides %d in the hand (a set has 4)",
                          h->nseen ? "--seen" : "--dora", a->seen[k], tk_tile_str((tk_tile)k), hand[k]);
  return 0;
}

int tk_hand_args_parse(int argc, char **argv, tk_hand_args *a, tk_error *err) {
  memset(a, 0, sizeof *a);
  a->ctx.seat_wind = 1; /* South: a non-dealer */
  a->draws = 17;
  a->detours = -1;
  hand_parse h = {.a = a};
  int rc = read_options(argc, argv, &h, err);
  if (rc < 0 || a->help) return rc;
  if (!a->solve && (h.draws_given || h.objective_given || a->max_states || a->detours >= 0))
    return tk_error_set(err, TK_EINVAL, -1, "%s: only with --solve",
                        h.draws_given ? "--draws" : h.objective_given ? "--objective" : a->max_states ? "--max-states" : "--detours");
  if ((rc = tiles_of("TILES", h.tiles, a->tiles, 14, err)) < 0) return rc;
  a->ntiles = rc;
  int want13 = 13 - 3 * a->ncalls, want14 = 14 - 3 * a->ncalls;
  if (a->ntiles != want13 && a->ntiles != want14)
    return tk_error_set(err, TK_EINVAL, -1, "TILES '%s' has %d tiles; with %d meld%s it needs %d (or %d with the winning tile)",
                        h.tiles, a->ntiles, a->ncalls, a->ncalls == 1 ? "" : "s", want13, want14);
  if (a->ctx.ruleset == TK_RULES_SOLO && (rc = check_solo(&h, err)) < 0) return rc;
  if (a->solve && a->ctx.ruleset == TK_RULES_SOLO && a->ctx.ndora > 1)
    return tk_error_set(err, TK_EINVAL, -1, "--dora: --solve with --ruleset solo scores one-player points, which have one dora indicator (%d given)",
                        a->ctx.ndora);
  if (a->ctx.nura && !(a->ctx.riichi || a->ctx.double_riichi))
    return tk_error_set(err, TK_EINVAL, -1, "--ura: ura-dora count only for a riichi hand (add --riichi)");
  a->ctx.last_tile = (uint8_t)h.haitei;
  a->ctx.first_draw = (uint8_t)h.tenhou;
  if ((rc = check_tiles(a, err)) < 0) return rc;
  if ((rc = win_tile(&h, err)) < 0) return rc;
  return count_seen(&h, err);
}
