import Foundation
@_spi(Testing) import GoalServer

/// docs/openapi.yaml as the drift tests read it: the operations (path template, method) and each one's documented
/// response statuses. Value type; immutable.
struct OpenAPIDocumentModel {
    /// `"METHOD /api/v1/path/{id}"` (or `…/leagues/{league}/…`) → the documented statuses.
    let operations: [String: Set<Int>]

    /// The document goald serves (the embedded JSON), parsed once.
    static let served: OpenAPIDocumentModel = {
        let bytes = Data(RESTRouteTable.openAPIJSON.utf8)
        // An unreadable document has no operations, which the drift tests report.
        guard let object = try? JSONSerialization.jsonObject(with: bytes),  // reported by the drift tests
            let document = object as? [String: Any]
        else { return OpenAPIDocumentModel(operations: [:]) }
        return OpenAPIDocumentModel(document: document)
    }()

    init(operations: [String: Set<Int>]) { self.operations = operations }

    init(document: [String: Any]) {
        var operations: [String: Set<Int>] = [:]
        let paths = document["paths"] as? [String: Any] ?? [:]
        for (path, item) in paths {
            for (method, operation) in item as? [String: Any] ?? [:] where method != "parameters" {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                operations["\(method.uppercased()) \(path)"] = Set(responses.keys.compactMap { Int($0) })
            }
        }
        self.operations = operations
    }

    /// The operations the router answers, from its own table, in the same form.
    static var routerOperations: Set<String> {
        Set(RESTRouteTable.routes.flatMap { route in route.methods.map { "\($0) \(route.path)" } })
    }

    /// Every way the router and this document disagree (empty: they agree): an operation on one side only, a
    /// documented operation the router does not handle, a 405 `Allow` that is not the documented method list, an
    /// operation without a 2xx.
    func differences() -> [String] {
        var found: [String] = []
        let documented = Set(operations.keys)
        let routed = Self.routerOperations
        for operation in routed.subtracting(documented).sorted() { found.append("undocumented route: \(operation)") }
        for operation in documented.subtracting(routed).sorted() {
            found.append("documented, not routed: \(operation)")
        }
        let templates = Set(documented.union(routed).map { String($0.split(separator: " ")[1]) })
        for template in templates.sorted() {
            let path = template.replacingOccurrences(of: "{id}", with: UUID().uuidString.lowercased())
                .replacingOccurrences(of: "{league}", with: "office")
            let methods = documented.filter { $0.hasSuffix(" " + template) }.map { String($0.split(separator: " ")[0]) }
            for method in ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"] {
                let answer = RESTRouteTable.resolve(method: method, path: path)
                if methods.contains(method) {
                    if answer != "handled" { found.append("\(method) \(template) is documented but answers \(answer)") }
                } else if !answer.hasPrefix("405 ") {
                    found.append("\(method) \(template) is not documented but answers \(answer)")
                } else {
                    let allow = Set(
                        answer.dropFirst(4).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    )
                    if allow != Set(methods) {
                        found.append("\(template): Allow \(allow.sorted()) ≠ documented \(methods.sorted())")
                    }
                }
            }
        }
        for (operation, statuses) in operations where !statuses.contains(where: { (200..<300).contains($0) }) {
            found.append("\(operation) documents no 2xx")
        }
        return found
    }

    /// The documented statuses of the operation `method` on a concrete `path` (`/api/v1/…`, query ignored), or nil
    /// when no documented operation matches (an unknown route or a method the path does not take).
    func statuses(method: String, path: String) -> Set<Int>? {
        let parts = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        let segments = parts.split(separator: "/", omittingEmptySubsequences: true)
        for (operation, statuses) in operations {
            let pieces = operation.split(separator: " ", maxSplits: 1)
            guard pieces[0] == method else { continue }
            let template = pieces[1].split(separator: "/", omittingEmptySubsequences: true)
            guard template.count == segments.count else { continue }
            if zip(template, segments).allSatisfy({ $0.hasPrefix("{") || $0 == $1 }) { return statuses }
        }
        return nil
    }
}
