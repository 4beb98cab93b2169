import GoalModel
import GoalTestSlots
import Testing

/// A list row: identity `id`, displayed content `content`.
private struct Row: Identifiable, Equatable, CustomStringConvertible {
    var id: String
    var content: Int = 0
    var description: String { "\(id):\(content)" }
}

/// SplitMix64: a small seeded generator, so every randomized case can be replayed.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Length of a longest strictly increasing subsequence, the quadratic way (an independent check of minimal moves).
private func lisLength(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for k in values.indices {
        for l in 0..<k where values[l] < values[k] {
            best[k] = max(best[k], best[l] + 1)
        }
    }
    return best.max() ?? 0
}

/// Checks every promise of `RowChanges` for one pair of lists with unique ids; returns the changes.
@discardableResult
private func checkInvariants(old: [Row], new: [Row], sourceLocation: SourceLocation = #_sourceLocation) -> RowChanges {
    let changes = RowChanges(old: old, new: new)
    let oldIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($0.element.id, $0.offset) })
    let newIndex = Dictionary(uniqueKeysWithValues: new.enumerated().map { ($0.element.id, $0.offset) })

    // Ranges, order, no duplicates.
    let moveFroms = changes.moves.map(\.from)
    let moveTos = changes.moves.map(\.to)
    for index in changes.deletions + changes.modifications + moveFroms {
        #expect(old.indices.contains(index), "old index \(index) out of range", sourceLocation: sourceLocation)
    }
    for index in changes.insertions + moveTos {
        #expect(new.indices.contains(index), "new index \(index) out of range", sourceLocation: sourceLocation)
    }
    for list in [changes.deletions, changes.modifications, changes.insertions, moveTos] {
        #expect(
            zip(list, list.dropFirst()).allSatisfy { $0 < $1 },
            "not strictly ascending",
            sourceLocation: sourceLocation
        )
    }

    // Exactly the expected deletions, insertions and modifications.
    let expectedDeletions = old.indices.filter { newIndex[old[$0].id] == nil }
    let expectedInsertions = new.indices.filter { oldIndex[new[$0].id] == nil }
    let expectedModifications = old.indices.filter { i in
        newIndex[old[i].id].map { new[$0].content != old[i].content } ?? false
    }
    #expect(changes.deletions == expectedDeletions, sourceLocation: sourceLocation)
    #expect(changes.insertions == expectedInsertions, sourceLocation: sourceLocation)
    #expect(changes.modifications == expectedModifications, sourceLocation: sourceLocation)

    // Moves: kept rows only, each to its real new place, and as few as possible.
    for move in changes.moves {
        #expect(newIndex[old[move.from].id] == move.to, "bad move \(move)", sourceLocation: sourceLocation)
    }
    let keptOldIndexesInNewOrder = new.compactMap { oldIndex[$0.id] }
    #expect(
        changes.moves.count == keptOldIndexesInNewOrder.count - lisLength(keptOldIndexesInNewOrder),
        "moves are not minimal",
        sourceLocation: sourceLocation
    )

    // Replaying yields the new list, content included (so every changed row was reported).
    #expect(changes.applied(to: old, new: new) == new, sourceLocation: sourceLocation)
    #expect(changes.isEmpty == (old == new), sourceLocation: sourceLocation)
    return changes
}

@Suite(.slotted) struct RowChangesTests {
    @Test func swiftGoalChangesetSpec() {
        let old = ["cat", "dog", "fox", "rat", "yak"].map { Row(id: $0) }
        let new = [
            Row(id: "bat"), Row(id: "cow"), Row(id: "dog", content: 1), Row(id: "fox"), Row(id: "pig"),
            Row(id: "yak", content: 1),
        ]
        let changes = checkInvariants(old: old, new: new)
        #expect(changes == RowChanges(deletions: [0, 3], modifications: [1, 4], insertions: [0, 1, 4], moves: []))
    }

    @Test func emptyToSomeInsertsEverything() {
        let new = (0..<4).map { Row(id: "p\($0)") }
        let changes = checkInvariants(old: [], new: new)
        #expect(changes == RowChanges(insertions: [0, 1, 2, 3]))
    }

    @Test func someToEmptyDeletesEverything() {
        let old = (0..<4).map { Row(id: "p\($0)") }
        let changes = checkInvariants(old: old, new: [])
        #expect(changes == RowChanges(deletions: [0, 1, 2, 3]))
    }

    @Test func unchangedListIsEmpty() {
        let rows = (0..<5).map { Row(id: "p\($0)", content: $0) }
        let changes = checkInvariants(old: rows, new: rows)
        #expect(changes.isEmpty)
        #expect(changes == .empty)
        #expect(checkInvariants(old: [], new: []).isEmpty)
    }

