import Glibc

/// Why standard input could not be read.
struct StandardInputFailure: Error, CustomStringConvertible {
    let description: String
}

/// Standard input read to its end, with a size bound: `zone check -` reads a zone from a pipe.
enum StandardInputReader {
    static func read(limit: Int) throws(StandardInputFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw StandardInputFailure(description: "cannot read standard input: \(String(cString: strerror(errno)))") }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit {
                throw StandardInputFailure(
                    description: "standard input is larger than \(limit / (1024 * 1024)) MiB; give the file's path instead")
            }
        }
    }
}
