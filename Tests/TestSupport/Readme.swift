import Foundation

/// The README's text and code, taken at their word.
package enum Readme {
    package struct Missing: Error, CustomStringConvertible {
        package let description: String
    }

    package static var text: String {
        get throws { try String(contentsOfFile: "\(packageRoot)/README.md", encoding: .utf8) }
    }

    /// The first ```sh block after the heading that starts with `heading`.
    package static func shellBlock(after heading: String) throws -> String {
        let lines = try text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else {
            throw Missing(description: "no heading \(heading) in README.md")
        }
        guard let open = lines[start...].firstIndex(of: "```sh"), let close = lines[(open + 1)...].firstIndex(of: "```") else {
            throw Missing(description: "no closed ```sh block after \(heading) in README.md")
        }
        return lines[(open + 1)..<close].joined(separator: "\n") + "\n"
    }
}
