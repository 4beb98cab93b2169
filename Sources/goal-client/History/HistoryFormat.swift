import Foundation
import GoalClient
import GoalModel
import GoalWire

/// How an entity's history reads for people (`goal-client history`, the UI's history pane) and scripts (`--json`):
/// one line per revision, `r12 14:03 bob  home goals 2 → 3`.
///
/// Pure functions; thread-safe.
enum HistoryFormat {
    /// One entry as a line: revision, time (`HH:mm` on `today`'s date, else `yyyy-MM-dd HH:mm`, local time), author,
    /// then what changed.
    static func line(_ entry: HistoryEntry, _ lookup: LeagueLookup, today: Date = Date()) -> String {
        "r\(entry.revision) \(time(entry.time, today: today)) \(TerminalText.escape(entry.author))  \(summary(entry, lookup))"
    }

    /// The time of a commit, short when it is on `today`'s date.
    static func time(_ time: Timestamp, today: Date = Date()) -> String {
        ChangesetLine.clock(time, now: today, timeZone: .current, seconds: false)  // tail's clock, to the minute
    }

    /// What an entry did: `created …`, `deleted`, or each changed field `before → after` (`?` when pruned).
    static func summary(_ entry: HistoryEntry, _ lookup: LeagueLookup) -> String {
        switch entry.change {
        case .created:
            return "created: "
                + entry.fields.map { "\(label($0.field)) \(value($0.after, lookup))" }.joined(separator: "; ")
        case .deleted:
            return "deleted"
        case .updated:
            guard !entry.fields.isEmpty else { return "no visible change" }
            return entry.fields.map { change in
                "\(label(change.field)) \(value(change.before, lookup)) → \(value(change.after, lookup))"
            }.joined(separator: "; ")
        }
    }

    /// The lines that follow a page: where older history went, or how to read the next page.
    static func footer(_ page: HistoryPageMessage, argument: String) -> [String] {
        if let next = page.nextBefore {
            return ["older: goal-client history \(TerminalText.escape(argument)) --before \(next)"]
        }
        if page.pruned {
            let start = page.retainedFrom.map { "the log starts at r\($0)" } ?? "the log is empty"
            return ["older history pruned (\(start))"]
        }
        return []
    }

    static func label(_ field: HistoryField) -> String {
        switch field {
        case .name: "name"
        case .homePlayers: "home players"
        case .awayPlayers: "away players"
        case .homeGoals: "home goals"
        case .awayGoals: "away goals"
        }
    }

    static func value(_ value: HistoryValue?, _ lookup: LeagueLookup) -> String {
        switch value {
        case nil: "?"
        case .name(let name): TerminalText.escape(name)
        case .goals(let goals): "\(goals)"
        case .players(let players): players.map(lookup.name).joined(separator: ", ")
        }
    }

    /// The page as one JSON document: the wire's members, times in milliseconds, players as ids.
    static func json(_ page: HistoryPageMessage, entity: EntityRef) -> JSONDocument {
        .object([
            ("entity", .string(entity.kind)),
            ("id", .string(entity.id)),
            ("entries", .array(page.entries.map(entryJSON))),
            ("next_before", page.nextBefore.map(JSONDocument.uint) ?? .null),
            ("retained_from", page.retainedFrom.map(JSONDocument.uint) ?? .null),
            ("pruned", .bool(page.pruned)),
        ])
    }

    private static func entryJSON(_ entry: HistoryEntry) -> JSONDocument {
        .object([
            ("revision", .uint(entry.revision)),
            ("time", .int(Int(entry.time.millisecondsSince1970))),
            ("author", .string(entry.author)),
            ("client_instance", entry.clientInstance.map { .string($0.rawValue) } ?? .null),
            ("change", .string(entry.change.rawValue)),
            (
                "fields",
                .array(
                    entry.fields.map { change in
                        .object([
                            ("field", .string(change.field.rawValue)),
                            ("before", valueJSON(change.before)),
                            ("after", valueJSON(change.after)),
                        ])
                    }
                )
            ),
        ])
    }

    private static func valueJSON(_ value: HistoryValue?) -> JSONDocument {
        switch value {
        case nil: .null
        case .name(let name): .string(name)
        case .goals(let goals): .int(goals)
        case .players(let players): .array(players.map { .string($0.description) })
        }
    }
}
