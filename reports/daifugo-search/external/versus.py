#!/usr/bin/env python3
"""The served run's verdict for one seat against the others (issue 41's measure).

    python3 reports/daifugo-search/external/versus.py RUN [--label LABEL] [--batch K] [--minus RUN2]
                                                      [--by-class]

RUN is a run folder of `taikai serve ... --logs` (reports/daifugo-search/external/play.sh
--logs). For the agent LABEL (default: the spec's player 0), every game's UECda points (5 for
the daifugo ... 1 for the daihinmin) are read from RUN/logs/unit-*.jsonl (or .jsonl.gz); its difference with
the mean of the four other seats in that game is d = p - (15 - p) / 4 (the five seats' points
always sum to 15). Printed: games, the agent's points a game, the others' mean, and the mean of
d with a 95 % t interval over batches of K consecutive games (default 10) of the same block:
a game's classes and exchange carry over to the next, so single games are not independent; a
batch is. The interval over single games (t over games) is printed beside it for comparison.

With --minus RUN2 (a run of the same seed: the same deals in the same blocks, say one setting of
ours against another in the same seats) it also prints RUN - RUN2 for LABEL, batch by batch over
the batches both runs played (the same block and games), with a t interval over those batches.
The games of two runs part ways after their first different decision, so the pairing removes
only the deals' share of the variance.

With --by-class it also prints, for each class a seat held when a game began (its class from
the game before; "first" for a block's first game, which has none), the games LABEL began in it
with its points a game, and the same for the other four seats' games together: where LABEL
gains or loses its points. These are descriptive means (no interval): the class a game begins
in depends on the games before it.

Exit 2 with a message when the folder, its logs or the label are missing, or when RUN2 has
another seed.
"""
import glob
import gzip
import json
import os
import statistics
import sys

# the t interval of the ablation table (exact quantiles up to 30 degrees of freedom)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ablation import interval  # noqa: E402


def read_run(run, label, batch):
    """(label, games, batches keyed by (unit file, first game), seed) of RUN, or an exit status."""
    try:
        spec = json.load(open(f"{run}/spec.json"))
    except (OSError, ValueError) as e:
        print(f"versus.py: {run}/spec.json: {e}", file=sys.stderr)
        return 2
    labels = [a.get("label", a.get("plugin", "?")) for a in spec["agents"]]
    if label is None:
        label = labels[0]
    if label not in labels:
        print(f"versus.py: {run}: no agent labelled '{label}' (labels: {', '.join(labels)})",
              file=sys.stderr)
        return 2
    me = labels.index(label)
    files = sorted(glob.glob(f"{run}/logs/unit-*.jsonl") + glob.glob(f"{run}/logs/unit-*.jsonl.gz"))
    if not files:
        print(f"versus.py: {run}/logs: no unit-*.jsonl[.gz] (play with --logs, and let the run end)",
              file=sys.stderr)
        return 2
    games, batches = [], {}
    by_class = {}  # (class at the game's start, LABEL or not) -> [games, points]
    for f in files:
        block, classes = [], None
        for n, line in enumerate(gzip.open(f, "rt") if f.endswith(".gz") else open(f), 1):
            e = json.loads(line)
            if e.get("type") == "deal":
                classes = e.get("classes")
            if e.get("type") != "end_game":
                continue
            pts = e["points"]
            if len(pts) != 5 or sum(pts) != 15:
                print(f"versus.py: {f}:{n}: points {pts} are not five places' 5..1", file=sys.stderr)
                return 2
            block.append(pts[me] - (15 - pts[me]) / 4)
            for q in range(5):
                c = (classes[q] if classes and len(classes) == 5 else None) or "first"
                cell = by_class.setdefault((c, q == me), [0, 0])
                cell[0] += 1
                cell[1] += pts[q]
        games += block
        unit = os.path.basename(f).split(".")[0]
        for k in range(0, len(block) - batch + 1, batch):
            batches[(unit, k)] = statistics.fmean(block[k:k + batch])
    return label, games, batches, spec.get("seed"), by_class


def main(argv):
    args, label, batch, minus, show_classes = [], None, 10, None, False
    i = 0
    while i < len(argv):
        if argv[i] == "--label" and i + 1 < len(argv):
            label, i = argv[i + 1], i + 2
        elif argv[i] == "--batch" and i + 1 < len(argv):
            try:
                batch = int(argv[i + 1])
            except ValueError:
                batch = 0
            if batch < 1:
                print(f"versus.py: --batch takes a positive number, got {argv[i + 1]}", file=sys.stderr)
                return 2
            i += 2
        elif argv[i] == "--minus" and i + 1 < len(argv):
            minus, i = argv[i + 1], i + 2
        elif argv[i] == "--by-class":
            show_classes, i = True, i + 1
        elif argv[i].startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    r = read_run(args[0], label, batch)
    if isinstance(r, int):
        return r
    label, games, batches, seed, by_class = r
    other = None
    if minus is not None:
        other = read_run(minus, label, batch)
        if isinstance(other, int):
            return other
        if other[3] != seed:
            print(f"versus.py: {minus} has seed {other[3]}, {args[0]} seed {seed}: their games "
                  f"are not paired", file=sys.stderr)
            return 2
    batches_list = list(batches.values())
    mine = [4 * d / 5 + 3 for d in games]  # p from d = (5p - 15) / 4
    others = [(15 - p) / 4 for p in mine]
    m, lo, hi = interval(batches_list)
    g, glo, ghi = interval(games)
    print(f"{label}: {len(games)} games, {statistics.fmean(mine):.3f} UECda points a game; the "
          f"other four {statistics.fmean(others):.3f} a seat")
    print(f"{label} - the others' mean: {m:+.3f} [{lo:+.3f}, {hi:+.3f}] a game (95 %, t over "
          f"{len(batches_list)} batches of {batch} games); over single games {g:+.3f} [{glo:+.3f}, {ghi:+.3f}]")
    if show_classes:
        print(f"by the class a game began in: the games and points a game of {label}, then of "
              f"the other seats")
        for c in ("first", "daifugo", "fugo", "heimin", "hinmin", "daihinmin"):
            a, b = by_class.get((c, True), [0, 0]), by_class.get((c, False), [0, 0])
            pa = f"{a[1] / a[0]:.3f}" if a[0] else "-"
            pb = f"{b[1] / b[0]:.3f}" if b[0] else "-"
            print(f"  {c:<10} {a[0]:6d} {pa:>6}   {b[0]:6d} {pb:>6}")
    if other is not None:
        both = sorted(set(batches) & set(other[2]))
        if len(both) < 2:
            print(f"versus.py: {args[0]} and {minus} share {len(both)} batch(es) of {batch} games",
                  file=sys.stderr)
            return 2
        m, lo, hi = interval([batches[k] - other[2][k] for k in both])
        print(f"{label}, {args[0]} - {minus}: {m:+.3f} [{lo:+.3f}, {hi:+.3f}] a game (95 %, t "
              f"over the {len(both)} batches of {batch} games both played)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
