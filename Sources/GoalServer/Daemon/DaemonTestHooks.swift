/// Seams for tests that need to widen a race window. Production code passes `.none`.
///
/// Value type, `Sendable`.
public struct DaemonTestHooks: Sendable {
    /// Sleep this long on the thread pool before each backlog page is read, so commits land between a session's
    /// registration and its backlog read.
    public var backlogReadDelay: Duration?

    public init(backlogReadDelay: Duration? = nil) {
        self.backlogReadDelay = backlogReadDelay
    }

    /// No hooks.
    public static let none = DaemonTestHooks()
}
