import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@testable import goal_client

/// The UI's league switcher list (`l`), as a value: where the cursor starts, what enter and escape do, what it shows
/// while loading, after a failure and for the leagues (issue 37).
@Suite("goal-client UI: the league switcher's list", .slotted)
struct LeaguePickerTests {
    private func texts(_ lines: [ScreenLine]) -> [String] { lines.map { $0.segments.map(\.text).joined() } }

    private func listing(_ id: String, role: Role = .editor) throws -> LeagueListing {
        LeagueListing(
            id: try LeagueSlug(validating: id),
            name: id.prefix(1).uppercased() + id.dropFirst(),
            created: "2026-01-01T00:00:00Z",
            role: role
        )
    }

    @Test func theCursorStartsOnTheCurrentLeagueAndEnterOnAnotherChoosesIt() throws {
        var picker = LeaguePicker(current: try LeagueSlug(validating: "office"))
        picker.loaded([try listing("default"), try listing("office", role: .viewer), try listing("home")])
        #expect(picker.cursor == 1)
        #expect(picker.handle(.enter) == .close, "the league shown: nothing to switch")
        #expect(picker.handle(.down) == .stay)
        #expect(picker.handle(.down) == .stay, "the cursor stops at the last league")
        #expect(picker.handle(.enter) == .choose(try LeagueSlug(validating: "home")))
        #expect(picker.handle(.up) == .stay)
        #expect(picker.handle(.escape) == .close)
    }

    @Test func theLinesMarkTheCurrentLeagueAndTheCursor() throws {
        var picker = LeaguePicker(current: .default)
        #expect(texts(picker.lines(height: 10)).contains("  loading the leagues…"))
        picker.loaded([try listing("default", role: .admin), try listing("office")])
        let lines = picker.lines(height: 10)
        #expect(lines.count == 4)
        #expect(texts([lines[2]])[0].hasPrefix("  *  default  Default  admin"), "\(texts(lines))")
        #expect(lines[2].segments.first?.style == .selected)
        #expect(texts([lines[3]])[0].hasPrefix("     office   Office   editor"), "\(texts(lines))")
    }

    @Test func aFailureIsShownAndEscapeCloses() {
        var picker = LeaguePicker(current: .default)
        picker.failed("cannot connect to wss://a:7443")
        #expect(texts(picker.lines(height: 10)).contains("  cannot list the leagues: cannot connect to wss://a:7443"))
        #expect(picker.handle(.down) == .stay)
        #expect(picker.handle(.escape) == .close)
    }
}
