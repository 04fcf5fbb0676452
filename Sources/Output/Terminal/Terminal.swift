import DNSSD
import Glibc

/// Output to stdout and stderr: colour only on terminals, a progress line on stderr only
/// when stderr is a terminal.
///
/// Every line is written through `render`, the one place that makes text terminal-safe:
/// whatever a line holds (names, TXT values, bodies, frames, certificate subjects, errors
/// from the network), its control characters are escaped (`SafeText.line`), so nothing
/// printed can clear the screen, set a window title or start a line of its own. clawnet's
/// own colours survive because `paint` does not put escape sequences into the text: it puts
/// markers that carry a key drawn at random for this run, which text from outside cannot
/// know, and `render` turns only those into colour codes.
///
/// The lines go to the process's stdout and stderr, or to a `TerminalRecording` (a command run
/// in-process by a test): the same rendering either way.
package struct Terminal: Sendable {
    package let stdoutIsTTY: Bool
    package let stderrIsTTY: Bool
    package let color: Bool
    /// Starts a colour marker: four scalars from Unicode's private use plane 15 (64 random bits).
    private let markerKey: [Unicode.Scalar]
    /// nil: the standard streams.
    private let recording: TerminalRecording?

    package init(color: Bool) {
        self.init(color: color, stdoutIsTTY: isatty(STDOUT_FILENO) == 1, stderrIsTTY: isatty(STDERR_FILENO) == 1)
    }

    init(color: Bool, stdoutIsTTY: Bool, stderrIsTTY: Bool, recording: TerminalRecording? = nil) {
        self.color = color
        self.stdoutIsTTY = stdoutIsTTY
        self.stderrIsTTY = stderrIsTTY
        self.recording = recording
        var random = SystemRandomNumberGenerator()
        markerKey = (0..<4).map { _ in Unicode.Scalar(UInt32.random(in: 0xF0000...0xFFFFD, using: &random))! }
    }

    /// A terminal whose lines go to `recording` instead of the standard streams; `ttys` says
    /// whether it acts as a terminal would (progress lines, colour when `color`).
    package init(recordingTo recording: TerminalRecording, color: Bool = false, ttys: Bool = false) {
        self.init(color: color, stdoutIsTTY: ttys, stderrIsTTY: ttys, recording: recording)
    }

    package enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    /// The width of the terminal stdout is, nil when it is none (or a recording).
    package var columns: Int? {
        guard recording == nil, stdoutIsTTY else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    package func paint(_ text: String, _ style: Style, stderr: Bool = false) -> String {
        guard color, stderr ? stderrIsTTY : stdoutIsTTY else { return text }
        return marker(style.rawValue) + text + marker("0")
    }

    /// One line on stdout.
    package func out(_ line: String) {
        out(lines: [line])
    }

    /// One line on stderr.
    package func err(_ line: String) {
        err(lines: [line])
    }

    /// Lines on stdout, in one write.
    package func out(lines: [String]) {
        emit(lines.map { render($0) + "\n" }.joined(), to: .out)
    }

    /// Lines on stderr, in one write.
    package func err(lines: [String]) {
        emit(lines.map { render($0) + "\n" }.joined(), to: .err)
    }

    /// Several lines that clawnet wrote itself (a zone, usage, next steps), split at their
    /// newlines; never text from outside, whose newlines must stay escaped.
    package func out(linesOf text: String) {
        out(lines: Self.lines(of: text))
    }

    package func err(linesOf text: String) {
        err(lines: Self.lines(of: text))
    }

    /// `text` split at its line feeds, as `split(separator: "\n")` splits it (a CR LF pair is
    /// one Character, not a line end), but over the UTF-8 bytes: browse's JSON is one text of
    /// hundreds of kilobytes, and splitting it by Characters cost more than making it.
    static func lines(of text: String) -> [String] {
        let bytes = text.utf8
        var lines: [String] = []
        var start = bytes.startIndex
        var previous: UInt8 = 0
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r") {
                lines.append(String(text[start..<index]))
                start = bytes.index(after: index)
            }
            previous = byte
            index = bytes.index(after: index)
        }
        lines.append(String(text[start...]))
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines
    }

    /// A one-line status on stderr, redrawn in place; no-op unless stderr is a terminal.
    package func progress(_ line: String) {
        guard stderrIsTTY else { return }
        emit("\r\u{1B}[2K" + render(line), to: .err)
    }

    package func clearProgress() {
        guard stderrIsTTY else { return }
        emit("\r\u{1B}[2K", to: .err)
    }

    /// Rendered text to the standard stream it names, or to the recording.
    private func emit(_ text: String, to stream: TerminalRecording.Stream) {
        if let recording { return recording.append(text, to: stream) }
        Self.write(text, to: stream == .out ? STDOUT_FILENO : STDERR_FILENO)
    }

    /// A line as it may reach a terminal: every control and invisible character escaped, then
    /// this run's colour markers (and only those) drawn as SGR sequences.
    func render(_ line: String) -> String {
        guard Self.mayNeedRendering(line) else { return line }
        let scalars = Array(line.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if let (code, next) = colorCode(in: scalars, at: index) {
                out += "\u{1B}[\(code)m".unicodeScalars
                index = next
            } else {
                let scalar = scalars[index]
                if SafeText.mustEscape(scalar) { out += SafeText.line(String(scalar)).unicodeScalars } else { out.append(scalar) }
                index += 1
            }
        }
        return String(out)
    }

    /// A quick look at the UTF-8 bytes, so that a long clean line (a JSON document of
    /// megabytes) is not taken apart scalar by scalar: C0 controls and DEL are single bytes, C1
    /// controls start with 0xC2, the markers' plane 15 scalars with 0xF3, and the invisible
    /// characters (`SafeText.isInvisible`) as `mayBeInvisible` says.
    static func mayNeedRendering(_ line: String) -> Bool {
        line.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xF3 } || mayBeInvisible(line.utf8)
    }

    /// Whether UTF-8 `bytes` may hold a format character or a line/paragraph separator: U+0600-06DD
    /// start with 0xD8 or 0xDB, U+070F with 0xDC, U+0890-08E2 with 0xE0, U+180E with 0xE1,
    /// U+200B-206F with 0xE2 then 0x80 or 0x81 (not the arrows and marks after them), U+FEFF and
    /// U+FFF9-FFFB with 0xEF, plane 1's with 0xF0, the tags U+E0001-E007F with 0xF3. A test walks
    /// every scalar.
    static func mayBeInvisible(_ bytes: some Sequence<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case 0xD8, 0xDB, 0xDC, 0xE0, 0xE1, 0xEF, 0xF0, 0xF3: return true
            case 0x80...0x81 where previous == 0xE2: return true
            default: previous = byte
            }
        }
        return false
    }

    /// `key` `digits` `m`: what `paint` leaves where a colour starts or ends.
    private func marker(_ code: String) -> String {
        String(String.UnicodeScalarView(markerKey)) + code + "m"
    }

    /// The SGR code of the marker at `index`, and where the text after it starts.
    private func colorCode(in scalars: [Unicode.Scalar], at index: Int) -> (String, Int)? {
        guard scalars[index...].starts(with: markerKey) else { return nil }
        var end = index + markerKey.count
        var code = ""
        while end < scalars.count, ("0"..."9").contains(scalars[end]) {
            code.unicodeScalars.append(scalars[end])
            end += 1
        }
        guard !code.isEmpty, end < scalars.count, scalars[end] == "m" else { return nil }
        return (code, end + 1)
    }

    /// Unbuffered, whole-string writes: output order between lines and streams is kept, and
    /// a reader sees each line as soon as it is written. Text given here is written as it
    /// is: callers pass what `render` made, or clawnet's own escape sequences. A failed write
    /// is reported to `StandardStreams` (which decides what it means for the command), and
    /// nothing more goes to a stream that failed.
    package static func write(_ text: String, to descriptor: Int32) {
        guard StandardStreams.failure(of: descriptor) == nil else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                // write(2) returns 0 for a non-empty buffer only on a broken device.
                StandardStreams.record(written < 0 ? errno : EIO, on: descriptor)
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

extension Terminal {
    /// An error and its fix, on stderr.
    package func error(_ message: String, fix: String?) {
        err(lines: errorLines(message, fix: fix))
    }

    /// `error: MESSAGE` and, when there is one, `  fix: FIX`.
    package func errorLines(_ message: String, fix: String?) -> [String] {
        [paint("error", .red, stderr: true) + ": \(message)"] + (fix.map { ["  fix: \($0)"] } ?? [])
    }
}
