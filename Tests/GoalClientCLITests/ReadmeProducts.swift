import Foundation

/// The directory ReadmeWalkthroughTests puts where README.md says `.build/debug/`: the built `goald` and
/// `goal-load` as they are, and a `goal-client` that runs the full-screen UI (no subcommand) in a private tmux
/// server until it shows `[LIVE]`, then quits it with `q`, so that a walkthrough line opening the UI runs to an end.
/// Every other use of `goal-client` goes straight to the built binary. Stateless.
enum ReadmeProducts {
    /// Whether curl, which README's HTTP examples use, is installed.
    static var hasCurl: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") }

    static func install(into bin: String, scratch: String) throws {
        let products = ClientEnvironment.executable.deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in ["goald", "goal-load"] {
            try FileManager.default.createSymbolicLink(
                atPath: bin + "/" + name,
                withDestinationPath: products + "/" + name
            )
        }
        let wrapper = bin + "/goal-client"
        try uiWrapper(real: products + "/goal-client", scratch: scratch).write(
            toFile: wrapper,
            atomically: true,
            encoding: .utf8
        )
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
    }

    /// The wrapper: waits (bounded: 60 s for [LIVE], 30 s for the exit) by polling the screen, as a person watches it.
    private static func uiWrapper(real: String, scratch: String) -> String {
        #"""
        #!/bin/bash
        real='\#(real)'
        [ $# -gt 0 ] && exec "$real" "$@"
        socket="readme-ui-$$"
        out='\#(scratch)'"/ui-$$"
        tmux -L "$socket" new-session -d -x 100 -y 30 -s ui "'$real'; echo \$? > '$out.status'"
        live=0
        for _ in $(seq 1 300); do
            tmux -L "$socket" capture-pane -p -t ui > "$out.screen" 2>/dev/null || true
            if grep -q '\[LIVE\]' "$out.screen"; then live=1; break; fi
            sleep 0.2
        done
        if [ "$live" = 0 ]; then
            cat "$out.screen"
            echo "the UI did not show [LIVE] within 60 s" >&2
            tmux -L "$socket" kill-server 2>/dev/null
            exit 1
        fi
        tmux -L "$socket" send-keys -t ui q
        for _ in $(seq 1 150); do [ -s "$out.status" ] && break; sleep 0.2; done
        tmux -L "$socket" kill-server 2>/dev/null || true
        cat "$out.screen"
        exit "$(cat "$out.status" 2>/dev/null || echo 1)"
        """#
    }
}
