public import Foundation
import GRDB
public import GoalClient
public import GoalModel
import GoalWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The durable `ClientStateStore`: one SQLite file (GRDB, `synchronous = FULL`, every change one transaction) per
/// login and league, shared by the processes of that login, each of which holds one **instance slot** for its life.
///
/// A file belongs to one league (its `league` row, set when it is first opened; a file written before leagues is
/// the default league's): `open` refuses a file of another league, so one league's replica is never resumed, nor its
/// outbox replayed, in another.
///
/// A slot is a client instance with its last seq and its outbox; a process holds its slot's `ClientSlotLease` (an
/// exclusive `flock`), so two concurrent processes never share a seq counter: the second one takes another slot
/// (another instance). `open` prefers the lowest free slot that has queued mutations, so they are sent by the next
/// process that runs, then the lowest free one. The replica is shared: whichever process saves last wins, except
/// that a save never replaces a newer revision of the same epoch.
///
/// Everything written is durable when the call returns (a `kill -9` right after loses nothing). Model values are
/// stored as GoalWire bytes: the replica as its snapshot frames (`SnapshotChunker`), a mutation as its `mutate`
/// message.
///
/// Threading: `Sendable`; every method may be called from any thread (GRDB's `DatabaseQueue` serializes them;
/// other processes wait up to 10 s for SQLite's lock). Lifetime: the slot is held until the object is released.
public final class SQLiteClientStateStore: ClientStateStore {
    /// The database file.
    public let path: String
    /// The league whose state the file holds.
    public let league: LeagueSlug
    /// The instance slot this process holds.
    public var slot: Int { lease.slot }
    /// How many slots `open` tries before it waits (or gives up).
    public static let defaultSlotCount = 8

    let queue: DatabaseQueue
    private let lease: ClientSlotLease

    private init(path: String, league: LeagueSlug, queue: DatabaseQueue, lease: ClientSlotLease) {
        self.path = path
        self.league = league
        self.queue = queue
        self.lease = lease
    }

