import Synchronization
import Testing

@testable import Discovery

@Suite("BoundedBuffer: backpressure, close, cancellation")
struct BoundedBufferTests {
    /// Yields until `condition` holds: the other task gets to run, no time is assumed.
    func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test("a producer waits while the buffer is full, and goes on as the consumer takes; order is kept")
    func backpressure() async {
        let buffer = BoundedBuffer<Int>(capacity: 4)
        let sent = Mutex(0)
        let producer = Task {
            for value in 0..<10 {
                await buffer.send(value)
                sent.withLock { $0 += 1 }
            }
        }
        await until { buffer.occupancy.waiting == 1 }
        #expect(buffer.occupancy.queued == 4 && sent.withLock { $0 } == 4, "\(buffer.occupancy)")
        var received: [Int] = []
        for _ in 0..<10 { if let value = await buffer.next() { received.append(value) } }
        await producer.value
        #expect(received == Array(0..<10))
        #expect(buffer.occupancy.queued == 0 && buffer.occupancy.waiting == 0)
    }

    @Test("close: a waiting producer is refused, later sends too; the consumer gets what was queued, then nil")
    func close() async {
        let buffer = BoundedBuffer<Int>(capacity: 2)
        await buffer.send(1)
        await buffer.send(2)
        let waiting = Task { await buffer.send(3) }
        await until { buffer.occupancy.waiting == 1 }
        buffer.close()
        #expect(await waiting.value == false)
        #expect(await buffer.send(4) == false)
        #expect(await buffer.next() == 1)
        #expect(await buffer.next() == 2)
        #expect(await buffer.next() == nil)
    }

    @Test("a consumer waiting on an empty buffer gets nil when its task is cancelled")
    func cancelledConsumer() async {
        let buffer = BoundedBuffer<Int>(capacity: 2)
        let consumer = Task { await buffer.next() }
        consumer.cancel()
        #expect(await consumer.value == nil)
        #expect(await buffer.send(1) == false, "a cancelled consumer closes the buffer")
    }

    @Test("a producer waiting for room stops when its task is cancelled; its element is dropped")
    func cancelledProducer() async {
        let buffer = BoundedBuffer<Int>(capacity: 1)
        await buffer.send(1)
        let producer = Task { await buffer.send(2) }
        await until { buffer.occupancy.waiting == 1 }
        producer.cancel()
        #expect(await producer.value == false)
        #expect(buffer.occupancy == (1, 0))
        #expect(await buffer.next() == 1)
    }
}
