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
            streams.append(UnicastBackend(configuration: request.unicast).browse(types: request.types, domains: request.domains, watch: request.watch))
        }
        if !request.manual.isEmpty {
            streams.append(ManualBackend().resolve(request.manual, defaultTLS: request.manualTLS))
        }
        return merged(streams)
    }

    /// The events of several backends as one stream: beacons merged into rows, errors passed
    /// on, and `.allForNow` once every backend has sent its own (or ended).
    static func merged(_ backends: [AsyncStream<DiscoveryEvent>]) -> AsyncStream<DiscoveryEvent> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let (rawStream, rawContinuation) = AsyncStream<(Int, DiscoveryEvent?)>.makeStream(bufferingPolicy: .unbounded)
            let readers = backends.enumerated().map { index, stream in
                Task {
                    for await event in stream { rawContinuation.yield((index, event)) }
                    rawContinuation.yield((index, nil))   // this backend ended
                }
            }
            let merging = Task {
                var merger = BeaconMerger()
                var pending = Set(backends.indices)
                var running = Set(backends.indices)
                if backends.isEmpty { continuation.yield(.allForNow) }
                for await (index, event) in rawStream {
                    guard let event else {
                        running.remove(index)
                        // A backend that ended without all-for-now has said all it will.
                        if pending.remove(index) != nil, pending.isEmpty { continuation.yield(.allForNow) }
                        if running.isEmpty { break }
                        continue
                    }
                    if event == .allForNow {
                        // The first comes when every backend has reported; later ones (a backend
                        // caught up again after a restart, in watch mode) pass straight through.
                        if pending.isEmpty {
                            continuation.yield(.allForNow)
                        } else if pending.remove(index) != nil, pending.isEmpty {
                            continuation.yield(.allForNow)
                        }
                        continue
                    }
                    for merged in merger.apply(event) { continuation.yield(merged) }
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
