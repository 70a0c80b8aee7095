#!/usr/bin/env python3
"""Tables 6-7 of paper 000 beside ours, and a verdict per shape, from the merged run's
summary.json (reports/riichi-table-6-7/run/summary.json). Usage:

    python3 reports/riichi-table-6-7/tables.py [SUMMARY]

Prints Markdown. A shape "holds" when the 95 % intervals support it, "fails" when they support
the opposite, and is "not decided" otherwise."""
import json
import sys

PAPER = {  # table 6 and 7 rows: rank rates, mean rank, games, win, deal-in, opp win, opp deal-in
    "mcp-vs-tsumogiri": ("MCP vs tsumogiri", .185, .251, .282, .280, 2.65, 30505, .193, .118, .217, .119),
    "mcp": ("MCP", .180, .248, .292, .276, 2.67, 62742, .194, .114, .215, .120),
    "bcp": ("BCP", .194, .253, .283, .270, 2.62, 44550, .201, .115, .214, .119),
    "bcp-self-play": ("BCP+Penalty(self-play)", .121, .179, .324, .375, 2.95, 1163, .093, .114, .235, .110),
    "bcp-human": ("BCP+Penalty(human)", .227, .244, .262, .264, 2.56, 3589, .202, .123, .226, .123),
    "bcp-human-d3": ("BCP+Penalty(human)+search d3", .240, .244, .250, .265, 2.54, 14804, .195, .128, .220, .123),
    "bcp-teacher": ("BCP+Penalty(teacher) (ours only)", None, None, None, None, None, None, None, None, None, None),
}


def ci(m, d=3):
    return f"{m['value']:.{d}f} [{m['ci'][0]:.{d}f}, {m['ci'][1]:.{d}f}]"


def sgn(m, d=3):
    v, lo, hi = m["value"], m["ci"][0], m["ci"][1]
    return f"{v:+.{d}f} [{lo:+.{d}f}, {hi:+.{d}f}]"


def verdict(lo, hi, want_positive):
    """holds when the interval is on the wanted side of 0, fails when on the other."""
    if want_positive:
        return "holds" if lo > 0 else "fails" if hi < 0 else "not decided"
    return "holds" if hi < 0 else "fails" if lo > 0 else "not decided"


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "reports/riichi-table-6-7/run/summary.json"
    s = json.load(open(path))
    agents = {a["label"]: a for a in s["agents"]}
    paired = {(p["a"], p["b"]): p for p in s["paired"]}

    def pair(a, b, metric):
        if (a, b) in paired:
            return paired[(a, b)][metric], paired[(a, b)]["walls"]
        p = paired[(b, a)]
        m = p[metric]
        return {"value": -m["value"], "ci": [-m["ci"][1], -m["ci"][0]]}, p["walls"]

    cands = [l for l in PAPER if l in agents]
    print(f"Walls {s['walls']} ({s['units']} of {s['units_total']} units; complete: "
          f"{str(s['complete']).lower()}).\n")
    print("**Table 6** (ours: value [95 % interval]; the paper's row below each)\n")
    print("| candidate | 1st | 2nd | 3rd | 4th | mean rank | games |")
    print("|---|---|---|---|---|---|---|")
    for l in cands:
        a, p = agents[l], PAPER[l]
        print(f"| {l} | {ci(a['rank_1_rate'])} | {ci(a['rank_2_rate'])} | {ci(a['rank_3_rate'])} | "
              f"{ci(a['rank_4_rate'])} | {ci(a['mean_rank'])} | {a['games']} |")
        if p[1] is not None:
            print(f"| *paper: {p[0]}* | {p[1]:.3f} | {p[2]:.3f} | {p[3]:.3f} | {p[4]:.3f} | "
                  f"{p[5]:.2f} | {p[6]:,} |")
    print("\n**Table 7** (rates per hand played)\n")
    print("| candidate | win | deal-in | opponents' win | opponents' deal-in |")
    print("|---|---|---|---|---|")
    for l in cands:
        a, p = agents[l], PAPER[l]
        print(f"| {l} | {ci(a['win_rate'])} | {ci(a['deal_in_rate'])} | "
              f"{ci(a['opponents_win_rate'])} | {ci(a['opponents_deal_in_rate'])} |")
        if p[1] is not None:
            print(f"| *paper* | {p[7]:.3f} | {p[8]:.3f} | {p[9]:.3f} | {p[10]:.3f} |")
    base = [a for a in agents if a not in PAPER][0]
    print(f"\n**Each candidate against the previous program's copies at its tables** "
          f"(`{base}`; paired by wall, candidate − previous)\n")
    print("| candidate | mean rank | win | deal-in |")
    print("|---|---|---|---|")
    for l in cands:
        m, w = pair(l, base, "mean_rank")
        print(f"| {l} | {sgn(m)} | {sgn(pair(l, base, 'win_rate')[0])} | "
              f"{sgn(pair(l, base, 'deal_in_rate')[0])} |")

    print("\n**The paper's shapes**\n")
    print("| shape | evidence | verdict |")
    print("|---|---|---|")
    for l in cands:
        m = agents[l]["mean_rank"]
        v = "holds" if m["ci"][0] > 2.5 else "fails" if m["ci"][1] < 2.5 else "not decided"
        print(f"| {l} loses to the previous program (mean rank above 2.5) | {ci(m)} | {v} |")
    if "bcp-self-play" in agents:
        worst = []
        for l in cands:
            if l == "bcp-self-play":
                continue
            m, _ = pair("bcp-self-play", l, "mean_rank")
            worst.append((l, m))
        vs = [verdict(m["ci"][0], m["ci"][1], True) for _, m in worst]
        v = "holds" if all(x == "holds" for x in vs) else "fails" if any(x == "fails" for x in vs) else "not decided"
        ev = "; ".join(f"− {l} {sgn(m)}" for l, m in worst)
        print(f"| the self-play penalty is far the worst (its mean rank above every other's, paired) | {ev} | {v} |")
        m, _ = pair("bcp-self-play", "bcp", "win_rate")
        print(f"| ... and its win rate falls (the paper's halves: 0.093 against 0.201) | bcp-self-play − bcp win rate {sgn(m)} | {verdict(m['ci'][0], m['ci'][1], False)} |")
    for a, b, what in (("bcp-human", "bcp", "the realistic penalty beats plain BCP"),
                       ("bcp-teacher", "bcp", "the teacher penalty beats plain BCP (ours)"),
                       ("bcp-human-d3", "bcp-human", "the search adds a little"),
                       ("bcp", "mcp", "BCP beats MCP (2.62 against 2.67)")):
        if a in agents and b in agents:
            m, _ = pair(a, b, "mean_rank")
            print(f"| {what} | {a} − {b} mean rank {sgn(m)} | {verdict(m['ci'][0], m['ci'][1], False)} |")
    for l in cands:
        a = agents[l]
        d = a["win_rate"]["value"] - a["opponents_win_rate"]["value"]
        lo = a["win_rate"]["ci"][0] - a["opponents_win_rate"]["ci"][1]
        hi = a["win_rate"]["ci"][1] - a["opponents_win_rate"]["ci"][0]
        v = "holds" if hi < 0 else "fails" if lo > 0 else "not decided"
        print(f"| {l} wins less often than its opponents | {a['win_rate']['value']:.3f} against "
              f"{a['opponents_win_rate']['value']:.3f} (intervals {'apart' if v != 'not decided' else 'overlap'}) | {v} |")


if __name__ == "__main__":
    main()
