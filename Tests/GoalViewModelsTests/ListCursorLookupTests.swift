import GoalTestSlots
import Testing

@testable import GoalViewModels

/// `ListCursor`'s two ways of following — id arrays, and lookups (`follow(oldCount:oldID:newCount:newID:newIndex:
/// removedHere:)`, what the match list uses) — against the transitions as first written (`ReferenceCursor`).
@Suite("ListCursor: arrays and lookups follow as the reference does", .slotted)
struct ListCursorLookupTests {
    @Test("random lists losing, gaining and reordering rows", arguments: [1, 2, 3] as [UInt64])
    func randomTransitions(seed: UInt64) {
        var random = SplitMix(state: seed)
        var viaArrays = ListCursor<Int>()
        var viaLookups = ListCursor<Int>()
        var reference = ReferenceCursor<Int>()
        var old: [Int] = []
        var nextID = 0
        var leftCount = 0
        for step in 0..<3_000 {
            var new = old
            // Remove a run (sometimes the whole list), insert some, and now and then move one row.
            if !new.isEmpty, random.below(3) > 0 {
                let start = random.below(new.count)
                let length = random.below(4) == 0 ? new.count : random.below(min(4, new.count - start)) + 1
                new.removeSubrange(start..<min(start + length, new.count))
            }
            for _ in 0..<random.below(4) {
                new.insert(nextID, at: random.below(new.count + 1))
                nextID += 1
            }
            if new.count > 1, random.below(5) == 0 {
                let moved = new.remove(at: random.below(new.count))
                new.insert(moved, at: random.below(new.count + 1))
            }
            let removedHere: (Int) -> Bool = { $0 % 5 == 0 }
            let positions = Dictionary(uniqueKeysWithValues: new.enumerated().map { ($0.element, $0.offset) })
            viaArrays.follow(from: old, to: new, removedHere: removedHere)
            viaLookups.follow(
                oldCount: old.count,
                oldID: { old[$0] },
                newCount: new.count,
                newID: { new[$0] },
                newIndex: { positions[$0] },
                removedHere: removedHere
            )
            if let id = reference.id, !new.contains(id) { leftCount += 1 }
            reference.follow(from: old, to: new, removedHere: removedHere)
            #expect(reference.matches(viaArrays), "step \(step): arrays \(viaArrays) vs \(reference)")
            #expect(reference.matches(viaLookups), "step \(step): lookups \(viaLookups) vs \(reference)")
            if !reference.matches(viaLookups) || !reference.matches(viaArrays) { return }
            if !new.isEmpty, random.below(6) == 0 {
                let index = random.below(new.count)
                viaArrays.select(new[index], in: new)
                viaLookups.select(new[index], at: index)
                reference.select(new[index], in: new)
            }
            if !new.isEmpty, random.below(8) == 0 {
                let delta = random.below(7) - 3
                viaArrays.move(by: delta, in: new)
                viaLookups.move(by: delta, in: PersistentList(new))
                #expect(viaArrays == viaLookups)
                reference = ReferenceCursor(id: viaArrays.id, row: viaArrays.row, removedByOther: nil)
            }
            old = new
        }
        #expect(leftCount > 100, "the selected entity left the list often enough to test its neighbours")
    }
}
