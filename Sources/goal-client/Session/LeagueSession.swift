import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTransport
import GoalWire
import Logging

/// One command's connection to goald: a `GoalClient` over the live transport, started, awaited until live, used
/// for reads and mutations, and stopped. With several servers the client fails over between them (a server that is
/// down is skipped; the command fails only when every server failed in a row).
///
/// Threading: the client runs on its own serial queue; the async methods may be called from any task.
/// Lifetime: `connect` → use → `stop()`.
final class LeagueSession: Sendable {
    let client: GoalClient
    /// The configured servers for messages: "wss://a:7443" or "wss://a:7443, wss://b:7443".
    let serverName: String
    /// The league the session follows (nil: the default league).
    let league: LeagueSlug?
    private let transport: RecordingTransport
    /// How long a mutation is re-sent (with the same id, across reconnects) before its outcome is called unknown.
    let retryWindow: TimeInterval

    /// Makes a session over `transport` (which opens connections to `servers` by index); nothing connects until
    /// `connect()`.
    /// - Parameter stateStore: Where the client keeps its instance, seq, outbox and replica across runs (nil: in
    ///   memory, a fresh instance).
    /// - Throws: `CLIFailure.usage` when the state store cannot be read.
    init(
        transport: any Transport,
        token: String,
        servers: [String],
        stream: ClientMessage.StreamSelection = .all,
        presence: PresenceSubscription = .observe,
        retryWindow: TimeInterval = 10,
        league: LeagueSlug? = nil,
        stateStore: (any ClientStateStore)? = nil
    ) throws(CLIFailure) {
        self.transport = RecordingTransport(transport)
        var configuration = ClientConfiguration(token: token, servers: servers, stream: stream)
        configuration.presence = presence
        configuration.league = league
        self.league = league
        self.serverName = configuration.serverName
        self.retryWindow = retryWindow
        var logger = Logger(label: "goal.client")
        logger.logLevel = .critical
        let scheduler = QueueScheduler(name: "goal-client.session")
        guard let stateStore else {
            client = GoalClient(
                configuration: configuration,
                transport: self.transport,
                scheduler: scheduler,
                logger: logger
            )
            return
        }
        do {
            client = try GoalClient(
                configuration: configuration,
                transport: self.transport,
                scheduler: scheduler,
                stateStore: stateStore,
                logger: logger
            )
        } catch {
            throw .usage("\(error); remove the file to start afresh (queued edits in it are lost)")
        }
    }

    /// Makes a session to the configured servers.
    /// - Throws: `CLIFailure.usage` when the trust material cannot be used.
    /// - Parameter persistent: Keep the client's state across runs (`ClientStateOpening`): the instance and its seq,
    ///   queued edits, the last league seen.
    static func make(
        _ settings: ClientSettings,
        stream: ClientMessage.StreamSelection = .all,
        presence: PresenceSubscription = .observe,
        persistent: Bool = false
    ) throws(CLIFailure) -> LeagueSession {
        let transport: WebSocketTransport
        do {
            var logger = Logger(label: "goal.transport")
            logger.logLevel = .critical
            transport = try WebSocketTransport(
                endpoints: settings.endpoints,
                security: settings.security,
                logger: logger
            )
        } catch {
            // The trust material is the user's to fix (ClientSettings checked what it could): a usage error.
            throw .usage("\(error.message); check --ca-file / --fingerprint (goald serve prints both)")
        }
        var stateStore: (any ClientStateStore)?
        if persistent { stateStore = try ClientStateOpening.open(settings) }
        return try LeagueSession(
            transport: transport,
            token: settings.token,
            servers: settings.serverURLs,
            stream: stream,
            presence: presence,
            league: settings.league,
            stateStore: stateStore
        )
    }