    /// Opens (creating if needed, mode 0600) the database at `path` and takes an instance slot.
    /// - Parameters:
    ///   - path: The database file; its directory must exist.
    ///   - league: The league whose state the file holds (a new file is given it).
    ///   - slots: How many slots to try (`defaultSlotCount`).
    ///   - waitWhenBusy: When every slot is held: wait for slot 0 (true) or throw `busy` (false).
    /// - Throws: `ClientStateStoreError`: `io` (file, lock, SQLite), `busy`, `unreadable` (the file holds another
    ///   league's state).
    public static func open(
        path: String,
        league: LeagueSlug = .default,
        slots: Int = defaultSlotCount,
        waitWhenBusy: Bool
    ) throws(ClientStateStoreError) -> SQLiteClientStateStore {
        try createOwnerOnly(path)
        var configuration = Configuration()
        configuration.label = "goal-client.state"
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let queue: DatabaseQueue
        let waiting: [Int64]
        let owner: String
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try ClientStateSchema.migrator.migrate(queue)
            (owner, waiting) = try queue.write { db in
                try db.execute(
                    sql: "INSERT OR IGNORE INTO league (id, slug) VALUES (1, ?)",
                    arguments: [league.rawValue]
                )
                let owner = try String.fetchOne(db, sql: "SELECT slug FROM league") ?? league.rawValue
                let waiting = try Int64.fetchAll(db, sql: "SELECT DISTINCT slot FROM outbox ORDER BY slot")
                return (owner, waiting)
            }
        } catch {
            throw .io("cannot open \(path): \(error)")
        }
        guard owner == league.rawValue else {
            throw .unreadable("\(path) holds the state of league \(owner), not of league \(league)")
        }
        let count = max(slots, 1)
        let order = waiting.map { Int($0) }.filter { $0 < count } + (0..<count).filter { !waiting.contains(Int64($0)) }
        do {
            for slot in order {
                if let lease = try ClientSlotLease.acquire(databasePath: path, slot: slot, wait: false) {
                    return SQLiteClientStateStore(path: path, league: league, queue: queue, lease: lease)
                }
            }
            guard waitWhenBusy, let lease = try ClientSlotLease.acquire(databasePath: path, slot: 0, wait: true)
            else {
                throw ClientStateStoreError.busy("all \(count) instance slots of \(path) are held by other processes")
            }
            return SQLiteClientStateStore(path: path, league: league, queue: queue, lease: lease)
        } catch let error as ClientStateStoreError {
            throw error
        } catch {
            throw .io("\(error)")
        }
    }

    /// Lets go of the instance slot (another process may take it). Call it once the client using this store has
    /// stopped; the process ending does the same.
    public func close() {
        lease.release()
    }

    public func load() throws(ClientStateStoreError) -> SavedClientState {
        let slot = Int64(self.slot)
        let rows: (instance: String, lastSeq: Int64, outbox: [Row], replica: Row?, frames: [[UInt8]])
        do {
            rows = try queue.write { db in
                if try Row.fetchOne(db, sql: "SELECT 1 FROM slots WHERE slot = ?", arguments: [slot]) == nil {
                    try db.execute(
                        sql: "INSERT INTO slots (slot, instance, last_seq) VALUES (?, ?, 0)",
                        arguments: [slot, ClientInstanceID.random().rawValue]
                    )
                }
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT instance, last_seq FROM slots WHERE slot = ?",
                    arguments: [slot]
                )
                let outbox = try Row.fetchAll(
                    db,
                    sql: "SELECT seq, mutate, first_sent_ms FROM outbox WHERE slot = ? ORDER BY seq",
                    arguments: [slot]
                )
                let replica = try Row.fetchOne(db, sql: "SELECT epoch, revision, synced_at_ms FROM replica")
                let frames = try Data.fetchAll(db, sql: "SELECT frame FROM replica_frames ORDER BY position")
                let instance: String = row?["instance"] ?? ""
                let lastSeq: Int64 = row?["last_seq"] ?? 0
                return (instance, lastSeq, outbox, replica, frames.map { Array($0) })
            }
        } catch {
            throw .io("cannot read \(path): \(error)")
        }
        guard let instance = ClientInstanceID(rows.instance) else {
            throw .unreadable("slot \(slot) of \(path) has no valid client instance")
        }
        var outbox: [QueuedMutation] = []
        for row in rows.outbox {
            let bytes = Array((row["mutate"] as Data?) ?? Data())
            // nil (bytes that do not decode) is reported as unreadable just below.
            guard case .mutate(let mutate)? = try? ClientMessage.decode(bytes) else {  // see the line above
                throw .unreadable("queued mutation \(row["seq"] as Int64? ?? 0) in \(path) does not decode")
            }
            let sentMilliseconds: Int64? = row["first_sent_ms"]
            outbox.append(
                QueuedMutation(
                    mutation: mutate.mutation(instance: instance),
                    firstSent: sentMilliseconds.map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
                )
            )
        }
        var saved = SavedClientState(instance: instance, lastSeq: UInt64(max(rows.lastSeq, 0)), outbox: outbox)
        if let replicaRow = rows.replica, let replica = Self.replica(frames: rows.frames) {
            saved.replica = replica
            let milliseconds: Int64 = replicaRow["synced_at_ms"] ?? 0
            saved.syncedAt = Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        }
        return saved
    }

    public func recordQueued(_ mutation: Mutation) throws(ClientStateStoreError) {
        let bytes = Data(ClientMessage.mutate(ClientMessage.Mutate(mutation)).encoded())
        try write("record mutation \(mutation.id)") { db, slot in
            try db.execute(
                sql: "INSERT OR REPLACE INTO outbox (slot, seq, mutate, first_sent_ms) VALUES (?, ?, ?, NULL)",
                arguments: [slot, Int64(mutation.id.seq), bytes]
            )
            try db.execute(
                sql: "UPDATE slots SET last_seq = max(last_seq, ?) WHERE slot = ?",
                arguments: [Int64(mutation.id.seq), slot]
            )
        }
    }

    public func recordFirstSent(_ id: MutationID, at date: Date) throws(ClientStateStoreError) {
        try write("record the first send of \(id)") { db, slot in
            try db.execute(
                sql: "UPDATE outbox SET first_sent_ms = ? WHERE slot = ? AND seq = ? AND first_sent_ms IS NULL",
                arguments: [Self.milliseconds(date), slot, Int64(id.seq)]
            )
        }
    }

    public func removeQueued(_ id: MutationID) throws(ClientStateStoreError) {
        try write("remove \(id)") { db, slot in
            try db.execute(sql: "DELETE FROM outbox WHERE slot = ? AND seq = ?", arguments: [slot, Int64(id.seq)])
        }
    }

    public func saveReplica(_ replica: ReplicaState, syncedAt date: Date) throws(ClientStateStoreError) {
        guard let snapshot = replica.snapshot else { return }
        let frames = SnapshotChunker.frames(of: snapshot)
        try write("save the replica") { db, _ in
            if let row = try Row.fetchOne(db, sql: "SELECT epoch, revision FROM replica"),
                row["epoch"] as String? == snapshot.epoch.rawValue,
                (row["revision"] as Int64? ?? 0) > Int64(snapshot.revision)
            {
                return  // another process saved a newer revision of this league
            }
            try db.execute(sql: "DELETE FROM replica_frames")
            for (position, frame) in frames.enumerated() {
                try db.execute(
                    sql: "INSERT INTO replica_frames (position, frame) VALUES (?, ?)",
                    arguments: [position, Data(frame)]
                )
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO replica (id, epoch, revision, synced_at_ms) VALUES (1, ?, ?, ?)
                    """,
                arguments: [snapshot.epoch.rawValue, Int64(snapshot.revision), Self.milliseconds(date)]
            )
        }
    }

    /// One write transaction with this store's slot.
    private func write(
        _ operation: String,
        _ body: (Database, Int64) throws -> Void
    ) throws(ClientStateStoreError) {
        let slot = Int64(self.slot)
        do {
            try queue.write { db in try body(db, slot) }
        } catch {
            throw .io("cannot \(operation) in \(path): \(error)")
        }
    }

    /// The replica the saved snapshot frames make; nil when they do not decode into a complete snapshot.
    static func replica(frames: [[UInt8]]) -> ReplicaState? {
        do {
            guard let first = frames.first, case .snapshotBegin(let begin) = try ServerMessage.decode(first) else {
                return nil
            }
            var assembler = SnapshotAssembler(begin)
            for frame in frames.dropFirst() {
                if let snapshot = try assembler.receive(try ServerMessage.decode(frame)) {
                    return ReplicaState(snapshot)
                }
            }
            return nil
        } catch {
            return nil  // frames that do not make a snapshot: treated as no saved replica
        }
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}

/// Creates an empty file with mode 0600 unless one exists (SQLite gives its journal the database file's mode).
private func createOwnerOnly(_ path: String) throws(ClientStateStoreError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .io("cannot create \(path): \(String(cString: strerror(errno)))") }
    close(descriptor)
}
