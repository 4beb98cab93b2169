import Foundation
import GoalTestSlots
import Logging
import Synchronization
import Testing

@testable import goald

@Suite("Output formats: JSON log lines and dial addresses", .slotted)
struct OutputFormatTests {
    @Test("a JSON log line is one object with time, level, label, message, source and the metadata")
    func jsonLogLine() throws {
        let lines = Mutex<[String]>([])
        let sink = JSONLogSink { line in lines.withLock { $0.append(line) } }
        var logger = Logger(label: "goald") { label in JSONLogHandler(label: label, sink: sink) }
        logger[metadataKey: "goal.session.id"] = "7"
        logger.logLevel = .notice
        logger.info("dropped below the level")
        logger.notice("goald.test.event", metadata: ["goal.detail": "a \"quoted\" value\nover two lines"])
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["level"] == "notice")
        #expect(object["label"] == "goald")
        #expect(object["message"] == "goald.test.event")
        #expect(object["goal.session.id"] == "7")
        #expect(object["goal.detail"] == "a \"quoted\" value\nover two lines")
        #expect(object["source"] == "GoaldTests")
        let time = try #require(object["time"])
        #expect(time.hasSuffix("Z") && time.contains("T") && time.contains("."))
        #expect(line.hasPrefix("{\"goal.detail\""))  // keys sorted
    }

    @Test(
        "clients dial loopback for a wildcard bind and bracket IPv6",
        arguments: [
            ("0.0.0.0", "wss://127.0.0.1:7443"), ("::", "wss://[::1]:7443"), ("127.0.0.1", "wss://127.0.0.1:7443"),
            ("2001:db8::5", "wss://[2001:db8::5]:7443"), ("goal.example.com", "wss://goal.example.com:7443"),
        ]
    )
    func dialAddress(host: String, url: String) {
        #expect(ConnectInstructions.serverURL(host: host, port: 7443) == url)
    }
}
