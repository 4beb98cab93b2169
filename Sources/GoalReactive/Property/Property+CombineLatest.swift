import Foundation

/// Starts one source and forwards its events, type-erased, to a sink.
typealias ErasedPropertyStart = (_ sink: @escaping (Signal<Any, Never>.Event) -> Void) -> Void

extension PropertyProtocol {
    /// This property's producer as an ``ErasedPropertyStart``.
    fileprivate var erasedStart: ErasedPropertyStart {
        let source = producer
        return { sink in source.start { sink($0.map { $0 as Any }) } }
    }

    /// A tuple of both latest values, emitted whenever either property changes.
    ///
    /// - Parameters:
    ///   - other: The second property.
    /// - Returns: A composed property; its streams complete when **both** sources are gone.
    public func combineLatest<P: PropertyProtocol>(with other: P) -> Property<(Value, P.Value)> {
        Property.combineLatest(self, other)
    }
}

/// The latest value of every source, guarded by a recursive lock (held while emitting, so that emissions from
/// different threads cannot be reordered, while a nested set from an observer can still re-enter).
private final class CombineLatestState: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is only touched under `lock`.
    let lock = NSRecursiveLock()
    var latest: [Any?]
    var missing: Int
    var active: Int

    init(count: Int) {
        latest = Array(repeating: nil, count: count)
        missing = count
        active = count
    }
}

extension Property {
    /// A composed property of the latest values of all `sources`, started in order; `combine` receives one value
    /// per source, in source order. Emits once every source has sent a value, then on every source value;
    /// completes when all sources have terminated.
    convenience init(combiningLatest sources: [ErasedPropertyStart], _ combine: @escaping ([Any]) -> Value) {
        self.init(composing: { sink in
            let state = CombineLatestState(count: sources.count)
            for (index, start) in sources.enumerated() {
                start { event in
                    state.lock.lock()
                    defer { state.lock.unlock() }
                    guard case let .value(value) = event else {
                        state.active -= 1
                        if state.active == 0 { sink(.completed) }
                        return
                    }
                    if state.latest[index] == nil { state.missing -= 1 }
                    state.latest[index] = value
                    if state.missing == 0 {
                        sink(.value(combine(state.latest.map { $0! })))
                    }
                }
            }
        })
    }

    /// A tuple of the latest values of `a` and `b`, emitted whenever either changes.
    ///
    /// - Returns: A composed property; its streams complete when both sources are gone.
    public static func combineLatest<A: PropertyProtocol, B: PropertyProtocol>(
        _ a: A,
        _ b: B
    ) -> Property<(A.Value, B.Value)> where A.Value == Value {
        Property<(A.Value, B.Value)>(combiningLatest: [a.erasedStart, b.erasedStart]) { values in
            ErasedTuple.tuple(values, as: A.Value.self, B.Value.self)
        }
    }

    /// A tuple of the latest values of `a`, `b` and `c`, emitted whenever any changes.
    ///
    /// - Returns: A composed property; its streams complete when all sources are gone.
    public static func combineLatest<A: PropertyProtocol, B: PropertyProtocol, C: PropertyProtocol>(
        _ a: A,
        _ b: B,
        _ c: C
    ) -> Property<(A.Value, B.Value, C.Value)> where A.Value == Value {
        Property<(A.Value, B.Value, C.Value)>(combiningLatest: [a.erasedStart, b.erasedStart, c.erasedStart]) {
            values in
            ErasedTuple.tuple(values, as: A.Value.self, B.Value.self, C.Value.self)
        }
    }

    /// A tuple of the latest values of `a`, `b`, `c` and `d`, emitted whenever any changes.
    ///
    /// - Returns: A composed property; its streams complete when all sources are gone.
    public static func combineLatest<
        A: PropertyProtocol,
        B: PropertyProtocol,
        C: PropertyProtocol,
        D: PropertyProtocol
    >(
        _ a: A,
        _ b: B,
        _ c: C,
        _ d: D
    ) -> Property<(A.Value, B.Value, C.Value, D.Value)> where A.Value == Value {
        let sources = [a.erasedStart, b.erasedStart, c.erasedStart, d.erasedStart]
        return Property<(A.Value, B.Value, C.Value, D.Value)>(combiningLatest: sources) { values in
            ErasedTuple.tuple(values, as: A.Value.self, B.Value.self, C.Value.self, D.Value.self)
        }
    }

    /// An array of the latest values of `properties`, in order; `nil` for an empty sequence.
    ///
    /// - Parameters:
    ///   - properties: The sources.
    /// - Returns: A composed property, or `nil` if `properties` is empty.
    public static func combineLatest<S: Sequence>(
        _ properties: S
    ) -> Property<[Value]>? where S.Element: PropertyProtocol<Value> {
        let sources = properties.map(\.erasedStart)
        guard !sources.isEmpty else { return nil }
        return Property<[Value]>(combiningLatest: sources) { values in values.map { $0 as! Value } }
    }
}
