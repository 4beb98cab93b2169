import Foundation
public import GoalModel

/// A `LeagueStorage` in memory: the default test double, with the same rules as the SQLite store (contiguous
/// revisions, all-or-nothing batches, unique name keys and token names, retention, pruning reports), and a
/// `LeagueCatalog` whose leagues are in-memory stores too (`InMemoryLeagueStorage+Leagues`).
///
/// Threading: every call takes the contents' lock for its whole duration, so calls are atomic with respect to each
/// other and may come from any thread. Lifetime: the contents live as long as any handle on them; after `close()`
/// every call on this handle throws `StorageError.closed(call:)` naming the call, so a test that uses a closed store
/// fails loudly. `openLeague` returns a new handle on a league's contents each time, as SQLite opens its file again:
/// closing one (a daemon evicting an idle league) leaves the league's data for the next open.
///
/// `@unchecked Sendable`: `closed` and the shared contents are only touched under the contents' lock.
public final class InMemoryLeagueStorage: LeagueStorage, @unchecked Sendable {
    private let shared: MemoryContentsBox
    /// Whether this handle was closed; under `shared.lock`.
    private var closed = false
    let retention: RetentionPolicy

    /// An empty store with a fresh epoch.
    /// - Parameters:
    ///   - retention: What `prune(now:)` keeps.
    ///   - epoch: The epoch (random by default).
    public convenience init(retention: RetentionPolicy = .default, epoch: LeagueEpoch = .random()) {
        self.init(sharing: MemoryContentsBox(MemoryContents(epoch: epoch)), retention: retention)
    }

    /// A handle on existing contents (a league of the catalog).
    init(sharing shared: MemoryContentsBox, retention: RetentionPolicy) {
        self.shared = shared
        self.retention = retention
    }

    func withOpen<T: Sendable>(
        _ call: String,
        _ body: (inout MemoryContents) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        guard !closed else { throw .closed(call: call) }
        return try body(&shared.contents)
    }

    public func recover() throws(StorageError) -> DurableLeague {
        try withOpen("recover()") { contents throws(StorageError) in try contents.durableLeague() }
    }

    public func append(_ batch: StorageBatch) throws(StorageError) {
        try withOpen("append(_:)") { contents throws(StorageError) in
            var copy = contents
            try copy.apply(batch)
            contents = copy
        }
    }

    public func backlog(after: Revision, upTo: Revision, limit: Int) throws(StorageError) -> [LogFrame] {
        try withOpen("backlog(after:upTo:limit:)") { contents throws(StorageError) in
            try contents.backlog(after: after, upTo: upTo, limit: limit)
        }
    }

    public func history(of entity: EntityRef, before: Revision?, limit: Int) throws(StorageError) -> HistoryPage {
        try withOpen("history(of:before:limit:)") { contents in
            contents.history(of: entity, before: before, limit: limit)
        }
    }

    public func logBounds() throws(StorageError) -> LogBounds {
        try withOpen("logBounds()") { contents in contents.bounds }
    }

    public func prune(now: Timestamp) throws(StorageError) -> PruneReport {
        try withOpen("prune(now:)") { [retention] contents in contents.prune(retention, now: now) }
    }

    public func checkpoint() throws(StorageError) {
        try withOpen("checkpoint()") { _ in }
    }

    public func createToken(_ token: StoredToken) throws(StorageError) {
        try withOpen("createToken(_:)") { contents throws(StorageError) in
            guard token.secretHash.count == StoredToken.hashLength else {
                throw .invalidTokenHash(length: token.secretHash.count)
            }
            guard !contents.tokens.contains(where: { $0.name == token.name }) else { throw .tokenNameTaken(token.name) }
            guard !contents.tokens.contains(where: { $0.secretHash == token.secretHash }) else { throw .tokenHashTaken }
            guard !contents.tokens.contains(where: { $0.id == token.id }) else {
                throw .constraint(operation: "createToken", detail: "token id \(token.id) exists")
            }
            contents.tokens.append(token)
        }
    }

    public func tokens() throws(StorageError) -> [StoredToken] {
        try withOpen("tokens()") { contents in
            contents.tokens.sorted { ($0.created, $0.name) < ($1.created, $1.name) }
        }
    }

    public func token(secretHash: [UInt8]) throws(StorageError) -> StoredToken? {
        try withOpen("token(secretHash:)") { contents in contents.tokens.first { $0.secretHash == secretHash } }
    }

    public func revokeToken(named name: String, at time: Timestamp) throws(StorageError) -> StoredToken {
        try withOpen("revokeToken(named:at:)") { contents throws(StorageError) in
            guard let index = contents.tokens.firstIndex(where: { $0.name == name }) else { throw .tokenNotFound(name) }
            if contents.tokens[index].revoked == nil { contents.tokens[index].revoked = time }
            return contents.tokens[index]
        }
    }

    public var kind: String { "memory" }

    public func epoch() throws(StorageError) -> LeagueEpoch {
        try withOpen("epoch()") { contents in contents.epoch }
    }

    public func rotateEpoch() throws(StorageError) -> LeagueEpoch {
        try withOpen("rotateEpoch()") { contents in
            contents.epoch = .random()
            return contents.epoch
        }
    }

    public func close() throws(StorageError) {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        closed = true
    }
}

/// One store's contents and the lock every handle on them takes. `@unchecked Sendable`: `contents` is only touched
/// under `lock`. An `NSLock` (a pthread mutex), not Synchronization's `Mutex`: the thread sanitizer cannot see the
/// futex behind `Mutex` on Linux and reported every daemon test's concurrent hello and backlog reads as races.
final class MemoryContentsBox: @unchecked Sendable {
    let lock = NSLock()
    var contents: MemoryContents

    init(_ contents: MemoryContents) { self.contents = contents }
}
