import Foundation
import Testing

/// Parses one JSON document printed by goal-client.
func jsonObject(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any], "not a JSON object: \(text)")
}

/// Parses a JSON array of objects printed by goal-client.
func jsonArray(_ text: String) throws -> [[String: Any]] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [[String: Any]], "not a JSON array of objects: \(text)")
}
