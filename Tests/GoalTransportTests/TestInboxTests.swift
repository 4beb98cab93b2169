import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("TestInbox", .slotted)
struct TestInboxTests {
    @Test("elements pushed before or while waiting arrive in order")
    func order() async throws {
        let inbox = TestInbox<Int>()
        inbox.push(1)
        inbox.push(2)
        #expect(try await inbox.next() == 1)
        async let third = inbox.next()
        inbox.push(3)
        #expect(try await inbox.next() == 2)
        #expect(try await third == 3)
    }

    @Test("an empty inbox times out instead of hanging")
    func timesOut() async {
        let inbox = TestInbox<Int>()
        await #expect(throws: TestInboxError.timedOut(.milliseconds(20))) {
            _ = try await inbox.next(timeout: .milliseconds(20))
        }
    }

    @Test("after finish, buffered elements are read, then .finished")
    func finish() async throws {
        let inbox = TestInbox<String>()
        inbox.push("last")
        inbox.finish()
        #expect(try await inbox.collect { $0 == "last" } == ["last"])
        await #expect(throws: TestInboxError.finished) {
            _ = try await inbox.next()
        }
    }
}
