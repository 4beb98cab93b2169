public import GoalModel
public import GoalStore
import NIOConcurrencyHelpers

/// Seams for tests that must stop the daemon at an exact point; production code passes none. Each is a gate the
/// test opens, never a sleep (store calls are held with GoalTestSupport's `GatedStorage`).
///
/// Value type, `Sendable`.
@_spi(Testing)
public struct DaemonTestHooks: Sendable {
    /// Holds every fan-out slice that follows a slice until the test releases it (`FanoutGate`).
    public var fanoutGate: FanoutGate?
    /// The engine's clock (changeset times, exactly-once records' `lastUsed`); the wall clock when nil.
    public var clock: (@Sendable () -> Timestamp)?
    /// Runs the exactly-once table's sweep when the test asks, instead of waiting for `Maintenance`.
    public var clientRecordSweep: ClientRecordSweep?
    /// False: on a shared store the node neither listens for other nodes' commits nor polls the head, so it learns
    /// what they wrote only when a client or its own write needs it (a node that lags, on purpose).
    public var followsOtherNodes: Bool
    /// The bus presence travels on between nodes, instead of the store's (an `InProcessPresenceBus` node).
    public var presenceBus: (any PresenceBus)?

    public init(
        fanoutGate: FanoutGate? = nil,
        clock: (@Sendable () -> Timestamp)? = nil,
        clientRecordSweep: ClientRecordSweep? = nil,
        followsOtherNodes: Bool = true,
        presenceBus: (any PresenceBus)? = nil
    ) {
        self.presenceBus = presenceBus
        self.fanoutGate = fanoutGate
        self.clock = clock
        self.clientRecordSweep = clientRecordSweep
        self.followsOtherNodes = followsOtherNodes
    }

    /// No hooks.
    public static let none = DaemonTestHooks()
}

/// A test's handle on the engine's `forgetIdleClientRecords()`: the daemon attaches its engine when it starts.
///
/// Threading: `Sendable`, lock-protected. Lifetime: the test's; it keeps the engine of the last daemon started.
@_spi(Testing)
public final class ClientRecordSweep: Sendable {
    private let engine = NIOLockedValueBox<Engine?>(nil)

    public init() {}

    func attach(_ engine: Engine) {
        self.engine.withLockedValue { $0 = engine }
    }

    /// Forgets the records idle for the policy's age, as `Maintenance` does; the store deletes them with the
    /// engine's next batch (which the next acknowledged mutation proves durable).
    /// - Returns: How many were forgotten; 0 when no daemon has started.
    public func run() async -> Int {
        guard let engine = engine.withLockedValue({ $0 }) else { return 0 }
        return await engine.forgetIdleClientRecords()
    }
}
