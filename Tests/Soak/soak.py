#!/usr/bin/env python3
"""goald soak harness: starts goald (1 node on SQLite, or 3 on one PostgreSQL), drives it with well-behaved and
hostile clients on a schedule fixed by --seed, and checks that it survives and stays correct. Beside the default
league it serves a second one, soak-b, with clients of its own, and checks that nothing crosses between them
(soak_leagues.py; --leagues 1: the default league alone). See README.md.

    python3 Tests/Soak/soak.py --goald .build-release/release/goald --duration 300 --seed 7
    python3 Tests/Soak/soak.py --goald … --scenario stalled-reader --seed 1
    python3 Tests/Soak/soak.py --goald … --nodes 3 --postgres-url "$GOALD_TEST_POSTGRES_URL" --duration 600
    python3 Tests/Soak/soak.py --goald … --leagues 1 --duration 300 --seed 7

Python 3 standard library only; every connection goes to 127.0.0.1.
"""
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the repository

import argparse
import json
import os
import random
import shutil
import signal
import tempfile
import threading
import time
import traceback

import soak_checks
import soak_hostile
import soak_leagues
import soak_report
from soak_clients import Ledger, League, Reader, Writer, apply_actions, read_snapshot, seeded_uuid
from soak_daemon import Cluster, Postgres, signal_name
from soak_ws import WSClosed

PHASES = ["stalled-reader", "mixed", "leak"]


def log(text):
    print(f"soak: {text}", flush=True)


