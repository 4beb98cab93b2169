import GoalTestSlots
import Testing

@testable import goal_load

/// `SendCredit`: a paced writer earns credit by elapsed time, and the writers of a run, started at their phases,
/// send on different ticks instead of all on the same one; with Poisson arrivals, at their rate but in clusters.
@Suite("Send credit of paced writers", .slotted)
struct SendCreditTests {
    /// Four writers at 25 mutations/s each (the `latency` preset's 100/s), their 10 ms ticks at the same instants (the
    /// worst case): the sends of each tick, over one second.
    private func sendsPerTick(phases: [Double]) -> [[Int]] {
        var credits = phases.map { phase -> SendCredit in
            var credit = SendCredit(rate: 25, window: 16)
            credit.tick(at: 1_000_000_000, earning: false)
            credit.start(phase: phase)
            return credit
        }
        return (1...100).map { tick in
            let now = 1_000_000_000 + UInt64(tick) * 10_000_000
            return credits.indices.filter { writer in
                credits[writer].tick(at: now, earning: true)
                return credits[writer].spend()
            }
        }
    }

    @Test("writers started at i/n send one at a time, each at its own rate")
    func phasesSpreadTheWriters() {
        let ticks = sendsPerTick(phases: [0, 0.25, 0.5, 0.75])
        #expect(ticks.allSatisfy { $0.count <= 1 }, "no two writers send on the same tick: \(ticks)")
        for writer in 0..<4 {
            let sent = ticks.filter { $0.contains(writer) }.count
            #expect((24...25).contains(sent), "writer \(writer) sent \(sent) in one second at 25/s")
        }
    }

    @Test("writers started alike all send on the same ticks: the bursts the phases remove")
    func samePhaseBursts() {
        let ticks = sendsPerTick(phases: [0, 0, 0, 0])
        #expect(ticks.contains { $0.count == 4 })
    }

    @Test("Poisson arrivals: each writer sends at its rate on average, and the writers' sends cluster")
    func poissonArrivals() {
        var credits = (0..<4).map { SendCredit(rate: 25, window: 16, arrivals: .poisson, seed: UInt64($0 + 1)) }
        var sent = [Int](repeating: 0, count: 4)
        var busyTicks = 0
        for writer in credits.indices { credits[writer].start(phase: 0.5) }
        for tick in 0...10_000 {  // 100 s of 10 ms ticks
            let now = 1_000_000_000 + UInt64(tick) * 10_000_000
            var sendersNow = 0
            for writer in credits.indices {
                credits[writer].tick(at: now, earning: true)
                while credits[writer].spend() {
                    sent[writer] += 1
                    sendersNow += 1
                }
            }
            if sendersNow > 1 { busyTicks += 1 }
        }
        for count in sent { #expect((2_300...2_700).contains(count), "\(sent) in 100 s at 25/s each") }
        // Four writers at 25/s: P(two or more sends in one 10 ms tick) ≈ 1 − e^−1 (1 + 1) ≈ 26 %.
        #expect((1_800...3_400).contains(busyTicks), "\(busyTicks) ticks of 10,000 with two sends or more")
    }

    @Test("credit follows the time elapsed, not the tick count, and stops at the window plus one")
    func creditFollowsTime() {
        var credit = SendCredit(rate: 100, window: 2)
        credit.tick(at: 1_000_000_000, earning: true)
        credit.tick(at: 1_025_000_000, earning: true)  // one late tick: 25 ms at 100/s
        #expect(abs(credit.units - 2.5) < 1e-9)
        credit.tick(at: 2_000_000_000, earning: true)
        #expect(credit.units == 3)
        credit.tick(at: 3_000_000_000, earning: false)  // nothing earned outside the measured phase
        let spent = (0..<4).map { _ in credit.spend() }
        #expect(spent == [true, true, true, false])
    }
}
