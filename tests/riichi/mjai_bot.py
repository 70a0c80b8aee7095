#!/usr/bin/env python3
"""tests/riichi/mjai_bot.py -- a small mjai bot for the riichi_mjai bridge's tests (Python 3
standard library only).

Protocol (as mjai-compatible bot runners speak it): each input line is a JSON array of mjai
events; the bot answers each line with one JSON action object. It follows the events only (it
never sees the referee's legal actions): its own hand from start_kyoku and its own tsumo/dahai,
its own river, and what the others discard.

Play:
  - on its own tsumo: "hora" when the 14 tiles are complete (four sets and a pair, seven
    distinct pairs, or thirteen orphans) and wins are on; its hand is always closed, so menzen
    tsumo is a yaku and such a tsumo is always legal; else it discards the drawn tile
    (tsumogiri);
  - on another player's dahai or kakan: "hora" when wins are on, the tile completes the hand,
    the hand is not furiten and it has a yaku the bot can verify: chankan (on a kakan),
    tanyao, chiitoitsu, kokushi, or a yakuhai triplet (a dragon, the round wind or its seat
    wind) in some reading. Furiten as the referee applies it: any winning kind in its own river,
    or any winning tile let pass since its own last discard (whether or not a ron was legal).
    A ron it cannot prove legal is passed, so the bot never sends an illegal hora (it may pass
    a legal ron whose only yaku is one it does not check);
  - else "none".
Options:
  --wins all|tsumo|none   which wins it declares (default all); with the default discards,
                          "none" is exactly riichi_tsumogiri
  --discard tsumogiri|efficient
                          tsumogiri (default), or the discard leaving the least shanten (so
                          that wins, rare for a pure tsumogiri hand, are common in tests)
  --riichi                declares riichi (then the declaring dahai when the bridge answers with
                          the reach event) when its discard leaves a closed tenpai hand, it has
                          1000 points and 4 live tiles are left (70 minus the tsumo events of
                          the hand); in riichi it discards the drawn tile and rons on any
                          complete hand (riichi is a yaku) that is not furiten
  --tag WORD              no effect (lets a test find its own bot processes)
  --misbehave KIND        at its Nth decision (--after N, default 5; counted per process):
                          garbage (a line that is not JSON), illegal (a dahai of a tile it does
                          not hold), sleep (sleeps 60 s), exit (exits), close (closes its
                          stdout, then sleeps 60 s)
"""
import json
import os
import sys
import time

ORDER = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C"]
KIND = {name: i for i, name in enumerate(ORDER)}
YAOCHU = {0, 8, 9, 17, 18, 26} | set(range(27, 34))


def kind(pai):
    return KIND[pai[:-1] if pai.endswith("r") else pai]


def standard(c, sets):
    """Do the counts c (a list of 34) form `sets` sets and one pair?"""
    def sets_only(c, i):
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            return True
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c, i)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
            ok = sets_only(c, i)
            c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
            if ok:
                return True
        return False
    if sum(c) != 3 * sets + 2:
        return False
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = sets_only(c, 0)
            c[p] += 2
            if ok:
                return True
    return False


def chiitoi(c):
    return sum(c) == 14 and sum(1 for x in c if x == 2) == 7


def kokushi(c):
    return sum(c) == 14 and all(c[k] >= 1 for k in YAOCHU) and all(
        c[k] == 0 for k in range(34) if k not in YAOCHU)


def complete(c):
    return standard(c, 4) or chiitoi(c) or kokushi(c)


_suit_memo = {}


def _suit(c, honors):
    """The (sets, partial sets) pairs the tiles of one suit can be read as (pairs and two-tile
    runs or gaps count as partial sets; leftover tiles are dropped)."""
    key = (c, honors)
    if key in _suit_memo:
        return _suit_memo[key]
    i = 0
    while i < len(c) and c[i] == 0:
        i += 1
    if i == len(c):
        out = {(0, 0)}
    else:
        out = set()
        def sub(*idx):
            d = list(c)
            for j in idx:
                d[j] -= 1
            return tuple(d)
        if c[i] >= 3:
            out |= {(m + 1, t) for m, t in _suit(sub(i, i, i), honors)}
        if c[i] >= 2:
            out |= {(m, t + 1) for m, t in _suit(sub(i, i), honors)}
        if not honors:
            if i + 2 < 9 and c[i + 1] and c[i + 2]:
                out |= {(m + 1, t) for m, t in _suit(sub(i, i + 1, i + 2), honors)}
            if i + 1 < 9 and c[i + 1]:
                out |= {(m, t + 1) for m, t in _suit(sub(i, i + 1), honors)}
            if i + 2 < 9 and c[i + 2]:
                out |= {(m, t + 1) for m, t in _suit(sub(i, i + 2), honors)}
        out |= _suit(sub(i), honors)
        # for a number of sets only the most partial sets matter (more never hurts)
        most = {}
        for m, t in out:
            most[m] = max(t, most.get(m, 0))
        out = set(most.items())
    _suit_memo[key] = out
    return out


