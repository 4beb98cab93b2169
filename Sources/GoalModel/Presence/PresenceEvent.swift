/// One change of a league's presence: a member joined, changed its activity, or left.
///
/// `leave` carries the member as it was last known. Value type, `Sendable`.
public struct PresenceEvent: Hashable, Sendable {
    /// What happened to the member.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case join
        case update
        case leave
    }

    public var kind: Kind
    public var member: PresenceMember

    public init(_ kind: Kind, _ member: PresenceMember) {
        self.kind = kind
        self.member = member
    }
}

extension Array where Element == PresenceMember {
    /// Applies one event: a join or update replaces (or adds) the member with its id, a leave removes it. The
    /// order is kept: a new member goes last.
    public mutating func apply(_ event: PresenceEvent) {
        let index = firstIndex { $0.id == event.member.id }
        switch (event.kind, index) {
        case (.leave, let index?):
            remove(at: index)
        case (.leave, nil):
            break
        case (_, let index?):
            self[index] = event.member
        case (_, nil):
            append(event.member)
        }
    }

    /// The members other than `instance` (this client's own session) that edit `match`.
    public func editing(_ match: MatchID, except instance: ClientInstanceID?) -> [PresenceMember] {
        filter { $0.activity == .editing(match) && $0.clientInstance != instance }
    }
}
