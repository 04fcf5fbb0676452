import DNSSD

/// A token kept in a file (`--token-file`), read as a credential should be: a regular file (or `-`, a pipe),
/// small, its first line trimmed. The token itself never reaches a message.
package enum TokenFile {
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    package static func read(_ path: String) throws(Failure) -> GatewayToken {
        let (bytes, owner): ([UInt8], UInt32)
        do { (bytes, owner) = try RegularFile.readInput(path, limit: FileLimit.token) } catch {
            throw Failure(description: "--token-file: \(error.description)")
        }
        let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        guard let text = String(validating: line, as: UTF8.self),
            let token = GatewayToken(text, source: "--token-file \(path)", owner: owner)
        else {
            throw Failure(description: "--token-file \(path): its first line is empty or not UTF-8")
        }
        return token
    }
}
