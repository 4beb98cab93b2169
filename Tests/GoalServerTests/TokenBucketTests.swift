import GoalTestSlots
import NIOCore
import Testing

@testable import GoalServer

@Suite("TokenBucket: tiny, zero and ordinary rates", .slotted)
struct TokenBucketTests {
    /// Issue 14 point 10: a tiny rate advised a wait beyond Int's range, and the Double → Int conversion trapped.
    @Test("a tiny rate advises a bounded wait instead of trapping", arguments: [0.001, 1e-9, 1e-20, 0.0])
    func tinyRateAdvisesABoundedWait(rate: Double) {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        var bucket = TokenBucket(rate: rate, capacity: 1, now: start)
        let taken1 = bucket.take(now: start)
        #expect(taken1)
        let taken2 = bucket.take(now: start)
        #expect(!taken2)
        let wait = bucket.millisecondsUntilNextToken()
        #expect(wait >= 1)
        #expect(wait <= TokenBucket.maximumAdvisedWaitMilliseconds)
    }

    @Test("0.001 tokens a second: the next token comes after 1,000 s, not before")
    func oneTokenPerThousandSeconds() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        var bucket = TokenBucket(rate: 0.001, capacity: 1, now: start)
        let taken3 = bucket.take(now: start)
        #expect(taken3)
        // 1 / 0.001 is not exact in binary floating point: allow the last millisecond either way.
        #expect((999_999...1_000_001).contains(bucket.millisecondsUntilNextToken()))
        let taken4 = bucket.take(now: start + .seconds(999))
        #expect(!taken4)
        let taken5 = bucket.take(now: start + .seconds(1_001))
        #expect(taken5)
    }

    @Test("an ordinary rate refills and caps at its capacity")
    func ordinaryRate() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        var bucket = TokenBucket(rate: 10, capacity: 2, now: start)
        let taken6 = bucket.take(now: start)
        #expect(taken6)
        let taken7 = bucket.take(now: start)
        #expect(taken7)
        let taken8 = bucket.take(now: start)
        #expect(!taken8)
        #expect(bucket.millisecondsUntilNextToken() == 100)
        let taken9 = bucket.take(now: start + .seconds(60))
        #expect(taken9)
        let taken10 = bucket.take(now: start + .seconds(60))
        #expect(taken10)
        let taken11 = bucket.take(now: start + .seconds(60))
        #expect(!taken11)
    }
}
