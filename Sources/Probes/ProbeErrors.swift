import NIOCore
import NIOHTTP1
import NIOSSL
import NIOSupport
import NIOWebSocket

/// A probe connection read more than its byte budget (`WireObserver.byteLimit`).
struct TooMuchData: Error {}

/// An HTTP answer's body went past `HTTPProbe.bodyLimit`.
struct BodyTooLarge: Error {}

/// A WebSocket server sent more frames before its first message than a Gateway ever does.
struct TooManyFrames: Error {}

extension ProbeConnection {
    /// An error met while probing, as what happened. Never the libraries' own text: NIO's
    /// names its functions and enum cases (`responseProtocolNotFound`), the C library's is
    /// errno text, BoringSSL's carries build paths.
    static func describe(_ error: any Error) -> String {
        if let socket = SocketError(error) { return socket.description }
        switch error {
        case is TooMuchData:
            return "the server sent more than \(WireObserver.byteLimit / 1024 / 1024) MiB, far more than a Gateway's answer: "
                + "the connection was closed"
        case is BodyTooLarge:
            return "the answer's body is larger than \(HTTPProbe.bodyLimit / 1024) KiB, where a Gateway's is a few bytes of JSON"
        case is TooManyFrames:
            return "the server sent more than \(FirstFrameHandler.frameLimit) frames (pings, fragments) before its first message, "
                + "where a Gateway sends connect.challenge at once"
        case is ProbeTimeout:
            return "no answer in time"
        case is ChannelPipelineError:
            // The handlers of a connection the other side closed are gone before the probe's are added.
            return SocketError.closed.description
        case let ssl as NIOSSLError:
            return describe(ssl)
        case let boring as BoringSSLError:
            return "TLS failed: \(reason(boring))"
        case let parser as HTTPParserError:
            return "the answer is not valid HTTP/1.1 (\(words(parser))): something other than a Gateway answers on this port"
        case let upgrade as NIOHTTPClientUpgradeError:
            return describe(upgrade)
        case let frame as NIOWebSocketError:
            return describe(frame)
        default:
            return "an unexpected error (\(type(of: error)))"
        }
    }

    private static func describe(_ error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let boring): "TLS handshake failed: \(reason(boring))"
        case .uncleanShutdown: "the server closed the TLS connection without saying goodbye (no close_notify)"
        case .readInInvalidTLSState: "the server sent data after the TLS connection ended"
        default: "TLS failed unexpectedly"
        }
    }

    private static func describe(_ error: NIOHTTPClientUpgradeError) -> String {
        switch error {
        case .responseProtocolNotFound:
            "the server answered 101 Switching Protocols without `Upgrade: websocket`: not a WebSocket server"
        case .upgraderDeniedUpgrade:
            "the server answered 101 but its Sec-WebSocket-Accept does not match the key (RFC 6455 §4.2.2)"
        default:
            "the server's answer to the WebSocket upgrade is out of order: not a WebSocket server"
        }
    }

    private static func describe(_ error: NIOWebSocketError) -> String {
        switch error {
        case .invalidFrameLength:
            "the server sent a frame larger than \(WebSocketProbe.frameLimit / 1024) KiB before the handshake is complete"
        case .multiByteControlFrameLength:
            "the server sent a control frame (ping, pong or close) longer than 125 bytes, which RFC 6455 §5.5 forbids: not a "
                + "WebSocket server, or a broken one"
        case .fragmentedControlFrame:
            "the server sent a control frame in fragments, which RFC 6455 §5.5 forbids: not a WebSocket server, or a broken one"
        }
    }

    /// BoringSSL's reason (`WRONG_VERSION_NUMBER`) in words; its error text also holds codes
    /// and source paths.
    static func reason(_ error: BoringSSLError) -> String {
        let stack: [BoringSSLInternalError]
        switch error {
        case .sslError(let errors), .unknownError(let errors), .invalidSNIName(let errors), .failedToSetALPN(let errors): stack = errors
        case .zeroReturn: return "the server closed the connection"
        case .syscallError: return "the connection broke during the handshake"
        default: return "the handshake did not complete"
        }
        guard let code = stack.lazy.compactMap({ reasonCode(in: $0.description) }).first else {
            return stack.contains(.eofDuringHandshake) ? "the server closed the connection during the handshake" : "no reason given"
        }
        switch code {
        case "WRONG_VERSION_NUMBER", "PACKET_LENGTH_TOO_LONG", "HTTP_REQUEST", "BAD_PACKET_LENGTH":
            return "the server's answer is not TLS"
        case "TLSV1_ALERT_PROTOCOL_VERSION", "UNSUPPORTED_PROTOCOL":
            return "no TLS version in common (clawnet speaks TLS 1.2 and 1.3)"
        case "SSLV3_ALERT_HANDSHAKE_FAILURE", "NO_SHARED_CIPHER", "NO_CIPHERS_AVAILABLE":
            return "the server refused the handshake (no cipher or version in common)"
        case "EXCESSIVE_MESSAGE_SIZE":
            return "the server sent a handshake message larger than TLS allows (a huge certificate chain?)"
        case "DECODE_ERROR", "BAD_LENGTH", "UNEXPECTED_MESSAGE", "UNEXPECTED_RECORD", "BAD_ECPOINT", "PARSE_TLSEXT":
            return "the server's handshake is malformed"
        default:
            return code.lowercased().split(separator: "_").joined(separator: " ") + " (from BoringSSL)"
        }
    }

    /// `REASON` in `error:1000010b:SSL routines:OPENSSL_internal:REASON at /path/file.cc:123`.
    static func reasonCode(in text: String) -> String? {
        guard let start = text.firstRange(of: "error:") else { return nil }
        var error = text[start.upperBound...]
        if let path = error.firstRange(of: " at ") { error = error[..<path.lowerBound] }
        let fields = error.split(separator: ":")
        guard fields.count >= 4, let code = fields.last, code.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) else {
            return nil
        }
        return String(code)
    }

    private static func words(_ error: HTTPParserError) -> String {
        switch error {
        case .headerOverflow: "its headers are too large"
        case .invalidConstant, .invalidVersion: "it does not start like an HTTP response"
        case .invalidStatus: "its status line is malformed"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected: "its headers are malformed"
        case .invalidContentLength, .unexpectedContentLength, .invalidChunkSize: "its body length is malformed"
        case .invalidEOFState, .closedConnection: "it ended in the middle of a message"
        default: "it could not be read"
        }
    }
}
