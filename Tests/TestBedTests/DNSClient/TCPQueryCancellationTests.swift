import DNSSD
import DNSWire
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TestSupport
import Testing

@testable import DNSClient

/// A TCP query to the test bed's black hole (routed from node to gw, which drops it without
/// ICMP): its connect neither succeeds nor fails until it is given up. The kernel gives up a
/// SYN after about 127 s (tcp_syn_retries 6), so within the 2-minute limit only a cancellation
/// ends a query whose connect has an hour.
@Suite("TCP queries to a black hole", .testBed, .serialized, .timeLimit(.minutes(2)))
struct TCPQueryCancellationTests {
    static let name = try! DNSName(presentation: "_openclaw-gw._tcp.openclaw.internal.")

    func blackHole() throws -> DNSServer {
        let text = try TestBed.current().value("TB_BLACKHOLE_IP")
        let address = try #require(IPAddress(text), "TB_BLACKHOLE_IP is '\(text)': the test bed is older than this test")
        return DNSServer(address: address, port: 53)
    }

    func question() throws -> DNSQuestion {
        DNSQuestion(name: Self.name, type: .ptr, wire: try DNSWireCodec.query(name: Self.name, type: .ptr, id: 0))
    }

    @Test("the black hole is one: a connect there ends by its own timeout, not refused or unreachable")
    func blackHoleTimesOut() async throws {
        let server = try blackHole()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        await #expect(throws: DNSQueryFailure.timeout(server, attempts: 1)) {
            try await TCPQuery.run(try question(), server: server, group: group, timeout: .milliseconds(300))
        }
        try await group.shutdownGracefully()
    }

    @Test("a cancelled query returns at once, though its connect would wait an hour")
    func cancelledConnect() async throws {
        let server = try blackHole()
        let question = try question()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let query = Task { try await TCPQuery.run(question, server: server, group: group, timeout: .seconds(3600)) }
        query.cancel()
        // Only the cancellation can end it within the time limit: the connect has an hour.
        let result = await query.result
        guard case .failure(let failure as DNSQueryFailure) = result else {
            Issue.record("the cancelled query ended with \(result)")
            return
        }
        #expect(failure == .timeout(server, attempts: 1), "saw: \(failure)")
        // The pending connect is NIO's: shutting the loop down ends it.
        try await group.shutdownGracefully()
    }

    @Test("a query cancelled while its SYN is out returns while the connect is still under way")
    func cancelledWhileConnecting() async throws {
        let server = try blackHole()
        let question = try question()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let ended = Ended()
        let query = Task {
            defer { ended.mark() }
            return try await TCPQuery.run(question, server: server, group: group, timeout: .seconds(3600))
        }
        // The kernel's table is the only witness of a connect under way: read it until it
        // shows (or the query ends, which it must not).
        var connecting = false
        for _ in 0..<2000 where !ended.value {
            connecting = Self.synSent(to: server)
            if connecting { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(connecting, "no SYN-SENT connection to \(server) in /proc/net/tcp; the query \(ended.value ? "had ended" : "ran on")")
        query.cancel()
        let result = await query.result
        let stillConnecting = Self.synSent(to: server)
        guard case .failure(let failure as DNSQueryFailure) = result else {
            Issue.record("the cancelled query ended with \(result)")
            return
        }
        #expect(failure == .timeout(server, attempts: 1), "saw: \(failure)")
        #expect(stillConnecting, "the query returned, but its connect had ended first: the return was not the cancellation's")
        try await group.shutdownGracefully()
    }

    /// True while this namespace has a TCP connection to `server` in SYN-SENT (state 02 of
    /// /proc/net/tcp, whose addresses are hex in network order read as a little-endian word).
    static func synSent(to server: DNSServer) -> Bool {
        // Read to the end: the kernel hands the table out a page at a time.
        guard let bytes = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp")).readToEnd() else { return false }
        let table = String(decoding: bytes, as: UTF8.self)
        let octets = server.address.description.split(separator: ".").compactMap { UInt8($0) }
        let hex = octets.reversed().map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        let port = String(server.port, radix: 16, uppercase: true)
        let remote = hex + ":" + String(repeating: "0", count: 4 - port.count) + port
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[2] == remote && fields[3] == "02"
        }
    }
}

/// Whether a task's body has returned, read from another task.
final class Ended: Sendable {
    private let state = Mutex(false)
    var value: Bool { state.withLock { $0 } }
    func mark() { state.withLock { $0 = true } }
}
