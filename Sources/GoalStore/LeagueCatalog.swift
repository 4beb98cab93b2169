public import GoalModel

/// The leagues a daemon (or a cluster sharing one database) serves, and the store of each.
///
/// The catalog lives in the home store: the store the daemon opened first, which holds the tokens and is the default
/// league's own store (so an existing state directory or database is the default league, its epoch, revisions and
/// digests intact). Every other league has a store of its own (`openLeague`): an SQLite file per league, or a
/// PostgreSQL schema per league, so commits of different leagues never share a write lock.
///
/// Threading: conformers are `Sendable`; every call is synchronous, may block on disk or the network, and may run on
/// any thread at the same time as any other call. Lifetime: the home store's.
public protocol LeagueCatalog: Sendable {
    /// Every league, the default league first (it always exists: its name is `LeagueInfo.defaultName` until renamed),
    /// then the others by slug.
    func leagues() throws(StorageError) -> [LeagueInfo]

    /// One league, or nil when there is none with this slug.
    func league(_ slug: LeagueSlug) throws(StorageError) -> LeagueInfo?

    /// Adds a league and creates its (empty) store, with a fresh epoch.
    /// - Throws: `leagueExists`, `defaultLeague` (the default league always exists).
    func createLeague(_ league: LeagueInfo) throws(StorageError)

    /// Gives a league a new display name (its slug, data and clients stay).
    /// - Returns: The league as stored afterwards.
    /// - Throws: `leagueNotFound`.
    func renameLeague(_ slug: LeagueSlug, to name: PlayerName) throws(StorageError) -> LeagueInfo

    /// Removes a league and all its data (its store file, or its schema). The caller first closed the league's
    /// store (`openLeague`) and makes sure nothing opens it again.
    /// - Throws: `leagueNotFound`, `defaultLeague`.
    func deleteLeague(_ slug: LeagueSlug) throws(StorageError)

    /// Opens the store of a league other than the default one (the home store is the default league's).
    /// - Throws: `leagueNotFound`, `defaultLeague`, or what opening the store throws.
    func openLeague(_ slug: LeagueSlug) throws(StorageError) -> any LeagueStorage
}
