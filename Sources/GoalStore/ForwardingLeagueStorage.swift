public import GoalModel

/// A `LeagueStorage` that wraps another and forwards every call it does not implement itself: test stores that
/// intercept one or two calls (`FaultInjectingStorage`, GoalTestSupport's `GatedStorage`) write only those.
///
/// Threading and lifetime: the conformer's; forwarding adds no state.
public protocol ForwardingLeagueStorage: LeagueStorage {
    /// The store that receives every call the conformer does not implement itself.
    var base: any LeagueStorage { get }
}

extension ForwardingLeagueStorage {
    public func recover() throws(StorageError) -> DurableLeague { try base.recover() }

    public func append(_ batch: StorageBatch) throws(StorageError) { try base.append(batch) }

    public func backlog(after: Revision, upTo: Revision, limit: Int) throws(StorageError) -> [LogFrame] {
        try base.backlog(after: after, upTo: upTo, limit: limit)
    }

    public func history(of entity: EntityRef, before: Revision?, limit: Int) throws(StorageError) -> HistoryPage {
        try base.history(of: entity, before: before, limit: limit)
    }

    public func logBounds() throws(StorageError) -> LogBounds { try base.logBounds() }

    public func prune(now: Timestamp) throws(StorageError) -> PruneReport { try base.prune(now: now) }

    public func checkpoint() throws(StorageError) { try base.checkpoint() }

    public func createToken(_ token: StoredToken) throws(StorageError) { try base.createToken(token) }

    public func tokens() throws(StorageError) -> [StoredToken] { try base.tokens() }

    public func token(secretHash: [UInt8]) throws(StorageError) -> StoredToken? {
        try base.token(secretHash: secretHash)
    }

    public func revokeToken(named name: String, at time: Timestamp) throws(StorageError) -> StoredToken {
        try base.revokeToken(named: name, at: time)
    }

    public func epoch() throws(StorageError) -> LeagueEpoch { try base.epoch() }
    public var kind: String { base.kind }
    public var isShared: Bool { base.isShared }

    public func rotateEpoch() throws(StorageError) -> LeagueEpoch { try base.rotateEpoch() }

    public func close() throws(StorageError) { try base.close() }
}
