/// A TLS protocol version by its wire number (RFC 8446 §4.2.1, supported_versions; RFC 5246
/// for the legacy field). Rules match on the case; `description` is for messages and JSON.
public enum TLSProtocolVersion: Sendable, Hashable, CustomStringConvertible {
    case tls10, tls11, tls12, tls13
    /// A number no TLS version has: shown as hex.
    case other(UInt16)
    /// The handshake finished, yet neither NIOSSL nor the ServerHello said which version.
    case unknown

    package init(wire: UInt16) {
        switch wire {
        case 0x0301: self = .tls10
        case 0x0302: self = .tls11
        case 0x0303: self = .tls12
        case 0x0304: self = .tls13
        default: self = .other(wire)
        }
    }

    public var description: String {
        switch self {
        case .tls10: "TLS 1.0"
        case .tls11: "TLS 1.1"
        case .tls12: "TLS 1.2"
        case .tls13: "TLS 1.3"
        case .other(let wire): "0x" + String(wire, radix: 16)
        case .unknown: "unknown"
        }
    }
}

/// A TLS alert's description byte (RFC 8446 §6), named where doctor explains it.
package enum TLSAlert: Sendable, Hashable, CustomStringConvertible {
    /// 40: the server found no acceptable set of parameters.
    case handshakeFailure
    /// 70: no protocol version in common.
    case protocolVersion
    case other(UInt8)

    package init(code: UInt8) {
        switch code {
        case 40: self = .handshakeFailure
        case 70: self = .protocolVersion
        default: self = .other(code)
        }
    }

    package var code: UInt8 {
        switch self {
        case .handshakeFailure: 40
        case .protocolVersion: 70
        case .other(let code): code
        }
    }

    /// `TLS alert 70 (protocol_version: no TLS version in common)`; the number alone when unnamed.
    package var description: String {
        switch self {
        case .handshakeFailure: "TLS alert 40 (handshake_failure)"
        case .protocolVersion: "TLS alert 70 (protocol_version: no TLS version in common)"
        case .other(let code): "TLS alert \(code)"
        }
    }
}
