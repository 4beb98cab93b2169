import Foundation
public import GoalModel
public import GoalWire

/// A GoalWire session over a raw `TestWebSocketClient`: says hello, sends mutations, and reads decoded server
/// messages. For protocol tests that need the wire itself (the live client library is tested elsewhere).
///
/// Threading: `Sendable`; use from one task at a time. Lifetime: until the test closes or drops it.
public final class TestSession: Sendable {
    public let client: TestWebSocketClient
    public let instance: ClientInstanceID
    public let welcome: ServerMessage.Welcome

    private init(client: TestWebSocketClient, instance: ClientInstanceID, welcome: ServerMessage.Welcome) {
        self.client = client
        self.instance = instance
        self.welcome = welcome
    }

    /// Connects, sends hello and waits for welcome. `protocolVersion` is 1 unless a test asks for 2: a raw session
    /// reads changesets whole (protocol 2 sends live ones as `delta` frames, which need a replica to expand).
    /// - Throws: `TestSessionError.refused` with the error and close when the server refuses the hello.
    public static func open(
        _ daemon: TestDaemon,
        token: String,
        connector: TestTLSConnector? = nil,
        instance: ClientInstanceID = .random(),
        since: Revision? = nil,
        epoch: LeagueEpoch? = nil,
        digest: Digest? = nil,
        stream: ClientMessage.StreamSelection = .all,
        presence: PresenceSubscription = .none,
        protocolVersion: Int = 1,
        league: LeagueSlug? = nil
    ) async throws -> TestSession {
        try await open(
            connector: try connector ?? daemon.connector(),
            token: token,
            instance: instance,
            since: since,
            epoch: epoch,
            digest: digest,
            stream: stream,
            presence: presence,
            protocolVersion: protocolVersion,
            league: league
        )
    }

    /// As `open(_:token:…)`, to any server `connector` reaches (a goald process).
    public static func open(
        connector: TestTLSConnector,
        token: String,
        instance: ClientInstanceID = .random(),
        since: Revision? = nil,
        epoch: LeagueEpoch? = nil,
        digest: Digest? = nil,
        stream: ClientMessage.StreamSelection = .all,
        presence: PresenceSubscription = .none,
        protocolVersion: Int = 1,
        league: LeagueSlug? = nil
    ) async throws -> TestSession {
        let client = try await TestWebSocketClient.connect(connector)
        let hello = ClientMessage.hello(
            .init(
                protocolVersion: protocolVersion,
                token: token,
                clientInstance: instance,
                since: since,
                epoch: epoch,
                digest: digest,
                stream: stream,
                presence: presence,
                league: league
            )
        )
        try await client.send(text: hello.encoded())
        let first = try await Self.nextMessage(client)
        guard case .welcome(let welcome) = first else {
            let rest = try await client.collect(until: { if case .closed = $0 { true } else { false } })
            throw TestSessionError.refused(first, rest.last)
        }
        return TestSession(client: client, instance: instance, welcome: welcome)
    }

    /// Sends one mutation.
    public func send(_ mutation: Mutation) async throws {
        try await client.send(text: ClientMessage.mutate(.init(mutation)).encoded())
    }

    /// Announces what this session does (`presence`).
    public func announce(_ activity: PresenceActivity) async throws {
        try await client.send(text: ClientMessage.presence(activity).encoded())
    }

    /// A mutation with this session's instance.
    public func mutation(seq: UInt64, base: Revision, _ action: MutationAction) -> Mutation {
        Mutation(id: MutationID(instance: instance, seq: seq), base: base, action: action)
    }

    /// The next server message, skipping pings and pongs.
    /// - Throws: `TestSessionError.closed` when the connection closes first.
    public func next(timeout: Duration = .seconds(30)) async throws -> ServerMessage {
        try await Self.nextMessage(client, timeout: timeout)
    }

    /// Reads messages until `predicate` holds; returns them all, the matching one last.
    public func collect(
        timeout: Duration = .seconds(20),
        until predicate: (ServerMessage) -> Bool
    ) async throws -> [ServerMessage] {
        var messages: [ServerMessage] = []
        while true {
            let message = try await next(timeout: timeout)
            messages.append(message)
            if predicate(message) { return messages }
        }
    }

    /// Reads until the connection closes; returns the messages and the close code.
    public func readUntilClosed(timeout: Duration = .seconds(20)) async throws -> ([ServerMessage], UInt16?) {
        var messages: [ServerMessage] = []
        while true {
            let received = try await client.next(timeout: timeout)
            switch received {
            case .text(let bytes): messages.append(try ServerMessage.decode(bytes))
            case .closed(let code, _): return (messages, code)
            case .ping, .pong, .binary: continue
            case .compressed: throw TestClientError.unexpected("\(received): this session offered no compression")
            }
        }
    }

    private static func nextMessage(
        _ client: TestWebSocketClient,
        timeout: Duration = .seconds(30)
    ) async throws -> ServerMessage {
        while true {
            let received = try await client.next(timeout: timeout)
            switch received {
            case .text(let bytes): return try ServerMessage.decode(bytes)
            case .closed(let code, let reason): throw TestSessionError.closed(code: code, reason: reason)
            case .ping, .pong, .binary: continue
            case .compressed: throw TestClientError.unexpected("\(received): this session offered no compression")
            }
        }
    }
}

/// Why a test session ended early.
public enum TestSessionError: Error, Sendable, CustomStringConvertible {
    /// The hello was refused: the first message and the final close.
    case refused(ServerMessage, TestWebSocketClient.Received?)
    /// The connection closed while a message was expected.
    case closed(code: UInt16?, reason: String)

    public var description: String {
        switch self {
        case .refused(let message, let close): "refused: \(message) then \(close.map(\.description) ?? "nothing")"
        case .closed(let code, let reason): "closed \(code.map(String.init) ?? "without code"): \(reason)"
        }
    }
}
