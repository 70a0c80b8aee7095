#!/usr/bin/env python3
"""Writes reports/riichi-mcp-table-5.md (on stdout) from the outputs of run.sh in folder R:
R/eval/*.json (riichi_mcp_eval --out), R/train/*.log (riichi_mcp_train's output) and
R/notes.md (the discussion, written by hand; edit it, not the .md this prints). The figures
3-5 are drawn as SVG files beside the JSON (R/figure-*.svg). Nothing here is typed in by hand
but the paper's numbers (paper 000 table 5, as ../shared/specs/riichi-agents.md gives them)."""
import glob
import json
import math
import os
import re
import sys

R = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))

# Paper 000 table 5: success rate (won with >= h han), 10,000 hands per h, models on 10^8 examples.
PAPER = {
    ("policy", "tsumogiri"): [0.6411, 0.5235, 0.3169, 0.1708],
    ("mcp", "tsumogiri"): [0.6574, 0.545, 0.3663, 0.2274],
    ("policy", "policy"): [0.2446, 0.1979, 0.1278, 0.0734],
    ("mcp", "policy"): [0.2318, 0.1833, 0.1296, 0.0825],
    ("bcp", "policy"): [0.2382, 0.1863, 0.1267, 0.0793],
}


def load(name):
    with open(os.path.join(R, "eval", name + ".json")) as f:
        return json.load(f)


def row(ev, agent, h):
    for r in ev["rows"]:
        if r["agent"] == agent and r["h"] == h:
            return r
    raise KeyError((agent, h))


def fmt_ci(x, ci, signed=False):
    f = "{:+.4f}" if signed else "{:.3f}"
    return (f + " [" + f + ", " + f + "]").format(x, ci[0], ci[1])


def train_log(name):
    with open(os.path.join(R, "train", name + ".log")) as f:
        text = f.read()
    curve = [(int(a), float(b)) for a, b in re.findall(r"^\| (\d+) \| ([0-9.]+) \|$", text, re.M)]
    head = text.splitlines()[0]
    m = re.search(r"weights (\S+): (\d+) nonzero weights, sha256 (\w+)", text)
    cpu = re.search(r"training CPU ([0-9.]+) s, ([0-9.]+) us per example", text)
    calib = text[text.index("held-out calibration"):].split("\n", 2)[2].strip()
    return {"head": head, "curve": curve, "nnz": int(m.group(2)), "sha": m.group(3),
            "cpu": float(cpu.group(1)), "calib": calib}


def trained_examples(log):
    return int(re.match(r"\w+: (\d+) training examples", log["head"]).group(1))


def prior_loss(log, kind):
    """The held-out log loss of predicting the training labels' frequencies for every example
    (approximately: the frequencies of the held-out labels are not in the log)."""
    n = [int(x) for x in re.search(r"labels 0\.\.4: (\d+) (\d+) (\d+) (\d+) (\d+)", log["head"]).groups()]
    t = sum(n)
    p = [x / t for x in n]
    if kind == "mcp":
        return -sum(q * math.log(q) for q in p if q > 0)
    loss = 0.0
    for h in range(1, 5):
        q = sum(p[h:])
        loss -= q * math.log(q) + (1 - q) * math.log(1 - q)
    return loss


def snapshots(opp):
    """The learning-curve evaluations of run.sh: curve-OPP-N.json, by N."""
    out = []
    for path in glob.glob(os.path.join(R, "eval", "curve-%s-*.json" % opp)):
        out.append(int(re.search(r"-(\d+)\.json$", path).group(1)))
    return sorted(out)


def verdict(lo, hi, want):
    """want > 0: the difference should be positive; < 0: negative."""
    if (want > 0 and lo > 0) or (want < 0 and hi < 0):
        return "holds"
    if (want > 0 and hi < 0) or (want < 0 and lo > 0):
        return "**fails** (the opposite, beyond the interval)"
    return "not resolved (the interval spans 0)"


