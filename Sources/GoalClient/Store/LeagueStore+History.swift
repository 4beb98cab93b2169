public import GoalReactive
public import GoalWire

/// Stores without a server's log (test fakes): every history request fails as if the server offered none.
extension LeagueStore {
    public func history(_ request: HistoryRequest) -> SignalProducer<HistoryPageMessage, HistoryError> {
        SignalProducer(error: HistoryError(.unsupported, "this store keeps no history"))
    }
}
