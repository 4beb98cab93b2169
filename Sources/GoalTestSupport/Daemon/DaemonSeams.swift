public import GoalModel
package import GoalServer
public import GoalStore
import NIOConcurrencyHelpers

/// The parts of a test daemon that differ from production's, each a gate the test opens or a value it sets, never a
/// sleep (store calls are held with `GatedStorage`). `TestDaemon.start(seams:)` turns them into the daemon's
/// `DaemonParts`; what a seam leaves nil or at its default is production's part.
///
/// Value type, `Sendable`.
public struct DaemonSeams: Sendable {
    /// Holds every fan-out slice that follows a slice until the test releases it.
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
        self.fanoutGate = fanoutGate
        self.clock = clock
        self.clientRecordSweep = clientRecordSweep
        self.followsOtherNodes = followsOtherNodes
        self.presenceBus = presenceBus
    }

    /// Production's parts.
    public static let none = DaemonSeams()

    /// The daemon's parts over `storage`: production's, with these seams in place.
    package func parts(for storage: any LeagueStorage) -> DaemonParts {
        var parts = DaemonParts(storage: storage)
        if let clock { parts.clock = clock }
        if let presenceBus { parts.presenceBus = presenceBus }
        parts.sliceGate = fanoutGate
        parts.followsOtherNodes = followsOtherNodes
        if let clientRecordSweep { parts.receiveClientRecordSweeper = { clientRecordSweep.attach($0) } }
        return parts
    }
}

/// A test's handle on the engine's exactly-once sweep: the daemon hands it its engine when it starts.
///
/// Threading: `Sendable`, lock-protected. Lifetime: the test's; it keeps the engine of the last daemon started.
public final class ClientRecordSweep: Sendable {
    private let sweeper = NIOLockedValueBox<(any ClientRecordSweeper)?>(nil)

    public init() {}

    func attach(_ sweeper: any ClientRecordSweeper) {
        self.sweeper.withLockedValue { $0 = sweeper }
    }

    /// Forgets the records idle for the policy's age, as `Maintenance` does; the store deletes them with the
    /// engine's next batch (which the next acknowledged mutation proves durable).
    /// - Returns: How many were forgotten; 0 when no daemon has started.
    public func run() async -> Int {
        guard let sweeper = sweeper.withLockedValue({ $0 }) else { return 0 }
        return await sweeper.forgetIdleClientRecords()
    }
}
