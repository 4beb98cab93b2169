import GoalModel

/// The JSON of the `history` request and answer (docs/PROTOCOL.md §4).
extension JSONWriter {
    mutating func historyRequestMembers(_ request: HistoryRequest) {
        entityMembers(request.entity)
        if let before = request.before {
            raw(#","before":"#)
            integer(before)
        }
        if let limit = request.limit {
            raw(#","limit":"#)
            integer(limit)
        }
    }

    mutating func historyAnswerMembers(_ answer: HistoryAnswer) {
        entityMembers(answer.entity)
        switch answer.result {
        case .page(let page):
            raw(#","entries":["#)
            for (index, entry) in page.entries.enumerated() {
                if index > 0 { byte(UInt8(ascii: ",")) }
                historyEntry(entry)
            }
            byte(UInt8(ascii: "]"))
            if let next = page.nextBefore {
                raw(#","next_before":"#)
                integer(next)
            }
            if let from = page.retainedFrom {
                raw(#","retained_from":"#)
                integer(from)
            }
            raw(#","pruned":"#)
            boolean(page.pruned)
        case .refused(let code, let message):
            raw(#","refused":"#)
            string(code.rawValue)
            raw(#","message":"#)
            string(message)
        }
    }

    private mutating func entityMembers(_ entity: EntityRef) {
        raw(#","entity":"#)
        string(entity.kind)
        raw(#","id":"#)
        string(entity.id)
    }

    private mutating func historyEntry(_ entry: HistoryEntry) {
        raw(#"{"revision":"#)
        integer(entry.revision)
        raw(#","time":"#)
        integer(entry.time.millisecondsSince1970)
        raw(#","author":"#)
        string(entry.author)
        if let instance = entry.clientInstance {
            raw(#","client_instance":"#)
            string(instance.rawValue)
        }
        if let action = entry.action {
            raw(#","action":"#)
            self.action(action)
        }
        raw(#","change":"#)
        string(entry.change.rawValue)
        raw(#","fields":["#)
        for (index, field) in entry.fields.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            raw(#"{"field":"#)
            string(field.field.rawValue)
            if let before = field.before {
                raw(#","before":"#)
                historyValue(before)
            }
            if let after = field.after {
                raw(#","after":"#)
                historyValue(after)
            }
            byte(UInt8(ascii: "}"))
        }
        raw("]}")
    }

    private mutating func historyValue(_ value: HistoryValue) {
        switch value {
        case .name(let name): string(name)
        case .goals(let goals): integer(goals)
        case .players(let players): strings(players.map(\.description))
        }
    }
}

/// Reading the `history` request and answer.
enum HistoryReader {
    static func request(_ object: JSONObject) throws(WireDecodingError) -> HistoryRequest {
        HistoryRequest(
            entity: try entity(object),
            before: try object.member("before").map { (value) throws(WireDecodingError) in
                try ClientMessage.signed64Bound(value, at: object.path("before"))
            },
            limit: try object.optionalInteger("limit")
        )
    }

    static func answer(_ object: JSONObject) throws(WireDecodingError) -> HistoryAnswer {
        let entity = try entity(object)
        if object.contains("refused") {
            return HistoryAnswer(
                entity: entity,
                result: .refused(try object.enumeration("refused"), message: try object.string("message"))
            )
        }
        let page = HistoryPageMessage(
            entries: try object.read("entries") { (value, path) throws(WireDecodingError) in
                try JSONReader.array(value, at: path) { (value, path) throws(WireDecodingError) in
                    try entry(try JSONObject(value, at: path))
                }
            },
            nextBefore: try object.optionalInteger("next_before"),
            retainedFrom: try object.optionalInteger("retained_from"),
            pruned: try object.read("pruned", JSONReader.bool)
        )
        return HistoryAnswer(entity: entity, result: .page(page))
    }

    private static func entity(_ object: JSONObject) throws(WireDecodingError) -> EntityRef {
        switch try object.discriminator("entity", among: ["match", "player"]) {
        case "match": .match(try object.read("id", ModelReader.matchID))
        default: .player(try object.read("id", ModelReader.playerID))
        }
    }

    private static func entry(_ object: JSONObject) throws(WireDecodingError) -> HistoryEntry {
        HistoryEntry(
            revision: try object.integer("revision"),
            time: try object.read("time", ModelReader.timestamp),
            author: try object.string("author"),
            clientInstance: try object.readIfPresent("client_instance", ModelReader.instance),
            action: try object.readIfPresent("action") { (value, path) throws(WireDecodingError) in
                try ModelReader.action(try JSONObject(value, at: path))
            },
            change: try object.enumeration("change"),
            fields: try object.read("fields") { (value, path) throws(WireDecodingError) in
                try JSONReader.array(value, at: path) { (value, path) throws(WireDecodingError) in
                    try fieldChange(try JSONObject(value, at: path))
                }
            }
        )
    }

    private static func fieldChange(_ object: JSONObject) throws(WireDecodingError) -> FieldChange {
        let field: HistoryField = try object.enumeration("field")
        func value(_ key: String) throws(WireDecodingError) -> HistoryValue? {
            try object.readIfPresent(key) { (value, path) throws(WireDecodingError) in
                switch field {
                case .name: .name(try JSONReader.string(value, at: path))
                case .homeGoals, .awayGoals: .goals(try JSONReader.integer(value, at: path))
                case .homePlayers, .awayPlayers: .players(try ModelReader.playerIDs(value, at: path))
                }
            }
        }
        return FieldChange(field: field, before: try value("before"), after: try value("after"))
    }
}
