public import GoalModel

/// A token's league grants as stores keep them and people type them: `office=admin,home=viewer` (slugs in order;
/// empty for a token of every league). `goald token create --league office=admin --league home` reads the same
/// form per flag (`slug` alone takes the token's `--role`).
///
/// Stateless.
public enum LeagueGrantsText {
    /// Writes grants: `slug=role` pairs by slug, joined by commas; "" when there are none.
    public static func format(_ grants: [LeagueSlug: Role]) -> String {
        grants.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value.rawValue)" }.joined(separator: ",")
    }

    /// Reads what `format` wrote. Each item is `slug=role`, or `slug` alone with `defaultRole`.
    /// - Throws: `LeagueGrantsError` naming the item.
    public static func parse(_ text: String, defaultRole: Role? = nil) throws(LeagueGrantsError) -> [LeagueSlug: Role] {
        var grants: [LeagueSlug: Role] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let slug: LeagueSlug
            do {
                slug = try LeagueSlug(validating: String(parts[0]))
            } catch {
                throw LeagueGrantsError(item: String(item), detail: error.description)
            }
            let role: Role
            if parts.count == 2 {
                guard let named = Role(rawValue: String(parts[1])) else {
                    throw LeagueGrantsError(item: String(item), detail: "roles are viewer, editor and admin")
                }
                role = named
            } else if let defaultRole {
                role = defaultRole
            } else {
                throw LeagueGrantsError(item: String(item), detail: "expected slug=role")
            }
            guard grants[slug] == nil else {
                throw LeagueGrantsError(item: String(item), detail: "league \(slug) is named twice")
            }
            grants[slug] = role
        }
        return grants
    }
}

/// Why a grants text could not be read. Value type, `Sendable`.
public struct LeagueGrantsError: Error, Hashable, Sendable, CustomStringConvertible {
    public let item: String
    public let detail: String

    public var description: String { "league grant \"\(item)\": \(detail)" }
}
