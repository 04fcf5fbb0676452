import Avahi
import DNSSD

/// mDNS in local., unicast DNS-SD in every wide-area domain and the manual targets, run
/// concurrently into one stream with a row per Gateway (see BeaconMerger for the identity
/// rule). A failing backend reports an error and never stops the others; `.allForNow`
/// comes once every backend has reported all it knows.
public enum DiscoverySession {
    public static func events(_ request: DiscoveryRequest) -> AsyncStream<DiscoveryEvent> {
        var streams: [AsyncStream<DiscoveryEvent>] = []
        if request.local {
            streams.append(request.multicast.browse(types: request.types, watch: request.watch))
        }
        if !request.domains.isEmpty {
            streams.append(
                UnicastBackend(configuration: request.unicast).browse(types: request.types, domains: request.domains, watch: request.watch))
        }
        if !request.manual.isEmpty {
            streams.append(ManualBackend(lookupTimeout: request.lookupTimeout).resolve(request.manual, defaultTLS: request.manualTLS))
        }
        return merged(streams)
    }

    /// The events of several backends as one stream: beacons merged into rows, errors passed
    /// on, `.allForNow` once every backend has sent its own (or ended), and the end once every
    /// backend has ended.
    static func merged(_ backends: [AsyncStream<DiscoveryEvent>]) -> AsyncStream<DiscoveryEvent> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let (rawStream, rawContinuation) = AsyncStream<(Int, DiscoveryEvent?)>.makeStream(bufferingPolicy: .unbounded)
            let readers = backends.enumerated().map { index, stream in
                Task {
                    for await event in stream { rawContinuation.yield((index, event)) }
                    rawContinuation.yield((index, nil))  // this backend ended
                }
            }
            let merging = Task {
                var merger = BeaconMerger()
                var completion = BackendCompletion(backends: backends.count)
                if backends.isEmpty {
                    continuation.yield(.allForNow)
                    rawContinuation.finish()
                }
                for await (index, event) in rawStream {
                    switch event {
                    case nil:
                        if completion.ended(index) { continuation.yield(.allForNow) }
                    case .allForNow?:
                        if completion.allForNow(from: index) { continuation.yield(.allForNow) }
                    case let event?:
                        for merged in merger.apply(event) { continuation.yield(merged) }
                    }
                    if completion.isFinished { break }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                readers.forEach { $0.cancel() }
                merging.cancel()
                rawContinuation.finish()
            }
        }
    }
}

/// When a merged stream of backends has reported all it knows, and when it is over.
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

    /// Backend `index` reported all it knows. True when the merged stream should say so: the
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
