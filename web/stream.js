// The page's stream client: one WebSocket to wss://<this host>/v1/stream speaking docs/PROTOCOL.md (protocol 1).
// It sends hello with the replica's position (since, epoch, digest), follows welcome's mode (backlog, snapshot,
// live), verifies every changeset's place in the digest chain (§5) before applying it, drops revisions it already
// has, and reconnects with jittered backoff on a gap, a digest mismatch or any reconnect-class close. Mutations are
// numbered per client instance (1, 2, 3 …) when they are made and re-sent with the same ids after a reconnect
// until they are answered (§6), so a retried + counts once.
//
// Heartbeats: the browser answers the server's pings by itself (the server's 40 s dead-peer rule holds); the
// WebSocket API shows no frames below messages, so the page cannot see pings and learns of a silently dead server
// only when the browser's socket fails.

import { League } from "./league.js";

const PROTOCOL = 1;
// A close in the terminal class (§7): reconnecting would fail the same way.
const TERMINAL_CODES = new Set([1002, 1003, 1007, 1008, 1009, 1010]);
// The in-flight window of §6: never a seq K or more above the oldest unanswered one.
const WINDOW = 32;

export function isTerminal(code) {
  return (code >= 4400 && code <= 4499) || TERMINAL_CODES.has(code);
}

// SHA-256 over d_{R-1} (32 raw bytes) ‖ payload_R (UTF-8), as 64 lowercase hex digits.
async function chainDigest(previousHex, payload) {
  const previous = new Uint8Array(32);
  for (let i = 0; i < 32; i++) previous[i] = parseInt(previousHex.substr(i * 2, 2), 16);
  const body = new TextEncoder().encode(payload);
  const bytes = new Uint8Array(previous.length + body.length);
  bytes.set(previous, 0);
  bytes.set(body, previous.length);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

// §5's canonical JSON: keys in ascending order at every level, no whitespace. JSON.stringify already writes
// strings as RFC 8785 does (only ", \ and U+0000…U+001F escaped, lowercase \u00xx) and integers in shortest form.
export function canonical(value) {
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }
  return JSON.stringify(value);
}

/** Verifies that `changeset` continues the chain at `previousDigest`. */
export async function continuesChain(changeset, previousDigest) {
  const payload = Object.assign({}, changeset);
  delete payload.type;
  delete payload.digest;
  return (await chainDigest(previousDigest, canonical(payload))) === changeset.digest;
}

