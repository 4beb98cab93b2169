"""The named checks. Each returns {"name", "status": pass|fail|skip, "summary", "details": [...]}.

Thresholds are stated here and in README.md:
  latency       p99 of healthy readers' live deliveries < 1 s (all samples outside kill/restart windows, and
                those taken while a reader was stalled), at least 50 samples;
  open-files    every node back to its start-up baseline + FD_SLACK within FD_GRACE s after the clients left;
  no-leak       over the measured part of the leak phase (after its warm-up third): least-squares slope of VmRSS over
                the second half > LEAK_SLOPE MiB/min AND the last samples' median > the plateau (median of the first
                fifth) + LEAK_RISE MiB → fail. Both must hold, so one allocator step or a slow drift alone passes.
"""
import bisect
import statistics

LATENCY_P99 = 1.0
LATENCY_MIN_SAMPLES = 50
FD_SLACK = 2
FD_GRACE = 60.0
LEAK_SLOPE = 2.0  # MiB per minute
LEAK_RISE = 16.0  # MiB


def result(name, ok, summary, details=(), skip=False):
    return {"name": name, "status": "skip" if skip else ("pass" if ok else "fail"), "summary": summary,
            "details": list(details)}


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]


def check_no_crash(crashes, stops):
    """crashes: the exit watcher's records; stops: node -> exit status of the final graceful stop."""
    details = []
    for crash in crashes:
        details.append(f"{crash['node']} (pid {crash['pid']}, incarnation {crash['incarnation']}) {crash['status']} "
                       f"during {crash['phase']}; log {crash['log']}")
        details.extend(f"    | {line}" for line in crash.get("summary") or crash["log_tail"].splitlines()[-8:])
    bad_stops = {node: status for node, status in stops.items() if status not in ("exit 0", "not running")}
    for node, status in bad_stops.items():
        details.append(f"{node}: SIGTERM at the end gave {status} (expected exit 0)")
    ok = not crashes and not bad_stops
    summary = "no unexpected exit" if ok else f"{len(crashes)} unexpected exit(s)" + (
        f", {len(bad_stops)} bad stop(s)" if bad_stops else "")
    return result("no-crash", ok, summary, details)


def check_exactly_once(ledger, league, base_goals, snapshot, auditor):
    """Every acked mutation applied exactly once; in-doubt ones (never answered) counted as a range."""
    if snapshot is None:
        return result("exactly-once", False, "no final snapshot could be read", [])
    from soak_clients import NOOP, REJECTED
    with ledger.lock:
        details = list(ledger.violations[:20])
        pending = dict(ledger.pending)
        creates = dict(ledger.creates)
        totals = dict(ledger.totals)
        counts = dict(ledger.counts)
    players, matches = snapshot["players"], snapshot["matches"]
    # players and matches created by acked mutations exist (with their names); nothing unknown exists
    known_players = set(league.setup_players)
    known_matches = set(base_goals)
    expected = {}
    for (match_id, (home, away)) in base_goals.items():
        expected[(match_id, "home")] = [home, 0, 0]
        expected[(match_id, "away")] = [away, 0, 0]
    for (instance, seq), action in creates.items():
        state = ledger.state(instance, seq)
        if action["op"] == "create_player":
            known_players.add(action["id"])
            if state > 0:
                if action["id"] not in players:
                    details.append(f"acked create_player {action['id']} ({instance[:8]}#{seq}) is missing")
                elif players[action["id"]] != action["name"]:
                    details.append(f"player {action['id']} is named {players[action['id']]!r}, not {action['name']!r}")
        elif action["op"] == "create_match":
            known_matches.add(action["id"])
            if state > 0 and action["id"] not in matches:
                details.append(f"acked create_match {action['id']} is missing")
            if state != REJECTED:
                expected.setdefault((action["id"], "home"), [action["home_goals"], 0, 0])
                expected.setdefault((action["id"], "away"), [action["away_goals"], 0, 0])
    unknown_players = set(players) - known_players
    unknown_matches = set(matches) - known_matches
    if unknown_players:
        details.append(f"{len(unknown_players)} player(s) in the league that no mutation created")
    if unknown_matches:
        details.append(f"{len(unknown_matches)} match(es) in the league that no mutation created")
    # goals: base + acked deltas (+ a subset of in-doubt deltas)
    for key, total in totals.items():
        expected.setdefault(key, [0, 0, 0])[0] += total
    in_doubt_deltas = 0
    for action in pending.values():
        if action["op"] != "adjust_goals":
            continue
        in_doubt_deltas += 1
        entry = expected.setdefault((action["id"], action["side"]), [0, 0, 0])
        entry[1 if action["delta"] < 0 else 2] += action["delta"]
    wrong = 0
    for (match_id, side), (value, low, high) in sorted(expected.items()):
        if match_id not in matches:
            continue  # a pending create that did not happen, or reported above
        actual = matches[match_id][side]
        if not value + low <= actual <= value + high:
            wrong += 1
            if wrong <= 10:
                details.append(f"match {match_id[:8]} {side} goals {actual}, expected {value}"
                               + (f" ({low:+}…{high:+} in doubt)" if low or high else "") +
                               f": off by {actual - value}")
    # the auditor's view of the log: no (instance, seq) twice, acked ones at their revision, rejected ones absent
    audited = 0
    if auditor is not None and auditor.seen_ids is not None:
        details.extend(auditor.id_duplicates[:10])
        first = auditor.first_revision or 0
        with ledger.lock:
            revisions = {instance: values[:] for instance, values in ledger.revisions.items()}
        for instance, values in revisions.items():
            seen = auditor.seen_ids.get(instance)
            for seq, state in enumerate(values):
                at = seen[seq] if seen is not None and seq < len(seen) else 0
                if state > first and not any(low < state <= high for low, high in auditor.skipped):
                    audited += 1
                    if at == 0:
                        details.append(f"acked {instance[:8]}#{seq} (r{state}) never appeared in the stream")
                    elif at != state:
                        details.append(f"acked {instance[:8]}#{seq} at r{state} but the stream has it at r{at}")
                elif state in (REJECTED, NOOP) and at:
                    details.append(f"{instance[:8]}#{seq} answered {'rejected' if state == REJECTED else 'noop'} "
                                   f"but is in the stream at r{at}")
                if len(details) > 60:
                    break
    ok = not details
    summary = (f"{counts['acked']} acked, {counts['rejected']} rejected, {len(pending)} in doubt "
               f"({in_doubt_deltas} goal deltas); {len(expected)} match sides and {len(players)} players checked; "
               f"{audited} acked commits found once in the auditor's stream at their revision")
    if not ok:
        summary = f"{len(details)} problem(s): " + summary
    return result("exactly-once", ok, summary, details[:40])


