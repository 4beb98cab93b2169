#!/usr/bin/env bash
# Runs one goal-load preset against NODES release goald nodes sharing a fresh PostgreSQL database (or one node on
# SQLite with NODES=sqlite), and reports what docs/BENCHMARKS.md quotes for issue 15: goal-load's report, each
# process's CPU time over the run, how busy the machine was, and each node's commit, fan-out and following figures
# from its /metrics.
#
# Usage (from the repository root; PostgreSQL runs need a cluster, which .ci/with-postgres starts and names in
# GOALD_TEST_POSTGRES_URL):
#   .ci/with-postgres Benchmarks/nodes.sh BIN_DIR NODES PRESET [goal-load arguments...]
#   Benchmarks/nodes.sh BIN_DIR sqlite PRESET [goal-load arguments...]
#     BIN_DIR: where release goald and goal-load are (e.g. .build/release after
#              `swift build -c release --product goald && swift build -c release --product goal-load`).
#     PRESET:  a goal-load preset (latency, contention, fanout, ...), e.g. `3 latency --protocol 2`.
#   GOALD_EXTRA (environment, optional): more arguments for every node, e.g. "--set eventLoopThreads=1".
# Each run gets its own database (dropped with the cluster), state directories and ports; the nodes share node 0's
# TLS material, as behind a load balancer. Nothing is left running.
set -euo pipefail

bin="$1"
nodes="$2"
preset="$3"
shift 3
work=$(mktemp -d)
pids=()
urls=()
cleanup() {
    if [ ${#pids[@]} -gt 0 ]; then kill "${pids[@]}" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

store=()
count="$nodes"
if [ "$nodes" = sqlite ]; then
    count=1
else
    : "${GOALD_TEST_POSTGRES_URL:?run it inside .ci/with-postgres, or pass NODES=sqlite}"
    psql=$(ls /usr/lib/postgresql/*/bin/psql | head -1)
    database="bench_$(date +%s)_$$"
    "$psql" "$GOALD_TEST_POSTGRES_URL" -qAt -c "create database $database" >/dev/null
    store=("GOALD_STORE_URL=${GOALD_TEST_POSTGRES_URL%/*}/$database")
fi

for n in $(seq 0 $((count - 1))); do
    port=$((20000 + RANDOM % 20000))
    mkdir -p "$work/s$n"
    if [ "$n" -gt 0 ]; then cp -r "$work/s0/tls" "$work/s$n/"; fi
    # shellcheck disable=SC2086  # GOALD_EXTRA is a list of arguments
    env "${store[@]}" GOALD_NODE_ID="node-$n" "$bin/goald" serve --state-dir "$work/s$n" --port "$port" \
        --set limits.mutationsPerSecond=100000 --set limits.mutationBurst=100000 \
        --set limits.framesPerSecond=100000 --set limits.frameBurst=100000 \
        --set limits.maxConnectionsPerToken=20000 --set limits.maxConnectionsPerIP=20000 \
        ${GOALD_EXTRA:-} >"$work/node$n.log" 2>&1 &
    pids+=($!)
    urls+=(--url "wss://127.0.0.1:$port")
    for _ in $(seq 1 150); do
        if [ -f "$work/s0/admin-token" ] && curl -sk "https://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
        sleep 0.2
    done
done

load_before=$(cut -d' ' -f1 /proc/loadavg)
stat_before=$(head -1 /proc/stat)
/usr/bin/time -f "%U %S" -o "$work/time" "$bin/goal-load" "${urls[@]}" --ca-file "$work/s0/tls/ca.pem" \
    --token-file "$work/s0/admin-token" --daemon-pid "${pids[0]}" --preset "$preset" --quiet "$@" >"$work/load.txt" 2>&1 ||
    { cat "$work/load.txt"; exit 1; }
stat_after=$(head -1 /proc/stat)

echo "nodes=$nodes preset=$preset $* (load average $load_before → $(cut -d' ' -f1 /proc/loadavg), $(date -u +%H:%M:%S) UTC)"
sed 's/^/    /' "$work/load.txt"
python3 - "$stat_before" "$stat_after" <<'PY'
import sys
a = [int(x) for x in sys.argv[1].split()[1:]]
b = [int(x) for x in sys.argv[2].split()[1:]]
d = [y - x for x, y in zip(a, b)]
# user nice system idle iowait irq softirq steal: steal is time the hypervisor gave another guest.
print(f"    machine: {100 * (sum(d) - d[3] - d[4] - d[7]) / sum(d):.0f} % of all cores busy over the run, "
      f"{100 * d[7] / sum(d):.0f} % stolen by the host")
PY
awk '{ printf "    CPU: goal-load %.1f s", $1 + $2 }' "$work/time"
if [ "$nodes" != sqlite ]; then
    for q in $(pgrep -x postgres); do cat "/proc/$q/stat" 2>/dev/null || true; done |
        awk '{ s += $14 + $15 } END { printf ", PostgreSQL %.1f s", s / 100 }'
fi
for n in "${!pids[@]}"; do awk -v n="$n" '{ printf ", node %d %.1f s", n, ($14 + $15) / 100 }' "/proc/${pids[$n]}/stat"; done
echo
token=$(cat "$work/s0/admin-token")
for n in "${!pids[@]}"; do
    curl -sk -H "Authorization: Bearer $token" "https://${urls[$((2 * n + 1))]#wss://}/metrics" >"$work/node$n.metrics"
done
python3 - "$work"/node*.metrics <<'PY'
import re, sys
for path in sys.argv[1:]:
    values = {}
    for line in open(path):
        if line.startswith('#') or not line.strip():
            continue
        key, _, value = line.rpartition(' ')
        values[key] = float(value)
    parts = []
    for name in ['goald_commit_latency_seconds', 'goald_fanout_delay_seconds']:
        count = values.get(name + '_count', 0)
        total = values.get(name + '_sum', 0)
        buckets = sorted((float(re.search(r'le="([^"]+)"', k).group(1)), v)
                         for k, v in values.items() if k.startswith(name + '_bucket') and '+Inf' not in k)
        def upper(p):
            return next((le for le, v in buckets if v >= p * count), float('inf'))
        parts.append(f"{name[6:-8]}: n={count:.0f} mean {1000 * total / max(count, 1):.1f} ms, "
                     f"p50 ≤ {1000 * upper(.5):g} ms, p99 ≤ {1000 * upper(.99):g} ms")
    for name in ['goald_commits_total', 'goald_foreign_commits_total', 'goald_rebased_batches_total',
                 'goald_notified_batches_total', 'goald_catch_up_reads_total']:
        parts.append(f"{name[6:-6]} {values.get(name, 0):.0f}")
    print(f"    {path.rsplit('/', 1)[-1].split('.')[0]}: " + '; '.join(parts))
PY