export class Stream {
  /**
   * @param {string} token the bearer token (sent in hello, never in a URL)
   * @param {object} handlers onState(state), onChange(changes, changeset), onReset(), onAnswer(answer)
   * @param {string|null} leagueId the league to follow (hello's `league`); null: the default league (none sent)
   */
  constructor(token, handlers, leagueId = null) {
    this.token = token;
    this.leagueId = leagueId;
    this.handlers = handlers;
    this.league = new League();
    this.instance = crypto.randomUUID();
    this.nextSeq = 1;
    this.outbox = new Map(); // seq → mutate message, until ack or rejected
    this.socket = null;
    this.phase = "disconnected";
    this.role = null;
    this.mode = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.stopped = false;
    this.queue = Promise.resolve(); // messages are handled one at a time, in order (digests are async)
    this.snapshot = null;
    this.sessions = 0; // welcomes received
    // History (§4): requests wait here in order; the first is on the wire while `historySent` (one per session).
    this.historyQueue = [];
    this.historySent = false;
    this.historyOffered = false; // this session's welcome said `history: true`
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop(reason) {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close(1000);
    this.socket = null;
    this.failHistory("stopped", reason);
    this.setState("stopped", reason);
  }

  /** Skips a pending reconnect wait (the browser says it is online again). */
  reconnectNow() {
    if (this.phase === "reconnecting" && !this.stopped) this.connect();
  }

  setState(phase, detail) {
    this.phase = phase;
    const state = { phase, detail: detail || "", role: this.role, mode: this.mode, league: this.league };
    this.handlers.onState(Object.assign(state, { sessions: this.sessions }));
  }

  connect() {
    clearTimeout(this.retryTimer);
    const socket = new WebSocket(`wss://${location.host}/v1/stream`);
    this.socket = socket;
    this.setState("connecting");
    socket.onopen = () => {
      if (socket !== this.socket) return;
      const hello = { type: "hello", protocol: PROTOCOL, token: this.token, client_instance: this.instance, stream: "all" };
      if (this.leagueId) hello.league = this.leagueId;
      const position = this.league.position();
      if (position) Object.assign(hello, position);
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.queue = this.queue.then(() => this.receive(socket, event.data)).catch((error) => {
        this.abandon(socket, 4012, "unreadable stream: " + error.message);
      });
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.closed(event.code, event.reason);
    };
  }

  // Gives up on `socket` (a gap, a digest that does not chain) and resumes from the replica's position.
  abandon(socket, code, reason) {
    if (socket !== this.socket) return;
    this.socket = null;
    socket.close(code, "resync"); // the reason shown is ours; a close reason is limited to 123 bytes
    this.closed(code, reason);
  }

  closed(code, reason) {
    this.snapshot = null;
    this.historySent = false; // what was on the wire is sent again after the next welcome
    this.historyOffered = false;
    if (this.stopped) return;
    if (isTerminal(code)) {
      this.stopped = true;
      this.failHistory("stopped", `closed ${code}`);
      this.setState("stopped", this.lastError || `closed ${code}${reason ? ": " + reason : ""}`);
      this.handlers.onTerminal?.(code);
      return;
    }
    // Jittered exponential backoff: 250 ms doubling to 10 s, a random half to whole of it.
    const ceiling = Math.min(10000, 250 * 2 ** Math.min(this.attempt, 6));
    const delay = Math.round(ceiling * (0.5 + Math.random() / 2));
    this.attempt += 1;
    const why = this.lastError || (code === 1006 ? "connection lost" : `closed ${code}${reason ? ": " + reason : ""}`);
    this.lastError = null;
    this.setState("reconnecting", `${why}; again in ${(delay / 1000).toFixed(1)} s`);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  async receive(socket, text) {
    if (socket !== this.socket) return;
    const message = JSON.parse(text);
    switch (message.type) {
      case "welcome":
        this.role = message.role;
        this.sessions += 1;
        this.mode = message.mode;
        this.attempt = 0;
        if (this.league.epoch !== null && this.league.epoch !== message.epoch) {
          this.league.reset();
          this.handlers.onReset();
        }
        this.league.epoch = message.epoch;
        this.historyOffered = message.history === true;
        if (this.historyOffered) this.sendHistory();
        else this.failHistory("unsupported", "the server does not offer history");
        this.setState(message.mode === "live" ? "live" : "syncing", message.mode);
        if (message.mode === "live") this.resend();
        return;
      case "changeset":
        return this.changeset(socket, message);
      case "caught_up":
        this.setState("live", "backlog");
        this.resend();
        return;
      case "snapshot_begin":
        this.snapshot = { revision: message.revision, epoch: message.epoch, players: [], matches: [], ratings: [] };
        return;
      case "snapshot_chunk":
        if (!this.snapshot) return this.abandon(socket, 4012, "snapshot chunk outside a snapshot");
        this.snapshot.players.push(...(message.players || []));
        this.snapshot.matches.push(...(message.matches || []));
        this.snapshot.ratings.push(...(message.ratings || []));
        return;
      case "snapshot_end":
        if (!this.snapshot || this.snapshot.revision !== message.revision) {
          return this.abandon(socket, 4012, "snapshot end out of order");
        }
        this.league.replace(this.snapshot, message.digest);
        this.snapshot = null;
        this.handlers.onReset();
        this.setState("live", "snapshot");
        this.resend();
        return;
      case "ack":
      case "rejected":
        this.outbox.delete(message.seq);
        this.handlers.onAnswer(message);
        return;
      case "rate_limited":
      case "overloaded":
        this.retryLater(message.seq, message.retry_after_ms);
        return;
      case "history":
        return this.historyAnswered(message);
      case "error":
        this.lastError = `${message.code}: ${message.message}`;
        return;
      default:
        return; // a message type this page does not know: ignored (forward compatibility)
    }
  }

  async changeset(socket, changeset) {
    const league = this.league;
    if (changeset.revision <= league.revision) return; // already held: dropped
    if (changeset.revision !== league.revision + 1) {
      return this.abandon(socket, 4012, `gap: expected r${league.revision + 1}, got r${changeset.revision}`);
    }
    if (!(await continuesChain(changeset, league.digest))) {
      // Our chain and the server's disagree: forget the replica, so the next hello asks for a snapshot.
      league.reset();
      this.handlers.onReset();
      return this.abandon(socket, 4012, `r${changeset.revision} does not continue the digest chain`);
    }
    if (socket !== this.socket) return;
    league.apply(changeset);
    this.handlers.onChange(changeset.changes, changeset);
  }

  // History --------------------------------------------------------------------------------------------------

  /**
   * Asks for one page of an entity's history (§4 `history`): sent once a welcome offers history, one request on
   * the wire at a time, again after a reconnect if unanswered. Never part of the changeset stream.
   * @param {object} request { entity: "match"|"player", id, before?, limit? }
   * @returns {Promise<object>} the page (`entries`, `next_before`, `retained_from`, `pruned`); rejects with
   *   { kind: "refused"|"unsupported"|"stopped", message }
   */
  history(request) {
    if (this.stopped) return Promise.reject({ kind: "stopped", message: "the stream is stopped" });
    return new Promise((resolve, reject) => {
      this.historyQueue.push({ request, resolve, reject });
      this.sendHistory();
    });
  }

  sendHistory() {
    const first = this.historyQueue[0];
    if (!first || this.historySent || !this.historyOffered) return;
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    this.historySent = true;
    this.socket.send(JSON.stringify(Object.assign({ type: "history" }, first.request)));
  }

  historyAnswered(answer) {
    if (!this.historySent) return;
    this.historySent = false;
    const waiting = this.historyQueue.shift();
    if (answer.refused) waiting.reject({ kind: "refused", code: answer.refused, message: answer.message });
    else waiting.resolve(answer);
    this.sendHistory();
  }

  failHistory(kind, message) {
    const waiting = this.historyQueue;
    this.historyQueue = [];
    this.historySent = false;
    for (const w of waiting) w.reject({ kind, message });
  }

  // Mutations ------------------------------------------------------------------------------------------------

  /** True when a mutation may be sent now (live, editor, inside the in-flight window). */
  canMutate() {
    const oldest = this.outbox.size ? Math.min(...this.outbox.keys()) : this.nextSeq;
    return this.nextSeq - oldest < WINDOW - 1;
  }

  /**
   * Makes a mutation with the next seq and sends it if connected (else when reconnected).
   * @returns {number} its seq
   */
  mutate(action) {
    const seq = this.nextSeq++;
    const message = Object.assign({ type: "mutate", seq, base: this.league.revision }, action);
    this.outbox.set(seq, message);
    if (this.phase === "live") this.send(message);
    return seq;
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  // Unanswered mutations again, same ids, once live after a reconnect.
  resend() {
    for (const message of this.outbox.values()) this.send(message);
  }

  retryLater(seq, milliseconds) {
    const message = this.outbox.get(seq);
    if (!message) return;
    setTimeout(() => {
      if (this.outbox.get(seq) === message && this.phase === "live") this.send(message);
    }, Math.max(1, milliseconds || 1000));
  }
}
