#!/usr/bin/env python3
"""tests/riichi/mjai_check_bot.py -- an mjai bot that checks the stream the riichi_mjai bridge
sends it (Python 3 standard library only), and the comparison of what it received with the
game's mjai log.

As a bot (`mjai_check_bot.py --dump DIR`): it follows every event and checks that each is
possible where it stands, exiting with status 1 and the reason on stderr otherwise (the bridge
then charges a fault, which the test sees):
  - start_game carries id, kyoku_first (0 or 4) and aka_flag; start_kyoku the own 13 tiles, the
    others' 13 "?";
  - turn order: a draw comes from the seat after the last uncalled discard, or from the seat
    that just made a kan (its replacement draw); after a chi or pon the caller discards;
  - every seat's concealed tile count: 13, +1 a draw, -1 a discard or added kan, -2 a chi or
    pon, -3 an open kan, -4 a closed kan; a discard only with 14 - 3 x melds tiles;
  - a call names the discard just made by its target (chi: by the seat on its left, a run);
    an added kan a pon of the actor; no kind shows more than 4 copies, no red five twice;
  - one dora indicator per kan at most; its own tsumo names a tile, its own discards are held.
It plays: it discards the drawn tile, makes a closed or added kan when it can, pons (or open
kans, every other time) a discard it holds two (three) of, never wins or declares riichi; no
call with fewer than 4 live tiles. At end_game it writes every event it received (one JSON
array per game) to DIR/<pid>-<n>.json.

As a checker (`mjai_check_bot.py --compare DUMPDIR LOGDIR LABEL`): each dump must match the log
of one unit (found by the seat the log names LABEL and its first starting hand): start_game's rules, and in each hand
the events the bot received equal the log's events of that hand as its seat sees them (others'
draws and starting hands "?"), up to where the bot's stream stops (its last decision in the
hand; hora and ryukyoku are never sent), and the hands it received appear in the log in order.
Prints one line per problem and exits 1 on any; prints a count of games and events otherwise.
"""
import glob
import json
import os
import sys

ORDER = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C"]
KIND = {name: i for i, name in enumerate(ORDER)}


def kind(pai):
    return KIND[pai[:-1] if pai.endswith("r") else pai]


class Broken(Exception):
    pass


def need(cond, what):
    if not cond:
        raise Broken(what)


