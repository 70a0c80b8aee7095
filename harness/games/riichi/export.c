/* harness/games/riichi/export.c — `taikai export tenhou RUN|LOG... --out DIR`: riichi mjai logs (taikai's,
 * imported or other tools', gzipped or not, one or several games per file) written as
 * tenhou.net/6 JSON, the format the common log viewers and reviewers load: one DIR/NAME.json
 * per game. Each hand is its starting hands, each seat's takes (draws and calls) and discards
 * (tsumogiri 60, riichi "r", kans), the indicators, and its result with the log's deltas.
 * Tiles: 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N P F C, 51/52/53 the red fives. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "riichi_cmd.h"
#include "import.h"
#include "logtext.h"
#include "opts.h"
#include "taikai/mahjong.h"

/* The tenhou.net/6 code of an mjai tile name; -1 when it is not one. */
static int code_of(const char *s) {
  int t = s ? tk_tile_from_mjai(s, NULL) : -1;
  if (t < 0) return -1;
  int k = tk_tile_kind((tk_tile)t);
  if (tk_tile_is_red((tk_tile)t)) return 51 + k / 9;
  return k < 27 ? 11 + 10 * (k / 9) + k % 9 : 41 + (k - 27);
}

static int tile_code(json_t *v) { return code_of(json_string_value(v)); }
/* The code of the same kind without the red flag (51 -> 15). */
static int plain(int c) { return c >= 51 ? 10 * (c - 50) + 5 : c; }

