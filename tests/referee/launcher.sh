#!/bin/sh
# tests/referee/launcher.sh — starts a program the way a launcher such as pyenv's shim does:
# first some short helper processes, each computing a little and exiting, then the program
# itself (exec, so it keeps this process). Used by test_ref_load: beside a CPU hog the helpers
# wait long for a CPU and take that wait with them when they exit, which the idle backstop must
# not count as idle time (docs/referee.md, "Time limits").
n=0
while [ $n -lt 10 ]; do
  sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
  n=$((n+1))
done
exec "$@"
