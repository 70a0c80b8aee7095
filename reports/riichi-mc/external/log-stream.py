#!/usr/bin/env python3
"""log-stream.py LOG SEAT [HANDS]: the events of a taikai mjai log (one game) as SEAT sees them,
one event per line as a one-element JSON array (the first HANDS hands, default 1), then end_game."""
import json, sys
log, seat = sys.argv[1], int(sys.argv[2])
hands = int(sys.argv[3]) if len(sys.argv) > 3 else 1
done = 0
for line in open(log):
    e = json.loads(line)
    t = e["type"]
    if t == "start_game":
        e = {"type": "start_game", "id": seat, "names": ["player%d" % i for i in range(4)],
             "kyoku_first": e["kyoku_first"], "aka_flag": e["aka_flag"]}
    elif t == "start_kyoku":
        e["tehais"] = [h if i == seat else ["?"] * 13 for i, h in enumerate(e["tehais"])]
    elif t == "tsumo" and e["actor"] != seat:
        e["pai"] = "?"
    elif t in ("hora", "ryukyoku"):
        continue
    print(json.dumps([e]))
    if t == "end_kyoku":
        done += 1
        if done == hands:
            break
print(json.dumps([{"type": "end_game", "scores": [25000] * 4}]))
