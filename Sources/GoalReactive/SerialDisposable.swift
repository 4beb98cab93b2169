/// A disposable holding at most one inner disposable, which it replaces and disposes on assignment.
///
/// - Assigning `inner` disposes the previous inner (even when the new value is `nil` or the same object).
/// - After the serial disposable itself is disposed, any newly assigned inner is disposed at once.
/// - Setting `inner = nil` does not dispose the serial disposable.
///
/// Threading: thread-safe. Disposal of replaced inners happens outside the internal lock on the assigning thread.
public final class SerialDisposable: Disposable, @unchecked Sendable {
    // `@unchecked Sendable`: `current` and `disposed` are only touched under `lock`.
    private let lock = Lock()
    private var current: (any Disposable)?
    private var disposed = false

    /// Creates a serial disposable, optionally with an initial inner disposable.
    ///
    /// - Parameters:
    ///   - inner: The initial inner disposable.
    public init(_ inner: (any Disposable)? = nil) {
        self.current = inner
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// The current inner disposable. Setting it disposes the previous one.
    public var inner: (any Disposable)? {
        get { lock.withLock { current } }
        set {
            let (old, disposeNew): ((any Disposable)?, Bool) = lock.withLock {
                let old = current
                current = disposed ? nil : newValue
                return (old, disposed)
            }
            old?.dispose()
            if disposeNew { newValue?.dispose() }
        }
    }

    public func dispose() {
        let old: (any Disposable)?? = lock.withLock {
            guard !disposed else { return .none }
            disposed = true
            defer { current = nil }
            return .some(current)
        }
        if case let .some(inner) = old { inner?.dispose() }
    }
}
