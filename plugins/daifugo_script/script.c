/* plugins/daifugo_script/script.c — daifugo agent "daifugo_script": plays, decision by
 * decision, what one player of a game log did. Its use: a record set again from logs. A run of
 * `taikai run --logs` or `taikai serve --logs` keeps each unit's log (logs/unit-N.jsonl.gz);
 * a run of the same spec (seed, rules, walls, format, agents' order and labels) in which each
 * agent is daifugo_script following that agent's own moves plays the same games, so
 * `taikai run --records` writes the decisions of programs that cannot be run again (an
 * external client whose play follows its clock, or one that is not quite deterministic) from
 * logs a few hundred KB gzipped per thousand games, which a repository can keep.
 *
 * Parameters:
 *   "log"   a game log file, gzipped or not, holding one or more blocks' logs one after the
 *           other (`cat RUN/logs/unit-*.jsonl.gz > FILE` joins them: gzip members may follow
 *           each other); a path relative to the working directory, or absolute. Its SHA-256
 *           goes into the run's spec.json (agents[].files, role "log").
 *   "name"  the player to follow, as the log's start_block names it (the label it had).
 * At each decision it takes that player's next logged action in the block and game the
 * referee says (tk_daifugo_info.block, .game) and returns the legal action written the same
 * way (tk_daifugo_move_str for a play, tk_daifugo_cards_str for a card given); where the log
 * has no such action, or the action is not legal there (another seed, other rules, another
 * seating), the call fails with a message naming the block, game and action (a fault in the
 * run's games.jsonl). Deterministic: it keeps no state between games but its place in the
 * log. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <zlib.h>

#include "taikai/agent.h"
#include "taikai/daifugo.h"

enum { TEXT_MAX = 96, LINE_MAX_BYTES = 1 << 16 };
enum { ACT_GIVE = 0, ACT_PASS = 1, ACT_PLAY = 2 };

typedef struct action {
  uint64_t block;
  uint32_t game;
  uint32_t seq; /* the order in the log, which sorting keeps */
  int player;   /* the player id the log gives the followed name in that block */
  int kind;     /* ACT_* */
  char text[TEXT_MAX];
} action;

typedef struct script {
  char path[4096];
  char name[128];
  action *a;
  size_t n, cap;
  size_t at, end;  /* the current game's actions: a[at .. end) */
  uint64_t block;  /* the current block and game */
  uint32_t game;
  int player;      /* the referee's player id for this agent in the current block */
  int placed;      /* 1 once at/end hold the current game's actions */
  char error[TK_FAULT_MESSAGE_MAX];
} script;

/* Fills *err (TK_EINVAL, the message truncated to fit); returns -1. */
static int fail(tk_error *err, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = TK_EINVAL;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static int push(script *s, const action *x) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 1024;
    action *a = realloc(s->a, cap * sizeof *a);
    if (!a) return -1;
    s->a = a;
    s->cap = cap;
  }
  s->a[s->n++] = *x;
  return 0;
}

