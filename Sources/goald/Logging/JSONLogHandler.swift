import Foundation
import GoalCommandLine
import GoalLocking
import GoalWire
import Logging

/// A swift-log handler writing one JSON object per line (`--log-format json`): `time` (ISO 8601, UTC, ms),
/// `level`, `label`, `message`, `source`, and every metadata key (nested values flattened to strings), plus
/// `error` when the event carries one.
///
/// Value semantics like every `LogHandler`; the output stream is shared and serialized by `JSONLogSink`'s lock.
struct JSONLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    private let label: String
    private let sink: JSONLogSink

    init(label: String, sink: JSONLogSink = .standardError) {
        self.label = label
        self.sink = sink
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            fields[key] = "\(value)"
        }
        fields["time"] = Date().formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)
        )
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        fields["source"] = event.source
        if let error = event.error { fields["error"] = "\(error)" }
        sink.write(Self.line(fields))
    }

    /// One JSON object, keys sorted by their UTF-8 bytes, no trailing newline; written straight into one buffer by
    /// GoalWire's JSON writer (`JSONText.stringObject`).
    static func line(_ fields: [String: String]) -> String {
        JSONText.stringObject(fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    }
}

/// Where JSON log lines go; one lock keeps lines whole when several threads log at once.
final class JSONLogSink: Sendable {
    private let write: LockedValue<@Sendable (String) -> Void>

    init(_ write: @escaping @Sendable (String) -> Void) { self.write = LockedValue(write) }

    static let standardError = JSONLogSink { line in
        StandardStreams.error(line)
    }

    func write(_ line: String) { write.withLock { $0(line) } }
}

/// Bootstraps swift-log once per process (only `serve` does; tests never do).
enum LogBootstrap {
    static func bootstrap(format: LogFormat, level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }
}
