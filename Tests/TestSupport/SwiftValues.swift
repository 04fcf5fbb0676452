import Foundation

/// The lines of a log that show a Swift value instead of words: `Optional(...)`, a generic type
/// (`PhaseTiming<ConnectOutcome>`), a struct dump (`Endpoint(host: ...)`), an enum case with a
/// labelled payload (`serverError(BADKEY, serverTime: nil)`), a module-qualified name.
package func swiftValueLines(in log: String) -> [String] {
    let patterns = [
        #"Optional\("#, #"\b[A-Z][A-Za-z0-9]*<[A-Z][A-Za-z0-9]*>"#, #"\b[A-Z][A-Za-z0-9]*\([a-z][A-Za-z0-9]*:"#,
        #"\b[a-z][A-Za-z0-9]*\([^()]*, [a-z][A-Za-z0-9]*: "#, #"\b(Swift|Foundation|NIOCore|DNSSD|Probes)\.[A-Z]"#,
    ].map { try! NSRegularExpression(pattern: $0) }
    return log.split(separator: "\n").map(String.init).filter { line in
        let range = NSRange(line.startIndex..., in: line)
        return patterns.contains { $0.firstMatch(in: line, range: range) != nil }
    }
}
