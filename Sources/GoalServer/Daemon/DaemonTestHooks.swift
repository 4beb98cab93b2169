/// Seams for tests that need to widen a race window. Production code passes `.none`.
///
/// Value type, `Sendable`.
public struct DaemonTestHooks: Sendable {
    /// Sleep this long on the thread pool before each backlog page is read, so commits land between a session's
    /// registration and its backlog read.
    public var backlogReadDelay: Duration?
    /// Pause exactly this long after every fan-out slice (instead of as long as the slice took, at most
    /// `limits.fanoutCoalesceMilliseconds`), so a test can commit while a round is between slices.
    public var fanoutPause: Duration?

    public init(backlogReadDelay: Duration? = nil, fanoutPause: Duration? = nil) {
        self.backlogReadDelay = backlogReadDelay
        self.fanoutPause = fanoutPause
    }

    /// No hooks.
    public static let none = DaemonTestHooks()
}
