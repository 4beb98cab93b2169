/// One client instance's row of the exactly-once table: the highest seq seen and the results of its last
/// `ClientRecord.keptResults` mutations (acks, noops AND rejections), each with its payload's fingerprint.
///
/// Storage grows with clients, not with mutations: the store persists one record per instance with each
/// batch and never prunes it with the log. The server forgets a record that has not been used (no result
/// recorded) for its retention age, and bounds how many it holds (docs/PROTOCOL.md §6). Value type, `Sendable`.
///
/// Kept results are the ones with the highest seqs. A seq at or below `lastSeq` that is not kept is expired
/// only when it is older than every kept result and the window is full; any other unknown seq was never
/// processed (a client sent out of order) and is applied normally, so exactly-once holds either way.
public struct ClientRecord: Hashable, Sendable {
    /// How many results a record keeps per client instance (K).
    public static let keptResults = 32

    /// One kept result.
    public struct Entry: Hashable, Sendable {
        /// The mutation's seq.
        public var seq: UInt64
        /// The fingerprint of the payload the result belongs to.
        public var fingerprint: PayloadFingerprint
        /// The original result, answered again to any repeat of the id.
        public var outcome: MutationOutcome

        public init(seq: UInt64, fingerprint: PayloadFingerprint, outcome: MutationOutcome) {
            self.seq = seq
            self.fingerprint = fingerprint
            self.outcome = outcome
        }
    }

    /// The client instance this record belongs to.
    public let instance: ClientInstanceID
    /// The highest seq processed for this instance (0 before the first).
    public private(set) var lastSeq: UInt64
    /// At most `keptResults` entries, ascending by seq.
    public private(set) var results: [Entry]
    /// When a result was last recorded for this instance, by the server's clock (the retention age counts from
    /// here). The Unix epoch until the server stamps it.
    public private(set) var lastUsed: Timestamp

    /// Builds a record, e.g. from the store. Entries are sorted by seq and only the newest `keptResults` kept.
    public init(
        instance: ClientInstanceID,
        lastSeq: UInt64 = 0,
        results: [Entry] = [],
        lastUsed: Timestamp = Timestamp(millisecondsSince1970: 0)
    ) {
        self.instance = instance
        self.lastUsed = lastUsed
        var sorted = results.sorted { $0.seq < $1.seq }
        if sorted.count > ClientRecord.keptResults {
            sorted.removeFirst(sorted.count - ClientRecord.keptResults)
        }
        self.results = sorted
        self.lastSeq = max(lastSeq, sorted.last?.seq ?? 0)
    }

    /// The kept result of a seq, if any.
    public func entry(for seq: UInt64) -> Entry? {
        // At most 32 entries: a linear scan from the newest end beats a binary search here.
        results.last { $0.seq == seq }
    }

    /// True when `seq` may have been processed but its result is no longer kept (`id_expired`).
    public func isExpired(_ seq: UInt64) -> Bool {
        guard seq <= lastSeq, entry(for: seq) == nil else { return false }
        guard results.count >= ClientRecord.keptResults, let oldest = results.first else { return false }
        return seq < oldest.seq
    }

    /// Stamps the record as used at `time`; it never moves back (a clock that steps back keeps the later stamp).
    mutating func markUsed(at time: Timestamp) {
        lastUsed = max(lastUsed, time)
    }

    /// Records the result of a newly processed seq, dropping the oldest kept result past the window.
    mutating func record(_ entry: Entry) {
        lastSeq = max(lastSeq, entry.seq)
        if let last = results.last, last.seq > entry.seq {
            let index = results.firstIndex { $0.seq > entry.seq } ?? results.endIndex
            results.insert(entry, at: index)
        } else {
            results.append(entry)
        }
        if results.count > ClientRecord.keptResults {
            results.removeFirst(results.count - ClientRecord.keptResults)
        }
    }
}
