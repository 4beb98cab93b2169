/// The release of goald, goal-client and goal-load: one version for the three executables, which are built from one
/// repository and speak one wire (`WireProtocol.version` is the protocol's own number; this is the software's).
///
/// Where it comes from: this constant is the only place the version is written. It is set by hand when a release is
/// cut (no build step injects it); `goald --version`, `goal-client --version` and `goal-load --version` print it.
/// A namespace of constants; `Sendable`.
public enum GoalRelease {
    /// The version the executables print for `--version`.
    public static let version = "0.16.0-dev"
}
