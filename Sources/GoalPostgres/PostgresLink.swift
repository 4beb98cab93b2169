import GoalStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// One PostgreSQL connection used by one caller at a time, opened on first use and opened again after it was lost
/// (a restarted server), so the store recovers without being reopened.
///
/// Why blocking: `LeagueStorage` is synchronous (its callers are the writer's queue and NIO's thread pool, never
/// an event loop), so each call waits on postgres-nio's `EventLoopFuture`s. The futures complete on the store's own
/// event loop, never on Swift concurrency's pool, so a caller blocked here cannot starve what it waits for.
///
/// Threading: `Sendable`; `withConnection` holds a lock for the whole operation (a transaction owns the
/// connection). Lifetime: from `init` until `close()`.
final class PostgresLink: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var closed = false
        var nextID = 0
    }

    private let configuration: PostgresStoreConfiguration
    private let eventLoop: any EventLoop
    private let logger: Logger
    private let name: String
    private let state = NIOLockedValueBox(State())
    /// Serializes operations; separate from `state` so `close()` can mark the link closed while one runs.
    private let operationLock = NIOLock()

    init(name: String, configuration: PostgresStoreConfiguration, eventLoop: any EventLoop, logger: Logger) {
        self.name = name
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// Runs `body` with the connection, connecting first when there is none (or it was lost). A connection that
    /// fails during `body` is dropped, so the next call connects again.
    func withConnection<T>(
        _ operation: String,
        _ body: (PostgresConnection) throws -> T
    ) throws(StorageError) -> T {
        do {
            return try operationLock.withLock {
                let connection = try current(operation)
                do {
                    return try body(connection)
                } catch {
                    guard connection.isClosed else { throw error }
                    drop(connection)
                    // Whatever the call reported, the connection is gone: the next call connects again.
                    throw StorageError.unavailable(
                        operation: operation,
                        detail: "the connection to PostgreSQL at \(configuration) was lost (\(error))"
                    )
                }
            }
        } catch {
            throw PostgresErrors.storageError(error, operation: operation, configuration: configuration)
        }
    }

    /// Closes the connection; later calls throw `StorageError.closed`. Idempotent.
    func close() {
        let connection = state.withLockedValue { state -> PostgresConnection? in
            state.closed = true
            defer { state.connection = nil }
            return state.connection
        }
        try? connection?.close().wait()  // gone either way: the server ends its session
    }

    private func current(_ operation: String) throws -> PostgresConnection {
        let (existing, closed, id) = state.withLockedValue { state in
            state.nextID += 1
            return (state.connection, state.closed, state.nextID)
        }
        if closed { throw StorageError.closed(call: operation) }
        if let existing, !existing.isClosed { return existing }
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(
                on: eventLoop,
                configuration: try configuration.connectionConfiguration(),
                id: id,
                logger: logger
            ).wait()
        } catch {
            // Refused, reset, shutting down, not accepting connections: `unavailable` (transient). Anything else (a
            // wrong password, an unknown database) as the server said it.
            throw PostgresErrors.storageError(error, operation: operation, configuration: configuration)
        }
        state.withLockedValue { $0.connection = connection }
        logger.debug("connected to PostgreSQL", metadata: ["goal.link": "\(name)", "goal.store": "\(configuration)"])
        return connection
    }

    private func drop(_ connection: PostgresConnection) {
        state.withLockedValue { state in
            if state.connection === connection { state.connection = nil }
        }
    }
}

extension PostgresConnection {
    /// Runs one statement and waits for all its rows.
    func run(_ query: PostgresQuery) throws -> [PostgresRow] {
        try refuseIfClosed()
        return Array(try self.query(query, logger: PostgresLink.quiet).wait().rows)
    }

    /// Runs one statement and returns how many rows it changed.
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> Int {
        try refuseIfClosed()
        let result = try self.query(query, logger: PostgresLink.quiet).wait()
        return result.metadata.rows ?? 0
    }

    /// A query on a connection closed under its caller (`PostgresLink.close()` while a write was between two
    /// statements) is dropped by postgres-nio without failing its future, so waiting for it would never end; the
    /// closed connection is refused here instead (`PostgresLink.withConnection` reports it as lost).
    private func refuseIfClosed() throws {
        if isClosed { throw PostgresConnectionClosed() }
    }

    /// Runs `body` inside `BEGIN`…`COMMIT`; any throw rolls back (on a connection still open).
    func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        try execute(PostgresQuery(unsafeSQL: begin))
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if !isClosed {
                // The transaction is over either way: a failed rollback means the connection is lost.
                _ = try? execute("ROLLBACK")
            }
            throw error
        }
    }
}

/// A statement was not sent: its connection was closed already.
struct PostgresConnectionClosed: Error {}

extension PostgresLink {
    /// postgres-nio logs every query at debug; the store logs what matters itself.
    static let quiet = Logger(label: "goald.postgres.query", factory: { _ in SwiftLogNoOpLogHandler() })
}

extension PostgresStoreConfiguration {
    /// postgres-nio's configuration for this store: TLS as the URL says, a 5 s connect timeout, `application_name`
    /// (`goald`, or `goald listen` for the node's listening connection, so `pg_stat_activity` tells them apart), and
    /// a league's `search_path` (`PostgresLeagueNamespace`).
    func connectionConfiguration(applicationName: String = "goald") throws -> PostgresConnection.Configuration {
        let connectionTLS: PostgresConnection.Configuration.TLS
        switch tls {
        case .disable: connectionTLS = .disable
        case .require: connectionTLS = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var result = PostgresConnection.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: connectionTLS
        )
        result.options.connectTimeout = .seconds(5)
        result.options.additionalStartupParameters = [("application_name", applicationName)]
        // A league's connections see its schema only (PostgreSQL takes any setting as a startup parameter).
        if let schema = namespace.schema { result.options.additionalStartupParameters.append(("search_path", schema)) }
        return result
    }
}