class Bot:
    def __init__(self, dump):
        self.dump, self.games, self.events = dump, 0, []
        self.id = None
        self.decisions = 0

    # ---------------------------------------------------------------- following the stream

    def start_hand(self, e):
        need(self.id is not None, "start_kyoku before start_game")
        tehais = e["tehais"]
        need(len(tehais) == 4 and all(len(t) == 13 for t in tehais), "tehais: 4 x 13 tiles")
        for s in range(4):
            need((s == self.id) != all(p == "?" for p in tehais[s]),
                 f"tehais[{s}]: {'the own tiles' if s == self.id else 'masked'} expected")
        self.hand = list(tehais[self.id])
        self.size = [13] * 4
        self.melds = [[] for _ in range(4)]  # per seat: [type, kind, tiles]
        self.seen = [0] * 34
        self.red = set()
        self.dora = 1
        self.kans = 0
        self.draws = 0
        self.next_draw = e["oya"]   # the seat that draws next, or None
        self.must_discard = None    # the seat that holds 14 - 3 x melds tiles
        self.last = None            # (actor, pai) of the last discard still open to a call
        self.show(e["dora_marker"])
        for p in self.hand:
            self.show(p)

    def show(self, pai):
        self.seen[kind(pai)] += 1
        need(self.seen[kind(pai)] <= 4, f"a fifth {pai}")
        if pai.endswith("r"):
            need(pai not in self.red, f"a second {pai}")
            self.red.add(pai)

    def follow(self, e):
        t = e["type"]
        if t == "start_game":
            need(isinstance(e.get("id"), int) and 0 <= e["id"] < 4, "start_game: id")
            need(e.get("kyoku_first") in (0, 4), "start_game: kyoku_first 0 or 4")
            need(isinstance(e.get("aka_flag"), bool), "start_game: aka_flag")
            self.id = e["id"]
            self.decisions = 0  # its choices depend on the game's events only, not on earlier games
            return
        if t == "start_kyoku":
            return self.start_hand(e)
        if t in ("end_kyoku", "end_game", "reach_accepted"):
            return
        if t == "dora":
            self.dora += 1
            need(self.dora <= 1 + self.kans, f"dora: {self.dora} indicators after {self.kans} kans")
            return self.show(e["dora_marker"])
        a = e["actor"]
        me = a == self.id
        if t == "tsumo":
            need(self.next_draw == a, f"tsumo by {a}: {self.next_draw} draws next")
            need((e["pai"] == "?") != me, "tsumo: the own tile shown, the others' masked")
            self.size[a] += 1
            need(self.size[a] == 14 - 3 * len(self.melds[a]), f"tsumo: seat {a} holds {self.size[a]}")
            self.draws += 1
            self.next_draw, self.must_discard, self.last = None, a, None
            if me:
                self.hand.append(e["pai"])
                self.show(e["pai"])
            return
        if t == "reach":
            need(self.must_discard == a, f"reach by {a} out of turn")
            return
        if t == "dahai":
            need(self.must_discard == a, f"dahai by {a} out of turn")
            need(self.size[a] == 14 - 3 * len(self.melds[a]), f"dahai: seat {a} holds {self.size[a]}")
            self.size[a] -= 1
            if me:
                need(e["pai"] in self.hand, f"dahai {e['pai']}: not held")
                self.hand.remove(e["pai"])
            else:
                self.show(e["pai"])
            self.must_discard, self.last, self.next_draw = None, (a, e["pai"]), (a + 1) % 4
            return
        if t in ("chi", "pon", "daiminkan"):
            need(self.last == (e["target"], e["pai"]), f"{t} of {e['pai']} from {e['target']}: "
                 f"the open discard is {self.last}")
            c = e["consumed"]
            kinds = sorted(kind(p) for p in c + [e["pai"]])
            if t == "chi":
                need(a == (e["target"] + 1) % 4, "chi from a seat not on the left")
                need(len(c) == 2 and kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9 and
                     kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2], "chi: not a run")
            else:
                need(len(c) == (2 if t == "pon" else 3) and len(set(kinds)) == 1, f"{t}: not one kind")
            self.take(a, c, 2 if t == "pon" else 3 if t == "daiminkan" else 2)
            self.melds[a].append([t, kind(e["pai"]), c + [e["pai"]]])
            if t == "daiminkan":
                self.kans += 1
                self.next_draw, self.must_discard = a, None
            else:
                self.next_draw, self.must_discard = None, a
            self.last = None
            return
        if t in ("kakan", "ankan"):
            need(self.must_discard == a, f"{t} by {a} out of turn")
            if t == "kakan":
                k = kind(e["pai"])
                pon = [m for m in self.melds[a] if m[0] == "pon" and m[1] == k]
                need(pon, f"kakan of {e['pai']}: seat {a} has no pon of it")
                need(sorted(e["consumed"]) == sorted(pon[0][2]), "kakan: consumed is not the pon")
                pon[0][0] = "kakan"
                self.take(a, [e["pai"]], 1)
            else:
                c = e["consumed"]
                need(len(c) == 4 and len({kind(p) for p in c}) == 1, "ankan: not four of a kind")
                self.take(a, c, 4)
                self.melds[a].append(["ankan", kind(c[0]), c])
            self.kans += 1
            self.next_draw, self.must_discard, self.last = a, None, None
            return
        raise Broken(f"unknown event {t}")

    def take(self, a, tiles, n):
        need(len(tiles) == n, "consumed count")
        self.size[a] -= n
        need(self.size[a] >= 0, f"seat {a} holds fewer than 0 tiles")
        for p in tiles:
            if a == self.id:
                need(p in self.hand, f"consumed {p}: not held")
                self.hand.remove(p)
            else:
                self.show(p)

    # ---------------------------------------------------------------- playing

    def live(self):
        return 70 - self.draws

    def answer(self, events):
        for e in events:
            self.events.append(e)
            try:
                self.follow(e)
            except (KeyError, TypeError, ValueError) as x:
                raise Broken(f"malformed {json.dumps(e)}: {x!r}")
        last = events[-1]
        if last["type"] == "end_game":
            self.end_game()
            return {"type": "none"}
        self.decisions += 1
        me = self.id
        if self.must_discard == me:
            return self.own_turn(last)
        if last["type"] == "dahai" and last["actor"] != me and self.last and self.live() >= 4 \
                and self.kans < 3:
            k = kind(last["pai"])
            held = [p for p in self.hand if kind(p) == k]
            if len(held) >= 3 and self.decisions % 2 == 0:
                return {"type": "daiminkan", "actor": me, "target": last["actor"],
                        "pai": last["pai"], "consumed": held[:3]}
            if len(held) >= 2 and len(self.hand) > 4:
                return {"type": "pon", "actor": me, "target": last["actor"], "pai": last["pai"],
                        "consumed": held[:2]}
        return {"type": "none"}

    def own_turn(self, last):
        me = self.id
        drew = last["type"] == "tsumo"
        if drew and self.live() >= 4 and self.kans < 3:
            for p in self.hand:
                k = kind(p)
                same = [q for q in self.hand if kind(q) == k]
                if len(same) == 4:
                    return {"type": "ankan", "actor": me, "consumed": same}
                pon = [m for m in self.melds[me] if m[0] == "pon" and m[1] == k]
                if pon:
                    return {"type": "kakan", "actor": me, "pai": p, "consumed": pon[0][2]}
        if drew:
            return {"type": "dahai", "actor": me, "pai": last["pai"], "tsumogiri": True}
        called = self.melds[me][-1][1]  # after a pon: any tile of another kind (kuikae)
        pick = next(p for p in self.hand if kind(p) != called)
        return {"type": "dahai", "actor": me, "pai": pick, "tsumogiri": False}

    def end_game(self):
        self.games += 1
        with open(os.path.join(self.dump, f"{os.getpid()}-{self.games}.json"), "w") as f:
            json.dump(self.events, f)
        self.events = []