def shanten(c):
    """Shanten of 13 (or 14) concealed tiles: the least over four sets and a pair, seven
    distinct pairs and thirteen orphans (-1: complete)."""
    best = 8
    for pair in [None] + [k for k in range(34) if c[k] >= 2]:
        d = list(c)
        if pair is not None:
            d[pair] -= 2
        combos = {(0, 0)}
        for lo, hi, honors in ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True)):
            opts = _suit(tuple(d[lo:hi]), honors)
            combos = {(m1 + m2, t1 + t2) for m1, t1 in combos for m2, t2 in opts}
        for m, t in combos:
            if m > 4:
                continue
            best = min(best, 8 - 2 * m - min(t, 4 - m) - (pair is not None))
    pairs = sum(1 for x in c if x >= 2)
    kinds = sum(1 for x in c if x >= 1)
    best = min(best, 6 - pairs + max(0, 7 - kinds))
    y = sum(1 for k in YAOCHU if c[k])
    best = min(best, 13 - y - (1 if any(c[k] >= 2 for k in YAOCHU) else 0))
    return best


def counts(hand):
    c = [0] * 34
    for p in hand:
        c[kind(p)] += 1
    return c


def waits_of(hand):
    """The kinds completing `hand` (13 tiles), a kind it holds four of excepted."""
    c = counts(hand)
    out = set()
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if complete(c):
                out.add(k)
            c[k] -= 1
    return out


