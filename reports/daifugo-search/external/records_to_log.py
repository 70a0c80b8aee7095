#!/usr/bin/env python3
"""A daifugo record set in which every seat's decisions were recorded (five external clients
through `taikai serve --records`, say) rewritten as the actions of a game log, which
daifugo_script follows (plugins/daifugo_script/README.md):

    build/taikai records RUN --dump | python3 records_to_log.py NAME1 ... NAME5 > actions.jsonl

NAMEi is the label of player id i (agents[i] of the recorded spec). The output holds only what
daifugo_script reads: a start_block line per unit (a seated run's unit is its block) and a
give, pass or play line per decision, in the records' order. It is not a full log (no deals,
no results: `taikai replay` does not accept it). A run of the recorded spec with each agent
daifugo_script following its own label in it, with `--logs=run,gz --records`, writes the full
log and the record set again; where that record set is the original's byte for byte (`cmp`),
the full log is all a repository needs to keep. Forced passes are recorded as decisions like any
other, so nothing is missing; a record set of only some seats cannot be rewritten this way."""
import json
import re
import sys

VIEW = re.compile(r"^game (\d+), player (\d)")


def main(argv):
    if len(argv) != 6 or argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 2
    names = argv[1:]
    unit = None
    for n, line in enumerate(sys.stdin, 1):
        d = json.loads(line)
        m = VIEW.match(d["view"])
        if not m:
            sys.stderr.write("records_to_log.py: line %d: not a daifugo decision: %.80s\n"
                             % (n, d["view"]))
            return 1
        if d["unit"] != unit:
            unit = d["unit"]
            print(json.dumps({"type": "start_block", "game": "daifugo", "block": unit,
                              "names": names}))
        game, player, action = int(m.group(1)), int(m.group(2)), d["action"]
        if action == "pass":
            e = {"type": "pass", "game": game, "player": player}
        elif action.startswith("give "):
            e = {"type": "give", "game": game, "player": player, "card": action[5:]}
        else:
            e = {"type": "play", "game": game, "player": player, "cards": action}
        print(json.dumps(e))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