def check_convergence(node_heads, healthy_readers):
    """node_heads: node -> {"healthz": (head, digest), "snapshot": (revision, digest)} (None when unreadable)."""
    details = []
    points = set()
    for node, heads in node_heads.items():
        for source, value in heads.items():
            if value is None:
                details.append(f"{node}: {source} unreadable")
            else:
                points.add(tuple(value))
    if len(points) > 1:
        details.append("nodes disagree: " + "; ".join(
            f"{node} {source} r{value[0]} {value[1][:12]}…" for node, heads in node_heads.items()
            for source, value in heads.items() if value))
    head = next(iter(points)) if len(points) == 1 else None
    for reader in healthy_readers:
        problems = []
        if reader.gaps:
            problems.append(f"{len(reader.gaps)} gap(s): {reader.gaps[:3]}")
        if reader.duplicates:
            problems.append(f"{len(reader.duplicates)} duplicate revision(s): {reader.duplicates[:5]}")
        if reader.chain_errors:
            problems.append(f"digest chain broken: {reader.chain_errors[:3]}")
        if head is not None and (reader.rev, reader.digest) != head:
            problems.append(f"ends at r{reader.rev} {str(reader.digest)[:12]}…, not the head r{head[0]}")
        if problems:
            details.append(f"{reader.name}: " + "; ".join(problems))
    ok = not details and head is not None
    summary = (f"{len(node_heads)} node(s) and {len(healthy_readers)} healthy reader(s) at r{head[0]} "
               f"{head[1][:16]}…" if ok else f"{len(details)} problem(s)")
    extra = [f"{r.name}: protocol {r.protocol}, {r.frames_total} changesets, {r.connections} connection(s)"
             + (", digest chain verified" if r.verify else "") for r in healthy_readers]
    return result("convergence", ok, summary, details + extra)


def _merged(windows):
    merged = []
    for start, end in sorted((w[0], w[1]) for w in windows):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def _inside(merged, starts, at):
    index = bisect.bisect_right(starts, at) - 1
    return index >= 0 and at <= merged[index][1]


