import CoreMetrics
import GoalModel
import GoalWire
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Builds snapshot frames from a durable view off the engine queue and the event loops, caches the newest per
/// revision, and builds at most `maxConcurrentBuilds` at once (further requests wait their turn; requests for a
/// revision already being built share that build).
///
/// Threading: any thread; one lock guards the cache and the waiting lists (`Sendable`). Builds run on the
/// thread pool; futures complete on the requester's event loop. Lifetime: the daemon's.
final class SnapshotCache: Sendable {
    /// One built snapshot: its revision and its frames (`snapshot_begin`, chunks, `snapshot_end`), WebSocket-framed.
    struct Frames: Sendable {
        let revision: Revision
        let frames: [ByteBuffer]
    }

    private struct Pending {
        let view: DurableView
        let epoch: LeagueEpoch
    }

    private struct State {
        var cached: [Frames] = []
        var building: [Revision: [EventLoopPromise<Frames>]] = [:]
        var queued: [(Pending, EventLoopPromise<Frames>)] = []
    }

    private let threadPool: NIOThreadPool
    private let metrics: ServerMetrics
    private let maxConcurrentBuilds: Int
    private let keep = 2
    private let state = NIOLockedValueBox(State())

    init(threadPool: NIOThreadPool, metrics: ServerMetrics, maxConcurrentBuilds: Int) {
        self.threadPool = threadPool
        self.metrics = metrics
        self.maxConcurrentBuilds = max(1, maxConcurrentBuilds)
    }

    /// The frames of a snapshot at `view.revision`.
    func frames(of view: DurableView, epoch: LeagueEpoch, on eventLoop: any EventLoop) -> EventLoopFuture<Frames> {
        let promise = eventLoop.makePromise(of: Frames.self)
        enum Next {
            case hit(Frames)
            case wait
            case build(Pending)
        }
        let next: Next = state.withLockedValue { state in
            if let hit = state.cached.first(where: { $0.revision == view.revision }) { return .hit(hit) }
            if state.building[view.revision] != nil {
                state.building[view.revision]!.append(promise)
                return .wait
            }
            if state.building.count >= maxConcurrentBuilds {
                state.queued.append((Pending(view: view, epoch: epoch), promise))
                return .wait
            }
            state.building[view.revision] = [promise]
            return .build(Pending(view: view, epoch: epoch))
        }
        switch next {
        case .hit(let frames): promise.succeed(frames)
        case .wait: break
        case .build(let pending): build(pending)
        }
        return promise.futureResult
    }

    private func build(_ pending: Pending) {
        metrics.snapshotBuilds.increment()
        threadPool.submit { _ in
            let frames = Self.makeFrames(pending.view, epoch: pending.epoch)
            self.finish(frames)
        }
    }

    private func finish(_ frames: Frames) {
        let (waiting, served, next): ([EventLoopPromise<Frames>], [(EventLoopPromise<Frames>, Frames)], Pending?) =
            state.withLockedValue { state in
                let waiting = state.building.removeValue(forKey: frames.revision) ?? []
                state.cached.append(frames)
                if state.cached.count > keep { state.cached.removeFirst(state.cached.count - keep) }
                // Serve queued requests for a cached revision, join running builds, start at most one new build.
                var served: [(EventLoopPromise<Frames>, Frames)] = []
                var next: Pending?
                var stillQueued: [(Pending, EventLoopPromise<Frames>)] = []
                for (request, promise) in state.queued {
                    if let hit = state.cached.first(where: { $0.revision == request.view.revision }) {
                        served.append((promise, hit))
                    } else if state.building[request.view.revision] != nil {
                        state.building[request.view.revision]!.append(promise)
                    } else if next == nil && state.building.count < maxConcurrentBuilds {
                        state.building[request.view.revision] = [promise]
                        next = request
                    } else {
                        stillQueued.append((request, promise))
                    }
                }
                state.queued = stillQueued
                return (waiting, served, next)
            }
        for (promise, hit) in served { promise.succeed(hit) }
        for promise in waiting { promise.succeed(frames) }
        if let next { build(next) }
    }

    /// Chunks the league at the view's revision into WebSocket text frames.
    static func makeFrames(_ view: DurableView, epoch: LeagueEpoch) -> Frames {
        let state = view.state
        let snapshot = Snapshot(
            revision: view.revision,
            epoch: epoch,
            digest: view.digest,
            players: state.playersByName(),
            matches: state.matchesNewestFirst(),
            ratings: Array(state.allRatings)
        )
        let allocator = ByteBufferAllocator()
        let frames = SnapshotChunker.frames(of: snapshot).map { ServerFrameEncoder.textFrame($0, allocator: allocator) }
        return Frames(revision: view.revision, frames: frames)
    }
}
