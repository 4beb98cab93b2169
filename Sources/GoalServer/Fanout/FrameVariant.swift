import GoalWire
import Synchronization

/// Which bytes a `stream: all` session takes for its live changesets: the full `changeset` frames or the lean
/// `delta` frames (protocol 2), each plain or compressed with permessage-deflate. Every variant of a changeset is
/// built once for every session that takes it; `full` always exists, the others only while a session wants them.
///
/// Value type, `Sendable`.
enum FrameVariant: Int, CaseIterable, Sendable {
    case full
    case fullDeflated
    case lean
    case leanDeflated

    init(lean: Bool, compressed: Bool) {
        switch (lean, compressed) {
        case (false, false): self = .full
        case (false, true): self = .fullDeflated
        case (true, false): self = .lean
        case (true, true): self = .leanDeflated
        }
    }

    /// What a session takes: `stream: all` sessions of protocol 2 or later take lean frames, those that negotiated
    /// permessage-deflate compressed ones; `stream: acks` sessions get no changesets (`full`, never written).
    init(for identity: SessionIdentity, negotiatedDeflate: Bool) {
        guard identity.stream == .all else {
            self = .full
            return
        }
        self.init(
            lean: identity.protocolVersion >= WireProtocol.leanChangesetsVersion,
            compressed: negotiatedDeflate
        )
    }

    /// The variants built on demand (every one but `full`).
    static let optional: [FrameVariant] = [.fullDeflated, .lean, .leanDeflated]
}

/// How many live sessions, over every loop, take each optional variant: the hub builds a batch's frames of a
/// variant only while some session takes it, so a daemon whose clients take only full plain frames pays nothing.
///
/// Threading: `Sendable`; atomic counters, changed on the loops as sessions register and leave, read by the hub.
/// Lifetime: the daemon's.
final class VariantDemand: Sendable {
    private let fullDeflated = Atomic<Int>(0)
    private let lean = Atomic<Int>(0)
    private let leanDeflated = Atomic<Int>(0)

    init() {}

    /// A session that takes `variant` registered (`true`) or left (`false`).
    func change(_ variant: FrameVariant, added: Bool) {
        let delta = added ? 1 : -1
        switch variant {
        case .full: break
        case .fullDeflated: fullDeflated.add(delta, ordering: .relaxed)
        case .lean: lean.add(delta, ordering: .relaxed)
        case .leanDeflated: leanDeflated.add(delta, ordering: .relaxed)
        }
    }

    /// True while some live session takes `variant` (always for `full`).
    func isWanted(_ variant: FrameVariant) -> Bool {
        switch variant {
        case .full: true
        case .fullDeflated: fullDeflated.load(ordering: .relaxed) > 0
        case .lean: lean.load(ordering: .relaxed) > 0
        case .leanDeflated: leanDeflated.load(ordering: .relaxed) > 0
        }
    }
}
