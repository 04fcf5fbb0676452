import Testing

@testable import Avahi

/// The bound at the C boundary, on a plain stream: what a reader that fell behind gets.
@Suite("Avahi's C boundary: a bounded stream ends with why")
struct StreamBoundTests {
    @Test("past the bound the last place says why, the stream ends, and the producer is told to stop")
    func bound() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingOldest(3))
        let accepted = (1...5).map { continuation.yield($0, orEndWith: -1) }
        #expect(accepted == [true, false, false, false, false])
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1, 2, -1])
    }

    @Test("a reader that keeps up never reaches the bound")
    func keepingUp() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingOldest(3))
        var iterator = stream.makeAsyncIterator()
        var received: [Int] = []
        for value in 1...10 {
            #expect(continuation.yield(value, orEndWith: -1))
            if let next = await iterator.next() { received.append(next) }
        }
        #expect(received == Array(1...10))
    }
}
