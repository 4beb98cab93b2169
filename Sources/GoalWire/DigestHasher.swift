internal import Crypto
import GoalModel

/// Incremental SHA-256 producing a chain `Digest`; the only file that imports Crypto (whose `Digest` protocol
/// would otherwise shadow GoalModel's).
struct DigestHasher {
    private var sha = SHA256()

    /// Starts a link of the chain: the hash of `previous` ‖ what `update` adds.
    init(previous: GoalModel.Digest) {
        previous.bytes.withUnsafeBytes { sha.update(bufferPointer: $0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        sha.update(bufferPointer: bytes)
    }

    func finalize() -> GoalModel.Digest {
        let digest = sha.finalize()
        return digest.withUnsafeBytes { GoalModel.Digest(bytes: Array($0))! }
    }
}
