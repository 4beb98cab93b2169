import GoalCommandLine

/// Where goal-client writes: lines to standard output (results) and standard error (failures, hints, prompts),
/// quietly ending on a closed output. goal-client's name for the tools' shared `StandardStreams`.
typealias Console = StandardStreams
