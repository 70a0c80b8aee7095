#!/bin/sh
# tests/daifugo/bench_cli.sh TAIKAI — `taikai bench daifugo` end to end, small: it exits 0 only
# if every playout finished and every determinisation succeeded; bad counts are refused with
# exit status 2 and a message naming the option and the value.
t="$1"
status=0
out=$("$t" bench daifugo --playouts 2000 --positions 200 --decisions 2 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL small bench exited $rc: $out"
  status=1
else
  for line in "random playouts" "games step by step" "determinizations" "Monte Carlo decisions"; do
    case "$out" in
    *"$line"*) echo "ok   '$line' reported" ;;
    *) echo "FAIL no '$line' line in: $out"; status=1 ;;
    esac
  done
fi
check_refused() { # ARGS... : expected message last
  msg="$1"
  shift
  err=$("$t" bench daifugo "$@" 2>&1 >/dev/null)
  rc=$?
  case "$err" in
  *"$msg"*) [ $rc -eq 2 ] && echo "ok   $* refused" || { echo "FAIL $*: exit $rc"; status=1; } ;;
  *) echo "FAIL $*: message '$err', expected '$msg'"; status=1 ;;
  esac
}
check_refused "--decisions: '0' is not a whole number from 1 to" --decisions 0
check_refused "--playouts: '12x' is not a whole number (see taikai bench daifugo --help)" --playouts 12x
check_refused "--positions needs a value (see taikai bench daifugo --help)" --positions
check_refused "unknown option '--games' (see taikai bench daifugo --help)" --games 3
exit $status
