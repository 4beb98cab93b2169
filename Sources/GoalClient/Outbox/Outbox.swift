import Foundation
import GoalModel
import GoalWire

/// The client's unacknowledged mutations in seq order, and whether each was sent on the current connection.
///
/// Owned by one `GoalClient` and changed only on its serial scheduler (no lock of its own). In memory; a client
/// with a `ClientStateStore` mirrors every change into it, and restores the entries a previous process left.
struct Outbox {
    struct Entry {
        var mutation: Mutation
        var isSent: Bool
        /// True once sent on any connection: if the client stops now, the outcome is unknown.
        var wasEverSent = false
        /// When it was first sent (the scheduler's clock); re-sends stop `maximumResendAge` after it.
        var firstSent: Date?
        let ticket: MutationTicket
    }

    /// Unanswered mutations, ascending by seq.
    private(set) var entries: [Entry] = []
    /// Sends wait until this date (`rate_limited` / `overloaded` pacing); nil when not paused.
    var pausedUntil: Date?

    /// Queues a new mutation (not yet sent).
    mutating func enqueue(_ mutation: Mutation, ticket: MutationTicket) {
        entries.append(Entry(mutation: mutation, isSent: false, ticket: ticket))
    }

    /// Restores a mutation an earlier process queued (and maybe sent: then a re-send's outcome was unknown).
    mutating func restore(_ queued: QueuedMutation, ticket: MutationTicket) {
        var entry = Entry(mutation: queued.mutation, isSent: false, ticket: ticket)
        entry.firstSent = queued.firstSent
        entry.wasEverSent = queued.firstSent != nil
        entries.append(entry)
        entries.sort { $0.mutation.id.seq < $1.mutation.id.seq }
    }

    /// How far above the oldest unanswered seq a mutation may be sent (PROTOCOL.md §6, "the in-flight window"): the
    /// server keeps the results of the last K seqs it processed, so within K a seq it never processed (answered
    /// `overloaded` or `rate_limited`, re-sent later) can never be taken for an expired one.
    static let inFlightWindow = UInt64(ClientRecord.keptResults)

    /// How long after its first send a mutation may still be sent (PROTOCOL.md §6): the server keeps an instance's
    /// exactly-once record at least `WireProtocol.minimumClientRecordAgeSeconds` after the last result it recorded,
    /// which is after this mutation's first send; past that it may have forgotten the instance and would apply a
    /// re-send as new.
    static let maximumResendAge = TimeInterval(WireProtocol.minimumClientRecordAgeSeconds)

    /// Removes and returns the unsent entries first sent `maximumResendAge` or longer before `now`: they must not
    /// be sent again, and their outcome is unknown.
    mutating func removeExpired(now: Date) -> [Entry] {
        let expired = entries.filter { entry in
            guard !entry.isSent, let firstSent = entry.firstSent else { return false }
            return now.timeIntervalSince(firstSent) >= Self.maximumResendAge
        }
        guard !expired.isEmpty else { return [] }
        let seqs = Set(expired.map(\.mutation.id.seq))
        entries.removeAll { seqs.contains($0.mutation.id.seq) }
        return expired
    }

    /// The mutations to send now, in seq order, marked as sent; none while paused at `now`, and none K or more
    /// above the oldest unanswered seq (they wait until the window moves).
    mutating func takeUnsent(now: Date) -> [Mutation] {
        if let pausedUntil, pausedUntil > now { return [] }
        pausedUntil = nil
        guard let oldest = entries.first?.mutation.id.seq else { return [] }
        var out: [Mutation] = []
        for index in entries.indices where !entries[index].isSent {
            guard entries[index].mutation.id.seq - oldest < Self.inFlightWindow else { break }
            entries[index].isSent = true
            entries[index].wasEverSent = true
            if entries[index].firstSent == nil { entries[index].firstSent = now }
            out.append(entries[index].mutation)
        }
        return out
    }

    /// Removes and returns the entry answered by the server.
    mutating func remove(seq: UInt64) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.mutation.id.seq == seq }) else { return nil }
        return entries.remove(at: index)
    }

    /// Marks one mutation for sending again (it was rate limited).
    mutating func markUnsent(seq: UInt64) {
        guard let index = entries.firstIndex(where: { $0.mutation.id.seq == seq }) else { return }
        entries[index].isSent = false
    }

    /// Marks every mutation for sending again (the connection was lost; the same ids go out on the next one).
    mutating func markAllUnsent() {
        for index in entries.indices { entries[index].isSent = false }
    }

    /// Removes every entry (the client stopped); returns them for failing.
    mutating func removeAll() -> [Entry] {
        defer { entries = [] }
        return entries
    }

    /// The public view of the queue.
    var pending: [PendingMutation] {
        entries.map { PendingMutation(mutation: $0.mutation, isSent: $0.isSent) }
    }
}
