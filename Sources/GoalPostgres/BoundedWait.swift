import GoalLocking

/// Waiting for work that may not end promptly (a query or a close on a connection that cannot finish, a task that is
/// still connecting) without ever waiting unbounded. Stateless.
enum BoundedWait {
    /// Runs `operation` and returns when it ends or after `limit`, whichever comes first; past the limit it goes on
    /// in the background. (Awaiting a task or a future cannot be cancelled, so a task group would wait for it.)
    static func wait(atMost limit: Duration, _ operation: @escaping @Sendable () async -> Void) async {
        let ended = AsyncLatch<Void>()  // opened by whichever comes first
        Task {
            await operation()
            ended.open()
        }
        Task {
            try? await Task.sleep(for: limit)  // never cancelled: it only bounds the wait
            ended.open()
        }
        await ended.wait()
    }
}
