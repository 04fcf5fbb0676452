import Glibc

/// Output to stdout and stderr: colour only on terminals, a progress line on stderr only
/// when stderr is a terminal.
struct Terminal: Sendable {
    let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    let stderrIsTTY = isatty(STDERR_FILENO) == 1
    let color: Bool

    init(color: Bool) {
        self.color = color
    }

    enum Style: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"
    }

    func paint(_ text: String, _ style: Style, stderr: Bool = false) -> String {
        guard color, stderr ? stderrIsTTY : stdoutIsTTY else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }

    func out(_ line: String) {
        Self.write(line + "\n", to: STDOUT_FILENO)
    }

    func err(_ line: String) {
        Self.write(line + "\n", to: STDERR_FILENO)
    }

    /// A one-line status on stderr, redrawn in place; no-op unless stderr is a terminal.
    func progress(_ line: String) {
        guard stderrIsTTY else { return }
        Self.write("\r\u{1B}[2K\(line)", to: STDERR_FILENO)
    }

    func clearProgress() {
        guard stderrIsTTY else { return }
        Self.write("\r\u{1B}[2K", to: STDERR_FILENO)
    }

    /// Unbuffered, whole-string writes: output order between lines and streams is kept, and
    /// a reader sees each line as soon as it is written.
    static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Columns of text lined up by display width (wide characters such as emoji take two cells).
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    func render() -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { displayWidth($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - displayWidth(cell))
            }.joined(separator: "  ")
        }
    }
}

/// Terminal cells a string takes: 2 for East Asian wide characters and emoji, 0 for combining marks.
func displayWidth(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { width, scalar in
        switch scalar.value {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: return width
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1FAFF, 0x20000...0x3FFFD:
            return width + 2
        default: return width + 1
        }
    }
}
