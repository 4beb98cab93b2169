"""The well-behaved clients and the bookkeeping the checks read: the ledger of mutations, writers, readers.

Writers (`stream:"acks"`) keep an outbox like goal-client's: every mutation keeps its (instance, seq) id until it is
answered, is re-sent with the same id after a reconnect or a `rate_limited`/`overloaded`, and never more than 31
are unanswered (PROTOCOL.md §6, K = 32). So an acked mutation must be in the league exactly once, and one whose
answer never came is *in doubt* (counted as a range by the exactly-once check).

Readers (`stream:"all"`) follow revisions: each changeset must be the previous one + 1 (a gap or a duplicate is
recorded), protocol 1 readers with `verify` check the digest chain of every full changeset (PROTOCOL.md §5), and
healthy readers record delivery latency (arrival − the frame's commit `time`). A reader can be told to stall
(stop reading) at a point of its stream: live, mid-backlog, mid-snapshot.
"""
import array
import collections
import hashlib
import json
import random
import re
import threading
import time
import uuid

from soak_ws import OP_TEXT, WSClient, WSClosed, frame_bytes

HEADER = re.compile(rb'^\{"type":"(changeset|delta)","revision":(\d+),"digest":"([0-9a-f]{64})","time":(\d+)')
TAIL_ID = re.compile(rb'"client_instance":"([^"]+)","seq":(\d+)\}$')
ZERO_DIGEST = "0" * 64