    @Test func sameIdentitiesDifferentContentAreModificationsOnly() {
        let old = [Row(id: "a", content: 1), Row(id: "b", content: 2)]
        let new = [Row(id: "a", content: 1), Row(id: "b", content: 3)]
        #expect(checkInvariants(old: old, new: new) == RowChanges(modifications: [1]))
    }

    @Test func rankingOvertakeIsOneMoveAndOneModification() {
        // Rankings A 10, B 5, C 3; C rises to 7 and overtakes B.
        let old = [Row(id: "A", content: 10), Row(id: "B", content: 5), Row(id: "C", content: 3)]
        let new = [Row(id: "A", content: 10), Row(id: "C", content: 7), Row(id: "B", content: 5)]
        let changes = checkInvariants(old: old, new: new)
        #expect(changes == RowChanges(modifications: [2], moves: [RowMove(from: 2, to: 1)]))
        #expect(changes.deletions.isEmpty && changes.insertions.isEmpty)
    }

    @Test func swapIsOneMove() {
        let old = [Row(id: "a"), Row(id: "b")]
        let new = [Row(id: "b"), Row(id: "a")]
        #expect(checkInvariants(old: old, new: new) == RowChanges(moves: [RowMove(from: 1, to: 0)]))
    }

    @Test func customIdentityAndContentClosures() {
        // Identity by a closure (case-insensitive), content by exact spelling.
        let old = ["Ann", "bob", "Cid"]
        let new = ["cid", "bob", "ANN"]
        let changes = RowChanges(old: old, new: new, identity: { $0.lowercased() }, contentMatches: ==)
        #expect(changes.deletions.isEmpty && changes.insertions.isEmpty)
        #expect(changes.modifications == [0, 2])
        #expect(changes.moves.count == 2)
        #expect(changes.applied(to: old, new: new) == new)

        // Identity by key path.
        let rows = [Row(id: "a", content: 1), Row(id: "b")]
        let byKeyPath = RowChanges(
            old: rows,
            new: [rows[1]],
            identity: \.id,
            contentMatches: { $0.content == $1.content }
        )
        #expect(byKeyPath == RowChanges(deletions: [0]))
    }

    @Test func reverseOfAThousandRows() {
        let old = (0..<1_000).map { Row(id: "p\($0)") }
        let new = Array(old.reversed())
        let changes = RowChanges(old: old, new: new)
        #expect(changes.deletions.isEmpty && changes.insertions.isEmpty && changes.modifications.isEmpty)
        #expect(changes.moves.count == 999)
        // The one row that stays is the first old row (now last: the smallest old index wins the tie); every
        // other row moves to its mirrored place.
        #expect(changes.moves.allSatisfy { $0.from + $0.to == 999 })
        #expect(!changes.moves.contains { $0.from == 0 })
        #expect(changes.applied(to: old, new: new) == new)
    }

    @Test func duplicateIdentitiesArePairedInOrder() {
        // k-th "a" in old pairs with the k-th "a" in new; the extra old "a" is deleted, the extra new "b" inserted.
        let old = [Row(id: "a", content: 1), Row(id: "b"), Row(id: "a", content: 2), Row(id: "a", content: 3)]
        let new = [Row(id: "b"), Row(id: "a", content: 1), Row(id: "b"), Row(id: "a", content: 9)]
        let changes = RowChanges(old: old, new: new)
        #expect(changes.deletions == [3])
        #expect(changes.insertions == [2])
        #expect(changes.modifications == [2])
        #expect(changes.moves == [RowMove(from: 1, to: 0)])
        #expect(changes.applied(to: old, new: new) == new)
    }

    @Test func replayKeepsOldContentOfUnreportedRows() {
        // applied(to:new:) reloads only reported rows, so a diff missing a modification does not replay to `new`.
        let old = [Row(id: "a", content: 1)]
        let new = [Row(id: "a", content: 2)]
        #expect(RowChanges.empty.applied(to: old, new: new) == old)
        #expect(RowChanges(modifications: [0]).applied(to: old, new: new) == new)
    }

    @Test func randomizedEditsReplayToTheNewList() {
        var generator = SeededGenerator(state: 20_240_601)
        var nextID = 0
        func freshRow() -> Row {
            defer { nextID += 1 }
            return Row(id: "r\(nextID)", content: 0)
        }
        for _ in 0..<2_000 {
            let old = (0..<Int.random(in: 0...40, using: &generator)).map { _ in freshRow() }
            var new = old.filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }  // ~25% deleted
            for k in new.indices where Int.random(in: 0..<5, using: &generator) == 0 {
                new[k].content += 1  // ~20% modified
            }
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                new.shuffle(using: &generator)
            case 1 where new.count > 1:
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    new.swapAt(
                        Int.random(in: new.indices, using: &generator),
                        Int.random(in: new.indices, using: &generator)
                    )
                }
            default:
                break
            }
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                new.insert(freshRow(), at: Int.random(in: 0...new.count, using: &generator))
            }
            checkInvariants(old: old, new: new)
        }
    }
}
