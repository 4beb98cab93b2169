public import GoalModel

/// Why a store call failed. Each `description` says what happened and what an operator should do.
///
/// A failed `append` wrote nothing (its transaction rolled back); the daemon must stop, because the store is the
/// truth on restart. Value type, `Sendable`; compare `code` to tell kinds apart.
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, stable for matching.
    public enum Code: String, Hashable, Sendable {
        case revisionGap = "revision_gap"
        case synchronousNotFull = "synchronous_not_full"
        case journalModeNotWAL = "journal_mode_not_wal"
        case notADatabase = "not_a_database"
        case corrupt
        case foreignDatabase = "foreign_database"
        case schemaTooNew = "schema_too_new"
        case schemaIncomplete = "schema_incomplete"
        case constraint
        case database
        case fileAccess = "file_access"
        case rebuildFailed = "rebuild_failed"
        case inconsistent
        case tokenNameTaken = "token_name_taken"
        case tokenHashTaken = "token_hash_taken"
        case tokenNotFound = "token_not_found"
        case invalidTokenHash = "invalid_token_hash"
        case backlogPruned = "backlog_pruned"
        case closed
        case unavailable
        case databaseServer = "database_server"
        case nodeIDTaken = "node_id_taken"
        case leagueExists = "league_exists"
        case leagueNotFound = "league_not_found"
        case defaultLeague = "default_league"
    }

    private enum Kind: Hashable, Sendable {
        case revisionGap(expected: Revision, found: Revision)
        case synchronousNotFull(found: Int)
        case journalModeNotWAL(found: String)
        case notADatabase(path: String)
        case corrupt(path: String, detail: String)
        case foreignDatabase(path: String)
        case schemaTooNew(path: String)
        case schemaIncomplete(path: String, missing: [String])
        case constraint(operation: String, detail: String)
        case database(operation: String, detail: String)
        case fileAccess(path: String, detail: String)
        case rebuildFailed(LeagueStateError)
        case inconsistent(detail: String)
        case tokenNameTaken(String)
        case tokenHashTaken
        case tokenNotFound(String)
        case invalidTokenHash(length: Int)
        case backlogPruned(after: Revision, oldest: Revision?)
        case closed(call: String)
        case unavailable(operation: String, detail: String)
        case databaseServer(operation: String, detail: String)
        case nodeIDTaken(nodeID: String, holder: String, claimant: String)
        case leagueExists(LeagueSlug)
        case leagueNotFound(LeagueSlug)
        case defaultLeague(operation: String)
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// A batch's first commit is not head + 1, or its commits are not consecutive; nothing was written.
    public static func revisionGap(expected: Revision, found: Revision) -> StorageError {
        StorageError(.revisionGap(expected: expected, found: found))
    }
    /// `PRAGMA synchronous` read back as something other than 2 (FULL).
    public static func synchronousNotFull(found: Int) -> StorageError {
        StorageError(.synchronousNotFull(found: found))
    }
    /// `PRAGMA journal_mode` read back as something other than `wal`.
    public static func journalModeNotWAL(found: String) -> StorageError {
        StorageError(.journalModeNotWAL(found: found))
    }
    /// The file exists but is not an SQLite database.
    public static func notADatabase(path: String) -> StorageError { StorageError(.notADatabase(path: path)) }
    /// SQLite reports corruption (`integrity_check` failed or a page is malformed).
    public static func corrupt(path: String, detail: String) -> StorageError {
        StorageError(.corrupt(path: path, detail: detail))
    }
    /// An SQLite database that goald did not create (tables but no migration record).
    public static func foreignDatabase(path: String) -> StorageError { StorageError(.foreignDatabase(path: path)) }
    /// The database was migrated by a newer goald.
    public static func schemaTooNew(path: String) -> StorageError { StorageError(.schemaTooNew(path: path)) }
    /// A backup lacks migrations this goald needs.
    public static func schemaIncomplete(path: String, missing: [String]) -> StorageError {
        StorageError(.schemaIncomplete(path: path, missing: missing))
    }
    /// A write broke a constraint (unique name key, a deleted player still referenced, …); nothing was written.
    public static func constraint(operation: String, detail: String) -> StorageError {
        StorageError(.constraint(operation: operation, detail: detail))
    }
    /// Any other SQLite failure (disk full, I/O error, busy …).
    public static func database(operation: String, detail: String) -> StorageError {
        StorageError(.database(operation: operation, detail: detail))
    }
    /// A file could not be created, read, moved or given its permissions.
    public static func fileAccess(path: String, detail: String) -> StorageError {
        StorageError(.fileAccess(path: path, detail: detail))
    }
    /// The persisted entities break a league invariant.
    public static func rebuildFailed(_ error: LeagueStateError) -> StorageError { StorageError(.rebuildFailed(error)) }
    /// The stored parts disagree with each other (e.g. the log ends past the recorded head).
    public static func inconsistent(_ detail: String) -> StorageError { StorageError(.inconsistent(detail: detail)) }
    /// Another token already has this name.
    public static func tokenNameTaken(_ name: String) -> StorageError { StorageError(.tokenNameTaken(name)) }
    /// Another token already has this secret hash.
    public static let tokenHashTaken = StorageError(.tokenHashTaken)
    /// No token has this name.
    public static func tokenNotFound(_ name: String) -> StorageError { StorageError(.tokenNotFound(name)) }
    /// A secret hash that is not 32 bytes (SHA-256).
    public static func invalidTokenHash(length: Int) -> StorageError { StorageError(.invalidTokenHash(length: length)) }
    /// Part of the requested backlog has been pruned; serve a snapshot instead.
    public static func backlogPruned(after: Revision, oldest: Revision?) -> StorageError {
        StorageError(.backlogPruned(after: after, oldest: oldest))
    }
    /// The store was closed before this call.
    public static func closed(call: String) -> StorageError { StorageError(.closed(call: call)) }
    /// The database server could not be reached, or the connection was lost during the call (a restart, a network
    /// failure). Transient: the call may succeed later; an `append` that failed this way may or may not have
    /// committed (`BatchWriter` recognises a batch the store already holds).
    public static func unavailable(operation: String, detail: String) -> StorageError {
        StorageError(.unavailable(operation: operation, detail: detail))
    }
    /// A database server (PostgreSQL) refused a call for another reason than a constraint.
    public static func databaseServer(operation: String, detail: String) -> StorageError {
        StorageError(.databaseServer(operation: operation, detail: detail))
    }

    /// Another live goald on the same shared store already runs under this node id (`SharedLeagueStorage.claimNode`).
    /// `holder` and `claimant` describe the two processes (host, pid, port, state directory).
    public static func nodeIDTaken(_ nodeID: String, holder: String, claimant: String) -> StorageError {
        StorageError(.nodeIDTaken(nodeID: nodeID, holder: holder, claimant: claimant))
    }

    /// A league with this slug already exists.
    public static func leagueExists(_ slug: LeagueSlug) -> StorageError { StorageError(.leagueExists(slug)) }
    /// No league has this slug.
    public static func leagueNotFound(_ slug: LeagueSlug) -> StorageError { StorageError(.leagueNotFound(slug)) }
    /// The default league cannot be created or deleted (`operation`); it always exists.
    public static func defaultLeague(operation: String) -> StorageError {
        StorageError(.defaultLeague(operation: operation))
    }

    /// True when retrying later may succeed (`unavailable`).
    public var isTransient: Bool { code == .unavailable }

    public var code: Code {
        switch kind {
        case .revisionGap: .revisionGap
        case .synchronousNotFull: .synchronousNotFull
        case .journalModeNotWAL: .journalModeNotWAL
        case .notADatabase: .notADatabase
        case .corrupt: .corrupt
        case .foreignDatabase: .foreignDatabase
        case .schemaTooNew: .schemaTooNew
        case .schemaIncomplete: .schemaIncomplete
        case .constraint: .constraint
        case .database: .database
        case .fileAccess: .fileAccess
        case .rebuildFailed: .rebuildFailed
        case .inconsistent: .inconsistent
        case .tokenNameTaken: .tokenNameTaken
        case .tokenHashTaken: .tokenHashTaken
        case .tokenNotFound: .tokenNotFound
        case .invalidTokenHash: .invalidTokenHash
        case .backlogPruned: .backlogPruned
        case .closed: .closed
        case .unavailable: .unavailable
        case .databaseServer: .databaseServer
        case .nodeIDTaken: .nodeIDTaken
        case .leagueExists: .leagueExists
        case .leagueNotFound: .leagueNotFound
        case .defaultLeague: .defaultLeague
        }
    }

    public var description: String {
        switch kind {
        case .revisionGap(let expected, let found):
            "store refused a batch: expected revision \(expected), got \(found); nothing was written. This is a bug "
                + "in the writer; restart goald, which recovers from the store"
        case .synchronousNotFull(let found):
            "SQLite PRAGMA synchronous is \(found), not 2 (FULL): commits would not be durable. Check that no "
                + "SQLite build option or wrapper overrides it"
        case .journalModeNotWAL(let found):
            "SQLite journal mode is \(found), not wal; the file system may not support WAL (network file system?). "
                + "Put the state directory on a local disk"
        case .notADatabase(let path):
            "\(path) is not an SQLite database; point goald at its own database file or restore a backup"
        case .corrupt(let path, let detail):
            "\(path) is corrupt (\(detail)); restore the latest backup with `goald restore FILE`"
        case .foreignDatabase(let path):
            "\(path) is an SQLite database that goald did not create; refusing to change it. Use another path"
        case .schemaTooNew(let path):
            "\(path) was written by a newer goald; run that version, or restore a backup made by this one"
        case .schemaIncomplete(let path, let missing):
            "\(path) lacks schema migrations \(missing.joined(separator: ", ")); it is not a complete goald "
                + "database or backup"
        case .constraint(let operation, let detail):
            "store refused \(operation): \(detail); nothing was written. This is a bug in the engine or a hand-"
                + "edited database; restart goald, which recovers from the store"
        case .database(let operation, let detail):
            "SQLite failed during \(operation): \(detail). Check free disk space and file permissions, then restart"
        case .fileAccess(let path, let detail):
            "cannot access \(path): \(detail). Check the directory exists and goald's user may write it"
        case .rebuildFailed(let error):
            "the stored league breaks an invariant (\(error)); restore the latest backup with `goald restore FILE`"
        case .inconsistent(let detail):
            "the store is inconsistent (\(detail)); restore the latest backup with `goald restore FILE`"
        case .tokenNameTaken(let name):
            "a token named \"\(name)\" already exists; choose another name or revoke the old token"
        case .tokenHashTaken:
            "a token with this secret already exists; generate a new secret"
        case .tokenNotFound(let name):
            "no token is named \"\(name)\"; `goald token list` shows the names"
        case .invalidTokenHash(let length):
            "a token secret hash must be 32 bytes (SHA-256); got \(length)"
        case .backlogPruned(let after, let oldest):
            "the log no longer holds every changeset after revision \(after) (oldest kept: "
                + (oldest.map { "\($0)" } ?? "none") + "); serve a snapshot"
        case .closed(let call):
            "\(call) was called after the store was closed"
        case .unavailable(let operation, let detail):
            "the database server is unavailable during \(operation): \(detail). goald retries; check that the "
                + "server runs and accepts connections"
        case .databaseServer(let operation, let detail):
            "the database server failed during \(operation): \(detail)"
        case .nodeIDTaken(let nodeID, let holder, let claimant):
            "node id \"\(nodeID)\" is already held by a live goald on this store (\(holder)); this goald "
                + "(\(claimant)) cannot use it too: presence and logs would mix the two nodes. Give it another "
                + "nodeId (--set nodeId=NAME or GOALD_NODE_ID), or leave nodeId unset for the one kept in its state "
                + "directory"
        case .leagueExists(let slug):
            "a league with the id \"\(slug)\" already exists; choose another id"
        case .leagueNotFound(let slug):
            "no league has the id \"\(slug)\"; `goald league list` shows them"
        case .defaultLeague(let operation):
            "the default league cannot be \(operation): every client that names no league follows it"
        }
    }
}
