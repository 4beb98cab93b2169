#!/usr/bin/env bash
# Runs goal-microbench benchmarks ROUNDS times each, one at a time, logging the load average before and after
# every run, so docs/BENCHMARKS.md can quote medians of independent runs and flag disturbed ones.
#
# Usage (from the repository root): Benchmarks/run-rounds.sh [OUT_DIR] [BENCHMARK...]
#   OUT_DIR defaults to .build/bench-rounds; benchmarks default to: conflict-engine row-changes wire reactive.
#   ROUNDS (environment) defaults to 3.
# It builds goal-microbench in release once (swift build -c release --package-path Benchmarks), then runs.
set -euo pipefail

out="${1:-.build/bench-rounds}"
shift || true
benchmarks=("$@")
if [ ${#benchmarks[@]} -eq 0 ]; then
    benchmarks=(conflict-engine row-changes wire reactive)
fi
rounds="${ROUNDS:-3}"
mkdir -p "$out"
swift build -c release --package-path Benchmarks --product goal-microbench

for name in "${benchmarks[@]}"; do
    for round in $(seq 1 "$rounds"); do
        log="$out/$name-$round.txt"
        {
            echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
            echo "# started: $(date -u +%FT%TZ)"
            # --skip-build: the one build above is not redone per run. /usr/bin/time's CPU share shows whether
            # the run had a core to itself (~100%) or was starved by other work on the machine.
            /usr/bin/time -f "# time: %e s elapsed, %U s user, %S s sys, %P CPU" \
                swift run -c release --skip-build --package-path Benchmarks goal-microbench "$name"
            echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
        } >"$log" 2>&1
        echo "$name round $round: $(grep -E '^# (load|time)' "$log" | tr '\n' ' ')"
    done
done