/* Japanese yaku names, as the viewers print them, by taikai's names. */
static const char *yaku_ja(const char *name) {
  static const char *const map[][2] = {
      {"riichi", "立直"}, {"double_riichi", "両立直"}, {"ippatsu", "一発"},
      {"menzen_tsumo", "門前清自摸和"}, {"pinfu", "平和"}, {"tanyao", "断幺九"},
      {"iipeikou", "一盃口"}, {"haku", "役牌 白"}, {"hatsu", "役牌 發"}, {"chun", "役牌 中"},
      {"seat_wind", "自風"}, {"round_wind", "場風"}, {"haitei", "海底摸月"},
      {"houtei", "河底撈魚"}, {"rinshan", "嶺上開花"}, {"chankan", "槍槓"},
      {"chiitoitsu", "七対子"}, {"sanshoku", "三色同順"}, {"ittsu", "一気通貫"},
      {"chanta", "混全帯幺九"}, {"toitoi", "対々和"}, {"sanankou", "三暗刻"},
      {"sanshoku_doukou", "三色同刻"}, {"sankantsu", "三槓子"}, {"honroutou", "混老頭"},
      {"shousangen", "小三元"}, {"honitsu", "混一色"}, {"junchan", "純全帯幺九"},
      {"ryanpeikou", "二盃口"}, {"chinitsu", "清一色"}, {"kokushi", "国士無双"},
      {"suuankou", "四暗刻"}, {"daisangen", "大三元"}, {"shousuushii", "小四喜"},
      {"daisuushii", "大四喜"}, {"tsuuiisou", "字一色"}, {"ryuuiisou", "緑一色"},
      {"chinroutou", "清老頭"}, {"chuuren", "九蓮宝燈"}, {"suukantsu", "四槓子"},
      {"tenhou", "天和"}, {"chiihou", "地和"}, {"dora", "ドラ"}, {"aka_dora", "赤ドラ"},
      {"ura_dora", "裏ドラ"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(name, map[i][0])) return map[i][1];
  return name;
}

static const char *limit_ja(const char *limit) {
  static const char *const map[][2] = {{"mangan", "満貫"}, {"haneman", "跳満"}, {"baiman", "倍満"},
                                       {"sanbaiman", "三倍満"}, {"kazoe_yakuman", "数え役満"}};
  for (size_t i = 0; limit && i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(limit, map[i][0])) return map[i][1];
  return limit && strstr(limit, "yakuman") ? "役満" : NULL;
}

static int geti(json_t *o, const char *k, int def) {
  json_t *v = json_object_get(o, k);
  return json_is_integer(v) ? (int)json_integer_value(v) : def;
}
static const char *type_of(json_t *o) { return json_string_value(json_object_get(o, "type")); }
static int is(json_t *o, const char *t) {
  const char *s = type_of(o);
  return s && !strcmp(s, t);
}

/* The call string: the codes of `own` with `mark` + the called tile inserted at the giver's
 * position (left: first, across: second, right: last; a chi is always from the left). */
static json_t *call_string(char mark, int called, const int *own, int n, int rel) {
  char b[64];
  size_t o = 0;
  int at = rel == 3 ? 0 : rel == 2 ? 1 : n; /* rel = (giver - caller) mod 4 */
  for (int i = 0; i <= n; i++) {
    if (i == at) o += (size_t)snprintf(b + o, sizeof b - o, "%c%d", mark, called);
    if (i < n) o += (size_t)snprintf(b + o, sizeof b - o, "%d", own[i]);
  }
  return json_string(b);
}

typedef struct hand {
  json_t *kyoku;    /* the hand's array being built */
  json_t *haipai[4], *take[4], *discard[4], *dora, *ura;
  json_t *result;
  int reach[4];     /* declared, waiting for the declaration tile */
  int melds[4][4][4], nmelds[4]; /* pon tiles (codes: called first) for an added kan */
  int pon_rel[4][4];
} hand;

static void hand_free(hand *h) {
  json_decref(h->kyoku);
  for (int s = 0; s < 4; s++) {
    json_decref(h->haipai[s]);
    json_decref(h->take[s]);
    json_decref(h->discard[s]);
  }
  json_decref(h->dora);
  json_decref(h->ura);
  json_decref(h->result);
  memset(h, 0, sizeof *h);
}

static json_t *four_ints(json_t *a) {
  json_t *o = json_array();
  for (int s = 0; s < 4; s++) json_array_append_new(o, json_integer(json_integer_value(json_array_get(a, s))));
  return o;
}

/* The hora's point string and yaku strings, as the viewers print them. */
static void hora_info(json_t *l, json_t *info, int dealer) {
  int actor = geti(l, "actor", 0), target = geti(l, "target", 0);
  int fu = geti(l, "fu", 0), han = geti(l, "fan", geti(l, "han", 0));
  int pts = geti(l, "hora_points", 0);
  const char *lim = limit_ja(json_string_value(json_object_get(l, "limit")));
  char p[64];
  if (actor != target) snprintf(p, sizeof p, "%d点", pts);
  else if (actor == dealer) snprintf(p, sizeof p, "%d点∀", pts / 3);
  else { /* non-dealer tsumo: base payments from the value (children pay a quarter, rounded) */
    int child = (pts / 4 + 99) / 100 * 100, parent = pts - 2 * child;
    snprintf(p, sizeof p, "%d-%d点", child, parent);
  }
  char s[128];
  if (lim) snprintf(s, sizeof s, "%s%s", lim, p);
  else snprintf(s, sizeof s, "%d符%d飜%s", fu, han, p);
  json_array_append_new(info, json_string(s));
  json_t *yakus = json_object_get(l, "yakus");
  int yakuman = geti(l, "yakuman", 0);
  for (size_t i = 0; i < json_array_size(yakus); i++) {
    json_t *y = json_array_get(yakus, i);
    const char *name = json_string_value(json_array_get(y, 0));
    int n = (int)json_integer_value(json_array_get(y, 1));
    if (!name) continue;
    char b[96];
    if (yakuman) snprintf(b, sizeof b, "%s(役満)", yaku_ja(name));
    else snprintf(b, sizeof b, "%s(%d飜)", yaku_ja(name), n);
    json_array_append_new(info, json_string(b));
  }
}

/* Converts the lines [a, end) of one game into tenhou.net/6 JSON; NULL with `err` set. */
static json_t *export_game(json_t **line, const int *lineno, int a, int end, const char *name,
                           tk_error *err) {
  json_t *sg = line[a];
  json_t *names = json_object_get(sg, "names");
  json_t *rules = json_object_get(sg, "taikai_rules");
  json_t *kf = json_object_get(sg, "kyoku_first");
  int hanchan = rules ? geti(rules, "length", 1) == 2 : json_is_integer(kf) && json_integer_value(kf) == 0;
  json_t *aka = rules ? json_object_get(rules, "red_fives") : json_object_get(sg, "aka_flag");
  int red = aka ? json_is_true(aka) : 1;
  json_t *out = json_object(), *logs = json_array();
  json_object_set_new(out, "title", json_pack("[s,s]", "taikai", name));
  json_t *nm = json_array();
  for (int s = 0; s < 4; s++) {
    const char *n = json_string_value(json_array_get(names, (size_t)s));
    char def[16];
    snprintf(def, sizeof def, "player%d", s);
    json_array_append_new(nm, json_string(n ? n : def));
  }
  json_object_set_new(out, "name", nm);
  json_object_set_new(out, "rule", json_pack("{s:s,s:i,s:i,s:i,s:i}", "disp",
                                              hanchan ? (red ? "般南喰赤" : "般南喰") : (red ? "般東喰赤" : "般東喰"),
                                              "aka", red, "aka51", red, "aka52", red, "aka53", red));
  hand h;
  memset(&h, 0, sizeof h);
  int dealer = 0, in_hand = 0, ok = 1;
  json_t *final = NULL;
#define FAIL(what)                                                                              \
  do {                                                                                          \
    tk_error_set(err, TK_EINVAL, lineno[i], "%s: line %d (%s): %s", name, lineno[i],           \
                 type_of(l) ? type_of(l) : "?", what);                                          \
    ok = 0;                                                                                     \
  } while (0)
  for (int i = a + 1; i < end && ok; i++) {
    json_t *l = line[i];
    int actor = geti(l, "actor", -1);
    if (is(l, "start_kyoku")) {
      hand_free(&h);
      const char *bk = json_string_value(json_object_get(l, "bakaze"));
      int wind = bk && !strcmp(bk, "S") ? 1 : bk && !strcmp(bk, "W") ? 2 : bk && !strcmp(bk, "N") ? 3 : 0;
      dealer = geti(l, "oya", 0);
      h.kyoku = json_array();
      json_array_append_new(h.kyoku, json_pack("[i,i,i]", wind * 4 + geti(l, "kyoku", 1) - 1,
                                               geti(l, "honba", 0), geti(l, "kyotaku", 0)));
      json_array_append_new(h.kyoku, four_ints(json_object_get(l, "scores")));
      h.dora = json_array();
      h.ura = json_array();
      json_array_append_new(h.dora, json_integer(tile_code(json_object_get(l, "dora_marker"))));
      json_t *th = json_object_get(l, "tehais");
      for (int s = 0; s < 4; s++) {
        h.haipai[s] = json_array();
        h.take[s] = json_array();
        h.discard[s] = json_array();
        json_t *t = json_array_get(th, (size_t)s);
        for (size_t j = 0; j < json_array_size(t); j++) {
          int c = tile_code(json_array_get(t, j));
          if (c < 0) FAIL("a starting hand's tile is not a tile");
          json_array_append_new(h.haipai[s], json_integer(c));
        }
      }
      in_hand = 1;
      continue;
    }
    if (is(l, "end_game")) {
      final = json_object_get(l, "scores");
      continue;
    }
    if (!in_hand) continue;
    if (actor > 3 || (actor < 0 && (is(l, "tsumo") || is(l, "dahai")))) {
      FAIL("no actor 0..3");
      break;
    }
    if (is(l, "tsumo")) {
      json_array_append_new(h.take[actor], json_integer(tile_code(json_object_get(l, "pai"))));
    } else if (is(l, "reach")) {
      h.reach[actor] = 1;
    } else if (is(l, "dahai")) {
      int c = tile_code(json_object_get(l, "pai"));
      int tg = json_is_true(json_object_get(l, "tsumogiri"));
      if (h.reach[actor]) {
        char b[16];
        snprintf(b, sizeof b, "r%d", tg ? 60 : c);
        json_array_append_new(h.discard[actor], json_string(b));
        h.reach[actor] = 0;
      } else {
        json_array_append_new(h.discard[actor], json_integer(tg ? 60 : c));
      }
    } else if (is(l, "chi") || is(l, "pon") || is(l, "daiminkan")) {
      int target = geti(l, "target", -1), called = tile_code(json_object_get(l, "pai"));
      json_t *cons = json_object_get(l, "consumed");
      int own[3], n = 0;
      for (size_t j = 0; j < json_array_size(cons) && n < 3; j++) own[n++] = tile_code(json_array_get(cons, j));
      if (target < 0 || target > 3) {
        FAIL("no target 0..3");
        break;
      }
      int rel = (target - actor + 4) % 4;
      char mark = is(l, "chi") ? 'c' : is(l, "pon") ? 'p' : 'm';
      json_array_append_new(h.take[actor], call_string(mark, called, own, n, mark == 'c' ? 3 : rel));
      if (mark == 'p' && h.nmelds[actor] < 4) {
        int m = h.nmelds[actor]++;
        h.melds[actor][m][0] = called;
        h.melds[actor][m][1] = own[0];
        h.melds[actor][m][2] = own[1];
        h.pon_rel[actor][m] = rel;
      }
      if (mark == 'm') json_array_append_new(h.discard[actor], json_integer(0)); /* no discard */
    } else if (is(l, "kakan")) {
      int added = tile_code(json_object_get(l, "pai")), m = -1;
      for (int j = 0; j < h.nmelds[actor]; j++)
        if (plain(h.melds[actor][j][0]) == plain(added)) m = j;
      if (m < 0) {
        FAIL("an added kan without its pon");
        break;
      }
      /* the pon's string with "k" and the added tile before the called one */
      int own[2] = {h.melds[actor][m][1], h.melds[actor][m][2]};
      int rel = h.pon_rel[actor][m];
      char b[64];
      size_t o = 0;
      int at = rel == 3 ? 0 : rel == 2 ? 1 : 2;
      for (int j = 0; j <= 2; j++) {
        if (j == at) o += (size_t)snprintf(b + o, sizeof b - o, "k%d%d", added, h.melds[actor][m][0]);
        if (j < 2) o += (size_t)snprintf(b + o, sizeof b - o, "%d", own[j]);
      }
      json_array_append_new(h.discard[actor], json_string(b));
    } else if (is(l, "ankan")) {
      json_t *cons = json_object_get(l, "consumed");
      int c[4];
      for (int j = 0; j < 4; j++) c[j] = tile_code(json_array_get(cons, (size_t)j));
      char b[32];
      snprintf(b, sizeof b, "%d%d%da%d", c[0], c[1], c[2], c[3]);
      json_array_append_new(h.discard[actor], json_string(b));
    } else if (is(l, "dora")) {
      json_array_append_new(h.dora, json_integer(tile_code(json_object_get(l, "dora_marker"))));
    } else if (is(l, "hora")) {
      json_t *u = json_object_get(l, "uradora_markers");
      if (!u) u = json_object_get(l, "ura_markers");
      if (json_array_size(u) && !json_array_size(h.ura))
        for (size_t j = 0; j < json_array_size(u); j++)
          json_array_append_new(h.ura, json_integer(tile_code(json_array_get(u, j))));
      if (!h.result) h.result = json_pack("[s]", "和了");
      json_array_append_new(h.result, four_ints(json_object_get(l, "deltas")));
      int pao = geti(l, "pao", actor);
      json_t *info = json_pack("[i,i,i]", actor, geti(l, "target", actor), pao);
      hora_info(l, info, dealer);
      json_array_append_new(h.result, info);
    } else if (is(l, "ryukyoku")) {
      const char *r = json_string_value(json_object_get(l, "reason"));
      static const char *const kinds[][2] = {
          {"nagashimangan", "流し満貫"}, {"kyushukyuhai", "九種九牌"}, {"suufonrenda", "四風連打"},
          {"suuchariichi", "四家立直"}, {"suukaikan", "四槓散了"}, {"sanchahou", "三家和了"}};
      const char *ja = "流局";
      for (size_t j = 0; r && j < sizeof kinds / sizeof kinds[0]; j++)
        if (!strcmp(r, kinds[j][0])) ja = kinds[j][1];
      json_t *tp = json_object_get(l, "tenpais");
      int nt = 0;
      for (size_t j = 0; j < json_array_size(tp); j++) nt += json_is_true(json_array_get(tp, j));
      if (!strcmp(ja, "流局") && json_array_size(tp) == 4 && (nt == 0 || nt == 4))
        ja = nt ? "全員聴牌" : "全員不聴";
      h.result = json_pack("[s]", ja);
      json_t *d = json_object_get(l, "deltas");
      if (d) json_array_append_new(h.result, four_ints(d));
    } else if (is(l, "end_kyoku")) {
      for (int s = 0; s < 4; s++) {
        json_array_append(h.kyoku, h.haipai[s]);
        json_array_append(h.kyoku, h.take[s]);
        json_array_append(h.kyoku, h.discard[s]);
      }
      json_t *k = h.kyoku;
      json_array_insert(k, 2, h.dora);
      json_array_insert(k, 3, h.ura);
      if (h.result) json_array_append(k, h.result);
      else json_array_append_new(k, json_pack("[s]", "流局"));
      json_array_append(logs, k);
      hand_free(&h);
      in_hand = 0;
    }
  }
#undef FAIL
  hand_free(&h);
  if (!ok) {
    json_decref(out);
    json_decref(logs);
    return NULL;
  }
  json_object_set_new(out, "log", logs);
  if (final) { /* final points (hundreds) and scores: (points - return) / 1000 + uma, oka to the top */
    int start = rules ? geti(rules, "start_points", 25000) : 25000;
    int ret = rules ? geti(rules, "return_points", 30000) : 30000;
    int uma[4] = {20000, 10000, -10000, -20000};
    json_t *um = rules ? json_object_get(rules, "uma") : NULL;
    for (int r = 0; r < 4 && json_array_size(um) == 4; r++) uma[r] = (int)json_integer_value(json_array_get(um, (size_t)r));
    int32_t pts[4];
    for (int s = 0; s < 4; s++) pts[s] = (int32_t)json_integer_value(json_array_get(final, (size_t)s));
    json_t *sc = json_array();
    for (int s = 0; s < 4; s++) {
      int rank = 0;
      for (int o = 0; o < 4; o++) rank += pts[o] > pts[s] || (pts[o] == pts[s] && o < s);
      double score = (pts[s] - ret + uma[rank] + (rank == 0 ? 4 * (ret - start) : 0)) / 1000.0;
      json_array_append_new(sc, json_integer(pts[s] / 100));
      json_array_append_new(sc, json_real(score));
    }
    json_object_set_new(out, "sc", sc);
  }
  return out;
}

/* ------------------------------------------------------------ the command */

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai export tenhou RUN|LOG|DIR... --out DIR\n"
          "\n"
          "Writes riichi mjai logs as tenhou.net/6 JSON, the format the common log viewers and\n"
          "reviewers load: one DIR/NAME.json per game (NAME = the log's file name without .gz and\n"
          ".jsonl; NAME-2.json, ... for the further games of a file holding several).\n"
          "\n"
          "  RUN      a run folder of `taikai run --logs` (its logs/)\n"
          "  LOG      a log (*.jsonl or *.jsonl.gz): taikai's, `taikai import`'s or another tool's\n"
          "  DIR      every *.jsonl, *.jsonl.gz in the folder\n"
          "  --out D  output folder (created)\n"
          "\n"
          "Exit status: 0 all written; 1 a log refused (named with its line); 2 bad usage or\n"
          "unreadable input.\n");
}