def svg_curve(path, title, series, xs_label="training examples (log scale)"):
    """series: list of (label, [(x, y, lo, hi)]), drawn with 95 % bars on a log x axis."""
    W, H, L, Rm, T, Bm = 560, 340, 60, 150, 30, 45
    xs = [p[0] for _, pts in series for p in pts]
    ys = [v for _, pts in series for p in pts for v in (p[2], p[3])]
    import math
    x0, x1 = math.log10(min(xs)) - 0.1, math.log10(max(xs)) + 0.1
    y0, y1 = 0.0, max(0.1, math.ceil(max(ys) * 10) / 10)
    X = lambda x: L + (math.log10(x) - x0) / (x1 - x0) * (W - L - Rm)
    Y = lambda y: H - Bm - (y - y0) / (y1 - y0) * (H - T - Bm)
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#7f7f7f", "#17becf"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="11">' % (W, H),
           '<text x="%d" y="18" font-size="13">%s</text>' % (L, title),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - Bm, W - Rm, H - Bm),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, T, L, H - Bm),
           '<text x="%d" y="%d">%s</text>' % (L + 100, H - 8, xs_label),
           '<text x="12" y="%d" transform="rotate(-90 12 %d)">success rate</text>' % (H // 2 + 30, H // 2 + 30)]
    for e in range(int(math.ceil(x0)), int(math.floor(x1)) + 1):
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>' % (X(10 ** e), H - Bm, X(10 ** e), H - Bm + 4))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">1e%d</text>' % (X(10 ** e), H - Bm + 16, e))
    k = 0
    while k <= round(y1 * 10):
        y = k / 10
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, Y(y), W - Rm, Y(y)))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.1f</text>' % (L - 4, Y(y) + 4, y))
        k += 1
    for i, (label, pts) in enumerate(series):
        c = colours[i % len(colours)]
        dash = ' stroke-dasharray="4 3"' if label.startswith("policy") else ""
        out.append('<polyline fill="none" stroke="%s"%s points="%s"/>' % (
            c, dash, " ".join("%.1f,%.1f" % (X(p[0]), Y(p[1])) for p in pts)))
        for p in pts:
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>' % (X(p[0]), Y(p[2]), X(p[0]), Y(p[3]), c))
            out.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (X(p[0]), Y(p[1]), c))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (W - Rm + 10, T + 14 * (i + 1), c, label))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    t5t, t5p = load("table-5-tsumogiri"), load("table-5-policy")
    logs = {n: train_log(n) for n in ("mcp-vs-tsumogiri", "mcp", "bcp")}
    p = print
    p("# Paper 000, table 5 and figures 3-5: MCP and BCP target mode\n")
    p("Generated by `sh reports/riichi-mcp-table-5/run.sh` (records, training, evaluation, this")
    p("page); the discussion is `reports/riichi-mcp-table-5/notes.md`, the evaluations' JSON and")
    p("text in `eval/`, the trainers' logs in `train/`. Do not edit this file by hand.\n")
    with open(os.path.join(R, "notes.md")) as f:
        notes = f.read().strip()
    intro, _, discussion = notes.partition("<!-- discussion -->")
    p(intro.strip() + "\n")

    p("## Table 5\n")
    p("Success rate: the share of hands the self player wins with at least h han (dora, red fives")
    p("and ura-dora counted), with a 95 % Wilson interval; target mode h aims at h. The difference")
    p("from the policy is paired on the same hands (normal 95 %% interval). Ours: %s hands of seed %d"
      % ("{:,}".format(t5t["hands"]), t5t["seed"]))
    p("per row; the paper: 10,000 hands per row, models trained on 10^8 examples. Ours are trained")
    p("on %s (tsumogiri opponents) and %s (policy opponents) examples.\n"
      % ("{:,}".format(trained_examples(logs["mcp-vs-tsumogiri"])), "{:,}".format(trained_examples(logs["mcp"]))))
    p("| model | opponents | h | ours | paper | ours − policy | paper − policy |")
    p("|---|---|---|---|---|---|---|")
    for opp, ev, models in (("tsumogiri", t5t, ["policy", "mcp"]), ("policy", t5p, ["policy", "mcp", "bcp"])):
        for m in models:
            for h in range(1, 5):
                r = row(ev, "policy" if m == "policy" else "%s-%d" % (m, h), h)
                paper = PAPER[(m, opp)][h - 1]
                name = {"policy": "one-player policy", "mcp": "MCP vs tsumogiri" if opp == "tsumogiri" else "MCP",
                        "bcp": "BCP"}[m]
                if m == "policy":
                    p("| %s | %s | %d | %s | %.4f | | |" % (name, opp, h, fmt_ci(r["rate"], r["ci"]), paper))
                else:
                    pd = paper - PAPER[("policy", opp)][h - 1]
                    p("| %s | %s | %d | %s | %.4f | %s | %+.4f |" % (
                        name, opp, h, fmt_ci(r["rate"], r["ci"]), paper,
                        fmt_ci(r["minus_policy"], r["minus_policy_ci"], True), pd))
    p("")

    p("### The paper's shapes\n")
    p("| shape | h | ours − policy | verdict |")
    p("|---|---|---|---|")
    for h in range(1, 5):
        r = row(t5t, "mcp-%d" % h, h)
        p("| vs tsumogiri, MCP above the policy | %d | %s | %s |" % (
            h, fmt_ci(r["minus_policy"], r["minus_policy_ci"], True), verdict(*r["minus_policy_ci"], 1)))
    for m in ("mcp", "bcp"):
        for h, want, text in ((1, -1, "below"), (2, -1, "below"), (4, 1, "above")):
            r = row(t5p, "%s-%d" % (m, h), h)
            p("| vs policy opponents, %s %s the policy | %d | %s | %s |" % (
                m.upper(), text, h, fmt_ci(r["minus_policy"], r["minus_policy_ci"], True),
                verdict(*r["minus_policy_ci"], want)))
    p("")

    p("## How each agent plays (the same hands)\n")
    p("Shares of the hands: with a call, with riichi, and, of the hands not won, those that ended")
    p("tenpai. Of the decisions with two candidates or more (`--compare`; the policy is asked at")
    p("each of target mode's decisions, its answer not played): the share where the two agree, where")
    p("target mode's hand after its move has a higher / lower shanten than the policy's, and the")
    p("share of those decisions at which each calls.\n")
    p("| opponents | agent | a call | riichi | tenpai at end | agrees | higher / lower shanten | calls: it / policy |")
    p("|---|---|---|---|---|---|---|---|")
    for opp, ev in (("tsumogiri", t5t), ("policy", t5p)):
        for a in ev["play"]:
            extra = "| | | |"
            if "agree" in a:
                extra = "| %.3f | %.3f / %.3f | %.3f / %.3f |" % (a["agree"], a["higher_shanten"], a["lower_shanten"],
                                                               a["calls"], a["policy_calls"])
            p("| %s | %s | %.3f | %.3f | %.3f %s" % (opp, a["agent"], a["hands_with_a_call"], a["hands_with_riichi"],
                                                     a["tenpai_at_end_of_lost"], extra))
    p("")

    p("## Figures 3-5: success against the number of training examples\n")
    p("Each point is target mode h with the snapshot of the model after that many training")
    p("examples (one pass, file order), evaluated on the first hands of seed 1001: %s hands for the"
      % "{:,}".format(load("curve-tsumogiri-%d" % snapshots("tsumogiri")[0])["hands"]))
    p("snapshots, %s for the last point (table 5's run). The policy's rate on the same hands is" % "{:,}".format(t5t["hands"]))
    p("given for each; it does not depend on the snapshot.\n")
    figs = (("3", "MCP vs tsumogiri", "tsumogiri", "mcp-vs-tsumogiri", "mcp", t5t),
            ("4", "MCP", "policy", "mcp", "mcp", t5p),
            ("5", "BCP", "policy", "bcp", "bcp", t5p))
    for num, title, opp, log, m, final in figs:
        n_final = trained_examples(logs[log])
        evs = [(s, load("curve-%s-%d" % (opp, s))) for s in snapshots(opp)] + [(n_final, final)]
        p("**Figure %s (%s, %s opponents).**\n" % (num, title, opp))
        p("| training examples | " + " | ".join("h = %d" % h for h in range(1, 5)) + " | policy h = 1 / 4 (same hands) |")
        p("|---|---|---|---|---|---|")
        series = [("%s h=%d" % (m.upper(), h), []) for h in range(1, 5)]
        for s, ev in evs:
            cells = []
            for h in range(1, 5):
                r = row(ev, "%s-%d" % (m, h), h)
                cells.append(fmt_ci(r["rate"], r["ci"]))
                series[h - 1][1].append((s, r["rate"], r["ci"][0], r["ci"][1]))
            p("| {:,} | ".format(s) + " | ".join(cells) + " | %.3f / %.3f |" % (
                row(ev, "policy", 1)["rate"], row(ev, "policy", 4)["rate"]))
        svg = "figure-%s.svg" % num
        svg_curve(os.path.join(R, svg), "Figure %s: %s (%s opponents)" % (num, title, opp), series)
        p("\n![figure %s](riichi-mcp-table-5/%s)\n" % (num, svg))
    p("## The models: held-out log loss and calibration\n")
    p("Held out: the hands with hand % 10 = 9 (the first 100,000 of them evaluated). Log loss of MCP")
    p("is −log P(label); of BCP the sum of the four binary losses. The bar to beat is the loss of")
    p("predicting the training labels' frequencies for every example (\"prior\", computed here from")
    p("the training labels).\n")
    for name, title in (("mcp-vs-tsumogiri", "MCP vs tsumogiri"), ("mcp", "MCP"), ("bcp", "BCP")):
        lg = logs[name]
        p("**%s.** `%s`. %s nonzero weights, SHA-256 `%s`, %.0f s of training CPU; prior %.4f.\n" % (
            title, lg["head"], "{:,}".format(lg["nnz"]), lg["sha"], lg["cpu"],
            prior_loss(lg, "bcp" if name == "bcp" else "mcp")))
        p("| training examples | held-out log loss |\n|---|---|")
        for n, loss in lg["curve"]:
            p("| {:,} | {:.4f} |".format(n, loss))
        p("\n<details><summary>calibration</summary>\n\n" + lg["calib"] + "\n\n</details>\n")
    if discussion.strip():
        p(discussion.strip())


if __name__ == "__main__":
    main()
