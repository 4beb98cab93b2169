public import GoalClient
public import GoalModel
public import GoalReactive

/// The connection line of a UI: server, status, revision, round-trip time and pending mutations.
///
/// Outputs only (continuous state as `Property`s): `status`, `statusText`, `revisionText` ("r42"),
/// `roundTripText` ("23 ms", "–" when unknown), `pendingCount`; and `alertMessages` (a signal) once when the client
/// stops for a reason other than a request (a terminal close code, a TLS failure), with the reason.
///
/// Threading: `@MainActor`; the store must deliver on the main thread. Lifetime: owned by its view.
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

    private let token = Lifetime.Token()

    /// - Parameter store: The league.
    public init(store: any LeagueStore) {
        server = store.serverName
        status = store.status
        statusText = store.status.map(\.description)
        revisionText = store.replica.map { "r\($0.revision)" }
        roundTripText = store.status.map { status in
            guard case .live(let roundTrip?) = status else { return "–" }
            return "\(Int((roundTrip * 1000).rounded())) ms"
        }
        pendingCount = store.pendingMutations.map(\.count)
        let (alerts, alertInput) = Signal<String, Never>.pipe()
        alertMessages = alerts
        Lifetime(token) += store.status.signal.observeValues { status in
            guard case .stopped(let reason) = status, reason != .requested else { return }
            alertInput.send(value: "Disconnected from \(store.serverName): \(reason)")
        }
    }
}
