/// What the bonjour plugin logs when it stops advertising without stopping the Gateway, since
/// its watchdog was removed (2026-07-14; extensions/bonjour/src/advertiser.ts,
/// handleCiaoProcessError, and docs/gateway/bonjour.md): no "watchdog detected ..." or
/// "disabling advertiser after N failed restarts" any more, and nothing restarts it.
extension GatewayService {
    /// Why the advertiser gave up, typed from its log line.
    package enum AdvertiserStop: Sendable, Equatable {
        /// "bonjour: disabling mDNS — networkInterfaces() unavailable in this environment": the
        /// process cannot list interfaces (a restricted sandbox).
        case noInterfaces(line: String)
        /// "bonjour: advertise failed ...": probing or announcing failed, and stays failed.
        case advertiseFailed(line: String)
    }

    /// The last journal line in which the advertiser gave up, when the Gateway itself keeps running.
    package var advertiserStop: AdvertiserStop? {
        guard !looping else { return nil }
        for line in journal.reversed() {
            let lowered = line.lowercased()
            if lowered.contains("disabling mdns"), lowered.contains("networkinterfaces() unavailable") {
                return .noInterfaces(line: line)
            }
            if lowered.contains("bonjour: advertise failed") { return .advertiseFailed(line: line) }
        }
        return nil
    }

    /// The advertiser's lines that can tell of a crash: since 2026.9 the bonjour plugin catches
    /// ciao's netmask and self-probe assertions and its cancellations and logs "bonjour:
    /// suppressing ciao ..." (the Gateway goes on), so those lines are not the crash.
    package var advertiserCrashLines: [String] {
        advertiserLines.filter { !$0.lowercased().contains("suppressing ciao") }
    }
}
