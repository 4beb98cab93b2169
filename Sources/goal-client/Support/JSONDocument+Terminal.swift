import GoalWire

extension JSONDocument {
    /// The document as goal-client prints it: GoalWire's JSON, made safe on a terminal too
    /// (`TerminalText.escapeJSON`).
    var text: String { TerminalText.escapeJSON(json) }
}
