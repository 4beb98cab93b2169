import Foundation

/// Files of this repository as tests read them (README.md's walkthrough, docs), found from this source file's
/// path, so the working directory does not matter. Stateless.
public enum RepositoryFiles {
    /// The repository's root directory (this file is Sources/GoalTestSupport/RepositoryFiles.swift).
    public static var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// The text of `path`, relative to the root (for example `README.md`).
    public static func text(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }
}