def check_latency(healthy_readers, disruption_windows, stall_windows):
    """Live deliveries of healthy readers, split by when they arrived: during a disruption (excluded), during a
    stall of some other reader, or any other time."""
    disruptions, stalls = _merged(disruption_windows), _merged(stall_windows)
    d_starts, s_starts = [w[0] for w in disruptions], [w[0] for w in stalls]
    values, stall_values, excluded = [], [], []
    for reader in healthy_readers:
        for at, latency in zip(reader.latency_at, reader.latency):
            if _inside(disruptions, d_starts, at):
                excluded.append(latency)
                continue
            values.append(latency)
            if _inside(stalls, s_starts, at):
                stall_values.append(latency)
    if len(values) < LATENCY_MIN_SAMPLES:
        return result("latency", True, f"only {len(values)} live deliveries measured", skip=True)
    p50, p99, worst = percentile(values, 0.5), percentile(values, 0.99), max(values)
    details = [f"all live deliveries: {len(values)}, p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
               f"max {worst * 1000:.0f} ms"]
    ok = p99 < LATENCY_P99
    if stall_values:
        s99 = percentile(stall_values, 0.99)
        details.append(f"while a reader was stalled: {len(stall_values)}, p99 {s99 * 1000:.0f} ms, "
                       f"max {max(stall_values) * 1000:.0f} ms")
        if len(stall_values) >= LATENCY_MIN_SAMPLES:
            ok = ok and s99 < LATENCY_P99
    if excluded:
        details.append(f"excluded ({len(disruptions)} window(s): a node or PostgreSQL down, restarting or crashed, "
                       f"and 10–15 s after): {len(excluded)}, p99 {percentile(excluded, 0.99) * 1000:.0f} ms, "
                       f"max {max(excluded) * 1000:.0f} ms")
    summary = f"p99 {p99 * 1000:.0f} ms" + (
        f", during stalls {percentile(stall_values, 0.99) * 1000:.0f} ms" if stall_values else "") + \
        f" (limit {LATENCY_P99 * 1000:.0f} ms; arrival − the changeset's commit time)"
    return result("latency", ok, summary, details)


def check_open_files(fd_results):
    """fd_results: node -> (baseline, final, seconds waited, history) or None (not running)."""
    details, ok = [], True
    for node, value in fd_results.items():
        if value is None:
            ok = False
            details.append(f"{node}: not running at the end, open files not measurable")
            continue
        baseline, final, waited, clients, diff = value
        good = final is not None and final <= baseline + FD_SLACK and not clients
        ok = ok and good
        details.append(f"{node}: baseline {baseline}, after the clients left {final} with {clients} client "
                       f"connection(s) ({'within' if good else 'NOT within'} +{FD_SLACK} after {waited:.0f} s)")
        if diff:
            details.append(f"{node}: open now and not at the baseline: {diff}")
    return result("open-files", ok, "back to the baseline" if ok else "open files did not return to the baseline",
                  details)


def slope_mib_per_minute(samples):
    """Least-squares slope of [(seconds, KiB)] in MiB/min."""
    if len(samples) < 3:
        return 0.0
    xs = [t for t, _ in samples]
    ys = [kib / 1024.0 for _, kib in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    if den == 0:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den * 60.0


def check_no_leak(leak_samples, after_clients, phase_seconds):
    """leak_samples: node -> [(t, KiB)] over the leak phase; after_clients: node -> KiB once clients left."""
    if not leak_samples:
        return result("no-leak", True, "the leak phase did not run", skip=True)
    details, ok = [], True
    for node, samples in leak_samples.items():
        if len(samples) < 20:
            details.append(f"{node}: only {len(samples)} RSS samples (a restart during the phase?); not judged")
            continue
        start, end = samples[0][0], samples[-1][0]
        measured = [s for s in samples if s[0] >= start + (end - start) / 3]
        second_half = [s for s in measured if s[0] >= measured[0][0] + (end - measured[0][0]) / 2]
        plateau = statistics.median(kib for _, kib in measured[: max(3, len(measured) // 5)]) / 1024
        final = statistics.median(kib for _, kib in measured[-5:]) / 1024
        slope = slope_mib_per_minute(second_half)
        leaking = slope > LEAK_SLOPE and final - plateau > LEAK_RISE
        ok = ok and not leaking
        after = after_clients.get(node)
        details.append(f"{node}: plateau {plateau:.1f} MiB, final {final:.1f} MiB ({final - plateau:+.1f}), slope over "
                       f"the second half {slope:+.2f} MiB/min, peak {max(k for _, k in samples) / 1024:.1f} MiB"
                       + (f", after the clients left {after / 1024:.1f} MiB" if after else "")
                       + (" -> GROWING" if leaking else ""))
    if phase_seconds < 120:
        details.append(f"note: the leak phase lasted {phase_seconds:.0f} s; run --duration 3600 for a meaningful "
                       f"verdict (the phase is 30 % of the duration, 30–900 s)")
    summary = (f"RSS flat (limits: slope ≤ {LEAK_SLOPE} MiB/min or rise ≤ {LEAK_RISE} MiB)" if ok
               else "RSS keeps growing")
    return result("no-leak", ok, summary, details)


def check_hostile(outcomes, skipped):
    failures = [f"{episode}: {text}" for episode, ok, text in outcomes if not ok]
    details = failures[:30] + [f"NOTE {text}" for text in skipped]
    counts = {}
    for episode, _, _ in outcomes:
        counts[episode] = counts.get(episode, 0) + 1
    summary = (f"{len(outcomes)} expectation(s) over " +
               ", ".join(f"{name} ×{count}" for name, count in sorted(counts.items())))
    if failures:
        summary = f"{len(failures)} failed; " + summary
    if not outcomes:
        return result("hostile-outcomes", True, "no hostile episode ran", details, skip=True)
    return result("hostile-outcomes", not failures, summary, details)
