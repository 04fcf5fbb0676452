import Glibc
import Synchronization

/// What became of clawnet's writes to stdout and stderr (every one goes through
/// `Terminal.write`, which reports its failures here).
///
/// A reader that went away (EPIPE: `clawnet browse --format jsonl | head -1`) ends the output
/// quietly: nothing more is written to that stream, a long-running command (browse --watch,
/// advertise) ends as on SIGTERM, and the exit status stays what the command's result says.
/// That is what users of dig and avahi-browse expect from a pipe into `head`: no message, no
/// failure of the command. (Those tools die of SIGPIPE, which a shell without pipefail does not
/// report either; clawnet ignores SIGPIPE instead, so that advertise can still withdraw what it
/// registered and a command never stops between two steps of its work.)
///
/// Any other error (ENOSPC on /dev/full, EIO) means the result was lost: the command ends with
/// `clawnet: cannot write to standard output: No space left on device` on stderr and exit 1.
///
/// Process-wide by nature: the streams are the process's own. A Mutex keeps it safe to use
/// from any thread.
package enum StandardStreams {
    package enum Failure: Sendable, Equatable {
        /// EPIPE: the reader closed its end.
        case readerGone
        /// Any other errno.
        case error(Int32)
    }

    private struct State {
        var failures: [Int32: Failure] = [:]
        var onStdoutFailure: [@Sendable () -> Void] = []
    }

    private static let state = Mutex(State())

    /// The first failure of writing to `descriptor`, nil while writes succeed.
    package static func failure(of descriptor: Int32) -> Failure? {
        state.withLock { $0.failures[descriptor] }
    }

    /// Called by `Terminal.write` when a write fails with `code`.
    static func record(_ code: Int32, on descriptor: Int32) {
        let failure: Failure = code == EPIPE ? .readerGone : .error(code)
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.failures[descriptor] == nil else { return [] }
            state.failures[descriptor] = failure
            guard descriptor == STDOUT_FILENO else { return [] }
            defer { state.onStdoutFailure = [] }
            return state.onStdoutFailure
        }
        handlers.forEach { $0() }
    }

    /// Runs `handler` once when stdout first fails (at once when it already has): a command
    /// that runs until it is stopped ends then.
    package static func onStdoutFailure(_ handler: @escaping @Sendable () -> Void) {
        let failed = state.withLock { state -> Bool in
            guard state.failures[STDOUT_FILENO] == nil else { return true }
            state.onStdoutFailure.append(handler)
            return false
        }
        if failed { handler() }
    }

    /// The exit status a command that would end with `status` ends with, once its output is
    /// accounted for: a lost write (not a reader that went away) makes a success a failure,
    /// and says so on stderr when stderr still takes it.
    package static func exitStatus(_ status: Int32) -> Int32 {
        if case .error(let code) = failure(of: STDOUT_FILENO) {
            Terminal.write("clawnet: cannot write to standard output: \(String(cString: strerror(code)))\n", to: STDERR_FILENO)
        }
        return settled(status)
    }

    /// `exitStatus` without a word: what a summary written after the output ("preflight: ready
    /// (exit 0)") may claim.
    package static func settled(_ status: Int32) -> Int32 {
        var lost = false
        if case .error = failure(of: STDOUT_FILENO) { lost = true }
        if case .error = failure(of: STDERR_FILENO) { lost = true }
        return lost && status == ExitStatus.success.rawValue ? ExitStatus.failure.rawValue : status
    }
}
