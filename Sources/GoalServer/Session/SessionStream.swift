import GoalModel
import GoalWire
import NIOCore

/// The changeset stream of one open `stream: all` session, as a state machine: which revisions it has been sent,
/// whether it is catching up (backlog, snapshot, rejoin) or live, and where each answer goes in its stream. It
/// takes events (a live window with answers, the socket's writability, a backlog page, a snapshot) and returns
/// what to write, in order; `SessionMachine` owns it and `SessionHandler` performs the writes and the store reads.
/// No I/O, no clock: tested directly (SessionStreamTests).
///
/// The rules (docs/PROTOCOL.md §3 and §6):
/// - Live: the frames of the loop's window after `sent`, each answer right after the changeset it follows (an ack
///   after its own commit, also when one batch carries many).
/// - Catching up: live windows only raise `target`; answers are held; snapshot frames, then backlog pages
///   (sent, target], are written while the socket is writable and never count toward the slow-consumer bound;
///   the switch to live happens only at the loop's head (`caught_up{sent}` after a backlog), then the held answers.
/// - A live window that no longer reaches back to `sent` (a bug the shard's floor rule rules out) sends the
///   session back to the log for (sent, head] rather than past a gap.
///
/// Value type, confined to the session's event loop with its handler. Lifetime: from the session's registration.
struct SessionStream {
    enum Mode: Equatable {
        case live
        case catchingUp(CatchUp)
    }

    enum CatchUp: Equatable {
        /// Changesets (sent, target], then `caught_up`.
        case backlog
        /// The snapshot's frames, then any changesets after it; no `caught_up`.
        case snapshot
        /// A live session whose loop's window no longer reaches back to its `sent` (a safety net; the shard's
        /// floor rule should make it unreachable): changesets (sent, target] from the log, then live again without
        /// `caught_up`.
        case rejoin
    }

    /// What the handler writes, in this order.
    enum Write {
        /// Changeset frames of the live window (live bytes: they count toward the bound).
        case changesets(ByteBuffer, count: Int)
        /// An answer (ack, rejection) for this session.
        case reply(ByteBuffer)
        /// Snapshot or backlog frames (catch-up bytes: they never count toward the bound).
        case catchUp(ByteBuffer)
        /// `caught_up{head}`: the backlog ended at `head`.
        case caughtUp(Revision)
    }

    /// What catching up needs next.
    enum Step {
        /// Write these (one snapshot frame, or the last page's frames have been written: nothing).
        case write([Write])
        /// Read the backlog page (after, upTo] from the log; report it with `pageRead`.
        case readPage(after: Revision, upTo: Revision)
        /// Nothing until the socket is writable again, the snapshot or the page arrives.
        case wait
    }

    private(set) var mode: Mode
    /// The newest revision written to (or covered by a snapshot sent to) this session.
    private(set) var sent: Revision
    /// The newest revision the loop has delivered since the session registered.
    private(set) var target: Revision
    private var heldReplies: [ByteBuffer] = []
    private var snapshotFrames: ArraySlice<ByteBuffer> = []
    private(set) var awaitingSnapshot = false
    private(set) var pageInFlight = false

    /// A stream starting as `welcome` said: live from the head (or the client's newer durable `since`), a backlog
    /// from `since`, or a snapshot (built by the handler; report it with `snapshotArrived`).
    init(mode syncMode: ServerMessage.SyncMode, since: Revision?, head: Revision) {
        target = head
        switch syncMode {
        case .live:
            mode = .live
            sent = max(head, since ?? head)  // frames up to `since` are the client's already
        case .backlog:
            mode = .catchingUp(.backlog)
            sent = since ?? 0
        case .snapshot:
            mode = .catchingUp(.snapshot)
            sent = 0
            awaitingSnapshot = true
        }
    }

    var isLive: Bool { mode == .live }

