public import GoalModel

/// The warning an edit form shows while other people have the same match open in their edit forms: "Bob is
/// editing this match", "Bob and Carol are editing this match", "Bob, Carol and 2 others are editing this match".
/// Pure; `Sendable`.
public enum EditingWarning {
    /// The warning for `match`, or nil when nobody else edits it.
    /// - Parameters:
    ///   - members: Who is present.
    ///   - match: The match of the form.
    ///   - instance: This client's instance (its own session never warns it).
    public static func text(_ members: [PresenceMember], match: MatchID, except instance: ClientInstanceID) -> String? {
        var names: [String] = []
        for member in members.editing(match, except: instance) where !names.contains(member.name) {
            names.append(member.name)
        }
        names.sort()
        switch names.count {
        case 0: return nil
        case 1: return "\(names[0]) is editing this match"
        case 2: return "\(names[0]) and \(names[1]) are editing this match"
        case 3: return "\(names[0]), \(names[1]) and \(names[2]) are editing this match"
        default: return "\(names[0]), \(names[1]) and \(names.count - 2) others are editing this match"
        }
    }
}
