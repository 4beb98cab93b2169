import GoalModel
import GoalWire

/// How one connection's inbound stream is read: `welcome`, then a backlog (changesets, `caught_up`) or a snapshot
/// (`snapshot_begin`, chunks, `snapshot_end`), then live changesets; answers to mutations may arrive at any time.
///
/// A pure state machine over the replica it is handed: it applies changesets and snapshots and tells the client
/// what happened. Value type, owned by one connection of one `GoalClient`, changed on its serial scheduler.
struct SyncSession {
    enum Phase {
        case awaitingWelcome
        case backlog
        case awaitingSnapshot
        case snapshot(SnapshotAssembler)
        case live
    }

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
    }

    private(set) var phase: Phase = .awaitingWelcome

    /// True while a backlog is being read (before `caught_up`).
    var isInBacklog: Bool {
        if case .backlog = phase { return true }
        return false
    }

    /// True once `welcome` arrived (mutations may be sent).
    var isAuthenticated: Bool {
        if case .awaitingWelcome = phase { return false }
        return true
    }

    /// Reads one message.
    mutating func receive(_ message: ServerMessage, replica: inout ReplicaState) -> Outcome {
        switch message {
        case .welcome(let welcome):
            guard case .awaitingWelcome = phase else { return .resync("a second welcome arrived") }
            replica.adopt(epoch: welcome.epoch)
            switch welcome.mode {
            case .backlog: phase = .backlog
            case .snapshot: phase = .awaitingSnapshot
            case .live: phase = .live
            }
            return .welcomed(welcome, live: welcome.mode == .live)
        case .changeset(let changeset):
            switch phase {
            case .backlog, .live:
                do {
                    return try replica.apply(changeset) ? .applied(changeset) : .none
                } catch {
                    return .resync(error.description)
                }
            case .awaitingWelcome, .awaitingSnapshot, .snapshot:
                return .resync("a changeset arrived before the stream was ready for it")
            }
        case .caughtUp(let head):
            guard case .backlog = phase else { return .none }
            guard replica.revision >= head else {
                return .resync("caught_up at \(head) but the replica holds \(replica.revision)")
            }
            phase = .live
            return .caughtUp
        case .snapshotBegin(let begin):
            guard isAuthenticated else { return .resync("a snapshot arrived before welcome") }
            phase = .snapshot(SnapshotAssembler(begin))
            return .none
        case .snapshotChunk, .snapshotEnd:
            guard case .snapshot(var assembler) = phase else {
                return .resync("\(message.type) arrived outside a snapshot")
            }
            do {
                guard let snapshot = try assembler.receive(message) else {
                    phase = .snapshot(assembler)
                    return .none
                }
                replica.replace(with: snapshot)
                phase = .live
                return .replaced(revision: snapshot.revision)
            } catch {
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
        }
    }
}
