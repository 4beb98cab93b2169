import GoalModel
import NIOHTTP1

/// The HTTP status of each engine rejection (docs/HTTP.md §Errors). Goalbase answered every error 500; goald
/// answers what the client can act on. Stateless.
enum RESTErrorMapping {
    /// - Parameter conditional: true when the request carried `If-Match` (a conflict is then 412, else 409).
    static func status(_ code: MutationRejection.Code, conditional: Bool) -> HTTPResponseStatus {
        switch code {
        case .invalid: .badRequest
        case .unauthorized: .forbidden
        case .notFound: .notFound
        case .playerInUse, .nameTaken, .idTaken: .conflict
        case .conflict, .baseAhead: conditional ? .preconditionFailed : .conflict
        case .blankName, .nameTooLong, .forbiddenCharacter, .emptySide, .playerListedTwice, .playerOnBothSides,
            .unknownPlayer, .goalsOutOfRange, .idReused, .idExpired:
            .unprocessableEntity
        }
    }
}
