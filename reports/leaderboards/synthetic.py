#!/usr/bin/env python3
"""Writes a synthetic riichi run folder for timing `taikai ratings`: OUT/spec.json (a copy of a
committed riichi spec with 8 agents a0..a7, planted log-strengths -0.35, -0.25, ..., +0.35) and
OUT/games.jsonl with GAMES four-seat games (walls of 4 games; each wall seats 4 agents drawn at
random; each game's ranks sampled from the Plackett-Luce model), in taikai run's line format.
No games.chain: `taikai ratings` notes that the lines are unchecked.
Usage: python3 reports/leaderboards/synthetic.py OUT [GAMES]   (default 1000000, seed 42)"""
import json, math, os, random, sys

out = sys.argv[1]
games = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
random.seed(42)
spec = json.load(open(os.path.join(root, "reports/riichi-oneplayer-vs-greedy/spec.json")))
M = 8
planted = [-0.35 + 0.1 * a for a in range(M)]
spec["agents"] = [{"plugin": "riichi_greedy", "label": "a%d" % a, "params": {"variant": a},
                   "name": "riichi_greedy", "version": "1.1.0"} for a in range(M)]
spec["walls"], spec["units"], spec["output"] = games // 4, games // 4 * 4, "synthetic"
os.makedirs(out, exist_ok=True)
json.dump(spec, open(os.path.join(out, "spec.json"), "w"))
g = [math.exp(p) for p in planted]
with open(os.path.join(out, "games.jsonl"), "w") as f:
    u = 0
    for w in range(games // 4):
        ags = random.sample(range(M), 4)
        for k in range(4):
            left, order = ags[:], []
            while left:
                x = random.random() * sum(g[a] for a in left)
                for a in left:
                    x -= g[a]
                    if x < 0:
                        break
                order.append(a)
                left.remove(a)
            rank = {a: i + 1 for i, a in enumerate(order)}
            seats = ",".join('{"agent":%d,"label":"a%d","points":25000,"rank":%d,"final":0,"hands":4,'
                             '"wins":0,"deal_ins":0,"riichi":0,"calls":0,"win_points":0}' % (a, a, rank[a])
                             for a in ags)
            f.write('{"unit":%d,"wall":%d,"seats":[%s]}\n' % (u, w, seats))
            u += 1
