/// Seams for tests that must stop the daemon at an exact point; production code passes none. Each is a gate the
/// test opens, never a sleep (store calls are held with GoalTestSupport's `GatedStorage`).
///
/// Value type, `Sendable`.
@_spi(Testing)
public struct DaemonTestHooks: Sendable {
    /// Holds every fan-out slice that follows a slice until the test releases it (`FanoutGate`).
    public var fanoutGate: FanoutGate?

    public init(fanoutGate: FanoutGate? = nil) {
        self.fanoutGate = fanoutGate
    }

    /// No hooks.
    public static let none = DaemonTestHooks()
}
