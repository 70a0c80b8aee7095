/* harness/games/riichi/import.c — `taikai import tenhou FILE|DIR... --out DIR`: Tenhou mjlog records
 * (XML, gzipped or not) converted into mjai JSON lines, one OUT/NAME.jsonl per record
 * (import.h). The tags are read in order; every tile is Tenhou's 0..135 id (kind id / 4, the
 * red five ids 16, 52, 88 when the rules have red fives); every seat is absolute (0 = the
 * first dealer). A record is converted whole or refused with the tag that stops it. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include <zlib.h>

#include "taikai/file.h"
#include "riichi_cmd.h"
#include "import.h"
#include "logtext.h"
#include "opts.h"
#include "riichi_log.h"
#include "taikai/riichi.h"

/* ------------------------------------------------------------ reading */

/* ------------------------------------------------------------ tags */

typedef struct tag {
  const char *name; /* letters of the tag name */
  int nlen;
  int num;          /* T/U/V/W/D/E/F/G: the tile id after the letter; else -1 */
  const char *attrs;
  int alen;
  int index;        /* 1-based position of the tag in the record */
} tag;

typedef struct conv {
  const char *file;
  FILE *out;
  tk_error *err;
  tk_tenhou_import st;
  tag t;            /* the tag being converted */
  int red;          /* red fives in play */
  int have_rules, started, in_kyoku, kyoku_over, ended;
  tk_riichi_rules rules;
  char *names[4];
  int scores[4];    /* in points */
  int drawn[4];     /* each seat's last drawn tile id while it may still discard it, else -1 */
  int open_kan;     /* an open or added kan waits for its replacement draw */
  int defer;        /* the replacement draw after an open/added kan was made, no discard yet */
  int deferred[5], ndeferred; /* indicators held until that discard */
  int last_agari;   /* the last tag was an AGARI (a second one is a double ron) */
  int write_error;
} conv;

static int tag_is(const tag *t, const char *name) {
  return (int)strlen(name) == t->nlen && !memcmp(t->name, name, (size_t)t->nlen);
}

/* A refusal naming the file, the tag and what is wrong with it. */
static int bad(conv *c, const char *fmt, const char *attr, const char *value) {
  char what[160];
  snprintf(what, sizeof what, fmt, attr ? attr : "", value ? value : "");
  char num[16] = "";
  if (c->t.num >= 0) snprintf(num, sizeof num, "%d", c->t.num);
  int alen = c->t.alen > 100 ? 100 : c->t.alen; /* a long tag is cut */
  return tk_error_set(c->err, TK_EINVAL, c->t.index, "%s: tag %d <%.*s%s%.*s%s>: %s", c->file,
                      c->t.index, c->t.nlen, c->t.name, num, alen, c->t.attrs,
                      alen < c->t.alen ? "..." : "", what);
}

