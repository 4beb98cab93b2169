/// Placeholder: GoalWire (wire messages and JSON codec) is being written.
enum GoalWirePlaceholder {}
