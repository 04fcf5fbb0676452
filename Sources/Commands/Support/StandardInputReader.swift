import Host

/// Why standard input could not be read.
package struct StandardInputFailure: Error, CustomStringConvertible {
    package let description: String
}

/// Standard input read to its end, with a size bound: `zone check -` reads a zone from a pipe.
enum StandardInputReader {
    static func read(limit: Int) throws(StandardInputFailure) -> [UInt8] {
        do { return try RegularFile.readInput(RegularFile.standardInput, limit: limit).bytes } catch {
            throw StandardInputFailure(description: error.description)
        }
    }
}
