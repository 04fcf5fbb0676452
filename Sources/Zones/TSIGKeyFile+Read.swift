import DNSUpdate
import Host

extension TSIGKeyFile {
    /// The key in the file at `path` (`--tsig-key`): a regular file, `-` or a pipe of at most
    /// `FileLimit.tsigKey` bytes (a directory or a device is refused before anything is read).
    package static func read(path: String) throws(TSIGKeyFileError) -> TSIGKey {
        let bytes: [UInt8]
        do { bytes = try RegularFile.readInput(path, limit: FileLimit.tsigKey).bytes } catch {
            throw TSIGKeyFileError(error.description)
        }
        return try parse(bytes: bytes, file: path)
    }
}
