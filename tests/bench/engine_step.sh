#!/bin/sh
# The engine's cost a step on the same games (tests/bench/same_games.lua:
# kontor minus the rule script alone), counted by callgrind without the
# noise of Lua's hash seed: each run with the addresses fixed (setarch -R)
# and the clock fixed (tests/bench/fixed_time.c), once for each of SEEDS
# seeds, and the mean. `make bench` counts the same thing with the seed left
# to chance (about 0.5% a run, which is some 400 Ir a step for Old World).
#   sh tests/bench/engine_step.sh RULES PLAYERS A B [SEEDS]
#   sh tests/bench/engine_step.sh old_world 4 5 20 3
#   sh tests/bench/engine_step.sh sea_merchants 4 10 40 3
# Instructions a game and a step are the difference between B and A games,
# divided by B - A (start-up does not count), as in make bench.
set -e
cd "$(dirname "$0")/../.."
rules=$1; players=$2; a=$3; b=$4; seeds=${5:-3}
if [ -z "$b" ]; then echo "usage: sh tests/bench/engine_step.sh RULES PLAYERS A B [SEEDS]" >&2; exit 2; fi
make -s build/fixed_time.so
ir() {
  FIXED_TIME=$seed setarch -R env LD_PRELOAD=build/fixed_time.so \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    build/kontor run tests/bench/same_games.lua "$1" "$players" "$2" "$rules" 2>&1 |
    awk '/Collected/ {print $4}'
}
steps() { build/kontor run tests/bench/same_games.lua kontor "$players" "$1" "$rules" | awk '{print $2}'; }
s=$(( $(steps "$b") - $(steps "$a") ))
k=0; p=0; each=""
seed=1
while [ "$seed" -le "$seeds" ]; do
  dk=$(( $(ir kontor "$b") - $(ir kontor "$a") ))
  dp=$(( $(ir plain "$b") - $(ir plain "$a") ))
  k=$((k + dk)); p=$((p + dp)); each="$each $(( (dk - dp) / s ))"
  seed=$((seed + 1))
done
echo "$rules ${players}p: kontor $((k / seeds / (b - a))) Ir a game, the rule script alone $((p / seeds / (b - a))) Ir," \
     "$((s / (b - a))) steps a game; engine $(( (k - p) / seeds / s )) Ir a step (seed by seed:$each)"
