#!/bin/sh
# tests/riichi/mjai_proc_bot.sh -- tests/riichi/mjai_bot.py behind a wrapper that shows how the
# riichi_mjai bridge starts and stops bot processes.
#   mjai_proc_bot.sh DIR [--daemon] [mjai_bot.py options]
# Appends "PID SIGIGN SIGBLK" to DIR/bots: its pid and its ignored and blocked signal sets as
# /proc shows them before an interpreter changes any (python3 itself ignores SIGPIPE and SIGXFSZ).
# With --daemon, starts a daemon in a session of its own whose parent ends at once (setsid -f),
# its descriptors on /dev/null, that writes its pid to DIR/daemon-PID and sleeps 300 s. Then runs
# python3 mjai_bot.py with the other options, in the same process.
dir=$1
shift
echo "$$ $(awk '/^SigIgn:/ {i = $2} /^SigBlk:/ {b = $2} END {print i, b}' /proc/$$/status)" >> "$dir/bots"
if [ "$1" = --daemon ]; then
  shift
  setsid -f sh -c 'echo $$ > "$1"; exec sleep 300' sh "$dir/daemon-$$" < /dev/null > /dev/null 2>&1
fi
exec python3 "$(dirname "$0")/mjai_bot.py" "$@"
