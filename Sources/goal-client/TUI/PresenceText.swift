import GoalModel

/// Presence as the terminal shows it: the status line's "3 online: ada, bob, cy" (each name once, cut to the
/// columns left, escaped), and whether someone else edits a match (its row's marker). Pure.
enum PresenceText {
    /// The row marker of a match someone else has open in an edit form.
    static let editingMarker = "✎"

    /// "N online: a, b, …" fitted to `columns` (nil when nobody is known to be present or nothing fits).
    static func online(_ members: [PresenceMember], columns: Int) -> String? {
        var names: [String] = []
        for member in members where !names.contains(member.name) { names.append(member.name) }
        guard !names.isEmpty, columns > 0 else { return nil }
        names.sort()
        let text = "\(names.count) online: " + names.map(TerminalText.escape).joined(separator: ", ")
        let fitted = TerminalText.fit(text, columns)
        return fitted.isEmpty ? nil : fitted
    }

    /// The matches someone other than `instance` is editing.
    static func editedByOthers(_ members: [PresenceMember], except instance: ClientInstanceID) -> Set<MatchID> {
        var matches = Set<MatchID>()
        for member in members where member.clientInstance != instance {
            if case .editing(let match) = member.activity { matches.insert(match) }
        }
        return matches
    }
}
