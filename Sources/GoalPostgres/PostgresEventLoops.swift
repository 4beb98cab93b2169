import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// What a home store and the league stores it opened (`openLeague`) share: the one event-loop thread of all their
/// connections, and the one connection that LISTENs for all of them (`channels`). Each store holds a share; the last
/// share released stops the listening connection, then the thread, so a league store closed after its home store
/// still closes its connections on a running loop.
///
/// Threading: `Sendable`, lock-protected. Lifetime: from `init` (one share, the home store's) until the last
/// `release()`.
final class PostgresEventLoops: Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let shares = NIOLockedValueBox(1)
    /// Every league's LISTEN, on one connection for the node (`PostgresChannels`).
    let channels: PostgresChannels

    /// - Parameter configuration: The database the listening connection opens (on the first subscription).
    init(configuration: PostgresStoreConfiguration, logger: Logger) {
        channels = PostgresChannels(configuration: configuration, eventLoop: group.next(), logger: logger)
    }

    /// The loop.
    var next: any EventLoop { group.next() }

    /// One more share (a league store opened).
    func retain() {
        shares.withLockedValue { $0 += 1 }
    }

    /// Gives a share back; the last one stops the listening connection and the thread.
    func release() async {
        let last = shares.withLockedValue { shares -> Bool in
            shares -= 1
            return shares == 0
        }
        guard last else { return }
        await channels.stop()
        // Already shut down: nothing left to release.
        try? await group.shutdownGracefully()  // see above
    }
}
