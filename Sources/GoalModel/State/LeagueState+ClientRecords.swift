import HashTreeCollections

extension LeagueState {
    /// How many client instances have a record (O(1)).
    public var clientRecordCount: Int { clientRecords.count }

    /// Stamps the record of `instance`, if it has one, as used at `time` (the server's clock when it recorded a
    /// result). `ConflictEngine` has no clock: the server calls this after each recorded result.
    public mutating func markClientRecordUsed(_ instance: ClientInstanceID, at time: Timestamp) {
        clientRecords[instance]?.markUsed(at: time)
    }

    /// Forgets every record last used before `cutoff`, so its instance is unknown from now on.
    ///
    /// O(number of records): the server calls it from its periodic maintenance, not per mutation.
    /// - Returns: The instances forgotten.
    public mutating func forgetClientRecords(usedBefore cutoff: Timestamp) -> [ClientInstanceID] {
        let idle = clientRecords.values.filter { $0.lastUsed < cutoff }.map(\.instance)
        for instance in idle { clientRecords[instance] = nil }
        return idle
    }

    /// Forgets one instance's record (another writer of a shared store forgot it in the same batch).
    public mutating func forgetClientRecord(_ instance: ClientInstanceID) {
        clientRecords[instance] = nil
    }
}
