import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// What a home store and the league stores it opened (`openLeague`) share: the one event-loop thread of all their
/// connections, the one connection that LISTENs for all of them (`channels`) and the one that writes their batches
/// together (`commits`). Each store holds a share; the last share released closes those two connections, then stops
/// the thread, so a league store closed after its home store still closes its connections on a running loop.
///
/// Threading: `Sendable`, lock-protected. Lifetime: from `init` (one share, the home store's) until the last
/// `release()`.
final class PostgresNodeShare: Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let shares = NIOLockedValueBox(1)
    /// Every league's LISTEN, on one connection for the node (`PostgresChannels`).
    let channels: PostgresChannels
    /// Every league's short write attempts, several leagues to a statement (`PostgresCommitGroup`).
    let commits: PostgresCommitGroup

    /// - Parameter configuration: The database the shared connections open (on first use).
    init(configuration: PostgresStoreConfiguration, logger: Logger) {
        channels = PostgresChannels(configuration: configuration, eventLoop: group.next(), logger: logger)
        commits = PostgresCommitGroup(configuration: configuration, eventLoop: group.next(), logger: logger)
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
        commits.close()
        await channels.stop()
        // Already shut down: nothing left to release.
        try? await group.shutdownGracefully()  // see above
    }
}
