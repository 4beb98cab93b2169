/// A disposable that disposes its inner disposable when it is deinitialized.
///
/// Keep it in a stored property to tie a subscription to the owner's lifetime. `isDisposed` mirrors the inner
/// disposable. `ScopedDisposable<CompositeDisposable>` supports `+=`.
///
/// Threading: as thread-safe as `Inner` (all library disposables are).
public final class ScopedDisposable<Inner: Disposable>: Disposable {
    /// The disposable disposed on deinit.
    public let inner: Inner

    /// Wraps `inner`.
    ///
    /// - Parameters:
    ///   - inner: Disposed when this object is disposed or deinitialized.
    public init(_ inner: Inner) {
        self.inner = inner
    }

    deinit {
        inner.dispose()
    }

    public var isDisposed: Bool { inner.isDisposed }

    public func dispose() { inner.dispose() }
}

extension ScopedDisposable where Inner == AnyDisposable {
    /// Wraps an arbitrary disposable.
    ///
    /// - Parameters:
    ///   - disposable: Disposed when this object is disposed or deinitialized.
    public convenience init(_ disposable: any Disposable) {
        self.init(AnyDisposable(disposable))
    }
}

extension ScopedDisposable where Inner == CompositeDisposable {
    /// Adds `rhs` to the inner composite; see ``CompositeDisposable/add(_:)-(Disposable?)``.
    @discardableResult
    public static func += (lhs: ScopedDisposable<CompositeDisposable>, rhs: (any Disposable)?) -> (any Disposable)? {
        lhs.inner.add(rhs)
    }

    /// Adds the action `rhs` to the inner composite.
    @discardableResult
    public static func += (lhs: ScopedDisposable<CompositeDisposable>, rhs: @escaping () -> Void) -> (any Disposable)? {
        lhs.inner.add(rhs)
    }
}
