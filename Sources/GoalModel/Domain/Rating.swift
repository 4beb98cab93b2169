/// One player's record, in integers, exactly as the original app counts it (not Elo).
///
/// Win 3 points, draw 1, loss 0 for every player on a side; `value = 10 × points / (3 × played)`, 0 when
/// unplayed, never NaN. The wire carries the integers; clients compute `value` and show it with 2 decimals.
/// Value type, `Sendable`.
public struct Rating: Hashable, Sendable, Identifiable {
    public let playerID: PlayerID
    public var points: Int
    public var played: Int
    public var won: Int
    public var drawn: Int
    public var lost: Int

    public var id: PlayerID { playerID }

    public init(playerID: PlayerID, points: Int = 0, played: Int = 0, won: Int = 0, drawn: Int = 0, lost: Int = 0) {
        self.playerID = playerID
        self.points = points
        self.played = played
        self.won = won
        self.drawn = drawn
        self.lost = lost
    }

    /// The rating on the 0…10 scale: 10 × points / (3 × played), 0 when the player has not played.
    public var value: Double {
        played == 0 ? 0 : 10 * Double(points) / Double(3 * played)
    }

    /// The rating as the apps show it: `"%.2f"` ("10.00", "3.33").
    public var formatted: String {
        Rating.format(value)
    }

    /// Formats a rating value with two decimals without Foundation's locale-dependent formatters.
    static func format(_ value: Double) -> String {
        let scaled = Int((value * 100).rounded())
        let whole = scaled / 100
        let fraction = scaled % 100
        return "\(whole)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }

    /// Adds (`sign` = +1) or removes (`sign` = -1) one match outcome.
    public mutating func record(_ outcome: MatchOutcome, sign: Int = 1) {
        played += sign
        switch outcome {
        case .win:
            won += sign
            points += 3 * sign
        case .draw:
            drawn += sign
            points += sign
        case .loss:
            lost += sign
        }
    }
}
