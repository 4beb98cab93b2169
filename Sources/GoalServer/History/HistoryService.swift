import GoalModel
import GoalStore
import GoalWire

/// Answers `history` requests from the store (docs/PROTOCOL.md §4): checks the request, reads one page plus the
/// entry before it (so the page's oldest entry has its "before"), decodes the stored frames and diffs them.
///
/// Stateless; `Sendable`. `answer` blocks on the store: call it on the thread pool, never on an event loop or the
/// engine's queue.
enum HistoryService {
    /// The refusal of a request whose numbers are out of range, or nil when it may be read.
    static func refusal(of request: HistoryRequest) -> HistoryAnswer? {
        if let limit = request.limit, !(1...HistoryRequest.maximumLimit).contains(limit) {
            return refused(request, .badHistoryRequest, "limit must be 1…\(HistoryRequest.maximumLimit); got \(limit)")
        }
        if let before = request.before, before < 1 {
            return refused(request, .badHistoryRequest, "before must be a revision of 1 or more; got \(before)")
        }
        return nil
    }

    /// Reads and builds the answer to a request `refusal(of:)` let through.
    /// - Throws: `StorageError` when the store cannot be read or a stored frame is not a changeset.
    static func answer(_ request: HistoryRequest, from storage: any LeagueStorage) throws(StorageError) -> HistoryAnswer
    {
        let limit = request.limit ?? HistoryRequest.defaultLimit
        let page = try storage.history(of: request.entity, before: request.before, limit: limit + 1)
        if page.frames.isEmpty, !page.exists, request.before == nil {
            let retained = page.oldestRetainedRevision.map { "the log from revision \($0)" } ?? "the (empty) log"
            return refused(
                request,
                .unknownEntity,
                "no \(request.entity.kind) \(request.entity.id) exists or is in \(retained)"
            )
        }
        var changesets: [Changeset] = []
        for frame in page.frames {
            let message = try? ServerMessage.decode(frame.bytes)  // unreadable: thrown below as inconsistent
            guard case .changeset(let changeset)? = message else {
                throw .inconsistent("the stored frame of revision \(frame.revision) is not a changeset")
            }
            changesets.append(changeset)
        }
        let entries = HistoryDiff.entries(of: request.entity, newestFirst: changesets, limit: limit)
        let nextBefore = page.frames.count > limit ? entries.last?.revision : nil
        let logPruned = (page.oldestRetainedRevision ?? page.head + 1) > 1
        let pruned = nextBefore == nil && logPruned && entries.last?.change != .created
        return HistoryAnswer(
            entity: request.entity,
            result: .page(
                HistoryPageMessage(
                    entries: entries,
                    nextBefore: nextBefore,
                    retainedFrom: page.oldestRetainedRevision,
                    pruned: pruned
                )
            )
        )
    }

    static func refused(_ request: HistoryRequest, _ code: HistoryRefusal, _ message: String) -> HistoryAnswer {
        HistoryAnswer(entity: request.entity, result: .refused(code, message: message))
    }
}
