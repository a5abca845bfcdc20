#!/bin/sh
# The balance lab's part of `make bench` (docs/balance.md): the designer's
# loop of 10,000 paired Sea Merchants games with random bots, with one job
# and with two. Wall times (this machine is shared: they vary by 20% and
# more); the two runs must print the same result.
set -e
K=${KONTOR_PLAIN:-build/kontor}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
now() { date +%s.%N; }
run() {  # jobs
  t0=$(now)
  $K compare --a '' --b '--variant hand_limit:size=5' --games 10000 --seed 1 --jobs "$1" --json >"$out/jobs$1.json"
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
echo "== kontor compare: sea_merchants vs hand_limit:size=5, 10000 paired games (20000 games)"
one=$(run 1)
two=$(run 2)
cmp -s "$out/jobs1.json" "$out/jobs2.json" || { echo "jobs 1 and jobs 2 differ" >&2; exit 1; }
awk -v a="$one" -v b="$two" 'BEGIN {
  printf "jobs 1       %.2f s (%.0f games/s)\n", a, 20000 / a
  printf "jobs 2       %.2f s (%.0f games/s)\n", b, 20000 / b
  printf "speedup      %.2fx (the same result)\n", a / b
}'
