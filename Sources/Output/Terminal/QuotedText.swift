import DNSSD

/// Text from the network in double quotes on one line: `\` and `"` inside escaped as `\\` and
/// `\"`, so that a name holding a quote still reads as one token (and `\DDD`, SafeText's escape
/// of a control character, stays apart from a backslash the name holds).
enum QuotedText {
    static func line(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "\"" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"" + SafeText.line(escaped) + "\""
    }
}