def play(dump):
    bot = Bot(dump)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            a = bot.answer(json.loads(line))
        except Broken as x:
            sys.stderr.write(f"mjai_check_bot.py: seat {bot.id}: {x}; the line was: {line[:2000]}\n")
            return 1
        sys.stdout.write(json.dumps(a) + "\n")
        sys.stdout.flush()
    return 0


# -------------------------------------------------------------------- the comparison with logs

def masked(e, seat):
    """The log's event `e` as seat `seat` receives it, or None when bots are not sent it."""
    t = e["type"]
    if t in ("hora", "ryukyoku", "end_game"):
        return None
    if t == "start_game":
        return {"type": t, "id": seat, "names": [f"player{s}" for s in range(4)],
                "kyoku_first": e["kyoku_first"], "aka_flag": e["aka_flag"]}
    e = dict(e)
    if t == "tsumo" and e["actor"] != seat:
        e["pai"] = "?"
    if t == "start_kyoku":
        e["tehais"] = [h if s == seat else ["?"] * 13 for s, h in enumerate(e["tehais"])]
    return e


def hands(events):
    """The events split into hands: (start_kyoku, [events up to end_kyoku, exclusive])."""
    out = []
    for e in events:
        if e["type"] == "start_kyoku":
            out.append([e])
        elif e["type"] in ("end_kyoku", "end_game", "start_game"):
            continue
        elif out:
            out[-1].append(e)
    return out


def compare(dumpdir, logdir, label):
    logs = {}
    for path in sorted(glob.glob(os.path.join(logdir, "*.jsonl"))):
        with open(path) as f:
            events = [json.loads(x) for x in f if x.strip()]
        first = next(e for e in events if e["type"] == "start_kyoku")
        for s in range(4):
            if events[0]["names"][s] == label:
                logs[(s, tuple(first["tehais"][s]))] = (path, events)
    problems, games, compared = [], 0, 0
    for path in sorted(glob.glob(os.path.join(dumpdir, "*.json"))):
        with open(path) as f:
            got = json.load(f)
        games += 1
        seat = got[0]["id"]
        first = next(e for e in got if e["type"] == "start_kyoku")
        key = (seat, tuple(first["tehais"][seat]))
        if key not in logs:
            problems.append(f"{path}: no log of seat {seat} with that first hand")
            continue
        lpath, events = logs[key]
        want = [m for m in (masked(e, seat) for e in events) if m is not None]
        if got[0] != want[0]:
            problems.append(f"{path}: start_game {got[0]} != {lpath}: {want[0]}")
        gh, wh = hands(got), hands(want)
        j = 0
        for h in gh:
            while j < len(wh) and wh[j][0] != h[0]:
                j += 1
            if j == len(wh):
                problems.append(f"{path}: hand {h[0]['bakaze']}{h[0]['kyoku']}-{h[0]['honba']} "
                                f"not in {lpath} (or out of order)")
                break
            w = wh[j]
            for i, e in enumerate(h):
                if i >= len(w) or e != w[i]:
                    problems.append(f"{path}: hand {h[0]['bakaze']}{h[0]['kyoku']}-{h[0]['honba']} "
                                    f"event {i}: received {json.dumps(e)}, the log has "
                                    f"{json.dumps(w[i]) if i < len(w) else 'nothing'} ({lpath})")
                    break
            compared += len(h)
            j += 1
        if got[-1].get("type") != "end_game" or got[-1].get("scores") != events[-1].get("scores"):
            problems.append(f"{path}: end_game {got[-1]} != the log's {events[-1]}")
    for p in problems[:20]:
        print(p)
    if not games:
        print(f"{dumpdir}: no game dumped")
        return 1
    print(f"{games} games, {compared} events compared, {len(problems)} problems")
    return 1 if problems else 0


def main(argv):
    if len(argv) == 5 and argv[1] == "--compare":
        return compare(argv[2], argv[3], argv[4])
    if len(argv) >= 3 and argv[1] == "--dump":
        return play(argv[2])
    sys.stderr.write("usage: mjai_check_bot.py --dump DIR [--tag WORD] | --compare DUMPDIR LOGDIR LABEL\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
