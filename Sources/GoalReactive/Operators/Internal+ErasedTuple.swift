/// The one place where the operators that aggregate several sources of different types (`combineLatest`, `zip`
/// on signals and producers, `Property.combineLatest`) turn their type-erased values back into the typed tuple.
/// They aggregate `[Any]` so that one implementation serves every arity; the i-th value always comes from the
/// i-th source, whose value type is the i-th of `types`, so the cast cannot fail. Stateless.
enum ErasedTuple {
    /// `values` as the tuple `(T1, T2, …)`.
    static func tuple<each T>(_ values: [Any], as types: repeat (each T).Type) -> (repeat each T) {
        var index = 0
        func next<U>(_ type: U.Type) -> U {
            defer { index += 1 }
            // Safe by construction (the type's documentation): value `index` came from a source of type U.
            return values[index] as! U
        }
        return (repeat next(each types))
    }
}
