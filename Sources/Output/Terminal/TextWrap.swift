/// Text broken into lines that fit a width, for people: at spaces, never inside a `command`
/// in backticks (a fix line stays copy-pasteable); a word longer than a line stays whole.
package enum TextWrap {
    /// The width clawnet wraps to where it cannot ask a terminal: the classic 80 columns.
    package static let defaultWidth = 80
    /// Narrower than this, wrapping would make more noise than it saves.
    package static let narrowest = 40

    /// `text` in lines: the first at most `first` columns wide, the others at most `rest`.
    package static func lines(_ text: String, first: Int, rest: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in words(text) {
            let limit = lines.isEmpty ? first : rest
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= limit {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        return lines + [current]
    }

    /// `head` (`indent` columns wide as printed: it may hold colour) followed by `text`; with a
    /// `width`, `text` is wrapped and its other lines start under its first word, as a table's
    /// message column does. Without one, the line as it is.
    package static func hanging(_ head: String, indent: Int, _ text: String, width: Int?) -> [String] {
        guard let width, width - indent >= narrowest / 2 else { return [head + text] }
        let room = width - indent
        let lines = lines(text, first: room, rest: room)
        return [head + lines[0]] + lines.dropFirst().map { String(repeating: " ", count: indent) + $0 }
    }

    /// The words of `text`, a span in backticks kept as one word.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var inCommand = false
        for piece in text.split(separator: " ", omittingEmptySubsequences: false) {
            if inCommand, let last = words.popLast() { words.append(last + " " + piece) } else { words.append(String(piece)) }
            if piece.filter({ $0 == "`" }).count % 2 == 1 { inCommand.toggle() }
        }
        return words.filter { !$0.isEmpty }
    }

    /// The width a table of findings wraps to: COLUMNS when set, else the terminal's width when
    /// stdout is one; nil when piped, so that a script's grep finds each line whole.
    package static func terminalWidth(environment: [String: String], terminalColumns: Int?) -> Int? {
        guard environment["COLUMNS"].flatMap({ Int($0) }) != nil || terminalColumns != nil else { return nil }
        return width(environment: environment, terminalColumns: terminalColumns)
    }

    /// The width to wrap to: COLUMNS when set, else the terminal's width when stdout is one,
    /// else `defaultWidth`; never narrower than `narrowest`.
    package static func width(environment: [String: String], terminalColumns: Int?) -> Int {
        let columns = environment["COLUMNS"].flatMap { Int($0) } ?? terminalColumns ?? defaultWidth
        return max(narrowest, columns)
    }
}
