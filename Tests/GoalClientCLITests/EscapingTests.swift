import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@testable import goal_client

@Suite("names from the server reach the terminal escaped", .serialized, .slotted)
struct EscapingTests {
    /// A store whose log holds one player named with a terminal escape sequence, a C1 CSI and a bidi override
    /// (names the server's own validation would refuse, as a hostile or older server might send).
    static func hostileStorage() throws -> (InMemoryLeagueStorage, String) {
        let storage = InMemoryLeagueStorage()
        let name = "Eve\u{1B}[2J\u{9B}31m\u{202E}x"
        let stamp = FieldStamp(revision: 1, writer: .server)
        let player = Player(id: PlayerID(), name: name, nameKey: "eve", created: stamp, nameStamp: stamp)
        let draft = Changeset(
            revision: 1,
            mutationID: nil,
            author: "seed\u{1B}]0;owned\u{7}",
            time: Timestamp(millisecondsSince1970: 1_767_225_600_000),
            action: .createPlayer(id: player.id, name: name),
            changes: [.playerUpserted(player), .ratingUpdated(Rating(playerID: player.id))],
            digest: .genesis
        )
        let frame = ChangesetFrame.encode(draft, previousDigest: .genesis)
        var committed = draft
        committed.digest = frame.digest
        try storage.append(StorageBatch(commits: [LoggedCommit(changeset: committed, frame: frame.bytes)]))
        return (storage, name)
    }

    @Test("players list, matches list, --json and tail never write ESC, C1 or bidi controls")
    func hostileName() async throws {
        let (storage, _) = try Self.hostileStorage()
        try await withTestDaemon(storage: storage) { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let list = try await client.run(["players", "list"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.lines[1].hasSuffix("Eve\\u{1B}[2J\\u{9B}31m\\u{202E}x"))
            let json = try await client.run(["players", "list", "--json"])
            #expect(json.stdout.contains("Eve\\u001b[2J\\u009b31m\\u202ex"))
            #expect(try jsonArray(json.stdout).first?["name"] as? String == "Eve\u{1B}[2J\u{9B}31m\u{202E}x")
            let tail = try client.start(["tail", "--since", "0"])
            let lines = await tail.waitForLines { !$0.isEmpty }
            #expect(lines.first?.contains("  r1     seed\\u{1B}]0;owned\\u{7}  ") == true, "\(lines)")
            #expect(await tail.end() == 0)
            for output in [list.stdout, json.stdout, tail.stdout] {
                #expect(!output.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" })
            }
        }
    }
}
