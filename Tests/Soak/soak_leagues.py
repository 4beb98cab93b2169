"""Leagues beside the default one (`--leagues N`, default 2): issue 37's "one session follows one league".

Each other league (`soak-b`, then `soak-c`, …) is made at start with `goald league create` (on node 1's state
directory, or on the cluster's PostgreSQL database) while the daemons run, and gets its own small workload beside the
default league's, which is unchanged: the same 40 players (same ids and names: ids are per league) and matches with
the *same ids* as the default league's big matches, but 2 against 2 with goals at 300. So an `adjust_goals` that
reached the wrong league would change the other league's goals, and the exactly-once sums of one of the two would be
off. Two writers (one with a token confined to the league, `--league soak-b=editor`, one with an editor token of every
league) and two healthy readers (an auditor with a confined viewer token, protocol 1, digest chain verified; a
protocol 2 reader with the viewer token of every league) follow it; the writers create players and matches in the
mixed phase like the default league's, and adjust goals only elsewhere.

Probes (at start and at the end, on every node): a confined token's hello without `league` and with
`"league":"default"` gets `error{league_forbidden}` + close 4405, and so does its hello naming a league that does not
exist; a token of every league naming that league gets `error{unknown_league}` + close 4404. Over REST the confined
token's `GET /api/v1/leagues` lists its league alone (role viewer), and its `GET /api/v1/players` (the default
league's) is 403 `league_forbidden`.

At the end, one check per league (`league soak-b`): its readers and every node's snapshot of it converge to one
revision and digest (no gap, duplicate or broken chain); its ledger of acknowledged mutations is exactly once in its
final snapshot; no mutation of one league is in the other's stream or snapshot; the probes got their refusals; and
its healthy readers' live deliveries have p99 < 1 s (reported, and judged as the default league's are).

Python 3 standard library only.
"""
import http.client
import json
import random
import threading
import time

import soak_checks
from soak_clients import Ledger, League, Reader, Writer, apply_actions, read_snapshot, seeded_uuid
from soak_ws import WSClient, WSClosed

SLUGS = ["soak-b", "soak-c", "soak-d", "soak-e"]
BASE_GOALS = 300  # not the default league's 500 (goals stay within 0…999)
IDLE_SECONDS = 15  # goald's leagues.idleSeconds in a run with other leagues (unless --set gives one)
NOWHERE = "soak-nowhere"  # a league that never exists


def log(text):
    print(f"soak: {text}", flush=True)


