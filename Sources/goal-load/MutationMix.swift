import Foundation

/// The weights of the mutation kinds writers send, e.g. `create=1,adjust=6,edit=2,conflict=1`.
///
/// - `create`: a new match between two pool players.
/// - `adjust`: balanced +1/−1 goal increments (each writer alternates, so goals return to where they were).
/// - `edit`: a rename of the writer's own player (never conflicts).
/// - `conflict`: an absolute goal set on a shared match with the setup revision as base: deliberately stale, so
///   it is refused with `conflict` whenever anyone changed that field since.
///
/// Value type, `Sendable`; `pick` is pure given its random number.
struct MutationMix: Sendable, Equatable, CustomStringConvertible {
    enum Kind: String, Sendable, CaseIterable {
        case create, adjust, edit, conflict
    }

    var weights: [Kind: Int]

    init(create: Int = 0, adjust: Int = 0, edit: Int = 0, conflict: Int = 0) {
        weights = [.create: create, .adjust: adjust, .edit: edit, .conflict: conflict]
    }

    /// The default mix.
    static let standard = MutationMix(create: 1, adjust: 6, edit: 2, conflict: 1)

    /// Parses `kind=weight,…`; kinds not named weigh 0.
    /// - Throws: `LoadError.usage` naming the bad part.
    init(parsing text: String) throws(LoadError) {
        self.init()
        for part in text.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, let kind = Kind(rawValue: pieces[0]), let weight = Int(pieces[1]), weight >= 0
            else {
                throw .usage(
                    "invalid --mix part \"\(part)\": write kind=weight with kind one of create, adjust, edit, conflict"
                )
            }
            weights[kind] = weight
        }
        guard total > 0 else { throw .usage("--mix \"\(text)\" gives every kind weight 0") }
    }

    var total: Int { weights.values.reduce(0, +) }

    /// The kind for a number in 0..<total.
    func pick(_ roll: Int) -> Kind {
        var rest = roll
        for kind in Kind.allCases {
            let weight = weights[kind] ?? 0
            if rest < weight { return kind }
            rest -= weight
        }
        return .adjust
    }

    var description: String {
        Kind.allCases.compactMap { kind in
            let weight = weights[kind] ?? 0
            return weight > 0 ? "\(kind.rawValue)=\(weight)" : nil
        }.joined(separator: ",")
    }
}
