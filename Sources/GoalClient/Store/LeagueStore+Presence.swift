public import GoalModel
public import GoalReactive

/// Stores without presence (test fakes): nobody is present and announcements go nowhere.
extension LeagueStore {
    public var presence: Property<[PresenceMember]> { Property(value: []) }

    public func announce(_ activity: PresenceActivity) {}
}
