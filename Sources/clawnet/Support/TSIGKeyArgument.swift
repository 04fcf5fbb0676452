import ArgumentParser
import DNSUpdate

extension ParsedArguments {
    /// `--tsig-key FILE`: the key, or a usage error naming the file (never the secret).
    static func tsigKey(_ path: String?) throws -> TSIGKey? {
        guard let path else { return nil }
        do throws(TSIGKeyFileError) { return try TSIGKeyFile.read(path: path) } catch {
            throw ValidationError("--tsig-key: \(error.description)")
        }
    }
}
