/// One member of a league's presence: one open session, on one node.
///
/// `id` is unique across nodes (`<node>/<session>`); `since` is when the member's current activity began, by the
/// clock of the node that holds the session. Value type, `Sendable`.
public struct PresenceMember: Hashable, Sendable, Identifiable {
    /// The member's id, unique across the league's nodes while the session lives.
    public var id: String
    /// The name of the session's token (the author name changesets carry).
    public var name: String
    /// The session's client instance.
    public var clientInstance: ClientInstanceID
    /// The goald node that holds the session.
    public var node: String
    /// What the member announced last.
    public var activity: PresenceActivity
    /// When `activity` began (or the session joined).
    public var since: Timestamp

    public init(
        id: String,
        name: String,
        clientInstance: ClientInstanceID,
        node: String,
        activity: PresenceActivity,
        since: Timestamp
    ) {
        self.id = id
        self.name = name
        self.clientInstance = clientInstance
        self.node = node
        self.activity = activity
        self.since = since
    }
}
