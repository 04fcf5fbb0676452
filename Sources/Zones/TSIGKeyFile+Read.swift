import DNSUpdate
import Host

extension TSIGKeyFile {
    /// The key in the file at `path` (`--tsig-key`): a regular file of at most
    /// `FileLimit.tsigKey` bytes, refused before anything is read otherwise.
    public static func read(path: String) throws(TSIGKeyFileError) -> TSIGKey {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, limit: FileLimit.tsigKey) } catch {
            throw TSIGKeyFileError(error.description)
        }
        return try parse(bytes: bytes, file: path)
    }
}
