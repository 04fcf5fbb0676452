import DNSSD
import Host

/// Standard input can be read once: `-` given to two flags (`--config - --token-file -`) would
/// leave the second one nothing, so it is a usage error, found on the raw command line before
/// anything is parsed or read (--tsig-key is read while it is parsed).
enum StandardInputUse {
    /// The message when more than one argument is `-` (or `--flag=-`); nil otherwise.
    static func twice(_ arguments: [String]) -> String? {
        let given = arguments.prefix { $0 != "--" }.filter {
            $0 == RegularFile.standardInput || ($0.hasPrefix("--") && $0.hasSuffix("=" + RegularFile.standardInput))
        }
        guard given.count > 1 else { return nil }
        return "- (standard input) is given \(Plural.counted(given.count, "time")), but standard input can be read once: "
            + "give the others a file, or a pipe such as <(...)"
    }
}
