import Foundation
public import GoalModel

extension Timestamp {
    /// The wall clock now, in whole milliseconds. GoalModel never reads the clock; the daemon passes this in.
    public static func now() -> Timestamp {
        Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1_000))
    }
}
