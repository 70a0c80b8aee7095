#!/usr/bin/env python3
"""Prints reports/riichi-samplers.md's downstream tables (markdown) from a merged run's
summary.json (arenas/riichi/samplers.json): each sampler's riichi_mc x1 against three copies of
the previous program, and each candidate against tenpai (the sampler the opponents use).
Usage: downstream.py RUN/summary.json"""
import json
import sys


def ci(m, digits=3, scale=1.0):
    v, (lo, hi) = m["value"] * scale, (c * scale for c in m["ci"])
    fmt = lambda x: f"{x + 0.0:.{digits}f}".replace("-0." + "0" * digits, "0." + "0" * digits)
    return f"{fmt(v)} [{fmt(lo)}, {fmt(hi)}]"


def verdict(m, better_low=True):
    lo, hi = m["ci"]
    if lo > 0:
        return "worse" if better_low else "better"
    if hi < 0:
        return "better" if better_low else "worse"
    return "not decided"


def main():
    s = json.load(open(sys.argv[1]))
    agents = {a["label"]: a for a in s["agents"]}
    paired = {(p["a"], p["b"]): p for p in s["paired"]}
    cands = [a["label"] for a in s["agents"] if a["label"] != "previous"]
    print(f"{s['units']} units: each candidate played {agents[cands[0]]['games']} games "
          f"({s['units'] // len(cands) // 4} walls x 4 seatings).\n")
    print("| sampler | games | mean rank | deal-in rate | win rate | riichi rate | call rate |")
    print("|---|---:|---|---|---|---|---|")
    for c in cands:
        a = agents[c]
        print(f"| {c} | {a['games']} | {ci(a['mean_rank'])} | {ci(a['deal_in_rate'])} | "
              f"{ci(a['win_rate'])} | {ci(a['riichi_rate'])} | {ci(a['call_rate'])} |")
    a = agents["previous"]
    print(f"| (the three opponents: previous) | {a['games']} | {ci(a['mean_rank'])} | "
          f"{ci(a['deal_in_rate'])} | {ci(a['win_rate'])} | {ci(a['riichi_rate'])} | "
          f"{ci(a['call_rate'])} |")
    print()
    print("Paired on the same walls (a − b; mean rank: below 0 is better; deal-in: below 0 is "
          "fewer). Against the previous program (its seats in the same games) and against tenpai "
          "(the opponents' own sampler, here with the sampled hands deciding the deal-ins):\n")
    print("| a − b | mean rank | verdict | deal-in rate | win rate |")
    print("|---|---|---|---|---|")
    for b in ("previous", "tenpai"):
        for c in cands:
            if c == b:
                continue
            p = paired.get((c, b))
            sign = 1
            if p is None:
                p, sign = paired.get((b, c)), -1
            if p is None:
                continue
            mr = dict(p["mean_rank"])
            if sign < 0:
                mr = {"value": -mr["value"], "ci": [-mr["ci"][1], -mr["ci"][0]]}
            di = p["deal_in_rate"]
            wr = p["win_rate"]
            if sign < 0:
                di = {"value": -di["value"], "ci": [-di["ci"][1], -di["ci"][0]]}
                wr = {"value": -wr["value"], "ci": [-wr["ci"][1], -wr["ci"][0]]}
            print(f"| {c} − {b} | {ci(mr)} | {verdict(mr)} | {ci(di, 3)} | {ci(wr, 3)} |")


if __name__ == "__main__":
    main()
