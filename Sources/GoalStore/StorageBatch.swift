public import GoalModel

/// One commit as the log stores it: the changeset (revision, author, time, digest, mutation id and the
/// entity changes the store applies) and its exact wire frame, which catch-up readers send unchanged.
///
/// Value type, `Sendable`.
public struct LoggedCommit: Hashable, Sendable {
    /// The committed changeset; `changeset.digest` is d_R.
    public var changeset: Changeset
    /// The exact bytes of the changeset frame (opaque to the store).
    public var frame: [UInt8]

    public init(changeset: Changeset, frame: [UInt8]) {
        self.changeset = changeset
        self.frame = frame
    }

    /// The commit's revision.
    public var revision: Revision { changeset.revision }
}

/// What the writer persists in one fsynced transaction: the batch's commits, in revision order and contiguous
/// with the store's head, the exactly-once records the server forgot, and the final `ClientRecord` of every
/// client instance the batch touched.
///
/// Rejections and noops change client records without a commit, so a batch may hold records and no commit.
/// Value type, `Sendable`.
public struct StorageBatch: Hashable, Sendable {
    /// The commits, revisions head + 1, head + 2, … with no gap.
    public var commits: [LoggedCommit]
    /// The exactly-once records of the instances the batch touched, as they are after the batch.
    public var clientRecords: [ClientRecord]
    /// Instances whose records are deleted, before `clientRecords` are written (an instance forgotten and then
    /// seen again in one batch ends with its new record).
    public var forgottenClients: [ClientInstanceID]

    public init(
        commits: [LoggedCommit] = [],
        clientRecords: [ClientRecord] = [],
        forgottenClients: [ClientInstanceID] = []
    ) {
        self.commits = commits
        self.clientRecords = clientRecords
        self.forgottenClients = forgottenClients
    }

    /// True when there is nothing to write.
    public var isEmpty: Bool { commits.isEmpty && clientRecords.isEmpty && forgottenClients.isEmpty }

    /// The revision of the last commit, if any.
    public var lastRevision: Revision? { commits.last?.revision }
}

/// One changeset frame read back from the log for a backlog.
///
/// Value type, `Sendable`.
public struct LogFrame: Hashable, Sendable {
    public var revision: Revision
    /// The exact bytes appended with the commit.
    public var bytes: [UInt8]

    public init(revision: Revision, bytes: [UInt8]) {
        self.revision = revision
        self.bytes = bytes
    }
}
