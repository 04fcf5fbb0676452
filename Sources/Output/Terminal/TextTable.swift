import DNSSD

/// Columns of text lined up by display width (wide characters such as emoji take two cells).
package struct TextTable: Sendable {
    package var header: [String]
    package var rows: [[String]] = []
    /// Columns whose words are never cut (addresses): narrowed to their longest word at most,
    /// even when the table then stays wider than the terminal.
    package var unbreakable: Set<Int> = []

    /// Columns are this far apart.
    static let gap = 2

    package init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    package func render() -> [String] {
        renderRows(width: nil).flatMap { $0 }
    }

    /// The header and each row as lines. With a `width` (a terminal's), a table wider than it
    /// narrows its widest columns, first down to their longest word, then (a long host name)
    /// to their header, and their cells go on in lines of their own column; without one
    /// (piped), every row stays one line for grep.
    package func renderRows(width: Int?) -> [[String]] {
        let all = [header] + rows
        let natural = header.indices.map { column in all.map { displayWidth($0[column]) }.max() ?? 0 }
        guard let width else { return all.map { [line(of: $0, widths: natural)] } }
        let longestWords = header.indices.map { column in
            all.flatMap { $0[column].split(separator: " ").map { displayWidth(String($0)) } }.max() ?? 0
        }
        var widths = Self.fitted(natural, minimums: longestWords, into: width)
        let floors = header.indices.map { column in
            unbreakable.contains(column) ? max(longestWords[column], Self.narrowest) : max(displayWidth(header[column]), Self.narrowest)
        }
        widths = Self.fitted(widths, minimums: floors, into: width)
        return all.map { row in
            let cells = row.enumerated().map { column, cell in Self.lines(of: cell, width: widths[column]) }
            return (0..<(cells.map(\.count).max() ?? 1)).map { index in
                line(of: cells.map { index < $0.count ? $0[index] : "" }, widths: widths)
            }
        }
    }

    /// A column this narrow or narrower is not narrowed further to fit.
    static let narrowest = 8

    /// A cell in lines of at most `width`: broken at spaces, and a word longer than that in pieces.
    static func lines(of cell: String, width: Int) -> [String] {
        guard displayWidth(cell) > width else { return [cell] }
        return TextWrap.lines(cell, first: width, rest: width).flatMap { line in
            var pieces: [String] = []
            var rest = Substring(line)
            while displayWidth(String(rest)) > width {
                pieces.append(String(rest.prefix(width)))
                rest = rest.dropFirst(width)
            }
            return pieces + [String(rest)]
        }
    }

    /// One line of a row: each cell (the line of it this is) padded to its column, the last as it is.
    private func line(of cells: [String], widths: [Int]) -> String {
        var text = ""
        for (column, cell) in cells.enumerated() {
            text +=
                column == cells.count - 1
                ? cell : cell + String(repeating: " ", count: max(0, widths[column] - displayWidth(cell)) + Self.gap)
        }
        // A continuation line with its last cells empty ends where its text does.
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Column widths that fit `width` where they can: the widest column whose cells can wrap
    /// gives a column at a time, never below its `minimums` (the longest word of the column).
    static func fitted(_ natural: [Int], minimums: [Int], into width: Int) -> [Int] {
        var widths = natural
        var excess = widths.reduce(0, +) + gap * (widths.count - 1) - width
        while excess > 0,
            let widest = widths.indices.filter({ widths[$0] > minimums[$0] }).max(by: { widths[$0] < widths[$1] })
        {
            widths[widest] -= 1
            excess -= 1
        }
        return widths
    }
}

/// Terminal cells a string takes: 2 for East Asian wide characters and emoji, 0 for combining marks,
/// and for a control or invisible character its escape (`Terminal.render` writes `\226\128\174`
/// for U+202E), so that a column holding one still lines up.
package func displayWidth(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { width, scalar in
        if SafeText.mustEscape(scalar) { return width + SafeText.escapedWidth(scalar) }
        switch scalar.value {
        case 0x0300...0x036F, 0xFE00...0xFE0F: return width
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1FAFF, 0x20000...0x3FFFD:
            return width + 2
        default: return width + 1
        }
    }
}
