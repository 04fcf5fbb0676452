import Doctor

/// How often each Gateway is probed and when a change becomes an event. The defaults are the
/// command's; tests and the benchmark choose their own.
package struct WatchPolicy: Sendable, Equatable {
    /// Between two probes of a Gateway that is up (`watch --interval`, 30 s by default).
    package var interval: Duration = .seconds(30)
    /// The least `watch --interval` takes: under a second, each Gateway's probes (a TLS
    /// handshake each) would follow one another in a tight loop.
    package static let minimumInterval: Duration = .seconds(1)
    /// Each wait is stretched or shrunk by up to this fraction at random, so that Gateways
    /// found together are not probed together for ever.
    package var jitter = 0.1
    /// Consecutive failures of a Gateway that was up before it is reported down: one lost
    /// probe on a busy Wi-Fi is not an outage (hysteresis; a Gateway first seen down is
    /// reported at once).
    package var failuresBeforeDown = 2
    /// The wait between probes of a Gateway that is down doubles per failure up to this.
    package var maxBackoff: Duration = .seconds(300)
    /// Up/down changes within `flapWindow` that make a Gateway flapping; it is steady again
    /// after a whole window without a change.
    package var flapChanges = 4
    package var flapWindow: Duration = .seconds(600)
    /// A certificate whose notAfter is nearer than this is reported as expiring (once per
    /// certificate). OpenClaw's own warning (and doctor's gw.cert) starts at 14 days.
    package var expiryWarning: Duration = .seconds(14 * 86_400)
    /// The time one probe of one Gateway may take, every phase included.
    package var probeTimeout: Duration = .seconds(10)
    /// The checks each probe feeds (and what they need: TCP, TLS, the WebSocket opening):
    /// /healthz and /readyz are left to doctor, two TLS handshakes fewer per probe, which is
    /// most of what a thousand Gateways cost.
    package var checks: Set<CheckID> = [.gwConnect, .gwPin, .gwCert, .gwProtocol]
    /// A Gateway mDNS lists is first probed this long after it appears: Avahi resolves one
    /// address per event (IPv6 and IPv4 apart), and a probe of the first alone would judge a
    /// Gateway that listens on IPv4 only (OpenClaw's `bind: lan`) down. Avahi's resolves of
    /// one service come within a second of each other (measured: 100 in 0.9 s).
    package var addressSettle: Duration = .seconds(1)
    /// After a reread config changed the paths, discovery starts again; until it has said all it
    /// knows, or this long, Gateways it does not list yet are kept (Avahi says so within about
    /// a second; a DNS server that does not answer could take a lookup's timeout).
    package var rediscoverySettle: Duration = .seconds(10)
    /// A Gateway no discovery path lists any more (an mDNS goodbye, a record removed from its
    /// zone) is kept and probed this long (`watch --forget-after`, a day by default): a Gateway
    /// that stopped is `down`, and its series and /sd entry stay until then, or until a path lists
    /// it again.
    package var forgetAfter: Duration = .seconds(86_400)
    /// Probes in flight at once, so that a thousand Gateways due together queue instead of
    /// opening thousands of sockets.
    package var concurrentProbes = 64
    /// A probe this machine could not run (no descriptor left) is tried again after this (or
    /// the interval, when shorter), however long the Gateway's back-off.
    package var shortageRetry: Duration = .seconds(5)

    /// Descriptors kept for the probes (a few each: every address of a Gateway is tried at
    /// once), discovery (D-Bus, DNS sockets) and the process itself, which the metrics server's
    /// connections may never take (`MetricsServer.connectionLimit`).
    package var descriptorReserve: Int { concurrentProbes * 4 + 128 }

    package init() {}

    /// The wait before the next probe of a Gateway with `failures` consecutive failures, with
    /// `random` in 0..<1 choosing the jitter.
    package func wait(failures: Int, random: Double) -> Duration {
        var base = interval
        if failures > 0 {
            // 2^(failures-1) intervals, at most maxBackoff (the shift is capped to stay in range).
            base = min(maxBackoff, interval * (1 << min(failures - 1, 16)))
        }
        let factor = 1 + jitter * (2 * random - 1)
        return base * factor
    }
}
