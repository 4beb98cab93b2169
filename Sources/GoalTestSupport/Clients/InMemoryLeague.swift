import Foundation
import GoalClient
public import GoalModel
public import GoalReactive
public import GoalWire

/// A whole league in memory that behaves like goald's engine: mutations go through GoalModel's
/// `ConflictEngine` (so conflicts, rules and exactly-once are real), each commit becomes a `Changeset` with the
/// chained digest, and every commit is pushed to every observer of `changesets`. The shared "server" behind any
/// number of `InMemoryLeagueStore`s, for tests and previews.
///
/// Threading: thread-safe; `apply` may be called from any thread. Observers of `changesets` run on the thread
/// that called `apply`, with the (recursive) lock held, so every observer sees commits in revision order and may
/// call `apply` again from inside. `@unchecked Sendable`: `state`, `digest`, `log` and `clock` are guarded by
/// `lock`.
public final class InMemoryLeague: @unchecked Sendable {
    /// The database's epoch.
    public let epoch: LeagueEpoch
    /// Every commit, in revision order, after it is in `log`.
    public let changesets: Signal<Changeset, Never>

    private let changesetsInput: Signal<Changeset, Never>.Observer
    private let lock = NSRecursiveLock()
    private var state = LeagueState()
    private var digest = Digest.genesis
    private var log: [Changeset] = []
    private var clock: Int64

    /// An empty league.
    /// - Parameters:
    ///   - epoch: The epoch ("test-epoch" by default).
    ///   - startTime: The server time of the first commit (ms since 1970); each commit adds one millisecond.
    public init(epoch: LeagueEpoch = LeagueEpoch(rawValue: "test-epoch"), startTime: Int64 = 1_700_000_000_000) {
        self.epoch = epoch
        clock = startTime
        (changesets, changesetsInput) = Signal.pipe()
    }

    /// The current revision.
    public var revision: Revision { lock.withLock { state.revision } }

    /// Every commit so far.
    public var history: [Changeset] { lock.withLock { log } }

    /// The league as a snapshot at the current revision.
    public var snapshot: Snapshot {
        lock.withLock {
            Snapshot(
                revision: state.revision,
                epoch: epoch,
                digest: digest,
                players: Array(state.allPlayers),
                matches: Array(state.allMatches),
                ratings: Array(state.allRatings)
            )
        }
    }

    /// Runs one mutation through the conflict engine, as goald's engine does for a session with `role`.
    /// - Parameters:
    ///   - mutation: The mutation (its instance scopes exactly-once).
    ///   - author: The token name recorded in the changeset.
    ///   - role: The session's role; a role that does not permit the action is refused with `unauthorized`.
    /// - Returns: The outcome; a commit has been broadcast on `changesets` when this returns.
    @discardableResult
    public func apply(_ mutation: Mutation, author: String = "test", role: Role = .admin) -> MutationOutcome {
        guard role.permits(mutation.action) else {
            return .rejected(.unauthorized(role, mutation.action))
        }
        lock.lock()
        defer { lock.unlock() }
        let decision = ConflictEngine.apply(mutation, author: author, to: &state)
        if case .commit(let commit) = decision {
            clock += 1
            let provisional = commit.changeset(time: Timestamp(millisecondsSince1970: clock), digest: digest)
            let frame = ChangesetFrame.encode(provisional, previousDigest: digest)
            let changeset = commit.changeset(time: provisional.time, digest: frame.digest)
            digest = frame.digest
            log.append(changeset)
            changesetsInput.send(value: changeset)
        }
        return decision.outcome
    }

    /// Reads the current snapshot and starts observing later commits, atomically: no commit is missed or seen
    /// twice.
    /// - Parameter action: Called with every later commit (see the type's threading rules).
    /// - Returns: The snapshot and the observation's disposable.
    public func subscribe(_ action: @escaping (Changeset) -> Void) -> (Snapshot, (any Disposable)?) {
        lock.withLock { (snapshot, changesets.observeValues(action)) }
    }
}
