import Foundation
import GoalTestSlots
import GoalWire
import Testing

@testable import goal_load

/// goal-load's `--json` report is written by GoalWire's JSON writer: every field of `LoadReport` under its property
/// name (nil ones left out), keys sorted, numbers as they were. A field added to the report and not to its JSON fails
/// here.
@Suite("goal-load's --json report", .slotted)
struct ReportJSONTests {
    static func report(optionals: Bool) -> LoadReport {
        let latency = LoadReport.Latency(
            samples: 1_000,
            p50Milliseconds: 10.25,
            p90Milliseconds: 12,
            p99Milliseconds: 23.5,
            p999Milliseconds: 30.125,
            maxMilliseconds: 41
        )
        let cpu = LoadReport.CPU(
            seconds: 2.5,
            percentOfCore: 91.3,
            rssBytes: 12_345_678,
            microsecondsPerDelivery: optionals ? 3.79 : nil
        )
        return LoadReport(
            setup: LoadReport.Setup(
                scenario: "fanout",
                url: "wss://127.0.0.1:7443,wss://127.0.0.2:7444",
                subscribers: 1_000,
                writers: 4,
                rate: 250,
                window: 8,
                durationSeconds: 10,
                mix: "create=1,adjust=6",
                sampledSubscribers: 3,
                threads: 2,
                protocolVersion: 2,
                deflate: true,
                openFileLimit: 1_048_576,
                loadAverage: "0.52 0.58 0.59 1/123 4567"
            ),
            measuredSeconds: 10.000_5,
            connections: LoadReport.Connections(
                subscribersConnected: 1_000,
                subscribersNeverConnected: 0,
                writersConnected: 4,
                failedAttempts: 1,
                subscriberReconnects: 2,
                writerReconnects: 0,
                churnResumes: 0,
                slowConsumerCloses: 0,
                connectSeconds: 1.25
            ),
            commits: LoadReport.Commits(
                sent: 2_500,
                accepted: 2_370,
                acceptedPerSecond: 237,
                noops: 3,
                rejections: ["conflict": 127, "base_ahead": 0],
                rateLimited: 0,
                overloaded: 0,
                unanswered: 0,
                sentByKind: ["adjust": 1_500, "create": 250]
            ),
            deliveries: LoadReport.Deliveries(
                total: 2_370_000,
                perSecond: 237_000.5,
                bytes: 400_000_000,
                bytesPerSecond: 4e7
            ),
            latency: latency,
            latencyByNode: optionals ? LoadReport.LatencyByNode(writersNode: latency, otherNodes: latency) : nil,
            loadProcess: cpu,
            daemon: optionals ? cpu : nil,
            idle: optionals
                ? LoadReport.Idle(
                    connections: 10,
                    daemonRSSBeforeBytes: 1,
                    daemonRSSAfterBytes: 2,
                    bytesPerConnection: 0.1
                ) : nil,
            catchup: optionals ? LoadReport.Catchup(changesets: 100, seconds: 0.5, changesetsPerSecond: 200) : nil,
            convergence: LoadReport.Convergence(
                head: 2_370,
                headDigest: "ab12",
                subscribersChecked: 1_000,
                subscribersAtHead: 1_000,
                digestMismatches: 0,
                streamProblems: 0,
                sampledReplicasChecked: 3,
                replicaMismatches: 0,
                converged: true,
                problems: ["a \"quoted\" problem"]
            ),
            nodes: [
                LoadReport.Node(
                    url: "wss://127.0.0.1:7443",
                    subscribers: 500,
                    writers: 2,
                    subscribersAtHead: 500,
                    head: optionals ? 2_370 : nil,
                    headDigest: optionals ? "ab12" : nil
                )
            ],
            leagues: optionals
                ? [
                    LoadReport.League(
                        id: "load-1",
                        subscribers: 250,
                        writers: 1,
                        convergence: LoadReport.Convergence(
                            head: 12,
                            headDigest: "cd34",
                            subscribersChecked: 250,
                            subscribersAtHead: 250,
                            digestMismatches: 0,
                            streamProblems: 0,
                            sampledReplicasChecked: 1,
                            replicaMismatches: 0,
                            converged: true,
                            problems: []
                        )
                    )
                ] : nil
        )
    }

    @Test("every field is written under its property name; a nil field is left out", arguments: [false, true])
    func everyFieldByName(optionals: Bool) throws {
        let report = Self.report(optionals: optionals)
        let text = report.document.indentedJSON
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        try Self.expectFields(of: report, in: object, path: "report")
    }

    @Test("values read back as written: numbers, strings, counts, nested objects")
    func valuesReadBack() throws {
        let text = Self.report(optionals: true).document.indentedJSON
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["measuredSeconds"] as? Double == 10.000_5)
        let setup = try #require(object["setup"] as? [String: Any])
        #expect(setup["url"] as? String == "wss://127.0.0.1:7443,wss://127.0.0.2:7444")
        #expect(setup["deflate"] as? Bool == true)
        #expect(setup["openFileLimit"] as? Int == 1_048_576)
        let commits = try #require(object["commits"] as? [String: Any])
        #expect(commits["rejections"] as? [String: Int] == ["conflict": 127, "base_ahead": 0])
        let deliveries = try #require(object["deliveries"] as? [String: Any])
        #expect(deliveries["perSecond"] as? Double == 237_000.5)
        let convergence = try #require(object["convergence"] as? [String: Any])
        #expect(convergence["problems"] as? [String] == ["a \"quoted\" problem"])
        #expect(convergence["converged"] as? Bool == true)
        #expect(text.contains("\n  \"catchup\" : {\n    \"changesets\" : 100,"))  // indented, sorted keys
        // A whole Double without ".0", as JSONEncoder wrote it.
        #expect(text.contains("\"bytesPerSecond\" : 40000000,"))
    }

    /// Checks that `object` holds exactly the non-nil stored properties of `value`, recursively.
    private static func expectFields(of value: Any, in object: [String: Any], path: String) throws {
        var expected: Set<String> = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label, let present = unwrapped(child.value) else { continue }
            expected.insert(label)
            let field = "\(path).\(label)"
            if Mirror(reflecting: present).displayStyle == .struct {
                let nested = try #require(object[label] as? [String: Any], "\(field) is not an object")
                try expectFields(of: present, in: nested, path: field)
            } else if let elements = present as? [Any], let first = elements.first,
                Mirror(reflecting: first).displayStyle == .struct
            {
                let nested = try #require(object[label] as? [[String: Any]], "\(field) is not an array of objects")
                for (element, json) in zip(elements, nested) { try expectFields(of: element, in: json, path: field) }
            }
        }
        #expect(Set(object.keys) == expected, "\(path)")
    }

    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map(\.value)
    }
}
