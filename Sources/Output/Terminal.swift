import Glibc

/// Output to stdout and stderr: colour only on terminals, a progress line on stderr only
/// when stderr is a terminal.
public struct Terminal: Sendable {
    public let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    public let stderrIsTTY = isatty(STDERR_FILENO) == 1
    public let color: Bool

    public init(color: Bool) {
        self.color = color
    }

    public enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    public func paint(_ text: String, _ style: Style, stderr: Bool = false) -> String {
        guard color, stderr ? stderrIsTTY : stdoutIsTTY else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }

    public func out(_ line: String) {
        Self.write(line + "\n", to: STDOUT_FILENO)
    }

    public func err(_ line: String) {
        Self.write(line + "\n", to: STDERR_FILENO)
    }

    /// A one-line status on stderr, redrawn in place; no-op unless stderr is a terminal.
    public func progress(_ line: String) {
        guard stderrIsTTY else { return }
        Self.write("\r\u{1B}[2K\(line)", to: STDERR_FILENO)
    }

    public func clearProgress() {
        guard stderrIsTTY else { return }
        Self.write("\r\u{1B}[2K", to: STDERR_FILENO)
    }

    /// Unbuffered, whole-string writes: output order between lines and streams is kept, and
    /// a reader sees each line as soon as it is written.
    public static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

extension Terminal {
    /// An error and its fix, on stderr.
    public func error(_ message: String, fix: String?) {
        err(paint("error", .red, stderr: true) + ": \(message)")
        if let fix { err("  fix: \(fix)") }
    }
}
