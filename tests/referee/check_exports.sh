#!/bin/sh
# tests/referee/check_exports.sh PLUGIN.so... — each plugin must export exactly one symbol of its
# own, taikai_agent_entry (built with -fvisibility=hidden; see plugins/CMakeLists.txt).
status=0
for so in "$@"; do
  syms=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort)
  if [ "$syms" != "taikai_agent_entry" ]; then
    echo "FAIL $so exports: $(echo $syms | tr '\n' ' ') (expected only taikai_agent_entry)"
    status=1
  else
    echo "ok   $so exports only taikai_agent_entry"
  fi
done
exit $status
