import Foundation
import GoalModel
import GoalStore
import GoalWire
import NIOCore
import NIOWebSocket

/// Where a session is in its life. Sessions move forward only: awaitingHello → authenticating → open → closing.
enum SessionPhase {
    /// Upgraded, no `hello` yet (4 KiB budget, 10 s deadline).
    case awaitingHello
    /// `hello` received; the token and the log bounds are being read off the event loop.
    case authenticating(ClientMessage.Hello)
    /// Authenticated and registered with its shard.
    case open(SessionIdentity)
    /// An error or close was sent; nothing more is read or written but the close.
    case closing
}

/// Who an open session is: its token, client instance and what it streams. Value type.
struct SessionIdentity {
    let token: StoredToken
    let instance: ClientInstanceID
    let stream: ClientMessage.StreamSelection
    /// The protocol version the hello asked for (one of `WireProtocol.supportedVersions`), answered in `welcome`.
    var protocolVersion = 1
    /// The token's role in the session's league (what `welcome` says and the engine checks mutations against).
    var role: Role

    init(
        token: StoredToken,
        instance: ClientInstanceID,
        stream: ClientMessage.StreamSelection,
        protocolVersion: Int = 1,
        role: Role? = nil
    ) {
        self.token = token
        self.instance = instance
        self.stream = stream
        self.protocolVersion = protocolVersion
        self.role = role ?? token.role
    }
}

/// Where a hello's token stands in the league the hello named. Value type.
enum LeagueStanding: Sendable, Equatable {
    /// Allowed, with this role; the league's epoch.
    case member(Role, LeagueEpoch)
    /// No such league (told only to a token allowed in every league).
    case unknown(LeagueSlug)
    /// The token is not allowed in this league.
    case forbidden(LeagueSlug)
}

/// What the off-loop part of `hello` found out.
struct HelloFacts: Sendable {
    let token: StoredToken?
    /// The token's standing in the hello's league (`unknown` for an unknown token: nothing was looked up).
    let standing: LeagueStanding
    let bounds: LogBounds
    /// d_since read from the log (genesis for 0); nil when `since` was absent or is no longer in the log.
    let digestAtSince: Digest?

    /// Reads them (blocking: on the thread pool): the token, its standing in `league`, and for a member the league
    /// (acquired: loaded if it was not, with a lease the session gives back when it ends), its log's bounds and
    /// d_since.
    /// - Returns: The facts, and the league when the token is a member of it.
    static func read(
        tokenHash: [UInt8],
        since: Revision?,
        league slug: LeagueSlug,
        tokens: TokenDirectory,
        leagues: LeagueHost
    ) throws -> (HelloFacts, LeagueRuntime?) {
        let nothing = LogBounds(oldestRetainedRevision: nil, head: 0, headDigest: .genesis)
        guard let token = try tokens.lookup(tokenHash) else {
            return (HelloFacts(token: nil, standing: .unknown(slug), bounds: nothing, digestAtSince: nil), nil)
        }
        guard let role = token.role(in: slug) else {
            return (HelloFacts(token: token, standing: .forbidden(slug), bounds: nothing, digestAtSince: nil), nil)
        }
        guard let league = try leagues.acquire(slug) else {
            return (HelloFacts(token: token, standing: .unknown(slug), bounds: nothing, digestAtSince: nil), nil)
        }
        do {
            let bounds = try league.storage.logBounds()
            let facts = HelloFacts(
                token: token,
                standing: .member(role, league.epoch),
                bounds: bounds,
                digestAtSince: try digest(at: since, bounds: bounds, storage: league.storage)
            )
            return (facts, league)
        } catch {
            leagues.release(league)
            throw error
        }
    }

    /// d_since from the log, or nil when `since` is absent, ahead of the head or pruned.
    private static func digest(at since: Revision?, bounds: LogBounds, storage: any LeagueStorage) throws -> Digest? {
        guard let since else { return nil }
        if since == 0 { return .genesis }
        if since == bounds.head { return bounds.headDigest }
        guard since < bounds.head, bounds.backlogCovers(since: since - 1) else { return nil }
        guard let frame = try storage.backlog(after: since - 1, upTo: since, limit: 1).first else { return nil }
        return ChangesetFrame.peek(frame.bytes)?.digest
    }
}

/// Errors the inbound handlers raise into the session (the decoder's own errors arrive as `NIOWebSocketError`
/// and `NIOWebSocketFrameAggregator.Error`).
enum SessionInboundError: Error {
    /// The session sent frames faster than its flood bucket allows.
    case flood
    /// The client broke RFC 6455 itself (`WebSocketFrameValidator`): fail with 1002.
    case websocketProtocol(String)
}
