import FoundationEssentials
import Glibc
import Host
import NIOCore
import Testing

@testable import Watch

/// Issue 30's slow readers: about 100 sockets every 5 s that sent `GET /metrics` and never read
/// their answer (SO_RCVBUF=1, /metrics of ~150 KB) kept scrapes failing for ~80 s: a connection
/// being answered was never evicted, and its write stood still until the 30 s lifetime. An
/// answer that stands still now gives its slot to a newcomer after `stallGrace` and is closed
/// after `stallTimeout`. Real sockets on 127.0.0.1; blocking calls on threads of their own.
@Suite("watch's metrics server under clients that never read")
struct MetricsServerStallTests {
    typealias Bounds = MetricsServerBoundsTests
    static let gateways = 400

    /// A board whose /metrics is far larger than the socket buffers of a client that never
    /// reads and of the server's end (`MetricsServer.sendBuffer`) hold, and its size.
    static func largeBoard() -> (WatchBoard, Int) {
        let board = WatchBoard()
        board.update { snapshot in
            for index in 0..<gateways {
                snapshot.gateways["g\(index)"] = MetricsTextTests.gateway(
                    "g\(index)", instance: "Studio \(index) " + String(repeating: "x", count: 40))
            }
        }
        return (board, MetricsText.render(board.snapshot(), gatewayLimit: gateways).utf8.count)
    }

    /// A client that asks for /metrics and never reads the answer.
    static func neverReads(_ port: Int) throws -> Int32 {
        let socket = try Bounds.connect(port, receiveBuffer: 1)
        let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        try #require(write(socket, request, request.count) == request.count)
        return socket
    }

    /// Waits (at most `limit`) until `condition` holds; false when it never did.
    static func eventually(within limit: Duration = .seconds(15), _ condition: () -> Bool) async throws -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test("every slot held by a client that never reads: once an answer stands still, a scrape takes its slot and is answered whole")
    func stalledAnswersGiveWay() async throws {
        let (board, size) = Self.largeBoard()
        #expect(size > 300_000, "the answer is only \(size) bytes")
        let server = try await MetricsServer.start(
            host: "127.0.0.1", port: 0, board: board, gatewayLimit: Self.gateways, connectionLimit: 2)
        var slow: [Int32] = []
        defer { slow.forEach { _ = close($0) } }
        for _ in 0..<2 { slow.append(try Self.neverReads(server.port)) }
        // Both slots answered (their requests were whole at once), one of them standing still.
        let stalled = try await Self.eventually { server.slots.count == 2 && server.slots.stalledCount >= 1 }
        #expect(stalled, "stalled: \(server.slots.stalledCount) of \(server.slots.count)")
        let scrape = try Bounds.connect(server.port)
        defer { _ = close(scrape) }
        let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        #expect(write(scrape, request, request.count) == request.count)
        let answer = await Bounds.readAll(scrape)
        #expect(answer?.hasPrefix("HTTP/1.1 200 OK") == true, "\(answer?.prefix(200) ?? "no answer in time")")
        #expect((answer?.utf8.count ?? 0) > size, "got \(answer?.utf8.count ?? 0) bytes of a \(size)-byte body")
        #expect(server.slots.count <= 2, "held: \(server.slots.count)")
        await server.stop()
    }

    @Test("an answer the client does not read is closed after stallTimeout, before answerTimeout, not written whole")
    func stalledAnswerClosed() async throws {
        let (board, size) = Self.largeBoard()
        let server = try await MetricsServer.start(host: "127.0.0.1", port: 0, board: board, gatewayLimit: Self.gateways)
        let started = ContinuousClock.now
        let slow = try Self.neverReads(server.port)
        defer { _ = close(slow) }
        let held = try await Self.eventually(within: .seconds(5)) { server.slots.count == 1 }
        let closed = try await Self.eventually(within: .seconds(20)) { server.slots.count == 0 }
        let waited = ContinuousClock.now - started
        #expect(held && closed, "held: \(held), closed: \(closed) after \(waited)")
        let (stall, answer) = (
            Duration.nanoseconds(MetricsServer.stallTimeout.nanoseconds), Duration.nanoseconds(MetricsServer.answerTimeout.nanoseconds)
        )
        #expect(waited >= stall && waited < answer, "closed after \(waited)")
        // What reached the client before the close: the kernel's buffers, far from the whole answer.
        let received = await Bounds.readAll(slow)?.utf8.count ?? 0
        #expect(received < size, "received \(received) of \(size) bytes")
        await server.stop()
    }
}
