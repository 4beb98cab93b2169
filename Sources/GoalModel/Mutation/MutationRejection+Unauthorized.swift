extension MutationRejection {
    /// The refusal of `action` to a session of `role` that may not do it, in words ("the editor role may not delete
    /// player"): the server and the client library's in-memory league say it the same way.
    public static func unauthorized(_ role: Role, _ action: MutationAction) -> MutationRejection {
        MutationRejection(
            code: .unauthorized,
            message: "the \(role.rawValue) role may not "
                + action.operation.split(separator: "_").joined(separator: " ")
        )
    }
}
