import Foundation
import GoalTestSlots
import GoalWire
import Testing

/// The one JSON writer writes what the command-line tools used to get from Foundation's `JSONEncoder` (goal-load's
/// `--json` report, `goald token list --json`, goald's JSON log lines): the same numbers, key order and layout.
/// Foundation is the oracle here only; the tools no longer use it for JSON.
@Suite("JSON documents: numbers, sorted keys and the indented layout match JSONEncoder", .slotted)
struct JSONDocumentLayoutTests {
    private struct Sample: Encodable {
        var p99Milliseconds: Double
        var p999Milliseconds: Double
        var Zed: Int
        var alpha: [String]
        var counts: [String: Int]
        var nested: [[String: UInt64]]
        var flag: Bool
    }

    @Test(
        "a number is written in the shortest form that reads back, as JSONEncoder writes it",
        arguments: [
            0.0, 3.0, -2.0, 0.1, -0.5, 1234567.891, 0.30000000000000004, 1e-7, 2.5e-5, 0.0001, 1e15, 1e16, 1e20,
            1.2345678901234568e+17, 9007199254740992.0, 237185.33333333334, 100.0,
        ]
    )
    func numberMatchesFoundation(value: Double) throws {
        let foundation = String(decoding: try JSONEncoder().encode([value]), as: UTF8.self)
        #expect(JSONDocument.array([.number(value)]).json == foundation)
        #expect(Double(JSONDocument.number(value).json) == value, "reads back as the same Double")
    }

    @Test("a number that is not finite is written as null (JSON has neither NaN nor infinity)")
    func nonFiniteNumber() {
        #expect(
            JSONDocument.array([.number(.nan), .number(.infinity), .number(-.infinity)]).json == "[null,null,null]"
        )
    }

    @Test("sortedObject orders keys by their UTF-8 bytes, as JSONEncoder's sortedKeys does")
    func sortedKeys() throws {
        let keys = ["b", "B", "a10", "a9", "p99Milliseconds", "p999Milliseconds", "é", "z"]
        let document = JSONDocument.sortedObject(Dictionary(uniqueKeysWithValues: keys.map { ($0, .int(1)) }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let foundation = String(
            decoding: try encoder.encode(Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) })),
            as: UTF8.self
        )
        #expect(document.json == foundation)
        #expect(document.json.hasPrefix(#"{"B":1,"a10":1,"a9":1,"b":1,"p999Milliseconds":1,"#))
    }

    @Test("the indented layout is JSONEncoder's prettyPrinted layout, byte for byte")
    func indentedMatchesFoundation() throws {
        let sample = Sample(
            p99Milliseconds: 23.5,
            p999Milliseconds: 3,
            Zed: -2,
            alpha: ["one", "a \"quoted\" line\nand a tab\t"],
            counts: ["conflict": 3, "base_ahead": 0],
            nested: [["head": 7], ["head": 8, "digest": 9]],
            flag: true
        )
        let document = JSONDocument.sortedObject([
            "p99Milliseconds": .number(sample.p99Milliseconds),
            "p999Milliseconds": .number(sample.p999Milliseconds),
            "Zed": .int(sample.Zed),
            "alpha": .array(sample.alpha.map(JSONDocument.string)),
            "counts": .sortedObject(sample.counts.mapValues { .int($0) }),
            "nested": .array(sample.nested.map { .sortedObject($0.mapValues { .uint($0) }) }),
            "flag": .bool(sample.flag),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        #expect(document.indentedJSON == String(decoding: try encoder.encode(sample), as: UTF8.self))
    }

    @Test("empty arrays and objects stay [] and {} when indented; a scalar document is its compact form")
    func indentedEmptyContainers() {
        #expect(JSONDocument.array([]).indentedJSON == "[]")
        #expect(
            JSONDocument.object([("a", .array([])), ("b", .object([]))]).indentedJSON
                == "{\n  \"a\" : [],\n  \"b\" : {}\n}"
        )
        #expect(JSONDocument.string("x/y").indentedJSON == "\"x/y\"")
    }

    @Test("a flat string object is compact JSON in the order given, escaped as every frame is")
    func stringObject() throws {
        let text = JSONText.stringObject([
            (key: "b", value: "a \"quoted\" value\nover two lines"), (key: "a", value: "\u{1}/\\é"),
        ])
        #expect(text == #"{"b":"a \"quoted\" value\nover two lines","a":"\u0001/\\é"}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        #expect(object == ["b": "a \"quoted\" value\nover two lines", "a": "\u{1}/\\é"])
        #expect(JSONText.stringObject([]) == "{}")
    }
}
