/* arenas/riichi/mjai.c — an engine event as one mjai-style JSON object (the format of the mjai
 * protocol and of Mortal's logs): tiles by tk_tile_mjai ("5mr", "E", "P"), seats 0..3. Where
 * mjai dialects name a field differently the original protocol's name is used (hora's
 * "uradora_markers" and "fan", not Mortal's "ura_markers" or "han"; docs/riichi.md).
 * Pure formatting into a caller's buffer; the log reader lives in the harness. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct out {
  char *buf;
  size_t cap, n; /* n counts every byte that would be written */
} out;

static void put(out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = o->n < o->cap ? o->cap - o->n : 0;
  int w = vsnprintf(room ? o->buf + o->n : NULL, room, fmt, ap);
  va_end(ap);
  if (w > 0) o->n += (size_t)w;
}

static const char *tile(int t) { return t == TK_TILE_NONE ? "?" : tk_tile_mjai((tk_tile)t); }

static void tiles(out *o, const uint8_t *t, int n) {
  put(o, "[");
  for (int i = 0; i < n; i++) put(o, "%s\"%s\"", i ? "," : "", tile(t[i]));
  put(o, "]");
}

static void ints(out *o, const char *key, const int32_t *v) {
  put(o, ",\"%s\":[%d,%d,%d,%d]", key, (int)v[0], (int)v[1], (int)v[2], (int)v[3]);
}

static int hand_len(const uint8_t *t, int cap) {
  int n = 0;
  while (n < cap && t[n] != TK_TILE_NONE) n++;
  return n;
}

int tk_riichi_event_json(const tk_riichi_event *ev, const char *const *names, char *buf, size_t cap) {
  out o = {buf, cap, 0};
  if (cap) buf[0] = '\0';
  static const char *const type[TK_RIICHI_EV_COUNT] = {
      "start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan",
      "dora", "reach", "reach_accepted", "hora", "ryukyoku", "end_kyoku", "end_game"};
  if (ev->type >= TK_RIICHI_EV_COUNT) return 0;
  put(&o, "{\"type\":\"%s\"", type[ev->type]);
  switch (ev->type) {
    case TK_RIICHI_EV_START_GAME:
      put(&o, ",\"names\":[");
      for (int s = 0; s < 4; s++) {
        const char *nm = names && names[s] ? names[s] : NULL;
        if (nm) {
          put(&o, "%s\"", s ? "," : "");
          for (const char *c = nm; *c; c++) {
            if (*c == '"' || *c == '\\') put(&o, "\\%c", *c);
            else if ((unsigned char)*c < 0x20) put(&o, "\\u%04x", (unsigned char)*c);
            else put(&o, "%c", *c);
          }
          put(&o, "\"");
        } else {
          put(&o, "%s\"player%d\"", s ? "," : "", s);
        }
      }
      put(&o, "]");
      break;
    case TK_RIICHI_EV_START_KYOKU: {
      static const char *const wind[4] = {"E", "S", "W", "N"};
      put(&o, ",\"bakaze\":\"%s\",\"dora_marker\":\"%s\",\"kyoku\":%d,\"honba\":%d,\"kyotaku\":%d,"
              "\"oya\":%d",
          wind[ev->round / 4 % 4], tile(ev->tile), ev->round % 4 + 1, ev->honba, ev->sticks,
          ev->dealer);
      ints(&o, "scores", ev->scores);
      put(&o, ",\"tehais\":[");
      for (int s = 0; s < 4; s++) {
        if (s) put(&o, ",");
        tiles(&o, ev->tehais[s], hand_len(ev->tehais[s], 13));
      }
      put(&o, "]");
      break;
    }
    case TK_RIICHI_EV_TSUMO:
      put(&o, ",\"actor\":%d,\"pai\":\"%s\"", ev->actor, tile(ev->tile));
      break;
    case TK_RIICHI_EV_DAHAI:
      put(&o, ",\"actor\":%d,\"pai\":\"%s\",\"tsumogiri\":%s", ev->actor, tile(ev->tile),
          ev->tsumogiri ? "true" : "false");
      break;
    case TK_RIICHI_EV_CHI:
    case TK_RIICHI_EV_PON:
    case TK_RIICHI_EV_DAIMINKAN:
      put(&o, ",\"actor\":%d,\"target\":%d,\"pai\":\"%s\",\"consumed\":", ev->actor, ev->target,
          tile(ev->tile));
      tiles(&o, ev->consumed, ev->nconsumed);
      break;
    case TK_RIICHI_EV_KAKAN:
      put(&o, ",\"actor\":%d,\"pai\":\"%s\",\"consumed\":", ev->actor, tile(ev->tile));
      tiles(&o, ev->consumed, ev->nconsumed);
      break;
    case TK_RIICHI_EV_ANKAN:
      put(&o, ",\"actor\":%d,\"consumed\":", ev->actor);
      tiles(&o, ev->consumed, ev->nconsumed);
      break;
    case TK_RIICHI_EV_DORA:
      put(&o, ",\"dora_marker\":\"%s\"", tile(ev->tile));
      break;
    case TK_RIICHI_EV_REACH:
      put(&o, ",\"actor\":%d", ev->actor);
      break;
    case TK_RIICHI_EV_REACH_ACCEPTED:
      put(&o, ",\"actor\":%d", ev->actor);
      ints(&o, "deltas", ev->deltas);
      ints(&o, "scores", ev->scores);
      break;
    case TK_RIICHI_EV_HORA: {
      const tk_score *sc = &ev->score;
      put(&o, ",\"actor\":%d,\"target\":%d,\"pai\":\"%s\",\"uradora_markers\":", ev->actor, ev->target,
          tile(ev->tile));
      tiles(&o, ev->ura, ev->nura);
      put(&o, ",\"hora_tehais\":");
      tiles(&o, ev->tehais[0], ev->nhand);
      put(&o, ",\"yakus\":[");
      for (int i = 0; i < sc->nyaku; i++)
        put(&o, "%s[\"%s\",%d]", i ? "," : "", tk_yaku_name(sc->yaku[i]), sc->yaku_han[i]);
      put(&o, "],\"fu\":%d,\"fan\":%d,\"yakuman\":%d,\"limit\":\"%s\",\"hora_points\":%d", sc->fu,
          sc->han, sc->yakuman, tk_limit_name(sc->limit, sc->yakuman),
          (int)(sc->total - 300 * ev->ctx.honba - 1000 * ev->ctx.sticks));
      if (ev->pao != TK_RIICHI_NOBODY) put(&o, ",\"pao\":%d", ev->pao);
      ints(&o, "deltas", ev->deltas);
      ints(&o, "scores", ev->scores);
      break;
    }
    case TK_RIICHI_EV_RYUKYOKU: {
      const char *r = tk_riichi_draw_name(ev->reason);
      put(&o, ",\"reason\":\"%s\",\"tenpais\":[%s,%s,%s,%s],\"tehais\":[", r ? r : "?",
          ev->tenpai[0] ? "true" : "false", ev->tenpai[1] ? "true" : "false",
          ev->tenpai[2] ? "true" : "false", ev->tenpai[3] ? "true" : "false");
      for (int s = 0; s < 4; s++) {
        if (s) put(&o, ",");
        tiles(&o, ev->tehais[s], hand_len(ev->tehais[s], 14));
      }
      put(&o, "]");
      ints(&o, "deltas", ev->deltas);
      ints(&o, "scores", ev->scores);
      break;
    }
    case TK_RIICHI_EV_END_GAME:
      ints(&o, "scores", ev->scores);
      break;
    default: break;
  }
  put(&o, "}");
  return (int)o.n;
}
