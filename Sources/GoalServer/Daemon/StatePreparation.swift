public import GoalStore
public import Logging

/// Everything a daemon needs that exists before its listener: the open store, the TLS material and, on a first
/// start, the new admin token. Made by `StatePreparation.prepare`.
///
/// Value type, `Sendable`. The store and the state lock stay open until `close()` (or until the lock is released
/// when the last copy goes away); the daemon owns them after it is built.
public struct PreparedState: Sendable {
    /// The open store: SQLite in the state directory (WAL, `synchronous = FULL`, asserted when it opened), or the
    /// one the executable opened (PostgreSQL).
    public var storage: any LeagueStorage
    /// The listener's certificate chain and key.
    public var tls: TLSMaterial
    /// The first admin token's secret, only when this start created it (show it only on a TTY).
    public var firstAdminToken: String?
    /// The exclusive lock on the state directory, held while the daemon lives.
    public var lock: StateDirectoryLock

    public init(storage: any LeagueStorage, tls: TLSMaterial, firstAdminToken: String?, lock: StateDirectoryLock) {
        self.storage = storage
        self.tls = tls
        self.firstAdminToken = firstAdminToken
        self.lock = lock
    }

    /// Closes the store and releases the state lock.
    public func close() throws(StorageError) {
        defer { lock.release() }
        try storage.close()
    }
}

/// How goald opens a store other than the SQLite file in its state directory (PostgreSQL): the executable, which
/// links the store's module, supplies it. Value type, `Sendable`.
public struct ExternalStore: Sendable {
    /// Where the store is, for the log (never a password).
    public var description: String
    /// Opens the store (connects, creates or upgrades its schema).
    public var open: @Sendable () throws(StorageError) -> any LeagueStorage

    public init(description: String, open: @escaping @Sendable () throws(StorageError) -> any LeagueStorage) {
        self.description = description
        self.open = open
    }
}

/// The start-up steps before any socket: state directory, lock, store, TLS, first admin token.
///
/// Stateless; `prepare` does blocking IO on the calling thread. Order matters and is fixed: the directory (0700),
/// the lock (one daemon per directory), the store (its files open before the listener, so the connection cap can
/// count them; durability asserted by the store), the TLS material (generated on first start), then the admin
/// token (only when the store has no token at all).
public enum StatePreparation {
    /// Runs the steps.
    /// - Returns: The prepared state.
    /// - Throws: `StatePreparationError` naming the step and what went wrong; anything opened is closed again.
    /// - Parameters:
    ///   - configuration: The daemon's configuration.
    ///   - store: A store to open instead of the state directory's SQLite file.
    ///   - logger: Where each step reports.
    public static func prepare(
        _ configuration: ServerConfiguration,
        store: ExternalStore? = nil,
        logger: Logger
    ) throws(StatePreparationError) -> PreparedState {
        do {
            try OwnerOnlyFile.createDirectory(configuration.stateDirectory)
        } catch {
            throw .stateDirectory(error.description)
        }
        let lock: StateDirectoryLock
        do {
            lock = try StateDirectoryLock.acquire(directory: configuration.stateDirectory)
        } catch {
            throw .locked(error)
        }
        let storage: any LeagueStorage
        do throws(StorageError) {
            if let store {
                storage = try store.open()
            } else {
                storage = try SQLiteLeagueStorage(path: configuration.databasePath, retention: configuration.retention)
            }
        } catch {
            lock.release()
            throw .storage(error)
        }
        do throws(StatePreparationError) {
            if let store {
                logger.info("goald.store.opened", metadata: ["goal.store": "\(store.description)"])
            } else if let sqlite = storage as? SQLiteLeagueStorage {
                let settings: DurabilitySettings
                do {
                    settings = try sqlite.durabilitySettings()
                } catch {
                    throw .storage(error)
                }
                logger.info(
                    "goald.store.opened",
                    metadata: [
                        "goal.store.path": "\(configuration.databasePath)",
                        "goal.store.synchronous": "\(settings.synchronous)",
                        "goal.store.journal_mode": "\(settings.journalMode)",
                    ]
                )
            }
            let tls = try loadTLS(configuration, logger: logger)
            let secret = try adminToken(configuration, storage: storage, logger: logger)
            return PreparedState(storage: storage, tls: tls, firstAdminToken: secret?.text, lock: lock)
        } catch {
            // Best effort while failing: the start-up error thrown below is the one to report, not a close error.
            try? storage.close()
            lock.release()
            throw error
        }
    }

    private static func loadTLS(
        _ configuration: ServerConfiguration,
        logger: Logger
    ) throws(StatePreparationError) -> TLSMaterial {
        do {
            let tls = try TLSMaterial.load(for: configuration)
            logger.info(
                "goald.tls.loaded",
                metadata: [
                    "goal.tls.certificate": "\(tls.certificateOrigin)",
                    "goal.tls.fingerprint": "\(tls.fingerprint)",
                    "goal.tls.not_valid_after": "\(tls.notValidAfter)",
                ]
            )
            return tls
        } catch {
            throw .tls(error)
        }
    }

    private static func adminToken(
        _ configuration: ServerConfiguration,
        storage: any LeagueStorage,
        logger: Logger
    ) throws(StatePreparationError) -> TokenSecret? {
        do {
            return try TokenAdministration.ensureFirstAdminToken(
                storage: storage,
                path: configuration.adminTokenPath,
                logger: logger
            )
        } catch {
            throw .adminToken(error)
        }
    }
}

/// Why `StatePreparation.prepare` failed, by step. Value type, `Sendable`.
public enum StatePreparationError: Error, Sendable, CustomStringConvertible {
    case stateDirectory(String)
    case locked(StateDirectoryLockError)
    case storage(StorageError)
    case tls(TLSError)
    case adminToken(TokenAdministrationError)

    public var description: String {
        switch self {
        case .stateDirectory(let detail): "state directory: \(detail)"
        case .locked(let error): error.description
        case .storage(let error): "store: \(error)"
        case .tls(let error): "TLS: \(error)"
        case .adminToken(let error): "first admin token: \(error)"
        }
    }
}
