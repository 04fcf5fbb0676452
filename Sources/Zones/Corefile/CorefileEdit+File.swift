import DNSSD
import Host

extension CorefileEdit {
    /// The change that puts `stanza` into the Corefile at `path`; nil when it is there as it
    /// is. A path clawnet would not write (another user's link) is refused before it is read,
    /// and a file that is not UTF-8 is left alone: clawnet edits only what it keeps byte for byte.
    package static func prepare(_ stanza: String, domain: DomainName, at path: String) throws -> OutputFile.Change? {
        let target = try AtomicFile.Replacement(path, limit: FileLimit.corefile)
        let existing = target.existing
        var text: String?
        if let existing {
            guard let decoded = SafeText.utf8(existing) else {
                throw ZoneError(.corefileNotUTF8(path: path))
            }
            text = decoded
        }
        let edited = try apply(stanza, domain: domain, to: text)
        return edited == text ? nil : OutputFile.Change(target, path: path, text: edited)
    }
}
