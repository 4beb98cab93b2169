import Foundation
import GoalModel
import GoalWire

/// The exactly-once table's `results` column: the kept entries of one `ClientRecord` in GoalWire's JSON form
/// (`ClientResultsCoding`: `[{"fingerprint":"<16 hex>","outcome":{…},"seq":n}]`, the outcome in its wire shape),
/// so a rejection keeps its code, fields and current entity across restarts. GoalWire owns every encoding of
/// model values; this type only maps its errors to `StorageError`.
enum ClientRecordCoding {
    static func encode(_ record: ClientRecord) -> Data {
        Data(ClientResultsCoding.encode(record.results))
    }

    static func decode(
        instance: ClientInstanceID,
        lastSeq: UInt64,
        results: Data,
        lastUsed: Timestamp
    ) throws(StorageError) -> ClientRecord {
        do {
            let entries = try ClientResultsCoding.decode([UInt8](results))
            return ClientRecord(instance: instance, lastSeq: lastSeq, results: entries, lastUsed: lastUsed)
        } catch {
            throw .inconsistent("the exactly-once record of \(instance) cannot be decoded: \(error)")
        }
    }
}
