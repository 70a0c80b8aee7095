#!/usr/bin/env python3
"""Compares one agent across two runs of the same duplicate spec (the same seed, so wall w deals
the same games in both): its paper points per game in each run, and the difference paired by
wall with a Student-t interval over the walls both runs completed (every seating played).
Also counts the units whose records (every seat's counts and points) are equal in both runs.

    python3 versions.py OLD_GAMES NEW_GAMES LABEL    (games.jsonl or games.jsonl.gz)

A diagnostic of this report (notes.md has the command), not part of taikai."""
import gzip, json, math, sys

# Student-t 0.975 quantiles by degrees of freedom (the walls minus one).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120,
        17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042}


def units(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        for line in f:
            if line.endswith('\n'):  # a unit being written is skipped
                yield json.loads(line)


def by_wall(path, label):
    walls, seatings = {}, {}
    for u in units(path):
        key = (u['wall'], tuple(s['label'] for s in u['seats']))
        seatings[key] = u['seats']
        for s in u['seats']:
            if s['label'] == label:
                pts, games, n = walls.get(u['wall'], (0, 0, 0))
                walls[u['wall']] = (pts + s['paper_points'], games + s['games'], n + 1)
    return walls, seatings


def interval(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    t = T975.get(n - 1) or T975[max(k for k in T975 if k <= n - 1)]
    return m, t * sd / math.sqrt(n)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    old, old_units = by_wall(sys.argv[1], sys.argv[3])
    new, new_units = by_wall(sys.argv[2], sys.argv[3])
    seatings = max(n for _, _, n in old.values())
    walls = sorted(w for w in new if w in old and new[w][2] == seatings and old[w][2] == seatings)
    if len(walls) < 2:
        sys.exit('fewer than two walls complete in both runs')
    a = [old[w][0] / old[w][1] for w in walls]
    b = [new[w][0] / new[w][1] for w in walls]
    games = sum(new[w][1] for w in walls)
    for name, xs in (('old', a), ('new', b), ('new - old, paired by wall', [y - x for x, y in zip(a, b)])):
        m, h = interval(xs)
        print(f'{name}: {m:+.3f} [{m - h:+.3f}, {m + h:+.3f}] paper points per game '
              f'({len(walls)} walls, {games} games of {sys.argv[3]} in each run)')
    same = sum(1 for k, v in new_units.items() if k[0] in walls and old_units.get(k) == v)
    total = sum(1 for k in new_units if k[0] in walls)
    print(f'units whose records are equal in both runs: {same} of {total}')


main()
