import Logging
import Testing

@testable import Commands

/// `--verbose` lines reach the terminal as safely as the rest: what a log message carries
/// from the network (a TXT value, a body) cannot clear the screen or start a line.
@Suite("--verbose log lines")
struct SafeLogHandlerTests {
    @Test("control characters in the message and its metadata are escaped; the level and label lead the line")
    func escaped() {
        var handler = SafeLogHandler(label: "clawnet.probe")
        handler.metadata = ["peer": "\u{1B}]0;title\u{07}"]
        let event = LogEvent(
            level: .debug, message: "body \u{1B}[2J\r\nPASS forged", metadata: ["n": "1"], source: nil, file: #file, function: #function,
            line: #line)
        let line = handler.line(event)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.debugDescription)")
        #expect(line.hasPrefix("debug clawnet.probe: body \\027[2J\\013\\010PASS forged"), "\(line)")
        #expect(line.hasSuffix("n=1 peer=\\027]0;title\\007"), "\(line)")
    }
}