class LeagueSide:
    """One league other than the default: what the harness made there, its writers' ledger, its clients, its
    tokens and probe results. Created and driven from the harness's main thread; its clients run on their own."""

    def __init__(self, harness, index):
        self.h = harness
        self.slug = SLUGS[index]
        self.title = f"Soak {self.slug[-1].upper()}"
        self.league = League()
        self.ledger = Ledger()
        self.base_goals = {}
        self.writers = []
        self.readers = []
        self.rng = random.Random(harness.seed * 104729 + 31 * (index + 1))  # never the default league's generators
        self.tokens = {}
        self.token_counter = 0
        self.token_lock = threading.Lock()
        self.setup_instance = None
        self.probes = []  # (when, ok, text)
        self.final = None  # {"snapshots": node -> snapshot or None, "head": (revision, digest) or None}

    # -- tokens --------------------------------------------------------------------------------------------------

    def token(self, prefix, role, confined):
        with self.token_lock:
            self.token_counter += 1
            name = f"{self.slug}-{prefix}-{self.token_counter}"
        grants = [f"{self.slug}={role}"] if confined else None
        return name, self.h.cluster.token(name, role, leagues=grants)

    def fresh_token(self, prefix):
        """A writer's new token after a 4403: an editor token confined to this league."""
        return self.token(prefix, "editor", confined=True)

    # -- set-up --------------------------------------------------------------------------------------------------

    def start(self):
        self.h.cluster.create_league(self.slug, self.title)
        self.tokens["confined-viewer"] = self.token("viewer", "viewer", confined=True)[1]
        self._populate()
        self.probe("start")
        self._start_clients()

    def _populate(self):
        """The default league's setup players (same ids and names) and matches with the same ids as its big
        matches, 2 against 2, goals at BASE_GOALS."""
        default = self.h.league
        players = list(default.setup_players[: self.h.args.players])  # not the bench
        self.setup_instance = seeded_uuid(self.rng)
        actions = [{"op": "create_player", "id": pid, "name": default.players[pid]} for pid in players]
        for match_id in default.big_matches:
            four = self.rng.sample(players, 4)
            actions.append({"op": "create_match", "id": match_id, "home_players": four[:2], "away_players": four[2:],
                            "home_goals": BASE_GOALS, "away_goals": BASE_GOALS})
        answers, _ = apply_actions(self.h.nodes[0], self.h.cluster.admin_token, self.setup_instance, actions,
                                   league=self.slug)
        failed = [m for m in answers.values() if m["type"] != "ack"]
        if len(answers) < len(actions) or failed:
            raise RuntimeError(f"league {self.slug} set-up failed: {len(answers)}/{len(actions)} answered, "
                               f"refusals {failed[:3]}")
        for action in actions:
            if action["op"] == "create_player":
                self.league.players[action["id"]] = action["name"]
                self.league.setup_players.append(action["id"])
            else:
                self.league.matches[action["id"]] = {"home": BASE_GOALS, "away": BASE_GOALS, "size": 2}
                self.league.big_matches.append(action["id"])
                self.base_goals[action["id"]] = (BASE_GOALS, BASE_GOALS)
        self.league.head = max(m["revision"] for m in answers.values())
        log(f"league {self.slug} made with goald league create: {len(players)} players (the default league's ids), "
            f"{len(self.base_goals)} matches of 2 against 2 with the default league's match ids "
            f"(head r{self.league.head})")

    def _start_clients(self):
        n = len(self.h.nodes)
        specs = [(f"{self.slug}-auditor", 1, True, self.tokens["confined-viewer"], 1 % n),
                 (f"{self.slug}-reader-2", 2, False, self.h.tokens["reader"], 2 % n)]
        for name, protocol, audit, token, node in specs:
            reader = Reader(self.h, name, token, self.rng.randrange(1 << 62), protocol=protocol, verify=audit,
                            audit=audit, healthy=True, start_node=node, presence="all", league=self.slug)
            reader.start()
            self.readers.append(reader)
        tokens = [self.token("writer-1", "editor", confined=True),
                  self.token("writer-2", "editor", confined=False)]
        for i, token in enumerate(tokens):
            writer = Writer(self.h, i + 1, token, self.rng.randrange(1 << 62), rate=self.h.args.league_rate,
                            start_node=i % n, name=f"{self.slug}-writer-{i + 1}", side=self)
            writer.start()
            self.writers.append(writer)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(r.mode != "live" for r in self.readers):
            time.sleep(0.1)
        log(f"league {self.slug}: {len(self.readers)} healthy readers live ({sum(r.mode == 'live' for r in self.readers)} "
            f"so far), {len(self.writers)} writers at {self.h.args.league_rate:g}/s each (one token confined to it)")

    def set_mode(self, mode):
        for writer in self.writers:
            writer.mode = mode

    # -- probes --------------------------------------------------------------------------------------------------

    def probe(self, when):
        """Hellos that must be refused, on every node."""
        confined, everywhere = self.tokens["confined-viewer"], self.h.tokens["reader"]
        cases = [("confined token, no league (the default league)", confined, None, "league_forbidden", 4405),
                 ("confined token, league \"default\"", confined, "default", "league_forbidden", 4405),
                 (f"confined token, league {NOWHERE} (does not exist)", confined, NOWHERE, "league_forbidden", 4405),
                 (f"token of every league, league {NOWHERE}", everywhere, NOWHERE, "unknown_league", 4404)]
        for node in self.h.nodes:
            for text, token, league, code, close in cases:
                got_code, got_close = refusal(node, token, league)
                ok = got_code == code and got_close == close
                self.probes.append((when, ok, f"{node.name}: {text}: error {got_code}, close {got_close}"
                                              + ("" if ok else f" (expected {code}, {close})")))
            # the same over REST: the confined token sees only its league, and not the default league's players
            status, body = rest_get(node, "/api/v1/leagues", confined)
            listed = [(league.get("id"), league.get("role")) for league in (body or {}).get("leagues", [])]
            ok = status == 200 and listed == [(self.slug, "viewer")]
            self.probes.append((when, ok, f"{node.name}: confined token, GET /api/v1/leagues: {status} {listed}"
                                          + ("" if ok else f" (expected 200 [({self.slug!r}, 'viewer')])")))
            status, body = rest_get(node, "/api/v1/players", confined)
            code = (body or {}).get("code")
            ok = status == 403 and code == "league_forbidden"
            self.probes.append((when, ok, f"{node.name}: confined token, GET /api/v1/players (the default "
                                          f"league's): {status} {code}"
                                          + ("" if ok else " (expected 403 league_forbidden)")))
        failed = [text for _, ok, text in self.probes if not ok]
        log(f"league {self.slug} probes ({when}): " + ("all as expected" if not failed else
                                                        f"{len(failed)} NOT as expected: {failed[:2]}"))

    # -- the end -------------------------------------------------------------------------------------------------

    def stop_writers(self):
        for writer in self.writers:
            writer.stop_event.set()

    def finish(self):
        """After the writers stopped: waits for the readers to reach one head, reads every node's snapshot of the
        league, probes again. The readers stay until `stop_readers`."""
        for writer in self.writers:
            writer.join(timeout=45)
        in_doubt = sum(len(w.outbox) for w in self.writers)
        head = self._wait_converged(timeout=45)
        snapshots = {}
        deadline = time.monotonic() + 20  # a node that trails the shared store catches up (no /healthz per league)
        while True:
            for node in self.h.nodes:
                snap = snapshots.get(node.name)
                if snap is None or head is None or (snap["revision"], snap["digest"]) != head:
                    snapshots[node.name] = (read_snapshot(node, self.h.cluster.admin_token, league=self.slug)
                                            if node.alive() else None)
            points = set((s["revision"], s["digest"]) if s else None for s in snapshots.values())
            if head is None or points == {head} or time.monotonic() > deadline:
                break
            time.sleep(1.0)
        self.final = {"snapshots": snapshots, "head": head}
        log(f"league {self.slug}: writers stopped ({sum(w.stats['acks'] for w in self.writers)} acks, {in_doubt} "
            f"left unanswered); readers at {[r.rev for r in self.readers]}")
        self.probe("end")

    def _wait_converged(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            points = set((r.rev, r.digest) for r in self.readers if r.is_alive())
            if len(points) == 1:
                point = next(iter(points))
                if point[0] is not None and point[0] >= self.league.head:
                    return point
            time.sleep(0.5)
        return None

    def stop_readers(self):
        for reader in self.readers:
            reader.stop_event.set()
        for reader in self.readers:
            reader.join(timeout=15)

    def clients(self):
        return self.writers + self.readers


def rest_get(node, path, token):
    """(status, the JSON body or None) of a GET with a bearer token; (an error's text, None) when it fails."""
    connection = http.client.HTTPSConnection("127.0.0.1", node.port, context=node.context, timeout=10.0)
    try:
        connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, None
    except (OSError, http.client.HTTPException) as error:
        return f"{type(error).__name__}: {error}", None
    finally:
        connection.close()


def refusal(node, token, league):
    """(the error code, the close code) a hello gets; (None, None) or what came instead when not refused."""
    client = WSClient(node.port, node.context, timeout=10.0)
    hello = {"type": "hello", "protocol": 2, "token": token, "client_instance": seeded_uuid(random.Random()),
             "stream": "acks"}
    if league is not None:
        hello["league"] = league
    code = None
    try:
        client.open()
        client.send_json(hello)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for raw in client.poll(0.5):
                message = json.loads(raw)
                if message.get("type") == "error":
                    code = message.get("code")
                elif message.get("type") == "welcome":
                    code = "welcome"
        client.abort()
        return code, "still open after 10 s"
    except WSClosed as error:
        client.abort()
        return code, error.code
    except (OSError, ValueError) as error:
        client.abort()
        return code, f"{type(error).__name__}: {error}"


# -- the check ---------------------------------------------------------------------------------------------------


def check_league(h, side, default_snapshot):
    """One check per other league: convergence, exactly-once, isolation from the default league, the probes and
    its readers' latency, summed up in one line."""
    name = f"league {side.slug}"
    final = side.final
    if final is None:
        return soak_checks.result(name, False, "the run ended before the league's final state was read")
    details, parts = [], []
    # convergence: the readers and every node's snapshot of the league
    node_heads = {node: {"snapshot": (snap["revision"], snap["digest"]) if snap else None}
                  for node, snap in final["snapshots"].items()}
    convergence = soak_checks.check_convergence(node_heads, side.readers)
    if convergence["status"] != "pass":
        details += [f"convergence: {line}" for line in convergence["details"]]
    parts.append(convergence["summary"].replace("node(s)", "node snapshot(s)"))
    # exactly once, against the league's own ledger (the same match ids as the default league's)
    snapshot = final["snapshots"].get(h.nodes[0].name) or next((s for s in final["snapshots"].values() if s), None)
    auditor = side.readers[0] if side.readers else None
    once = soak_checks.check_exactly_once(side.ledger, side.league, side.base_goals, snapshot, auditor)
    if once["status"] != "pass":
        details += [f"exactly-once: {line}" for line in once["details"]]
    with side.ledger.lock:
        counts = dict(side.ledger.counts)
        pending = len(side.ledger.pending)
    parts.append(f"{counts['acked']} acked, {counts['rejected']} rejected, {pending} in doubt"
                 + (", all exactly once" if once["status"] == "pass" else ""))
    # isolation
    crossed = isolation(h, side, default_snapshot, snapshot)
    details += [f"isolation: {line}" for line in crossed]
    parts.append("nothing crossed leagues" if not crossed else f"{len(crossed)} crossing(s)")
    # probes
    bad = [f"probe at {when}: {text}" for when, ok, text in side.probes if not ok]
    details += bad
    parts.append(f"{len(side.probes) - len(bad)}/{len(side.probes)} probes as expected (4405/4404, REST)")
    # latency, judged like the default league's
    latency = soak_checks.check_latency(side.readers, h.disruption_windows, h.stall_windows)
    if latency["status"] == "fail":
        details += [f"latency: {line}" for line in latency["details"]]
    parts.append(latency["summary"].split(" (")[0] if latency["status"] != "skip" else latency["summary"])
    ok = not details and convergence["status"] == "pass" and once["status"] == "pass" and latency["status"] != "fail"
    extra = [f"convergence: {line}" for line in convergence["details"] if convergence["status"] == "pass"]
    extra += [f"latency: {line}" for line in latency["details"] if latency["status"] == "pass"]
    return soak_checks.result(name, ok, "; ".join(parts), details[:40] + extra)


def isolation(h, side, default_snapshot, side_snapshot):
    """What of one league is in the other: writers' (instance, seq) ids in the other's audited stream, created
    players and matches in the other's final snapshot. (Goals on the shared match ids are exactly-once's.)"""
    found = []
    with h.ledger.lock:
        default_instances = set(h.ledger.revisions)
        default_creates = {action["id"] for action in h.ledger.creates.values()}
    with side.ledger.lock:
        side_instances = set(side.ledger.revisions) | {side.setup_instance}
        side_creates = {action["id"] for action in side.ledger.creates.values()}
    default_auditor = h.readers[0] if h.readers else None
    if default_auditor is not None and default_auditor.seen_ids is not None:
        leaked = side_instances & set(default_auditor.seen_ids)
        if leaked:
            found.append(f"{len(leaked)} {side.slug} client(s)' mutations in the default league's stream")
    side_auditor = side.readers[0] if side.readers else None
    if side_auditor is not None and side_auditor.seen_ids is not None:
        foreign = set(side_auditor.seen_ids) - side_instances
        if foreign:
            of_default = len(foreign & default_instances)
            found.append(f"{len(foreign)} foreign client(s)' mutations in {side.slug}'s stream "
                         f"({of_default} of them the default league's writers)")
    for label, snapshot, ids in (("the default league", default_snapshot, side_creates),
                                 (side.slug, side_snapshot, default_creates)):
        if snapshot is None:
            continue
        present = ids & (set(snapshot["players"]) | set(snapshot["matches"]))
        if present:
            found.append(f"{len(present)} player(s)/match(es) created in the other league are in {label}")
    return found
