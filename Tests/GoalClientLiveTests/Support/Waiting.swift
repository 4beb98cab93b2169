import GoalClient
import GoalReactive
import Testing

/// Why a live test gave up.
struct LiveTestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Waits on the main actor until `condition` holds, suspending between checks so the main queue (where
/// `LiveLeagueStore` delivers) drains. The deadline only bounds a hang: it is generous, and reaching it is a
/// failure that names what was awaited; how fast the condition comes true never decides the result.
///
/// - Parameters:
///   - what: What is awaited, for the failure message.
///   - limit: The deadline (default 30 s).
///   - condition: Checked on the main actor.
/// - Throws: `LiveTestTimeout` when the deadline passes first.
@MainActor
func eventually(
    _ what: String,
    within limit: Duration = .seconds(30),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while try !condition() {
        guard clock.now < deadline else {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            throw LiveTestTimeout(what: what)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
