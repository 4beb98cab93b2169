import GoalModel
import GoalStore
import Logging
import NIOCore
import NIOPosix

/// What a session uses of the rest of the server, and nothing else: the engine it submits to and reads the durable
/// head of, the hub (replaced sessions), the store (token look-ups, backlog and history reads, on `threadPool`),
/// the registries it joins (connections, client instances, presence), the snapshot cache, its metrics and limits,
/// the league's epoch and this node's name. Built in one place (where the daemon wires its listener) and shared by
/// every session of the daemon.
///
/// Threading: every member is `Sendable` and safe from any event loop; blocking store calls go through
/// `threadPool`. Lifetime: the daemon's.
struct SessionCollaborators: Sendable {
    let engine: Engine
    let hub: Hub
    let storage: any LeagueStorage
    let tokens: TokenDirectory
    let connections: ConnectionLimiter
    let instances: InstanceRegistry
    let snapshots: SnapshotCache
    let presence: PresenceRegistry
    let metrics: ServerMetrics
    let limits: ServerLimits
    let epoch: LeagueEpoch
    let nodeID: String
    let threadPool: NIOThreadPool
    let logger: Logger
    /// A fresh session id, unique within the daemon.
    let makeSessionID: @Sendable () -> SessionID
    /// Adds (negative: removes) bytes to the total queued by every session of the daemon (the global cap) and
    /// returns the new total.
    let adjustQueuedBytes: @Sendable (Int) -> Int

    /// What a hello's token may do now: admitted (and which session of the same client instance it replaces), or
    /// refused. Claims the token's connection slot and the client instance when admitted; nothing when refused.
    func admit(_ token: StoredToken, instance: ClientInstanceID, for address: ReplyAddress) -> SessionAdmission {
        guard !tokens.isRevoked(token) else { return .revoked }
        if let refusal = connections.admitToken(token.id, name: token.name) { return .connectionLimit(refusal) }
        switch instances.claim(instance, for: address) {
        case .claimed(let previous):
            return .admitted(replacing: previous)
        case .superseded:
            connections.releaseToken(token.id)
            return .superseded
        }
    }
}

/// The answer of the registries to an authenticated hello (`SessionCollaborators.admit`). Value type.
enum SessionAdmission {
    case admitted(replacing: ReplyAddress?)
    case revoked
    case connectionLimit(ConnectionLimiter.Refusal)
    /// A newer session with the same client instance is connected.
    case superseded
}
