import Foundation
import FoundationEssentials
import Glibc
import Testing

@testable import Watch

/// Issue 30: under hundreds of slow clients a quarter to a third of honest scrapes failed with
/// ECONNRESET: a connection the server had no room for was closed with its request unread, and
/// the kernel answers unread data with a reset. A refused connection is now answered 503 with
/// Retry-After, its output shut, what it sends drained for a moment: the client reads the
/// answer whole and then the end. Real sockets on 127.0.0.1; blocking calls on threads of their own.
@Suite("watch's metrics server refuses without a reset")
struct MetricsServerRefusalTests {
    typealias Bounds = MetricsServerBoundsTests
    static let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

    /// A client that asks for the (large) /metrics and reads it slowly but steadily, 4 KiB every
    /// 100 ms: its answer never stands still, so its slot is neither evicted nor free for
    /// seconds. The reading runs on a thread of its own, until the end or `seconds`.
    static func slowReader(_ port: Int, seconds: Int = 20) throws -> Int32 {
        let socket = try Bounds.connect(port, timeout: seconds, receiveBuffer: 4096)
        try #require(write(socket, request, request.count) == request.count)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let end = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < end, read(socket, &buffer, buffer.count) > 0 { usleep(100_000) }
        }.start()
        return socket
    }

    /// How a scrape ended: "200", "503" (a whole 503 with Retry-After, then the end), or what went wrong.
    static func scrape(_ port: Int) async throws -> String {
        let socket = try Bounds.connect(port)
        defer { _ = close(socket) }
        guard write(socket, request, request.count) == request.count else { return "write failed: errno \(errno)" }
        let received = await Bounds.receive(socket)
        guard let text = received.text else { return "\(received.ending) after \(received.bytes.count) bytes" }
        if text.hasPrefix("HTTP/1.1 200 OK") { return "200" }
        let refusal = String(decoding: LingeringRefusal.answer, as: UTF8.self)
        return text == refusal ? "503" : "closed (FIN) after \(text.utf8.count) bytes: \(text.prefix(80).debugDescription)"
    }

    @Test("every slot answering a slow reader: scrapes are answered 503 whole with Retry-After and then FIN, never reset")
    func refusedScrapesRead503() async throws {
        let (board, _) = MetricsServerStallTests.largeBoard()
        let server = try await MetricsServer.start(
            host: "127.0.0.1", port: 0, board: board, gatewayLimit: MetricsServerStallTests.gateways, connectionLimit: 2)
        var readers: [Int32] = []
        defer { readers.forEach { _ = close($0) } }
        for _ in 0..<2 { readers.append(try Self.slowReader(server.port)) }
        let held = try await MetricsServerStallTests.eventually { server.slots.answeringCount == 2 }
        try #require(held, "both slots answering: \(server.slots.answeringCount) of \(server.slots.count)")
        var outcomes: [String] = []
        for _ in 0..<8 { outcomes.append(try await Self.scrape(server.port)) }
        let refused = outcomes.count { $0 == "503" }
        #expect(refused > 0 && outcomes.allSatisfy { $0 == "503" || $0 == "200" }, "\(refused) of 8 refused whole: \(outcomes)")
        #expect(server.slots.refusedCount <= server.slots.refusalLimit, "lingering: \(server.slots.refusedCount)")
        await server.stop()
    }

    @Test("slots + 50 clients sending a byte at a time: every scrape among them gets 200 or a whole 503, never a reset")
    func byteAtATimeFlood() async throws {
        let (board, _) = MetricsServerStallTests.largeBoard()
        let limit = 4
        let server = try await MetricsServer.start(
            host: "127.0.0.1", port: 0, board: board, gatewayLimit: MetricsServerStallTests.gateways, connectionLimit: limit)
        let flood = SlowFlood(port: server.port, connections: limit + 50)
        defer { flood.stop() }
        flood.start()
        var outcomes: [String] = []
        for _ in 0..<10 { outcomes.append(try await Self.scrape(server.port)) }
        let failed = outcomes.filter { $0 != "503" && $0 != "200" }
        #expect(
            failed.isEmpty,
            "\(failed.count) of \(outcomes.count) scrapes failed with \(flood.opened) slow clients open: \(outcomes)")
        #expect(server.slots.count <= limit && server.slots.refusedCount <= server.slots.refusalLimit, "held: \(server.slots.count)")
        await server.stop()
    }
}

/// Clients that send a request head a byte at a time and never finish it, opened one after
/// another on a thread of their own (at most `connections`, each sending a byte every 100 ms,
/// for at most 20 s): the slowloris the metrics server meets.
final class SlowFlood: @unchecked Sendable {
    let port: Int
    let connections: Int
    private let lock = NSLock()
    private var sockets: [Int32] = []
    private var stopped = false

    init(port: Int, connections: Int) {
        self.port = port
        self.connections = connections
    }

    var opened: Int { lock.withLock { sockets.count } }

    func start() {
        Thread { self.run() }.start()
    }

    func stop() {
        lock.withLock {
            stopped = true
            sockets.forEach { _ = close($0) }
            sockets = []
        }
    }

    /// A non-blocking socket connected to 127.0.0.1:`port`, or nil.
    private func connect() -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        let connected = MetricsServerBoundsTests.connect(socket, to: port)
        guard connected == 0, fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK) == 0 else {
            _ = close(socket)
            return nil
        }
        return socket
    }

    private func run() {
        let head = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 4096)
        let end = ContinuousClock.now + .seconds(20)
        var position = 0
        while ContinuousClock.now < end {
            let more = lock.withLock { !stopped && sockets.count < connections }
            if more, let socket = connect() {
                lock.withLock { sockets.append(socket) }
            }
            let done: Bool = lock.withLock {
                for socket in sockets { _ = send(socket, [head[position % head.count]], 1, Int32(MSG_NOSIGNAL)) }
                return stopped
            }
            if done { return }
            position += 1
            if !more { usleep(100_000) }
        }
    }
}
