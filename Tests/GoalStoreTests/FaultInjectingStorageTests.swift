import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("FaultInjectingStorage", .slotted)
struct FaultInjectingStorageTests {
    @Test("the Nth append fails and writes nothing; the plan decides the later ones")
    func failsTheNthAppend() throws {
        for plan in [FaultInjectingStorage.Plan.onlyAppend(2), .fromAppend(2)] {
            let base = InMemoryLeagueStorage()
            let store = FaultInjectingStorage(wrapping: base, plan: plan)
            var driver = LeagueDriver()
            driver.mutate(.createPlayer(id: PlayerID(), name: "one"), by: .alpha)
            try store.append(driver.takeBatch())
            driver.mutate(.createPlayer(id: PlayerID(), name: "two"), by: .alpha)
            let second = driver.takeBatch()
            let error = try #require(throws: StorageError.self) { try store.append(second) }
            #expect(error == FaultInjectingStorage.fault(append: 2))
            #expect(try base.logBounds().head == 1)
            if plan == .onlyAppend(2) {
                try store.append(second)
                #expect(try store.recover().head == 2)
            } else {
                #expect(throws: FaultInjectingStorage.fault(append: 3)) { try store.append(second) }
                #expect(try store.recover().head == 1)
            }
            #expect(store.appendCount == 3)
        }
    }
}
