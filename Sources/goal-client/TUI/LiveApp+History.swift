import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalViewModels
import GoalWire

/// The history pane (`h`): opens on the selected row, follows the selection while open, closes on `h` again.
extension LiveApp {
    /// How many lines the pane takes under the list, when it is open.
    static let historyPaneHeight = 9

    /// `h`: closes the pane, or opens it on the selected row.
    func toggleHistory() {
        if historyPane != nil {
            historyPane = nil
        } else {
            followSelectionWithHistory(force: true)
        }
        setNeedsDisplay()
    }

    /// While the pane is open, shows the history of the row now selected (after a key moved the selection).
    func followSelectionWithHistory(force: Bool = false) {
        guard force || historyPane != nil else { return }
        guard let entity = selectedEntity() else {
            historyPane = nil
            return
        }
        guard historyPane?.entity != entity else { return }
        historyPane = HistoryPane(entity: entity)
        load(entity)
    }

    private func selectedEntity() -> EntityRef? {
        switch tab {
        case .matches: matches.cursor.value.id.map(EntityRef.match)
        case .rankings: rankings.cursor.value.id.map(EntityRef.player)
        case .players: players.cursor.value.id.map(EntityRef.player)
        }
    }

    /// The entry rows the pane shows at once (its height less the title and the footer): a page's `limit`.
    var historyRows: Int {
        let bodyHeight = max(Terminal.size.rows - Self.chromeRows, 1)
        return max(min(Self.historyPaneHeight, bodyHeight / 2) - 2, 1)
    }

    private func load(_ entity: EntityRef) {
        let client = store.client
        client.history(HistoryRequest(entity: entity, limit: historyRows)).observe(on: QueueScheduler.main)
            .startWithResult { [weak self] result in
                MainActor.assumeIsolated {
                    guard let self, self.historyPane?.entity == entity else { return }
                    switch result {
                    case .success(let page):
                        self.historyPane?.append(page)
                        self.loadDate(entity, page: page)
                    case .failure(let error):
                        self.historyPane?.content = .failed(error.description)
                    }
                    self.setNeedsDisplay()
                }
            }
    }

    /// `]` (older) and `[` (newer) while the pane is open: shows the next page of entries, asking the server for
    /// the next older page (the last one's `next_before`) once the loaded entries run out.
    func pageHistory(older: Bool) {
        guard let entity = historyPane?.entity else { return }
        let rows = historyRows
        defer { setNeedsDisplay() }
        guard let request = historyPane?.page(older: older, rows: rows) else { return }
        store.client.history(request).observe(on: QueueScheduler.main).startWithResult { [weak self] result in
            MainActor.assumeIsolated {
                guard let self, self.historyPane?.entity == entity else { return }
                switch result {
                case .success(let page): self.historyPane?.appendOlder(page, rows: rows)
                case .failure(let error): self.historyPane?.olderFailed(error.description)
                }
                self.setNeedsDisplay()
            }
        }
    }

    /// A match's date when the first page did not reach its creation (`HistoryPane.append` dates it then): the
    /// match list's row when it knows it, else one request for the creating revision.
    private func loadDate(_ entity: EntityRef, page: HistoryPageMessage) {
        guard case .match(let id) = entity, historyPane?.played == nil else { return }
        if let created = matches.row(for: id)?.created {
            historyPane?.played = created
            return
        }
        guard page.nextBefore != nil, let match = store.client.replica.value.matches[id] else { return }
        let request = HistoryRequest(entity: entity, before: match.created.revision + 1, limit: 1)
        store.client.history(request).observe(on: QueueScheduler.main).startWithResult { [weak self] result in
            MainActor.assumeIsolated {
                guard let self, self.historyPane?.entity == entity, case .success(let older) = result,
                    let created = older.entries.first, created.change == .created
                else { return }
                self.historyPane?.played = created.time
                self.setNeedsDisplay()
            }
        }
    }
}
