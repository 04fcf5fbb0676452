import DNSSD
import FuzzSupport
import Glibc

/// Names and labels in presentation format (`\DDD`, `\X`): whatever parses, escaping it again
/// and parsing that gives the same bytes; SafeText never lets a control character through.
func fuzz(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let labels = try? Presentation.splitName(text) {
        let again = try? Presentation.splitName(Presentation.joinName(labels))
        precondition(again == labels, "a name does not survive escaping: \(text.debugDescription)")
    }
    if let label = try? Presentation.unescapeLabel(Substring(text)) {
        let again = try? Presentation.unescapeLabel(Substring(Presentation.escapeLabel(label)))
        precondition(again == label, "a label does not survive escaping: \(text.debugDescription)")
    }
    for shown in [SafeText.display(bytes), SafeText.line(text), Presentation.escapeLabel(bytes), Presentation.quoteCharacterString(bytes)] {
        precondition(!shown.unicodeScalars.contains(where: SafeText.isControl), "a control character passed: \(shown.debugDescription)")
    }
}

runFuzzer(fuzz)