static int ends_with(const char *s, const char *x) {
  size_t n = strlen(s), m = strlen(x);
  return n >= m && !strcmp(s + n - m, x);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct list {
  char **p;
  size_t n, cap;
} list;

static int push(list *l, const char *a, const char *b) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    char **np = realloc(l->p, cap * sizeof *np);
    if (!np) return -1;
    l->p = np;
    l->cap = cap;
  }
  size_t len = strlen(a) + (b ? strlen(b) + 1 : 0) + 1;
  char *s = malloc(len);
  if (!s) return -1;
  if (b) snprintf(s, len, "%s/%s", a, b);
  else snprintf(s, len, "%s", a);
  l->p[l->n++] = s;
  return 0;
}

/* Adds the logs `arg` names; 0, or 2 after a message. */
static int add(list *l, const char *arg) {
  struct stat st;
  if (stat(arg, &st)) {
    fprintf(stderr, "taikai export: %s: %s\n", arg, strerror(errno));
    return 2;
  }
  if (!S_ISDIR(st.st_mode)) return push(l, arg, NULL) ? 2 : 0;
  char dir[1200];
  snprintf(dir, sizeof dir, "%s/spec.json", arg);
  if (!stat(dir, &st)) snprintf(dir, sizeof dir, "%s/logs", arg);
  else snprintf(dir, sizeof dir, "%s", arg);
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "taikai export: %s: cannot open the folder: %s\n", dir, strerror(errno));
    return 2;
  }
  size_t first = l->n;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.' && (ends_with(e->d_name, ".jsonl") || ends_with(e->d_name, ".jsonl.gz")))
      if (push(l, dir, e->d_name)) {
        closedir(d);
        return 2;
      }
  closedir(d);
  if (l->n == first) {
    fprintf(stderr, "taikai export: %s: no *.jsonl log in this folder\n", dir);
    return 2;
  }
  qsort(l->p + first, l->n - first, sizeof *l->p, by_name);
  return 0;
}

