/// Keeps every flush of a session within a budget (see `SessionHandler+TLSSizedWrites`): one TLS record for live
/// writes, a quarter of one for catch-up (snapshots, backlog pages). Decides when to flush before a write and how to
/// cut a larger write into flushed pieces.
///
/// Value type, no I/O: the session's event loop owns it and performs what `write` asks for.
struct TLSFlushBudget {
    /// The most bytes the TLS layer gets to encrypt between two flushes of live writes (the size its per-connection
    /// buffer keeps): one record's worth (16,384 bytes), less a margin for the small frames written around the
    /// session (pongs, a close). Under flat-out fan-out a visit carries many changesets; 4 KiB flushes there cost the
    /// shared bench's fan-out about a tenth of its deliveries (docs/BENCHMARKS.md).
    static let maxBytesPerFlush = 16 * 1024 - 512

    /// The budget of catch-up writes (a snapshot, a backlog page, the presence list): 4 KiB less the same margin, so
    /// a session that caught up and then idles keeps a 4 KiB buffer, not a record's (idle after a snapshot: 37.0 →
    /// 28.7 KiB per session; catching up 100,000 changesets 0.24–0.33 → 0.32–0.37 s).
    static let catchUpBytesPerFlush = 4 * 1024 - 512

    /// What one write adds to the encrypted bytes beyond its own: it becomes at least one TLS 1.3 record (a 5-byte
    /// header, a 1-byte content type, a 16-byte tag), rounded up.
    static let bytesPerRecord = 32

    /// The largest piece one live write may hand over.
    static let largestPiece = maxBytesPerFlush - bytesPerRecord

    /// What was written since the last flush, overhead included.
    private(set) var unflushed = 0

    /// Writes `length` bytes: flushes first when they would take the unflushed bytes past `limit`, and cuts them
    /// into pieces of `limit − bytesPerRecord` bytes, each followed by a flush, when they are more than that. The
    /// last piece (possibly empty when `length` is 0) is written and left unflushed.
    /// - Parameters:
    ///   - limit: `maxBytesPerFlush` (live) or `catchUpBytesPerFlush`.
    ///   - writePiece: Writes the next `count` bytes; `last` is true for the final piece.
    ///   - flush: Flushes what was written.
    mutating func write(
        _ length: Int,
        limit: Int = maxBytesPerFlush,
        writePiece: (_ count: Int, _ last: Bool) -> Void,
        flush: () -> Void
    ) {
        var left = length
        let largestPiece = limit - Self.bytesPerRecord
        if unflushed > 0, unflushed + left + Self.bytesPerRecord > limit {
            flush()
            unflushed = 0
        }
        while left > largestPiece {
            writePiece(largestPiece, false)
            flush()
            unflushed = 0
            left -= largestPiece
        }
        writePiece(left, true)
        unflushed += left + Self.bytesPerRecord
    }

    /// Records a flush made elsewhere.
    mutating func flushed() {
        unflushed = 0
    }
}
