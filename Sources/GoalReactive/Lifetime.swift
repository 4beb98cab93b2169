/// Represents how long some object (its *owner*) lives, and lets others attach cleanup to its end.
///
/// A lifetime ends exactly once: when its ``Token`` is deinitialized or disposed, or — for a signal's
/// lifetime — when the signal terminates or is disposed. At that moment every action registered with
/// ``observeEnded(_:)`` runs and every disposable added with `+=` is disposed, in registration order.
/// Registering on an already-ended lifetime runs the action (or disposes the disposable) immediately.
///
/// A `Lifetime` does not retain its token, so handing the lifetime out never extends the owner's life:
///
/// ```swift
/// final class ViewModel {
///     let lifetime: Lifetime
///     private let token: Lifetime.Token
///     init() { (lifetime, token) = Lifetime.make() }
/// }
/// ```
///
/// Threading: thread-safe. End-of-life actions run synchronously on the thread that ended the lifetime
/// (the thread that released the last reference to the token, or that called `dispose()`).
public final class Lifetime: Sendable {
    private let disposables: CompositeDisposable

    /// Creates the lifetime controlled by `token`, without retaining the token.
    ///
    /// - Parameters:
    ///   - token: Ends the lifetime when it deinitializes or is disposed.
    public convenience init(_ token: Token) {
        self.init(disposables: token.disposables)
    }

    init(disposables: CompositeDisposable) {
        self.disposables = disposables
    }

    /// Creates a lifetime together with the token that controls it.
    ///
    /// - Returns: The lifetime and its token; keep the token in the owner.
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let token = Token()
        return (Lifetime(token), token)
    }

    /// A lifetime that has already ended.
    public static let empty: Lifetime = {
        let disposables = CompositeDisposable()
        disposables.dispose()
        return Lifetime(disposables: disposables)
    }()

    /// Whether the lifetime has ended.
    public var hasEnded: Bool { disposables.isDisposed }

    /// Registers `action` to run when the lifetime ends.
    ///
    /// - Parameters:
    ///   - action: Runs exactly once when the lifetime ends; immediately if it already has.
    /// - Returns: A disposable that unregisters `action`, or `nil` if the lifetime had already ended (and
    ///   `action` has therefore already run).
    @discardableResult
    public func observeEnded(_ action: @escaping () -> Void) -> (any Disposable)? {
        disposables.add(action)
    }

    /// A signal that completes when the lifetime ends.
    ///
    /// Caveat (as in ReactiveSwift): on an already-ended lifetime the returned signal is already terminated,
    /// so observers receive `.interrupted`, not `.completed`. Prefer ``observeEnded(_:)``.
    public var ended: Signal<Never, Never> {
        Signal { observer, lifetime in
            lifetime += self.observeEnded(observer.sendCompleted)
        }
    }

    /// Disposes `disposable` when `lifetime` ends (immediately if it already has).
    ///
    /// - Returns: A handle that detaches `disposable` from the lifetime without disposing it, or `nil` if
    ///   `disposable` was `nil` or the lifetime had already ended.
    @discardableResult
    public static func += (lifetime: Lifetime, disposable: (any Disposable)?) -> (any Disposable)? {
        lifetime.disposables.add(disposable)
    }
}

extension Lifetime {
    /// The owner's handle on a ``Lifetime``: the lifetime ends when the token deinitializes or is disposed.
    ///
    /// Threading: thread-safe; `dispose()` is idempotent.
    public final class Token: Sendable {
        let disposables = CompositeDisposable()

        /// Creates a token whose lifetime has not ended yet.
        public init() {}

        deinit {
            disposables.dispose()
        }

        /// Ends the lifetime now. Idempotent.
        public func dispose() {
            disposables.dispose()
        }
    }
}
