/// Columns of text lined up by display width (wide characters such as emoji take two cells).
public struct TextTable: Sendable {
    public var header: [String]
    public var rows: [[String]] = []

    public init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    public func render() -> [String] {
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
public func displayWidth(_ text: String) -> Int {
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
