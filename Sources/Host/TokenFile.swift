import DNSSD
import Glibc

/// A token kept in a file (`--token-file`), read as a credential should be: a regular file,
/// small, its first line trimmed. The token itself never reaches a message.
public enum TokenFile {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Tokens are a few dozen characters; a bigger file is not a token file.
    static let maxBytes = 4096

    public static func read(_ path: String) throws(Failure) -> GatewayToken {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(description: "--token-file \(path): cannot read it (missing?)") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(description: "--token-file \(path): not a regular file") }
        guard info.st_size <= maxBytes else {
            throw Failure(description: "--token-file \(path): \(info.st_size) bytes; a token file holds one short line")
        }
        guard let file = fopen(path, "r") else { throw Failure(description: "--token-file \(path): cannot open it (permissions?)") }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        let count = fread(&buffer, 1, buffer.count, file)
        let line = buffer.prefix(count).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        guard let text = String(validating: line, as: UTF8.self),
            let token = GatewayToken(text, source: "--token-file \(path)", owner: info.st_uid)
        else {
            throw Failure(description: "--token-file \(path): its first line is empty or not UTF-8")
        }
        return token
    }
}
