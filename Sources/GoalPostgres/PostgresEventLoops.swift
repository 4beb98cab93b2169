import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The one event-loop thread a home store and the league stores it opened (`openLeague`) share for their
/// connections: each store holds a share, and the thread stops when the last share is released, so a league store
/// closed after its home store still closes its connections on a running loop.
///
/// Threading: `Sendable`, lock-protected. Lifetime: from `init` (one share, the home store's) until the last
/// `release()`.
final class PostgresEventLoops: Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let shares = NIOLockedValueBox(1)

    /// The loop.
    var next: any EventLoop { group.next() }

    /// One more share (a league store opened).
    func retain() {
        shares.withLockedValue { $0 += 1 }
    }

    /// Gives a share back; the last one stops the thread.
    func release() async {
        let last = shares.withLockedValue { shares -> Bool in
            shares -= 1
            return shares == 0
        }
        guard last else { return }
        // Already shut down: nothing left to release.
        try? await group.shutdownGracefully()  // see above
    }
}
