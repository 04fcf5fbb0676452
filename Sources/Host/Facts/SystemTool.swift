import DNSSD
import Glibc

/// A system tool whose answer doctor reads (resolvectl, tailscale, systemctl, journalctl): run by
/// absolute path without a shell, with /dev/null for stdin and stderr and a plain environment,
/// its output bounded, the whole run bounded in time and the child's process group killed (by
/// the child's PID, which is the group's) when it overruns. A blocking call: callers are on
/// BlockingThreads (MachineFacts.gather).
package enum SystemTool {
    /// More than any status these tools print for one machine.
    package static let outputLimit = 256 << 10
    /// A local query answers in milliseconds; a tool that hangs (a daemon that does not answer
    /// D-Bus) must not hold doctor.
    package static let timeout = Duration.seconds(2)
    /// The environment a tool runs with unless the caller gives one.
    package static let plainEnvironment = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", "SYSTEMD_PAGER=", "SYSTEMD_COLORS=0"]

    /// How a run ended, and what it printed on stdout (at most the limit).
    package struct Run: Sendable, Equatable {
        package enum End: Sendable, Equatable {
            case exited(Int32)
            /// Killed by a signal other than ours.
            case signalled(Int32)
            /// Still running at the deadline: killed.
            case timedOut
            /// Printed more than the limit: killed, the first `limit` bytes kept.
            case tooMuchOutput
        }

        package let output: [UInt8]
        package let end: End
    }

    /// The tool's standard output when it ran and exited 0; nil when it is not installed, could
    /// not start, failed, or overran.
    package static func output(_ path: String, _ arguments: [String], limit: Int = outputLimit, timeout: Duration = timeout) -> [UInt8]? {
        guard let run = run(path, arguments, limit: limit, timeout: timeout), run.end == .exited(0) else { return nil }
        return run.output
    }

    /// Runs the tool; nil when it is not installed or could not start. `environment` as
    /// `NAME=value` lines (default: `plainEnvironment`).
    package static func run(
        _ path: String, _ arguments: [String], environment: [String] = plainEnvironment, limit: Int = outputLimit,
        timeout: Duration = timeout
    ) -> Run? {
        guard access(path, X_OK) == 0 else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var child: pid_t = 0
        let started = spawn(path, arguments, environment: environment, stdout: fds[1], into: &child)
        close(fds[1])
        defer { close(fds[0]) }
        guard started else { return nil }
        let deadline = ContinuousClock.now + timeout
        var (bytes, overrun) = read(fds[0], limit: limit, until: deadline)
        // A tool that closed its stdout and goes on running is bounded too: waited for until
        // the same deadline, then killed.
        var status: Int32 = 0
        if overrun == nil, !exited(child, &status, by: deadline) { overrun = .timedOut }
        if let overrun {
            // The tool's whole process group: a shell script's children go with it.
            kill(-child, SIGKILL)
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            return Run(output: bytes, end: overrun)
        }
        let signal = status & 0x7F
        return Run(output: bytes, end: signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal))
    }

    /// posix_spawn in a process group of its own, with an empty signal mask and default handlers
    /// (a blocked SIGTERM must not be inherited), stdout to `stdout`, stdin and stderr to /dev/null.
    private static func spawn(_ path: String, _ arguments: [String], environment: [String], stdout: Int32, into child: inout pid_t) -> Bool
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        return posix_spawn(&child, path, &actions, &attributes, argv, envp) == 0
    }

    /// Reaps `child` if it exits by `deadline` (its status in `status`); false when it still runs.
    private static func exited(_ child: pid_t, _ status: inout Int32, by deadline: ContinuousClock.Instant) -> Bool {
        var pause = Duration.milliseconds(1)
        while true {
            let reaped = waitpid(child, &status, WNOHANG)
            if reaped == child || (reaped < 0 && errno != EINTR) { return true }
            guard ContinuousClock.now < deadline else { return false }
            // Most tools exit right after their last write: the first checks come quickly.
            var sleep = timespec(tv_sec: 0, tv_nsec: Int(pause.milliseconds) * 1_000_000)
            nanosleep(&sleep, nil)
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Reads until end of file, `limit` bytes, or `deadline`; how it overran, nil when it did not.
    private static func read(_ fd: Int32, limit: Int, until deadline: ContinuousClock.Instant) -> ([UInt8], Run.End?) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return (bytes, .timedOut) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left.milliseconds)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return (bytes, .timedOut) }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return (bytes, count == 0 ? nil : .timedOut) }
            guard bytes.count + count <= limit else { return (bytes + buffer.prefix(limit - bytes.count), .tooMuchOutput) }
            bytes += buffer.prefix(count)
        }
    }
}