    /// What one visit writes, in order. The usual visit writes one slice of changesets and no answer, so the first
    /// write is kept inline and only a visit with answers allocates (this runs for every session on every visit).
    struct Writes: Sequence {
        private(set) var first: Write?
        private(set) var rest: [Write] = []

        mutating func append(_ write: Write) {
            if first == nil { first = write } else { rest.append(write) }
        }

        var isEmpty: Bool { first == nil }

        struct Iterator: IteratorProtocol {
            fileprivate var first: Write?
            fileprivate var rest: IndexingIterator<[Write]>

            mutating func next() -> Write? {
                if let write = first {
                    first = nil
                    return write
                }
                return rest.next()
            }
        }

        func makeIterator() -> Iterator {
            Iterator(first: first, rest: rest.makeIterator())
        }
    }

    /// The loop's live window and this session's answers from one visit: what to write, in order. Returned, never
    /// written from inside: the handler performs the writes after this mutation ends, so a write that closes the
    /// session (a slow consumer, a write error) cannot meet the stream in the middle of a change.
    mutating func deliver(_ window: LiveWindow, replies: [Reply]) -> Writes {
        var writes = Writes()
        guard case .live = mode else {
            target = max(target, window.head)
            heldReplies.append(contentsOf: replies.lazy.map(\.frame))
            return writes
        }
        guard window.reaches(back: sent) else {
            target = window.head
            mode = .catchingUp(.rejoin)
            heldReplies.append(contentsOf: replies.lazy.map(\.frame))
            return writes
        }
        for reply in replies {
            advance(through: reply.after, in: window, into: &writes)
            writes.append(.reply(reply.frame))
        }
        advance(through: window.head, in: window, into: &writes)
        return writes
    }

    private mutating func advance(through revision: Revision, in window: LiveWindow, into writes: inout Writes) {
        let last = min(revision, window.head)
        guard last > sent, let frames = window.frames(after: sent, through: last) else { return }
        let count = Int(last - sent)
        sent = last
        writes.append(.changesets(frames, count: count))
    }

    /// An answer outside a visit (a `rejected{invalid}` decided by the session itself): held while catching up.
    mutating func reply(_ frame: ByteBuffer) -> Write? {
        guard case .live = mode else {
            heldReplies.append(frame)
            return nil
        }
        return .reply(frame)
    }

    /// The snapshot the handler built: its frames go out before anything after its revision.
    mutating func snapshotArrived(revision: Revision, frames: [ByteBuffer]) {
        awaitingSnapshot = false
        sent = revision
        target = max(target, revision)
        snapshotFrames = frames[...]
    }

    /// The next catch-up step while the socket is `writable`; `loopHead` is the loop's head now (live only there,
    /// where the loop's window is sure to reach back).
    mutating func nextStep(writable: Bool, loopHead: Revision) -> Step {
        guard case .catchingUp(let catchUp) = mode, writable else { return .wait }
        if let frame = snapshotFrames.popFirst() { return .write([.catchUp(frame)]) }
        guard !awaitingSnapshot, !pageInFlight else { return .wait }
        target = max(target, loopHead)
        if sent < target {
            pageInFlight = true
            return .readPage(after: sent, upTo: target)
        }
        mode = .live
        var writes: [Write] = catchUp == .backlog ? [.caughtUp(sent)] : []
        writes.append(contentsOf: heldReplies.lazy.map { .reply($0) })
        heldReplies = []
        return .write(writes)
    }

    /// Why a backlog page ends the session.
    enum PageFailure: Equatable {
        /// The log had nothing after `sent` although the target is ahead: it was pruned or rewritten.
        case nothingAfter(Revision)
    }

    /// A backlog page arrived; its last revision is `last` (nil: the page was empty).
    /// - Returns: nil, or why the session must end.
    mutating func pageRead(last: Revision?) -> PageFailure? {
        pageInFlight = false
        guard let last, last > sent else { return .nothingAfter(sent) }
        sent = last
        return nil
    }
}
