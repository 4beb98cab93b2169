import Foundation
public import GoalPostgres
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// The PostgreSQL server the tests may use: `GOALD_TEST_POSTGRES_URL` (a superuser's URL, as `.ci/with-postgres`
/// exports it). Each test gets a database of its own (`makeDatabase()`), so tests run in parallel without sharing
/// anything but the server.
///
/// Without the URL, PostgreSQL tests are skipped with a message naming the variable, unless
/// `GOALD_REQUIRE_POSTGRES=1` (CI): then they run and fail, which is how CI proves they were not skipped.
///
/// Threading: `Sendable`; every call blocks (it waits on postgres-nio futures) and may run on any thread but an
/// event loop. Lifetime: static; each database lives until `dropDatabase(_:)`.
public enum PostgresTestServer {
    /// The superuser URL, when set.
    public static var url: String? {
        ProcessInfo.processInfo.environment["GOALD_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// True when PostgreSQL tests must run (CI sets `GOALD_REQUIRE_POSTGRES=1`).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["GOALD_REQUIRE_POSTGRES"] == "1" }

    /// True when PostgreSQL tests run: a URL is set, or they are required (and fail without one).
    public static var isEnabled: Bool { url != nil || isRequired }

    /// Why PostgreSQL tests are skipped, for `.enabled(if:_:)` and skip messages.
    public static let skipMessage =
        "PostgreSQL tests SKIPPED: GOALD_TEST_POSTGRES_URL is not set (run them with `.ci/with-postgres swift test`)"

    /// Creates an empty database with a unique name on the test server.
    /// - Returns: The configuration of a store in it (the superuser's credentials).
    /// - Throws: `PostgresTestServerError` when no server is configured or it cannot be reached.
    public static func makeDatabase() throws -> PostgresStoreConfiguration {
        let server = try serverConfiguration()
        let name = "goal_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try administer(server, "CREATE DATABASE \(name)")
        var configuration = server
        configuration.database = name
        return configuration
    }

    /// Drops a database made by `makeDatabase()`, closing what is still connected to it.
    public static func dropDatabase(_ configuration: PostgresStoreConfiguration) throws {
        try administer(try serverConfiguration(), "DROP DATABASE IF EXISTS \(configuration.database) WITH (FORCE)")
    }

    /// Makes `configuration`'s database refuse new connections and ends the open ones, as a server that is down
    /// would; `allowConnections(to:)` undoes it.
    public static func refuseConnections(to configuration: PostgresStoreConfiguration) throws {
        let server = try serverConfiguration()
        try administer(server, "ALTER DATABASE \(configuration.database) ALLOW_CONNECTIONS false")
        try administer(
            server,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(configuration.database)'"
        )
    }

    /// Lets `configuration`'s database take connections again.
    public static func allowConnections(to configuration: PostgresStoreConfiguration) throws {
        try administer(try serverConfiguration(), "ALTER DATABASE \(configuration.database) ALLOW_CONNECTIONS true")
    }

    /// Runs one statement in `configuration`'s database, on a connection of its own (a test that rewinds a schema
    /// to an older version, to check a migration).
    public static func execute(_ sql: String, in configuration: PostgresStoreConfiguration) throws {
        var server = try serverConfiguration()
        server.database = configuration.database
        try administer(server, sql)
    }

    /// Runs `body` while a transaction on a connection of its own holds row 1 of `table` (a league's head row,
    /// e.g. `goald_league_alpha.league`) in `configuration`'s database `FOR UPDATE`, then ends the transaction.
    public static func holdingRow<T>(
        of table: String,
        in configuration: PostgresStoreConfiguration,
        _ body: () throws -> T
    ) throws -> T {
        var server = try serverConfiguration()
        server.database = configuration.database
        let connection = try connect(server)
        defer { _ = try? connection.close().wait() }  // the server ends the transaction with the session
        let logger = Logger(label: "goal.test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        _ = try connection.query("BEGIN", logger: logger).wait()
        _ = try connection.query(
            PostgresQuery(unsafeSQL: "SELECT 1 FROM \(table) WHERE id = 1 FOR UPDATE"),
            logger: logger
        )
        .wait()
        let result = try body()
        _ = try connection.query("COMMIT", logger: logger).wait()
        return result
    }

    private static func connect(_ server: PostgresStoreConfiguration) throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: server.host,
            port: server.port,
            username: server.username,
            password: server.password,
            database: server.database,
            tls: .disable
        )
        configuration.options.connectTimeout = .seconds(10)
        let logger = Logger(label: "goal.test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        do {
            return try PostgresConnection.connect(on: loop, configuration: configuration, id: 0, logger: logger).wait()
        } catch {
            throw PostgresTestServerError(description: "cannot reach the test PostgreSQL at \(server): \(error)")
        }
    }

    private static func serverConfiguration() throws -> PostgresStoreConfiguration {
        guard let url else {
            throw PostgresTestServerError(
                description: "GOALD_REQUIRE_POSTGRES=1 but GOALD_TEST_POSTGRES_URL is not set: start a server with "
                    + ".ci/with-postgres"
            )
        }
        do {
            return try PostgresStoreConfiguration(url: url)
        } catch {
            throw PostgresTestServerError(description: "GOALD_TEST_POSTGRES_URL: \(error)")
        }
    }

    /// Runs one statement on the server's maintenance database, on a connection of its own.
    private static func administer(_ server: PostgresStoreConfiguration, _ sql: String) throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        var configuration = PostgresConnection.Configuration(
            host: server.host,
            port: server.port,
            username: server.username,
            password: server.password,
            database: server.database,
            tls: .disable
        )
        configuration.options.connectTimeout = .seconds(10)
        let logger = Logger(label: "goal.test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(on: loop, configuration: configuration, id: 0, logger: logger)
                .wait()
        } catch {
            throw PostgresTestServerError(description: "cannot reach the test PostgreSQL at \(server): \(error)")
        }
        defer { _ = try? connection.close().wait() }  // the statement's outcome is what matters
        do {
            _ = try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait()
        } catch {
            throw PostgresTestServerError(
                description: "\(sql) failed on the test PostgreSQL: \(String(reflecting: error))"
            )
        }
    }
}

/// Why a PostgreSQL test could not get its database. Value type, `Sendable`.
public struct PostgresTestServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
