package import GoalModel
package import GoalStore

/// What the composition root (`DaemonComposition`) builds a daemon from besides its configuration and store: the
/// clock, the presence bus, how the fan-out paces its slices, whether the node follows other nodes' commits, and
/// who is handed the exactly-once sweep. `DaemonParts(storage:)` is what production runs; the public initializers
/// of `GoalDaemon` use it and take no parts. A test substitutes some through GoalTestSupport's `DaemonSeams`.
///
/// Value type, `Sendable`.
package struct DaemonParts: Sendable {
    /// The engine's clock (changeset times, exactly-once records' `lastUsed`). Production: the wall clock.
    package var clock: @Sendable () -> Timestamp
    /// The bus presence travels on between nodes. Production: the store's, when it is one (PostgreSQL).
    package var presenceBus: (any PresenceBus)?
    /// Holds each fan-out slice that follows a slice until it lets it through. Production: none (a timed pause).
    package var sliceGate: (any FanoutSliceGate)?
    /// On a shared store, whether the node listens for other nodes' commits and polls the store's head.
    /// Production: true; false makes a node that lags on purpose.
    package var followsOtherNodes: Bool
    /// Handed the engine's exactly-once sweep once the engine exists (a test runs it when it wants). Production:
    /// nobody; `Maintenance` sweeps every interval.
    package var receiveClientRecordSweeper: @Sendable (any ClientRecordSweeper) -> Void

    /// The production parts for a daemon over `storage`.
    package init(storage: any LeagueStorage) {
        self.clock = { .now() }
        self.presenceBus = storage as? any PresenceBus
        self.sliceGate = nil
        self.followsOtherNodes = true
        self.receiveClientRecordSweeper = { _ in }
    }
}

/// Forgets the exactly-once records idle past the policy's age (the engine; `Maintenance` asks every interval).
///
/// Threading: `Sendable`; callable from any task.
package protocol ClientRecordSweeper: Sendable {
    /// Forgets the records idle for the policy's age; the store deletes them with the engine's next batch.
    /// - Returns: How many were forgotten.
    func forgetIdleClientRecords() async -> Int
}

extension Engine: ClientRecordSweeper {}
