import GoalModel
import GoalStore
import GoalWire
import NIOConcurrencyHelpers
import NIOCore

/// One batch's changesets as the WebSocket frames of one optional `FrameVariant`, concatenated, with each frame's
/// end: built **once**, on first use, by whichever event loop asks first (a loop with a session that takes the
/// variant); every other loop gets the same bytes. The hub only attaches it (`Hub.publish` runs on the engine
/// queue, which must not spend a changeset's encoding or compression time deciding commits); a loop that asks
/// while another builds waits on the lock for that one batch.
///
/// Threading: `Sendable`, state behind a lock. Lifetime: the batch's.
final class VariantFrames: Sendable {
    typealias Built = (frames: ByteBuffer, ends: [Int])

    private enum State: Sendable {
        case pending(@Sendable () -> Built?)
        case done(Built?)
    }

    private let state: NIOLockedValueBox<State>

    init(_ build: @escaping @Sendable () -> Built?) {
        state = NIOLockedValueBox(.pending(build))
    }

    /// The frames; nil when they could not be built (zlib failed): the sessions then get the full plain frames.
    func frames() -> Built? {
        state.withLockedValue { state in
            switch state {
            case .done(let built):
                return built
            case .pending(let build):
                let built = build()
                state = .done(built)
                return built
            }
        }
    }
}

/// A batch's optional variants: nil where no live session took that variant when the batch was published (those
/// sessions, if any register later, get the full plain frames until their variant's window reaches back to them).
///
/// Value type, `Sendable`.
struct BatchVariants: Sendable {
    var fullDeflated: VariantFrames?
    var lean: VariantFrames?
    var leanDeflated: VariantFrames?

    static let none = BatchVariants()

    subscript(variant: FrameVariant) -> VariantFrames? {
        switch variant {
        case .full: nil
        case .fullDeflated: fullDeflated
        case .lean: lean
        case .leanDeflated: leanDeflated
        }
    }

    /// The variants some live session takes now, each to be built when a loop first needs it.
    static func attach(
        to commits: [LoggedCommit],
        demand: VariantDemand,
        compression: ChangesetCompression?,
        allocator: ByteBufferAllocator
    ) -> BatchVariants {
        guard !commits.isEmpty else { return .none }
        var variants = BatchVariants()
        let leanWanted = demand.isWanted(.lean)
        let leanDeflatedWanted = compression != nil && demand.isWanted(.leanDeflated)
        let lean = leanWanted || leanDeflatedWanted ? LeanPayloads(commits) : nil
        if let compression, demand.isWanted(.fullDeflated) {
            variants.fullDeflated = VariantFrames { compression.deflatedFrames(of: commits.map(\.frame)) }
        }
        if leanWanted, let lean {
            variants.lean = VariantFrames { ServerFrameEncoder.textFrames(lean.payloads(), allocator: allocator) }
        }
        if leanDeflatedWanted, let compression, let lean {
            variants.leanDeflated = VariantFrames { compression.deflatedFrames(of: lean.payloads()) }
        }
        return variants
    }
}

/// Each commit's lean payload: its `delta` frame (`DeltaFrame`), or its full frame when the changeset has no lean
/// form; computed once, shared by the plain and the compressed lean variants.
///
/// Threading: `Sendable`, state behind a lock. Lifetime: the batch's.
final class LeanPayloads: Sendable {
    private let state: NIOLockedValueBox<(commits: [LoggedCommit], payloads: [[UInt8]]?)>

    init(_ commits: [LoggedCommit]) {
        state = NIOLockedValueBox((commits, nil))
    }

    func payloads() -> [[UInt8]] {
        state.withLockedValue { state in
            if let payloads = state.payloads { return payloads }
            let payloads = state.commits.map { commit in
                ChangesetDelta(commit.changeset).map(DeltaFrame.encode) ?? commit.frame
            }
            state.payloads = payloads
            return payloads
        }
    }
}
