import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalServer

/// `TLSFlushBudget`: every flush carries at most the budget (under one TLS record), bytes go out whole and in order, and a
/// flush happens only when the next write would not fit.
@Suite("TLS flush budget", .slotted)
struct TLSFlushBudgetTests {
    private enum Event: Equatable {
        case piece(Int, last: Bool)
        case flush
        /// A flush the session made itself (`flushIfNeeded`), not one the budget asked for.
        case flushElsewhere
    }

    /// Drives the budget the way `SessionHandler.writeSized` does, recording what it asks for.
    private struct Recorder {
        var budget = TLSFlushBudget()
        var events: [Event] = []

        mutating func write(_ length: Int, limit: Int = TLSFlushBudget.maxBytesPerFlush) {
            let plan = budget.plan(length, limit: limit)
            if plan.flushFirst { events.append(.flush) }
            for _ in 0..<plan.wholePieces { events += [.piece(plan.pieceLength, last: false), .flush] }
            events.append(.piece(plan.lastPiece, last: true))
        }

        mutating func flushElsewhere() {
            budget.flushed()
            events.append(.flushElsewhere)
        }
    }

    @Test("small writes share a flush until the next one would not fit")
    func smallWritesShare() {
        var recorder = Recorder()
        let frame = 1_000
        let perFlush = TLSFlushBudget.maxBytesPerFlush / (frame + TLSFlushBudget.bytesPerRecord)
        for _ in 0..<(perFlush + 1) { recorder.write(frame) }
        let pieces = Array(repeating: Event.piece(frame, last: true), count: perFlush)
        #expect(recorder.events == pieces + [.flush, .piece(frame, last: true)])
    }

    @Test("catch-up writes are cut at the catch-up budget, a quarter of a record")
    func catchUpWritesAreCutSmaller() {
        var recorder = Recorder()
        let limit = TLSFlushBudget.catchUpBytesPerFlush
        let piece = limit - TLSFlushBudget.bytesPerRecord
        recorder.write(2 * piece + 10, limit: limit)
        #expect(
            recorder.events == [
                .piece(piece, last: false), .flush, .piece(piece, last: false), .flush, .piece(10, last: true),
            ]
        )
        #expect(piece * 4 < TLSFlushBudget.largestPiece)
    }

    @Test("a write larger than a record goes in flushed pieces; the last one stays unflushed")
    func largeWriteIsCut() {
        var recorder = Recorder()
        let piece = TLSFlushBudget.largestPiece
        recorder.write(2 * piece + 10)
        #expect(
            recorder.events == [
                .piece(piece, last: false), .flush, .piece(piece, last: false), .flush, .piece(10, last: true),
            ]
        )
        #expect(recorder.budget.unflushed == 10 + TLSFlushBudget.bytesPerRecord)
    }

    @Test("a flush made elsewhere empties the budget")
    func flushElsewhere() {
        var recorder = Recorder()
        recorder.write(TLSFlushBudget.largestPiece)
        recorder.flushElsewhere()
        recorder.write(TLSFlushBudget.largestPiece)
        #expect(
            recorder.events == [
                .piece(TLSFlushBudget.largestPiece, last: true), .flushElsewhere,
                .piece(TLSFlushBudget.largestPiece, last: true),
            ]
        )
    }

    @Test("random writes: whole, in order, at most one record per flush, no flush without need", arguments: 1...4)
    func randomWrites(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var recorder = Recorder()
        var lengths: [Int] = []
        for _ in 0..<2_000 {
            let length =
                switch generator.next() % 4 {
                case 0: Int(generator.next() % 200_000)
                case 1: TLSFlushBudget.largestPiece + Int(generator.next() % 3) - 1
                default: Int(generator.next() % 3_000)
                }
            lengths.append(length)
            recorder.write(length)
            if generator.next() % 50 == 0 { recorder.flushElsewhere() }
        }
        // Whole and in order: the pieces add up to each write, one write after the other.
        var pieces = recorder.events.compactMap { event -> (Int, Bool)? in
            if case .piece(let count, let last) = event { return (count, last) }
            return nil
        }[...]
        for length in lengths {
            var sum = 0
            while let (count, last) = pieces.popFirst() {
                sum += count
                if last { break }
                #expect(count == TLSFlushBudget.largestPiece)
            }
            #expect(sum == length)
        }
        #expect(pieces.isEmpty)
        // At most one record's worth per flush, and a flush only when the next piece would not have fit.
        var unflushed = 0
        for (index, event) in recorder.events.enumerated() {
            switch event {
            case .piece(let count, _):
                unflushed += count + TLSFlushBudget.bytesPerRecord
                #expect(unflushed <= TLSFlushBudget.maxBytesPerFlush)
            case .flush:
                if case .piece(let next, _) = recorder.events.dropFirst(index + 1).first, unflushed > 0 {
                    let fits =
                        unflushed + min(next, TLSFlushBudget.largestPiece) + TLSFlushBudget.bytesPerRecord
                        <= TLSFlushBudget.maxBytesPerFlush
                    let previousWasCut =
                        index > 0 && recorder.events[index - 1] == .piece(TLSFlushBudget.largestPiece, last: false)
                    #expect(!fits || previousWasCut, "a flush at \(index) that was not needed")
                }
                unflushed = 0
            case .flushElsewhere:
                unflushed = 0
            }
        }
    }
}
