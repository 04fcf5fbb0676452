import Foundation
import FoundationEssentials
import Glibc
import NIOCore
import NIOEmbedded
import Testing

@testable import Watch

/// Issue 30's fifth attack: hundreds of connections that ask for /metrics and read their answer
/// a byte at a time (or never) made a quarter of other scrapes fail with "Connection reset by
/// peer": a connection that found every slot taken was closed before its request was read. A
/// scrape is now served, or at worst answered 503 with Retry-After; never reset. And a request
/// that does not parse gets one 400, at once. Real sockets on 127.0.0.1; blocking calls on
/// threads of their own.
@Suite("watch's metrics server under a flood of slow readers, and bad requests")
struct MetricsServerFloodTests {
    typealias Bounds = MetricsServerBoundsTests

    /// What one scrape got: the status line and whether Retry-After came, or the errno that
    /// ended it (ECONNRESET), or nothing before the server closed.
    enum Outcome: Equatable, CustomStringConvertible {
        case answered(String, retryAfter: Bool)
        case failed(errno: Int32)
        case empty

        var description: String {
            switch self {
            case .answered(let status, let retryAfter): "\(status)\(retryAfter ? " (Retry-After)" : "")"
            case .failed(let code): "errno \(code) (\(String(cString: strerror(code))))"
            case .empty: "closed without an answer"
            }
        }

        var servedOrBusy: Bool {
            switch self {
            case .answered(let status, let retryAfter): status.hasPrefix("HTTP/1.1 200") || (status.hasPrefix("HTTP/1.1 503") && retryAfter)
            default: false
            }
        }
    }

    /// Sends `request` on a new connection and reads until the server closes, on a thread.
    static func ask(_ port: Int, _ request: String) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: askBlocking(port, request)) }.start()
        }
    }

    private static func askBlocking(_ port: Int, _ request: String) -> Outcome {
        let (socket, failure) = Bounds.open(port, timeout: 20)
        if let failure { return .failed(errno: failure) }
        defer { _ = close(socket) }
        let bytes = Array(request.utf8)
        guard write(socket, bytes, bytes.count) == bytes.count else { return .failed(errno: errno) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count < 0 { return .failed(errno: errno) }
            if count == 0 { break }
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let status = text.split(separator: "\r\n").first, !text.isEmpty else { return .empty }
        return .answered(String(status), retryAfter: text.lowercased().contains("\r\nretry-after: "))
    }

    /// `count` clients that ask for /metrics with the smallest receive buffer and read their
    /// answer a byte every 20 ms, all from one thread, until `stop` is set.
    final class SlowReaders: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        private var sockets: [Int32] = []

        init(count: Int, port: Int) throws {
            for _ in 0..<count {
                let socket = try Bounds.connect(port, timeout: 20, receiveBuffer: 1)
                let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
                _ = write(socket, request, request.count)
                _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
                sockets.append(socket)
            }
            Thread { [self] in trickle() }.start()
        }

        private func trickle() {
            var byte: UInt8 = 0
            while !lock.withLock({ stopped }) {
                for socket in sockets { _ = read(socket, &byte, 1) }
                usleep(20_000)
            }
            sockets.forEach { _ = close($0) }
        }

        func stop() { lock.withLock { stopped = true } }
    }

    @Test("150 clients reading a byte at a time against a limit of 16: every scrape is served or told 503 with Retry-After")
    func slowReadersNeverResetAScrape() async throws {
        let (board, _) = MetricsServerStallTests.largeBoard()
        let server = try await MetricsServer.start(
            host: "127.0.0.1", port: 0, board: board, gatewayLimit: MetricsServerStallTests.gateways, connectionLimit: 16)
        let readers = try SlowReaders(count: 150, port: server.port)
        defer { readers.stop() }
        var outcomes: [Outcome] = []
        for _ in 0..<4 {
            outcomes += await withTaskGroup(of: Outcome.self) { group in
                for _ in 0..<5 { group.addTask { await Self.ask(server.port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        let bad = outcomes.filter { !$0.servedOrBusy }
        #expect(bad.isEmpty, "\(bad.count) of \(outcomes.count) scrapes neither served nor 503: \(outcomes)")
        #expect(outcomes.contains { $0.description.hasPrefix("HTTP/1.1 200") }, "not one scrape served: \(outcomes)")
        // The limit, and the few one batch of accepts brings in before accepting pauses.
        #expect(server.slots.count <= 16 + 4, "held: \(server.slots.count)")
        await server.stop()
    }

    @Test(
        "a request that does not parse, or HTTP/0.9: one 400, at once",
        arguments: [
            "GET /metrics\r\n\r\n", "NOT HTTP AT ALL\r\n\r\n", "GET /metrics HTTP/1.1\r\nBad Header\r\n\r\n", "\u{01}\u{02}\r\n\r\n",
        ])
    func badRequestOnce(_ request: String) async throws {
        let server = try await MetricsServer.start(host: "127.0.0.1", port: 0, board: WatchBoard(), gatewayLimit: 10)
        let started = ContinuousClock.now
        let socket = try Bounds.connect(server.port)
        defer { _ = close(socket) }
        let bytes = Array(request.utf8)
        #expect(write(socket, bytes, bytes.count) == bytes.count)
        let answer = await Bounds.readAll(socket) ?? "no answer in time"
        let took = ContinuousClock.now - started
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer: \(answer)")
        // The request timeout is 5 s: a 400 that waited for it came late.
        #expect(took < .seconds(3), "answered after \(took)")
        await server.stop()
    }
}
