public import GoalServer
public import GoalStore

extension TestDaemon {
    /// Starts a daemon on a reserved port: a test that stops it and starts another on the same address (clients
    /// reconnect there) starts both with the same `PortReservation`, which keeps the port from other tests while
    /// nothing listens on it. No retry is needed: `stop()` returns after the listener's socket is closed, goald binds
    /// with `SO_REUSEADDR` (the old connections' TIME_WAIT does not block it), and nothing else can have the port.
    /// Otherwise as `start(storage:limits:configure:)`.
    public static func start(
        on port: PortReservation,
        storage: any LeagueStorage = InMemoryLeagueStorage(),
        limits: ServerLimits = ServerLimits(),
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestDaemon {
        try await start(storage: storage, limits: limits) { configuration in
            configure(&configuration)
            configuration.port = port.port
        }
    }

    /// Starts a daemon over the SQLite database at `path` on a reserved port (see `start(on:storage:limits:configure:)`).
    public static func start(databaseAt path: String, on port: PortReservation) async throws -> TestDaemon {
        try await start(on: port, storage: try SQLiteLeagueStorage(path: path))
    }
}
