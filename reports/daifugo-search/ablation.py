#!/usr/bin/env python3
"""The ablation table of reports/daifugo-search.md from its runs' games.

Usage: python3 reports/daifugo-search/ablation.py RUN_DIR...

Each RUN_DIR is a duplicate run of daifugo_search (label "search") x1 against a field of four
copies of one other agent (daifugo_mcl, "mcl", or daifugo_mc, "mc") on the same seed and walls
(arenas/daifugo/search*.json). Per run and wall: d = the candidate's paper points a game minus
the field's (the referee's "search - mcl" row),
its mean over walls with a 95 % t interval (walls are the independent unit). Then, for each
pair of runs against the same field, the difference of their d wall by wall on the walls both
played (the same deals), with the same interval: what the part one leaves out is worth. Standard library only."""
import gzip
import json
import math
import os
import sys

# t quantiles (two-sided 95 %) for 1..30 degrees of freedom; beyond, the Cornish-Fisher
# expansion around the normal quantile (within 1e-3 of the quantile there)
T95 = [None, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    if df < len(T95):
        return T95[df]
    z = 1.959964
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def per_wall(run):
    path = os.path.join(run, "games.jsonl")
    opener = open
    if not os.path.exists(path):
        path += ".gz"
        opener = gzip.open
    walls = {}
    field = None
    with opener(path, "rt") as f:
        for line in f:
            u = json.loads(line)
            w = walls.setdefault(u["wall"], {"search": [0, 0], "field": [0, 0]})
            for s in u["seats"]:
                if s["label"] != "search":
                    field = s["label"]
                side = w["search" if s["label"] == "search" else "field"]
                side[0] += s["paper_points"]
                side[1] += s["games"]
    return field, {k: v["search"][0] / v["search"][1] - v["field"][0] / v["field"][1]
                   for k, v in sorted(walls.items())}


def interval(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan"), float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = t95(n - 1) * sd / math.sqrt(n)
    return m, m - h, m + h


def main():
    runs = sys.argv[1:]
    if not runs:
        sys.exit(__doc__)
    field, d = {}, {}
    for r in runs:
        field[r], d[r] = per_wall(r)
    print("| run | field | walls | search - field, paper points a game |")
    print("|---|---|---|---|")
    for r in runs:
        m, lo, hi = interval(list(d[r].values()))
        print(f"| {os.path.basename(r.rstrip('/'))} | {field[r]} | {len(d[r])} | "
              f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}] |")
    print()
    print("| a - b (wall by wall, the walls both played) | walls | paper points a game |")
    print("|---|---|---|")
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            if field[a] != field[b]:
                continue  # another field: no paired difference
            common = sorted(set(d[a]) & set(d[b]))
            m, lo, hi = interval([d[a][w] - d[b][w] for w in common])
            print(f"| {os.path.basename(a.rstrip('/'))} - {os.path.basename(b.rstrip('/'))} | "
                  f"{len(common)} | {m:+.3f} [{lo:+.3f}, {hi:+.3f}] |")


if __name__ == "__main__":
    main()
