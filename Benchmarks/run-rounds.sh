#!/usr/bin/env bash
# Runs goal-microbench benchmarks ROUNDS times each, one at a time, logging the load average before and after
# every run, so docs/BENCHMARKS.md can quote medians of independent runs and flag disturbed ones.
#
# Usage (from the repository root): Benchmarks/run-rounds.sh [OUT_DIR] [BENCHMARK...]
#   OUT_DIR defaults to .build/bench-rounds; benchmarks default to: conflict-engine row-changes wire reactive.
#   ROUNDS (environment) defaults to 3.
#   MAX_LOAD (environment, optional): before each run, wait (up to 20 minutes) until the 1-minute load average is
#   below it, so runs start on a quiet machine when other work shares it.
#   NICE (environment, optional): a niceness for the runs, e.g. -20 (root only) so that compilers sharing the
#   machine yield the core to the benchmark; they still run on the other core.
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
        if [ -n "${MAX_LOAD:-}" ]; then
            for _ in $(seq 1 120); do
                awk -v max="$MAX_LOAD" '{ exit !($1 < max) }' /proc/loadavg && break
                sleep 10
            done
        fi
        {
            echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
            echo "# started: $(date -u +%FT%TZ)"
            # --skip-build: the one build above is not redone per run. /usr/bin/time's CPU share shows whether
            # the run had a core to itself (~100%) or was starved by other work on the machine.
            echo "# niceness: ${NICE:-0}"
            nice -n "${NICE:-0}" /usr/bin/time -f "# time: %e s elapsed, %U s user, %S s sys, %P CPU" \
                swift run -c release --skip-build --package-path Benchmarks goal-microbench "$name"
            echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
        } >"$log" 2>&1
        echo "$name round $round: $(grep -E '^# (load|time)' "$log" | tr '\n' ' ')"
    done
done
