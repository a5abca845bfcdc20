#!/bin/sh
# The instructions (callgrind) a rule script's call of a pile or counter
# method, or its read of one, costs through the engine (build/kontor), the
# sandbox's pairs, and making a constant option list against checking a
# plain one once (docs/performance.md, "Per-call costs" and "Reads of
# piles and counters"). The hash seed fixed, as
# tests/bench/engine_step.sh fixes it.
#   sh tests/bench/call_costs.sh [N]
set -e
cd "$(dirname "$0")/../.."
make -s build/fixed_time.so
N=${1:-5000}
ir() {
  FIXED_TIME=1 setarch -R env LD_PRELOAD=build/fixed_time.so valgrind --tool=callgrind --callgrind-out-file=/dev/null build/kontor run tests/bench/call_costs.lua "$1" "$2" 2>&1 |
    awk '/Collected/ {print $4}'
}
build/kontor run tests/bench/call_costs.lua list | while IFS= read -r op; do
  a=$(ir "$op" $N); b=$(ir "$op" $((2 * N)))
  printf '%8d  %s\n' $(( (b - a) / N )) "$op"
done
