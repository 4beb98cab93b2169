public import GoalModel
public import GoalStore
import NIOCore
import NIOPosix
import PostgresNIO

/// What `goald check-config` reports about a PostgreSQL store: whether it answers, and the schema and head it holds.
/// Read without changing anything (no migration, no league row created).
///
/// Value type, `Sendable`.
public struct PostgresStoreProbe: Sendable, Equatable {
    /// The server's version string (`SHOW server_version`).
    public var serverVersion: String
    /// goald's schema version in the database; 0 when goald never ran there.
    public var schemaVersion: Int
    /// The newest schema this goald knows (`schemaVersion` above it is refused at start).
    public var supportedSchemaVersion: Int
    /// The league's head, when the schema exists.
    public var head: Revision?

    /// Connects (5 s timeout), reads, disconnects.
    /// - Throws: `StorageError` as the store would report it (`unavailable` when the server does not answer).
    public static func run(_ configuration: PostgresStoreConfiguration) throws(StorageError) -> PostgresStoreProbe {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }  // a probe's thread: nothing left to release
        let link = PostgresLink(
            name: "probe",
            configuration: configuration,
            eventLoop: group.next(),
            logger: PostgresLink.quiet
        )
        defer { link.close() }
        return try link.withConnection("check-config") { connection in
            let version = try connection.run("SHOW server_version").first?.decode(String.self) ?? "?"
            let exists =
                try connection.run("SELECT to_regclass('goald_schema') IS NOT NULL").first?.decode(Bool.self) ?? false
            var probe = PostgresStoreProbe(
                serverVersion: version,
                schemaVersion: 0,
                supportedSchemaVersion: PostgresSchema.migrations.count,
                head: nil
            )
            guard exists else { return probe }
            probe.schemaVersion = Int(
                try connection.run("SELECT COALESCE(MAX(version), 0) FROM goald_schema").first?.decode(Int32.self) ?? 0
            )
            probe.head = try PostgresReader.head(connection).revision
            return probe
        }
    }

    /// One line for `check-config`.
    public var summary: String {
        let schema =
            schemaVersion == 0
            ? "no goald schema yet (created at first start)"
            : "goald schema v\(schemaVersion)" + (head.map { ", head revision \($0)" } ?? "")
        return "PostgreSQL \(serverVersion) answers; \(schema)"
    }

    /// Why this goald cannot use the store, if it cannot.
    public var problem: String? {
        schemaVersion > supportedSchemaVersion
            ? "the database's goald schema v\(schemaVersion) is newer than this goald's v\(supportedSchemaVersion)"
            : nil
    }
}
