import Foundation
import GoalModel

/// The exactly-once table's `results` column: the kept entries of one `ClientRecord` as a JSON array of
/// `{"seq":n,"fingerprint":"<16 hex>","outcome":{…}}`, the outcome in its wire shape (`MutationOutcome`'s
/// `Codable`, snake_case), so a rejection keeps its code, fields and current entity across restarts.
enum ClientRecordCoding {
    private struct StoredEntry: Codable {
        var seq: UInt64
        var fingerprint: String
        var outcome: MutationOutcome
    }

    static func encode(_ record: ClientRecord, with encoder: JSONEncoder) throws -> Data {
        try encoder.encode(
            record.results.map {
                StoredEntry(seq: $0.seq, fingerprint: $0.fingerprint.description, outcome: $0.outcome)
            }
        )
    }

    static func decode(
        instance: ClientInstanceID,
        lastSeq: UInt64,
        results: Data,
        with decoder: JSONDecoder
    ) throws(StorageError) -> ClientRecord {
        let stored: [StoredEntry]
        do {
            stored = try decoder.decode([StoredEntry].self, from: results)
        } catch {
            throw .inconsistent("the exactly-once record of \(instance) cannot be decoded: \(error)")
        }
        var entries: [ClientRecord.Entry] = []
        entries.reserveCapacity(stored.count)
        for entry in stored {
            guard let fingerprint = UInt64(entry.fingerprint, radix: 16) else {
                throw .inconsistent("the exactly-once record of \(instance) has a bad fingerprint")
            }
            entries.append(
                ClientRecord.Entry(
                    seq: entry.seq,
                    fingerprint: PayloadFingerprint(rawValue: fingerprint),
                    outcome: entry.outcome
                )
            )
        }
        return ClientRecord(instance: instance, lastSeq: lastSeq, results: entries)
    }
}
