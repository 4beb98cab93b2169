import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Input and job control: stdin, SIGWINCH and the quitting signals through DispatchSources on the main queue,
/// and Ctrl-Z (suspend, then redraw when continued).
extension LiveApp {
    func startInput() {
        // Blocking stdin: the source fires only when input is ready, so each read returns at once.
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readInput() }
        }
        input.resume()
        sources.append(input)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        signal(SIGWINCH, SIG_IGN)
        resize.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.renderer.invalidate()
                self?.setNeedsDisplay()
            }
        }
        resize.resume()
        sources.append(resize)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.quit() }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Ctrl-Z (a byte in raw mode): restores the terminal and stops the process with SIGTSTP, as the shell's
    /// job control expects; `raise` returns when the shell continues it (SIGCONT, `fg`), and the UI enters
    /// full-screen mode again and redraws everything. No signal source is installed for SIGTSTP (libdispatch
    /// would take the signal for itself).
    func suspend() {
        guard terminal.isActive else { return }
        terminal.restore()
        // The main queue runs on a dispatch worker thread (after dispatch_main), which blocks most signals:
        // unblock SIGTSTP in this thread for the stop, then put the mask back.
        var stop = sigset_t()
        var previous = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        signal(SIGTSTP, SIG_DFL)
        pthread_sigmask(SIG_UNBLOCK, &stop, &previous)
        raise(SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        do throws(CLIFailure) {
            try terminal.enter()
        } catch {
            for source in sources { source.cancel() }
            sources = []
            onQuit()
            return
        }
        renderer.invalidate()
        setNeedsDisplay()
    }

    func readInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count == 0 {
            quit()
            return
        }
        guard count > 0 else { return }
        for key in decoder.decode(Array(buffer[..<count])) {
            handle(key)
            guard terminal.isActive else { return }
        }
        setNeedsDisplay()
    }
}
