import Foundation
import GoalStore
import NIOConcurrencyHelpers

/// The daemon's view of the tokens table: an in-memory index by secret hash for the hello path, refreshed from the
/// store so tokens created or revoked by `goald token …` (another process) take effect while the daemon runs.
///
/// Threading: `cached` is a lock-protected read, safe on event loops; `lookup` and `refresh` read the store and
/// may block, so they run on the thread pool. `Sendable`. Lifetime: the daemon's.
final class TokenDirectory: Sendable {
    private let storage: any LeagueStorage
    private let byHash = NIOLockedValueBox([[UInt8]: StoredToken]())

    init(storage: any LeagueStorage) {
        self.storage = storage
    }

    /// The cached token for a secret hash, without touching the store.
    func cached(_ hash: [UInt8]) -> StoredToken? {
        byHash.withLockedValue { $0[hash] }
    }

    /// The token for a secret hash: the cache, else the store (a token created since the last refresh).
    /// Blocking; call off the event loop.
    func lookup(_ hash: [UInt8]) throws(StorageError) -> StoredToken? {
        if let token = cached(hash) { return token }
        guard let token = try storage.token(secretHash: hash) else { return nil }
        // Only into a gap: a refresh that ran while the store was read knows better (it may have seen a revocation
        // this read missed), and overwriting it would hide that revocation from `isRevoked`.
        return byHash.withLockedValue { index in
            if let known = index[hash] { return known }
            index[hash] = token
            return token
        }
    }

    /// True when the cache knows `token` as revoked: the check at registration, on the event loop, that closes
    /// the window between a hello's look-up and its session's registration (a refresh in between marks the token
    /// revoked here before it closes the registered sessions, so a session is either refused here or closed then).
    func isRevoked(_ token: StoredToken) -> Bool {
        token.isRevoked || (cached(token.secretHash)?.isRevoked ?? false)
    }

    /// Re-reads every token. Blocking; call off the event loop.
    /// - Returns: the tokens revoked since the previous refresh (their live sessions must close with 4403).
    func refresh() throws(StorageError) -> [StoredToken] {
        let tokens = try storage.tokens()
        return byHash.withLockedValue { index in
            var newlyRevoked: [StoredToken] = []
            var fresh: [[UInt8]: StoredToken] = [:]
            for token in tokens {
                if token.isRevoked, index[token.secretHash].map({ !$0.isRevoked }) ?? false {
                    newlyRevoked.append(token)
                }
                fresh[token.secretHash] = token
            }
            index = fresh
            return newlyRevoked
        }
    }
}