static int by_place(const void *pa, const void *pb) {
  const action *a = pa, *b = pb;
  if (a->block != b->block) return a->block < b->block ? -1 : 1;
  if (a->game != b->game) return a->game < b->game ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Adds `block` to the `*n` blocks begun so far. Returns 0, or 1 when it was begun before (a
 * block twice is two runs' logs joined), or -1 when out of memory. */
static int note_block(uint64_t **seen, size_t *n, uint64_t block) {
  for (size_t i = 0; i < *n; i++)
    if ((*seen)[i] == block) return 1;
  uint64_t *grown = realloc(*seen, (*n + 1) * sizeof *grown);
  if (!grown) return -1;
  grown[(*n)++] = block;
  *seen = grown;
  return 0;
}

/* Reads the log: every action of the followed player, in log order within each game. */
static int load(script *s, tk_error *err) {
  gzFile f = gzopen(s->path, "rb");
  if (!f) return fail(err, "daifugo_script: cannot open the log '%s': %s", s->path, strerror(errno));
  char *line = malloc(LINE_MAX_BYTES);
  if (!line) {
    gzclose(f);
    return fail(err, "daifugo_script: out of memory");
  }
  int rc = 0, player = -1, in_block = 0, found = 0;
  uint64_t block = 0;
  uint64_t *seen = NULL; /* the blocks begun so far: a block twice is two logs joined */
  size_t nseen = 0;
  long lineno = 0;
  char where[64];
  while (!rc && gzgets(f, line, LINE_MAX_BYTES)) {
    lineno++;
    size_t len = strlen(line);
    if (len == LINE_MAX_BYTES - 1 && line[len - 1] != '\n') {
      snprintf(where, sizeof where, "%ld", lineno);
      rc = fail(err, "daifugo_script: %s: line %s is too long for a daifugo log", s->path, where);
      break;
    }
    json_error_t jerr;
    json_t *o = json_loadb(line, len, 0, &jerr);
    const char *type = json_string_value(json_object_get(o, "type"));
    if (!o || !type) {
      json_decref(o);
      snprintf(where, sizeof where, "%ld", lineno);
      rc = fail(err, "daifugo_script: %s: line %s is not a daifugo log line (a JSON object "
                "with a \"type\")", s->path, where);
      break;
    }
    if (!strcmp(type, "start_block")) {
      const char *game = json_string_value(json_object_get(o, "game"));
      json_t *names = json_object_get(o, "names");
      if (!game || strcmp(game, "daifugo") || !json_is_integer(json_object_get(o, "block")) ||
          json_array_size(names) != 5) {
        snprintf(where, sizeof where, "%ld", lineno);
        rc = fail(err, "daifugo_script: %s: line %s: a start_block without the daifugo game, "
                  "its block or five names", s->path, where);
      } else {
        block = (uint64_t)json_integer_value(json_object_get(o, "block"));
        int again = note_block(&seen, &nseen, block);
        snprintf(where, sizeof where, "%ld", lineno);
        if (again > 0)
          rc = fail(err, "daifugo_script: %s: line %s begins block %llu a second time (two "
                    "runs' logs joined?)", s->path, where, (unsigned long long)block);
        else if (again < 0)
          rc = fail(err, "daifugo_script: out of memory");
      }
      if (!rc) {
        player = -1;
        for (int p = 0; p < 5; p++) {
          const char *nm = json_string_value(json_array_get(names, (size_t)p));
          if (nm && !strcmp(nm, s->name)) player = p;
        }
        in_block = 1;
        found |= player >= 0;
      }
    } else if (!strcmp(type, "give") || !strcmp(type, "pass") || !strcmp(type, "play")) {
      json_t *p = json_object_get(o, "player"), *g = json_object_get(o, "game");
      const char *text = !strcmp(type, "give")   ? json_string_value(json_object_get(o, "card"))
                         : !strcmp(type, "play") ? json_string_value(json_object_get(o, "cards"))
                                                 : "";
      if (!in_block || !json_is_integer(p) || !json_is_integer(g) || !text ||
          strlen(text) >= TEXT_MAX) {
        snprintf(where, sizeof where, "%ld", lineno);
        rc = fail(err, "daifugo_script: %s: line %s: an action without a start_block before "
                  "it, its player, game or cards", s->path, where);
      } else if (json_integer_value(p) == player) {
        action x = {.block = block,
                    .game = (uint32_t)json_integer_value(g),
                    .seq = (uint32_t)s->n,
                    .player = player,
                    .kind = type[0] == 'g' ? ACT_GIVE : type[1] == 'a' ? ACT_PASS : ACT_PLAY};
        snprintf(x.text, sizeof x.text, "%s", text);
        if (push(s, &x)) rc = fail(err, "daifugo_script: out of memory");
      }
    }
    json_decref(o);
  }
  if (!rc && !gzeof(f)) {
    int zerr = 0;
    const char *msg = gzerror(f, &zerr);
    rc = fail(err, "daifugo_script: reading the log '%s': %s", s->path, msg ? msg : "error");
  }
  free(line);
  free(seen);
  gzclose(f);
  if (!rc && !nseen)
    rc = fail(err, "daifugo_script: '%s' holds no daifugo log (no start_block line)", s->path);
  if (!rc && !found)
    rc = fail(err, "daifugo_script: the log '%s' has no player named '%s' in any start_block",
              s->path, s->name);
  if (!rc) qsort(s->a, s->n, sizeof *s->a, by_place);
  return rc;
}

static void destroy(tk_agent_instance *self) {
  script *s = (script *)self;
  if (!s) return;
  free(s->a);
  free(s);
}

static tk_agent_instance *create(const char *params_json, uint64_t seed, tk_error *err) {
  (void)seed;
  json_error_t jerr;
  json_t *p = json_loads(params_json ? params_json : "{}", 0, &jerr);
  const char *log = json_string_value(json_object_get(p, "log"));
  const char *name = json_string_value(json_object_get(p, "name"));
  script *s = NULL;
  if (!p || !log || !log[0] || !name || !name[0]) {
    fail(err, "daifugo_script: the parameters \"log\" (a game log file) and \"name\" (the "
         "player to follow) are both needed");
  } else if (strlen(log) >= sizeof s->path || strlen(name) >= sizeof s->name) {
    fail(err, "daifugo_script: parameter \"log\" or \"name\" is too long");
  } else if (!(s = calloc(1, sizeof *s))) {
    fail(err, "daifugo_script: out of memory");
  } else {
    snprintf(s->path, sizeof s->path, "%s", log);
    snprintf(s->name, sizeof s->name, "%s", name);
    if (load(s, err)) {
      destroy((tk_agent_instance *)s);
      s = NULL;
    }
  }
  json_decref(p);
  return (tk_agent_instance *)s;
}

/* Puts the place in the log at game `game` of block `block`: its first action. */
static void seek(script *s, uint64_t block, uint32_t game) {
  s->block = block;
  s->game = game;
  action key = {.block = block, .game = game, .seq = 0};
  size_t lo = 0, hi = s->n; /* the first action at or after (block, game) */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (by_place(&s->a[mid], &key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  s->at = s->end = lo;
  while (s->end < s->n && s->a[s->end].block == block && s->a[s->end].game == game) s->end++;
  s->placed = 1;
}

/* A block begins (the referee's game is a block of daifugo games): the games within it are
 * told by each view's `game`. */
static int begin_game(tk_agent_instance *self, const void *info) {
  script *s = (script *)self;
  const tk_daifugo_info *in = info;
  s->block = in->block;
  s->player = (int)in->head.seat;
  s->placed = 0;
  s->error[0] = '\0';
  return 0;
}

/* The text of legal action m, as the log writes an action of this kind. */
static void text_of(const tk_daifugo_move *m, int give, char *buf, size_t cap) {
  if (give)
    tk_daifugo_cards_str(m->cards, buf, cap);
  else
    tk_daifugo_move_str(m, buf, cap);
}

static int act(tk_agent_instance *self, const void *view, const void *legal, void *out) {
  script *s = (script *)self;
  const tk_daifugo_legal *l = legal;
  const tk_daifugo_view *v = view;
  if (!s->placed || v->game != s->game) seek(s, s->block, v->game);
  if (s->at >= s->end) {
    snprintf(s->error, sizeof s->error,
             "daifugo_script: the log has no more actions of '%.60s' in block %llu, game %u",
             s->name, (unsigned long long)s->block, s->game);
    return TK_ESTATE;
  }
  const action *x = &s->a[s->at];
  if (x->player != s->player) {
    snprintf(s->error, sizeof s->error,
             "daifugo_script: '%.60s' is player %d in the log's block %llu but %d here",
             s->name, x->player, (unsigned long long)s->block, s->player);
    return TK_ESTATE;
  }
  int give = l->decision == TK_DAIFUGO_DECIDE_EXCHANGE;
  if (give != (x->kind == ACT_GIVE)) {
    snprintf(s->error, sizeof s->error,
             "daifugo_script: block %llu, game %u: the log's next action of '%.40s' is %s %.40s, "
             "but the decision here is %s", (unsigned long long)s->block, s->game, s->name,
             x->kind == ACT_GIVE ? "give" : x->kind == ACT_PASS ? "pass" : "play", x->text,
             give ? "a card to give" : "a play");
    return TK_ESTATE;
  }
  for (int i = 0; i < l->n; i++) {
    const tk_daifugo_move *m = &l->a[i];
    int match;
    if (x->kind == ACT_PASS) {
      match = m->kind == TK_DAIFUGO_PASS;
    } else {
      char t[TEXT_MAX];
      text_of(m, give, t, sizeof t);
      match = (give || m->kind != TK_DAIFUGO_PASS) && !strcmp(t, x->text);
    }
    if (match) {
      *(tk_daifugo_move *)out = *m;
      s->at++;
      return 0;
    }
  }
  snprintf(s->error, sizeof s->error,
           "daifugo_script: block %llu, game %u: the log's next action of '%.40s' (%s %.40s) is not "
           "legal here: another seed, rules or seating?", (unsigned long long)s->block,
           s->game, s->name, x->kind == ACT_GIVE ? "give" : x->kind == ACT_PASS ? "pass" : "play",
           x->text);
  return TK_ESTATE;
}

static void end_game(tk_agent_instance *self, const void *result) {
  (void)self;
  (void)result;
}

static void last_error(tk_agent_instance *self, tk_error *err) {
  script *s = (script *)self;
  err->code = TK_ESTATE;
  snprintf(err->msg, sizeof err->msg, "%s", s->error);
}

static const char *file(tk_agent_instance *self, int i, const char **role) {
  script *s = (script *)self;
  if (i != 0) return NULL;
  *role = "log";
  return s->path;
}

static const tk_agent_descriptor descriptor = {
    .abi_version = TK_AGENT_ABI_VERSION,
    .struct_size = sizeof(tk_agent_descriptor),
    .name = "daifugo_script",
    .version = "1.0.0",
    .game = "daifugo",
    .types_version = TK_DAIFUGO_TYPES_VERSION,
    .description = "daifugo: plays one player's moves from a game log (a record set again from "
                   "logs)",
    .params_json = "{\"log\": \"\", \"name\": \"\"}",
    .create = create,
    .destroy = destroy,
    .begin_game = begin_game,
    .act = act,
    .end_game = end_game,
    .last_error = last_error,
    .file = file,
};

TK_AGENT_ENTRY(daifugo_script) { return &descriptor; }
