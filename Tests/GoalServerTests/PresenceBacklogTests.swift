import GoalModel
import GoalTestSlots
import Testing

@testable import GoalServer

/// A slow session's presence backlog: bounded by the members, latest state per member wins.
@Suite("PresenceBacklog", .slotted)
struct PresenceBacklogTests {
    func member(_ id: String, _ activity: PresenceActivity) -> PresenceMember {
        PresenceMember(
            id: id,
            name: id,
            clientInstance: .random(),
            node: "n",
            activity: activity,
            since: Timestamp(millisecondsSince1970: 0)
        )
    }

    @Test func latestStatePerMemberWins() {
        var backlog = PresenceBacklog()
        let match = MatchID()
        let a = member("a", .online)
        backlog.add(PresenceEvent(.join, a))
        for _ in 0..<1_000 { backlog.add(PresenceEvent(.update, member("b", .viewing(nil)))) }
        var edited = a
        edited.activity = .editing(match)
        backlog.add(PresenceEvent(.update, edited))
        #expect(backlog.count == 2, "one entry per member, however many changes")
        let events = backlog.take()
        #expect(events.map(\.kind) == [.join, .update])
        #expect(events[0].member.activity == .editing(match), "a join then an update is a join with the latest state")
        #expect(backlog.isEmpty)
    }

    @Test func aJoinThenALeaveCancelOut() {
        var backlog = PresenceBacklog()
        backlog.add(PresenceEvent(.join, member("a", .online)))
        backlog.add(PresenceEvent(.update, member("a", .viewing(nil))))
        backlog.add(PresenceEvent(.leave, member("a", .viewing(nil))))
        backlog.add(PresenceEvent(.update, member("b", .online)))
        backlog.add(PresenceEvent(.leave, member("b", .online)))
        #expect(backlog.take().map { "\($0.kind) \($0.member.id)" } == ["leave b"])
    }

    @Test func differenceTurnsOneListIntoAnother() {
        let old = ["a": member("a", .online), "b": member("b", .online)]
        let new = ["b": member("b", .viewing(nil)), "c": member("c", .online)]
        let events = PresenceRegistry.difference(from: old, to: new)
        #expect(Set(events.map { "\($0.kind) \($0.member.id)" }) == ["leave a", "update b", "join c"])
        var list = Array(old.values)
        for event in events { list.apply(event) }
        #expect(Set(list) == Set(new.values))
    }
}
