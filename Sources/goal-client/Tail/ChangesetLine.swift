import Foundation
import GoalModel

/// One changeset as `tail` prints it for people, in aligned columns:
/// `21:40:03  r42     alice         3f2a9c1e  Alice, Bob 3 : 2 Carol  (home +1)`.
///
/// The columns: the commit time (local `HH:mm:ss`; `yyyy-MM-dd HH:mm:ss` when it is not from today), the revision
/// (padded to `revisionWidth`), the author (padded to `authorWidth`; a longer name pushes the rest right), the
/// entity's short id (always 8), the entity after the change and what changed. Names come from `names` (the league
/// as tail knows it; unknown players show their short id); everything from the server is escaped. Pure function.
enum ChangesetLine {
    /// Columns for `r` and the revision (up to r999999 stays aligned).
    static let revisionWidth = 7
    /// Columns for the author (token names are up to 64 characters; most are short).
    static let authorWidth = 12

    /// The line for `changeset`, given the player names and matches known before it.
    /// - Parameters:
    ///   - now: Today, for the time column (a changeset from another day shows its date).
    ///   - timeZone: The zone the time is shown in (the user's).
    static func text(
        _ changeset: Changeset,
        names: [PlayerID: String],
        matches: [MatchID: Match],
        now: Date = Date(),
        timeZone: TimeZone = .current
    ) -> String {
        let time = clock(changeset.time, now: now, timeZone: timeZone)
        let revision = pad("r\(changeset.revision)", revisionWidth)
        let head = "\(time)  \(revision)\(pad(TerminalText.escape(changeset.author), authorWidth))"
        func name(_ id: PlayerID) -> String { TerminalText.escape(names[id] ?? id.shortID) }
        func newName(_ id: PlayerID) -> String {
            for case .playerUpserted(let player) in changeset.changes where player.id == id {
                return TerminalText.escape(player.name)
            }
            return name(id)
        }
        func score(_ match: Match) -> String {
            let home = match.homePlayers.map(name).joined(separator: ", ")
            let away = match.awayPlayers.map(name).joined(separator: ", ")
            return "\(home) \(match.homeGoals) : \(match.awayGoals) \(away)"
        }
        func upserted(_ id: MatchID) -> Match? {
            for case .matchUpserted(let match) in changeset.changes where match.id == id { return match }
            return nil
        }
        switch changeset.action {
        case .createPlayer(let id, _):
            return "\(head)  \(id.shortID)  \(newName(id))  (new player)"
        case .renamePlayer(let id, _):
            return "\(head)  \(id.shortID)  \(newName(id))  (renamed from \(name(id)))"
        case .deletePlayer(let id):
            return "\(head)  \(id.shortID)  \(name(id))  (player deleted)"
        case .createMatch(let id, _, _, _, _):
            return "\(head)  \(id.shortID)  \(upserted(id).map(score) ?? "?")  (new match)"
        case .updateMatch(let id, let update):
            let fields = update.writtenFields.map(\.rawValue).joined(separator: ", ")
            return "\(head)  \(id.shortID)  \(upserted(id).map(score) ?? "?")  (edited \(fields))"
        case .adjustGoals(let id, let side, let delta):
            let signed = delta >= 0 ? "+\(delta)" : "\(delta)"
            return "\(head)  \(id.shortID)  \(upserted(id).map(score) ?? "?")  (\(side.rawValue) \(signed))"
        case .deleteMatch(let id):
            return "\(head)  \(id.shortID)  \(matches[id].map(score) ?? "match")  (match deleted)"
        case nil:
            return "\(head)  \(changeset.changes.count) changes"
        }
    }

    /// `text` padded with spaces to `columns` terminal columns (never cut).
    static func pad(_ text: String, _ columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - TerminalText.width(text)))
    }

    /// `HH:mm:ss` (`HH:mm` without `seconds`) in `timeZone`, with `yyyy-MM-dd ` before it when `time` is not on
    /// `now`'s day.
    static func clock(_ time: Timestamp, now: Date, timeZone: TimeZone, seconds: Bool = true) -> String {
        let local = LocalTime(time, now: now, timeZone: timeZone)
        let clock = local.clock(seconds: seconds)
        return local.isToday ? clock : "\(local.day) \(clock)"
    }

    /// A match's date in the UI's match list: `HH:mm` when `time` is on `now`'s day, else `yyyy-MM-dd` (the same
    /// today-or-date rule as `clock`, one column of at most 10).
    static func day(_ time: Timestamp, now: Date, timeZone: TimeZone = .current) -> String {
        let local = LocalTime(time, now: now, timeZone: timeZone)
        return local.isToday ? local.clock(seconds: false) : local.day
    }
}

/// A commit time's calendar parts in one time zone, and whether it is on `now`'s day. Value type.
private struct LocalTime {
    let parts: DateComponents
    let isToday: Bool

    init(_ time: Timestamp, now: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = Date(timeIntervalSince1970: Double(time.millisecondsSince1970) / 1000)
        parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        isToday = calendar.isDate(date, inSameDayAs: now)
    }

    /// `yyyy-MM-dd`.
    var day: String { "\(parts.year ?? 0)-\(Self.two(parts.month))-\(Self.two(parts.day))" }

    /// `HH:mm:ss`, or `HH:mm` without `seconds`.
    func clock(seconds: Bool) -> String {
        "\(Self.two(parts.hour)):\(Self.two(parts.minute))" + (seconds ? ":\(Self.two(parts.second))" : "")
    }

    private static func two(_ value: Int?) -> String {
        let text = String(value ?? 0)
        return text.count < 2 ? "0" + text : text
    }
}
