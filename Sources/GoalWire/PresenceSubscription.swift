/// What a session wants of the league's presence, from `hello.presence` (docs/PROTOCOL.md §4 "Presence").
///
/// Every open session is a member of the presence list unless it says `observe`; only sessions that say `all` or
/// `observe` are sent `presence_state` and `presence` messages (a client that does not know them never gets them).
/// Value type, `Sendable`.
public enum PresenceSubscription: String, Hashable, Sendable, CaseIterable {
    /// Listed as a member; sent no presence messages (the default when `hello` has no `presence`: older clients).
    case none
    /// Listed as a member and sent the list and its changes.
    case all
    /// Sent the list and its changes without being listed (scripts such as `goal-client who`).
    case observe

    /// True when the session is sent presence messages.
    public var receives: Bool { self != .none }
    /// True when the session is listed as a member.
    public var isListed: Bool { self != .observe }
}
