/// A tar archive in the POSIX pax format (IEEE Std 1003.1-2001 `pax`, ustar headers with an
/// extended header where a name does not fit), built in memory: regular files only, mode 0644,
/// owner 0, the given time. A name longer than ustar's 100 bytes is carried whole in a `path`
/// record of an extended header before the file, as GNU tar, bsdtar and Python's tarfile read it;
/// the ustar header then holds its first 100 bytes (what a reader without pax support extracts).
package struct TarArchive: Sendable {
    private(set) var bytes: [UInt8] = []
    /// ustar's name field.
    package static let nameLimit = 100
    package static let block = 512

    package init() {}

    package struct EmptyName: Error {}

    /// Appends a regular file.
    package mutating func add(_ name: String, _ content: [UInt8], modified: Int64) throws(EmptyName) {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty else { throw EmptyName() }
        if nameBytes.count > Self.nameLimit {
            let record = Self.record("path", nameBytes)
            append(header(name: Array("PaxHeaders/\(nameBytes.count)".utf8), size: record.count, modified: modified, type: "x"), record)
        }
        append(header(name: Array(nameBytes.prefix(Self.nameLimit)), size: content.count, modified: modified, type: "0"), content)
    }

    /// A pax record: `LENGTH KEY=VALUE\n`, LENGTH counting itself.
    package static func record(_ key: String, _ value: [UInt8]) -> [UInt8] {
        let rest = Array(" \(key)=".utf8) + value + [UInt8(ascii: "\n")]
        var length = rest.count + 1
        while String(length).utf8.count + rest.count != length { length = String(length).utf8.count + rest.count }
        return Array(String(length).utf8) + rest
    }

    private mutating func append(_ header: [UInt8], _ content: [UInt8]) {
        bytes += header + content
        bytes += [UInt8](repeating: 0, count: (Self.block - content.count % Self.block) % Self.block)
    }

    private func header(name: [UInt8], size: Int, modified: Int64, type: Character) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: Self.block)
        func put(_ field: [UInt8], at offset: Int) { header.replaceSubrange(offset..<offset + field.count, with: field) }
        func octal(_ value: Int64, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        put(name, at: 0)
        put(octal(0o644, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(Int64(size), width: 12), at: 124)
        put(octal(modified, width: 12), at: 136)
        put(Array("        ".utf8), at: 148)  // the checksum counts its own field as spaces
        header[156] = type.asciiValue ?? UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        put(Array("root".utf8), at: 265)
        put(Array("root".utf8), at: 297)
        let checksum = header.reduce(0) { $0 + Int64($1) }
        put(octal(checksum, width: 7) + [UInt8(ascii: " ")], at: 148)
        return header
    }

    /// The archive, ended by two zero blocks.
    package var finished: [UInt8] { bytes + [UInt8](repeating: 0, count: 2 * Self.block) }
}
