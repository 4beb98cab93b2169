/// A disposable that owns other disposables and disposes all of them, once, when it is disposed.
///
/// - Every `add` returns a *removal handle*: disposing the handle removes that entry from the composite
///   **without** disposing the entry.
/// - Adding to an already-disposed composite disposes the added item at once and returns `nil`.
/// - `dispose()` disposes the members in insertion order, outside the internal lock, exactly once.
///
/// Threading: thread-safe; members may be added, removed and disposed concurrently.
public final class CompositeDisposable: Disposable, @unchecked Sendable {
    // `@unchecked Sendable`: `members` and `disposed` are only touched under `lock`.
    private let lock = Lock()
    private var members = Bag<any Disposable>()
    private var disposed = false

    /// Creates an empty composite.
    public init() {}

    /// Creates a composite owning `disposables`.
    ///
    /// - Parameters:
    ///   - disposables: The initial members, disposed in this order.
    public init<S: Sequence>(_ disposables: S) where S.Element == any Disposable {
        for disposable in disposables { members.insert(disposable) }
    }

    /// Creates a composite owning the non-nil elements of `disposables`.
    ///
    /// - Parameters:
    ///   - disposables: The initial members; `nil`s are skipped.
    public convenience init<S: Sequence>(_ disposables: S) where S.Element == (any Disposable)? {
        self.init(disposables.compactMap { $0 })
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    public func dispose() {
        let toDispose: [any Disposable]? = lock.withLock {
            guard !disposed else { return nil }
            disposed = true
            return members.removeAll()
        }
        for disposable in toDispose ?? [] { disposable.dispose() }
    }

    /// Adds `disposable` so that it is disposed together with the composite.
    ///
    /// - Parameters:
    ///   - disposable: The member to add; `nil` is ignored.
    /// - Returns: A handle that removes the member again without disposing it, or `nil` if `disposable` was
    ///   `nil` or the composite was already disposed (in which case `disposable` has been disposed now).
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> (any Disposable)? {
        guard let disposable else { return nil }
        let token: Bag<any Disposable>.Token? = lock.withLock {
            disposed ? nil : members.insert(disposable)
        }
        guard let token else {
            disposable.dispose()
            return nil
        }
        return AnyDisposable { [weak self] in
            guard let self else { return }
            self.lock.withLock { _ = self.members.remove(using: token) }
        }
    }

    /// Adds an action that runs when the composite is disposed. Not optional (as in ReactiveSwift), so that
    /// `add(nil)` names the disposable overload instead of being ambiguous.
    ///
    /// - Parameters:
    ///   - action: Run exactly once on disposal.
    /// - Returns: A removal handle, or `nil` if the composite was already disposed (`action` has run now).
    @discardableResult
    public func add(_ action: @escaping () -> Void) -> (any Disposable)? {
        add(AnyDisposable(action))
    }

    /// Adds `rhs` to `lhs`; see ``add(_:)-(Disposable?)``.
    @discardableResult
    public static func += (lhs: CompositeDisposable, rhs: (any Disposable)?) -> (any Disposable)? {
        lhs.add(rhs)
    }

    /// Adds the action `rhs` to `lhs`; see ``add(_:)-(()->Void)``.
    @discardableResult
    public static func += (lhs: CompositeDisposable, rhs: @escaping () -> Void) -> (any Disposable)? {
        lhs.add(rhs)
    }
}
