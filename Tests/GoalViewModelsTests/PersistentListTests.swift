import GoalTestSlots
import Testing

@testable import GoalViewModels

/// `PersistentList` against an `Array` model: every operation, thousands of seeded random steps, the tree's
/// invariants after each, and copies that must not see each other's edits.
@Suite("PersistentList: a persistent AVL list equals its Array model", .slotted)
struct PersistentListTests {
    @Test("random inserts, removals, replacements and appends, with copies kept", arguments: [1, 2, 3, 4] as [UInt64])
    func randomOperations(seed: UInt64) {
        var random = SplitMix(state: seed)
        var list = PersistentList<Int>()
        var model: [Int] = []
        var copies: [(list: PersistentList<Int>, model: [Int])] = []
        for step in 0..<6_000 {
            let roll = random.below(100)
            switch roll {
            case 0..<45:
                let index = random.below(model.count + 1)
                let value = random.below(1_000_000)
                list.insert(value, at: index)
                model.insert(value, at: index)
            case 45..<70 where !model.isEmpty:
                let index = random.below(model.count)
                let removed = list.remove(at: index)
                #expect(removed == model.remove(at: index), "step \(step)")
            case 70..<85 where !model.isEmpty:
                let index = random.below(model.count)
                let value = random.below(1_000_000)
                list[index] = value
                model[index] = value
            case 85..<90:
                let value = random.below(1_000_000)
                list.append(value)
                model.append(value)
            case 90..<93:
                copies.append((list, model))
            default:
                if !model.isEmpty {
                    let index = random.below(model.count)
                    #expect(list[index] == model[index], "step \(step)")
                }
            }
            #expect(list.isValid, "step \(step): balance and counts")
            #expect(list.count == model.count, "step \(step)")
            if step % 97 == 0 {
                #expect(Array(list) == model, "step \(step): iteration")
                #expect(list.indices.map { list[$0] } == model, "step \(step): subscript")
            }
            if list.count != model.count || !list.isValid { return }
        }
        #expect(Array(list) == model)
        #expect(copies.count > 50)
        for (copy, copyModel) in copies {
            #expect(Array(copy) == copyModel, "a copy does not see later edits")
            #expect(copy.isValid)
        }
    }

    @Test("built from a sequence of every length up to 300: balanced, equal, iterated in order")
    func buildAndIterate() {
        for length in 0...300 {
            let elements = Array(0..<length).map { $0 * 7 % 11 }
            let list = PersistentList(elements)
            #expect(list.isValid && Array(list) == elements && list.count == length)
            #expect(list.reversed() == elements.reversed(), "bidirectional indexes")
        }
        let literal: PersistentList = [3, 1, 2]
        #expect(Array(literal) == [3, 1, 2])
    }

    @Test("a long run of appends and removals at the front stays balanced (height about log2 n)")
    func staysBalanced() {
        var list = PersistentList<Int>()
        for value in 0..<10_000 { list.append(value) }
        for _ in 0..<5_000 { list.remove(at: 0) }
        #expect(list.isValid)
        #expect(Array(list) == Array(5_000..<10_000))
        #expect(list.first == 5_000 && list.last == 9_999)
    }

    @Test("partitioningIndex finds the first element on the far side of a sorted list's split")
    func partitioningIndex() {
        var random = SplitMix(state: 7)
        for _ in 0..<200 {
            let sorted = (0..<random.below(400)).map { _ in random.below(100) }.sorted()
            let list = PersistentList(sorted)
            let pivot = random.below(110)
            let expected = sorted.firstIndex { $0 >= pivot } ?? sorted.count
            #expect(list.partitioningIndex { $0 >= pivot } == expected)
        }
    }

    @Test("equality and hashing follow the elements, whether or not storage is shared")
    func equality() {
        let a = PersistentList([1, 2, 3])
        var b = a
        #expect(a == b)
        b[1] = 5
        #expect(a != b && Array(a) == [1, 2, 3])
        b[1] = 2
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(PersistentList<Int>() == [])
    }
}
