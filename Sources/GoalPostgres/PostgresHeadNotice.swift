import GoalModel
import GoalStore
import GoalWire

/// The payload of a commit notification on `PostgresSchema.headChannel` since schema v5: the batch itself, so a node
/// standing at the head it was written on takes it without reading the store (one round trip less between a commit
/// and the other nodes' subscribers). `goald_append` writes the header line; the body is built here:
///
/// ```
/// 42 41 17                                    the version written, and the version and revision written on
/// r <instance> <last seq> <last used, ms> <results JSON>      each client record the batch wrote
/// c <revision> <frame JSON>                                   each commit, with its exact stored frame
/// ```
///
/// Every line ends with a newline; results and frames are JSON, which holds no raw newline (an instance id with a
/// space or a newline in it, legal but odd, leaves its batch to a read). A NOTIFY payload must
/// stay under 8000 bytes, so a batch that does not fit (or an import) is announced by its version alone, as before
/// v5 and by older nodes, and its followers read it (`PostgresReader.changes`).
///
/// Stateless; any thread.
enum PostgresHeadNotice {
    /// The largest body `goald_append` sends (its header line takes at most 63 of NOTIFY's 7,999 bytes). Schema v5
    /// checks the same number itself: never raise it above 7,900 without a migration that does too.
    static let bodyLimit = 7_900

    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")

    /// The body that carries `batch`, or nil when it does not fit in a notification. `encodedResults` are its client
    /// records' results as `ClientResultsCoding` encodes them, in order: the append call encodes them once for both.
    static func body(of batch: StorageBatch, encodedResults: [[UInt8]]) -> String? {
        precondition(encodedResults.count == batch.clientRecords.count, "one encoding per client record")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(bodyLimit, 128 + batch.commits.reduce(0) { $0 + $1.frame.count + 24 }))
        func line(_ fields: String, _ json: [UInt8]) -> Bool {
            guard !json.contains(newline) else { return false }
            bytes += fields.utf8
            bytes += json
            bytes.append(newline)
            return bytes.count <= bodyLimit
        }
        for (record, results) in zip(batch.clientRecords, encodedResults) {
            // Instance ids are opaque text: one with a separator in it is left to a read.
            guard !record.instance.rawValue.utf8.contains(where: { $0 == space || $0 == newline }) else { return nil }
            let fields =
                "r \(record.instance.rawValue) \(Int64(clamping: record.lastSeq)) "
                + "\(record.lastUsed.millisecondsSince1970) "
            guard line(fields, results) else { return nil }
        }
        for commit in batch.commits {
            guard line("c \(PostgresCoding.integer(commit.revision)) ", commit.frame) else { return nil }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The notice a payload announces; nil when the payload is not one (the caller then reads the store).
    /// A header this goald reads with a body it cannot read announces the version alone: the follower reads.
    static func notice(from payload: String) -> HeadNotice? {
        let lines = Array(payload.utf8).split(separator: newline)
        guard let header = lines.first else { return nil }
        let numbers = header.split(separator: space).map { Int64(String(decoding: $0, as: UTF8.self)) }
        guard let first = numbers.first, let version = first else { return nil }
        guard numbers.count == 3, let baseVersion = numbers[1], let baseRevision = numbers[2] else {
            return HeadNotice(version: version)
        }
        do throws(StorageError) {
            let base = StoreHead(revision: try PostgresCoding.revision(baseRevision), version: baseVersion)
            let changes = try batch(lines.dropFirst(), after: base, version: version)
            return HeadNotice(version: version, written: HeadNotice.Written(base: base, changes: changes))
        } catch {
            return HeadNotice(version: version)
        }
    }

    /// The records and commits of a body's lines, checked to follow `base` without a hole.
    private static func batch(
        _ lines: ArraySlice<ArraySlice<UInt8>>,
        after base: StoreHead,
        version: StoreVersion
    ) throws(StorageError) -> ForeignChanges {
        var records: [ClientRecord] = []
        var commits: [LoggedCommit] = []
        for line in lines {
            let parts = line.split(separator: space, maxSplits: line.first == UInt8(ascii: "r") ? 4 : 2)
            let text = { (index: Int) in String(decoding: parts[index], as: UTF8.self) }
            switch (line.first, parts.count) {
            case (UInt8(ascii: "r"), 5):
                guard let lastSeq = Int64(text(2)), let lastUsed = Int64(text(3)) else { throw unreadable }
                records.append(
                    try PostgresReader.clientRecord(
                        instance: text(1),
                        lastSeq: lastSeq,
                        results: Array(parts[4]),
                        lastUsed: lastUsed
                    )
                )
            case (UInt8(ascii: "c"), 3):
                guard let stored = Int64(text(1)) else { throw unreadable }
                let revision = try PostgresCoding.revision(stored)
                guard revision == (commits.last?.revision ?? base.revision) + 1 else { throw unreadable }
                let frame = LogFrame(revision: revision, bytes: Array(parts[2]))
                commits.append(try PostgresCoding.commit(of: frame, in: "a commit notification"))
            default:
                throw unreadable
            }
        }
        let head = StoreHead(revision: commits.last?.revision ?? base.revision, version: version)
        return ForeignChanges(commits: commits, clientRecords: records, head: head)
    }

    private static var unreadable: StorageError { .inconsistent("a commit notification's body cannot be read") }
}
