import GoalClient
import GoalModel
import GoalReactive

/// SwiftGoal's shared list pattern over a `LeagueStore`: `active` and `refresh` inputs; `isLoading`, content
/// changes and alert messages as outputs; plus live updates, which SwiftGoal did not have.
///
/// - Refreshes every time `active` becomes true and every time `refresh()` is called (a newer refresh replaces
///   an older one). A refresh sets `isLoading`, asks the store to refresh, shows the replica's rows and always
///   sends their `RowChanges` (empty when nothing changed), then clears `isLoading`. A failed refresh sends the
///   error's description as an alert and still shows the replica (which stays valid; SwiftGoal emptied its list
///   because it had no replica).
/// - Once loaded and while active, every replica or pending-mutation change re-computes the rows and sends
///   their `RowChanges` if any row changed: another client's commit reaches the view without a refresh.
/// - The rows come from a `ListRowSource`: rebuilt and diffed against the rows shown (lists of about a thousand
///   rows), or patched by the source, which says exactly what changed and finds an entity's row in O(log n) (the
///   match list): then a live change costs O(k log n) for k changed rows, cursor included.
/// - `cursor` (the UI's selection) follows its entity whenever the rows change, and is updated before the
///   `RowChanges` are sent; see `ListCursor`. When another client removed the selected entity,
///   `selectionRemovedByOther` sends its last row (after the `RowChanges`).
/// - With `beforeUpdate`, live changes follow `store.updates` (each after the hook ran) instead of `store.replica`;
///   of a backlog batch (updates the replica already holds), only the last re-computes the rows.
///
/// Threading: `@MainActor`; the store must deliver its outputs on the main thread. Lifetime: observations end
/// with the feed.
@MainActor
final class ListFeed<Row: Identifiable & Equatable & Sendable> where Row.ID: Sendable {
    let active = MutableProperty(false)
    let isLoading: Property<Bool>
    let contentChanges: Signal<RowChanges, Never>
    let alertMessages: Signal<String, Never>
    let cursor: Property<ListCursor<Row.ID>>
    /// The selected row, as it was last shown, when another client removed its entity (the cursor moved on).
    let selectionRemovedByOther: Signal<Row, Never>
    /// The rows as shown.
    private(set) var rows = PersistentList<Row>()
    /// The rows as shown, as an array, for a rebuilt source (its diff, and its view model's `rows`); empty for a
    /// patched source.
    private(set) var rebuiltRows: [Row] = []
    /// The replica revision the rows were computed from (the `base` of edits made from this list).
    private(set) var shownRevision: Revision = 0
    /// Entities this client is removing: their leaving the list is not flagged on the cursor.
    var removingHere: Set<Row.ID> = []

    private let store: any LeagueStore
    private let source: ListRowSource<Row>
    private let loading = MutableProperty(false)
    private let cursorStorage = MutableProperty(ListCursor<Row.ID>())
    private let changesInput: Signal<RowChanges, Never>.Observer
    private let alertInput: Signal<String, Never>.Observer
    private let removedInput: Signal<Row, Never>.Observer
    private let currentRefresh = SerialDisposable()
    private let token = Lifetime.Token()
    private var loaded = false

    /// - Parameters:
    ///   - store: The league.
    ///   - beforeUpdate: When set, live updates follow `store.updates` instead of `store.replica`, and this runs
    ///     first for each update (the match list learns which of its pending mutations the replica now holds
    ///     before re-computing its rows, so an optimistic score is never shown counted twice).
    ///   - source: Where the rows of a replica with its pending mutations come from.
    init(
        store: any LeagueStore,
        beforeUpdate: ((ReplicaUpdate) -> Void)? = nil,
        source: ListRowSource<Row>
    ) {
        self.store = store
        self.source = source
        isLoading = Property(capturing: loading)
        cursor = Property(capturing: cursorStorage)
        (contentChanges, changesInput) = Signal.pipe()
        (alertMessages, alertInput) = Signal.pipe()
        (selectionRemovedByOther, removedInput) = Signal.pipe()
        let lifetime = Lifetime(token)
        lifetime += active.signal.observeValues { [weak self] isActive in
            if isActive { self?.refresh() }
        }
        if let beforeUpdate {
            lifetime += store.updates.observeValues { [weak self] update in
                beforeUpdate(update)
                // A backlog batch publishes the replica first, then its updates: the rows follow the last one, once
                // the hook has seen every update the replica holds.
                guard update.revision >= store.replica.value.revision else { return }
                self?.liveUpdate()
            }
        } else {
            lifetime += store.replica.signal.observeValues { [weak self] _ in self?.liveUpdate() }
        }
        lifetime += store.pendingMutations.signal.observeValues { [weak self] _ in self?.liveUpdate() }
        lifetime += currentRefresh
    }

