#!/bin/sh
# Plays our daifugo agents against the UECda 2014-2017 champion's own client (FujiGokoro or its
# 2017 version Blauweregen, built outside this repository: reports/daifugo-search/external/
# README.md) through `taikai serve` on 127.0.0.1 (issue 41). Run from the repository's root:
#
#   sh reports/daifugo-search/external/play.sh [options] [CHAMPION]
#
# CHAMPION (or the environment's CHAMPION): the built client, e.g.
# /work/ext/fujigokoro/out/client. It is started from the folder above its out/ (its checkout),
# where it reads its configuration and its parameters (param/).
#
# Options:
#   --spec FILE     the served tournament (reports/daifugo-search/external/serve-champion.json:
#                   ours x1 against 4 champions; serve-champion-x1.json: the reverse)
#   --games N       games to play: a multiple of 100, or fewer than 100 (one block of N);
#                   default: the spec's walls x 100
#   --out DIR       the run folder (runs/daifugo-search/SPEC-NAME); the clients' output and
#                   taikai serve's stderr go to DIR.clients/
#   --threads T     the champion's search threads (-th; default 1: one core per seat; 0: no
#                   -th at all, for a client without that option)
#   --cpu           measure each client's CPU with /usr/bin/time (DIR.clients/cpuK.txt) and
#                   print the CPU seconds per decision of the champion's seats
#   --logs[=FORM]   taikai serve --logs[=FORM] (every game as JSON lines in DIR/logs/;
#                   --logs=run,gz: one gzipped file, DIR/logs/run.jsonl.gz)
#   --records       taikai serve --records (every seat's decisions, the clients' included, in
#                   DIR/records.tkr: what daifugo_mcl_train learns from); with --logs=run,gz
#                   the log is small enough to keep, and daifugo_script makes the same records
#                   from it again (plugins/daifugo_script/README.md)
# Environment: TAIKAI (build/taikai), CHAMPION, CHAMPION_ARGS (more arguments for each client).
#
# Everything listens on or connects to 127.0.0.1 only (taikai serve --host 127.0.0.1, a port
# the kernel picks). Every process this script starts is stopped when it exits (trap).
set -eu

SPEC=reports/daifugo-search/external/serve-champion.json
GAMES=
OUT=
THREADS=1
CPU=0
LOGS=
RECORDS=
TAIKAI=${TAIKAI:-build/taikai}
CHAMPION=${CHAMPION:-}

usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --spec) SPEC=$2; shift 2 ;;
        --games) GAMES=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --threads) THREADS=$2; shift 2 ;;
        --cpu) CPU=1; shift ;;
        --logs|--logs=*) LOGS=$1; shift ;;
        --records) RECORDS=--records; shift ;;
        -h|--help) usage ;;
        -*) echo "play.sh: unknown option $1" >&2; usage ;;
        *) CHAMPION=$1; shift ;;
    esac
done

[ -n "$CHAMPION" ] || { echo "play.sh: no champion client (argument or CHAMPION=...)" >&2; usage; }
[ -x "$CHAMPION" ] || { echo "play.sh: $CHAMPION is not an executable" >&2; exit 2; }
[ -x "$TAIKAI" ] || { echo "play.sh: $TAIKAI not built (cmake --build build)" >&2; exit 2; }
[ -r "$SPEC" ] || { echo "play.sh: cannot read $SPEC" >&2; exit 2; }
if [ "$CPU" = 1 ] && [ ! -x /usr/bin/time ]; then
    echo "play.sh: --cpu needs /usr/bin/time (apt-get install time)" >&2; exit 2
fi
case $THREADS in ''|*[!0-9]*) echo "play.sh: --threads takes a number" >&2; exit 2 ;; esac

