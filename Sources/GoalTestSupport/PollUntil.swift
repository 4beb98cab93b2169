/// Why `pollUntil` gave up.
public struct PollTimeout: Error, CustomStringConvertible {
    public let description: String
}

/// Polls `condition` every 10 ms until it holds: a wait on a state, for conditions nothing signals. The limit
/// (20 s by default) guards against a hung test; it is not a timing assertion.
/// - Throws: `PollTimeout` naming `what` (and `detail()`) when the condition does not hold in time.
public func pollUntil(
    _ what: String,
    timeout: Duration = .seconds(20),
    detail: () -> String = { "" },
    _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            let more = detail()
            throw PollTimeout(description: "timed out waiting for \(what)" + (more.isEmpty ? "" : ": \(more)"))
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