    /// Starts the client and waits until it is live (caught up), or fails.
    /// - Parameter timeout: Seconds to wait for the first connection.
    /// - Throws: `CLIFailure` with exit code 3 (cannot connect, TLS) or 4 (unauthorized).
    func connect(timeout: TimeInterval = 15) async throws(CLIFailure) {
        switch await attemptConnection(timeout: timeout) {
        case .live: return
        case .unreachable(let failure, _), .refused(let failure): throw failure
        }
    }

    /// How the first connection attempt ended.
    enum ConnectOutcome: Sendable {
        case live
        /// No server could be spoken to (every one failed in a row, a TLS failure, or no answer in time): offline.
        /// The client is stopped.
        /// `tls`: the last failure was a TLS failure.
        case unreachable(CLIFailure, tls: Bool)
        /// A server answered and refused (the token, a terminal close). The client is stopped.
        case refused(CLIFailure)
    }

    /// Starts the client and waits until it is live (caught up), unreachable, or refused.
    /// - Parameter timeout: Seconds to wait for the first connection.
    func attemptConnection(timeout: TimeInterval = 15) async -> ConnectOutcome {
        let disposable = SerialDisposable()
        defer { disposable.dispose() }
        let outcome: ConnectOutcome = await withCheckedContinuation { continuation in
            let box = OnceBox<ConnectOutcome, Never>(continuation)
            var attempted = false
            disposable.inner = client.status.producer.startWithValues { [self] status in
                switch status {
                case .live:
                    box.resume(.success(.live))
                case .connecting, .syncing:
                    attempted = true
                case .reconnecting where attempted:
                    box.resume(.success(.unreachable(connectFailure(), tls: lastFailureWasTLS)))
                case .stopped(let reason):
                    let failure = Self.failure(for: reason, server: serverName, league: league)
                    if case .transportFailed(let kind, _) = reason {
                        // A TLS failure: no server could be spoken to (wrong trust, or one cut mid-handshake).
                        box.resume(.success(.unreachable(failure, tls: kind == .tls)))
                    } else {
                        box.resume(.success(.refused(failure)))
                    }
                case .idle, .reconnecting:
                    break
                }
            }
            client.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [serverName] in
                box.resume(
                    .success(
                        .unreachable(
                            .cannotConnect(
                                "no answer from \(serverName) within \(Int(timeout)) s; check that goald runs there"
                            ),
                            tls: false
                        )
                    )
                )
            }
        }
        if case .live = outcome { return outcome }
        client.stop()
        return outcome
    }

    /// Submits a mutation and waits for its answer, re-sending with the same id across reconnects for
    /// `retryWindow` seconds.
    /// - Returns: The ack.
    /// - Throws: `CLIFailure` 1 (refused), 3 (never sent), 4 (role does not allow it), 5 (outcome unknown).
    func perform(_ action: MutationAction, base: Revision) async throws(CLIFailure) -> MutationAck {
        switch await awaitOne(client.submit(action, base: base)) {
        case .success(let ack): return ack
        case .failure(let error):
            throw Self.failure(for: error, window: retryWindow, action: action, replica: client.replica.value)
        }
    }

    /// Starts `producer` and waits for its one result; past `retryWindow` seconds the client stops, which ends the
    /// producer with its failure. For requests that the client re-sends across reconnects until answered.
    func awaitOne<Value: Sendable, Failure: Error>(
        _ producer: SignalProducer<Value, Failure>
    ) async -> Result<Value, Failure> {
        let client = self.client
        let window = retryWindow
        return await withCheckedContinuation { continuation in
            let box = OnceBox<Result<Value, Failure>, Never>(continuation)
            let timer = DispatchWorkItem { client.stop() }
            DispatchQueue.global().asyncAfter(deadline: .now() + window, execute: timer)
            _ = producer.startWithResult { result in
                timer.cancel()
                box.resume(.success(result))
            }
        }
    }

    /// Stops the client (closing the connection with 1000).
    func stop() {
        client.stop()
    }

    /// Stops the client and waits until it has saved its state (at most 10 s), so the process may exit.
    func finish() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let box = OnceBox<Void, Never>(continuation)
            client.stop { box.resume(.success(())) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) { box.resume(.success(())) }
        }
    }

    /// True when the transport's last failure was a TLS failure.
    private var lastFailureWasTLS: Bool {
        if case .failed(let failure) = transport.lastEnding { return failure.kind == .tls }
        return false
    }

    /// Why connecting failed, from the transport's last event.
    private func connectFailure() -> CLIFailure {
        switch transport.lastEnding {
        case .failed(let failure):
            let hint =
                failure.kind == .tls
                ? "check --ca-file / --fingerprint (goald serve prints both)"
                : "check that goald runs there"
            let detail = CLIFailure.connectionDetail(failure.message)
            return .cannotConnect("cannot connect to \(serverName): \(detail); \(hint)")
        case .closed(let code, let reason):
            let detail = reason.isEmpty ? "" : ": \(reason)"
            return .cannotConnect(
                "\(serverName) closed the connection (\(code.map(String.init) ?? "no code"))\(detail); try again"
            )
        default:
            return .cannotConnect("cannot connect to \(serverName); check that goald runs there")
        }
    }

    /// The exit code and message for a client (of `league`, nil: the default) that stopped by itself.
    static func failure(for reason: StopReason, server: String, league: LeagueSlug? = nil) -> CLIFailure {
        if case .terminal(let code, let message) = reason,
            let refusal = LeagueRefusal.failure(code: code, message: message, league: league, server: server)
        {
            return refusal
        }
        switch reason {
        case .terminal(let code, let message) where code == .unauthorized || code == .tokenRevoked:
            return .unauthorized("\(server) refused the token: \(message)")
        case .terminal(_, let message):
            return .cannotConnect("\(server) ended the session: \(message)")
        case .transportFailed(let kind, let message):
            let hint =
                kind == .tls
                ? "check --ca-file / --fingerprint (goald serve prints both)" : "check the server URL"
            return .cannotConnect("cannot connect to \(server): \(CLIFailure.connectionDetail(message)); \(hint)")
        case .requested:
            return .cannotConnect("the connection to \(server) was closed")
        }
    }

    /// The exit code and message for a failed mutation of `action`; ids in a refusal are named from `replica`.
    static func failure(
        for error: MutationError,
        window: TimeInterval,
        action: MutationAction,
        replica: ReplicaState
    ) -> CLIFailure {
        switch error.kind {
        case .rejected(let rejection):
            let message = RefusalText.naming(rejection.message, in: replica)
            if rejection.code == .unauthorized {
                return .unauthorized("refused (unauthorized): \(message); \(RefusalText.roleHint(for: action))")
            }
            return .refused("refused (\(rejection.code.rawValue)): \(message)")
        case .stopped(let reason, let wasSent):
            if wasSent {
                return .outcomeUnknown(
                    "the outcome of mutation \(error.id) is unknown: no answer after re-sending it for "
                        + "\(Int(window)) s (\(reason)); run goal-client tail or list to see whether it was applied"
                )
            }
            return .cannotConnect("mutation \(error.id) was not sent: \(reason); check that goald runs")
        case .kept(let reason, let wasSent):
            if wasSent {
                return .outcomeUnknown(
                    "the outcome of mutation \(error.id) is unknown: no answer after re-sending it for "
                        + "\(Int(window)) s (\(reason)); it stays queued: the next goal-client run re-sends it "
                        + "with the same id and reports the outcome"
                )
            }
            return .queued(
                "edit queued as mutation \(error.id): the server is unreachable; the next goal-client run that "
                    + "connects sends it (same id, applied once) and reports the outcome"
            )
        case .expired:
            return .outcomeUnknown(
                "\(error.description); run goal-client tail or list to see whether it was applied"
            )
        }
    }
}
