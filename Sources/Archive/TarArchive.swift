/// A tar archive in the POSIX ustar format, built in memory: regular files only, each with a
/// name of at most 100 bytes, mode 0644, owner 0, the given time. Enough for `clawnet
/// report`, whose files it names itself; `tar` and Python's tarfile read it.
public struct TarArchive: Sendable {
    private(set) var bytes: [UInt8] = []
    /// ustar's name field.
    static let nameLimit = 100
    static let block = 512

    public init() {}

    public struct NameTooLong: Error {}

    /// Appends a regular file.
    public mutating func add(_ name: String, _ content: [UInt8], modified: Int64) throws(NameTooLong) {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count <= Self.nameLimit else { throw NameTooLong() }
        var header = [UInt8](repeating: 0, count: Self.block)
        func put(_ field: [UInt8], at offset: Int) { header.replaceSubrange(offset..<offset + field.count, with: field) }
        func octal(_ value: Int64, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        put(nameBytes, at: 0)
        put(octal(0o644, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(Int64(content.count), width: 12), at: 124)
        put(octal(modified, width: 12), at: 136)
        put(Array("        ".utf8), at: 148)  // the checksum counts its own field as spaces
        header[156] = UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        put(Array("root".utf8), at: 265)
        put(Array("root".utf8), at: 297)
        let checksum = header.reduce(0) { $0 + Int64($1) }
        put(octal(checksum, width: 7) + [UInt8(ascii: " ")], at: 148)
        bytes += header + content
        bytes += [UInt8](repeating: 0, count: (Self.block - content.count % Self.block) % Self.block)
    }

    /// The archive, ended by two zero blocks.
    public var finished: [UInt8] { bytes + [UInt8](repeating: 0, count: 2 * Self.block) }
}
