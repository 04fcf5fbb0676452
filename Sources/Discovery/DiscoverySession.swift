import Avahi
import DNSSD

/// mDNS in local., unicast DNS-SD in every wide-area domain and the manual targets, run
/// concurrently as the child tasks of one task group, with a row per Gateway (see BeaconMerger
/// for the identity rule). A failing backend reports an error and never stops the others;
/// `.allForNow` comes once every backend has reported all it knows.
///
/// Backends hand their events to the session through one bounded buffer: a consumer that
/// falls behind (a terminal that prints slowly) makes them wait, it never makes a queue grow.
package enum DiscoverySession {
    /// One path of discovery, run as a child task: it emits what it finds (waiting while the
    /// buffer is full) and returns when it has said all it will.
    typealias Backend = @Sendable (_ emit: @escaping @Sendable (DiscoveryEvent) async -> Void) async -> Void

    /// Events waiting for the consumer; past this, backends wait. A handful of Gateways a
    /// second is what a LAN announces; this absorbs a burst without holding a fleet in memory.
    static let bufferCapacity = 64

    /// What reaches the consumer through the buffer.
    enum Message: Sendable {
        case event(DiscoveryEvent, from: Int)
        /// Backend `index` returned: it has said all it will.
        case ended(Int)
        case deadline
    }

    static func backends(_ request: DiscoveryRequest) -> [Backend] {
        var backends: [Backend] = []
        if request.local {
            // The C boundary: Avahi's callbacks reach Swift through this stream, and only there.
            backends.append { emit in
                for await event in request.multicast.browse(types: request.types, watch: request.watch) { await emit(event) }
            }
        }
        if !request.domains.isEmpty {
            let unicast = UnicastBackend(configuration: request.unicast)
            backends.append { emit in await unicast.run(types: request.types, domains: request.domains, watch: request.watch, emit: emit) }
        }
        if !request.manual.isEmpty {
            let manual = ManualBackend(lookupTimeout: request.lookupTimeout)
            backends.append { emit in await manual.run(request.manual, defaultTLS: request.manualTLS, emit: emit) }
        }
        return backends
    }

    /// Runs `backends` until `handle` returns false, every backend has ended, `deadline` passes
    /// or this task is cancelled; `handle` sees the merged events in order, in this task. True
    /// when the deadline ended it. Every backend has stopped when this returns.
    static func run(
        _ backends: [Backend], deadline: Duration?, known: [GatewayBeacon] = [], handle: (DiscoveryEvent) -> Bool
    ) async -> Bool {
        guard !backends.isEmpty else {
            _ = handle(.allForNow)
            return false
        }
        let buffer = BoundedBuffer<Message>(capacity: bufferCapacity)
        return await withTaskGroup(of: Void.self) { group in
            for (index, backend) in backends.enumerated() {
                group.addTask {
                    await backend { event in await buffer.send(.event(event, from: index)) }
                    await buffer.send(.ended(index))
                }
            }
            if let deadline {
                group.addTask {
                    guard (try? await Task.sleep(for: deadline)) != nil else { return }
                    await buffer.send(.deadline)
                }
            }
            let timedOut = await consume(buffer, backends: backends.count, merger: BeaconMerger(remembering: known), handle: handle)
            buffer.close()
            group.cancelAll()
            return timedOut
        }
    }

    /// Merges what the backends send until the session is over; true at the deadline.
    private static func consume(
        _ buffer: BoundedBuffer<Message>, backends: Int, merger: BeaconMerger, handle: (DiscoveryEvent) -> Bool
    ) async -> Bool {
        var merger = merger
        var completion = BackendCompletion(backends: backends)
        while let message = await buffer.next() {
            let merged: [DiscoveryEvent]
            switch message {
            case .deadline: return true
            case .ended(let index): merged = completion.ended(index) ? [.allForNow] : []
            case .event(.allForNow, let index): merged = completion.allForNow(from: index) ? [.allForNow] : []
            case .event(let event, _): merged = merger.apply(event)
            }
            for event in merged where !handle(event) { return false }
            if completion.isFinished { return false }
        }
        return false
    }
}

/// When the backends of a session have reported all they know, and when it is over.
struct BackendCompletion: Sendable {
    /// Backends that have not yet reported all they know.
    private var pending: Set<Int>
    /// Backends that have not ended.
    private var running: Set<Int>

    init(backends: Int) {
        pending = Set(0..<backends)
        running = Set(0..<backends)
    }

    var isFinished: Bool { running.isEmpty }

    /// Backend `index` reported all it knows. True when the session should say so: the
    /// first time every backend has, and every time after (a backend caught up again after a
    /// restart, in watch mode).
    mutating func allForNow(from index: Int) -> Bool {
        if pending.isEmpty { return true }
        return pending.remove(index) != nil && pending.isEmpty
    }

    /// Backend `index` ended: it has said all it will. True when that completes the first
    /// all-for-now.
    mutating func ended(_ index: Int) -> Bool {
        running.remove(index)
        return pending.remove(index) != nil && pending.isEmpty
    }
}
