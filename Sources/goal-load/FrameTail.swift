/// Reads `client_instance` and `seq` from the END of a changeset frame without decoding it.
///
/// ChangesetFrame writes them last: `…,"client_instance":"X","seq":N}`. A frame without them (a change no client
/// asked for) or in another layout gives nil. Stateless; pure.
enum FrameTail {
    private static let seqKey = Array(#","seq":"#.utf8)
    private static let instanceKey = Array(#""client_instance":""#.utf8)

    /// Calls `body` with the instance bytes and the seq when the frame ends with them.
    static func read<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, UInt64) -> T?) -> T? {
        var index = bytes.count - 1
        guard index > 0, bytes[index] == UInt8(ascii: "}") else { return nil }
        // The seq's digits, right to left.
        var seq: UInt64 = 0
        var scale: UInt64 = 1
        index -= 1
        let digitsEnd = index
        while index >= 0, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            seq += UInt64(bytes[index] - UInt8(ascii: "0")) * scale
            scale &*= 10
            index -= 1
        }
        guard index < digitsEnd, digitsEnd - index <= 19, matches(seqKey, endingAt: index, in: bytes) else {
            return nil
        }
        index -= seqKey.count
        // The instance string: plain text (instance ids of load writers need no escapes).
        guard index >= 0, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let instanceEnd = index
        index -= 1
        while index >= 0, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") { return nil }
            index -= 1
        }
        let instanceStart = index + 1
        guard matches(instanceKey, endingAt: index, in: bytes) else { return nil }
        return body(UnsafeBufferPointer(rebasing: bytes[instanceStart..<instanceEnd]), seq)
    }

    /// True when `key` occupies the bytes ending at `end` (inclusive).
    private static func matches(_ key: [UInt8], endingAt end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = end - key.count + 1
        guard start >= 0 else { return false }
        for offset in 0..<key.count where bytes[start + offset] != key[offset] { return false }
        return true
    }
}
