import Doctor
import Zones

/// The four-letter marks at the start of a report line, drawn in one place.
enum StatusMark {
    static func mark(_ status: Check.Status, _ terminal: Terminal) -> String {
        switch status {
        case .pass: terminal.paint("PASS", .green)
        case .warn: terminal.paint("WARN", .yellow)
        case .fail: terminal.paint("FAIL", .red)
        case .skip: terminal.paint("SKIP", .dim)
        }
    }

    static func mark(_ severity: Finding.Severity, _ terminal: Terminal) -> String {
        switch severity {
        case .pass: mark(Check.Status.pass, terminal)
        case .warn: mark(Check.Status.warn, terminal)
        case .fail: mark(Check.Status.fail, terminal)
        }
    }

    /// Preflight's yes or no, in doctor's and zone check's words.
    static func mark(ok: Bool, _ terminal: Terminal) -> String {
        mark(ok ? Check.Status.pass : .fail, terminal)
    }
}

extension String {
    /// Padded with spaces to `width` characters, for columns.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
