import Foundation
import GoalPostgres
import GoalServer
import GoalStore

/// Opening the store for one command (`token`, `backup`) and closing it again, whatever happens.
enum StoreAccess {
    /// The PostgreSQL store of `configuration`, as `StatePreparation` opens it.
    static func external(_ configuration: PostgresStoreConfiguration, retention: RetentionPolicy) -> ExternalStore {
        ExternalStore(description: configuration.description) { () throws(StorageError) -> any LeagueStorage in
            try PostgresLeagueStorage(configuration: configuration, retention: retention)
        }
    }

    /// Opens the store (PostgreSQL when `configuration.postgres` is set, else the state directory's SQLite file),
    /// runs `body`, closes.
    /// - Parameter create: Whether a missing SQLite database (and state directory, 0700) may be created; when
    ///   false, a missing database is an error naming the path.
    static func withStore<T>(
        _ configuration: EffectiveConfiguration,
        create: Bool,
        _ body: (any LeagueStorage) throws -> T
    ) throws -> T {
        guard let postgres = configuration.postgres else {
            return try withStorage(configuration.server, create: create, body)
        }
        return try run(
            body,
            on: try PostgresLeagueStorage(configuration: postgres, retention: configuration.server.retention)
        )
    }

    /// Runs `body` on an open store and closes it, whatever happens.
    private static func run<S: LeagueStorage, T>(_ body: (S) throws -> T, on storage: S) throws -> T {
        do {
            let result = try body(storage)
            try storage.close()
            return result
        } catch {
            // The body's error is the one to report; the store is being abandoned either way.
            try? storage.close()
            throw error
        }
    }

    /// Opens `configuration.databasePath`, runs `body`, closes.
    /// - Parameter create: Whether a missing database (and state directory, 0700) may be created; when false, a
    ///   missing database is an error naming the path.
    static func withStorage<T>(
        _ configuration: ServerConfiguration,
        create: Bool,
        _ body: (SQLiteLeagueStorage) throws -> T
    ) throws -> T {
        guard create || FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw CommandFailure(
                "no database at \(configuration.databasePath); start goald once (or check --state-dir / "
                    + "GOALD_STATE_DIR: give the daemon's, the \"state directory:\" line goald serve prints)"
            )
        }
        try OwnerOnlyFile.createDirectory(configuration.stateDirectory)
        return try run(
            body,
            on: try SQLiteLeagueStorage(path: configuration.databasePath, retention: configuration.retention)
        )
    }
}

/// What a newcomer types to connect.
enum ConnectInstructions {
    /// The host clients should dial: a wildcard bind address becomes 127.0.0.1; IPv6 gets brackets.
    static func dialHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": return "127.0.0.1"
        case "::", "[::]": return "[::1]"
        default: return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }

    /// `wss://HOST:PORT`.
    static func serverURL(host: String, port: Int) -> String { "wss://\(dialHost(host)):\(port)" }

    /// The `goal-client login` command for this configuration (with `--ca-file` when the CA is generated).
    static func loginCommand(configuration: ServerConfiguration, host: String, port: Int) -> String {
        var command = "goal-client login --server \(serverURL(host: host, port: port))"
        if case .generated = configuration.tls {
            command += " --ca-file \(configuration.generatedTLSDirectory)/ca.pem"
        }
        return command
    }
}
