public import GoalClient
public import GoalModel
public import GoalReactive

/// The connection line of a UI: server, status, revision, round-trip time and pending mutations.
///
/// Outputs only (continuous state as `Property`s): `status`, `statusText`, `revisionText` ("r42"),
/// `roundTripText` ("23 ms", "–" when unknown), `pendingCount`; and `alertMessages` (a signal) once when the client
/// stops for a reason other than a request (a terminal close code, a TLS failure), with the reason.
///
/// Threading: `@MainActor`; the store must deliver on the main thread. Lifetime: owned by its view; its
/// observations of the store end with `lifetime` (the derived texts then keep their last value).
@MainActor
public final class ConnectionViewModel {
    /// The server as people should see it.
    public let server: String
    public let status: Property<ConnectionStatus>
    public let statusText: Property<String>
    public let revisionText: Property<String>
    public let roundTripText: Property<String>
    public let pendingCount: Property<Int>
    public let alertMessages: Signal<String, Never>
    /// Ends when the view model is released.
    public let lifetime: Lifetime

    private let token: Lifetime.Token

    /// - Parameter store: The league.
    public init(store: any LeagueStore) {
        let (lifetime, token) = Lifetime.make()
        self.lifetime = lifetime
        self.token = token
        server = store.serverName
        let status = store.status.during(lifetime)
        self.status = status
        statusText = status.map(\.description)
        revisionText = store.replica.during(lifetime).map { "r\($0.revision)" }
        roundTripText = status.map { status in
            guard case .live(let roundTrip?) = status else { return "–" }
            return "\(Int((roundTrip * 1000).rounded())) ms"
        }
        pendingCount = store.pendingMutations.during(lifetime).map(\.count)
        let (alerts, alertInput) = Signal<String, Never>.pipe()
        alertMessages = alerts
        lifetime += store.status.signal.observeValues { status in
            guard case .stopped(let reason) = status, reason != .requested else { return }
            alertInput.send(value: "Disconnected from \(store.serverName): \(reason)")
        }
    }
}
