public import GoalModel

/// `history {entity, id, before?, limit?}`: one page of an entity's history, newest first (docs/PROTOCOL.md §4).
///
/// A session has at most one request outstanding. Value type, `Sendable`.
public struct HistoryRequest: Hashable, Sendable {
    /// The default page size when `limit` is absent, and the largest one allowed.
    public static let defaultLimit = 20
    public static let maximumLimit = 100

    public var entity: EntityRef
    /// Only revisions below this one (a previous answer's `next_before`); nil for the newest.
    public var before: Revision?
    /// How many entries at most (1…`maximumLimit`); nil for `defaultLimit`.
    public var limit: Int?

    public init(entity: EntityRef, before: Revision? = nil, limit: Int? = nil) {
        self.entity = entity
        self.before = before
        self.limit = limit
    }
}

/// Why the server did not answer a `history` request with a page; the session goes on.
public enum HistoryRefusal: String, Hashable, Sendable, CaseIterable {
    /// The entity does not exist and the retained log never wrote it.
    case unknownEntity = "unknown_entity"
    /// `limit` outside 1…100, or `before` below 1.
    case badHistoryRequest = "bad_history_request"
    /// Another `history` request of this session is still being answered.
    case busy
}

/// One page of an entity's history as the server sends it. Value type, `Sendable`.
public struct HistoryPageMessage: Hashable, Sendable {
    /// Newest first.
    public var entries: [HistoryEntry]
    /// The `before` of the next (older) page; nil when this page reaches the oldest retained entry.
    public var nextBefore: Revision?
    /// The oldest revision still in the log (older history is pruned); nil when the log is empty.
    public var retainedFrom: Revision?
    /// True when the entity's older history was pruned: the last page ends with an entry that is not its creation.
    public var pruned: Bool

    public init(entries: [HistoryEntry], nextBefore: Revision?, retainedFrom: Revision?, pruned: Bool) {
        self.entries = entries
        self.nextBefore = nextBefore
        self.retainedFrom = retainedFrom
        self.pruned = pruned
    }
}

/// The server's answer to `history`: the entity it names and either a page or a refusal.
///
/// Value type, `Sendable`.
public struct HistoryAnswer: Hashable, Sendable {
    public enum Result: Hashable, Sendable {
        case page(HistoryPageMessage)
        case refused(HistoryRefusal, message: String)
    }

    public var entity: EntityRef
    public var result: Result

    public init(entity: EntityRef, result: Result) {
        self.entity = entity
        self.result = result
    }
}
