import GoalStore
import NIOConcurrencyHelpers
import NIOCore

/// One batch's changesets as permessage-deflate frames, compressed **once**, on first use, by whichever event loop
/// asks first (a loop with a session that takes compressed frames); every other loop gets the same bytes.
///
/// The hub only attaches it (`Hub.publish` runs on the engine queue, which must not spend a changeset's
/// compression time deciding commits); a loop that asks while another compresses waits on the lock for that one
/// batch. Threading: `Sendable`, state behind a lock. Lifetime: the batch's.
final class DeflatedFrames: Sendable {
    private enum State: Sendable {
        case pending([LoggedCommit], ChangesetCompression)
        case done((frames: ByteBuffer, ends: [Int])?)
    }

    private let state: NIOLockedValueBox<State>

    init(_ commits: [LoggedCommit], compression: ChangesetCompression) {
        state = NIOLockedValueBox(.pending(commits, compression))
    }

    /// The compressed frames, concatenated, with each frame's end; nil when zlib failed (plain frames then).
    func frames() -> (frames: ByteBuffer, ends: [Int])? {
        state.withLockedValue { state in
            switch state {
            case .done(let frames):
                return frames
            case .pending(let commits, let compression):
                let frames = compression.deflatedFrames(of: commits)
                state = .done(frames)
                return frames
            }
        }
    }
}
