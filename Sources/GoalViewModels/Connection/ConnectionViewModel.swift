import Foundation
public import GoalClient
import GoalModel
public import GoalReactive

/// The connection line of a UI: server, status, revision, round-trip time and pending mutations.
///
/// Outputs (continuous state as `Property`s): `status`, `statusText` (the status's own description),
/// `summary` (the status line's words, with a reconnect countdown that ticks every second: "reconnecting in
/// 3 s (retry 2)"), `phase` (live / connecting / reconnecting / stopped, for a colour and its NO_COLOR-safe
/// `marker`), `isStale` (the data shown may be out of date: dim it), `revisionText` ("r42"), `roundTripText`
/// ("23 ms", "–" when unknown), `pendingCount`; and `alertMessages` (a signal) once when the client stops for a
/// reason other than a request (a terminal close code, a TLS failure), with the reason. Input: `reconnectNow()`
/// skips a reconnect wait, or starts a stopped client again.
///
/// Threading: `@MainActor`; the store must deliver on the main thread, and `clock` must run its actions on the
/// main thread (`QueueScheduler.main`, or a `TestScheduler` advanced on the main actor). Lifetime: owned by its
/// view; its observations of the store and the countdown timer end with `lifetime` (the derived texts then keep
/// their last value).
@MainActor
public final class ConnectionViewModel {
    /// The server as people should see it.
    public let server: String
    public let status: Property<ConnectionStatus>
    public let statusText: Property<String>
    /// The status line's words, the countdown ticking while reconnecting.
    public let summary: Property<String>
    public let phase: Property<ConnectionPhase>
    /// "[LIVE]", "[RECONNECTING]", …: the phase without colour.
    public let marker: Property<String>
    /// True while not live: what is shown may be out of date.
    public let isStale: Property<Bool>
    public let revisionText: Property<String>
    public let roundTripText: Property<String>
    public let pendingCount: Property<Int>
    public let alertMessages: Signal<String, Never>
    /// Ends when the view model is released.
    public let lifetime: Lifetime

    private let token: Lifetime.Token
    private let clock: any DateScheduler
    private let reconnect: @MainActor () -> Void
    private let summaryStorage: MutableProperty<String>
    private let ticker = SerialDisposable()

    /// - Parameters:
    ///   - store: The league.
    ///   - clock: The countdown's clock and timer (`QueueScheduler.main` in an app).
    ///   - reconnect: What `reconnectNow()` does; by default a store refresh, which skips a reconnect wait (an
    ///     app passes its client's `reconnectNow`, which also restarts a stopped client).
    public init(
        store: any LeagueStore,
        clock: any DateScheduler = QueueScheduler.main,
        reconnect: (@MainActor () -> Void)? = nil
    ) {
        let (lifetime, token) = Lifetime.make()
        self.lifetime = lifetime
        self.token = token
        self.clock = clock
        self.reconnect = reconnect ?? { _ = store.refresh().start() }
        server = store.serverName
        let status = store.status.during(lifetime)
        self.status = status
        statusText = status.map(\.description)
        phase = status.map(ConnectionPhase.init)
        marker = phase.map(\.marker)
        isStale = phase.map(\.isStale)
        summaryStorage = MutableProperty(ConnectionSummary.text(status.value, remaining: 0))
        summary = Property(capturing: summaryStorage)
        revisionText = store.replica.during(lifetime).map { "r\($0.revision)" }
        roundTripText = status.map { status in
            guard case .live(let roundTrip?) = status else { return "–" }
            return "\(Int((roundTrip * 1000).rounded())) ms"
        }
        pendingCount = store.pendingMutations.during(lifetime).map(\.count)
        let (alerts, alertInput) = Signal<String, Never>.pipe()
        alertMessages = alerts
        lifetime += ticker
        lifetime += store.status.signal.observeValues { status in
            guard case .stopped(let reason) = status, reason != .requested else { return }
            alertInput.send(value: "Disconnected from \(store.serverName): \(reason)")
        }
        lifetime += status.producer.startWithValues { [weak self] status in self?.statusChanged(status) }
    }

    /// Reconnects at once: skips the wait before the next retry, or starts a stopped client again.
    public func reconnectNow() {
        reconnect()
    }

    private func statusChanged(_ status: ConnectionStatus) {
        ticker.inner = nil
        guard case .reconnecting(_, let delay) = status else {
            setSummary(ConnectionSummary.text(status, remaining: 0))
            return
        }
        tick(status, deadline: clock.currentDate.addingTimeInterval(delay))
    }

    private func setSummary(_ text: String) {
        if summaryStorage.value != text { summaryStorage.value = text }
    }

    /// Shows the seconds left and arms a timer for the moment the whole number of seconds drops.
    private func tick(_ status: ConnectionStatus, deadline: Date) {
        let remaining = deadline.timeIntervalSince(clock.currentDate)
        setSummary(ConnectionSummary.text(status, remaining: remaining))
        guard remaining > 0 else { return }
        let next = deadline.addingTimeInterval(-Double(ConnectionSummary.seconds(remaining) - 1))
        ticker.inner = clock.schedule(after: next) { [weak self] in
            MainActor.assumeIsolated { self?.tick(status, deadline: deadline) }
        }
    }
}