class Harness:
    def __init__(self, args, seed):
        self.args = args
        self.seed = seed
        self.rng = random.Random(seed)  # the schedule
        self.client_rng = random.Random(seed * 7919 + 1)  # client identities and their own generators
        self.ledger = Ledger()
        self.league = League()
        self.base_goals = {}
        self.tokens = {}
        self.token_counter = 0
        self.token_lock = threading.Lock()
        self.writers = []
        self.readers = []
        self.sides = []  # soak_leagues.LeagueSide: the leagues beside the default one (--leagues N: N - 1 of them)
        self.outcomes = []  # (episode, ok, text)
        self.skipped = []
        self.episode_threads = []
        self.disruptions = 0
        self.disrupted_until = 0.0
        self.disruption_windows = []  # [start, end]: a node or PostgreSQL down/restarting (+ a tail after)
        self.stall_windows = []  # [start, end]: some reader not reading
        self.stalls = 0
        self.stall_lock = threading.Lock()
        self.idle_timeout = 40
        self.samples = []  # (t, phase, node, rss KiB, fds)
        self.leak_samples = {}
        self.leak_seconds = 0.0
        self._phase = "setup"
        self.stop_sampling = threading.Event()
        self.postgres = None
        self.cluster = None
        self.epoch = None
        self.revivals = 0
        self.schedule = []
        self.stalled_reader_result = None
        self.timings = {}

    @property
    def phase(self):
        return self._phase

    @phase.setter
    def phase(self, value):
        self._phase = value
        if self.cluster is not None:
            self.cluster.phase = value

    # -- what clients call ---------------------------------------------------------------------------------------

    @property
    def nodes(self):
        return self.cluster.nodes

    def disrupted(self):
        return self.disruptions > 0 or time.time() < self.disrupted_until

    def disrupt(self, on, tail=10):
        with self.stall_lock:
            if on:
                self.disruptions += 1
                self.disruption_windows.append([time.time(), float("inf")])
            else:
                self.disruptions -= 1
                self.disrupted_until = max(self.disrupted_until, time.time() + tail)
                for window in reversed(self.disruption_windows):
                    if window[1] == float("inf"):
                        window[1] = time.time() + tail
                        break

    def stalls_active(self):
        return self.stalls > 0

    def stall_started(self):
        with self.stall_lock:
            self.stalls += 1
            window = [time.time(), float("inf")]
            self.stall_windows.append(window)
            return window

    def stall_ended(self, window=None):
        with self.stall_lock:
            self.stalls -= 1
            if window is not None:
                window[1] = time.time()

    def new_token_name(self, prefix):
        with self.token_lock:
            self.token_counter += 1
            return f"soak-{prefix}-{self.token_counter}"

    def fresh_token(self, role, prefix="client"):
        name = self.new_token_name(prefix)
        return name, self.cluster.token(name, role)

    def revoke(self, name):
        self.cluster.revoke(name)

    def checkpoint(self, back):
        """(revision, digest, epoch) about `back` revisions behind the auditor's head, for resuming with old since."""
        auditor = self.readers[0] if self.readers else None
        if auditor is None or not auditor.checkpoints or auditor.epoch is None:
            return None
        points = sorted(list(auditor.checkpoints.items()))
        target = (auditor.rev or 0) - back
        chosen = points[0]
        for revision, digest in points:
            if revision <= target:
                chosen = (revision, digest)
        return chosen[0], chosen[1], auditor.epoch

    def harness_error(self, where, error):
        text = "".join(traceback.format_exception(error)).strip()
        log(f"!!! harness error in {where}: {text}")
        self.outcomes.append(("harness", False, f"{where}: {type(error).__name__}: {error}"))

    def baseline_note(self, node):
        node.note_baseline()
        log(f"{node.name} is back (pid {node.pid}, baseline {node.baseline_fds} open files without client connections)")

    # -- set-up --------------------------------------------------------------------------------------------------

    def start(self, workdir):
        store_url = None
        if self.args.nodes > 1:
            url = self.args.postgres_url or os.environ.get("GOALD_TEST_POSTGRES_URL")
            if not url:
                raise SystemExit("soak: --nodes 3 needs --postgres-url (or GOALD_TEST_POSTGRES_URL)")
            self.postgres = Postgres(url, self.args.pg_dir or os.environ.get("GOALD_PG_DIR"))
            store_url = self.postgres.create_database(f"goald_soak_{self.seed}_{os.getpid()}")
            log(f"PostgreSQL database {self.postgres.database or '(as given)'}")
            command, why = self.postgres.restart_plan()
            if command is None:
                log(f"!!! PostgreSQL restarts will be SKIPPED: {why}")
        extra = list(self.args.set or [])
        if self.args.leagues > 1 and not any(item.startswith("leagues.idleSeconds=") for item in extra):
            # the other leagues are unloaded soon after their clients leave, within the open-files check's grace
            extra.append(f"leagues.idleSeconds={soak_leagues.IDLE_SECONDS}")
        self.cluster = Cluster(self.args.goald, workdir, self.args.nodes, store_url, self.args.log_level, extra)
        self.cluster.start()
        time.sleep(1.0)
        for node in self.nodes:
            node.note_baseline()
            log(f"{node.name}: pid {node.pid}, wss://127.0.0.1:{node.port}, {node.baseline_fds} open files, "
                f"RSS {node.rss_kib() / 1024:.1f} MiB, log {node.log_path}")
        threading.Thread(target=self._sample, name="sampler", daemon=True).start()
        self.tokens["reader"] = self.cluster.token("soak-reader", "viewer")
        self.tokens["writer-extra"] = self.cluster.token("soak-writer-extra", "editor")
        self._setup_league()

    def _setup_league(self):
        """40 players and 6 matches of 20 against 20 (so one adjust_goals changeset is ~8 KB), goals at 500."""
        rng = random.Random(self.seed + 17)
        node = self.nodes[0]
        instance = seeded_uuid(rng)
        actions = []
        players = []
        for i in range(self.args.players):
            pid = seeded_uuid(rng)
            players.append(pid)
            actions.append({"op": "create_player", "id": pid, "name": f"soak-{i:02d}"})
        half = self.args.players // 2
        for _ in range(self.args.matches):
            shuffled = list(players)
            rng.shuffle(shuffled)
            actions.append({"op": "create_match", "id": seeded_uuid(rng), "home_players": shuffled[:half],
                            "away_players": shuffled[half:2 * half], "home_goals": 500, "away_goals": 500})
        for i in range(self.args.bench_players):  # in no match: they only make snapshots span several chunks
            actions.append({"op": "create_player", "id": seeded_uuid(rng), "name": f"bench-{i:05d}"})
        answers, self.epoch = apply_actions(node, self.cluster.admin_token, instance, actions)
        failed = [m for m in answers.values() if m["type"] != "ack"]
        if len(answers) < len(actions) or failed:
            raise RuntimeError(f"league set-up failed: {len(answers)}/{len(actions)} answered, refusals {failed[:3]}")
        for action in actions:
            if action["op"] == "create_player":
                self.league.players[action["id"]] = action["name"]
                self.league.setup_players.append(action["id"])
            else:
                self.league.matches[action["id"]] = {"home": 500, "away": 500, "size": half}
                self.league.big_matches.append(action["id"])
                self.base_goals[action["id"]] = (500, 500)
        log(f"league: {self.args.players} players, {self.args.matches} matches of {half} against {half}, "
            f"{self.args.bench_players} players on the bench "
            f"(head r{max(m['revision'] for m in answers.values())})")

    def start_clients(self):
        n = len(self.nodes)
        specs = [("auditor", 1, True, True, 0), ("reader-2", 1, False, False, 1 % n), ("reader-3", 2, False, False, 2 % n)]
        for name, protocol, verify, audit, node in specs:
            reader = Reader(self, name, self.tokens["reader"], self.client_rng.randrange(1 << 62), protocol=protocol,
                            verify=verify, audit=audit, healthy=True, start_node=node, presence="all")
            reader.start()
            self.readers.append(reader)
        for i in range(self.args.writers):
            token = self.fresh_token("editor", f"writer-{i + 1}")
            writer = Writer(self, i + 1, token, self.client_rng.randrange(1 << 62), rate=0, start_node=i % n)
            writer.start()
            self.writers.append(writer)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(r.mode != "live" for r in self.readers):
            time.sleep(0.1)
        log(f"{len(self.readers)} healthy readers live (protocols {[r.protocol for r in self.readers]}), "
            f"{len(self.writers)} writers connected")

    def start_leagues(self):
        """The leagues beside the default one, each with its own writers and readers (soak_leagues)."""
        for index in range(self.args.leagues - 1):
            side = soak_leagues.LeagueSide(self, index)
            self.sides.append(side)
            side.start()

    def set_writers(self, rate, mode):
        for writer in self.writers:
            writer.rate = rate
            writer.mode = mode
        for side in self.sides:  # their own rate; creations only in the mixed phase, as the default league's
            side.set_mode(mode)

    # -- sampling and crashes ------------------------------------------------------------------------------------

    def _sample(self):
        while not self.stop_sampling.wait(1.0):
            now = time.time()
            for node in self.nodes:
                if not node.alive():
                    continue
                rss, fds = node.rss_kib(), node.fd_count()
                self.samples.append((round(now, 1), self.phase, node.name, rss, fds))
                if self.phase == "leak" and rss:
                    self.leak_samples.setdefault((node.name, node.incarnation), []).append((now, rss))

    def revive(self):
        """Restarts crashed nodes (each crash stays recorded for the no-crash check) so the run can go on."""
        if self.cluster.crash_count() > self.revivals:
            self.revivals = self.cluster.crash_count()
            if self.revivals > self.args.max_revivals:
                raise RuntimeError(f"{self.revivals} unexpected exits: giving up")
            names = self.cluster.revive_crashed()
            for node in self.nodes:
                if node.name in names:
                    node.note_baseline()
            # a crash is reported by no-crash; the deliveries it delayed say nothing more about latency. The
            # exit is noticed after the runtime's backtrace (~10 s), so the window starts well before it.
            for crash in self.cluster.crashes:
                if not crash.get("window"):
                    crash["window"] = True
                    self.disruption_windows.append([crash["at"] - 20, time.time() + 15])
            if names:
                log(f"restarted {', '.join(names)} after its crash; the run goes on")

    def wait(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.revive()
            time.sleep(min(0.5, max(0.0, end - time.monotonic())))

    # -- phases --------------------------------------------------------------------------------------------------

    def phase_stalled_reader(self, seconds):
        """Issue 34 point 3: 3 writers × 110 adjust_goals/s on 8 KB changesets, 3 readers reading, and one
        `stream:"all"` reader with SO_RCVBUF=4096 that goes live and stops reading."""
        self.phase = "stalled-reader"
        rate = self.args.stall_rate
        log(f"phase stalled-reader: {len(self.writers)} writers × {rate}/s adjust_goals, 1 reader with SO_RCVBUF=4096 "
            f"stops reading once live ({seconds:.0f} s)")
        self.set_writers(rate, "adjust")
        self.wait(3)
        crashes_before = self.cluster.crash_count()
        stalled = Reader(self, "stalled-reader", self.tokens["reader"], self.client_rng.randrange(1 << 62),
                         protocol=1, healthy=False, start_node=0, rcvbuf=4096,
                         stall={"at": "live", "after": 0, "seconds": max(5.0, seconds - 8), "then": "resume"})
        began = time.time()
        stalled.start()
        self.wait(max(5.0, seconds - 3))
        stalled.stop_event.set()
        stalled.join(timeout=15)
        self.cluster.await_dying()  # a node that is still printing its backtrace has crashed all the same
        crashed = self.cluster.crashes[crashes_before:]
        codes = [code for _, code, _ in stalled.closes]
        if crashed:
            first = crashed[0]
            said = [line for line in first["summary"] if "Fatal" in line or "slow_consumer" in line]
            text = (f"{first['node']} {first['status']} (noticed {first['at'] - began:.1f} s after the stalled reader "
                    f"connected, backtrace included); its log: " + " / ".join(said[-3:]))
            ok = False
        else:
            # the fix must still cut the reader (4008, or the reset 5 s later), not let its queue grow unbounded
            cut = [c for _, c, reason in stalled.closes if c in (4008, None) or reason == "slow_consumer"]
            ok = bool(cut)
            text = (f"goald survived; the stalled reader was closed by the server: {codes} ({stalled.stall_outcome})"
                    if ok else f"goald survived but never closed the stalled reader (closes {codes}; "
                               f"{stalled.stall_outcome}): no slow-consumer cut within {seconds:.0f} s")
        self.stalled_reader_result = {"ok": ok, "text": text, "closes": codes}
        self.outcomes.append(("stalled-reader", ok, text))
        log(f"stalled-reader: {text}")
        self.set_writers(0, "adjust")
        self.wait(1)


    def phase_mixed(self, seconds, only=None):
        self.phase = "mixed"
        events, rates = soak_hostile.make_schedule(self.rng, seconds, len(self.nodes), only)
        self.schedule = events
        log(f"phase mixed ({seconds:.0f} s): {len(events)} episodes; " + ", ".join(
            f"{name} ×{sum(1 for e in events if e['episode'] == name)}" for name in soak_hostile.NAMES
            if any(e['episode'] == name for e in events)))
        if self.args.verbose or len(events) <= 40:
            for event in events:
                log(f"  +{event['at']:>6.1f} s {event['episode']} {json.dumps(event['params'], sort_keys=True)}")
        began = time.monotonic()
        pending_rates = list(rates)
        pending = list(events)
        while time.monotonic() - began < seconds:
            now = time.monotonic() - began
            while pending_rates and pending_rates[0]["at"] <= now:
                change = pending_rates.pop(0)
                self.set_writers(change["rate"], "mixed")
            self.episode_threads = [t for t in self.episode_threads if t.is_alive()]
            while pending and pending[0]["at"] <= now and len(self.episode_threads) < self.args.max_episodes:
                self._launch(pending.pop(0), began + seconds)
            self.revive()
            time.sleep(0.2)
        if pending:
            log(f"{len(pending)} episode(s) not started (too many still running)")
        self.join_episodes()

    def _launch(self, event, phase_end):
        name = event["episode"]

        def body():
            crashes = self.cluster.crash_count()
            try:
                results = soak_hostile.run(self, name, event["params"], event["seed"], phase_end + 30)
            except (OSError, WSClosed, RuntimeError, ValueError) as error:
                results = [(self.disrupted(), f"episode failed to run: {type(error).__name__}: {error}")]
            except Exception as error:  # a harness bug: reported, never silent
                self.harness_error(f"episode {name}", error)
                results = []
            if self.cluster.crash_count() > crashes:
                # a node crashed meanwhile (reported by no-crash): what the episode saw says nothing more
                results = [(True, f"INCONCLUSIVE (a node crashed meanwhile): {text}") if not ok else (ok, text)
                           for ok, text in results]
            for ok, text in results:
                self.outcomes.append((name, ok, text))
                if not ok or self.args.verbose:
                    log(f"{'ok  ' if ok else 'FAIL'} {name}: {text}")

        thread = threading.Thread(target=body, name=f"episode-{name}", daemon=True)
        thread.start()
        self.episode_threads.append(thread)

    def join_episodes(self, timeout=120):
        deadline = time.monotonic() + timeout
        for thread in self.episode_threads:
            thread.join(timeout=max(0.1, deadline - time.monotonic()))
        stuck = [t.name for t in self.episode_threads if t.is_alive()]
        if stuck:
            self.outcomes.append(("harness", False, f"episodes still running after {timeout} s: {stuck}"))
        self.episode_threads = []

    def phase_leak(self, seconds):
        self.phase = "leak"
        log(f"phase leak ({seconds:.0f} s): adjust_goals only at {self.args.leak_rate}/s per writer, league fixed; "
            f"VmRSS sampled every second (first third = warm-up)")
        self.set_writers(self.args.leak_rate, "adjust")
        began = time.monotonic()
        self.wait(seconds)
        self.leak_seconds = time.monotonic() - began
        self.set_writers(0, "adjust")

    # -- the end -------------------------------------------------------------------------------------------------

    def finish(self):
        """Stops clients, waits for convergence, reads the final league, measures files and RSS."""
        self.phase = "verify"
        self.cluster.await_dying()
        out = {}
        self.join_episodes(timeout=90)
        for writer in self.writers:
            writer.stop_event.set()
        for side in self.sides:
            side.stop_writers()
        for writer in self.writers:
            writer.join(timeout=45)
        self.revive()
        in_doubt = sum(len(w.outbox) for w in self.writers)
        log(f"writers stopped ({sum(w.stats['acks'] for w in self.writers)} acks, {in_doubt} mutation(s) left unanswered)")
        heads = self._wait_converged(timeout=45)
        out["snapshots"] = {}
        for node in self.nodes:
            out["snapshots"][node.name] = read_snapshot(node, self.cluster.admin_token) if node.alive() else None
        heads_after = self._node_heads()
        out["node_heads"] = {}
        for node in self.nodes:
            snap = out["snapshots"][node.name]
            out["node_heads"][node.name] = {
                "healthz": heads_after.get(node.name),
                "snapshot": (snap["revision"], snap["digest"]) if snap else None,
            }
        for side in self.sides:
            side.finish()
        for reader in self.readers:
            reader.stop_event.set()
        for reader in self.readers:
            reader.join(timeout=15)
        for side in self.sides:
            side.stop_readers()
        log(f"healthy readers stopped at {[r.rev for r in self.readers]} (nodes at {heads})")
        # every client is gone: open files back to the baseline within the grace period
        fd_results = {}
        began = time.monotonic()
        while True:
            waited = time.monotonic() - began
            fd_results = {}
            done = True
            for node in self.nodes:
                if not node.alive():
                    fd_results[node.name] = None
                    continue
                count, clients = node.fd_breakdown()
                fd_results[node.name] = (node.baseline_fds, count, waited, clients, node.fd_diff())
                if count is None or clients or count > node.baseline_fds + soak_checks.FD_SLACK:
                    done = False
            if done or waited > soak_checks.FD_GRACE:
                break
            time.sleep(1.0)
        out["fds"] = fd_results
        out["rss_after"] = {node.name: node.rss_kib() for node in self.nodes if node.alive()}
        log("after the clients left: " + ", ".join(
            f"{node.name} {fd_results.get(node.name, (0, '?', 0))[1] if fd_results.get(node.name) else '?'} open "
            f"files (baseline {node.baseline_fds}), RSS {(out['rss_after'].get(node.name) or 0) / 1024:.1f} MiB"
            for node in self.nodes))
        return out

    def _node_heads(self):
        heads = {}
        for node in self.nodes:
            try:
                body = node.healthz()
                heads[node.name] = (body["head"], body["digest"])
            except Exception:  # noqa: BLE001 - a dead node is reported by the checks
                heads[node.name] = None
        return heads

    def _wait_converged(self, timeout):
        deadline = time.monotonic() + timeout
        heads = {}
        while time.monotonic() < deadline:
            heads = self._node_heads()
            values = set(v for v in heads.values() if v)
            if len(values) == 1 and None not in heads.values():
                head = next(iter(values))
                if all((r.rev, r.digest) == head for r in self.readers if r.is_alive()):
                    return head
            time.sleep(0.5)
        return heads



def parse_args(argv):
    parser = argparse.ArgumentParser(description="goald soak harness (see Tests/Soak/README.md)")
    parser.add_argument("--goald", required=True, help="the goald binary, e.g. .build-release/release/goald")
    parser.add_argument("--duration", type=float, default=300, help="seconds of load (default 300)")
    parser.add_argument("--seed", type=int, help="fixes the client schedule (default: random, printed first)")
    parser.add_argument("--nodes", type=int, choices=[1, 3], default=1)
    parser.add_argument("--postgres-url", help="superuser URL of a PostgreSQL server for --nodes 3 "
                                               "(default $GOALD_TEST_POSTGRES_URL); a fresh database is made in it")
    parser.add_argument("--pg-dir", help="the cluster directory for pg-restart (default $GOALD_PG_DIR)")
    parser.add_argument("--scenario", default="all",
                        help="all (default: stalled-reader, mixed, leak), stalled-reader, mixed, leak, or one "
                             "episode: " + ", ".join(soak_hostile.NAMES))
    parser.add_argument("--report", help="also write the report as JSON to this file")
    parser.add_argument("--workdir", help="where state directories and logs go (default: a new /tmp/goald-soak-*)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory even when every check passed")
    parser.add_argument("--leagues", type=int, default=2, choices=range(1, len(soak_leagues.SLUGS) + 2),
                        metavar="N", help="leagues served at once (default 2): the default league's workload, and "
                                          "beside it N - 1 leagues (soak-b, …) with their own writers and readers; "
                                          "1 = the default league alone")
    parser.add_argument("--league-rate", type=float, default=10,
                        help="mutations/s of each of the other leagues' 2 writers (default 10)")
    parser.add_argument("--writers", type=int, default=3)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--bench-players", type=int, default=2000,
                        help="players in no match (snapshots then span several chunks, for mid-snapshot stalls)")
    parser.add_argument("--stall-rate", type=float, default=110, help="adjust_goals/s per writer in stalled-reader")
    parser.add_argument("--stall-seconds", type=float, default=25)
    parser.add_argument("--leak-rate", type=float, default=60, help="adjust_goals/s per writer in the leak phase")
    parser.add_argument("--max-episodes", type=int, default=4, help="hostile episodes running at once, at most")
    parser.add_argument("--max-revivals", type=int, default=10, help="restarts after crashes before giving up")
    parser.add_argument("--log-level", default="debug", help="goald's --log-level (debug shows session closes)")
    parser.add_argument("--set", action="append", help="passed to goald serve as --set KEY=VALUE (repeatable)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    allowed = {"all", "mixed", "leak", "stalled-reader"} | set(soak_hostile.NAMES)
    if args.scenario not in allowed:
        parser.error(f"--scenario {args.scenario}: expected one of {', '.join(sorted(allowed))}")
    if args.scenario in soak_hostile.MULTI_NODE_ONLY and args.nodes == 1:
        parser.error(f"--scenario {args.scenario} needs --nodes 3")
    if not os.access(args.goald, os.X_OK):
        parser.error(f"--goald {args.goald}: not an executable file")
    args.goald = os.path.abspath(args.goald)
    return args


def main(argv):
    args = parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1 << 31)
    print(f"soak: seed {seed}", flush=True)
    log(f"goald {args.goald}; {args.nodes} node(s); scenario {args.scenario}; duration {args.duration:.0f} s; "
        f"{args.leagues} league(s); reproduce with --seed {seed}" + (f" --nodes {args.nodes}" if args.nodes > 1 else "") +
        (f" --leagues {args.leagues}" if args.leagues != 2 else "") +
        (f" --scenario {args.scenario}" if args.scenario != "all" else ""))

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    workdir = args.workdir or tempfile.mkdtemp(prefix="goald-soak-", dir="/tmp")
    os.makedirs(workdir, exist_ok=True)
    log(f"work directory {workdir}")
    h = Harness(args, seed)
    began = time.monotonic()
    final, checks, interrupted, stops = None, [], False, {}
    try:
        h.start(workdir)
        h.start_clients()
        h.start_leagues()
        duration = args.duration
        if args.scenario == "all":
            stall = min(args.stall_seconds, max(20.0, duration * 0.3))
            leak = min(900.0, max(30.0, duration * 0.3))
            mixed = max(10.0, duration - stall - leak)
            h.phase_stalled_reader(stall)
            h.phase_mixed(mixed)
            h.phase_leak(leak)
        elif args.scenario == "stalled-reader":
            h.phase_stalled_reader(max(args.stall_seconds, min(duration, 60)))
        elif args.scenario == "leak":
            h.phase_leak(duration)
        else:
            h.phase_mixed(duration, None if args.scenario == "mixed" else args.scenario)
        final = h.finish()
    except KeyboardInterrupt:
        interrupted = True
        log("interrupted: stopping clients and daemons")
    except (RuntimeError, OSError, WSClosed) as error:
        log(f"the run stopped early: {type(error).__name__}: {error}")
        h.outcomes.append(("harness", False, f"the run stopped early: {error}"))
    finally:
        h.stop_sampling.set()
        for client in h.writers + h.readers + [c for side in h.sides for c in side.clients()]:
            client.stop_event.set()
        if h.cluster is not None:
            statuses = {}
            for node in h.nodes:
                if node.alive():
                    node.stop(timeout=15.0)
                    statuses[node.name] = signal_name(node.proc.returncode)
                else:
                    statuses[node.name] = "not running"
            stops = statuses
            h.cluster.close()
        if h.postgres is not None:
            h.postgres.drop_database()
    elapsed = time.monotonic() - began
    if h.cluster is not None:
        checks = soak_report.evaluate(h, final, stops)
        if final is None:
            checks.append(soak_checks.check_hostile(h.outcomes, h.skipped))
    failed = soak_report.print_report(checks, h, elapsed, args.report, interrupted)
    if failed == 0 and not interrupted and not args.keep and not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        log(f"logs kept in {workdir}")
    if interrupted:
        return 130
    return 0 if failed == 0 and checks else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
