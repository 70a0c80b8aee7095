#!/usr/bin/env python3
"""The CI guard (ci-guard.json, ci-guard.reference.json) over many seeds: how often it fails with
the code unchanged (its false-failure rate) and how often it catches three regressions of
komatsu: komatsu playing as greedy (greedy with a random tie-break), komatsu with 10 playouts,
and an agent that never wins (tsumogiri).

One run per seed plays the guard's agents at the guard's indices (greedy 0, komatsu 1: the same
games as the guard at that seed) and the three stand-ins (indices 2-4), 1,000 walls each. Each
variant is judged by `taikai report --strict` on a copy of that run's summary.json in which the
stand-in carries komatsu's label. A seed already played is not played again; its summary is
recomputed by the current taikai (a re-run into a complete folder), so changed statistics are
measured on the same games.

usage: ci-guard-seeds.py TAIKAI SEEDS OUTDIR [-j N]
(TAIKAI_PLUGIN_PATH must point at the built plugins, e.g. build/plugins)
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GUARD = json.load(open(os.path.join(HERE, "ci-guard.json")))
REF = os.path.join(HERE, "ci-guard.reference.json")
STANDINS = [
    ("komatsu, 10 playouts", {"plugin": "komatsu", "label": "komatsu-10", "params": {"playouts": 10}}),
    ("komatsu as greedy", {"plugin": "greedy", "label": "greedy-random", "params": {"tie_break": "random"}}),
    ("never wins", {"plugin": "tsumogiri", "label": "tsumogiri"}),
]


def relabel(summary, label):
    """summary.json with agent `label` renamed komatsu (and komatsu renamed away)."""
    s = json.loads(json.dumps(summary))
    swap = {"komatsu": "komatsu-unchanged", label: "komatsu"}
    for a in s["agents"]:
        a["label"] = swap.get(a["label"], a["label"])
    for p in s["paired"]:
        p["a"] = swap.get(p["a"], p["a"])
        p["b"] = swap.get(p["b"], p["b"])
    return s


def judge(taikai, summary, path):
    json.dump(summary, open(path, "w"))
    md = path[:-5] + ".md"
    rc = subprocess.run([taikai, "report", path, "--reference", REF, "--strict", "--out", md],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    verdicts = re.findall(r"^\| (.*?) \| (holds|\*\*fails\*\*|\*\*not evaluated\*\*) \|",
                          open(md).read(), re.M)
    return rc, [text for text, v in verdicts if v != "holds"]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    taikai, seeds, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    jobs = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "-j" else "2"
    os.makedirs(out, exist_ok=True)
    variants = [("unchanged", "komatsu")] + [(name, a["label"]) for name, a in STANDINS]
    fails = {name: [] for name, _ in variants}
    checks = {name: {} for name, _ in variants}
    for seed in range(1, seeds + 1):
        spec = {"game": GUARD["game"], "seed": seed, "walls": GUARD["walls"],
                "format": GUARD["format"], "agents": GUARD["agents"] + [a for _, a in STANDINS],
                "rules": GUARD["rules"], "output": os.path.join(out, "seed-%d" % seed)}
        spec_path = os.path.join(out, "spec-%d.json" % seed)
        json.dump(spec, open(spec_path, "w"))
        subprocess.run([taikai, "run", spec_path, "-j", jobs, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        summary = json.load(open(os.path.join(spec["output"], "summary.json")))
        for name, label in variants:
            rc, failed = judge(taikai, relabel(summary, label),
                               os.path.join(spec["output"], "guard-%s.json" % label))
            if rc:
                fails[name].append(seed)
            for text in failed:
                checks[name][text] = checks[name].get(text, 0) + 1
    print("%d seeds (1..%d), %d walls each" % (seeds, seeds, GUARD["walls"]))
    for name, _ in variants:
        print("%-22s fails %3d of %d seeds%s" % (name, len(fails[name]), seeds,
              (": " + " ".join(map(str, fails[name][:20]))) if name == "unchanged" and fails[name] else ""))
        for text, n in sorted(checks[name].items()):
            print("    %4d  %s" % (n, text))


if __name__ == "__main__":
    main()
