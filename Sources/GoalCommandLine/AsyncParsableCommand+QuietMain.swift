public import ArgumentParser

extension AsyncParsableCommand {
    /// ArgumentParser's own `main()` (parse, run, print errors and exit as it does), with SIGPIPE ignored first, so
    /// that a closed output ends the command quietly (`StandardStreams`). goald and goal-load call it from their
    /// `main`; goal-client has its own, which also maps its failures to exit codes. Arguments that are not UTF-8 are
    /// a usage error (`ArgumentEncoding`).
    public static func mainIgnoringBrokenPipe() async {
        StandardStreams.ignoreBrokenPipe()
        if let problem = ArgumentEncoding.problem() { exit(withError: ValidationError(problem)) }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
