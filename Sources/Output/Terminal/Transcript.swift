/// Lines for stdout and stderr in the order a command writes them: notes before a result,
/// next steps after it.
public struct Transcript: Sendable {
    public enum Stream: Sendable, Equatable {
        case out, err
    }

    public private(set) var parts: [(stream: Stream, lines: [String])] = []

    public init() {}

    public mutating func out(_ lines: String...) {
        out(lines: lines)
    }

    public mutating func err(_ lines: String...) {
        err(lines: lines)
    }

    public mutating func out(lines: [String]) {
        if !lines.isEmpty { parts.append((.out, lines)) }
    }

    public mutating func err(lines: [String]) {
        if !lines.isEmpty { parts.append((.err, lines)) }
    }

    /// Lines on stderr, each as `note: LINE`.
    public mutating func notes(_ notes: [String]) {
        err(lines: notes.map { "note: \($0)" })
    }

    /// Several lines clawnet wrote itself (a zone, a script, next steps), split at their newlines.
    public mutating func out(linesOf text: String) {
        out(lines: Terminal.lines(of: text))
    }

    public mutating func err(linesOf text: String) {
        err(lines: Terminal.lines(of: text))
    }
}

extension Terminal {
    /// Notes on stderr, each as `note: NOTE`.
    public func notes(_ notes: [String]) {
        err(lines: notes.map { "note: \($0)" })
    }

    /// Writes the transcript's parts in order.
    public func print(_ transcript: Transcript) {
        for part in transcript.parts {
            switch part.stream {
            case .out: out(lines: part.lines)
            case .err: err(lines: part.lines)
            }
        }
    }
}
