/// What clawnet says when its standard output is full (issue 18: every write is checked).
package let fullMessage = "clawnet: cannot write to standard output: No space left on device"

/// `clawnet ARGS > /dev/full` (ENOSPC on every write) through a shell, in the test bed's node
/// namespace when `bed` is given.
package func toFullDevice(_ arguments: [String], bed: TestBed? = nil) async throws -> CommandResult {
    let script = #"exec "$0" "$@" > /dev/full"#
    if let bed { return try await bed.run(on: .node, ["sh", "-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(60)) }
    return try await runCommand("/bin/sh", ["-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(60))
}

/// `clawnet ARGS | head -1` with pipefail: the status is clawnet's (141 when SIGPIPE killed it).
package func intoHead(_ arguments: [String], bed: TestBed? = nil) async throws -> CommandResult {
    let script = #"set -o pipefail; "$0" "$@" | head -1 > /dev/null"#
    if let bed { return try await bed.run(on: .node, ["bash", "-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(60)) }
    return try await runCommand("/bin/bash", ["-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(60))
}