/* Exports every game of the log `path`; returns 0, 1 (refused) or 2 (unreadable), counting games. */
static int export_file(const char *path, const char *out_dir, long *games) {
  char *text;
  size_t len;
  tk_error err;
  tk_error_clear(&err);
  if (tk_read_maybe_gz(path, &text, &len, &err)) {
    fprintf(stderr, "taikai export: %s\n", err.msg);
    return 2;
  }
  json_t **line = NULL;
  int *lineno = NULL, n = 0, cap = 0, rc = 0, phys = 0;
  for (char *p = text; p < text + len && !rc;) {
    char *nl = memchr(p, '\n', (size_t)(text + len - p));
    if (nl) *nl = '\0';
    phys++;
    if (strspn(p, " \t\r") != strlen(p)) {
      json_error_t je;
      json_t *o = json_loads(p, 0, &je);
      if (!o) {
        fprintf(stderr, "taikai export: %s:%d: not JSON: %s\n", path, phys, je.text);
        rc = 1;
        break;
      }
      if (n == cap) {
        cap = cap ? 2 * cap : 1024;
        line = realloc(line, sizeof *line * (size_t)cap);
        lineno = realloc(lineno, sizeof *lineno * (size_t)cap);
        if (!line || !lineno) {
          fprintf(stderr, "taikai export: out of memory\n");
          exit(2);
        }
      }
      lineno[n] = phys;
      line[n++] = o;
    }
    p = nl ? nl + 1 : text + len;
  }
  free(text);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  char stem[512];
  snprintf(stem, sizeof stem, "%s", base);
  if (ends_with(stem, ".gz")) stem[strlen(stem) - 3] = '\0';
  if (ends_with(stem, ".jsonl")) stem[strlen(stem) - 6] = '\0';
  int game = 0;
  for (int i = 0; i < n && !rc;) {
    if (!is(line[i], "start_game")) {
      fprintf(stderr, "taikai export: %s:%d: expected start_game\n", path, lineno[i]);
      rc = 1;
      break;
    }
    int j = i + 1;
    while (j < n && !is(line[j], "start_game")) j++;
    game++;
    char nm[600], out[1800];
    if (game == 1) snprintf(nm, sizeof nm, "%s", stem);
    else snprintf(nm, sizeof nm, "%s-%d", stem, game);
    snprintf(out, sizeof out, "%s/%s.json", out_dir, nm);
    json_t *t6 = export_game(line, lineno, i, j, path, &err);
    if (!t6) {
      fprintf(stderr, "taikai export: %s\n", err.msg);
      rc = 1;
      break;
    }
    if (json_dump_file(t6, out, JSON_COMPACT | JSON_PRESERVE_ORDER)) {
      fprintf(stderr, "taikai export: %s: cannot write\n", out);
      rc = 2;
    } else {
      (*games)++;
    }
    json_decref(t6);
    i = j;
  }
  if (!rc && !n) {
    fprintf(stderr, "taikai export: %s: empty\n", path);
    rc = 1;
  }
  for (int i = 0; i < n; i++) json_decref(line[i]);
  free(line);
  free(lineno);
  return rc;
}

