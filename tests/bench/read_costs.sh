#!/bin/sh
# The instructions (callgrind) a rule script's read of a pile or a counter
# costs through the engine (build/kontor), and the sandbox's pairs
# (docs/performance.md, "Reads of piles and counters").
#   sh tests/bench/read_costs.sh
set -e
cd "$(dirname "$0")/../.."
N=20000
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null build/kontor run tests/bench/read_costs.lua "$1" "$2" 2>&1 |
    awk '/Collected/ {print $4}'
}
build/kontor run tests/bench/read_costs.lua list | while IFS= read -r op; do
  a=$(ir "$op" $N); b=$(ir "$op" $((2 * N)))
  printf '%8d  %s\n' $(( (b - a) / N )) "$op"
done
