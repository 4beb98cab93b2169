import Foundation

/// A stable 64-bit fingerprint of a mutation's payload (`base` and `action`), kept with each result in the
/// exactly-once table so that a reused mutation id with a different payload is detected (`id_reused`).
///
/// Deterministic across processes and platforms (FNV-1a over a canonical byte encoding, never `Hasher`), so
/// the store can persist it and compare it after a restart. Value type, `Sendable`.
public struct PayloadFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The 64-bit value, as the store persists it.
    public let rawValue: UInt64

    /// Wraps a persisted value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The fingerprint of a mutation's payload. The id itself is not part of it: two payloads under one id
    /// are what it tells apart.
    public init(_ mutation: Mutation) {
        var hasher = FNV1a()
        hasher.combine(mutation.base)
        hasher.combine(mutation.action)
        rawValue = hasher.value
    }

    /// 16 lowercase hex digits.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// FNV-1a, 64 bits, over a canonical, length-prefixed encoding.
private struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func byte(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    mutating func combine(_ integer: UInt64) {
        var rest = integer
        for _ in 0..<8 {
            byte(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    mutating func combine(_ integer: Int) { combine(UInt64(bitPattern: Int64(integer))) }

    mutating func combine(_ text: String) {
        combine(text.utf8.count)
        for unit in text.utf8 { byte(unit) }
    }

    mutating func combine(_ id: PlayerID) { combine(uuid: id.uuid.uuid) }

    mutating func combine(_ id: MatchID) { combine(uuid: id.uuid.uuid) }

    mutating func combine(uuid u: uuid_t) {
        for b in [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15] { byte(b) }
    }

    mutating func combine(_ ids: [PlayerID]) {
        combine(ids.count)
        for id in ids { combine(id) }
    }

    /// An optional field: a presence byte, then the value.
    mutating func combine(optional ids: [PlayerID]?) {
        guard let ids else { return byte(0) }
        byte(1)
        combine(ids)
    }

    mutating func combine(optional goals: Int?) {
        guard let goals else { return byte(0) }
        byte(1)
        combine(goals)
    }

    mutating func combine(_ action: MutationAction) {
        switch action {
        case .createPlayer(let id, let name):
            byte(1)
            combine(id)
            combine(name)
        case .renamePlayer(let id, let name):
            byte(2)
            combine(id)
            combine(name)
        case .deletePlayer(let id):
            byte(3)
            combine(id)
        case .createMatch(let id, let home, let away, let homeGoals, let awayGoals):
            byte(4)
            combine(id)
            combine(home)
            combine(away)
            combine(homeGoals)
            combine(awayGoals)
        case .updateMatch(let id, let update):
            byte(5)
            combine(id)
            combine(optional: update.homePlayers)
            combine(optional: update.awayPlayers)
            combine(optional: update.homeGoals)
            combine(optional: update.awayGoals)
        case .adjustGoals(let id, let side, let delta):
            byte(6)
            combine(id)
            byte(side == .home ? 0 : 1)
            combine(delta)
        case .deleteMatch(let id):
            byte(7)
            combine(id)
        }
    }
}