# The champion's checkout: the folder above out/client. A parameter file stored with Git LFS
# and left as its pointer would be read as weights (garbage), so refuse any pointer in param/.
# FujiGokoro's development version (lilovyy_config.txt) reads param/*.bin and runs with its
# parameters all 0 where one is missing: say so. (Blauweregen, its 2017 version, reads
# param/*_param.dat, plain text.)
CHDIR=$(cd "$(dirname "$CHAMPION")/.." && pwd)
CHBIN=$(cd "$(dirname "$CHAMPION")" && pwd)/$(basename "$CHAMPION")
for f in "$CHDIR"/param/*; do
    [ -f "$f" ] || continue
    if head -c 40 "$f" | grep -q 'git-lfs'; then
        echo "play.sh: $f is a Git LFS pointer, not the parameters:" \
             "fetch them (git lfs pull) or move the pointers out of param/" >&2
        exit 2
    fi
done
if [ -f "$CHDIR/lilovyy_config.txt" ]; then
    for f in play_policy.bin change_policy.bin est_score.bin; do
        [ -f "$CHDIR/param/$f" ] ||
            echo "play.sh: warning: $CHDIR/param/$f is missing: the champion plays without it" \
                 "(its parameters all 0: uniform playout and exchange policies)" >&2
    done
fi

NAME=$(basename "$SPEC" .json)
OUT=${OUT:-runs/daifugo-search/$NAME}
CL=$OUT.clients
mkdir -p "$CL"
CLABS=$(cd "$CL" && pwd)
rm -f "$CL"/client*.out "$CL"/cpu*.txt "$CL"/serve.out "$CL"/serve.err
# The external seats: one client each.
NEXT=$(grep -o '"external"[[:space:]]*:[[:space:]]*true' "$SPEC" | wc -l | tr -d ' ')
[ "$NEXT" -ge 1 ] || { echo "play.sh: $SPEC has no external seat" >&2; exit 2; }

PIDS=
# shellcheck disable=SC2317 # called by the traps
cleanup() {
    trap - EXIT INT TERM HUP
    for p in $PIDS; do
        # the client under /usr/bin/time is that process's child
        pkill -TERM -P "$p" 2>/dev/null || true
        kill -TERM "$p" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 129' HUP

set -- serve "$SPEC" --host 127.0.0.1 --port 0 --out "$OUT" --no-html
[ -n "$GAMES" ] && set -- "$@" --games "$GAMES"
[ -n "$LOGS" ] && set -- "$@" "$LOGS"
[ -n "$RECORDS" ] && set -- "$@" "$RECORDS"
"$TAIKAI" "$@" > "$CL/serve.out" 2> "$CL/serve.err" &
SERVE=$!
PIDS="$SERVE"

PORT=
i=0
while [ $i -lt 600 ]; do
    PORT=$(sed -n 's/^taikai serve: listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$CL/serve.err" | head -n 1)
    [ -n "$PORT" ] && break
    kill -0 "$SERVE" 2>/dev/null || { cat "$CL/serve.err" >&2; echo "play.sh: taikai serve ended before listening" >&2; exit 1; }
    sleep 0.1
    i=$((i + 1))
done
[ -n "$PORT" ] || { echo "play.sh: taikai serve did not listen within 60 s" >&2; exit 1; }
# The blocks a continued run kept (the server has cut its files back before listening): the
# clients' CPU is divided by the decisions of the blocks played from here on only.
KEPT=0
[ -f "$OUT/games.jsonl" ] && KEPT=$(wc -l < "$OUT/games.jsonl" | tr -d ' ')
TH=
[ "$THREADS" = 0 ] || TH="-th $THREADS"
echo "play.sh: taikai serve on 127.0.0.1:$PORT, $NEXT champion client(s) ($CHBIN $TH)" >&2

k=1
while [ "$k" -le "$NEXT" ]; do
    if [ "$CPU" = 1 ]; then
        # shellcheck disable=SC2086
        (cd "$CHDIR" && exec /usr/bin/time -f '%U %S' -o "$CLABS/cpu$k.txt" \
            "$CHBIN" -h 127.0.0.1 -p "$PORT" $TH ${CHAMPION_ARGS:-}) \
            > "$CL/client$k.out" 2>&1 &
    else
        # shellcheck disable=SC2086
        (cd "$CHDIR" && exec "$CHBIN" -h 127.0.0.1 -p "$PORT" $TH ${CHAMPION_ARGS:-}) \
            > "$CL/client$k.out" 2>&1 &
    fi
    PIDS="$PIDS $!"
    k=$((k + 1))
done

RC=0
wait "$SERVE" || RC=$?
# The clients exit once the server's final 2 has closed their connections.
for p in $PIDS; do
    [ "$p" = "$SERVE" ] && continue
    wait "$p" || echo "play.sh: a champion client (pid $p) exited with status $?" >&2
done
PIDS=
# taikai serve's tables, up to the paired differences (the whole of them in serve.out)
sed '/^paired differences/q' "$CL/serve.out" | sed '$d'

if [ "$CPU" = 1 ] && command -v python3 > /dev/null; then
    python3 - "$OUT" "$CL" "$NEXT" "$KEPT" <<'EOF'
import json, sys
out, cl, n, kept = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
spec = json.load(open(out + "/spec.json"))
ext = {i for i, a in enumerate(spec["agents"]) if a.get("external")}
decisions = 0
for line in open(out + "/games.jsonl").readlines()[kept:]:
    for s in json.loads(line)["seats"]:
        if s["agent"] in ext:
            decisions += s["plays"] + s["passes"]
cpu = 0.0
for k in range(1, n + 1):
    u, s = open(f"{cl}/cpu{k}.txt").read().split()[-2:]
    cpu += float(u) + float(s)
print(f"play.sh: champion clients: {cpu:.2f} CPU s over {decisions} plays and passes"
      f"{f' (the blocks played now; {kept} kept from before)' if kept else ''}: "
      f"{1000 * cpu / max(decisions, 1):.1f} ms a decision (exchanges and start-up included in the CPU)")
EOF
fi
echo "play.sh: taikai serve exited $RC; results in $OUT/ (summary.json, report.md, games.jsonl);" \
     "taikai serve's output (serve.out, serve.err) and the clients' in $CL/"
exit "$RC"
