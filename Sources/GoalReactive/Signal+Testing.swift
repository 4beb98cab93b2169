extension Signal {
    /// How many observers the signal has right now — for tests that check that observations end with their
    /// owner (a released view model leaves no observer on a store's properties). Not for production logic: the
    /// count changes as soon as another thread observes or disposes.
    @_spi(Testing) public var observerCount: Int { core.observerCount }
}
