import DNSWire
import FuzzSupport
import Glibc

/// DNS messages as a server might send them, through the ldns wrapper into Swift values.
func fuzz(_ bytes: [UInt8]) {
    guard let message = try? DNSWireCodec.decode(bytes) else { return }
    for record in message.answers + message.authority + message.additional {
        _ = record.description
    }
}

runFuzzer(fuzz)