    /// A feed whose rows are rebuilt by `makeRows` and diffed (`ListRowSource.rebuilt`).
    convenience init(
        store: any LeagueStore,
        beforeUpdate: ((ReplicaUpdate) -> Void)? = nil,
        makeRows: @escaping (ReplicaState, [PendingMutation]) -> [Row]
    ) {
        self.init(store: store, beforeUpdate: beforeUpdate, source: .rebuilt(makeRows))
    }

    /// Starts a refresh, replacing one in flight.
    func refresh() {
        loading.value = true
        currentRefresh.inner = store.refresh().start { [weak self] event in
            guard let self else { return }
            switch event {
            case .value:
                break
            case .failed(let error):
                alertInput.send(value: error.description)
                finishRefresh()
            case .completed:
                finishRefresh()
            case .interrupted:
                break
            }
        }
    }

    /// The row showing entity `id`, if any.
    func row(of id: Row.ID) -> Row? {
        index(of: id).map { rows[$0] }
    }

    /// The index of the row showing entity `id`, if any: O(log n) for a patched source, a scan otherwise.
    func index(of id: Row.ID) -> Int? {
        switch source {
        case .rebuilt: rebuiltRows.firstIndex { $0.id == id }
        case .patched(_, let index): index(id)
        }
    }

    /// The entity `id` as the list shows it now (nil if it does not).
    func shown(_ id: Row.ID) -> ShownEntity<Row.ID>? {
        row(of: id).map { ShownEntity(id: $0.id, revision: shownRevision) }
    }

    /// Puts the cursor on entity `id` (ignored if the list does not show it).
    func select(_ id: Row.ID) {
        var cursor = cursorStorage.value
        guard cursor.select(id, at: index(of: id)) else { return }
        cursorStorage.value = cursor
    }

    /// Moves the cursor by `delta` rows, clamped to the list.
    func moveCursor(by delta: Int) {
        var cursor = cursorStorage.value
        cursor.move(by: delta, in: rows.lazy.map(\.id))
        cursorStorage.value = cursor
    }

    /// Sends an alert message.
    func alert(_ message: String) {
        alertInput.send(value: message)
    }

    /// Re-computes the rows now (after a local change that affects them) and sends the changes if any.
    func reload() {
        guard loaded else { return }
        show(always: false)
    }

    private func finishRefresh() {
        loaded = true
        show(always: true)
        loading.value = false
    }

    private func liveUpdate() {
        guard loaded, active.value else { return }
        show(always: false)
    }

    private func show(always: Bool) {
        let replica = store.replica.value
        let pending = store.pendingMutations.value
        let old = rows
        let new: PersistentList<Row>
        let changes: RowChanges
        var cursor = cursorStorage.value
        let removingHere = self.removingHere
        switch source {
        case .rebuilt(let makeRows):
            let array = makeRows(replica, pending)
            changes = RowChanges(old: rebuiltRows, new: array)
            cursor.follow(from: rebuiltRows.map(\.id), to: array.map(\.id), removedHere: removingHere.contains)
            rebuiltRows = array
            new = PersistentList(array)
        case .patched(let patchRows, let index):
            (new, changes) = patchRows(replica, pending)
            cursor.follow(
                oldCount: old.count,
                oldID: { old[$0].id },
                newCount: new.count,
                newID: { new[$0].id },
                newIndex: index,
                removedHere: removingHere.contains
            )
        }
        let previous = cursorStorage.value
        let removed = cursor.removedByOther.flatMap { id in
            id == previous.removedByOther ? nil : Self.row(of: id, in: old, near: previous.row)
        }
        rows = new
        shownRevision = replica.revision
        if cursor != cursorStorage.value { cursorStorage.value = cursor }
        if always || !changes.isEmpty { changesInput.send(value: changes) }
        if let removed { removedInput.send(value: removed) }
    }

    /// The row of `id` in `rows`: at `row` when it is there (the cursor's old row), else found by a scan.
    private static func row(of id: Row.ID, in rows: PersistentList<Row>, near row: Int?) -> Row? {
        if let row, rows.indices.contains(row), rows[row].id == id { return rows[row] }
        return rows.first { $0.id == id }
    }
}