class Bot:
    def __init__(self, wins, efficient, riichi, misbehave, after):
        self.wins, self.efficient, self.use_riichi = wins, efficient, riichi
        self.riichi, self.draws, self.scores, self.declare = False, 0, [0] * 4, None
        self.misbehave, self.after = misbehave, after
        self.decisions = 0
        self.id = 0
        self.hand, self.river = [], set()
        self.bakaze, self.jikaze = 27, 27
        self.passed = False  # a winning tile let pass since the own last discard

    def discard(self, drawn):
        """The drawn tile, or with --discard efficient the tile leaving the least shanten (the
        drawn tile on a tie, else the first in hand order 1m..9s, E S W N P F C; of a plain and
        a red five the plain one)."""
        pick = drawn
        if self.efficient:
            c = counts(self.hand)
            def after(p):
                c[kind(p)] -= 1
                v = shanten(c)
                c[kind(p)] += 1
                return v
            best = after(drawn)
            for p in sorted(set(self.hand), key=lambda p: (kind(p), p.endswith("r"))):
                v = after(p)
                if v < best:
                    best, pick = v, p
        tsumogiri = pick == drawn
        return {"type": "dahai", "actor": self.id, "pai": pick, "tsumogiri": tsumogiri}

    def waits(self):
        return waits_of(self.hand)

    def yaku_for_ron(self, c, chankan):
        if self.riichi or chankan or chiitoi(c) or kokushi(c):
            return True
        if all(c[k] == 0 for k in YAOCHU):
            return True  # tanyao
        for k in {31, 32, 33, self.bakaze, self.jikaze}:
            if c[k] >= 3:
                c[k] -= 3
                ok = standard(c, 3)
                c[k] += 3
                if ok:
                    return True
        return False

    def can_ron(self, pai, chankan):
        if self.wins != "all":
            return False
        w = self.waits()
        k = kind(pai)
        if k not in w:
            return False
        if self.passed or (w & self.river):
            self.passed = True
            return False
        c = counts(self.hand + [pai])
        if self.yaku_for_ron(c, chankan):
            return True
        self.passed = True
        return False

    def react(self, events):
        answer = {"type": "none"}
        for n, e in enumerate(events):
            t = e["type"]
            answer = {"type": "none"}
            if t == "start_game":
                self.id = e["id"]
            elif t == "start_kyoku":
                self.hand = list(e["tehais"][self.id])
                self.river, self.passed = set(), False
                self.riichi, self.draws, self.declare = False, 0, None
                self.scores = list(e["scores"])
                self.bakaze = KIND[e["bakaze"]]
                self.jikaze = 27 + (self.id - e["oya"]) % 4
            elif t == "tsumo":
                self.draws += 1  # live tiles left = 70 - tsumo events (a kan's replacement
                                 # draw is balanced by the live tile it moves to the dead wall)
                if e["actor"] != self.id:
                    continue
                self.hand.append(e["pai"])
                if self.wins != "none" and complete(counts(self.hand)):
                    answer = {"type": "hora", "actor": self.id, "target": self.id, "pai": e["pai"]}
                elif self.riichi:
                    answer = {"type": "dahai", "actor": self.id, "pai": e["pai"], "tsumogiri": True}
                else:
                    answer = self.discard(e["pai"])
                    if self.use_riichi and 70 - self.draws >= 4 and self.scores[self.id] >= 1000:
                        rest = list(self.hand)
                        rest.remove(answer["pai"])
                        if waits_of(rest):  # tenpai as the referee counts it
                            self.declare = answer
                            answer = {"type": "reach", "actor": self.id}
            elif t == "reach" and e["actor"] == self.id and self.declare:
                answer, self.declare = self.declare, None
                self.riichi = True
            elif t == "reach_accepted":
                self.scores = list(e["scores"])
            elif t == "dahai" and e["actor"] == self.id:
                self.hand.remove(e["pai"])
                self.river.add(kind(e["pai"]))
                if not self.riichi:
                    self.passed = False  # furiten after a passed win lasts in riichi
            elif t in ("dahai", "kakan") and e["actor"] != self.id:
                # a tile that is not the last event was not offered: let pass
                if self.can_ron(e["pai"], t == "kakan") and n == len(events) - 1:
                    answer = {"type": "hora", "actor": self.id, "target": e["actor"], "pai": e["pai"]}
                elif kind(e["pai"]) in self.waits():
                    self.passed = True
            elif t == "ankan" and e["actor"] != self.id:
                if kind(e["consumed"][0]) in self.waits():
                    self.passed = True  # only thirteen orphans may rob a closed kan: let pass
        return answer

    def answer(self, line):
        events = json.loads(line)
        a = self.react(events)
        if events and events[-1]["type"] in ("end_game",):
            return json.dumps({"type": "none"})
        self.decisions += 1
        if self.misbehave and self.decisions == self.after:
            if self.misbehave == "garbage":
                return "this is not json"
            if self.misbehave == "illegal":
                held = {kind(p) for p in self.hand}
                other = next(ORDER[k] for k in range(34) if k not in held)
                return json.dumps({"type": "dahai", "actor": self.id, "pai": other, "tsumogiri": False})
            if self.misbehave == "sleep":
                time.sleep(60)
            if self.misbehave == "exit":
                sys.exit(3)
            if self.misbehave == "close":
                os.close(1)
                time.sleep(60)
        return json.dumps(a)


def main(argv):
    wins, efficient, riichi, misbehave, after = "all", False, False, None, 5
    i = 1
    while i < len(argv):
        if argv[i] == "--wins" and i + 1 < len(argv):
            wins = argv[i + 1]
        elif argv[i] == "--discard" and i + 1 < len(argv) and argv[i + 1] in ("tsumogiri", "efficient"):
            efficient = argv[i + 1] == "efficient"
        elif argv[i] == "--riichi":
            riichi = True
            i += 1
            continue
        elif argv[i] == "--tag" and i + 1 < len(argv):
            pass  # names the process for a test's pgrep; no effect
        elif argv[i] == "--misbehave" and i + 1 < len(argv):
            misbehave = argv[i + 1]
        elif argv[i] == "--after" and i + 1 < len(argv):
            after = int(argv[i + 1])
        else:
            sys.stderr.write(f"mjai_bot.py: unknown argument {argv[i]}\n")
            return 2
        i += 2
    if wins not in ("all", "tsumo", "none"):
        sys.stderr.write(f"mjai_bot.py: --wins {wins}: expected all, tsumo or none\n")
        return 2
    bot = Bot(wins, efficient, riichi, misbehave, after)
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(bot.answer(line) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
