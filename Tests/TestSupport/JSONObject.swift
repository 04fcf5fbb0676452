import Foundation

/// Text that should be one JSON object and is not.
package struct NotAJSONObject: Error, CustomStringConvertible {
    package let description: String
}

/// `text` parsed as one JSON object, as clawnet's `--format json` prints it.
package func jsonObject(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw NotAJSONObject(description: "not a JSON object: \(text)")
    }
    return object
}
