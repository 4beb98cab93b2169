public import GoalClient
public import GoalModel
public import GoalWire
public import Logging
public import NIOCore
import NIOHTTP1
public import NIOPosix

/// A small client of goald's league routes (docs/HTTP.md): list the leagues a token may see, create one.
///
/// HTTPS over NIO + NIOSSL with the same trust as `WebSocketTransport` (a `ClientTLSContext` from a
/// `TransportSecurity`) and the same `ServerEndpoint` (its host and port; the HTTP API lives on goald's TLS port
/// beside `/v1/stream`), with a bearer token. Each call opens one TLS connection, sends one request
/// (`Connection: close`) and reads the whole answer: no pooling, which suits what it is for (a CLI command, goal-load
/// creating its leagues before the run).
///
/// Threading: immutable and `Sendable`; calls may be made from any task, concurrently (each has its own
/// connection, on the next loop of `group`). Lifetime: holds no connection between calls; `group` must outlive the
/// calls (the default, `MultiThreadedEventLoopGroup.singleton`, always does). Cancelling the calling task does not
/// end a call early: it ends within `timeout`.
public final class LeagueDirectoryClient: Sendable {
    /// The largest answer body read (a list of many leagues fits easily).
    public static let maxResponseBytes = 16 * 1024 * 1024

    /// The server (its host and port; the path is the HTTP API's own).
    public let endpoint: ServerEndpoint
    /// Bounds each call: TCP, TLS, request and the whole answer.
    public let timeout: TimeAmount
    private let tls: ClientTLSContext
    private let token: String
    private let group: any EventLoopGroup

    /// Makes a client; builds the TLS context once (reading the CA file, if any).
    ///
    /// - Parameters:
    ///   - endpoint: The server, for example `try ServerEndpoint(parsing: "wss://localhost:7443")`.
    ///   - security: How the server's certificate is trusted; `.insecure` logs a warning.
    ///   - token: The bearer token sent with every call (creating a league takes an operator token).
    ///   - group: The event loops calls run on. Default: the process-wide singleton.
    ///   - timeout: Bounds each call. Default 10 s.
    ///   - logger: Receives the insecure-mode warning.
    /// - Throws: `TransportFailure(.tls, …)` when the trust material cannot be read.
    public convenience init(
        endpoint: ServerEndpoint,
        security: TransportSecurity,
        token: String,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        timeout: TimeAmount = .seconds(10),
        logger: Logger = Logger(label: "goal.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(TransportFailure) {
        self.init(
            endpoint: endpoint,
            tls: try ClientTLSContext(security: security, logger: logger),
            token: token,
            group: group,
            timeout: timeout
        )
    }

    /// Makes a client sharing an existing TLS context (one a `WebSocketTransport`'s caller already built).
    ///
    /// - Parameters:
    ///   - endpoint: The server.
    ///   - tls: The trust to use.
    ///   - token: The bearer token sent with every call.
    ///   - group: The event loops calls run on. Default: the process-wide singleton.
    ///   - timeout: Bounds each call. Default 10 s.
    public init(
        endpoint: ServerEndpoint,
        tls: ClientTLSContext,
        token: String,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        timeout: TimeAmount = .seconds(10)
    ) {
        self.endpoint = endpoint
        self.tls = tls
        self.token = token
        self.group = group
        self.timeout = timeout
    }

    /// The leagues the token may see, each with the token's role there (`GET /api/v1/leagues`, 200).
    ///
    /// - Returns: The leagues in the order goald listed them.
    /// - Throws: `LeagueDirectoryError`: `.transport` without an answer, `.status` for another status (401 for an
    ///   unknown token), `.malformedResponse` for a 200 that is not `{"leagues":[…]}`.
    public func listLeagues() async throws(LeagueDirectoryError) -> [LeagueListing] {
        let response = try await send(HTTPSRequest(method: .GET, path: Self.leaguesPath, bearerToken: token))
        guard response.status == 200 else { throw Self.statusError(response) }
        do {
            return try RESTLeagues.decodeList(response.body)
        } catch {
            throw .malformedResponse(status: response.status, error)
        }
    }

    /// Creates a league (`POST /api/v1/leagues` `{"id","name"}`, 201).
    ///
    /// - Parameters:
    ///   - id: The new league's slug.
    ///   - name: Its display name (the rules of a player's name).
    /// - Returns: The league as goald stored it.
    /// - Throws: `LeagueDirectoryError`: `.status(409, …)` (`isLeagueExists`) when the id is taken, 403 when the
    ///   token is not an operator, 422 for a bad name; `.transport` without an answer; `.malformedResponse` for a
    ///   success that is not a league.
    public func createLeague(id: LeagueSlug, name: String) async throws(LeagueDirectoryError) -> LeagueListing {
        let request = HTTPSRequest(
            method: .POST,
            path: Self.leaguesPath,
            bearerToken: token,
            jsonBody: RESTLeagues.createBody(id: id, name: name)
        )
        let response = try await send(request)
        guard response.status == 201 || response.status == 200 else { throw Self.statusError(response) }
        do {
            return try RESTLeagues.decodeListing(response.body)
        } catch {
            throw .malformedResponse(status: response.status, error)
        }
    }

    static let leaguesPath = "/api/v1/leagues"

    private func send(_ request: HTTPSRequest) async throws(LeagueDirectoryError) -> HTTPSResponse {
        do {
            return try await HTTPSExchange.perform(
                request,
                endpoint: endpoint,
                tls: tls,
                group: group,
                timeout: timeout,
                maxBodyBytes: Self.maxResponseBytes
            )
        } catch {
            throw .transport(error)
        }
    }

    /// The error for an answer with another status than the route's success: goald's error body, or the body's
    /// first 200 characters as the message.
    static func statusError(_ response: HTTPSResponse) -> LeagueDirectoryError {
        let body =
            RESTLeagues.decodeError(response.body)
            ?? RESTErrorBody(message: String(String(decoding: response.body, as: UTF8.self).prefix(200)), code: nil)
        return .status(response.status, body)
    }
}
