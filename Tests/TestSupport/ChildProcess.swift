import Foundation
import Glibc

/// A process started by a test: its output is collected line by line as it arrives, a test
/// can await a line (bounded by a timeout, never by sleeping), and it is stopped by its PID.
package final class ChildProcess: @unchecked Sendable {
    package enum Stream: Sendable { case stdout, stderr }

    package struct Line: Sendable {
        package let stream: Stream
        package let text: String
    }

    package struct Timeout: Error, CustomStringConvertible {
        package let description: String
    }

    package let pid: Int32
    package let commandLine: String
    private let stdinWriter: FileHandle
    private let lock = NSLock()
    private var collected: [Line] = []
    private var waiters: [UUID: (predicate: @Sendable (Line) -> Bool, from: Int, continuation: CheckedContinuation<Line, any Error>)] = [:]
    private var openStreams = 2
    private var exitStatus: Int32?
    private var exitWaiters: [CheckedContinuation<Int32, Never>] = []

    private static let spawnLock = NSLock()

    package struct SpawnFailed: Error, CustomStringConvertible {
        package let description: String
    }

    /// Spawns with posix_spawn and an empty signal mask: Foundation's Process lets the child
    /// inherit the spawning thread's mask, and Dispatch threads block SIGTERM, which left
    /// children that could never be stopped politely.
    package init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        commandLine = ([executable] + arguments).joined(separator: " ")
        var stdinFDs: [Int32] = [0, 0]
        var stdoutFDs: [Int32] = [0, 0]
        var stderrFDs: [Int32] = [0, 0]
        // Pipes are close-on-exec so children spawned by other tests do not inherit these ends
        // (a leaked write end means EOF never comes); dup2 in the child clears the flag. All
        // spawns hold one lock so no child is started between pipe() and fcntl().
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        guard pipe(&stdinFDs) == 0, pipe(&stdoutFDs) == 0, pipe(&stderrFDs) == 0 else {
            throw SpawnFailed(description: "pipe() failed: \(String(cString: strerror(errno)))")
        }
        for fd in stdinFDs + stdoutFDs + stderrFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinFDs[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutFDs[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrFDs[1], 2)
        for fd in stdinFDs + stdoutFDs + stderrFDs { posix_spawn_file_actions_addclose(&actions, fd) }
        // Nothing else of this process: NIO accepts sockets without close-on-exec, and a child
        // holding one keeps its connection open after the test's server closed it (a silent
        // client of watch's metrics server saw its FIN only when some other test's child exited).
        // (glibc 2.34's closefrom action; Swift's Glibc module does not declare it.)
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        close(stdinFDs[0])
        close(stdoutFDs[1])
        close(stderrFDs[1])
        guard result == 0 else {
            [stdinFDs[1], stdoutFDs[0], stderrFDs[0]].forEach { close($0) }
            throw SpawnFailed(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        stdinWriter = FileHandle(fileDescriptor: stdinFDs[1], closeOnDealloc: true)
        for (fd, stream) in [(stdoutFDs[0], Stream.stdout), (stderrFDs[0], Stream.stderr)] {
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            Thread.detachNewThread { [self] in self.read(handle, stream) }
        }
        let spawned = child
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            while waitpid(spawned, &status, 0) < 0 && errno == EINTR {}
            // Exit code, or 128 + signal as shells report it.
            let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            self.exited(code)
        }
    }

    private func read(_ handle: FileHandle, _ stream: Stream) {
        // read(2) with an EINTR retry: FileHandle.availableData traps on EINTR.
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(handle.fileDescriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                append(Line(stream: stream, text: text))
            }
        }
        if !pending.isEmpty { append(Line(stream: stream, text: String(decoding: pending, as: UTF8.self))) }
        lock.lock()
        openStreams -= 1
        let failed = openStreams == 0 ? waiters : [:]
        if openStreams == 0 { waiters.removeAll() }
        lock.unlock()
        for waiter in failed.values {
            waiter.continuation.resume(
                throwing: Timeout(description: "\(commandLine) ended before printing the expected line; output:\n\(outputTail)"))
        }
    }

    private func append(_ line: Line) {
        lock.lock()
        collected.append(line)
        let index = collected.count - 1
        let matched = waiters.filter { index >= $0.value.from && $0.value.predicate(line) }
        for key in matched.keys { waiters.removeValue(forKey: key) }
        lock.unlock()
        for waiter in matched.values { waiter.continuation.resume(returning: line) }
    }

    private func exited(_ status: Int32) {
        lock.lock()
        exitStatus = status
        let waiting = exitWaiters
        exitWaiters.removeAll()
        lock.unlock()
        for waiter in waiting { waiter.resume(returning: status) }
    }

    /// Every line so far, in arrival order per stream.
    package var lines: [Line] { lock.withLock { collected } }
    package var stdout: String { lines.filter { $0.stream == .stdout }.map(\.text).joined(separator: "\n") }
    package var stderr: String { lines.filter { $0.stream == .stderr }.map(\.text).joined(separator: "\n") }
    package var output: String { lines.map { ($0.stream == .stderr ? "[err] " : "") + $0.text }.joined(separator: "\n") }

    /// The last lines of output, for failure messages.
    package var outputTail: String {
        lines.suffix(30).map { ($0.stream == .stderr ? "[err] " : "") + String($0.text.prefix(300)) }.joined(separator: "\n")
    }

    /// The first line (at or after index `from`) that satisfies `predicate`; fails after `timeout`.
    @discardableResult
    package func waitForLine(
        from: Int = 0, timeout: Duration = .seconds(10), _ what: String = "a matching line",
        where predicate: @escaping @Sendable (Line) -> Bool
    ) async throws -> Line {
        let id = UUID()
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            let waiter = lock.withLock { waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(
                throwing: Timeout(description: "no \(what) from \(commandLine) within \(timeout); output:\n\(outputTail)"))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            register(id: id, from: from, predicate: predicate, continuation: continuation, what: what)
        }
    }

    private func register(
        id: UUID, from: Int, predicate: @escaping @Sendable (Line) -> Bool,
        continuation: CheckedContinuation<Line, any Error>, what: String
    ) {
        lock.lock()
        if let line = collected.dropFirst(from).first(where: predicate) {
            lock.unlock()
            continuation.resume(returning: line)
        } else if openStreams == 0 {
            lock.unlock()
            continuation.resume(throwing: Timeout(description: "\(commandLine) ended without \(what); output:\n\(outputTail)"))
        } else {
            waiters[id] = (predicate, from, continuation)
            lock.unlock()
        }
    }

    /// Waits for a stdout line containing `text`.
    @discardableResult
    package func waitForOutput(_ text: String, from: Int = 0, timeout: Duration = .seconds(10)) async throws -> Line {
        try await waitForLine(from: from, timeout: timeout, "a line containing '\(text)'") { $0.text.contains(text) }
    }

    /// Waits for the process to exit; sends SIGKILL if it outlives `timeout`, and returns the status it then exits with.
    @discardableResult
    package func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            kill(pid, SIGKILL)
        }
        defer { timer.cancel() }
        let status = await withCheckedContinuation { continuation in
            registerExitWaiter(continuation)
        }
        return status
    }

    private func registerExitWaiter(_ continuation: CheckedContinuation<Int32, Never>) {
        lock.lock()
        if let exitStatus {
            lock.unlock()
            continuation.resume(returning: exitStatus)
        } else {
            exitWaiters.append(continuation)
            lock.unlock()
        }
    }

    /// Waits (bounded) until both output streams are closed, so `stdout` and `stderr` are complete.
    package func waitForOutputEnd(timeout: Duration = .seconds(5)) async {
        let deadline = ContinuousClock.now + timeout
        while lock.withLock({ openStreams }) > 0 && ContinuousClock.now < deadline {
            _ = try? await waitForLine(timeout: deadline - .now, "end of output") { _ in false }
        }
    }

    package var isRunning: Bool { lock.withLock { exitStatus == nil } }

    /// Sends `signal` to the process (by PID) and waits for it to exit.
    @discardableResult
    package func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(10)) async throws -> Int32 {
        if isRunning { kill(pid, signal) }
        return try await waitForExit(timeout: timeout)
    }

    /// Sends `signal` (by PID) without waiting: for `defer`, which cannot await. The test bed's
    /// publishers withdraw their services on SIGTERM.
    package func terminate(signal: Int32 = SIGTERM) {
        if isRunning { kill(pid, signal) }
    }

    package func closeStdin() {
        try? stdinWriter.close()
    }

    deinit {
        if exitStatus == nil { kill(pid, SIGKILL) }
    }
}

/// Runs a command to completion (bounded) and returns its status and output.
package struct CommandResult: Sendable {
    package let status: Int32
    package let stdout: String
    package let stderr: String
}

package func runCommand(_ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60))
    async throws -> CommandResult
{
    let child = try ChildProcess(executable, arguments, environment: environment)
    let status = try await child.waitForExit(timeout: timeout)
    await child.waitForOutputEnd()
    return CommandResult(status: status, stdout: child.stdout, stderr: child.stderr)
}
