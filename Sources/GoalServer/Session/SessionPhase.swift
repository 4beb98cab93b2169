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
}

/// What the off-loop part of `hello` found out.
struct HelloFacts: Sendable {
    let token: StoredToken?
    let bounds: LogBounds
    /// d_since read from the log (genesis for 0); nil when `since` was absent or is no longer in the log.
    let digestAtSince: Digest?

    /// Reads them (blocking: on the thread pool): the token, and for a known token the log's bounds and d_since.
    static func read(
        tokenHash: [UInt8],
        since: Revision?,
        tokens: TokenDirectory,
        storage: any LeagueStorage
    ) throws -> HelloFacts {
        let token = try tokens.lookup(tokenHash)
        guard token != nil else {
            return HelloFacts(
                token: nil,
                bounds: LogBounds(oldestRetainedRevision: nil, head: 0, headDigest: .genesis),
                digestAtSince: nil
            )
        }
        let bounds = try storage.logBounds()
        return HelloFacts(
            token: token,
            bounds: bounds,
            digestAtSince: try digest(at: since, bounds: bounds, storage: storage)
        )
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
