import Glibc
import NIOCore

/// What a socket error means, in words an operator can act on. NIO's own descriptions name
/// its functions (`connect(descriptor:addr:size:)`) and carry the C library's errno text;
/// neither reaches the user.
package enum SocketError: Hashable, Sendable, CustomStringConvertible {
    /// Nothing listens on that port: a TCP reset answering the SYN, or for UDP an ICMP
    /// "port unreachable" (ECONNREFUSED on a connected socket).
    case refused
    /// The other side reset a connection that was open.
    case reset
    /// The other side closed the connection.
    case closed
    /// No answer in time.
    case timedOut
    /// No route to the host or its network, or this machine's network is down.
    case noRoute(String)
    /// This address cannot be used from here.
    case unusableAddress(String)
    /// This process or machine has no descriptor or socket buffer left (EMFILE, ENFILE,
    /// ENOBUFS, ENOMEM): nothing was sent, so it says nothing of the other side.
    case localShortage(String)
    /// Anything else, in words.
    case other(String)

    /// The meaning of an error from a socket, or nil when `error` is not one.
    package init?(_ error: any Error) {
        if let io = error as? IOError {
            self.init(errno: io.errnoCode)
        } else if let channel = error as? ChannelError {
            switch channel {
            case .connectTimeout: self = .timedOut
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: self = .closed
            case .writeHostUnreachable: self = .noRoute("no route to host")
            default: self = .other("the connection failed unexpectedly")
            }
        } else {
            return nil
        }
    }

    package init(errno code: Int32) {
        switch code {
        case ECONNREFUSED: self = .refused
        case ECONNRESET, ECONNABORTED: self = .reset
        case EPIPE, ESHUTDOWN: self = .closed
        case ETIMEDOUT: self = .timedOut
        case EHOSTUNREACH, EHOSTDOWN: self = .noRoute("no route to host")
        case ENETUNREACH: self = .noRoute("network unreachable")
        case ENETDOWN: self = .noRoute("this machine's network is down")
        case EADDRNOTAVAIL: self = .unusableAddress("address not available here")
        case EADDRINUSE: self = .other("the address and port are already in use")
        case EINVAL, EAFNOSUPPORT, EDESTADDRREQ: self = .unusableAddress("this machine cannot send to that address")
        case EACCES, EPERM: self = .other("not permitted (a firewall rule on this machine, or a broadcast address)")
        case EMFILE: self = .localShortage("this process has no file descriptor left (too many open files)")
        case ENFILE: self = .localShortage("this machine has no file descriptor left (too many open files)")
        case ENOBUFS, ENOMEM: self = .localShortage("this machine is out of memory for sockets")
        default: self = .other("an unexpected socket error (errno \(code))")
        }
    }

    package var description: String {
        switch self {
        case .refused: "connection refused (nothing listens on that port)"
        case .reset: "the other side reset the connection"
        case .closed: "the other side closed the connection"
        case .timedOut: "no answer in time"
        case .noRoute(let why), .unusableAddress(let why), .localShortage(let why), .other(let why): why
        }
    }
}