def seeded_uuid(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


PENDING, REJECTED, NOOP = -1, -2, -3


def put(values, index, value):
    """values[index] = value on an array('q') that grows with zeros as needed."""
    if index >= len(values):
        values.extend([0] * max(index + 1 - len(values), len(values), 64))
    values[index] = value


class Ledger:
    """Every mutation the writers sent and what became of it, compactly enough for an hour (one 8-byte slot per
    mutation): per instance an array indexed by seq holding the acked revision, or PENDING / REJECTED / NOOP.
    Acked goal deltas are summed as they are acked (once per id); unanswered actions are kept until answered;
    creations are kept. Thread-safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.revisions = {}  # instance -> array('q') by seq
        self.pending = {}  # (instance, seq) -> action, until answered
        self.totals = {}  # (match id, side) -> sum of acked deltas
        self.creates = {}  # (instance, seq) -> action (create_player / create_match), whatever became of it
        self.violations = []  # exactly-once violations seen on the wire (an ack changing revision, …)
        self.rejections = {}  # code -> count
        self.rejection_samples = []
        self.counts = {"acked": 0, "rejected": 0, "noop": 0}

    def sent(self, instance, seq, action):
        with self.lock:
            values = self.revisions.setdefault(instance, array.array("q"))
            if seq < len(values) and values[seq] != 0:
                return  # a re-send
            put(values, seq, PENDING)
            self.pending[(instance, seq)] = action
            if action["op"] != "adjust_goals":
                self.creates[(instance, seq)] = action

    def _slot(self, instance, seq, what):
        values = self.revisions.get(instance)
        if values is None or seq >= len(values) or values[seq] == 0:
            self.violations.append(f"{what} for {instance}#{seq}, which was never sent")
            return None
        return values

    def acked(self, instance, seq, revision, noop):
        with self.lock:
            values = self._slot(instance, seq, "ack")
            if values is None:
                return
            before = values[seq]
            new = NOOP if noop else revision
            if before > 0 or before == NOOP:
                if before != new:
                    self.violations.append(f"{instance}#{seq} acked as {before} and again as {new} "
                                           f"(revision, or -3 for noop)")
                return
            if before == REJECTED:
                self.violations.append(f"{instance}#{seq} rejected and later acked at r{revision}")
                return
            values[seq] = new
            action = self.pending.pop((instance, seq), None)
            self.counts["noop" if noop else "acked"] += 1
            if action is not None and action["op"] == "adjust_goals" and not noop:
                key = (action["id"], action["side"])
                self.totals[key] = self.totals.get(key, 0) + action["delta"]

    def rejected(self, instance, seq, code, message=None):
        with self.lock:
            values = self._slot(instance, seq, "rejection")
            if values is None:
                return
            if values[seq] > 0 or values[seq] == NOOP:
                self.violations.append(f"{instance}#{seq} acked at r{values[seq]} and later rejected ({code})")
                return
            if values[seq] == REJECTED:
                return
            values[seq] = REJECTED
            action = self.pending.pop((instance, seq), None)
            self.counts["rejected"] += 1
            self.rejections[code] = self.rejections.get(code, 0) + 1
            if len(self.rejection_samples) < 20:
                self.rejection_samples.append({"id": f"{instance}#{seq}", "code": code, "message": message,
                                               "action": action})

    def state(self, instance, seq):
        values = self.revisions.get(instance)
        return values[seq] if values is not None and seq < len(values) else 0


class League:
    """What the harness made and knows for sure: players and matches whose creation was acked."""

    def __init__(self):
        self.lock = threading.Lock()
        self.players = {}  # id -> name
        self.setup_players = []
        self.matches = {}  # id -> {"home": base goals, "away": base goals, "size": players per side}
        self.big_matches = []
        self.head = 0  # the newest acked revision: a base every node's store has reached

    def match_ids(self, big_only=False):
        with self.lock:
            return list(self.big_matches) if big_only else list(self.matches)


class ClientThread(threading.Thread):
    """A harness client on its own thread: `_run` does the work; an exception there is a harness bug, reported
    (never silent) and its connection aborted. Subclasses set `self.h` (the harness) and `self.client`."""

    def run(self):
        try:
            self._run()
        except Exception as error:  # a harness bug: reported, never silent
            self.h.harness_error(self.name, error)
            if self.client is not None:
                self.client.abort()


class Writer(ClientThread):
    """Paced mutations on one `stream:"acks"` session, with an outbox that survives reconnects."""

    WINDOW = 31

    def __init__(self, harness, index, token, seed, rate, start_node=0, mode="adjust", name=None, side=None):
        super().__init__(name=name or f"writer-{index}", daemon=True)
        self.h = harness
        # side: another league's (soak_leagues.LeagueSide: slug, league, ledger, fresh_token); None = the default
        # league's, with the harness's own league and ledger, and a hello without `league`
        self.side = side
        self.league = side.league if side else harness.league
        self.ledger = side.ledger if side else harness.ledger
        self.index = index
        self.token_name, self.token = token
        self.rng = random.Random(seed)
        self.instance = seeded_uuid(self.rng)
        self.rate = rate
        self.mode = mode  # "adjust": adjust_goals only (fixed league size); "mixed": also creates
        self.node = start_node
        self.seq = 0
        self.outbox = {}  # seq -> (message text, action)
        self.in_flight = set()  # seqs sent on the current connection and not answered
        self.retry_at = {}  # seq -> monotonic time to re-send (rate_limited / overloaded)
        self.base = 0
        self.stop_event = threading.Event()
        self.paused = threading.Event()
        self.requests = []  # ("burst", n) / ("cut", kind) / ("hello-pipeline", n)
        self.stats = {"sent": 0, "resent": 0, "acks": 0, "rejected": 0, "rate_limited": 0, "overloaded": 0,
                      "reconnects": 0, "closes": {}, "cuts": 0, "bursts": 0, "tokens": 1}
        self.client = None
        self.created_players = []
        self.finished_clean = False

    # -- what to send --------------------------------------------------------------------------------------------

    def _next_action(self):
        roll = self.rng.random()
        if self.mode == "mixed" and roll < 0.01 and len(self.created_players) < 400:
            pid = seeded_uuid(self.rng)
            name = f"s{self.index}-{self.instance[:6]}-{len(self.created_players)}"
            return {"op": "create_player", "id": pid, "name": name}
        if self.mode == "mixed" and roll < 0.012 and len(self.created_players) >= 2:
            with self.league.lock:
                known = [p for p in self.created_players if p in self.league.players]
            if len(known) >= 2 and len(self.league.matches) < 60:
                home, away = self.rng.sample(known, 2)
                return {"op": "create_match", "id": seeded_uuid(self.rng), "home_players": [home],
                        "away_players": [away], "home_goals": 500, "away_goals": 500}
        matches = self.league.match_ids(big_only=self.mode == "adjust")
        match = self.rng.choice(matches)
        return {"op": "adjust_goals", "id": match, "side": self.rng.choice(("home", "away")),
                "delta": self.rng.choice((1, -1))}

    def _new_mutation(self):
        self.seq += 1
        action = self._next_action()
        # base: a revision at which this client could have read every match it names (an adjust_goals whose
        # base is older than the match's creation is refused as a conflict)
        self.base = max(self.base, self.league.head)
        message = dict(action, type="mutate", seq=self.seq, base=self.base)
        text = json.dumps(message, separators=(",", ":"))
        self.outbox[self.seq] = (text, action)
        self.ledger.sent(self.instance, self.seq, action)
        if action["op"] == "create_player":
            self.created_players.append(action["id"])
        return self.seq

    def _window_open(self):
        if not self.outbox:
            return True
        return self.seq + 1 - min(self.outbox) < self.WINDOW

    # -- connection ----------------------------------------------------------------------------------------------

    def _connect(self):
        node = self.h.nodes[self.node % len(self.h.nodes)]
        client = WSClient(node.port, node.context, timeout=10.0, name=self.name)
        client.open()
        hello = {"type": "hello", "protocol": 2, "token": self.token, "client_instance": self.instance,
                 "stream": "acks"}
        if self.side is not None:
            hello["league"] = self.side.slug
        client.send_json(hello)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            for raw in client.poll(0.5):
                message = json.loads(raw)
                if message.get("type") == "welcome":
                    self.base = max(self.base, message.get("head", 0))
                    self.client = client
                    self.in_flight = set()
                    return
                self._handle(message)
        client.abort()
        raise WSClosed(None, "no welcome within 15 s")

    def _send(self, seq, partial=False):
        text, _ = self.outbox[seq]
        if partial:
            data = frame_bytes(OP_TEXT, text.encode())
            self.client.send_raw(data[: max(3, len(data) // 2)])
            return
        self.client.send_text(text)
        self.in_flight.add(seq)

    def _lost(self, error):
        code = getattr(error, "code", None)
        self.stats["closes"][str(code)] = self.stats["closes"].get(str(code), 0) + 1
        if self.client is not None:
            self.client.abort()
        self.client = None
        self.in_flight = set()
        if code == 4403:  # our token was revoked: carry on with a new one (the instance and its seqs stay)
            self.token_name, self.token = (self.side.fresh_token(self.name) if self.side is not None
                                           else self.h.fresh_token("editor", self.name))
            self.stats["tokens"] += 1
        self.node += 1

    # -- answers -------------------------------------------------------------------------------------------------

    def _handle(self, message):
        kind = message.get("type")
        seq = message.get("seq")
        if kind == "ack":
            self.stats["acks"] += 1
            self.base = max(self.base, message["revision"])
            if message["revision"] > self.league.head:
                self.league.head = message["revision"]
            if seq in self.outbox:
                _, action = self.outbox.pop(seq)
                if not message.get("noop"):
                    self._applied(action)
            self.in_flight.discard(seq)
            self.retry_at.pop(seq, None)
            self.ledger.acked(self.instance, seq, message["revision"], message.get("noop"))
        elif kind == "rejected":
            self.stats["rejected"] += 1
            self.outbox.pop(seq, None)
            self.in_flight.discard(seq)
            self.retry_at.pop(seq, None)
            self.ledger.rejected(self.instance, seq, message.get("code"), message.get("message"))
        elif kind in ("rate_limited", "overloaded"):
            self.stats[kind] += 1
            if seq is not None and seq in self.outbox:
                self.in_flight.discard(seq)
                self.retry_at[seq] = time.monotonic() + message.get("retry_after_ms", 250) / 1000.0
        elif kind == "error":
            self.stats.setdefault("errors", {})
            code = message.get("code")
            self.stats["errors"][code] = self.stats["errors"].get(code, 0) + 1

    def _applied(self, action):
        if action["op"] == "create_player":
            with self.league.lock:
                self.league.players[action["id"]] = action["name"]
        elif action["op"] == "create_match":
            with self.league.lock:
                self.league.matches[action["id"]] = {"home": action["home_goals"], "away": action["away_goals"],
                                                       "size": len(action["home_players"])}

    # -- the loop ------------------------------------------------------------------------------------------------

    def _run(self):
        next_send = time.monotonic()
        backoff = 0.1
        while not self.stop_event.is_set():
            try:
                if self.client is None:
                    self._connect()
                    backoff = 0.1
                    self.retry_at.clear()
                    for seq in sorted(self.outbox):  # the outbox first, same ids
                        self._send(seq)
                        self.stats["resent"] += 1
                now = time.monotonic()
                self._serve_requests()
                for seq, due in list(self.retry_at.items()):
                    if due <= now and seq in self.outbox:
                        del self.retry_at[seq]
                        self._send(seq)
                        self.stats["resent"] += 1
                rate = self.rate  # read once: the harness changes it from another thread
                if self.paused.is_set() or rate <= 0:
                    wait = 0.2
                elif now >= next_send and self._window_open():
                    self._send(self._new_mutation())
                    self.stats["sent"] += 1
                    next_send = max(next_send + 1.0 / rate, now - 0.5)
                    wait = 0.0
                else:
                    wait = min(0.2, max(0.0, next_send - now)) if self._window_open() else 0.05
                for raw in self.client.poll(wait):
                    self._handle(json.loads(raw))
            except WSClosed as error:
                self._lost(error)
                self.stats["reconnects"] += 1
                self.stop_event.wait(backoff)
                backoff = min(2.0, backoff * 2)
            except (OSError, ValueError) as error:  # connect refused (node down), TLS failure, bad JSON
                self._lost(WSClosed(None, str(error)))
                self.stats["reconnects"] += 1
                self.stop_event.wait(backoff)
                backoff = min(2.0, backoff * 2)
        self._finish()

    def _serve_requests(self):
        while self.requests:
            kind, value = self.requests.pop(0)
            if kind == "burst":  # pipelined: as many as the window allows, back to back, no pacing
                self.stats["bursts"] += 1
                for _ in range(value):
                    if not self._window_open():
                        break
                    self._send(self._new_mutation())
                    self.stats["sent"] += 1
            elif kind == "cut":  # the next mutation's frame is cut in the middle, then the connection
                self.stats["cuts"] += 1
                seq = self._new_mutation()
                self.stats["sent"] += 1
                self._send(seq, partial=True)
                if value == "reset":
                    self.client.abort()
                else:
                    self.client.drop()
                raise WSClosed(None, f"cut mid-frame ({value})")
            elif kind == "unread":  # send a few whole mutations, then drop without reading their answers
                for _ in range(value):
                    if self._window_open():
                        self._send(self._new_mutation())
                        self.stats["sent"] += 1
                self.client.abort()
                raise WSClosed(None, "dropped with answers unread")

    def _finish(self, timeout=30.0):
        """Stops sending new mutations and waits for every answer (re-sending as needed) until `timeout`."""
        deadline = time.monotonic() + timeout
        backoff = 0.1
        while self.outbox and time.monotonic() < deadline:
            try:
                if self.client is None:
                    self._connect()
                    for seq in sorted(self.outbox):
                        self._send(seq)
                        self.stats["resent"] += 1
                now = time.monotonic()
                for seq, due in list(self.retry_at.items()):
                    if due <= now and seq in self.outbox:
                        del self.retry_at[seq]
                        self._send(seq)
                for raw in self.client.poll(0.2):
                    self._handle(json.loads(raw))
            except (WSClosed, OSError, ValueError) as error:
                self._lost(error if isinstance(error, WSClosed) else WSClosed(None, str(error)))
                time.sleep(backoff)
                backoff = min(2.0, backoff * 2)
        self.finished_clean = not self.outbox
        if self.client is not None:
            self.client.shutdown()
            self.client = None


class Reader(ClientThread):
    """A `stream:"all"` session that follows revisions; healthy, or told to stall at some point."""

    def __init__(self, harness, name, token, seed, protocol=1, verify=False, audit=False, healthy=True,
                 start_node=0, rcvbuf=None, presence=None, stall=None, since_back=None, resume=True, league=None):
        super().__init__(name=name, daemon=True)
        self.h = harness
        self.league = league  # the slug `hello` names; None = the default league (no `league` in hello)
        self.token = token
        self.rng = random.Random(seed)
        self.instance = seeded_uuid(self.rng)
        self.protocol = protocol
        self.verify = verify and protocol == 1
        self.audit = audit
        self.healthy = healthy
        self.node = start_node
        self.rcvbuf = rcvbuf
        self.presence = presence
        self.stall = stall  # None or dict(at="live"|"backlog"|"snapshot", after=frames, seconds=…, then=…)
        self.since_back = since_back  # first hello resumes this many revisions behind the head (a backlog)
        self.resume = resume
        self.stop_event = threading.Event()
        self.rev = None  # the replica's revision (None: empty replica)
        self.digest = None
        self.epoch = None
        self.mode = "connecting"
        self.gaps = []
        self.duplicates = []
        self.chain_errors = []
        self.frames = 0  # changesets on the current connection
        self.frames_total = 0
        self.first_revision = None  # where this reader's view of the log starts
        self.live_frames = 0
        self.closes = []  # (time, code, reason)
        self.seen_ids = {} if audit else None  # instance -> array('q') of the revision that carried each seq
        self.id_duplicates = []
        self.skipped = []  # (after, through): revisions a resume-by-snapshot replaced (not seen one by one)
        self.latency_at = array.array("d")  # arrival time of each live changeset (healthy readers)
        self.latency = array.array("f")  # its latency: arrival − the frame's commit time
        self.client = None
        self.stalled = False
        self.stall_done = False
        self.stall_outcome = None
        self.connected_at = None
        self.connections = 0
        self.welcome_modes = []
        self.snapshot_chunks = 0
        self.pending = collections.deque()
        self.checkpoints = {} if audit else None  # every 64th revision -> digest (old `since` for resumes)

    def _hello(self):
        hello = {"type": "hello", "protocol": self.protocol, "token": self.token, "client_instance": self.instance,
                 "stream": "all"}
        if self.league is not None:
            hello["league"] = self.league
        if self.presence:
            hello["presence"] = self.presence
        if self.rev is not None and self.epoch is not None:
            hello.update(since=self.rev, epoch=self.epoch, digest=self.digest)
        elif self.since_back is not None:
            point = self.h.checkpoint(self.since_back)  # (revision, digest, epoch) about since_back behind
            if point is not None:
                since, digest, epoch = point
                hello.update(since=since, epoch=epoch, digest=digest)
                self.rev, self.digest, self.epoch = since, digest, epoch
                self.first_revision = since
        return hello

    def _connect(self):
        node = self.h.nodes[self.node % len(self.h.nodes)]
        client = WSClient(node.port, node.context, timeout=10.0, rcvbuf=self.rcvbuf, name=self.name)
        client.open()
        client.send_json(self._hello())
        self.client = client
        self.connections += 1
        self.connected_at = time.time()
        self.mode = "hello"

    def _stall_point(self):
        """True when this reader should stop reading now."""
        stall = self.stall
        if not stall or self.stall_done or self.stalled:
            return False
        if stall["at"] == "live":
            return self.mode == "live" and self.live_frames >= stall.get("after", 0)
        if stall["at"] == "backlog":
            return self.mode == "backlog" and self.frames >= stall.get("after", 1)
        if stall["at"] == "snapshot":
            return self.mode == "snapshot" and self.snapshot_chunks >= stall.get("after", 0)
        return False

    def _do_stall(self):
        """Stops reading (the socket stays open, nothing is sent) for the stall's seconds, then does `then`."""
        stall = self.stall
        self.stalled = True
        window = self.h.stall_started()
        began = time.monotonic()
        try:
            self.stop_event.wait(stall["seconds"])
        finally:
            self.h.stall_ended(window)
            self.stalled = False
            self.stall_done = True
        then = stall.get("then", "resume")
        if then == "abort":
            self.client.abort()
            self.stall_outcome = f"aborted after {time.monotonic() - began:.1f} s"
            raise WSClosed(None, "aborted by the harness after a stall")
        if then == "close":
            self.client.drop()
            self.stall_outcome = f"closed after {time.monotonic() - began:.1f} s"
            raise WSClosed(None, "closed by the harness after a stall")
        self.stall_outcome = "resumed reading"

    def _run(self):
        backoff = 0.2
        while not self.stop_event.is_set():
            try:
                if self.client is None:
                    self._connect()
                    backoff = 0.2
                if self._stall_point():
                    self._do_stall()
                if not self.pending:
                    self.pending.extend(self.client.poll(0.5))
                while self.pending:
                    self._message(self.pending.popleft())
                    if self._stall_point():
                        break  # the rest waits in `pending` until the stall ends
            except WSClosed as error:
                self.closes.append((time.time(), error.code, error.reason))
                if self.stall_outcome == "resumed reading":
                    self.stall_outcome = f"resumed reading; the server had closed: {error.code} ({error.reason})"
                self._drop()
                if not self.resume or error.code in (4401, 4403, 4404, 4405, 4409, 4400, 4413, 4426):
                    break
                self.stop_event.wait(backoff)
                backoff = min(2.0, backoff * 2)
            except (OSError, ValueError) as error:
                self.closes.append((time.time(), None, str(error)))
                self._drop()
                if not self.resume:
                    break
                self.stop_event.wait(backoff)
                backoff = min(2.0, backoff * 2)
        if self.client is not None:
            self.client.shutdown(wait=0.5)
            self.client = None

    def _drop(self):
        self.pending.clear()
        if self.client is not None:
            self.client.abort()
        self.client = None
        self.mode = "connecting"
        self.node += 1  # fail over to the next node (one node: the same)

    # -- the stream ----------------------------------------------------------------------------------------------

    def _message(self, raw):
        match = HEADER.match(raw)
        if match:
            self._changeset(raw, match)
            return
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "welcome":
            self.epoch = message["epoch"]
            self.welcome_modes.append(message["mode"])
            self.mode = {"live": "live", "backlog": "backlog", "snapshot": "snapshot"}[message["mode"]]
            self.frames = 0
            self.snapshot_chunks = 0
            if message["mode"] == "live":
                # since == head (or a since newer than the head noted: nothing up to since is sent again)
                if self.rev is None:
                    self.rev, self.digest = message["head"], message["head_digest"]
                    self.first_revision = self.rev
                elif self.rev < message["head"]:
                    self.gaps.append(f"welcome live at head {message['head']} but the replica is at r{self.rev}")
                    self.rev, self.digest = message["head"], message["head_digest"]
        elif kind == "caught_up":
            self.mode = "live"
            if self.rev != message["head"]:
                self.gaps.append(f"caught_up{{{message['head']}}} with the replica at r{self.rev}")
        elif kind == "snapshot_begin":
            self.mode = "snapshot"
        elif kind == "snapshot_chunk":
            self.snapshot_chunks += 1
        elif kind == "snapshot_end":
            if self.rev is not None and message["revision"] > self.rev:
                self.skipped.append((self.rev, message["revision"]))  # a snapshot replaced these changesets
            self.rev, self.digest = message["revision"], message["digest"]
            self.mode = "live"
            if self.first_revision is None:
                self.first_revision = self.rev
        elif kind == "error":
            self.closes.append((time.time(), "error", message.get("code")))

    def _changeset(self, raw, match):
        kind, revision, digest, committed = match.group(1), int(match.group(2)), match.group(3).decode(), \
            int(match.group(4))
        self.frames += 1
        self.frames_total += 1
        if self.rev is not None:
            if revision <= self.rev:
                self.duplicates.append(revision)
                return
            if revision != self.rev + 1:
                self.gaps.append(f"r{self.rev} then r{revision}")
        if self.verify and kind == b"changeset" and self.digest is not None and revision == (self.rev or 0) + 1:
            body = json.loads(raw)
            body.pop("type", None)
            claimed = body.pop("digest")
            expected = hashlib.sha256(bytes.fromhex(self.digest) + canonical(body)).hexdigest()
            if expected != claimed:
                self.chain_errors.append(f"r{revision}: digest {claimed[:12]}… but the chain gives {expected[:12]}…")
        if self.audit:
            tail = TAIL_ID.search(raw)
            if tail:
                instance, seq = tail.group(1).decode(), int(tail.group(2))
                values = self.seen_ids.get(instance)
                if values is None:
                    values = self.seen_ids[instance] = array.array("q")
                if seq < len(values) and values[seq]:
                    self.id_duplicates.append(f"{instance}#{seq} at r{values[seq]} and r{revision}")
                else:
                    put(values, seq, revision)
        self.rev, self.digest = revision, digest
        if self.checkpoints is not None and revision % 64 == 0:
            self.checkpoints[revision] = digest
        if self.mode == "live":
            self.live_frames += 1
            if self.healthy:
                now = time.time()
                self.latency_at.append(now)
                self.latency.append(max(0.0, now - committed / 1000.0))


def apply_actions(node, token, instance, actions, league=None):
    """Sends `actions` as mutations on one `stream:"acks"` session (`league`: its slug; None = the default league),
    paced under the per-session bucket, re-sending rate_limited/overloaded ones with the same id, until every one is
    answered or a deadline passes. Returns (answers by seq, the welcome's epoch)."""
    client = WSClient(node.port, node.context, timeout=10.0)
    client.open()
    hello = {"type": "hello", "protocol": 2, "token": token, "client_instance": instance, "stream": "acks"}
    if league is not None:
        hello["league"] = league
    client.send_json(hello)
    answers = {}
    epoch = None
    seq = 0
    retry = {}  # seq -> monotonic time (rate_limited / overloaded: the same mutation again, same id)
    began = time.monotonic()
    deadline = began + 60 + len(actions) / 50
    while len(answers) < len(actions) and time.monotonic() < deadline:
        now = time.monotonic()
        for again, due in list(retry.items()):
            if due <= now:
                del retry[again]
                client.send_json(dict(actions[again - 1], type="mutate", seq=again, base=0))
        # under the per-session mutation bucket (200/s, burst 400): 150/s, at most 30 unanswered
        while seq < len(actions) and seq - len(answers) < 30 and seq < (now - began) * 150 + 30:
            seq += 1
            client.send_json(dict(actions[seq - 1], type="mutate", seq=seq, base=0))
        for raw in client.poll(0.2):
            message = json.loads(raw)
            if message.get("type") == "welcome":
                epoch = message["epoch"]
            elif message.get("type") in ("ack", "rejected"):
                answers[message["seq"]] = message
            elif message.get("type") in ("rate_limited", "overloaded") and message.get("seq"):
                retry[message["seq"]] = time.monotonic() + message.get("retry_after_ms", 250) / 1000
    client.shutdown()
    return answers, epoch


def read_snapshot(node, token, timeout=60, league=None):
    """A fresh `stream:"all"` snapshot of a league (`league`: its slug; None = the default league) from one node:
    revision, digest, players, matches."""
    client = WSClient(node.port, node.context, timeout=10.0)
    players, matches, result = {}, {}, None
    try:
        client.open()
        hello = {"type": "hello", "protocol": 1, "token": token, "client_instance": seeded_uuid(random.Random()),
                 "stream": "all"}
        if league is not None:
            hello["league"] = league
        client.send_json(hello)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and result is None:
            for raw in client.poll(0.5):
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "snapshot_chunk":
                    for player in message.get("players", []):
                        players[player["id"]] = player["name"]
                    for match in message.get("matches", []):
                        matches[match["id"]] = {"home": match["home_goals"], "away": match["away_goals"]}
                elif kind == "snapshot_end":
                    result = {"revision": message["revision"], "digest": message["digest"], "players": players,
                              "matches": matches}
                elif kind == "welcome" and message["mode"] == "live":
                    result = {"revision": message["head"], "digest": message["head_digest"], "players": {},
                              "matches": {}}
        client.shutdown()
    except (WSClosed, OSError, ValueError) as error:
        client.abort()
        print(f"soak: final snapshot{'' if league is None else ' of ' + league} from {node.name} failed: {error}",
              flush=True)
    return result
