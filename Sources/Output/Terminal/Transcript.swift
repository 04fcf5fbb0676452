/// Lines for stdout and stderr in the order a command writes them: notes before a result,
/// next steps after it.
package struct Transcript: Sendable {
    package enum Stream: Sendable, Equatable {
        case out, err
    }

    package private(set) var parts: [(stream: Stream, lines: [String])] = []

    package init() {}

    package mutating func out(_ lines: String...) {
        out(lines: lines)
    }

    package mutating func err(_ lines: String...) {
        err(lines: lines)
    }

    package mutating func out(lines: [String]) {
        if !lines.isEmpty { parts.append((.out, lines)) }
    }

    package mutating func err(lines: [String]) {
        if !lines.isEmpty { parts.append((.err, lines)) }
    }

    /// Lines on stderr, each as `note: LINE`.
    package mutating func notes(_ notes: [String]) {
        err(lines: notes.map { "note: \($0)" })
    }

    /// Several lines clawnet wrote itself (a zone, a script, next steps), split at their newlines.
    package mutating func out(linesOf text: String) {
        out(lines: Terminal.lines(of: text))
    }

    package mutating func err(linesOf text: String) {
        err(lines: Terminal.lines(of: text))
    }
}

extension Terminal {
    /// Notes on stderr, each as `note: NOTE`.
    package func notes(_ notes: [String]) {
        err(lines: notes.map { "note: \($0)" })
    }

    /// Writes the transcript's parts in order.
    package func print(_ transcript: Transcript) {
        for part in transcript.parts {
            switch part.stream {
            case .out: out(lines: part.lines)
            case .err: err(lines: part.lines)
            }
        }
    }
}
