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
            for name in names { #expect(queue.add(key(name), link)) }
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
        #expect(queue.retry(key("d"), link))
        _ = queue.add(key("e"), link)
        #expect(drain(&queue) == ["a", "e", "b", "c", "d (last try)"])
        #expect(queue.isEmpty && queue.waiting == 0)
    }

    @Test("the queue holds at most waitingLimit links; past it, add and retry say no")
    func bounded() {
        var queue = ResolveQueue()
        for index in 0..<ResolveQueue.waitingLimit { #expect(queue.add(key("n\(index)"), link)) }
        #expect(!queue.add(key("one too many"), link))
        #expect(!queue.retry(key("n0"), link))
        #expect(queue.waiting == ResolveQueue.waitingLimit)
        #expect(drain(&queue).count == ResolveQueue.waitingLimit)
        #expect(ResolveQueue.inFlightLimit < 1_024, "below avahi-daemon's objects-per-client-max")
    }
}
