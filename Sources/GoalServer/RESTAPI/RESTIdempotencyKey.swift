import Crypto
import Foundation
import GoalModel

/// Maps an `Idempotency-Key` header onto the exactly-once table (docs/PROTOCOL.md §6, docs/HTTP.md).
///
/// The key and the caller's name (token name, or the anonymous author) hash (SHA-256) to a client instance
/// `idem-<40 hex>` whose only mutation is seq 1, and to the id of the entity a create makes. A retry with the same
/// key and body therefore sends the same mutation: the engine answers it from its durable table (also after a
/// restart) and never applies it twice. The same key with another body is `id_reused` (422). One record per key:
/// records are forgotten after `clientRecords.maximumAgeSeconds` and count against `clientRecords.maximumCount`.
/// Value type; pure.
struct RESTIdempotencyKey: Equatable {
    /// The longest key accepted (in UTF-8 bytes); longer is 400.
    static let maximumLength = 200

    let instance: ClientInstanceID
    /// A stable UUID for the entity a create with this key makes.
    let entityUUID: UUID

    /// Nil when the key is empty, too long or not printable ASCII (the caller answers 400).
    init?(_ key: String, author: String) {
        guard !key.isEmpty, key.utf8.count <= Self.maximumLength,
            key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        let digest = Array(SHA256.hash(data: Array((author + "\u{0}" + key).utf8)))
        let hex = digest.prefix(20).map { String($0, radix: 16).leftPadded() }.joined()
        instance = ClientInstanceID("idem-" + hex)!
        var bytes = Array(digest[16..<32])
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4 layout, so it reads as an ordinary random UUID
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        entityUUID = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}

extension String {
    /// Two hex digits for a byte.
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
