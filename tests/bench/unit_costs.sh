#!/bin/sh
# The instructions (callgrind) one operation of plain Lua costs, as a rule
# script uses them: a loop's step, a function call, a table, an option made
# as a table, ipairs against a numeric for (docs/performance.md).
#   sh tests/bench/unit_costs.sh
set -e
cd "$(dirname "$0")/../.."
N=100000
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null lua5.4 tests/bench/unit_costs.lua "$1" "$2" 2>&1 |
    awk '/Collected/ {print $4}'
}
lua5.4 tests/bench/unit_costs.lua list | while IFS= read -r op; do
  a=$(ir "$op" $N); b=$(ir "$op" $((2 * N)))
  printf '%8d  %s\n' $(( (b - a) / N )) "$op"
done
