public import GoalServer
public import GoalStore

extension TestDaemon {
    /// Starts a daemon with `start` on `port`, the port of one that just stopped, so clients reconnect to the same
    /// address. The old listener's port may take a moment to be released: the bind is retried for at most 10 s.
    /// (Another test could take the freed port in between; the chance is small, and the test then fails loudly.)
    public static func restart(
        onPort port: Int,
        _ start: (@escaping (inout ServerConfiguration) -> Void) async throws -> TestDaemon
    ) async throws -> TestDaemon {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try await start { $0.port = port }
            } catch  where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Starts a daemon over the SQLite database at `path` on `port` (see `restart(onPort:_:)`).
    public static func restart(databaseAt path: String, onPort port: Int) async throws -> TestDaemon {
        try await restart(onPort: port) { configure in
            try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path), configure: configure)
        }
    }
}
