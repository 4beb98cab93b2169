/// Keeps every flush of a session within a quarter of a TLS record (see `SessionHandler+TLSSizedWrites`): decides
/// when to flush before a write and how to cut a larger write into flushed pieces.
///
/// Value type, no I/O: the session's event loop owns it and performs what `write` asks for.
struct TLSFlushBudget {
    /// The most bytes the TLS layer gets to encrypt between two flushes, which is the size its per-connection
    /// buffer keeps: 4 KiB less a margin for the small frames written around the session (pongs, a close). A live
    /// visit is rarely larger; a snapshot or backlog page goes out in more, smaller flushes. Against a whole record
    /// (16 KiB) at 1,000 subscribers under `fanout`: RSS 81.5 → 74.4 MiB, the same CPU per delivery; idle after a
    /// snapshot 37.0 → 28.7 KiB per session; catching up 100,000 changesets 0.24–0.33 → 0.32–0.37 s
    /// (docs/BENCHMARKS.md).
    static let maxBytesPerFlush = 4 * 1024 - 512

    /// What one write adds to the encrypted bytes beyond its own: it becomes at least one TLS 1.3 record (a 5-byte
    /// header, a 1-byte content type, a 16-byte tag), rounded up.
    static let bytesPerRecord = 32

    /// The largest piece one write may hand over.
    static let largestPiece = maxBytesPerFlush - bytesPerRecord

    /// What was written since the last flush, overhead included.
    private(set) var unflushed = 0

    /// Writes `length` bytes: flushes first when they would take the unflushed bytes past `maxBytesPerFlush`, and
    /// cuts them into pieces of `largestPiece` bytes, each followed by a flush, when they are more than that. The
    /// last piece (possibly empty when `length` is 0) is written and left unflushed.
    /// - Parameters:
    ///   - writePiece: Writes the next `count` bytes; `last` is true for the final piece.
    ///   - flush: Flushes what was written.
    mutating func write(_ length: Int, writePiece: (_ count: Int, _ last: Bool) -> Void, flush: () -> Void) {
        var left = length
        if unflushed > 0, unflushed + left + Self.bytesPerRecord > Self.maxBytesPerFlush {
            flush()
            unflushed = 0
        }
        while left > Self.largestPiece {
            writePiece(Self.largestPiece, false)
            flush()
            unflushed = 0
            left -= Self.largestPiece
        }
        writePiece(left, true)
        unflushed += left + Self.bytesPerRecord
    }

    /// Records a flush made elsewhere.
    mutating func flushed() {
        unflushed = 0
    }
}
