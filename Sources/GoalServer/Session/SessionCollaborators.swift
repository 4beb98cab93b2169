import GoalModel
import GoalStore
import Logging
import NIOPosix

/// What a session uses of the rest of the server, and nothing else: the leagues (its own is chosen by its hello:
/// `LeagueHost.acquire`, and holds its engine, hub, store, client instances, snapshot cache and presence), the tokens,
/// the connection limiter, its metrics and limits and this node's name. Built in one place (where the daemon wires
/// its listener) and shared by every session of the daemon.
///
/// Threading: every member is `Sendable` and safe from any event loop; blocking store calls go through
/// `threadPool`. Lifetime: the daemon's.
struct SessionCollaborators: Sendable {
    let leagues: LeagueHost
    let tokens: TokenDirectory
    let connections: ConnectionLimiter
    let metrics: ServerMetrics
    let limits: ServerLimits
    let nodeID: String
    let threadPool: NIOThreadPool
    let logger: Logger
    /// A fresh session id, unique within the daemon.
    let makeSessionID: @Sendable () -> SessionID
    /// Adds (negative: removes) bytes to the total queued by every session of the daemon (the global cap) and
    /// returns the new total.
    let adjustQueuedBytes: @Sendable (Int) -> Int

    /// What a hello's token may do now in `league`: admitted (and which session of the same client instance it
    /// replaces), or refused. Claims the token's connection slot and the client instance when admitted; nothing when
    /// refused.
    func admit(
        _ token: StoredToken,
        instance: ClientInstanceID,
        in league: LeagueRuntime,
        for address: ReplyAddress
    ) -> SessionAdmission {
        guard !tokens.isRevoked(token) else { return .revoked }
        if let refusal = connections.admitToken(token.id, name: token.name) { return .connectionLimit(refusal) }
        switch league.instances.claim(instance, for: address) {
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
