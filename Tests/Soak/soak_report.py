"""Turning a finished run into check results, the printed report and the JSON report."""
import json

import soak_checks
import soak_leagues


def log(text):
    print(f"soak: {text}", flush=True)


def evaluate(h, final, stops):
    auditor = h.readers[0] if h.readers else None
    snapshot = final["snapshots"].get(h.nodes[0].name) if final else None
    if snapshot is None and final:
        snapshot = next((s for s in final["snapshots"].values() if s), None)
    checks = [soak_checks.check_no_crash(h.cluster.crashes, stops)]
    if final is None:
        return checks
    checks.append(soak_checks.check_exactly_once(h.ledger, h.league, h.base_goals, snapshot, auditor))
    checks.append(soak_checks.check_convergence(final["node_heads"], h.readers))
    checks.append(soak_checks.check_latency(h.readers, h.disruption_windows, h.stall_windows))
    checks.append(soak_checks.check_open_files(final["fds"]))
    leak = {}
    for (name, incarnation), samples in h.leak_samples.items():
        if len(samples) > len(leak.get(name, [])):
            leak[name] = samples
    checks.append(soak_checks.check_no_leak(leak, final["rss_after"], h.leak_seconds))
    checks.append(soak_checks.check_hostile(h.outcomes, h.skipped))
    for side in h.sides:
        checks.append(soak_leagues.check_league(h, side, snapshot))
    return checks


def print_report(checks, h, elapsed, report_path, interrupted):
    log(f"--- report: seed {h.seed}, {len(h.nodes) if h.cluster else '?'} node(s), {elapsed:.0f} s end to end")
    for check in checks:
        mark = {"pass": "PASS", "fail": "FAIL", "skip": "skip"}[check["status"]]
        log(f"{mark} {check['name']:<17} {check['summary']}")
        for line in check["details"][: (40 if check["status"] == "fail" else 8)]:
            log(f"       {line}")
    writers = [{"name": w.name, "instance": w.instance, **{k: v for k, v in w.stats.items()}} for w in h.writers]
    for writer in writers:
        log(f"     {writer['name']}: sent {writer['sent']}, acks {writer['acks']}, rejected {writer['rejected']}, "
            f"resent {writer['resent']}, reconnects {writer['reconnects']}, closes {writer['closes']}")
    if h.ledger.rejections:
        log(f"     rejections by code: {h.ledger.rejections}")
    passed = sum(1 for c in checks if c["status"] == "pass")
    failed = sum(1 for c in checks if c["status"] == "fail")
    skipped = sum(1 for c in checks if c["status"] == "skip")
    if interrupted:
        log("interrupted: the report is partial")
    if skipped:
        log(f"({skipped} check(s) skipped)")
    if report_path:
        report = {"seed": h.seed, "nodes": h.args.nodes, "duration": h.args.duration, "scenario": h.args.scenario,
                  "elapsed_seconds": round(elapsed, 1), "interrupted": interrupted, "checks": checks,
                  "passed": passed, "failed": failed, "skipped": skipped, "writers": writers,
                  "crashes": h.cluster.crashes if h.cluster else [],
                  "stalled_reader": h.stalled_reader_result, "schedule": h.schedule, "skipped_steps": h.skipped,
                  "rejections": h.ledger.rejections,
                  "leagues": [{"slug": side.slug, "writers": [{"name": w.name, "instance": w.instance, **w.stats}
                                                              for w in side.writers],
                               "rejections": side.ledger.rejections, "probes": side.probes} for side in h.sides], "rejection_samples": h.ledger.rejection_samples,
                  "samples": [list(s) for s in h.samples[:: max(1, len(h.samples) // 4000)]]}
        with open(report_path, "w") as handle:
            json.dump(report, handle, indent=1, default=str)
    print(f"soak: {passed} passed, {failed} failed", flush=True)
    return failed
