/// How ``Signal/flatten(_:)`` and `flatMap` combine the inner streams of a stream of streams.
///
/// Rules common to every strategy: an inner `interrupted` counts as that inner's completion; a failure of the
/// outer stream or of an active inner fails the result at once; interruption of the outer stream interrupts the
/// result; disposing the result disposes (interrupts) all inner work. The result completes once the outer
/// stream and every inner stream it still has to forward have completed.
public struct FlattenStrategy: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case concurrent(limit: Int)
        case latest
        case race
    }

    let kind: Kind

    /// Forwards the inner streams one at a time, in arrival order. Later inners are queued **and not
    /// started** until the previous one completed (a queued hot signal's events meanwhile are lost).
    public static let concat = FlattenStrategy(kind: .concurrent(limit: 1))

    /// Forwards all inner streams concurrently, interleaving their values in arrival order.
    public static let merge = FlattenStrategy(kind: .concurrent(limit: .max))

    /// Forwards only the newest inner stream: a new inner disposes (interrupts) the previous one.
    public static let latest = FlattenStrategy(kind: .latest)

    /// Forwards only the first inner stream to send an event; the other active inners are disposed and later
    /// inners are ignored.
    public static let race = FlattenStrategy(kind: .race)

    /// Forwards at most `limit` inner streams at once; the others wait in a queue, not started.
    ///
    /// - Parameters:
    ///   - limit: The number of concurrently running inners; must be positive.
    /// - Returns: The strategy.
    public static func concurrent(limit: Int) -> FlattenStrategy {
        precondition(limit > 0, "FlattenStrategy.concurrent(limit:) needs a positive limit")
        return FlattenStrategy(kind: .concurrent(limit: limit))
    }
}

/// A type that can be turned into a ``SignalProducer``: a producer itself, or a ``Signal`` (observed on each
/// start). Streams of these can be flattened.
public protocol SignalProducerConvertible {
    /// The type of values sent.
    associatedtype Value
    /// The type of failure.
    associatedtype Error: Swift.Error

    /// The equivalent producer.
    var producer: SignalProducer<Value, Error> { get }
}

extension SignalProducer: SignalProducerConvertible {
    /// The producer itself.
    public var producer: SignalProducer<Value, Error> { self }
}

extension Signal: SignalProducerConvertible {}
