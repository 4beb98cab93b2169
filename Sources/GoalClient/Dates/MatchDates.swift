public import GoalModel
public import GoalWire

/// When each match was created — the `time` of the changeset that created it, the match's date in lists — as far
/// as a client can know it.
///
/// A changeset that creates a match (its `created.revision` is the changeset's revision) records the time at once.
/// A match that arrived in a snapshot (or was created before the client's history) has no time until the server's
/// history answers for it: `nextRequest(for:)` names one such match, the one to ask about next, and asks for
/// exactly its creating revision (`before: created.revision + 1, limit: 1`), so one short page decides it. When
/// the log no longer holds that revision (retention) or the server refuses, the date stays unknown and the match
/// is not asked about again.
///
/// A state machine without I/O: at most one request is outstanding (`asking`); the owner sends it and reports
/// the answer with `answered(_:)` or `failed(_:)`. Value type, `Sendable`; its owner changes it on one thread
/// (the match list's main actor). Held in memory only: a restarted client learns its snapshot matches' dates
/// again, one request per shown row.
public struct MatchDates: Hashable, Sendable {
    /// The outstanding request: which match, at which creating revision.
    public struct Asking: Hashable, Sendable {
        public let match: MatchID
        public let created: Revision
    }

    /// The known creation times, by match.
    public private(set) var times: [MatchID: Timestamp] = [:]
    /// The request sent and not answered yet, if any.
    public private(set) var asking: Asking?
    /// Matches whose creation the server's log does not hold (or that it refused): never asked again.
    private var unknowable: Set<MatchID> = []
    /// False once the server said it offers no history: nothing is asked any more.
    private var historyOffered = true
    /// The match asked about was deleted since: its answer is dropped.
    private var askingDeleted = false

    public init() {}

    /// The creation time of match `id`, when known.
    public subscript(id: MatchID) -> Timestamp? { times[id] }

    /// Records the time of every match `changeset` creates; forgets the matches it deletes.
    public mutating func record(_ changeset: Changeset) {
        for change in changeset.changes {
            switch change {
            case .matchUpserted(let match) where match.created.revision == changeset.revision:
                times[match.id] = changeset.time
            case .matchDeleted(let id):
                times[id] = nil
                unknowable.remove(id)
                if asking?.match == id { askingDeleted = true }
            default:
                break
            }
        }
    }

    /// After a snapshot replaced the replica: forgets the matches it no longer holds (their times stay true for
    /// those it still holds, since a match's creation never changes).
    public mutating func keep(only replica: ReplicaState) {
        times = times.filter { replica.matches[$0.key] != nil }
        unknowable = unknowable.filter { replica.matches[$0] != nil }
    }

    /// The request to send now for the first of `matches` (in the order given, e.g. the rows on screen) whose
    /// date is unknown and not known to be unknowable; nil while another request is outstanding, when every
    /// date is decided, or when the server offers no history. Marks it outstanding.
    public mutating func nextRequest(for matches: some Sequence<Match>) -> HistoryRequest? {
        guard historyOffered, asking == nil else { return nil }
        for match in matches where times[match.id] == nil && !unknowable.contains(match.id) {
            asking = Asking(match: match.id, created: match.created.revision)
            askingDeleted = false
            return HistoryRequest(entity: .match(match.id), before: match.created.revision + 1, limit: 1)
        }
        return nil
    }

    /// The server's page for the outstanding request.
    /// - Returns: true when it taught a date (the rows showing it change).
    @discardableResult
    public mutating func answered(_ page: HistoryPageMessage) -> Bool {
        guard let asked = asking else { return false }
        defer {
            asking = nil
            askingDeleted = false
        }
        guard !askingDeleted else { return false }
        guard let creation = page.entries.first(where: { $0.revision == asked.created && $0.change == .created })
        else {
            unknowable.insert(asked.match)  // pruned: the log starts after the match's creation
            return false
        }
        times[asked.match] = creation.time
        return true
    }

    /// The outstanding request failed: a refusal leaves that match without a date; a server without history ends
    /// all asking; a stopped client asks again on the next `nextRequest(for:)`.
    public mutating func failed(_ error: HistoryError) {
        guard let asked = asking else { return }
        asking = nil
        askingDeleted = false
        switch error.kind {
        case .refused: unknowable.insert(asked.match)
        case .unsupported: historyOffered = false
        case .stopped: break
        }
    }
}
