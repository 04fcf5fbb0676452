import FuzzSupport
import Glibc
import Probes

/// The first bytes a TLS server sends, read for its ServerHello; every prefix too, as the
/// bytes arrive in pieces.
func fuzz(_ bytes: [UInt8]) {
    let whole = ServerHello.parse(bytes)
    if case .hello(let hello) = whole {
        _ = (hello.protocolVersion.description, hello.cipherName)
    }
    for end in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 8)) {
        _ = ServerHello.parse(Array(bytes[..<end]))
    }
}

runFuzzer(fuzz)
