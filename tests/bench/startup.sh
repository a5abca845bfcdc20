#!/bin/sh
# tests/bench/startup.sh - the program's start-up, counted by callgrind
# (issue 25): instructions from exec to exit of
#   kontor --version            (limit 10,000,000)
#   kontor --list               (no limit: it runs every rule set's file)
#   kontor </dev/null           the REPL up to its first prompt, then the
#                               end of its input (limit 20,000,000)
# with the clock and the addresses fixed, so that the same build counts the
# same every run (build/fixed_time.so, docs/performance.md). Exits 1 when a
# count is over its limit. Needs valgrind (else it says so and exits 0).
#   sh tests/bench/startup.sh [KONTOR]        (default build/kontor)
cd "$(dirname "$0")/../.." || exit 2
KONTOR=${1:-build/kontor}
if ! command -v valgrind >/dev/null 2>&1; then
  echo "== start-up: valgrind is not installed (sh .ci/deps --test): no counts"
  exit 0
fi
[ -f build/fixed_time.so ] || make --no-print-directory build/fixed_time.so >/dev/null || exit 2

count() {  # command... -> instructions
  FIXED_TIME=1 setarch -R env LD_PRELOAD=build/fixed_time.so \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null </dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "== start-up: instructions from exec to exit (callgrind; docs/performance.md, \"Start-up\")"
status=0
commas() { printf '%d' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
line() {  # label, limit (0: none), command...
  label=$1 limit=$2; shift 2
  n=$(count "$@")
  if [ -z "$n" ]; then
    printf '%-28s no count (callgrind failed)\n' "$label"
    status=1
    return
  fi
  verdict=""
  if [ "$limit" -gt 0 ]; then
    if [ "$n" -le "$limit" ]; then verdict="under the limit $(commas "$limit")"
    else verdict="OVER the limit $(commas "$limit")"; status=1; fi
  fi
  printf '%-28s %12s  %s\n' "$label" "$(commas "$n")" "$verdict" | sed 's/ *$//'
}
line "kontor --version" 10000000 "$KONTOR" --version
line "kontor --list" 0 "$KONTOR" --list
line "kontor (REPL, first prompt)" 20000000 "$KONTOR"
exit $status
