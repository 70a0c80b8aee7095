#!/usr/bin/env python3
"""The wall-by-wall differences of reports/daifugo-mcl-weights.md.

    python3 reports/daifugo-mcl-weights/pair.py [RUN_GAMES] [GREEDY_GAMES]

RUN_GAMES is the games.jsonl(.gz) of arenas/daifugo/mcl-weights.json (default: the committed
reports/daifugo-mcl-weights/games.jsonl.gz), GREEDY_GAMES the greedy teacher's run on the same
walls (default: reports/daifugo-table-5-mcl-1.1/games.jsonl.gz). A candidate's value on a wall is
its paper points a game averaged over the wall's five seatings; a difference is the mean over the
walls both runs played of the walls' differences, with a 95 % t interval.
"""
import collections
import gzip
import json
import os
import statistics
import sys

# the t interval of daifugo-search's ablation table (exact quantiles up to 30 degrees of freedom)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "daifugo-search"))
from ablation import interval  # noqa: E402


def per_wall(path, label):
    walls = collections.defaultdict(list)
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            unit = json.loads(line)
            for seat in unit["seats"]:
                if seat["label"] == label:
                    walls[unit["wall"]].append(seat["paper_points"] / seat["games"])
    return {w: statistics.fmean(v) for w, v in walls.items() if len(v) == 5}


def difference(a, b, name):
    walls = sorted(set(a) & set(b))
    if len(walls) < 2:
        sys.exit(f"pair.py: {name}: {len(walls)} wall(s) in common")
    m, lo, hi = interval([a[w] - b[w] for w in walls])
    print(f"{name}: {m:+.3f} [{lo:+.3f}, {hi:+.3f}] over {len(walls)} walls")


def main(argv):
    run = argv[0] if argv else "reports/daifugo-mcl-weights/games.jsonl.gz"
    greedy = argv[1] if len(argv) > 1 else "reports/daifugo-table-5-mcl-1.1/games.jsonl.gz"
    g = per_wall(greedy, "mcl-ap-greedy")
    mc, mcl = per_wall(run, "mcl-ap-mc"), per_wall(run, "mcl-ap-mcl")
    difference(mc, g, "mcl-ap-mc - mcl-ap-greedy")
    difference(mcl, g, "mcl-ap-mcl - mcl-ap-greedy")
    difference(mcl, mc, "mcl-ap-mcl - mcl-ap-mc")


if __name__ == "__main__":
    main(sys.argv[1:])
