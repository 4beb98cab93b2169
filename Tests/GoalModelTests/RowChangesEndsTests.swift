import GoalTestSlots
import Testing

@testable import GoalModel

/// `RowChanges(old:new:)` diffs only the rows between the unchanged ends; these tests hold it to the untrimmed
/// diff, change for change.
@Suite("RowChanges: trimming the unchanged ends changes nothing", .slotted)
struct RowChangesEndsTests {
    private struct Row: Identifiable, Equatable {
        var id: Int
        var content: Int
    }

    private struct Random {
        var state: UInt64

        mutating func below(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// A list edited a little: a few rows removed, inserted, changed or moved; ids sometimes repeated.
    private static func edited(_ old: [Row], _ random: inout Random, duplicates: Bool) -> [Row] {
        var new = old
        for _ in 0..<random.below(4) {
            switch random.below(4) {
            case 0 where !new.isEmpty: new.remove(at: random.below(new.count))
            case 1:
                let id = duplicates && !old.isEmpty ? old[random.below(old.count)].id : 1_000 + random.below(1_000)
                new.insert(Row(id: id, content: random.below(3)), at: random.below(new.count + 1))
            case 2 where !new.isEmpty: new[random.below(new.count)].content += 1
            case 3 where !new.isEmpty:
                let row = new.remove(at: random.below(new.count))
                new.insert(row, at: random.below(new.count + 1))
            default: break
            }
        }
        return new
    }

    @Test("random small edits of long lists, with and without duplicate ids: the same changes as the full diff")
    func sameAsFullDiff() {
        var random = Random(state: 41)
        var trimmed = 0
        for round in 0..<3_000 {
            let duplicates = round % 3 == 0
            let count = random.below(60)
            let old = (0..<count).map { Row(id: duplicates ? random.below(count + 1) : $0, content: random.below(3)) }
            let new = Self.edited(old, &random, duplicates: duplicates)
            let full = RowChanges.diff(old: old, new: new, identity: \.id, contentMatches: ==)
            let fast = RowChanges(old: old, new: new)
            #expect(fast == full, "old \(old) new \(new)")
            let ends = RowChanges.unchangedEnds(old: old, new: new, identity: \.id, matches: ==)
            if ends.prefix + ends.suffix > 0 { trimmed += 1 }
        }
        #expect(trimmed > 1_500)
    }

    @Test("a changed row in the middle of 10,000: only it is diffed")
    func oneChange() {
        let old = (0..<10_000).map { Row(id: $0, content: 0) }
        var new = old
        new[4_321].content = 1
        let ends = RowChanges.unchangedEnds(old: old, new: new, identity: \.id, matches: ==)
        #expect(ends.prefix == 4_321 && ends.suffix == 10_000 - 4_322)
        #expect(RowChanges(old: old, new: new) == RowChanges(modifications: [4_321]))
    }
}
