/// Text put into a command an operator is told to run (a fix line, an nsupdate call) as one
/// word of a POSIX shell: as it is when every character is one a shell takes literally, else
/// in single quotes, each `'` written `'\''`. A requestId a Gateway sent, a path from a unit
/// file or a host name from DNS then stays one argument: `$(...)`, backquotes, `;`, `|`, globs
/// and spaces in it are never run or split.
public enum ShellWord {
    public static func quoted(_ text: some StringProtocol) -> String {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.isASCII && plain.contains(Character($0)) }) else {
            return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
        }
        return String(text)
    }

    /// Characters a shell takes literally anywhere in a word (no `~` or `=`: a word that starts
    /// with `~` is a home folder, one with `=` before a command is an assignment).
    static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+,-")
}
