import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("SerialDisposable", .slotted)
struct SerialDisposableTests {
    @Test func assigningDisposesThePreviousInner() {
        let first = AnyDisposable()
        let second = AnyDisposable()
        let serial = SerialDisposable(first)
        #expect(serial.inner === first)
        serial.inner = second
        #expect(first.isDisposed)
        #expect(second.isDisposed == false)
        #expect(serial.inner === second)
    }

    @Test func assigningNilDisposesTheInnerButNotTheSerialDisposable() {
        let first = AnyDisposable()
        let serial = SerialDisposable(first)
        serial.inner = nil
        #expect(first.isDisposed)
        #expect(serial.isDisposed == false)
        #expect(serial.inner == nil)
    }

    @Test func reassigningTheSameObjectDisposesIt() {
        let first = AnyDisposable()
        let serial = SerialDisposable(first)
        serial.inner = first
        #expect(first.isDisposed)
    }

    @Test func disposingDisposesTheInnerAndEveryLaterAssignment() {
        let first = AnyDisposable()
        let serial = SerialDisposable(first)
        serial.dispose()
        #expect(serial.isDisposed)
        #expect(first.isDisposed)
        let late = AnyDisposable()
        serial.inner = late
        #expect(late.isDisposed)
        #expect(serial.inner == nil)
    }

    @Test func disposingTwiceDisposesTheInnerOnce() {
        var runs = 0
        let serial = SerialDisposable(AnyDisposable { runs += 1 })
        serial.dispose()
        serial.dispose()
        #expect(runs == 1)
    }
}
