/// Text put into a command an operator is told to run (a fix line, an nsupdate call) as one
/// word of a POSIX shell: as it is when every character is one a shell takes literally, else
/// in single quotes, each `'` written `'\''`. A requestId a Gateway sent, a path from a unit
/// file or a host name from DNS then stays one argument: `$(...)`, backquotes, `;`, `|`, globs
/// and spaces in it are never run or split.
package enum ShellWord {
    package static func quoted(_ text: some StringProtocol) -> String {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.isASCII && plain.contains(Character($0)) }) else {
            return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
        }
        return String(text)
    }

    /// Outside text as an operand of a program that ends its options at `--` (getopt, argp,
    /// Commander): quoting keeps it one word, `--` keeps a word such as `--latest` or `-h` from
    /// being read as an option.
    package static func operand(_ text: some StringProtocol) -> String { "-- " + quoted(text) }

    /// A name for dig, which takes no `--`: a name that dig would read as an option (`-`), a
    /// query option (`+`) or a server (`@`) is given by `-q`.
    package static func digName(_ name: some StringProtocol) -> String {
        guard let first = name.first, !"-+@".contains(first) else { return "-q " + quoted(name) }
        return quoted(name)
    }

    /// `--option value` for a swift-argument-parser option; `--option=value` when the value
    /// starts with `-` (after a space it would be read as another option).
    package static func option(_ option: String, _ value: some StringProtocol) -> String {
        value.first == "-" ? option + "=" + quoted(value) : option + " " + quoted(value)
    }

    /// Characters a shell takes literally anywhere in a word (no `~` or `=`: a word that starts
    /// with `~` is a home folder, one with `=` before a command is an assignment).
    static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+,-")
}
