/// The server blocks of a Corefile, read the way CoreDNS reads them (coredns/caddy,
/// caddyfile/lexer.go and parse.go): tokens split on white space, `#` comments, quoted
/// tokens (only `\"` escapes), a server block's keys are the tokens of its first line (more
/// lines when one ends in a comma) up to `{`, then a block with nested braces. Enough to
/// find which block serves which zone on which port; directives are not interpreted.
struct CorefileBlocks {
    struct Token {
        let text: String
        let line: Int
        /// The token starts a line (CoreDNS decides "import" and the end of keys by it).
        let startsLine: Bool
    }

    /// One server block: its keys (`openclaw.internal:53`, `.`) and the line of the first.
    struct Block {
        let keys: [String]
        let line: Int
    }

    /// False when the structure could not be read with certainty (an unbalanced brace, a
    /// block without braces before another): then nothing should be added to the file.
    let blocks: [Block]
    let complete: Bool

    /// Every block that serves `zone` (lower-case, trailing dot) over plain DNS on `port`.
    func serving(zone: String, port: Int) -> [(key: String, line: Int)] {
        blocks.flatMap { block in
            block.keys.filter { Self.zoneAndPort(of: $0).map { $0 == (zone, port) } ?? false }.map { ($0, block.line) }
        }
    }

    /// `dns://openclaw.internal.:53` → ("openclaw.internal.", 53); nil for another transport
    /// (`tls://`, `https://`, `grpc://`, `quic://`) or a key that is not a zone.
    static func zoneAndPort(of key: String) -> (String, Int)? {
        var rest = Substring(key.lowercased())
        if let scheme = rest.firstRange(of: "://") {
            guard rest[..<scheme.lowerBound] == "dns" else { return nil }
            rest = rest[scheme.upperBound...]
        }
        var port = 53
        if let colon = rest.lastIndex(of: ":") {
            guard let number = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = number
            rest = rest[..<colon]
        }
        guard !rest.isEmpty else { return nil }
        return (rest.hasSuffix(".") ? String(rest) : rest + ".", port)
    }

    init(_ text: String) {
        let tokens = Self.tokens(text)
        var blocks: [Block] = []
        var index = 0
        var complete = true
        scan: while index < tokens.count {
            // Keys: the first line's tokens, continued past a trailing comma, up to `{`.
            var keys: [String] = []
            let line = tokens[index].line
            if tokens[index].text == "import" && tokens[index].startsLine {
                // A top-level import splices in other files; clawnet does not follow it.
                index += 2
                continue
            }
            while index < tokens.count, tokens[index].text != "{" {
                let token = tokens[index]
                if !keys.isEmpty && token.startsLine && !(keys.last?.hasSuffix(",") ?? false) { break }
                keys.append(token.text)
                index += 1
            }
            let cleaned = keys.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
            blocks.append(Block(keys: cleaned, line: line))
            guard index < tokens.count, tokens[index].text == "{" else {
                // Without braces the rest of the file is this one block's directives, which is
                // only sound when it is the file's only block.
                complete = blocks.count == 1
                break scan
            }
            // Skip the block, nested braces included.
            var depth = 0
            repeat {
                if tokens[index].text == "{" { depth += 1 } else if tokens[index].text == "}" { depth -= 1 }
                index += 1
            } while depth > 0 && index < tokens.count
            if depth > 0 { complete = false }
        }
        self.blocks = blocks
        self.complete = complete
    }

    /// CoreDNS's tokens: white space separates, `#` starts a comment to the end of the line,
    /// a token that starts with `"` runs to the closing quote (`\"` is a quote, any other
    /// `\` stays), and a `{` glued to the end of a token is a token of its own.
    static func tokens(_ text: String) -> [Token] {
        var lexer = CorefileLexer()
        for scalar in text.unicodeScalars {
            if lexer.quoted { lexer.readQuoted(scalar) } else { lexer.readPlain(scalar) }
        }
        return lexer.end()
    }
}

/// The state of `CorefileBlocks.tokens` as it reads a Corefile scalar by scalar.
private struct CorefileLexer {
    var tokens: [CorefileBlocks.Token] = []
    var current = ""
    var line = 1
    var tokenLine = 1
    var lastTokenLine = 0
    var quoted = false
    var escaped = false
    var comment = false
    var inToken = false

    mutating func readQuoted(_ scalar: Unicode.Scalar) {
        if !escaped && scalar == "\\" {
            escaped = true
            return
        }
        if !escaped && scalar == "\"" {
            quoted = false
            append(current)
            current = ""
            inToken = false
            return
        }
        if scalar == "\n" { line += 1 }
        if escaped && scalar != "\"" { current.unicodeScalars.append("\\") }
        current.unicodeScalars.append(scalar)
        escaped = false
    }

    mutating func readPlain(_ scalar: Unicode.Scalar) {
        if scalar.properties.isWhitespace {
            finish()
            if scalar == "\n" {
                line += 1
                comment = false
            }
            return
        }
        if scalar == "#" { comment = true }
        if comment { return }
        if !inToken {
            inToken = true
            tokenLine = line
            if scalar == "\"" {
                quoted = true
                return
            }
        }
        current.unicodeScalars.append(scalar)
    }

    /// The tokens, the last one (an unterminated quote too) included.
    mutating func end() -> [CorefileBlocks.Token] {
        if quoted || inToken {
            inToken = true
            finish()
        }
        return tokens
    }

    private mutating func finish() {
        guard inToken else { return }
        if current.count > 1 && current.hasSuffix("{") {
            current.removeLast()
            append(current)
            append("{")
        } else {
            append(current)
        }
        current = ""
        inToken = false
    }

    private mutating func append(_ text: String) {
        tokens.append(CorefileBlocks.Token(text: text, line: tokenLine, startsLine: tokenLine != lastTokenLine))
        lastTokenLine = tokenLine
    }
}