int tk_cmd_export(int argc, char **argv) {
  if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    usage(stdout);
    return 0;
  }
  if (argc < 2 || strcmp(argv[1], "tenhou")) {
    if (argc >= 2) fprintf(stderr, "taikai export: unknown format '%s' (only 'tenhou')\n", argv[1]);
    usage(stderr);
    return 2;
  }
  list l = {NULL, 0, 0};
  const char *out_dir = NULL;
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &out_dir, .empty_ok = 1, .value = "DIR",
       .help = "the folder of the exported logs"},
      {.name = NULL},
  };
  int nargs = 0, rc = 0;
  const char **args = malloc((size_t)argc * sizeof *args);
  /* argv[1] ("tenhou") stands where a command's name does */
  int prc = args ? tk_opts_parse("export", opts, argc - 1, argv + 1, args, argc, &nargs) : 2;
  if (prc == 1) usage(stdout);
  rc = prc == 1 ? 0 : prc;
  if (prc) goto done;
  for (int i = 0; i < nargs && !rc; i++) rc = add(&l, args[i]);
  if (!rc && !l.n) {
    usage(stderr);
    rc = 2;
  }
  if (!rc && !out_dir) {
    fprintf(stderr, "taikai export: --out DIR is required\n");
    rc = 2;
  }
  if (!rc && mkdir(out_dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "taikai export: %s: cannot create: %s\n", out_dir, strerror(errno));
    rc = 2;
  }
  if (!rc) {
    long games = 0, refused = 0, unreadable = 0;
    for (size_t i = 0; i < l.n; i++) {
      int r = export_file(l.p[i], out_dir, &games);
      refused += r == 1;
      unreadable += r == 2;
    }
    printf("%zu logs, %ld games written to %s, %ld refused\n", l.n, games, out_dir, refused);
    rc = unreadable ? 2 : refused ? 1 : 0;
  }
done:
  free(args);
  for (size_t i = 0; i < l.n; i++) free(l.p[i]);
  free(l.p);
  fflush(stdout);
  return rc;
}
