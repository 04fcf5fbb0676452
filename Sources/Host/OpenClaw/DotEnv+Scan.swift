extension DotEnv {
    /// One pass over the file in the order dotenv's expression matches: from each line start that
    /// is past the last match, the first place a variable can start (white space skipped, across
    /// lines), `export ` tried first. The tables answer in constant time what the expression would
    /// find by backtracking (where a quoted value may close), so the pass stays linear.
    struct Scan {
        let text: [Unicode.Scalar]
        var count: Int { text.count }
        /// The first index at or after i that is not white space (count when none).
        let nextSolid: [Int32]
        /// Whether from i to the end of its line there is only white space, then perhaps a
        /// `# comment`: what must follow a closing quote (`\s*(?:#.*)?$`). count + 1 entries.
        let blankAfter: [Bool]
        /// Per quote character: the first index at or after i that holds it, not after a backslash.
        let plainQuote: [[Int32]]
        /// Per quote character: the last index at or before i that holds it after a backslash
        /// with only `blankAfter` behind it (-1 when none): where a quote closes when no plain one can.
        let escapedClose: [[Int32]]

        init(_ text: [Unicode.Scalar]) {
            self.text = text
            let count = text.count
            var nextSolid = [Int32](repeating: Int32(count), count: count + 1)
            var blankAfter = [Bool](repeating: true, count: count + 1)
            for index in stride(from: count - 1, through: 0, by: -1) {
                let scalar = text[index]
                nextSolid[index] = DotEnv.isSpace(scalar) ? nextSolid[index + 1] : Int32(index)
                blankAfter[index] = DotEnv.isLineEnd(scalar) || scalar == "#" || (DotEnv.isSpace(scalar) && blankAfter[index + 1])
            }
            self.nextSolid = nextSolid
            self.blankAfter = blankAfter
            var plain: [[Int32]] = []
            var escaped: [[Int32]] = []
            for quote in DotEnv.quotes {
                var next = [Int32](repeating: Int32(count), count: count + 1)
                for index in stride(from: count - 1, through: 0, by: -1) {
                    let isPlain = text[index] == quote && (index == 0 || text[index - 1] != "\\")
                    next[index] = isPlain ? Int32(index) : next[index + 1]
                }
                var last = [Int32](repeating: -1, count: count)
                for index in 0..<count {
                    let closes = index > 0 && text[index] == quote && text[index - 1] == "\\" && blankAfter[index + 1]
                    last[index] = closes ? Int32(index) : index > 0 ? last[index - 1] : -1
                }
                plain.append(next)
                escaped.append(last)
            }
            plainQuote = plain
            escapedClose = escaped
        }

        func entries() -> [Entry] {
            var entries: [Entry] = []
            // Where a variable was looked for in vain: a later line start that leads there (over
            // blank lines) finds nothing either.
            var failed = Set<Int>()
            var lineStart = 0
            while lineStart < count {
                let solid = Int(nextSolid[lineStart])
                if solid < count, !failed.contains(solid) {
                    if let (entry, end) = variable(at: solid) {
                        entries.append(entry)
                        lineStart = self.lineStart(after: end)
                        continue
                    }
                    failed.insert(solid)
                }
                lineStart = self.lineStart(after: lineStart)
            }
            return entries
        }

        /// The start of the line after the one `index` is on (past the end when none).
        func lineStart(after index: Int) -> Int {
            var index = index
            while index < count, !DotEnv.isLineEnd(text[index]) { index += 1 }
            return index + 1
        }

        /// `(?:export\s+)?KEY(?:\s*=\s*?|:\s+?)VALUE` from `start`; the entry and where it ends.
        func variable(at start: Int) -> (Entry, Int)? {
            let export = Array("export".unicodeScalars)
            if start + export.count < count, Array(text[start..<start + export.count]) == export,
                DotEnv.isSpace(text[start + export.count]), let found = keyed(at: Int(nextSolid[start + export.count]))
            {
                return found
            }
            return keyed(at: start)
        }

        func keyed(at start: Int) -> (Entry, Int)? {
            var end = start
            while end < count, DotEnv.isKeyCharacter(text[end]) { end += 1 }
            guard end > start else { return nil }
            let valueStart: Int
            let equals = Int(nextSolid[end])
            if equals < count, text[equals] == "=" {
                valueStart = equals + 1
            } else if end + 1 < count, text[end] == ":", DotEnv.isSpace(text[end + 1]) {
                valueStart = end + 2
            } else {
                return nil
            }
            let (raw, valueEnd) = value(at: valueStart)
            var key = String.UnicodeScalarView()
            key.append(contentsOf: text[start..<end])
            return (Entry(key: String(key), value: DotEnv.finished(raw)), valueEnd)
        }

        /// The raw value from `start` (quotes and white space still in it) and where it ends:
        /// quoted when a quote (after white space, across lines) opens one that closes, else to
        /// `#` or the end of the line.
        func value(at start: Int) -> (ArraySlice<Unicode.Scalar>, Int) {
            let open = Int(nextSolid[min(start, count)])
            if open < count, let kind = DotEnv.quotes.firstIndex(of: text[open]) {
                let plain = open + 1 < count ? Int(plainQuote[kind][open + 1]) : count
                var close: Int?
                if plain < count, blankAfter[plain + 1] {
                    close = plain
                } else if plain > 0, Int(escapedClose[kind][plain - 1]) > open {
                    close = Int(escapedClose[kind][plain - 1])
                }
                if let close { return (text[start...close], close + 1) }
            }
            var end = start
            while end < count, text[end] != "#", text[end] != "\n" { end += 1 }
            return (text[min(start, count)..<end], end)
        }
    }
}
