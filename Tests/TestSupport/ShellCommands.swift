import Foundation

/// The commands a fix line tells an operator to run (each in backquotes), run as a user would
/// paste them: by /bin/sh, but with a PATH that holds only stubs recording how they were
/// called. A piece of outside text that is not quoted for the shell shows up as a call of
/// `pwned` (the hostile values call it) or as a split argument; nothing real is ever run.
package enum ShellCommands {
    package struct Call: Sendable, Equatable, CustomStringConvertible {
        package let name: String
        package let arguments: [String]
        package var description: String { ([name] + arguments).map { "[\($0)]" }.joined(separator: " ") }
    }

    package struct Failed: Error, CustomStringConvertible {
        package let description: String
    }

    /// What hostile values call: a stub like every other, so a call is recorded, never run.
    package static let injected = "pwned"

    /// Outside text meant to break out of a command: substitutions, separators, quotes, globs.
    /// (Backquotes are left out: fix lines mark commands with them, so a span could not be
    /// found again; inside single quotes a shell takes them literally, as `ShellWord` tests.)
    package static let hostileValues = [
        "abc $(pwned)", "x$(pwned)y", "a;pwned", "a|pwned", "a && pwned", "it's $(pwned)", "\"$(pwned)\"", "$HOME/*", "a b\\c",
        "'; pwned; '", "-x $((1+1))",
    ]

    /// The commands stubbed: every program a fix line names, and `pwned`.
    static let programs = [
        "openclaw", "mv", "chmod", "chown", "sudo", "ls", "dig", "avahi-resolve", "getent", "openssl", "sha256sum", "clawnet",
        "resolvectl", "tailscale", "rndc", "coredns", "ss", "ufw", "ip", "journalctl", "systemctl", injected,
    ]

    /// The spans of `text` in backquotes, a placeholder such as `<requestId>` made a plain word
    /// (a shell would read it as a redirection).
    package static func commands(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
            String($0.element).replacing(#/<[A-Za-z][A-Za-z ]*>/#, with: "placeholder")
        }
    }

    /// Runs every command in backquotes in `text`; the calls they made, in order.
    package static func run(_ text: String) throws -> [Call] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shell-commands-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Builtins only: printf and parameter expansion. Fields end with \037, calls with \036.
        let stub =
            "#!/bin/sh\n{ printf '%s\\037' \"${0##*/}\"; for a in \"$@\"; do printf '%s\\037' \"$a\"; done; printf '\\036'; } "
            + ">> \"$SHELL_COMMANDS_LOG\"\n"
        // One program, written by a child (see writeExecutable), linked under every name.
        try writeExecutable(stub, to: folder + "/stub")
        for program in programs {
            try FileManager.default.linkItem(atPath: folder + "/stub", toPath: folder + "/bin/" + program)
        }
        let log = folder + "/calls"
        for command in commands(in: text) {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", command]
            shell.environment = ["PATH": folder + "/bin", "SHELL_COMMANDS_LOG": log, "HOME": folder]
            shell.currentDirectoryURL = URL(fileURLWithPath: folder)
            let errors = Pipe()
            shell.standardError = errors
            shell.standardOutput = FileHandle.nullDevice
            try shell.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            shell.waitUntilExit()
            // A program without a stub, or a command the shell cannot parse: say so.
            guard shell.terminationStatus == 0 else {
                throw Failed(description: "sh -c \(command): exit \(shell.terminationStatus): \(said)")
            }
        }
        let recorded = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return recorded.split(separator: "\u{1E}").map { call in
            let fields = call.split(separator: "\u{1F}", omittingEmptySubsequences: false).dropLast().map(String.init)
            return Call(name: fields.first ?? "", arguments: Array(fields.dropFirst()))
        }
    }
}
