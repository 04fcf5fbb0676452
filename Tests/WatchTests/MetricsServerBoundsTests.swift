import Foundation
import FoundationEssentials
import Glibc
import NIOCore
import NIOEmbedded
import Testing

@testable import Watch

/// Issue 30: about 1,000 slow connections to /metrics took every descriptor of watch. The
/// server holds at most its limit, a new connection takes the place of the oldest silent one,
/// and a silent one is closed after `requestTimeout`: a scrape is still answered.
@Suite("watch's metrics server under slow clients")
struct MetricsServerBoundsTests {
    /// A TCP connection to 127.0.0.1:`port` that waits at most `timeout` for each read.
    /// `receiveBuffer`: SO_RCVBUF, set before connecting (1: the smallest the kernel allows).
    static func connect(_ port: Int, timeout: Int = 15, receiveBuffer: Int32? = nil) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer { setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        let connected = Self.connect(socket, to: port)
        try #require(connected == 0, "connect: errno \(errno)")
        return socket
    }

    /// Connects `socket` to 127.0.0.1:`port`: connect(2)'s result.
    static func connect(_ socket: Int32, to port: Int) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// What a read until the end brought: the bytes, and the errno that ended it (nil: the
    /// server closed, FIN; ECONNRESET: a reset; EAGAIN: the read timed out).
    struct Received {
        let bytes: [UInt8]
        let error: Int32?
        /// When the read ended, taken on the reading thread: on a loaded machine the task may
        /// resume seconds later, and that is not the server's doing.
        let ended: ContinuousClock.Instant

        /// Everything, when the server closed; nil when the read failed or timed out.
        var text: String? { error == nil ? String(decoding: bytes, as: UTF8.self) : nil }
        var ending: String {
            switch error {
            case nil: "closed (FIN)"
            case ECONNRESET: "reset (ECONNRESET)"
            case EAGAIN: "no end before the read timed out"
            case let code?: "errno \(code)"
            }
        }
    }

    /// Everything the server sends until it closes (or the read times out: nil). The blocking
    /// reads run on a thread of their own: on two cores the cooperative pool has two threads,
    /// and two tests blocked in read() would starve every task of the suite.
    /// A thread of its own, not the shared pool: a read queued behind other suites' work would
    /// start late and measure the queue.
    static func readAll(_ socket: Int32) async -> String? {
        await receive(socket).text
    }

    static func receive(_ socket: Int32) async -> Received {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: readBlocking(socket)) }.start()
        }
    }

    private static func readBlocking(_ socket: Int32) -> Received {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count == 0 { return Received(bytes: received, error: nil, ended: .now) }
            if count < 0 { return Received(bytes: received, error: errno, ended: .now) }
            received += buffer[..<count]
        }
    }

    @Test("40 silent connections against a limit of 4: the server holds 4 and a scrape is still answered")
    func slowClientsBounded() async throws {
        let server = try await MetricsServer.start(host: "127.0.0.1", port: 0, board: WatchBoard(), gatewayLimit: 10, connectionLimit: 4)
        var silent: [Int32] = []
        defer {
            silent.forEach { _ = close($0) }
        }
        for _ in 0..<40 { silent.append(try Self.connect(server.port)) }
        let scrape = try Self.connect(server.port)
        defer { _ = close(scrape) }
        let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        #expect(write(scrape, request, request.count) == request.count)
        let answer = await Self.readAll(scrape)
        #expect(answer?.hasPrefix("HTTP/1.1 200 OK") == true, "\(answer ?? "no answer in time")")
        #expect(server.slots.count <= 4, "held: \(server.slots.count)")
        await server.stop()
    }

    /// The margin over `requestTimeout`: the timer fires on the server's own loop and the read
    /// returns on a thread of its own, so only two wake-ups lie between them, a few milliseconds
    /// even on a loaded 2-core machine; 2 s leaves room for a descheduled thread. The 10-20 s
    /// seen before came from children of the test process that inherited the server's socket
    /// (ChildProcess now closes them), and the read timing out (EAGAIN) looked like a reset.
    static let closeMargin = Duration.seconds(2)

    @Test("a client that sends nothing is closed (FIN, not a reset) after requestTimeout, not before and not much after")
    func silentClientClosed() async throws {
        let server = try await MetricsServer.start(host: "127.0.0.1", port: 0, board: WatchBoard(), gatewayLimit: 10)
        let lone = try Self.connect(server.port, timeout: 30)
        defer { _ = close(lone) }
        let started = ContinuousClock.now
        let received = await Self.receive(lone)
        #expect(received.error == nil && received.bytes.isEmpty, "\(received.ending), \(received.bytes.count) bytes")
        let waited = received.ended - started
        let timeout = Duration.nanoseconds(MetricsServer.requestTimeout.nanoseconds)
        #expect(waited >= timeout - .milliseconds(200) && waited < timeout + Self.closeMargin, "\(received.ending) after \(waited)")
        await server.stop()
    }

    @Test("the limit and its refusals leave the probes' reserve: 64 at most, fewer when the limit of open files is low, never none")
    func limitFromDescriptors() {
        let reserve = WatchPolicy().descriptorReserve
        #expect(MetricsServer.connectionLimit(descriptorLimit: 1024, reserved: reserve) == 64)
        #expect(MetricsServer.connectionLimit(descriptorLimit: reserve + 10, reserved: reserve) == 8, "with 2 for refusals")
        #expect(MetricsServer.connectionLimit(descriptorLimit: 256, reserved: reserve) == MetricsServer.minimumConnections)
    }

    @Test("evicting: the oldest still waiting becomes a refusal, a stalled answer closes, all answering refuses; refusals bounded")
    func eviction() {
        let slots = ConnectionSlots(limit: 2)
        let (a, b, c, d, e) = (EmbeddedChannel(), EmbeddedChannel(), EmbeddedChannel(), EmbeddedChannel(), EmbeddedChannel())
        func admit(_ channel: EmbeddedChannel) -> String {
            let admission = slots.admit(channel)
            let names = [a, b, c, d, e].enumerated().map { ($1, String(UnicodeScalar(UInt8(97 + $0)))) }
            func name(_ other: any Channel) -> String { names.first { $0.0 === other }?.1 ?? "?" }
            return (admission.served ? "served" : "refused") + admission.closed.map { " closes \(name($0))" }.joined()
                + (admission.refused.map { " refuses \(name($0))" } ?? "")
        }
        #expect([admit(a), admit(b)] == ["served", "served"])
        slots.answering(a)
        #expect(admit(c) == "served refuses b", "the oldest waiting gives way as a refusal, not the one being answered")
        #expect(slots.isRefused(b) && slots.refusedCount == 1)
        slots.answering(c)
        #expect(admit(d) == "refused closes b", "every slot answering: refused; one refusal at most (limit 2): the oldest closes")
        slots.stalled(a, true)
        #expect(admit(e) == "served closes a", "an answer that stands still gives way, closed")
        #expect(slots.count == 2 && slots.refusedCount == 1 && slots.isRefused(d), "\(slots.count) served, \(slots.refusedCount) refused")
        slots.release(d)
        slots.release(c)
        #expect(admit(a) == "served", "a released slot is free")
    }
}
