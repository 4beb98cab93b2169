/// Something that can be disposed of: a subscription, a scheduled action, a running producer.
///
/// Threading: every implementation in this library is thread-safe; `dispose()` may be called from any thread,
/// any number of times, and only the first call has an effect.
///
/// Lifetime: a disposable does nothing on deinitialization unless documented otherwise
/// (see ``ScopedDisposable``).
public protocol Disposable: AnyObject, Sendable {
    /// Whether `dispose()` has been called (for composite types: whether the container itself was disposed).
    ///
    /// This is not a completion indicator: a producer that completed on its own may still report `false`.
    var isDisposed: Bool { get }

    /// Disposes of the resource. Idempotent.
    func dispose()
}

/// A disposable that runs an optional action exactly once, on the first `dispose()`.
///
/// Threading: thread-safe. The action runs on the thread that called `dispose()` first, after the
/// disposable is already marked disposed, and is released right after it ran.
public final class AnyDisposable: Disposable, @unchecked Sendable {
    // `@unchecked Sendable`: `action` is only read and cleared under `lock`.
    private let lock = Lock()
    private var disposed = false
    private var action: (() -> Void)?

    /// Creates a disposable that only tracks whether it was disposed.
    public init() {
        self.action = nil
    }

    /// Creates a disposable that runs `action` on the first `dispose()`.
    ///
    /// - Parameters:
    ///   - action: Run exactly once, on the first `dispose()`.
    public init(_ action: @escaping () -> Void) {
        self.action = action
    }

    /// Creates a disposable that forwards `dispose()` to `disposable`.
    ///
    /// - Parameters:
    ///   - disposable: The disposable to dispose of (retained until then).
    public convenience init(_ disposable: any Disposable) {
        self.init { disposable.dispose() }
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    public func dispose() {
        let pending: (() -> Void)? = lock.withLock {
            guard !disposed else { return nil }
            disposed = true
            defer { action = nil }
            return action
        }
        pending?()
    }
}

/// A disposable that does nothing and always reports itself as disposed.
///
/// Useful as the result of work that finished before anyone could cancel it.
public final class NopDisposable: Disposable {
    /// The shared instance.
    public static let shared = NopDisposable()

    private init() {}

    /// Always `true`.
    public var isDisposed: Bool { true }

    /// Does nothing.
    public func dispose() {}
}
