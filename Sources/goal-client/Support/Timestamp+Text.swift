import Foundation
import GoalModel

extension Timestamp {
    /// The time in ISO 8601, UTC, to the second: `2026-11-26T21:40:03Z` (`--json` output: `who`'s `since`,
    /// `matches list`'s `created_at`).
    var iso8601: String {
        Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000).ISO8601Format()
    }
}
