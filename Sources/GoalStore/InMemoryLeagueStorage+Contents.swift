import Foundation
import GoalModel

/// The in-memory store's data, changed only under its lock. Applying a batch works on a copy that replaces the
/// original only when every check passed, so a refused batch leaves nothing behind.
struct MemoryContents: Sendable {
    struct LogEntry: Sendable {
        var revision: Revision
        var time: Timestamp
        var frame: [UInt8]
        /// The entities the commit wrote (its history index).
        var entities: Set<EntityRef>
    }

    var players: [PlayerID: Player] = [:]
    var matches: [MatchID: Match] = [:]
    var clientRecords: [ClientInstanceID: ClientRecord] = [:]
    /// Ascending and contiguous; the first entry is the oldest retained.
    var log: [LogEntry] = []
    var head: Revision = 0
    var headDigest: Digest = .genesis
    var epoch: LeagueEpoch
    var tokens: [StoredToken] = []
    /// The league catalog (read only in the home store's contents).
    var catalog: MemoryCatalog

    init(epoch: LeagueEpoch) {
        self.epoch = epoch
        catalog = MemoryCatalog(created: Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000)))
    }

    var bounds: LogBounds {
        LogBounds(oldestRetainedRevision: log.first?.revision, head: head, headDigest: headDigest)
    }

    func durableLeague() throws(StorageError) -> DurableLeague {
        let state: LeagueState
        do {
            state = try LeagueState(
                revision: head,
                players: players.values,
                matches: matches.values,
                clientRecords: clientRecords.values
            )
        } catch {
            throw .rebuildFailed(error)
        }
        return DurableLeague(
            state: state,
            headDigest: headDigest,
            epoch: epoch,
            oldestRetainedRevision: log.first?.revision
        )
    }

    mutating func apply(_ batch: StorageBatch) throws(StorageError) {
        var expected = head + 1
        for commit in batch.commits {
            guard commit.revision == expected else { throw .revisionGap(expected: expected, found: commit.revision) }
            expected += 1
        }
        for commit in batch.commits {
            for change in commit.changeset.changes {
                try apply(change)
            }
            log.append(
                LogEntry(
                    revision: commit.revision,
                    time: commit.changeset.time,
                    frame: commit.frame,
                    entities: Set(EntityRef.written(by: commit.changeset.changes))
                )
            )
            head = commit.revision
            headDigest = commit.changeset.digest
        }
        for instance in batch.forgottenClients {
            clientRecords[instance] = nil
        }
        for record in batch.clientRecords {
            clientRecords[record.instance] = record
        }
    }

    /// Mirrors the SQLite constraints: unique name keys, and match players that exist and stay referenced.
    private mutating func apply(_ change: Change) throws(StorageError) {
        switch change {
        case .playerUpserted(let player):
            if let holder = players.values.first(where: { $0.nameKey == player.nameKey && $0.id != player.id }) {
                throw .constraint(operation: "append", detail: "name key of \(player.id) is held by \(holder.id)")
            }
            players[player.id] = player
        case .playerDeleted(let id):
            if let match = matches.values.first(where: { $0.allPlayers.contains(id) }) {
                throw .constraint(operation: "append", detail: "player \(id) is referenced by match \(match.id)")
            }
            players[id] = nil
        case .matchUpserted(let match):
            if let missing = match.allPlayers.first(where: { players[$0] == nil }) {
                throw .constraint(operation: "append", detail: "match \(match.id) references missing player \(missing)")
            }
            matches[match.id] = match
        case .matchDeleted(let id):
            matches[id] = nil
        case .ratingUpdated:
            break  // derived; rebuilt on recovery
        }
    }

    func backlog(after: Revision, upTo: Revision, limit: Int) throws(StorageError) -> [LogFrame] {
        let last = min(upTo, head)
        guard after < last, limit > 0 else { return [] }
        guard let oldest = log.first?.revision, after + 1 >= oldest else {
            throw .backlogPruned(after: after, oldest: log.first?.revision)
        }
        let start = Int(after + 1 - oldest)
        let end = Int(last - oldest) + 1
        return log[start..<min(end, start + limit)].map { LogFrame(revision: $0.revision, bytes: $0.frame) }
    }

    /// Scans the log from the newest entry: a test double, so O(log length) per page is fine here.
    func history(of entity: EntityRef, before: Revision?, limit: Int) -> HistoryPage {
        var frames: [LogFrame] = []
        for entry in log.reversed() where frames.count < limit {
            guard before.map({ entry.revision < $0 }) ?? true, entry.entities.contains(entity) else { continue }
            frames.append(LogFrame(revision: entry.revision, bytes: entry.frame))
        }
        let exists =
            switch entity {
            case .match(let id): matches[id] != nil
            case .player(let id): players[id] != nil
            }
        return HistoryPage(frames: frames, oldestRetainedRevision: log.first?.revision, head: head, exists: exists)
    }

    mutating func prune(_ policy: RetentionPolicy, now: Timestamp) -> PruneReport {
        let byCount = policy.countCutoff(head: head)
        let cutoffTime = policy.cutoffTime(now: now)
        let firstFresh = log.firstIndex { $0.time.millisecondsSince1970 >= cutoffTime } ?? log.count
        let byCountIndex = log.firstIndex { $0.revision > byCount } ?? log.count
        let deleted = max(firstFresh, byCountIndex)
        log.removeFirst(deleted)
        return PruneReport(deleted: deleted, oldestRetainedRevision: log.first?.revision)
    }
}