/* The value of attribute `key` of the current tag into buf; 0, or -1 when absent. */
static int attr(const conv *c, const char *key, char *buf, size_t cap) {
  size_t kl = strlen(key);
  const char *a = c->t.attrs, *end = a + c->t.alen;
  while (a < end) {
    while (a < end && (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\r')) a++;
    const char *k = a;
    while (a < end && *a != '=' && *a != ' ') a++;
    size_t klen = (size_t)(a - k);
    if (a >= end || *a != '=' || a + 1 >= end || a[1] != '"') return -1;
    a += 2;
    const char *v = a;
    while (a < end && *a != '"') a++;
    size_t vlen = (size_t)(a - v);
    if (a < end) a++;
    if (klen == kl && !memcmp(k, key, kl)) {
      if (vlen >= cap) vlen = cap - 1;
      memcpy(buf, v, vlen);
      buf[vlen] = '\0';
      return 0;
    }
  }
  return -1;
}

/* Comma-separated numbers of attribute `key` (decimals allowed when `real`); returns their
 * count, -1 when absent, -2 when a value is not a number (after a refusal). */
static int numbers(conv *c, const char *key, double *v, int cap, int required) {
  char buf[1024];
  if (attr(c, key, buf, sizeof buf)) {
    if (required) bad(c, "attribute %s is missing%s", key, "");
    return required ? -2 : -1;
  }
  int n = 0;
  char *p = buf;
  if (!*p) return 0;
  for (;;) {
    char *e;
    errno = 0;
    double x = strtod(p, &e);
    if (e == p || errno || n >= cap || (*e && *e != ',')) {
      bad(c, "attribute %s: bad value \"%s\"", key, buf);
      return -2;
    }
    v[n++] = x;
    if (!*e) break;
    p = e + 1;
  }
  return n;
}

static int ints(conv *c, const char *key, int *v, int cap, int required) {
  double d[160];
  int n = numbers(c, key, d, cap < 160 ? cap : 160, required);
  for (int i = 0; i < n; i++) v[i] = (int)d[i];
  return n;
}

/* ------------------------------------------------------------ output */

static const char *tile_name(const conv *c, int id) {
  int k = id / 4;
  int red = c->red && (id == 16 || id == 52 || id == 88);
  return tk_tile_mjai((tk_tile)(k | (red ? TK_TILE_RED : 0)));
}

static json_t *tiles_json(const conv *c, const int *ids, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(a, json_string(tile_name(c, ids[i])));
  return a;
}

static json_t *four(const int *v) { return json_pack("[i,i,i,i]", v[0], v[1], v[2], v[3]); }

static void emit(conv *c, json_t *o) {
  char *s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  if (!s || fprintf(c->out, "%s\n", s) < 0) c->write_error = 1;
  free(s);
  json_decref(o);
}

static int valid_id(int id) { return id >= 0 && id < TK_RIICHI_TILES; }

static void emit_dora(conv *c, int id) {
  emit(c, json_pack("{s:s,s:s}", "type", "dora", "dora_marker", tile_name(c, id)));
}

static void flush_deferred(conv *c) {
  for (int i = 0; i < c->ndeferred; i++) emit_dora(c, c->deferred[i]);
  c->ndeferred = 0;
  c->defer = 0;
}

static void end_kyoku(conv *c) {
  if (c->in_kyoku && c->kyoku_over) emit(c, json_pack("{s:s}", "type", "end_kyoku"));
  c->in_kyoku = c->kyoku_over = 0;
}

/* ------------------------------------------------------------ tags */

static int url_decode(const char *s, char *out, size_t cap) {
  size_t n = 0;
  for (; *s && n + 1 < cap; s++) {
    if (*s == '%' && s[1] && s[2]) {
      char hex[3] = {s[1], s[2], 0};
      char *e;
      long v = strtol(hex, &e, 16);
      if (*e) return -1;
      out[n++] = (char)v;
      s += 2;
    } else {
      out[n++] = *s;
    }
  }
  out[n] = '\0';
  return 0;
}

static int on_go(conv *c) {
  int type;
  if (ints(c, "type", &type, 1, 1) != 1) return TK_EINVAL;
  char v[32];
  snprintf(v, sizeof v, "%d", type);
  if (type & 0x10) return bad(c, "attribute type=%s: a three-player game (flag 0x10); taikai plays four%s", v, "");
  if (type & 0x04)
    return bad(c, "attribute type=%s: no open tanyao (flag 0x04) is not a rule taikai's engine plays%s", v, "");
  c->rules = tk_riichi_default_rules();
  c->rules.length = (type & 0x08) ? 2 : 1; /* 0x08: hanchan (東南戦), else east-only */
  c->rules.red_fives = !(type & 0x02);     /* 0x02: no red fives */
  c->red = c->rules.red_fives;
  c->have_rules = 1;
  return 0;
}

static int on_un(conv *c) {
  char buf[512], dec[512];
  if (c->names[0] || attr(c, "n0", buf, sizeof buf)) return 0; /* a reconnection: names known */
  for (int s = 0; s < 4; s++) {
    char key[4] = {'n', (char)('0' + s), 0};
    if (attr(c, key, buf, sizeof buf)) return bad(c, "attribute %s is missing%s", key, "");
    if (url_decode(buf, dec, sizeof dec)) return bad(c, "attribute %s: bad URL encoding \"%s\"", key, buf);
    c->names[s] = strdup(dec);
    if (!c->names[s]) return tk_error_set(c->err, TK_ENOMEM, -1, "out of memory");
  }
  return 0;
}

static int on_init(conv *c) {
  if (!c->have_rules)
    return bad(c, "no GO tag before the first hand: the game length and rules are unknown%s%s", "", "");
  if (c->ended) return bad(c, "a hand after the end of the game%s%s", "", "");
  if (c->in_kyoku && !c->kyoku_over) return bad(c, "the previous hand has no AGARI or RYUUKYOKU%s%s", "", "");
  end_kyoku(c);
  if (!c->started) {
    json_t *o = tk_riichi_log_start_game((const char *const *)c->names, &c->rules);
    if (!o) return tk_error_set(c->err, TK_ENOMEM, -1, "out of memory");
    emit(c, o);
    c->started = 1;
  }
  int seed[6], ten[4], oya;
  if (ints(c, "seed", seed, 6, 1) != 6) return c->err->code ? c->err->code : bad(c, "attribute seed: six numbers expected%s%s", "", "");
  if (ints(c, "ten", ten, 4, 1) != 4) return c->err->code ? c->err->code : bad(c, "attribute ten: four numbers expected%s%s", "", "");
  if (ints(c, "oya", &oya, 1, 1) != 1) return TK_EINVAL;
  char v[64];
  snprintf(v, sizeof v, "%d", seed[0]);
  if (seed[0] < 0 || seed[0] > 15) return bad(c, "attribute seed: round %s out of range%s", v, "");
  if (oya != seed[0] % 4) return bad(c, "attribute oya: %s is not the dealer of the round in seed%s", "", "");
  if (!valid_id(seed[5])) return bad(c, "attribute seed: dora indicator is not a tile id (0..135)%s%s", "", "");
  static const char *const wind[4] = {"E", "S", "W", "N"};
  json_t *tehais = json_array();
  for (int s = 0; s < 4; s++) {
    char key[8];
    snprintf(key, sizeof key, "hai%d", s);
    int h[14];
    int n = ints(c, key, h, 14, 1);
    if (n != 13) {
      json_decref(tehais);
      return c->err->code ? c->err->code : bad(c, "attribute %s: 13 tiles expected%s", key, "");
    }
    for (int i = 0; i < 13; i++)
      if (!valid_id(h[i])) {
        json_decref(tehais);
        return bad(c, "attribute %s: a tile id outside 0..135%s", key, "");
      }
    json_array_append_new(tehais, tiles_json(c, h, 13));
  }
  for (int s = 0; s < 4; s++) {
    c->scores[s] = ten[s] * 100;
    c->drawn[s] = -1;
  }
  c->open_kan = c->defer = c->ndeferred = 0;
  json_t *sc = four(c->scores);
  emit(c, json_pack("{s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:o,s:o}", "type", "start_kyoku", "bakaze",
                    wind[seed[0] / 4 % 4], "dora_marker", tile_name(c, seed[5]), "kyoku",
                    seed[0] % 4 + 1, "honba", seed[1], "kyotaku", seed[2], "oya", oya, "scores", sc,
                    "tehais", tehais));
  c->in_kyoku = 1;
  c->kyoku_over = 0;
  c->st.hands++;
  return 0;
}

static int need_kyoku(conv *c) {
  if (!c->in_kyoku || c->kyoku_over) return bad(c, "outside a hand (no INIT before it)%s%s", "", "");
  return 0;
}

static int on_draw(conv *c, int seat) {
  if (need_kyoku(c)) return TK_EINVAL;
  if (!valid_id(c->t.num)) return bad(c, "tile id outside 0..135%s%s", "", "");
  emit(c, json_pack("{s:s,s:i,s:s}", "type", "tsumo", "actor", seat, "pai", tile_name(c, c->t.num)));
  for (int s = 0; s < 4; s++) c->drawn[s] = -1;
  c->drawn[seat] = c->t.num;
  if (c->open_kan) {
    c->open_kan = 0;
    c->defer = 1;
  }
  return 0;
}

static int on_discard(conv *c, int seat) {
  if (need_kyoku(c)) return TK_EINVAL;
  if (!valid_id(c->t.num)) return bad(c, "tile id outside 0..135%s%s", "", "");
  int tsumogiri = c->drawn[seat] == c->t.num;
  emit(c, json_pack("{s:s,s:i,s:s,s:b}", "type", "dahai", "actor", seat, "pai",
                    tile_name(c, c->t.num), "tsumogiri", tsumogiri));
  for (int s = 0; s < 4; s++) c->drawn[s] = -1;
  flush_deferred(c);
  return 0;
}

/* Tenhou's 16-bit meld code: bits 0-1 the giver relative to the caller (0 = own closed kan),
 * bit 2 chi, bit 3 pon, bit 4 added kan, else a kan (open or closed). */
static int on_meld(conv *c) {
  if (need_kyoku(c)) return TK_EINVAL;
  int who, m;
  if (ints(c, "who", &who, 1, 1) != 1 || ints(c, "m", &m, 1, 1) != 1) return TK_EINVAL;
  char v[32];
  snprintf(v, sizeof v, "%d", m);
  if (who < 0 || who > 3) return bad(c, "attribute who: seat outside 0..3%s%s", "", "");
  if (m < 0 || m > 0xffff) return bad(c, "attribute m=%s: not a 16-bit meld code%s", v, "");
  int rel = m & 3, target = (who + rel) % 4;
  int ids[4], n = 0, called = -1;
  const char *type;
  if (m & 0x4) { /* chi: base kind and called index in bits 10-15, copies in 3-4, 5-6, 7-8 */
    int t = m >> 10, r = t % 3;
    t /= 3;
    if (t >= 21) return bad(c, "attribute m=%s: chi base outside the 21 runs%s", v, "");
    int base = (t / 7) * 9 + t % 7;
    for (int i = 0; i < 3; i++) ids[i] = (base + i) * 4 + ((m >> (3 + 2 * i)) & 3);
    called = ids[r];
    n = 3;
    type = "chi";
  } else if (m & 0x18) { /* pon (bit 3) or added kan (bit 4): kind in bits 9-15, the copy left out in 5-6 */
    int t = m >> 9, r = t % 3;
    t /= 3;
    if (t >= 34) return bad(c, "attribute m=%s: pon kind outside 0..33%s", v, "");
    int unused = (m >> 5) & 3;
    for (int i = 0; i < 4; i++)
      if (i != unused) ids[n++] = t * 4 + i;
    called = ids[r];
    if (m & 0x10) {
      int added = t * 4 + unused;
      json_t *cons = tiles_json(c, ids, 3);
      emit(c, json_pack("{s:s,s:i,s:s,s:o}", "type", "kakan", "actor", who, "pai",
                        tile_name(c, added), "consumed", cons));
      c->open_kan = 1;
      c->defer = 0; /* an indicator after this line is an earlier kan's, turned now */
      flush_deferred(c);
      return 0;
    }
    type = "pon";
  } else if (m & 0x20) {
    return bad(c, "attribute m=%s: a north (nukidora), three-player only%s", v, "");
  } else { /* kan: the called (or first) tile id in bits 8-15 */
    int t = m >> 8;
    if (t >= TK_RIICHI_TILES) return bad(c, "attribute m=%s: kan tile outside 0..135%s", v, "");
    int k = t / 4;
    for (int i = 0; i < 4; i++) ids[i] = k * 4 + i;
    if (rel == 0) {
      json_t *cons = tiles_json(c, ids, 4);
      emit(c, json_pack("{s:s,s:i,s:o}", "type", "ankan", "actor", who, "consumed", cons));
      c->defer = 0;
      flush_deferred(c);
      return 0;
    }
    called = t;
    n = 4;
    type = "daiminkan";
    c->open_kan = 1;
  }
  int cons[3], nc = 0;
  for (int i = 0; i < n; i++)
    if (ids[i] != called) cons[nc++] = ids[i];
  json_t *cj = tiles_json(c, cons, nc);
  emit(c, json_pack("{s:s,s:i,s:i,s:s,s:o}", "type", type, "actor", who, "target", target, "pai",
                    tile_name(c, called), "consumed", cj));
  for (int s = 0; s < 4; s++) c->drawn[s] = -1;
  return 0;
}

static int on_reach(conv *c) {
  if (need_kyoku(c)) return TK_EINVAL;
  int who, step, ten[4];
  if (ints(c, "who", &who, 1, 1) != 1 || ints(c, "step", &step, 1, 1) != 1) return TK_EINVAL;
  if (who < 0 || who > 3) return bad(c, "attribute who: seat outside 0..3%s%s", "", "");
  if (step == 1) {
    emit(c, json_pack("{s:s,s:i}", "type", "reach", "actor", who));
    return 0;
  }
  if (step != 2) return bad(c, "attribute step: 1 or 2 expected%s%s", "", "");
  int d[4] = {0, 0, 0, 0};
  d[who] = -1000;
  int n = ints(c, "ten", ten, 4, 0);
  if (n == -2) return TK_EINVAL;
  for (int s = 0; s < 4; s++) c->scores[s] = n == 4 ? ten[s] * 100 : c->scores[s] + d[s];
  json_t *dj = four(d), *sj = four(c->scores);
  emit(c, json_pack("{s:s,s:i,s:o,s:o}", "type", "reach_accepted", "actor", who, "deltas", dj,
                    "scores", sj));
  return 0;
}

/* sc="s0,d0,s1,d1,...": scores before and changes, in hundreds. */
static int score_changes(conv *c, int d[4]) {
  int sc[8];
  int n = ints(c, "sc", sc, 8, 1);
  if (n != 8) return c->err->code ? c->err->code : bad(c, "attribute sc: eight numbers expected%s%s", "", "");
  for (int s = 0; s < 4; s++) {
    d[s] = sc[2 * s + 1] * 100;
    c->scores[s] = (sc[2 * s] + sc[2 * s + 1]) * 100;
  }
  return 0;
}

/* owari="p0,x0,p1,x1,...": the final points (hundreds) and scores; ends the game. */
static int game_end(conv *c) {
  double ow[8];
  int n = numbers(c, "owari", ow, 8, 0);
  if (n == -1) return 0;
  if (n != 8) return c->err->code ? c->err->code : bad(c, "attribute owari: eight numbers expected%s%s", "", "");
  end_kyoku(c);
  int fin[4];
  for (int s = 0; s < 4; s++) fin[s] = (int)ow[2 * s] * 100;
  emit(c, json_pack("{s:s,s:o}", "type", "end_game", "scores", four(fin)));
  c->ended = c->st.ended = 1;
  return 0;
}

/* Tenhou's yaku numbers (mjlog `yaku` / `yakuman`) as the kernel's yaku; -1 for none. */
static int yaku_of(int id) {
  static const signed char map[55] = {
      TK_YAKU_MENZEN_TSUMO, TK_YAKU_RIICHI, TK_YAKU_IPPATSU, TK_YAKU_CHANKAN, TK_YAKU_RINSHAN,
      TK_YAKU_HAITEI, TK_YAKU_HOUTEI, TK_YAKU_PINFU, TK_YAKU_TANYAO, TK_YAKU_IIPEIKOU,
      TK_YAKU_SEAT_WIND, TK_YAKU_SEAT_WIND, TK_YAKU_SEAT_WIND, TK_YAKU_SEAT_WIND,
      TK_YAKU_ROUND_WIND, TK_YAKU_ROUND_WIND, TK_YAKU_ROUND_WIND, TK_YAKU_ROUND_WIND,
      TK_YAKU_HAKU, TK_YAKU_HATSU, TK_YAKU_CHUN, TK_YAKU_DOUBLE_RIICHI, TK_YAKU_CHIITOITSU,
      TK_YAKU_CHANTA, TK_YAKU_ITTSU, TK_YAKU_SANSHOKU, TK_YAKU_SANSHOKU_DOUKOU,
      TK_YAKU_SANKANTSU, TK_YAKU_TOITOI, TK_YAKU_SANANKOU, TK_YAKU_SHOUSANGEN,
      TK_YAKU_HONROUTOU, TK_YAKU_RYANPEIKOU, TK_YAKU_JUNCHAN, TK_YAKU_HONITSU,
      TK_YAKU_CHINITSU, -1 /* 36 renhou: not a Tenhou yaku */, TK_YAKU_TENHOU, TK_YAKU_CHIIHOU,
      TK_YAKU_DAISANGEN, TK_YAKU_SUUANKOU, TK_YAKU_SUUANKOU /* tanki */, TK_YAKU_TSUUIISOU,
      TK_YAKU_RYUUIISOU, TK_YAKU_CHINROUTOU, TK_YAKU_CHUUREN, TK_YAKU_CHUUREN /* pure */,
      TK_YAKU_KOKUSHI, TK_YAKU_KOKUSHI /* 13 waits */, TK_YAKU_DAISUUSHII,
      TK_YAKU_SHOUSUUSHII, TK_YAKU_SUUKANTSU, TK_YAKU_DORA, TK_YAKU_URA_DORA, TK_YAKU_AKA_DORA};
  return id >= 0 && id < 55 ? map[id] : -1;
}

static int on_agari(conv *c) {
  if (!(c->in_kyoku && c->last_agari) && need_kyoku(c)) return TK_EINVAL; /* double ron: two tags */
  flush_deferred(c);
  int who, from, machi, ten[3], hai[14], nhai, ura[5], nura, pao = -1;
  if (ints(c, "who", &who, 1, 1) != 1 || ints(c, "fromWho", &from, 1, 1) != 1 ||
      ints(c, "machi", &machi, 1, 1) != 1)
    return TK_EINVAL;
  if (who < 0 || who > 3 || from < 0 || from > 3) return bad(c, "attribute who/fromWho: seat outside 0..3%s%s", "", "");
  if (!valid_id(machi)) return bad(c, "attribute machi: tile id outside 0..135%s%s", "", "");
  if (ints(c, "ten", ten, 3, 1) != 3) return c->err->code ? c->err->code : bad(c, "attribute ten: fu,points,limit expected%s%s", "", "");
  if ((nhai = ints(c, "hai", hai, 14, 1)) < 2) return c->err->code ? c->err->code : bad(c, "attribute hai: the winner's tiles expected%s%s", "", "");
  for (int i = 0; i < nhai; i++)
    if (!valid_id(hai[i])) return bad(c, "attribute hai: tile id outside 0..135%s%s", "", "");
  if ((nura = ints(c, "doraHaiUra", ura, 5, 0)) == -2) return TK_EINVAL;
  if (ints(c, "paoWho", &pao, 1, 0) == -2) return TK_EINVAL;
  int yk[64], nyk = ints(c, "yaku", yk, 64, 0), ym[16], nym = ints(c, "yakuman", ym, 16, 0);
  if (nyk == -2 || nym == -2) return TK_EINVAL;
  if (nyk % 2 && nyk > 0) return bad(c, "attribute yaku: pairs of yaku and han expected%s%s", "", "");
  /* yaku in the kernel's order, each [name, han]; dora counts of 0 left out */
  int han_of[TK_YAKU_COUNT], present[TK_YAKU_COUNT];
  memset(present, 0, sizeof present);
  memset(han_of, 0, sizeof han_of);
  int han = 0, yakuman = 0;
  for (int i = 0; i + 1 < nyk; i += 2) {
    int y = yaku_of(yk[i]);
    char v[16];
    snprintf(v, sizeof v, "%d", yk[i]);
    if (y < 0) return bad(c, "attribute yaku: unknown yaku number %s%s", v, "");
    han += yk[i + 1];
    if (yk[i + 1] == 0 && (y == TK_YAKU_DORA || y == TK_YAKU_URA_DORA || y == TK_YAKU_AKA_DORA)) continue;
    present[y] = 1;
    han_of[y] += yk[i + 1];
  }
  for (int i = 0; i < nym; i++) {
    int y = yaku_of(ym[i]);
    char v[16];
    snprintf(v, sizeof v, "%d", ym[i]);
    if (y < 0) return bad(c, "attribute yakuman: unknown yaku number %s%s", v, "");
    present[y] = 1;
    han_of[y] += 1; /* Tenhou counts each yakuman once (no double yakuman) */
    yakuman++;
  }
  json_t *yakus = json_array();
  for (int y = 0; y < TK_YAKU_COUNT; y++)
    if (present[y]) json_array_append_new(yakus, json_pack("[s,i]", tk_yaku_name(y), han_of[y]));
  int limit = ten[2] >= 0 && ten[2] <= 4 ? ten[2] : yakuman ? TK_LIMIT_YAKUMAN : TK_LIMIT_KAZOE;
  int d[4];
  int rc = score_changes(c, d);
  if (rc) {
    json_decref(yakus);
    return rc;
  }
  json_t *o = json_pack("{s:s,s:i,s:i,s:s}", "type", "hora", "actor", who, "target", from, "pai",
                        tile_name(c, machi));
  json_object_set_new(o, "uradora_markers", tiles_json(c, ura, nura > 0 ? nura : 0));
  json_object_set_new(o, "hora_tehais", tiles_json(c, hai, nhai));
  json_object_set_new(o, "yakus", yakus);
  json_object_set_new(o, "fu", json_integer(yakuman ? 0 : ten[0]));
  json_object_set_new(o, "fan", json_integer(yakuman ? 0 : han));
  json_object_set_new(o, "yakuman", json_integer(yakuman));
  json_object_set_new(o, "limit", json_string(tk_limit_name(limit, yakuman)));
  json_object_set_new(o, "hora_points", json_integer(ten[1]));
  if (pao >= 0 && pao <= 3) json_object_set_new(o, "pao", json_integer(pao));
  json_object_set_new(o, "deltas", four(d));
  json_object_set_new(o, "scores", four(c->scores));
  emit(c, o);
  c->kyoku_over = 1;
  c->st.wins++;
  return game_end(c);
}

static int on_ryuukyoku(conv *c) {
  if (need_kyoku(c)) return TK_EINVAL;
  flush_deferred(c);
  char type[32] = "";
  attr(c, "type", type, sizeof type);
  static const char *const kinds[][2] = {{"", "fanpai"},          {"nm", "nagashimangan"},
                                         {"yao9", "kyushukyuhai"}, {"kaze4", "suufonrenda"},
                                         {"reach4", "suuchariichi"}, {"kan4", "suukaikan"},
                                         {"ron3", "sanchahou"}};
  const char *reason = NULL;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (!strcmp(type, kinds[i][0])) reason = kinds[i][1];
  if (!reason) return bad(c, "attribute type: unknown draw \"%s\"%s", type, "");
  int exhaustive = !type[0] || !strcmp(type, "nm");
  int tenpai[4];
  for (int s = 0; s < 4; s++) {
    char key[8], buf[8];
    snprintf(key, sizeof key, "hai%d", s);
    tenpai[s] = exhaustive && !attr(c, key, buf, sizeof buf); /* hands shown: tenpai */
  }
  int d[4] = {0, 0, 0, 0};
  int rc = score_changes(c, d);
  if (rc) return rc;
  emit(c, json_pack("{s:s,s:s,s:[b,b,b,b],s:o,s:o}", "type", "ryukyoku", "reason", reason,
                    "tenpais", tenpai[0], tenpai[1], tenpai[2], tenpai[3], "deltas", four(d),
                    "scores", four(c->scores)));
  c->kyoku_over = 1;
  c->st.draws++;
  return game_end(c);
}

static int on_dora(conv *c) {
  if (need_kyoku(c)) return TK_EINVAL;
  int hai;
  if (ints(c, "hai", &hai, 1, 1) != 1) return TK_EINVAL;
  if (!valid_id(hai)) return bad(c, "attribute hai: tile id outside 0..135%s%s", "", "");
  if (c->defer && c->ndeferred < 5) c->deferred[c->ndeferred++] = hai; /* turned by the discard */
  else emit_dora(c, hai);
  return 0;
}

static int convert_tag(conv *c) {
  const tag *t = &c->t;
  if (t->num >= 0) {
    char l = t->name[0];
    if (l >= 'T' && l <= 'W') return on_draw(c, l - 'T');
    if (l >= 'D' && l <= 'G') return on_discard(c, l - 'D');
  }
  if (tag_is(t, "GO")) return on_go(c);
  if (tag_is(t, "UN")) return on_un(c);
  if (tag_is(t, "INIT")) return on_init(c);
  if (tag_is(t, "N")) return on_meld(c);
  if (tag_is(t, "REACH")) return on_reach(c);
  if (tag_is(t, "DORA")) return on_dora(c);
  if (tag_is(t, "AGARI")) return on_agari(c);
  if (tag_is(t, "RYUUKYOKU")) return on_ryuukyoku(c);
  if (tag_is(t, "mjloggm") || tag_is(t, "SHUFFLE") || tag_is(t, "TAIKYOKU") || tag_is(t, "BYE"))
    return 0;
  return bad(c, "not a tag of Tenhou's mjlog format%s%s", "", "");
}

int tk_tenhou_import_text(const char *xml, size_t len, const char *name, FILE *out,
                          tk_tenhou_import *st, tk_error *err) {
  conv c;
  memset(&c, 0, sizeof c);
  tk_error local;
  if (!err) err = &local;
  c.file = name;
  c.out = out;
  c.err = err;
  tk_error_clear(err);
  const char *p = xml, *end = xml + len;
  int index = 0, rc = 0;
  while (!rc) {
    while (p < end && *p != '<') p++;
    if (p >= end) break;
    const char *close = memchr(p, '>', (size_t)(end - p));
    if (!close) {
      rc = tk_error_set(err, TK_EPARSE, index + 1, "%s: tag %d: no closing '>'", name, index + 1);
      break;
    }
    index++;
    const char *q = p + 1;
    if (*q == '/' || *q == '?' || *q == '!') { /* closing tags, declarations */
      p = close + 1;
      continue;
    }
    memset(&c.t, 0, sizeof c.t);
    c.t.index = index;
    c.t.name = q;
    while (q < close && ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z'))) q++;
    c.t.nlen = (int)(q - c.t.name);
    c.t.num = -1;
    if (q < close && *q >= '0' && *q <= '9') {
      c.t.num = 0;
      while (q < close && *q >= '0' && *q <= '9' && c.t.num < 1000) c.t.num = c.t.num * 10 + (*q++ - '0');
    }
    c.t.attrs = q;
    const char *ae = close;
    if (ae > q && ae[-1] == '/') ae--;
    c.t.alen = (int)(ae - q);
    if (c.t.nlen == 0) {
      rc = tk_error_set(err, TK_EPARSE, index, "%s: tag %d: no name", name, index);
      break;
    }
    rc = convert_tag(&c);
    c.last_agari = tag_is(&c.t, "AGARI");
    if (!rc && c.write_error) rc = tk_error_set(err, TK_EIO, -1, "%s: cannot write the output", name);
    p = close + 1;
  }
  if (!rc && !c.started) rc = tk_error_set(err, TK_EINVAL, -1, "%s: no INIT tag: not a Tenhou game record", name);
  if (!rc) {
    end_kyoku(&c); /* a record cut before its game end keeps its last hand closed */
    if (c.write_error) rc = tk_error_set(err, TK_EIO, -1, "%s: cannot write the output", name);
  }
  for (int s = 0; s < 4; s++) free(c.names[s]);
  if (st) *st = c.st;
  return rc;
}

/* ------------------------------------------------------------ the command */

static void usage(FILE *f) {
  fprintf(f,
          "usage: taikai import tenhou FILE|DIR... --out DIR\n"
          "\n"
          "Converts Tenhou game records (mjlog XML as tenhou.net serves them, .mjlog or .xml,\n"
          "gzip-compressed or not) into taikai's mjai JSON lines, one DIR/NAME.jsonl per record\n"
          "(NAME = the file name without .gz, .mjlog, .xml). The log's start_game declares the\n"
          "game length and rules read from the record's GO tag (\"taikai_rules\"), so `taikai\n"
          "replay DIR` replays every game through the engine and checks each win's fu, han,\n"
          "yaku, points and payments, and the final scores, against the record's own.\n"
          "\n"
          "  FILE     a record\n"
          "  DIR      every *.mjlog, *.xml (also .gz) in the folder, in name order\n"
          "  --out D  output folder (created)\n"
          "\n"
          "Refused records (three players, no open tanyao, a malformed tag) are named with the\n"
          "tag, the attribute and the value; the others are still converted.\n"
          "Exit status: 0 all converted; 1 a record refused; 2 bad usage or unreadable input.\n");
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static int is_record_name(const char *s) {
  return ends_with(s, ".mjlog") || ends_with(s, ".xml") || ends_with(s, ".mjlog.gz") ||
         ends_with(s, ".xml.gz");
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Converts `path` into out_dir; 0, 1 refused, 2 unreadable. */
static int import_one(const char *path, const char *out_dir, long *wins, long *hands) {
  char *text;
  size_t len;
  tk_error err;
  tk_error_clear(&err);
  if (tk_read_maybe_gz(path, &text, &len, &err)) {
    fprintf(stderr, "taikai import: %s\n", err.msg);
    return 2;
  }
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  char stem[512];
  snprintf(stem, sizeof stem, "%s", base);
  static const char *const sfx[] = {".gz", ".mjlog", ".xml"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(stem), m = strlen(sfx[i]);
    if (n > m && !strcmp(stem + n - m, sfx[i])) stem[n - m] = '\0';
  }
  char out[1024], tmp[1040];
  snprintf(out, sizeof out, "%s/%s.jsonl", out_dir, stem);
  snprintf(tmp, sizeof tmp, "%s.tmp", out);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "taikai import: %s: cannot create: %s\n", tmp, strerror(errno));
    free(text);
    return 2;
  }
  tk_tenhou_import st;
  int rc = tk_tenhou_import_text(text, len, path, f, &st, &err);
  free(text);
  if (fclose(f) && !rc) rc = tk_error_set(&err, TK_EIO, -1, "%s: cannot write: %s", tmp, strerror(errno));
  if (rc) {
    remove(tmp);
    fprintf(stderr, "taikai import: %s\n", err.msg);
    return rc == TK_EIO ? 2 : 1;
  }
  if (rename(tmp, out)) {
    fprintf(stderr, "taikai import: %s: cannot rename: %s\n", tmp, strerror(errno));
    return 2;
  }
  printf("%s -> %s: %d hands, %d wins, %d draws%s\n", path, out, st.hands, st.wins, st.draws,
         st.ended ? "" : " (the record has no game end)");
  *wins += st.wins;
  *hands += st.hands;
  return 0;
}

typedef struct records {
  char **p; /* owned paths */
  size_t n, cap;
} records;

/* Appends the record `a` (a file) or the *.mjlog and *.xml records of the folder `a` (in name
 * order) to rs. Returns 0, or 2 with the reason printed (not found, an empty or unreadable
 * folder, out of memory). */
static int add_records(records *rs, const char *a) {
  struct stat st;
  if (stat(a, &st)) {
    fprintf(stderr, "taikai import: %s: %s\n", a, strerror(errno));
    return 2;
  }
  size_t first = rs->n;
  DIR *d = S_ISDIR(st.st_mode) ? opendir(a) : NULL;
  if (S_ISDIR(st.st_mode) && !d) {
    fprintf(stderr, "taikai import: %s: cannot open the folder: %s\n", a, strerror(errno));
    return 2;
  }
  int rc = 0;
  struct dirent *e = NULL;
  for (;;) {
    const char *nm = NULL;
    if (d) {
      if (!(e = readdir(d))) break;
      if (e->d_name[0] == '.' || !is_record_name(e->d_name)) continue;
      nm = e->d_name;
    }
    if (rs->n == rs->cap) {
      size_t cap = rs->cap ? 2 * rs->cap : 64;
      char **nf = realloc(rs->p, cap * sizeof *nf);
      if (!nf) {
        rc = 2;
        break;
      }
      rs->p = nf;
      rs->cap = cap;
    }
    size_t l = strlen(a) + (nm ? strlen(nm) + 1 : 0) + 1;
    char *f = malloc(l);
    if (!f) {
      rc = 2;
      break;
    }
    if (nm) snprintf(f, l, "%s/%s", a, nm);
    else snprintf(f, l, "%s", a);
    rs->p[rs->n++] = f;
    if (!d) break;
  }
  if (d) {
    closedir(d);
    if (rs->n == first && !rc) {
      fprintf(stderr, "taikai import: %s: no *.mjlog or *.xml record in this folder\n", a);
      rc = 2;
    }
    qsort(rs->p + first, rs->n - first, sizeof *rs->p, by_name);
  }
  return rc;
}

int tk_cmd_import(int argc, char **argv) {
  if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    usage(stdout);
    return 0;
  }
  if (argc < 2 || strcmp(argv[1], "tenhou")) {
    if (argc >= 2) fprintf(stderr, "taikai import: unknown source '%s' (only 'tenhou')\n", argv[1]);
    usage(stderr);
    return 2;
  }
  const char *out_dir = NULL;
  records rs = {NULL, 0, 0};
  const tk_opt opts[] = {
      {.name = "out", .kind = TK_OPT_STRING, .dest = &out_dir, .empty_ok = 1, .value = "DIR",
       .help = "the folder of the logs"},
      {.name = NULL},
  };
  int nargs = 0, rc = 0;
  const char **args = malloc((size_t)argc * sizeof *args);
  /* argv[1] ("tenhou") stands where a command's name does */
  int prc = args ? tk_opts_parse("import", opts, argc - 1, argv + 1, args, argc, &nargs) : 2;
  if (prc == 1) usage(stdout);
  rc = prc == 1 ? 0 : prc;
  if (prc) goto done;
  for (int i = 0; i < nargs && !rc; i++) rc = add_records(&rs, args[i]);
  if (!rc && !rs.n) {
    usage(stderr);
    rc = 2;
  }
  if (!rc && !out_dir) {
    fprintf(stderr, "taikai import: --out DIR is required\n");
    rc = 2;
  }
  if (!rc && mkdir(out_dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "taikai import: %s: cannot create: %s\n", out_dir, strerror(errno));
    rc = 2;
  }
  if (!rc) {
    long wins = 0, hands = 0, refused = 0, unreadable = 0;
    size_t n = rs.n;
    for (size_t i = 0; i < n; i++) {
      int r = import_one(rs.p[i], out_dir, &wins, &hands);
      refused += r == 1;
      unreadable += r == 2;
    }
    printf("%zu records, %zu converted (%ld hands, %ld wins), %ld refused%s\n", n,
           n - (size_t)refused - (size_t)unreadable, hands, wins, refused,
           unreadable ? ", some unreadable" : "");
    rc = unreadable ? 2 : refused ? 1 : 0;
  }
done:
  free(args);
  for (size_t i = 0; i < rs.n; i++) free(rs.p[i]);
  free(rs.p);
  fflush(stdout);
  return rc;
}
