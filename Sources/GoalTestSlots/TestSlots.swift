import Foundation
public import Testing

/// Runs each test case of the suites that carry it in one of a bounded number of slots, so `swift test` never runs
/// more test cases at once than the machine can serve.
///
/// Why: Swift Testing 6.3 starts every test case of the run at once unless `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH`
/// is set, and README's plain `swift test` sets nothing. On a 2-core machine that put 982 test cases in flight, about
/// 70 in-process daemons with their event loops and thread pools alive at once 50 s into the run, and their TLS
/// handshakes, 10 s hello deadlines and 40 s heartbeats timed out together (122 issues in one run, 44 failed tests in
/// another). With at most `2 × cores` test cases in flight the same suite passes in about the same wall time. Swift
/// Testing's public `TestScoping` is the one place a package can bound this for plain `swift test`.
///
/// Every suite declares `.slotted` (`SlottedSuitesTests` checks that none is missing). A test case nested in
/// several slotted suites takes one slot, not one per suite (a task-local marks a case that holds one).
///
/// Threading: the slots are an actor shared by the whole test process (a resource bound, like a connection pool: it
/// decides when a case starts, never what it sees). Lifetime: the process's.
public struct SlottedTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> SlottedTrait? {
        testCase == nil ? nil : self  // per test case only: a suite holding a slot would starve its own cases
    }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if TestSlots.holdsSlot {
            try await function()
            return
        }
        await TestSlots.shared.acquire()
        do {
            try await TestSlots.$holdsSlot.withValue(true) { try await function() }
        } catch {
            await TestSlots.shared.release()
            throw error
        }
        await TestSlots.shared.release()
    }
}

extension Trait where Self == SlottedTrait {
    /// Each test case runs in one of `TestSlots.width` slots (see `SlottedTrait`).
    public static var slotted: SlottedTrait { SlottedTrait() }
}

/// The slots: `2 × cores` by default (4 on the 2-core CI machine), `GOALD_TEST_SLOTS` to choose another width.
///
/// Threading: an actor; waiters are served in the order they came. Lifetime: the process's.
public actor TestSlots {
    public static let shared = TestSlots(width: TestSlots.defaultWidth)

    /// True inside a test case that holds a slot.
    @TaskLocal static var holdsSlot = false

    /// How many test cases may run at once.
    public let width: Int
    private var inUse = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(width: Int) {
        self.width = max(1, width)
    }

    static var defaultWidth: Int {
        if let text = ProcessInfo.processInfo.environment["GOALD_TEST_SLOTS"], let width = Int(text), width > 0 {
            return width
        }
        return 2 * ProcessInfo.processInfo.activeProcessorCount
    }

    func acquire() async {
        if inUse < width {
            inUse += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            inUse -= 1
        } else {
            waiters.removeFirst().resume()  // the slot passes straight to the oldest waiter
        }
    }
}
