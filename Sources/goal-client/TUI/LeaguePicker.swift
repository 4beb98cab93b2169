import GoalModel
import GoalWire

/// The league switcher's list (`l` in the UI): the leagues the token may see, as goald lists them
/// (`LeagueDirectory`), the current one marked, a cursor. Choosing another league ends this UI's session and opens
/// one on that league, with its own saved state (`Live`).
///
/// Value type, owned by `LiveApp` on the main actor; the list arrives with `loaded(_:)` or `failed(_:)`.
struct LeaguePicker {
    enum Content {
        case loading
        case loaded([LeagueListing])
        case failed(String)
    }

    /// What a key did.
    enum Outcome: Equatable {
        /// The list stays open.
        case stay
        /// Closed without a change.
        case close
        /// Switch to this league.
        case choose(LeagueSlug)
    }

    /// The league the UI follows.
    let current: LeagueSlug
    private(set) var content = Content.loading
    private(set) var cursor = 0

    init(current: LeagueSlug) { self.current = current }

    /// The list arrived: the cursor starts on the current league.
    mutating func loaded(_ leagues: [LeagueListing]) {
        content = .loaded(leagues)
        cursor = leagues.firstIndex { $0.id == current } ?? 0
    }

    mutating func failed(_ message: String) { content = .failed(message) }

    /// ↑/↓ (k/j) move, enter chooses (the current league closes instead), esc or l closes.
    mutating func handle(_ key: Key) -> Outcome {
        guard case .loaded(let leagues) = content, !leagues.isEmpty else {
            return key == .escape || key == .character("l") || key == .enter ? .close : .stay
        }
        switch key {
        case .up, .character("k"): cursor = max(cursor - 1, 0)
        case .down, .character("j"): cursor = min(cursor + 1, leagues.count - 1)
        case .enter: return leagues[cursor].id == current ? .close : .choose(leagues[cursor].id)
        case .escape, .character("l"): return .close
        default: break
        }
        return .stay
    }

    /// The list: a title, one line a league (`* office  Office Berlin  editor`), the cursor's line reversed.
    func lines(height: Int) -> [ScreenLine] {
        var lines = [ScreenLine(" Leagues (your role in each; * the one shown)", .bold)]
        switch content {
        case .loading:
            lines.append(ScreenLine("  loading the leagues…", .dim))
        case .failed(let message):
            lines.append(ScreenLine("  cannot list the leagues: \(TerminalText.escape(message))"))
            lines.append(ScreenLine("  esc closes", .dim))
        case .loaded(let leagues) where leagues.isEmpty:
            lines.append(ScreenLine("  your token may see no league", .dim))
        case .loaded(let leagues):
            let rows = leagues.map { league in
                [
                    league.id == current ? "*" : " ", league.id.rawValue, TerminalText.escape(league.name),
                    league.role.rawValue,
                ]
            }
            let table = TextTable(header: [" ", "ID", "NAME", "ROLE"], rows: rows).lines
            lines.append(ScreenLine("  " + table[0], .dim))
            let visible = max(height - 2, 1)
            let first = min(max(cursor - visible + 1, 0), max(leagues.count - visible, 0))
            for index in first..<min(first + visible, leagues.count) {
                lines.append(ScreenLine("  " + table[index + 1], index == cursor ? .selected : .plain))
            }
        }
        return lines
    }
}
