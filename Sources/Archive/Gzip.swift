import CZlib

/// gzip (RFC 1952) through zlib's deflate.
package enum Gzip {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// zlib's windowBits for a gzip wrapper instead of zlib's own: 15 + 16.
    package static let gzipWindowBits: Int32 = 15 + 16
    package static let memoryLevel: Int32 = 8

    package static func compress(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, gzipWindowBits, memoryLevel, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw Failure(description: "zlib: deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        var input = input
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "zlib: deflate ended with \(status)") }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
