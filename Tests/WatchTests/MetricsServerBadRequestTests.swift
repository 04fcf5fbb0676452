import Foundation
import FoundationEssentials
import Glibc
import Testing

@testable import Watch

/// Issue 30's fifth attack: `GET /metrics` without a version (HTTP/0.9) got two 400 answers,
/// and other requests that do not parse got theirs only when the 5 s request timeout closed
/// the connection. Now one 400, at once. Real sockets on 127.0.0.1.
@Suite("watch's metrics server and requests that do not parse")
struct MetricsServerBadRequestTests {
    typealias Bounds = MetricsServerBoundsTests

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
