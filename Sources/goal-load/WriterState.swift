import GoalModel

/// The mutable state of one writer beside its `ResumeDriver`, guarded by that driver's lock.
///
/// Value type; only touched with that lock held.
struct WriterState: Sendable {
    /// Welcomed and able to send.
    var ready = false
    /// The measured phase is on: send by rate or flat out.
    var sending = false
    /// The newest revision this writer knows (welcome head, then its acks).
    var knownRevision: Revision = 0
    var nextSeq: UInt64 = 1
    var inFlight = 0
    /// Send credit when a rate is set (earned at the writer's tick).
    var credit: SendCredit
    /// No sends before this instant (rate_limited / overloaded), on `MonotonicClock`.
    var pausedUntil: UInt64 = 0
    var source: MutationSource
    /// Setup writers send exactly these, in order, then stop.
    var script: [MutationAction] = []
    var scriptIndex = 0
    var counters = WriterCounters()
    var problems: [String] = []

    init(source: MutationSource, credit: SendCredit) {
        self.source = source
        self.credit = credit
    }
}

/// What one writer sent and what came back.
///
/// Value type, `Sendable`; added up over writers for the report.
struct WriterCounters: Sendable, Equatable {
    var sent = 0
    var accepted = 0
    var noops = 0
    var rejections: [String: Int] = [:]
    var rateLimited = 0
    var overloaded = 0
    var reconnects = 0
    /// Mutations in flight when a connection dropped: their outcome is unknown.
    var unanswered = 0
    var sentByKind: [String: Int] = [:]

    mutating func add(_ other: WriterCounters) {
        sent += other.sent
        accepted += other.accepted
        noops += other.noops
        rejections.merge(other.rejections, uniquingKeysWith: +)
        rateLimited += other.rateLimited
        overloaded += other.overloaded
        reconnects += other.reconnects
        unanswered += other.unanswered
        sentByKind.merge(other.sentByKind, uniquingKeysWith: +)
    }
}
