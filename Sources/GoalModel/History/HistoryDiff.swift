/// Builds history entries from the changesets that wrote one entity: each changeset's version of the entity is
/// compared with the version the next older changeset left. Pure functions over model values (no encoding).
///
/// Stateless; `Sendable`.
public enum HistoryDiff {
    /// The entries of `entity` for changesets given newest first.
    /// - Parameters:
    ///   - entity: The entity.
    ///   - changesets: Changesets that wrote it, newest first. Only the first `limit` become entries; one more, when
    ///     given, is the predecessor of the last entry (its "before").
    ///   - limit: How many entries at most.
    /// - Returns: Up to `limit` entries, newest first; a changeset that does not write `entity` is skipped.
    public static func entries(of entity: EntityRef, newestFirst changesets: [Changeset], limit: Int) -> [HistoryEntry]
    {
        let versions = changesets.compactMap { changeset in
            entity.version(after: changeset.changes).map { (changeset, $0) }
        }
        var entries: [HistoryEntry] = []
        for (index, (changeset, version)) in versions.prefix(limit).enumerated() {
            let predecessor = index + 1 < versions.count ? versions[index + 1].1 : nil
            let (change, fields) = diff(before: predecessor, after: version, revision: changeset.revision)
            entries.append(
                HistoryEntry(
                    revision: changeset.revision,
                    time: changeset.time,
                    author: changeset.author,
                    clientInstance: changeset.mutationID?.instance,
                    action: changeset.action,
                    change: change,
                    fields: fields
                )
            )
        }
        return entries
    }

    /// The change from `before` to `after` at `revision`.
    ///
    /// With no `before` (or a deleted one), an entity created at `revision` is `created` with every field nil → value;
    /// otherwise its older versions were pruned, and the entry is `updated` with the fields whose stamps say
    /// `revision` wrote them, before unknown (nil).
    public static func diff(
        before: EntityVersion?,
        after: EntityVersion,
        revision: Revision
    ) -> (HistoryChangeKind, [FieldChange]) {
        let afterFields = fields(of: after)
        switch (before, after) {
        case (_, .deleted):
            let beforeFields = before.map(fields(of:)) ?? []
            return (.deleted, beforeFields.map { FieldChange(field: $0.0, before: $0.1, after: nil) })
        case (.player, _), (.match, _):
            let beforeFields = Dictionary(uniqueKeysWithValues: before.map(fields(of:)) ?? [])
            let changed = afterFields.filter { beforeFields[$0.0] != $0.1 }
            return (.updated, changed.map { FieldChange(field: $0.0, before: beforeFields[$0.0], after: $0.1) })
        case (nil, _), (.deleted, _):
            if created(after, at: revision) {
                return (.created, afterFields.map { FieldChange(field: $0.0, before: nil, after: $0.1) })
            }
            let written = afterFields.filter { stamp(of: $0.0, in: after)?.revision == revision }
            return (.updated, written.map { FieldChange(field: $0.0, before: nil, after: $0.1) })
        }
    }

    private static func fields(of version: EntityVersion) -> [(HistoryField, HistoryValue)] {
        switch version {
        case .player(let player):
            [(.name, .name(player.name))]
        case .match(let match):
            [
                (.homePlayers, .players(match.homePlayers)), (.awayPlayers, .players(match.awayPlayers)),
                (.homeGoals, .goals(match.homeGoals)), (.awayGoals, .goals(match.awayGoals)),
            ]
        case .deleted:
            []
        }
    }

    private static func created(_ version: EntityVersion, at revision: Revision) -> Bool {
        switch version {
        case .player(let player): player.created.revision == revision
        case .match(let match): match.created.revision == revision
        case .deleted: false
        }
    }

    private static func stamp(of field: HistoryField, in version: EntityVersion) -> FieldStamp? {
        switch version {
        case .player(let player): field == .name ? player.nameStamp : nil
        // A match's history fields are its `MatchField`s, by the same wire names.
        case .match(let match): MatchField(rawValue: field.rawValue).map { match.stamps[$0] }
        case .deleted: nil
        }
    }
}
