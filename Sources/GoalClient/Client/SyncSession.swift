import GoalModel
import GoalWire

/// How one connection's inbound stream is read: `welcome`, then a backlog (changesets, `caught_up`) or a snapshot
/// (`snapshot_begin`, chunks, `snapshot_end`), then live changesets; answers to mutations may arrive at any time.
///
/// The order rules (what may follow what, duplicates, gaps, epoch changes) are the shared `ResumeSession`'s; this
/// type applies what it delivers to the replica, assembles snapshots and tells the client what happened. Value
/// type, owned by one connection of one `GoalClient`, changed on its serial scheduler.
struct SyncSession {
    /// The snapshot being assembled, between `snapshot_begin` and `snapshot_end`.
    private var assembler: SnapshotAssembler?

    /// What a message meant, for the client to act on.
    enum Outcome: Equatable {
        /// Nothing visible changed (a duplicate changeset, a snapshot chunk).
        case none
        /// The session is authenticated; `live` when there is nothing to catch up.
        case welcomed(ServerMessage.Welcome, live: Bool)
        /// The replica took this changeset.
        case applied(Changeset)
        /// A snapshot replaced the replica; the session is live.
        case replaced(revision: Revision)
        /// The backlog is done; the session is live.
        case caughtUp
        /// The stream cannot continue (gap, bad digest, out-of-order message): close and resume.
        case resync(String)
        case ack(seq: UInt64, revision: Revision, noop: Bool)
        case rejected(seq: UInt64, MutationRejection)
        case paced(seq: UInt64?, milliseconds: Int)
        case serverError(WireErrorCode, String)
        /// The answer to this connection's `history` request.
        case history(HistoryAnswer)
    }

    /// Reads one message: the shared machine judges its place in the stream, the replica takes its contents.
    /// `payload` is a changeset's canonical payload in its frame (`ServerMessage.decodeWithPayload`), for the
    /// replica's digest check.
    mutating func receive(
        _ message: ServerMessage,
        payload: ChangesetFrame.Payload? = nil,
        machine: inout ResumeSession,
        replica: inout ReplicaState
    ) -> Outcome {
        switch message {
        case .snapshotChunk, .snapshotEnd:
            // The snapshot's contents first; the machine moves the position only once they are complete.
            guard var current = assembler else { return .resync("\(message.type) arrived outside a snapshot") }
            do {
                guard let snapshot = try current.receive(message) else {
                    assembler = current
                    return .none
                }
                assembler = nil
                replica.replace(with: snapshot)
            } catch {
                assembler = nil
                return .resync(error.description)
            }
        case .ack(let seq, let revision, let noop):
            return .ack(seq: seq, revision: revision, noop: noop)
        case .rejected(let seq, let rejection):
            return .rejected(seq: seq, rejection)
        case .rateLimited(let seq, let milliseconds):
            return .paced(seq: seq, milliseconds: milliseconds)
        case .overloaded(let seq, let milliseconds):
            return .paced(seq: seq, milliseconds: milliseconds)
        case .error(let code, let text):
            return .serverError(code, text)
        case .history(let answer):
            return .history(answer)
        case .welcome, .changeset, .delta, .caughtUp, .snapshotBegin:
            break
        case .presenceState, .presence:
            return .none  // GoalClient reads presence before the stream does (GoalClient+Presence.swift)
        }
        guard let event = ResumeSession.StreamEvent(message) else { return .none }
        let before = machine.position
        switch machine.receive(event) {
        case .welcomed(_, let live, _):
            guard case .welcome(let welcome) = message else { return .none }
            replica.adopt(epoch: welcome.epoch)
            return .welcomed(welcome, live: live)
        case .deliver:
            do {
                guard let changeset = try replica.changeset(in: message) else { return .none }
                return try replica.apply(changeset, payload: payload) ? .applied(changeset) : .none
            } catch {
                machine.rewind(to: before)
                return .resync(error.description)
            }
        case .duplicate, .ignore:
            return .none
        case .caughtUp:
            return .caughtUp
        case .snapshotStarted:
            if case .snapshotBegin(let begin) = message { assembler = SnapshotAssembler(begin) }
            return .none
        case .snapshotComplete(let revision):
            return .replaced(revision: revision)
        case .resync(let reason):
            return .resync(reason)
        }
    }
}
