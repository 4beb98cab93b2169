import GoalReactive

extension PropertyProtocol {
    /// This property's value and changes while `lifetime` lasts: a composed property whose subscription to
    /// `self` ends — and whose streams complete, letting everything composed from it complete too — when
    /// `lifetime` ends.
    ///
    /// View models compose the store's long-lived properties (`replica`, `status`, …) only through this, with
    /// their own lifetime: a composed property subscribes to its source for as long as the source lives, so
    /// without it every dropped view model would leave its observers on the store for good.
    ///
    /// - Parameters:
    ///   - lifetime: The owner's lifetime (a view model's).
    /// - Returns: A composed property that stops following `self` when `lifetime` ends.
    func during(_ lifetime: Lifetime) -> Property<Value> {
        Property(initial: value, then: producer.take(during: lifetime))
    }
}
