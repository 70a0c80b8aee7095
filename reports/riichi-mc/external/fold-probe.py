#!/usr/bin/env python3
"""fold-probe.py DRIVER AKODIR LOG... -- does the bot fold? For every hand of the taikai mjai logs
(one game each, `taikai run ... --logs`) in which a seat R declares riichi, plays the hand's
events to the bot (DRIVER AKODIR: akochan_mjai and akochan's folder) as seat S = (R+1)%4, one
event per line as S sees them, and at each of S's draws after R's riichi was accepted checks the
discard the bot answers (the hand then goes on as logged) and the one logged:
  gen   genbutsu against R: a kind R discarded in the hand, or any seat discarded after R's riichi;
  safe  genbutsu, or suji of genbutsu (1-3 with n+3, 7-9 with n-3, 4-6 with both), or an honour
        with 3 copies in sight (S's hand and the discards).
Prints running counts per hand: dec (decisions), avail (decisions with a genbutsu in hand),
ako_gen/ako_safe (the bot's discards), log_gen/log_safe (the logged player's)."""
import json, subprocess, sys
drv, ako, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
def kind(p): return p[:-1] if p.endswith("r") else p
tot = dict(dec=0, ako_gen=0, avail=0, log_gen=0, ako_safe=0, log_safe=0, hands=0)
SU = "mps"
def safeish(p, safe, seen):
    k = kind(p)
    if k in safe: return True
    if k[-1] not in SU: return seen.get(k, 0) >= 3
    n, s = int(k[0]), k[1]
    g = lambda m: f"{m}{s}" in safe
    if n in (1, 2, 3): return g(n + 3)
    if n in (7, 8, 9): return g(n - 3)
    return g(n - 3) and g(n + 3)
for log in logs:
    ev = [json.loads(l) for l in open(log)]
    sg = ev[0]
    hands, cur = [], None
    for e in ev[1:]:
        if e["type"] == "start_kyoku": cur = [e]
        elif cur is not None:
            cur.append(e)
            if e["type"] == "end_kyoku": hands.append(cur); cur = None
    for h in hands:
        R = next((e["actor"] for e in h if e["type"] == "reach_accepted"), None)
        if R is None: continue
        S = (R + 1) % 4
        tot["hands"] += 1
        p = subprocess.Popen([drv, ako], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        def send(e):
            p.stdin.write(json.dumps([e]) + "\n"); p.stdin.flush(); return json.loads(p.stdout.readline())
        send({"type": "start_game", "id": S, "names": ["p0", "p1", "p2", "p3"],
              "kyoku_first": sg["kyoku_first"], "aka_flag": sg["aka_flag"]})
        hand, safe, accepted, seen = [], set(), False, {}
        for i, e in enumerate(h):
            t = e["type"]
            if t in ("hora", "ryukyoku"): break
            m = dict(e)
            if t == "start_kyoku":
                hand = list(e["tehais"][S])
                m["tehais"] = [x if j == S else ["?"] * 13 for j, x in enumerate(e["tehais"])]
            if t == "tsumo" and e["actor"] != S: m["pai"] = "?"
            if t == "tsumo" and e["actor"] == S: hand.append(e["pai"])
            a = send(m)
            if t == "dahai":
                seen[kind(e["pai"])] = seen.get(kind(e["pai"]), 0) + 1
                if e["actor"] == R or accepted: safe.add(kind(e["pai"]))
                if e["actor"] == S: hand.remove(e["pai"])
            if t == "reach_accepted" and e["actor"] == R: accepted = True
            if t == "tsumo" and e["actor"] == S and accepted:
                nxt = h[i + 1] if i + 1 < len(h) else {}
                tot["dec"] += 1
                tot["avail"] += any(kind(x) in safe for x in hand)
                if a.get("type") == "dahai" and kind(a["pai"]) in safe: tot["ako_gen"] += 1
                sn = dict(seen)
                for x in hand: sn[kind(x)] = sn.get(kind(x), 0) + 1
                if a.get("type") == "dahai" and safeish(a["pai"], safe, sn): tot["ako_safe"] += 1
                if nxt.get("type") == "dahai" and safeish(nxt["pai"], safe, sn): tot["log_safe"] += 1
                print("  hand", sorted(hand), "safe", sorted(safe), "ako", a, "log", nxt.get("pai"), "left", 70 - sum(1 for x in h[:i+1] if x["type"] == "tsumo"), flush=True)
                if nxt.get("type") == "dahai" and kind(nxt["pai"]) in safe: tot["log_gen"] += 1
        p.stdin.close(); p.wait()
        print(log.split("/")[-1], "riichi by", R, "akochan as", S, tot, flush=True)
print("final", tot)
