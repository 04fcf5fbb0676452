import DNSSD
import Testing

@testable import Avahi

/// The order in which a browse resolves names, so that a flood of names that never resolve
/// cannot starve a real Gateway; no daemon needed.
@Suite("Resolve queue (which name gets the next resolver)")
struct ResolveQueueTests {
    let link = AvahiLink(interface: 2, protocolFamily: 0)

    func key(_ name: String) -> MulticastInstanceKey {
        MulticastInstanceKey(type: .gateway, domain: .local, name: try! InstanceName(decoded: name))
    }

    func drain(_ queue: inout ResolveQueue) -> [String] {
        var names: [String] = []
        while let item = queue.next() { names.append(item.key.name.displayName + (item.patient ? "" : " (last try)")) }
        return names
    }

    @Test("a Gateway before or after 500 flood names is among the first two resolved")
    func gatewayAtEitherEnd() {
        for position in [0, 500] {
            var queue = ResolveQueue()
            var names = (0..<500).map { "Flood \($0)" }
            names.insert("Studio", at: position)
            let added = names.map { queue.add(key($0), link) }
            #expect(added.allSatisfy { $0 })
            let order = drain(&queue)
            #expect(order.prefix(2).contains("Studio"), "Studio at \(position): resolved in order \(order.prefix(4))")
            #expect(order.count == 501 && Set(order).count == 501, "every name exactly once: \(order.count)")
        }
    }

    @Test("fresh names alternate newest and oldest; a name that timed out goes behind every fresh one, once, without patience")
    func retriesGoLast() {
        var queue = ResolveQueue()
        for name in ["a", "b", "c", "d"] { _ = queue.add(key(name), link) }
        #expect(queue.next()?.key.name.displayName == "d")
        let requeued = queue.retry(key("d"), link)
        #expect(requeued)
        _ = queue.add(key("e"), link)
        #expect(queue.hasNext(retrying: false))
        #expect(drain(&queue) == ["a", "e", "b", "c", "d (last try)"])
        #expect(queue.isEmpty && queue.waiting == 0)
        _ = queue.retry(key("f"), link)
        #expect(!queue.hasNext(retrying: false) && queue.next(retrying: false) == nil, "last tries wait while their slots are taken")
        #expect(queue.next(retrying: true)?.key == key("f"))
    }

    @Test("the queue holds at most waitingLimit links; past it, add and retry say no")
    func bounded() {
        var queue = ResolveQueue()
        let added = (0..<ResolveQueue.waitingLimit).map { queue.add(key("n\($0)"), link) }
        #expect(added.allSatisfy { $0 })
        let overflow = queue.add(key("one too many"), link)
        let overRetry = queue.retry(key("n0"), link)
        #expect(!overflow && !overRetry)
        #expect(queue.waiting == ResolveQueue.waitingLimit)
        #expect(drain(&queue).count == ResolveQueue.waitingLimit)
        #expect(ResolveQueue.inFlightLimit + ResolveQueue.lateLimit < 1_024, "below avahi-daemon's objects-per-client-max")
    }
}
