/// Why `pollUntil` gave up.
public struct PollTimeout: Error, CustomStringConvertible {
    public let description: String
}

/// The tests' one polling helper: checks `condition` every `interval` until it holds, a wait on a state for
/// conditions nothing signals. It runs on the caller's actor (`isolation`), so a condition may read main-actor
/// state (the live view-model tests) and the caller's queue drains between checks. The limit (30 s by default)
/// guards against a hung test; it is not a timing assertion.
/// - Throws: `PollTimeout` naming `what` (and `detail()`) when the condition does not hold in time; whatever
///   `condition` throws.
public func pollUntil(
    _ what: String,
    timeout: Duration = .seconds(30),
    every interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation,
    detail: () -> String = { "" },
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            let more = detail()
            throw PollTimeout(description: "timed out waiting for \(what)" + (more.isEmpty ? "" : ": \(more)"))
        }
        try await Task.sleep(for: interval)
    }
}
